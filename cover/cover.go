// Package cover makes the sizes a listing's cover is offered in (issue
// 25): JPEGs resized from the original with golang.org/x/image/draw, never
// enlarged, decoded once for every width.
package cover

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	_ "image/gif" // covers may be GIF
	"image/jpeg"
	_ "image/png" // covers may be PNG
	"strconv"

	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // covers may be WebP
)

// Widths are the widths a cover is offered in, in pixels.
var Widths = []int{320, 640, 960, 1280}

// maxPixels bounds the image decoded to resize it (a 5 MB PNG can claim
// far more pixels than it holds): a larger cover is offered only as it was
// uploaded.
const maxPixels = 40_000_000

// ErrCannotResize: the cover is not an image this package decodes, or has
// too many pixels.
var ErrCannotResize = errors.New("cover cannot be resized")

// SizeKey is where the size of width of the cover stored under key lives:
// "{key}.w{width}.jpg".
func SizeKey(key string, width int) string {
	return key + ".w" + strconv.Itoa(width) + ".jpg"
}

// Resize decodes the original once and returns a JPEG per width, in the
// order given. An original narrower than a width is not enlarged: that
// size is the original's width, re-encoded. Transparent parts become
// white (JPEG has no transparency). Errors: ErrCannotResize.
func Resize(original []byte, widths ...int) ([][]byte, error) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(original))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > maxPixels {
		return nil, ErrCannotResize
	}
	src, _, err := image.Decode(bytes.NewReader(original))
	if err != nil {
		return nil, ErrCannotResize
	}
	b := src.Bounds()
	out := make([][]byte, len(widths))
	for i, width := range widths {
		w := min(width, b.Dx())
		h := max(1, b.Dy()*w/b.Dx())
		dst := image.NewRGBA(image.Rect(0, 0, w, h))
		draw.Draw(dst, dst.Bounds(), &image.Uniform{color.White}, image.Point{}, draw.Src)
		draw.CatmullRom.Scale(dst, dst.Bounds(), src, b, draw.Over, nil)
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 80}); err != nil {
			return nil, fmt.Errorf("encode cover size: %w", err)
		}
		out[i] = buf.Bytes()
	}
	return out, nil
}
