package resolvers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"commerce/cover"
	"commerce/storage"
)

// A cover's sizes (issue 25, package cover): each size is made once, when
// the cover is uploaded, or on the first request of it for a cover
// uploaded before sizes existed (or whose resizing failed then).

// CoverWidths are the widths a cover is offered in, in pixels.
var CoverWidths = cover.Widths

// coverSizeKey is where a size of the cover under key is stored.
func coverSizeKey(key string, width int) string { return cover.SizeKey(key, width) }

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

// resizeCover makes every size of the cover stored under key, decoding
// it once. A cover that cannot be decoded, or is too large to, has no
// sizes (its srcset entries then serve the original).
func (r *Resolver) resizeCover(ctx context.Context, key string) error {
	_, err := r.coverSizes(ctx, key, CoverWidths...)
	return err
}

// sizeNewCover makes the sizes of a cover just uploaded. A failure is
// logged and left to the first request of the size (coverSizeOnRequest):
// the listing is saved either way.
func (r *Resolver) sizeNewCover(ctx context.Context, key string) {
	if err := r.resizeCover(ctx, key); err != nil && !errors.Is(err, cover.ErrCannotResize) {
		r.Log.WarnContext(ctx, "cover sizes", "key", key, "error", err)
	}
}

// coverSizes makes and stores the sizes of widths of the cover under key
// and returns the JPEGs, in order.
func (r *Resolver) coverSizes(ctx context.Context, key string, widths ...int) ([][]byte, error) {
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
	sizes, err := cover.Resize(raw, widths...)
	if err != nil {
		return nil, err
	}
	for i, w := range widths {
		if err := r.Storage.Put(ctx, coverSizeKey(key, w), "image/jpeg", sizes[i]); err != nil {
			return nil, err
		}
	}
	return sizes, nil
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
	sizes, err := r.coverSizes(ctx, orig, width)
	if errors.Is(err, cover.ErrCannotResize) {
		rc, attrs, err := r.Storage.Reader(ctx, orig)
		return rc, attrs, true, err
	}
	if err != nil {
		return nil, storage.Attributes{}, true, err
	}
	data := sizes[0]
	return io.NopCloser(bytes.NewReader(data)), storage.Attributes{Size: int64(len(data)), ContentType: "image/jpeg"}, true, nil
}
