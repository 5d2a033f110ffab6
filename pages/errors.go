package pages

import (
	"embed"
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"commerce/markdown"
	"commerce/problem"
)

//go:embed templates/*.html
var templateFiles embed.FS

var templates = template.Must(template.New("").Funcs(funcs).ParseFS(templateFiles, "templates/*.html"))

// analyticsData configures the analytics snippet.
type analyticsData struct {
	GAMeasurementID string
	Nonce           string
	Campaign        *campaign
	Purchase        *purchase
}

type campaign struct{ Source, Medium, Name string }

type purchase struct {
	TransactionID string
	Value         template.JS // a number in major units
	Currency      string
}

var funcs = template.FuncMap{
	"analytics": func(id, nonce, source, medium, name, txID, value, currency string) analyticsData {
		d := analyticsData{GAMeasurementID: id, Nonce: nonce}
		if source != "" {
			d.Campaign = &campaign{source, medium, name}
		}
		if txID != "" {
			d.Purchase = &purchase{TransactionID: txID, Value: template.JS(value), Currency: currency}
		}
		return d
	},
	"ratings": func() []int { return []int{5, 4, 3, 2, 1} },
	// initial is a title's first letter, for a purchase without a cover.
	"initial": func(s string) string {
		for _, r := range s {
			return strings.ToUpper(string(r))
		}
		return "?"
	},
	"stars": func(n int) string {
		n = min(max(n, 0), 5)
		return strings.Repeat("★", n) + strings.Repeat("☆", 5-n)
	},
	"rating": ratingText,
	// starsOf is an average as five stars, rounded to the nearest whole.
	"starsOf": func(avg *float64) string {
		if avg == nil {
			return ""
		}
		n := int(*avg + 0.5)
		return strings.Repeat("★", min(max(n, 0), 5)) + strings.Repeat("☆", 5-min(max(n, 0), 5))
	},
	"headMeta": headMeta,
	// described is a page's head with a plain-text description.
	"described":   func(title, desc string) *Meta { return &Meta{Title: title + " · commerce", Description: desc} },
	"markdown":    markdown.HTML,
	"stylesheet":  func() string { return stylesheet.path },
	"srcset":      func(s string) template.Srcset { return template.Srcset(s) }, //nolint:gosec // our own media URLs
	"productMeta": productMeta,
	"storeMeta":   storeMeta,
	"parts":       func() []string { return []string{"line1", "line2", "city", "postal_code", "state", "country"} },
	"partLabel": func(p string) string {
		return map[string]string{"line1": "Street", "line2": "Street (line 2)", "city": "City",
			"postal_code": "Postal code", "state": "State or region", "country": "Country"}[p]
	},
	"purchaseID": func(p any) string {
		if t, ok := p.(interface{ PurchaseID() string }); ok {
			return t.PurchaseID()
		}
		return ""
	},
}

// ratingText is an average rating with one decimal ("4.5"); "" for none.
func ratingText(avg *float64) string {
	if avg == nil {
		return ""
	}
	return strconv.FormatFloat(*avg, 'f', 1, 64)
}

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
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self'; connect-src 'self'; frame-ancestors 'none'")
	w.WriteHeader(status)
	_ = templates.ExecuteTemplate(w, "error_code.html", data)
}
