package pages

import (
	"bufio"
	"encoding/json"
	"encoding/xml"
	"errors"
	"html/template"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"commerce/markdown"
	"commerce/resolvers"
)

// How buyer pages are found and shared (CONTRACT §10): the head's title,
// description, canonical link, Open Graph and Twitter card, the product's
// JSON-LD, /robots.txt and /sitemap.xml.

// Meta is what a page's head says of it.
type Meta struct {
	Title string
	// Description is plain text ("" leaves the meta tag out).
	Description string
	// Canonical is the page's own absolute URL, without a query string;
	// "" for pages that have none to declare. With it come Open Graph
	// (Type "product" or "website", Image absolute) and the Twitter card.
	Canonical string
	Type      string
	Image     string
	// Icon is the page's icon: the store's avatar, else the service's.
	Icon string
	// JSONLD is the page's structured data, already JSON.
	JSONLD template.JS
	// Seller, when set, heads the page: the store's name (and avatar)
	// linking to its store page.
	Seller *Seller
	// MainClass is the class of the page's main element ("" for the
	// narrow column).
	MainClass string
}

// Seller is the store a page belongs to.
type Seller struct{ Name, URL, Avatar string }

// metaDescriptionLength bounds a meta description, in characters.
const metaDescriptionLength = 160

// headMeta is what the layout's head takes: a Meta, or a title alone.
func headMeta(v any) *Meta {
	var m *Meta
	switch t := v.(type) {
	case *Meta:
		m = t
	case Meta:
		m = &t
	case string:
		m = &Meta{Title: t + " · commerce"}
	default:
		m = &Meta{Title: "commerce"}
	}
	if m.Icon == "" {
		m.Icon = icon.path
	}
	return m
}

// productMeta is a product page's head.
func productMeta(p *resolvers.ProductPage) *Meta {
	desc := markdown.Text(p.Description, metaDescriptionLength)
	if desc == "" {
		desc = p.Title + " by " + p.StoreName + ", " + p.PriceText + "."
	}
	m := &Meta{Title: p.Title + " · " + p.StoreName, Description: desc, Canonical: p.URL, Type: "product",
		Image: p.CoverURL, Icon: p.StoreAvatarURL, MainClass: "product-main",
		Seller: &Seller{Name: p.StoreName, URL: p.StoreURL, Avatar: p.StoreAvatarURL}}
	if m.Image == "" {
		m.Image = p.StoreAvatarURL
	}
	m.JSONLD = productJSONLD(p, desc)
	return m
}

// storeMeta is a store page's head.
func storeMeta(st *resolvers.PublicStore) *Meta {
	name := st.DisplayName
	if name == "" {
		name = st.Slug
	}
	desc := markdown.Text(st.Bio, metaDescriptionLength)
	if desc == "" {
		desc = "Products by " + name + "."
	}
	m := &Meta{Title: name, Description: desc, Canonical: st.URL, Type: "website", Image: st.AvatarURL, Icon: st.AvatarURL, MainClass: "wide"}
	if m.Image == "" {
		for _, l := range st.Listings {
			if l.CoverURL != "" {
				m.Image = l.CoverURL
				break
			}
		}
	}
	return m
}

type jsonldOffer struct {
	Type          string `json:"@type"`
	Price         string `json:"price"`
	PriceCurrency string `json:"priceCurrency"`
	Availability  string `json:"availability"`
	URL           string `json:"url"`
}

type jsonldRating struct {
	Type        string `json:"@type"`
	RatingValue string `json:"ratingValue"`
	ReviewCount int    `json:"reviewCount"`
}

type jsonldProduct struct {
	Context         string        `json:"@context"`
	Type            string        `json:"@type"`
	Name            string        `json:"name"`
	Description     string        `json:"description"`
	Image           string        `json:"image,omitempty"`
	URL             string        `json:"url"`
	Offers          jsonldOffer   `json:"offers"`
	AggregateRating *jsonldRating `json:"aggregateRating,omitempty"`
}

// productJSONLD is the product's schema.org Product. encoding/json writes
// <, > and & as \u003c, \u003e and \u0026, so no text can close the
// script element.
func productJSONLD(p *resolvers.ProductPage, desc string) template.JS {
	ld := jsonldProduct{Context: "https://schema.org", Type: "Product", Name: p.Title, Description: desc,
		Image: p.CoverURL, URL: p.URL,
		Offers: jsonldOffer{Type: "Offer", Price: p.PriceMajor, PriceCurrency: strings.ToUpper(p.Currency),
			Availability: "https://schema.org/OutOfStock", URL: p.URL}}
	if p.Available {
		ld.Offers.Availability = "https://schema.org/InStock"
	}
	if rv := p.Reviews; rv != nil && rv.Count > 0 && rv.AverageRating != nil {
		ld.AggregateRating = &jsonldRating{Type: "AggregateRating", RatingValue: ratingText(rv.AverageRating), ReviewCount: rv.Count}
	}
	b, err := json.Marshal(ld)
	if err != nil {
		return ""
	}
	return template.JS(b) //nolint:gosec // JSON with <, > and & escaped
}

// robotsTxt is /robots.txt, exactly CONTRACT §10's rules.
const robotsTxt = `User-agent: *
Allow: /p/
Allow: /s/
Disallow: /d/
Disallow: /library
Disallow: /console
Disallow: /sandbox
Disallow: /v1/

Sitemap: %s/sitemap.xml
`

func (s *Site) robots(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	_, _ = w.Write([]byte(strings.Replace(robotsTxt, "%s", s.Resolver.BaseURL, 1)))
}

// sitemap answers /sitemap.xml: every product and store page in one
// urlset while they fit in one sitemap, else a sitemap index naming
// /sitemap/products.xml and /sitemap/stores.xml pages (?after= a key).
func (s *Site) sitemap(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	size := s.Resolver.SitemapPageSize()
	products, err := s.Resolver.SitemapCount(ctx, resolvers.SitemapProducts)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	stores, err := s.Resolver.SitemapCount(ctx, resolvers.SitemapStores)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if products+stores <= size {
		s.writeURLSet(w, r, func(fn func(resolvers.SitemapURL) error) error {
			if err := s.Resolver.SitemapEach(ctx, resolvers.SitemapProducts, "", size, fn); err != nil {
				return err
			}
			return s.Resolver.SitemapEach(ctx, resolvers.SitemapStores, "", size, fn)
		})
		return
	}
	var locs []string
	for _, kind := range []resolvers.SitemapKind{resolvers.SitemapProducts, resolvers.SitemapStores} {
		starts, err := s.Resolver.SitemapStarts(ctx, kind)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		for _, after := range starts {
			loc := s.Resolver.BaseURL + "/sitemap/" + string(kind) + ".xml"
			if after != "" {
				loc += "?after=" + after
			}
			locs = append(locs, loc)
		}
	}
	xmlHeaders(w)
	bw := bufio.NewWriter(w)
	_, _ = bw.WriteString(xml.Header + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, loc := range locs {
		_, _ = bw.WriteString("<sitemap><loc>" + xmlText(loc) + "</loc></sitemap>\n")
	}
	_, _ = bw.WriteString("</sitemapindex>\n")
	_ = bw.Flush()
}

// sitemapPart answers one page of a sitemap index: up to the sitemap's
// size of product or store pages after a key.
func (s *Site) sitemapPart(w http.ResponseWriter, r *http.Request) {
	kind := resolvers.SitemapKind(chi.URLParam(r, "kind"))
	if kind != resolvers.SitemapProducts && kind != resolvers.SitemapStores {
		http.NotFound(w, r)
		return
	}
	after := r.URL.Query().Get("after")
	if err := s.Resolver.SitemapEach(r.Context(), kind, after, 0, nil); err != nil {
		s.fail(w, r, err) // an after that cannot be a key: 404 before anything is written
		return
	}
	s.writeURLSet(w, r, func(fn func(resolvers.SitemapURL) error) error {
		return s.Resolver.SitemapEach(r.Context(), kind, after, s.Resolver.SitemapPageSize(), fn)
	})
}

func xmlHeaders(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	w.Header().Set("Cache-Control", "public, max-age=3600")
}

// writeURLSet streams a urlset: each URL is written as it is read.
func (s *Site) writeURLSet(w http.ResponseWriter, r *http.Request, each func(func(resolvers.SitemapURL) error) error) {
	xmlHeaders(w)
	bw := bufio.NewWriter(w)
	_, _ = bw.WriteString(xml.Header + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	err := each(func(u resolvers.SitemapURL) error {
		_, _ = bw.WriteString("<url><loc>" + xmlText(u.Loc) + "</loc>")
		if !u.LastMod.IsZero() {
			_, _ = bw.WriteString("<lastmod>" + u.LastMod.UTC().Format(time.RFC3339) + "</lastmod>")
		}
		_, err := bw.WriteString("</url>\n")
		return err
	})
	if err != nil {
		// The status is sent: an unfinished document is the only way left
		// to say so, and the log says why.
		if !errors.Is(err, r.Context().Err()) {
			s.Log.ErrorContext(r.Context(), "sitemap", "error", err)
		}
		_ = bw.Flush()
		return
	}
	_, _ = bw.WriteString("</urlset>\n")
	_ = bw.Flush()
}

func xmlText(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}
