package rest_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/config"
	"commerce/testkit"
)

var (
	hrefPattern   = regexp.MustCompile(`href="([^"]+)"`)
	scriptPattern = regexp.MustCompile(`<script([^>]*)>`)
	srcPattern    = regexp.MustCompile(`src="([^"]+)"`)
)

// GET / is the landing page: the console, the API reference, the GraphQL
// IDE and, in sandbox mode, the mailbox; each link answers.
func TestLandingPage(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	r := env.Get("/", "")
	require.Equal(t, 200, r.Status)
	require.Equal(t, "text/html; charset=utf-8", r.Header.Get("Content-Type"))
	links := map[string]bool{}
	for _, m := range hrefPattern.FindAllStringSubmatch(string(r.Body), -1) {
		links[m[1]] = true
	}
	for _, want := range []string{env.URL + "/console/", env.URL + "/docs/api", env.URL + "/graphql", env.URL + "/sandbox/mail", env.URL + "/v1/openapi.yaml", env.URL + "/docs/licenses", env.URL + "/docs/memberships"} {
		require.True(t, links[want], "the landing page links %s: %s", want, r.Body)
		resp, err := env.HTTP.Client().Get(want)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, 200, resp.StatusCode, want)
	}
	require.NotContains(t, string(r.Body), "<script")

	head := env.Do(testkit.Request{Method: http.MethodHead, Path: "/"})
	require.Equal(t, 200, head.Status)
	require.Empty(t, head.Body)

	// With SMTP configured there is no mailbox to link.
	smtp := testkit.New(t, testkit.WithConfig(func(c *config.Config) { c.SMTPURL = "smtp://127.0.0.1:1" }))
	r = smtp.Get("/", "")
	require.Equal(t, 200, r.Status)
	require.NotContains(t, string(r.Body), "/sandbox/mail")
	require.Contains(t, string(r.Body), smtp.URL+"/console/")
}

// The guide to license keys (docs/licenses.md) is served as HTML and as
// Markdown, with the Go client it links to; llms.txt points agents at it.
func TestLicensesGuide(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	page := env.Get("/docs/licenses", "")
	require.Equal(t, 200, page.Status)
	require.Equal(t, "text/html; charset=utf-8", page.Header.Get("Content-Type"))
	body := string(page.Body)
	require.Contains(t, body, "<h1>License keys for your app</h1>")
	require.Contains(t, body, "<table>", "the Markdown tables are rendered")
	require.Contains(t, body, `<code>/.well-known/jwks.json</code>`)
	require.NotContains(t, body, "<script")
	pageURL, err := url.Parse(env.URL + "/docs/licenses")
	require.NoError(t, err)
	for _, m := range hrefPattern.FindAllStringSubmatch(body, -1) {
		u, err := pageURL.Parse(html.UnescapeString(m[1]))
		require.NoError(t, err)
		if u.Host != pageURL.Host { // outside links (pkg.go.dev, GitHub) are not fetched
			continue
		}
		resp, err := env.HTTP.Client().Get(u.String())
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, 200, resp.StatusCode, "the guide's link %s answers", m[1])
	}
	md := env.Get("/docs/licenses.md", "")
	require.Equal(t, 200, md.Status)
	require.Equal(t, "text/markdown; charset=utf-8", md.Header.Get("Content-Type"))
	require.True(t, strings.HasPrefix(string(md.Body), "# License keys for your app\n"))
	src := env.Get("/docs/examples/licenseclient/main.go", "")
	require.Equal(t, 200, src.Status)
	require.Contains(t, string(src.Body), "package main")
	require.Contains(t, string(env.Get("/llms.txt", "").Body), env.URL+"/docs/licenses.md")
}

// The seller's guide to memberships (docs/memberships.md) is served as
// HTML and as Markdown; llms.txt points agents at it.
func TestMembershipsGuide(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	page := env.Get("/docs/memberships", "")
	require.Equal(t, 200, page.Status)
	require.Equal(t, "text/html; charset=utf-8", page.Header.Get("Content-Type"))
	body := string(page.Body)
	require.Contains(t, body, "<h1>Memberships: sell by the month or the year</h1>")
	require.Contains(t, body, "<table>", "the Markdown tables are rendered")
	require.Contains(t, body, "<code>MEMBERSHIP_RETRY_SCHEDULE</code>")
	require.Contains(t, body, "<title>Memberships: sell by the month or the year")
	require.NotContains(t, body, "<script")
	md := env.Get("/docs/memberships.md", "")
	require.Equal(t, 200, md.Status)
	require.Equal(t, "text/markdown; charset=utf-8", md.Header.Get("Content-Type"))
	require.True(t, strings.HasPrefix(string(md.Body), "# Memberships: sell by the month or the year\n"))
	require.Contains(t, string(env.Get("/llms.txt", "").Body), env.URL+"/docs/memberships.md")
}

// GET /docs/api renders /v1/openapi.yaml with the embedded Redoc: no inline
// script, every script and style sheet from this host, the bundle the one
// scripts/apidocs.sh pinned, and the style nonce Redoc reads equal to the
// CSP's.
func TestAPIReference(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	r := env.Get("/docs/api", "")
	require.Equal(t, 200, r.Status)
	body := string(r.Body)
	require.Contains(t, body, `<redoc spec-url="/v1/openapi.yaml">`)

	csp := r.Header.Get("Content-Security-Policy")
	require.Contains(t, csp, "default-src 'none'")
	require.Contains(t, csp, "script-src 'self';")
	require.Contains(t, csp, "connect-src 'self'")
	require.NotContains(t, csp, "unsafe-inline")
	require.NotContains(t, csp, "unsafe-eval")
	nonce := regexp.MustCompile(`<meta property="csp-nonce" content="([^"]+)">`).FindStringSubmatch(body)
	require.NotNil(t, nonce)
	require.Contains(t, csp, "style-src 'self' 'nonce-"+html.UnescapeString(nonce[1])+"'")
	again := env.Get("/docs/api", "")
	require.NotEqual(t, csp, again.Header.Get("Content-Security-Policy"), "a fresh nonce per response")

	scripts := scriptPattern.FindAllStringSubmatch(body, -1)
	require.NotEmpty(t, scripts)
	var manifest struct {
		Packages []struct {
			Name, Version string
			Files         []struct{ Path, Sha256 string }
		}
	}
	raw, err := os.ReadFile("../server/apidocs/vendor/manifest.json")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &manifest))
	require.Equal(t, "redoc", manifest.Packages[0].Name)
	var bundleSum string
	for _, f := range manifest.Packages[0].Files {
		if strings.HasSuffix(f.Path, ".js") {
			bundleSum = f.Sha256
		}
	}
	sawBundle := false
	for _, s := range scripts {
		src := srcPattern.FindStringSubmatch(s[1])
		require.NotNil(t, src, "no inline script: %s", s[0])
		require.True(t, strings.HasPrefix(src[1], "/docs/api/assets/"), src[1])
		a := env.Get(src[1], "")
		require.Equal(t, 200, a.Status)
		require.Equal(t, "text/javascript; charset=utf-8", a.Header.Get("Content-Type"))
		require.Equal(t, "public, max-age=31536000, immutable", a.Header.Get("Cache-Control"))
		sum := sha256.Sum256(a.Body)
		if hex.EncodeToString(sum[:]) == bundleSum {
			sawBundle = true
		}
	}
	require.True(t, sawBundle, "the page loads the pinned Redoc bundle")
	for _, m := range hrefPattern.FindAllStringSubmatch(body, -1) {
		require.True(t, strings.HasPrefix(m[1], "/"), "a link to this host: %s", m[1])
	}
	require.Equal(t, 404, env.Do(testkit.Request{Method: http.MethodGet, Path: "/docs/api/assets/0000000000000000/nothing.js"}).Status)

	head := env.Do(testkit.Request{Method: http.MethodHead, Path: "/docs/api"})
	require.Equal(t, 200, head.Status)
	require.Empty(t, head.Body)
}

// The seller's order alert links the order in the console, and the link
// opens the console (its route for the order).
func TestOrderAlertLinksTheConsole(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers())
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Alerted " + testkit.Unique(), "price": 1500})
	orderID, _ := buy(t, env, l["slug"].(string), url.Values{"email": {uniqueEmail("alert")}}, "paid")

	var text, html string
	require.NoError(t, env.Server.DB.Pool.QueryRow(t.Context(),
		"SELECT text_body, html_body FROM mail_messages WHERE to_address = $1 AND template = 'seller_order_alert'", acc.Email).Scan(&text, &html))
	link := env.URL + "/console/orders/" + orderID
	require.Contains(t, text, link)
	require.Contains(t, html, `href="`+link+`"`)
	resp, err := env.HTTP.Client().Get(link)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
	require.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
}

// llms.txt tells an agent where a store's numbers are: analytics, the CSV
// exports and the lists' search.
func TestLLMsTextNamesAnalyticsAndExports(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	body := string(env.Get("/llms.txt", "").Body)
	for _, want := range []string{env.URL + "/v1/analytics", "MCP analytics", env.URL + "/v1/orders/export",
		env.URL + "/v1/customers/export", "query="} {
		require.Contains(t, body, want)
	}
}
