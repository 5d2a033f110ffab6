package server

import (
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
)

// apidocsFiles is the API reference at /docs/api: the page (index.html),
// its style sheet, and in vendor/ Redoc's standalone bundle that
// scripts/apidocs.sh (make apidocs) pins, verifies and extracts, with its
// licence and manifest.json. The page renders /v1/openapi.yaml; nothing is
// loaded from another host.
//
//go:embed apidocs
var apidocsFiles embed.FS

// apidocsPath is the API reference's page; its assets are under it.
const (
	apidocsPath   = "/docs/api"
	apidocsAssets = apidocsPath + "/assets/"
	// apidocsSpec is what the page renders.
	apidocsSpec = "/v1/openapi.yaml"
)

var apidocsTypes = map[string]string{
	".js":  "text/javascript; charset=utf-8",
	".css": "text/css; charset=utf-8",
}

// apidocs is the page template and the assets it refers to.
type apidocs struct {
	page *template.Template
	// urls maps a file under apidocs/ to its URL:
	// /docs/api/assets/{first 16 hex digits of its SHA-256}/{base name}.
	urls map[string]string
	// assets maps "{hash}/{base name}" to the file.
	assets map[string]*ideAsset
}

// loadAPIDocs reads the embedded files once, on first use. Anything missing
// is a build defect, so it panics (the tests load it).
var loadAPIDocs = sync.OnceValue(func() *apidocs {
	d := &apidocs{urls: map[string]string{}, assets: map[string]*ideAsset{}}
	err := fs.WalkDir(apidocsFiles, "apidocs", func(p string, e fs.DirEntry, err error) error {
		ct, ok := apidocsTypes[path.Ext(p)]
		if err != nil || e.IsDir() || !ok {
			return err
		}
		data, err := apidocsFiles.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		key := hex.EncodeToString(sum[:])[:16] + "/" + path.Base(p)
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		_, _ = zw.Write(data)
		if err := zw.Close(); err != nil {
			return err
		}
		tag := hex.EncodeToString(sum[:16])
		d.assets[key] = &ideAsset{contentType: ct, data: data, gz: gz.Bytes(), etag: `"` + tag + `"`, gzTag: `"` + tag + `-gzip"`}
		d.urls[strings.TrimPrefix(p, "apidocs/")] = apidocsAssets + key
		return nil
	})
	if err != nil {
		panic(fmt.Sprintf("apidocs: embedded files: %v", err))
	}
	d.page = template.Must(template.ParseFS(apidocsFiles, "apidocs/index.html"))
	return d
})

// apidocsPage is what index.html is rendered with.
type apidocsPage struct {
	d     *apidocs
	Nonce string
	Spec  string
}

// URL is the URL of an embedded file (a path under apidocs/).
func (p apidocsPage) URL(name string) (string, error) {
	u, ok := p.d.urls[name]
	if !ok {
		return "", fmt.Errorf("apidocs: no embedded asset %s", name)
	}
	return u, nil
}

// apiReference serves GET and HEAD /docs/api: Redoc rendering
// /v1/openapi.yaml, from the files embedded in the binary. The
// Content-Security-Policy admits this host only: its own scripts (no inline
// script), its style sheet and the style elements Redoc injects (tagged with
// the page's nonce, which Redoc reads from <meta property="csp-nonce">),
// data: images and fonts, fetches to this host (the OpenAPI document), and
// the blob: worker Redoc's search runs in.
func apiReference() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d := loadAPIDocs()
		nonce := make([]byte, 18)
		_, _ = rand.Read(nonce)
		// URL-safe base64: nothing html/template escapes in the meta element.
		p := apidocsPage{d: d, Nonce: base64.RawURLEncoding.EncodeToString(nonce), Spec: apidocsSpec}
		var buf bytes.Buffer
		if err := d.page.Execute(&buf, p); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self' 'nonce-"+p.Nonce+"'; "+
			"img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src blob:; "+
			"base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("Cache-Control", "no-store")
		h.Set("Content-Length", strconv.Itoa(buf.Len()))
		w.WriteHeader(http.StatusOK)
		if r.Method != http.MethodHead {
			_, _ = w.Write(buf.Bytes())
		}
	})
}

// apiReferenceAssets serves the page's embedded script and style sheet on
// GET /docs/api/assets/{hash}/{name}: content-addressed, so cached for a
// year; gzip when the client accepts it. Anything else goes to notFound.
func apiReferenceAssets(notFound http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a, ok := loadAPIDocs().assets[strings.TrimPrefix(r.URL.Path, apidocsAssets)]
		if !ok {
			notFound.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		h.Set("Content-Type", a.contentType)
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Add("Vary", "Accept-Encoding")
		body, etag := a.data, a.etag
		if acceptsGzip(r.Header.Get("Accept-Encoding")) {
			body, etag = a.gz, a.gzTag
			h.Set("Content-Encoding", "gzip")
		}
		h.Set("ETag", etag)
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
	})
}
