package pages_test

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

// The storefront (issue 25, CONTRACT §10): found and shared.

// sellerIn is a connected sandbox seller in cur with a store.
func sellerIn(t *testing.T, env *testkit.Env, store, cur string) seller {
	t.Helper()
	acc := env.NewAccount()
	onb := env.Post("/v1/account/processor/connect", acc.Key, nil)
	require.Equal(t, 200, onb.Status, "%s", onb.Body)
	resp, _ := send(t, env, "POST", onb.JSON(t)["url"].(string), "", url.Values{"currency": {cur}})
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	r := env.Do(testkit.Request{Method: "PUT", Path: "/v1/store", Key: acc.Key, Body: map[string]any{"display_name": store,
		"bio": "Field guides, **drawn by hand**.", "slug": "shop-" + testkit.Unique()}})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	return seller{Account: acc, Store: store, Slug: r.JSON(t)["slug"].(string)}
}

var (
	metaTag   = regexp.MustCompile(`<meta (?:name|property)="([^"]+)" content="([^"]*)">`)
	canonical = regexp.MustCompile(`<link rel="canonical" href="([^"]*)">`)
	titleTag  = regexp.MustCompile(`<title>([^<]*)</title>`)
	jsonLD    = regexp.MustCompile(`(?s)<script type="application/ld\+json">(.*?)</script>`)
	iconLink  = regexp.MustCompile(`<link rel="icon" href="([^"]+)">`)
	styleLink = regexp.MustCompile(`<link rel="stylesheet" href="([^"]+)">`)
)

// metas are a page's meta tags by name or property (entities decoded).
func metas(t *testing.T, page string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, m := range metaTag.FindAllStringSubmatch(page, -1) {
		require.NotContains(t, out, m[1], "one %s", m[1])
		out[m[1]] = html.UnescapeString(m[2])
	}
	return out
}

func TestProductPageMetaAndJSONLD(t *testing.T) {
	t.Parallel()
	env := pagesEnv(t)
	for _, c := range []struct {
		cur, price, currency string
	}{{"usd", "29.00", "USD"}, {"jpy", "2900", "JPY"}} {
		t.Run(c.cur, func(t *testing.T) {
			s := sellerIn(t, env, "Moss & Fern", c.cur)
			title := `Moss </script><script>alert(1)</script> guide`
			l := publish(t, env, s.Key, map[string]any{"title": title, "price": 2900,
				"description":  "# Mosses\n\nA **field guide** to <b>forty</b> mosses, with [maps](https://maps.example).",
				"utm_source":   "newsletter",
				"deliverables": []map[string]any{{"type": "text", "value": "Thanks"}}})
			body := page(t, env, "/p/"+l["slug"].(string)+"?utm_source=x&utm_medium=y", "")
			m := metas(t, body)
			want := env.URL + "/p/" + l["slug"].(string)
			require.Equal(t, []string{want}, canonicalsOf(body), "one canonical, no query string")
			require.Equal(t, "A field guide to forty mosses, with maps.", m["description"][len("Mosses "):], "plain text")
			require.Equal(t, "Mosses A field guide to forty mosses, with maps.", m["description"])
			require.Equal(t, want, m["og:url"])
			require.Equal(t, "product", m["og:type"])
			require.Equal(t, title+" · Moss & Fern", m["og:title"])
			require.Equal(t, m["description"], m["og:description"])
			require.Equal(t, "summary_large_image", m["twitter:card"])
			tt := titleTag.FindStringSubmatch(body)
			require.NotNil(t, tt)
			require.Contains(t, html.UnescapeString(tt[1]), title)

			// One JSON-LD, and no text closes its script element.
			lds := jsonLD.FindAllStringSubmatch(body, -1)
			require.Len(t, lds, 1)
			require.NotContains(t, lds[0][1], "</script")
			require.NotContains(t, lds[0][1], "<")
			var ld map[string]any
			require.NoError(t, json.Unmarshal([]byte(lds[0][1]), &ld))
			require.Equal(t, "https://schema.org", ld["@context"])
			require.Equal(t, "Product", ld["@type"])
			require.Equal(t, title, ld["name"])
			require.Equal(t, m["description"], ld["description"])
			offers := ld["offers"].(map[string]any)
			require.Equal(t, c.price, offers["price"])
			require.Equal(t, c.currency, offers["priceCurrency"])
			require.Equal(t, "https://schema.org/InStock", offers["availability"])
			require.Equal(t, want, offers["url"])
			require.NotContains(t, ld, "aggregateRating", "no reviews, no rating")
			require.NotContains(t, ld, "image", "no cover")

			// An icon, and the stylesheet, both answer 200 from the service.
			for _, re := range []*regexp.Regexp{iconLink, styleLink} {
				href := re.FindStringSubmatch(body)
				require.NotNil(t, href)
				resp, _ := send(t, env, "GET", href[1], "", nil)
				require.Equal(t, 200, resp.StatusCode, href[1])
			}
		})
	}
}

func canonicalsOf(page string) []string {
	var out []string
	for _, m := range canonical.FindAllStringSubmatch(page, -1) {
		out = append(out, html.UnescapeString(m[1]))
	}
	return out
}

func TestProductPageJSONLDRatingAndAvailability(t *testing.T) {
	t.Parallel()
	env := pagesEnv(t)
	s := newSeller(t, env, "Rated Shop")
	l := publish(t, env, s.Key, map[string]any{"title": "Rated " + testkit.Unique(), "price": 1500,
		"deliverables": []map[string]any{{"type": "text", "value": "Thanks"}}})
	slug := l["slug"].(string)
	// Two buyers' reviews, as the download page stores them.
	for i, rating := range []int{5, 4} {
		orderID := buy(t, env, slug, url.Values{"email": {uniqueEmail("rate")}})
		_, err := env.Server.DB.Pool.Exec(t.Context(), `INSERT INTO reviews (id, account_id, listing_id, order_id, rating, body, buyer_name)
			SELECT $1, account_id, $2, id, $4, 'Good', 'Ann' FROM orders WHERE id = $3`, fmt.Sprintf("rev_%s%d", testkit.Unique(), i), l["id"], orderID, rating)
		require.NoError(t, err)
	}
	body := page(t, env, "/p/"+slug, "")
	var ld map[string]any
	require.NoError(t, json.Unmarshal([]byte(jsonLD.FindStringSubmatch(body)[1]), &ld))
	require.Equal(t, map[string]any{"@type": "AggregateRating", "ratingValue": "4.5", "reviewCount": float64(2)}, ld["aggregateRating"])
	require.Contains(t, text(body), "4.5 out of 5 (2 reviews)")

	// The seller disconnects the processor: the page still answers 200, out of stock.
	_, err := env.Server.DB.Pool.Exec(t.Context(), `UPDATE accounts SET processor_account_id = NULL WHERE id = $1`, s.ID)
	require.NoError(t, err)
	body = page(t, env, "/p/"+slug, "")
	require.NoError(t, json.Unmarshal([]byte(jsonLD.FindStringSubmatch(body)[1]), &ld))
	require.Equal(t, "https://schema.org/OutOfStock", ld["offers"].(map[string]any)["availability"])
}

func TestStorePageMeta(t *testing.T) {
	t.Parallel()
	env := pagesEnv(t)
	s := sellerIn(t, env, "Fern Press", "usd")
	publish(t, env, s.Key, map[string]any{"title": "Fern atlas", "price": 2500, "deliverables": []map[string]any{{"type": "text", "value": "x"}}})
	body := page(t, env, "/s/"+s.Slug+"?code=SPRING25&utm_source=x", "")
	m := metas(t, body)
	want := env.URL + "/s/" + s.Slug
	require.Equal(t, []string{want}, canonicalsOf(body))
	require.Equal(t, "Field guides, drawn by hand.", m["description"])
	require.Equal(t, want, m["og:url"])
	require.Equal(t, "website", m["og:type"])
	require.Equal(t, "Fern Press", m["og:title"])
	require.Equal(t, "summary_large_image", m["twitter:card"])
	require.Equal(t, "Fern Press", html.UnescapeString(titleTag.FindStringSubmatch(body)[1]))
	require.Empty(t, jsonLD.FindAllString(body, -1))
}

func TestRobotsTxtAndFavicon(t *testing.T) {
	t.Parallel()
	env := pagesEnv(t)
	resp, body := send(t, env, "GET", "/robots.txt", "", nil)
	require.Equal(t, 200, resp.StatusCode)
	require.Equal(t, "text/plain; charset=utf-8", resp.Header.Get("Content-Type"))
	require.Equal(t, "User-agent: *\nAllow: /p/\nAllow: /s/\nDisallow: /d/\nDisallow: /library\nDisallow: /console\n"+
		"Disallow: /sandbox\nDisallow: /v1/\n\nSitemap: "+env.URL+"/sitemap.xml\n", body)
	resp, body = send(t, env, "GET", "/favicon.ico", "", nil)
	require.Equal(t, 200, resp.StatusCode)
	require.Equal(t, "image/x-icon", resp.Header.Get("Content-Type"))
	require.Equal(t, "\x00\x00\x01\x00", body[:4], "an ICO")
	resp, _ = send(t, env, "HEAD", "/favicon.ico", "", nil)
	require.Equal(t, 200, resp.StatusCode)
	// The stylesheet's address carries its hash: cached for a year.
	s := styleLink.FindStringSubmatch(page(t, env, "/errors/not_found", ""))
	if s == nil { // the error docs page has its own style; any buyer page names it
		s = styleLink.FindStringSubmatch(page(t, env, "/", ""))
	}
	require.NotNil(t, s)
	require.Regexp(t, `^/assets/site\.[0-9a-f]{12}\.css$`, s[1])
	resp, _ = send(t, env, "GET", s[1], "", nil)
	require.Equal(t, 200, resp.StatusCode)
	require.Equal(t, "public, max-age=31536000, immutable", resp.Header.Get("Cache-Control"))
}

type urlset struct {
	URLs []struct {
		Loc string `xml:"loc"`
	} `xml:"url"`
}

type sitemapIndex struct {
	Sitemaps []struct {
		Loc string `xml:"loc"`
	} `xml:"sitemap"`
}

func locs(t *testing.T, body string) []string {
	t.Helper()
	var u urlset
	require.NoError(t, xml.Unmarshal([]byte(body), &u), body)
	var out []string
	for _, x := range u.URLs {
		out = append(out, x.Loc)
	}
	return out
}

func TestSitemap(t *testing.T) {
	t.Parallel()
	env := pagesEnv(t)
	s := newSeller(t, env, "Map Shop")
	live := publish(t, env, s.Key, map[string]any{"title": "Live map", "price": 900, "deliverables": []map[string]any{{"type": "text", "value": "x"}}})
	gone := publish(t, env, s.Key, map[string]any{"title": "Gone map", "price": 900, "deliverables": []map[string]any{{"type": "text", "value": "x"}}})
	r := env.Do(testkit.Request{Method: "DELETE", Path: "/v1/listings/" + gone["id"].(string), Key: s.Key})
	require.Equal(t, 204, r.Status, "%s", r.Body)
	draft := env.Post("/v1/listings", s.Key, map[string]any{"title": "Draft map", "price": 900})
	require.Equal(t, 201, draft.Status)
	// A store with only a draft is not in the sitemap.
	quiet := newSeller(t, env, "Quiet Shop")
	require.Equal(t, 201, env.Post("/v1/listings", quiet.Key, map[string]any{"title": "Quiet draft", "price": 900}).Status)

	resp, body := send(t, env, "GET", "/sitemap.xml", "", nil)
	require.Equal(t, 200, resp.StatusCode)
	require.Equal(t, "application/xml; charset=utf-8", resp.Header.Get("Content-Type"))
	got := locs(t, body)
	require.Contains(t, got, env.URL+"/p/"+live["slug"].(string))
	require.Contains(t, got, env.URL+"/s/"+s.Slug)
	require.NotContains(t, got, env.URL+"/p/"+gone["slug"].(string), "deleted")
	require.NotContains(t, got, env.URL+"/p/"+draft.JSON(t)["slug"].(string), "draft")
	require.NotContains(t, got, env.URL+"/s/"+quiet.Slug, "no published listing")
	for _, l := range got {
		require.True(t, strings.HasPrefix(l, env.URL+"/p/") || strings.HasPrefix(l, env.URL+"/s/"), l)
	}
}

func TestSitemapIndex(t *testing.T) {
	t.Parallel()
	env := pagesEnv(t)
	env.Server.Resolver.SitemapURLs = 2 // the protocol's 50,000, made small
	s := newSeller(t, env, "Index Shop")
	var want []string
	for i := range 5 {
		l := publish(t, env, s.Key, map[string]any{"title": "Sheet " + string(rune('A'+i)), "price": 900,
			"deliverables": []map[string]any{{"type": "text", "value": "x"}}})
		want = append(want, env.URL+"/p/"+l["slug"].(string))
	}
	want = append(want, env.URL+"/s/"+s.Slug)
	// Other tests' stores share the database, and a listing another test
	// is publishing may commit, under an id older than these, between the
	// index and its files (the last file then holds it instead of ours):
	// a walk that misses one of ours is taken again, a few times at most.
	var missing string
	for range 5 {
		resp, body := send(t, env, "GET", "/sitemap.xml", "", nil)
		require.Equal(t, 200, resp.StatusCode)
		var idx sitemapIndex
		require.NoError(t, xml.Unmarshal([]byte(body), &idx), body)
		// At least three pages of products and one of stores.
		require.GreaterOrEqual(t, len(idx.Sitemaps), 4, "%s", body)
		seen := map[string]bool{}
		for _, sm := range idx.Sitemaps {
			resp, part := send(t, env, "GET", sm.Loc, "", nil)
			require.Equal(t, 200, resp.StatusCode, sm.Loc)
			l := locs(t, part)
			require.LessOrEqual(t, len(l), 2)
			for _, g := range l {
				require.False(t, seen[g], "%s twice", g)
				seen[g] = true
			}
		}
		missing = ""
		for _, w := range want {
			if !seen[w] {
				missing = w
			}
		}
		if missing == "" {
			break
		}
	}
	require.Empty(t, missing, "a page missing from the sitemap")
	resp, _ := send(t, env, "GET", "/sitemap/products.xml?after=nonsense", "", nil)
	require.Equal(t, 404, resp.StatusCode)
}
