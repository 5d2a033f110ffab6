package resolvers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	_ "image/gif" // covers may be GIF
	"image/jpeg"
	_ "image/png" // covers may be PNG
	"io"
	"strconv"
	"strings"

	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // covers may be WebP

	"commerce/storage"
)

// A cover's sizes (issue 25): the product and store pages offer the cover
// in CoverWidths (srcset), each a JPEG resized from the original with
// golang.org/x/image/draw and stored beside it ("{cover}.w640.jpg"). A
// size is made once: when the cover is uploaded, or on the first request
// of it for a cover uploaded before sizes existed (or whose resizing
// failed then). An original narrower than a size is not enlarged: that
// size is the original's width, re-encoded.

// CoverWidths are the widths a cover is offered in, in pixels.
var CoverWidths = []int{320, 640, 960, 1280}

// maxCoverPixels bounds the image decoded to resize it (a 5 MB PNG can
// claim far more pixels than it holds): a larger cover is offered only
// as it was uploaded.
const maxCoverPixels = 40_000_000

// coverSizeSuffix ends a size's key: ".w{width}.jpg".
func coverSizeKey(key string, width int) string {
	return key + ".w" + strconv.Itoa(width) + ".jpg"
}

// coverBlobs are a cover's stored objects: the original and its sizes.
func coverBlobs(key string) []string {
	keys := []string{key}
	for _, w := range CoverWidths {
		keys = append(keys, coverSizeKey(key, w))
	}
	return keys
}

// CoverSrcset is the srcset of a cover stored under key.
func (r *Resolver) CoverSrcset(key string) string {
	parts := make([]string, len(CoverWidths))
	for i, w := range CoverWidths {
		parts[i] = r.MediaURL(coverSizeKey(key, w)) + " " + strconv.Itoa(w) + "w"
	}
	return strings.Join(parts, ", ")
}

// coverSizeOf tells a size's key from others: the original's key and the
// width, ok false for any other key.
func coverSizeOf(key string) (string, int, bool) {
	if !strings.HasPrefix(key, publicPrefix+"covers/") || !strings.HasSuffix(key, ".jpg") {
		return "", 0, false
	}
	rest := strings.TrimSuffix(key, ".jpg")
	i := strings.LastIndex(rest, ".w")
	if i < 0 {
		return "", 0, false
	}
	w, err := strconv.Atoi(rest[i+2:])
	if err != nil {
		return "", 0, false
	}
	for _, cw := range CoverWidths {
		if cw == w {
			return rest[:i], w, true
		}
	}
	return "", 0, false
}

// resizeCover makes every size of the cover stored under key. A cover
// that cannot be decoded, or is too large to, has no sizes (its srcset
// entries then serve the original).
func (r *Resolver) resizeCover(ctx context.Context, key string) error {
	for _, w := range CoverWidths {
		if _, err := r.coverSize(ctx, key, w); err != nil {
			return err
		}
	}
	return nil
}

// sizeNewCover makes the sizes of a cover just uploaded. A failure is
// logged and left to the first request of the size (coverSizeOnRequest):
// the listing is saved either way.
func (r *Resolver) sizeNewCover(ctx context.Context, key string) {
	if err := r.resizeCover(ctx, key); err != nil && !errors.Is(err, errNoCoverSize) {
		r.Log.WarnContext(ctx, "cover sizes", "key", key, "error", err)
	}
}

// errNoCoverSize: the cover cannot be resized (not an image this service
// decodes, or too many pixels).
var errNoCoverSize = errors.New("cover cannot be resized")

// coverSize makes and stores one size of the cover under key and returns
// the JPEG.
func (r *Resolver) coverSize(ctx context.Context, key string, width int) ([]byte, error) {
	rc, _, err := r.Storage.Reader(ctx, key)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	// A cover is at most 5 MB (storage's rule); read a little more to be sure.
	raw, err := io.ReadAll(io.LimitReader(rc, 16<<20))
	if err != nil {
		return nil, fmt.Errorf("read cover %s: %w", key, err)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(raw))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > maxCoverPixels {
		return nil, errNoCoverSize
	}
	src, _, err := image.Decode(bytes.NewReader(raw))
	if err != nil {
		return nil, errNoCoverSize
	}
	b := src.Bounds()
	w := min(width, b.Dx())
	h := max(1, b.Dy()*w/b.Dx())
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	// JPEG has no transparency: transparent parts become white.
	draw.Draw(dst, dst.Bounds(), &image.Uniform{color.White}, image.Point{}, draw.Src)
	draw.CatmullRom.Scale(dst, dst.Bounds(), src, b, draw.Over, nil)
	var out bytes.Buffer
	if err := jpeg.Encode(&out, dst, &jpeg.Options{Quality: 80}); err != nil {
		return nil, fmt.Errorf("encode cover size: %w", err)
	}
	if err := r.Storage.Put(ctx, coverSizeKey(key, width), "image/jpeg", out.Bytes()); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// coverSizeOnRequest makes a size asked for before it exists (a cover
// uploaded before sizes, or whose resizing failed): the size, made and
// stored now, or the original when it cannot be resized. ok is false
// when name is not a cover's size.
func (r *Resolver) coverSizeOnRequest(ctx context.Context, key string) (io.ReadCloser, storage.Attributes, bool, error) {
	orig, width, ok := coverSizeOf(key)
	if !ok {
		return nil, storage.Attributes{}, false, nil
	}
	data, err := r.coverSize(ctx, orig, width)
	if errors.Is(err, errNoCoverSize) {
		rc, attrs, err := r.Storage.Reader(ctx, orig)
		return rc, attrs, true, err
	}
	if err != nil {
		return nil, storage.Attributes{}, true, err
	}
	return io.NopCloser(bytes.NewReader(data)), storage.Attributes{Size: int64(len(data)), ContentType: "image/jpeg"}, true, nil
}
