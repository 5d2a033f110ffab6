package pages

import (
	"bytes"
	"html/template"
	"net/http"
	"sync"

	"github.com/go-chi/chi/v5"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"commerce/docs"
)

// The developers' guides (docs/*.md), rendered once from the embedded
// Markdown, and the example code they link to.

// DocsRoutes serves the guides: /docs/licenses (HTML), /docs/licenses.md
// (the Markdown) and /docs/examples/licenseclient/main.go (the Go client
// the guide shows).
func (s *Site) DocsRoutes(r chi.Router) {
	r.Get("/docs/licenses", s.licensesDoc)
	r.Get("/docs/licenses.md", plainDoc("text/markdown; charset=utf-8", docs.Licenses))
	r.Get("/docs/examples/licenseclient/main.go", plainDoc("text/plain; charset=utf-8", docs.LicenseClient))
}

type docPage struct {
	Title  string
	Body   template.HTML
	Source string
}

// licensesHTML is docs/licenses.md as HTML (GitHub-flavoured Markdown:
// tables; raw HTML in the Markdown is not passed through).
var licensesHTML = sync.OnceValues(func() (template.HTML, error) {
	var b bytes.Buffer
	err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert(docs.Licenses, &b)
	return template.HTML(b.String()), err //nolint:gosec // our own Markdown, rendered without raw HTML
})

func (s *Site) licensesDoc(w http.ResponseWriter, r *http.Request) {
	body, err := licensesHTML()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "public, max-age=300")
	s.render(w, r, http.StatusOK, "doc.html", docPage{Title: "License keys for your app", Body: body, Source: "/docs/licenses.md"})
}

func plainDoc(contentType string, body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Cache-Control", "public, max-age=300")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		_, _ = w.Write(body)
	}
}
