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

// guide is one of the guides: its path (HTML at /docs/{name}, Markdown
// at /docs/{name}.md), its title and its Markdown.
type guide struct {
	name, title string
	md          []byte
	html        func() (template.HTML, error)
}

// newGuide renders md once, when first served (GitHub-flavoured Markdown:
// tables; raw HTML in the Markdown is not passed through).
func newGuide(name, title string, md []byte) guide {
	return guide{name: name, title: title, md: md, html: sync.OnceValues(func() (template.HTML, error) {
		var b bytes.Buffer
		err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert(md, &b)
		return template.HTML(b.String()), err //nolint:gosec // our own Markdown, rendered without raw HTML
	})}
}

// guides are the developers' and sellers' guides.
var guides = []guide{
	newGuide("licenses", "License keys for your app", docs.Licenses),
	newGuide("memberships", "Memberships: sell by the month or the year", docs.Memberships),
	newGuide("acp", "Buyers' agents: the Agentic Commerce Protocol", docs.ACP),
}

// DocsRoutes serves the guides, /docs/{name} (HTML) and /docs/{name}.md
// (the Markdown), and /docs/examples/licenseclient/main.go (the Go client
// the license guide shows).
func (s *Site) DocsRoutes(r chi.Router) {
	for _, g := range guides {
		r.Get("/docs/"+g.name, s.guideDoc(g))
		r.Get("/docs/"+g.name+".md", plainDoc("text/markdown; charset=utf-8", g.md))
	}
	r.Get("/docs/examples/licenseclient/main.go", plainDoc("text/plain; charset=utf-8", docs.LicenseClient))
}

type docPage struct {
	Title  string
	Body   template.HTML
	Source string
}

func (s *Site) guideDoc(g guide) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, err := g.html()
		if err != nil {
			s.fail(w, r, err)
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=300")
		s.render(w, r, http.StatusOK, "doc.html", docPage{Title: g.title, Body: body, Source: "/docs/" + g.name + ".md"})
	}
}

func plainDoc(contentType string, body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Cache-Control", "public, max-age=300")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		_, _ = w.Write(body)
	}
}
