package pages

import (
	"embed"
	"html/template"
	"net/http"

	"github.com/go-chi/chi/v5"

	"commerce/problem"
)

//go:embed templates/*.html
var templateFiles embed.FS

var templates = template.Must(template.ParseFS(templateFiles, "templates/*.html"))

type codeDoc struct {
	Code   string
	Status int
	Title  string
	About  string
}

// ErrorCode serves {base_url}/errors/{code}: what a problem code means. An
// unknown code answers 404 with the index of codes.
func ErrorCode(w http.ResponseWriter, r *http.Request) {
	code := problem.Code(chi.URLParam(r, "code"))
	status := http.StatusOK
	data := map[string]any{}
	if code.Known() {
		data["Doc"] = codeDoc{string(code), code.Status(), code.Title(), code.About()}
	} else {
		status = http.StatusNotFound
	}
	var all []codeDoc
	for _, c := range problem.Codes() {
		all = append(all, codeDoc{string(c), c.Status(), c.Title(), c.About()})
	}
	data["All"] = all
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
	w.WriteHeader(status)
	_ = templates.ExecuteTemplate(w, "error_code.html", data)
}
