package server

import (
	"bytes"
	"crypto/rand"
	"embed"
	"encoding/base64"
	"net/http"
	"strconv"
	"sync"
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

// loadAPIDocs reads the embedded files once, on first use (the IDE's
// mechanism: loadEmbeddedPage). Anything missing is a build defect, so it
// panics (the tests load it).
var loadAPIDocs = sync.OnceValue(func() *ide { return loadEmbeddedPage(apidocsFiles, "apidocs", apidocsAssets) })

// apidocsPage is what index.html is rendered with: the embedded page's
// URL and Nonce (idePage), and the document Redoc renders.
type apidocsPage struct {
	idePage
	Spec string
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
		p := apidocsPage{idePage: idePage{ide: d, Nonce: base64.RawURLEncoding.EncodeToString(nonce)}, Spec: apidocsSpec}
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
	return embeddedAssets(loadAPIDocs, apidocsAssets, notFound)
}
