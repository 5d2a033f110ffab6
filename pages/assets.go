package pages

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/binary"
	"encoding/hex"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"
)

// The buyer pages' assets, served by the service itself (CONTRACT §10):
// one small stylesheet and the service's icon, each at an address that
// carries a hash of its content and so is cached for a year, and
// /favicon.ico for browsers that ask for it.

//go:embed assets/site.css assets/icon.svg
var assetFiles embed.FS

type asset struct {
	path, contentType string
	body              []byte
}

func newAsset(name, ext, contentType string) asset {
	b, err := assetFiles.ReadFile("assets/" + name + ext)
	if err != nil {
		panic(err)
	}
	sum := sha256.Sum256(b)
	return asset{path: "/assets/" + name + "." + hex.EncodeToString(sum[:6]) + ext, contentType: contentType, body: b}
}

var (
	stylesheet = newAsset("site", ".css", "text/css; charset=utf-8")
	icon       = newAsset("icon", ".svg", "image/svg+xml")
	// faviconICO is the icon as /favicon.ico: a 32×32 PNG in an ICO.
	faviconICO = icoOf(iconPNG())
)

func (a asset) serve(w http.ResponseWriter, _ *http.Request) {
	h := w.Header()
	h.Set("Content-Type", a.contentType)
	h.Set("Content-Length", strconv.Itoa(len(a.body)))
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(a.body)
}

// AssetRoutes registers the stylesheet, the icon, /favicon.ico,
// /robots.txt and the sitemap.
func (s *Site) AssetRoutes(r chi.Router) {
	r.Get("/assets/{name}", func(w http.ResponseWriter, r *http.Request) {
		for _, a := range []asset{stylesheet, icon} {
			if r.URL.Path == a.path {
				a.serve(w, r)
				return
			}
		}
		http.NotFound(w, r) // an old hash, or no such asset
	})
	r.Get("/favicon.ico", func(w http.ResponseWriter, _ *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "image/x-icon")
		h.Set("Content-Length", strconv.Itoa(len(faviconICO)))
		h.Set("Cache-Control", "public, max-age=86400")
		_, _ = w.Write(faviconICO)
	})
	r.Get("/robots.txt", s.robots)
	r.Get("/sitemap.xml", s.sitemap)
	r.Get("/sitemap/{kind}.xml", s.sitemapPart)
}

// iconPNG draws the service's icon (a bag on the accent colour) at 32×32.
func iconPNG() []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 32, 32))
	accent, white := color.NRGBA{0x43, 0x38, 0xca, 0xff}, color.NRGBA{0xff, 0xff, 0xff, 0xff}
	for y := range 32 {
		for x := range 32 {
			c := accent
			// The bag: a trapezoid, and its handle.
			if y >= 12 && y < 23 && x >= 9+(y-12)/7 && x < 23-(y-12)/7 {
				c = white
			}
			dx, dy := x-16, y-12
			if d := dx*dx + dy*dy; y < 12 && d >= 9 && d <= 16 {
				c = white
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

// icoOf wraps a 32×32 PNG in an ICO file.
func icoOf(p []byte) []byte {
	var b bytes.Buffer
	_ = binary.Write(&b, binary.LittleEndian, []uint16{0, 1, 1}) // reserved, type icon, one image
	b.Write([]byte{32, 32, 0, 0})                                // width, height, colours, reserved
	_ = binary.Write(&b, binary.LittleEndian, []uint16{1, 32})   // planes, bits per pixel
	_ = binary.Write(&b, binary.LittleEndian, []uint32{uint32(len(p)), 22})
	b.Write(p)
	return b.Bytes()
}
