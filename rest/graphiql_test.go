package rest_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

var (
	// src="…" and href="…" anywhere in the page.
	htmlRefs = regexp.MustCompile(`(?i)\s(?:src|href)\s*=\s*["']([^"']*)["']`)
	// <script …>…</script>: its attributes and its inline text.
	htmlScripts = regexp.MustCompile(`(?is)<script\b([^>]*)>(.*?)</script>`)
	// An absolute or protocol-relative URL in script text.
	scriptURLs = regexp.MustCompile(`(?i)(?:\b[a-z][a-z0-9+.-]*:)?//[a-z0-9.\-\[\]:]+`)
	cspNonce   = regexp.MustCompile(`'nonce-([A-Za-z0-9+/=_-]+)'`)
)

// TestGraphiQLPage checks that the IDE at GET /graphql loads nothing from
// another host: every src and href is relative or same-host, the CSP names
// no other host, and every referenced file is served by the service itself
// with the right type, a long cache lifetime, and HEAD support.
func TestGraphiQLPage(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	base, err := url.Parse(env.URL + "/graphql")
	require.NoError(t, err)
	host := base.Host

	get := func(method, ref string, header map[string]string) *testkit.Response {
		t.Helper()
		return env.Do(testkit.Request{Method: method, Path: ref, Header: header, NoCheck: true})
	}
	r := get(http.MethodGet, "/graphql", map[string]string{"Accept": "text/html"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.True(t, strings.HasPrefix(r.Header.Get("Content-Type"), "text/html"), r.Header.Get("Content-Type"))
	require.Equal(t, "no-store", r.Header.Get("Cache-Control"))
	require.Equal(t, "nosniff", r.Header.Get("X-Content-Type-Options"))
	page := string(r.Body)
	require.Contains(t, page, "<title>commerce GraphQL</title>")
	for _, cdn := range []string{"unpkg", "jsdelivr", "cdnjs", "esm.sh"} {
		require.NotContains(t, page, cdn)
	}

	// The Content-Security-Policy allows this host only.
	csp := r.Header.Get("Content-Security-Policy")
	require.NotEmpty(t, csp)
	directives := map[string][]string{}
	for d := range strings.SplitSeq(csp, ";") {
		fields := strings.Fields(d)
		if len(fields) > 0 {
			directives[fields[0]] = fields[1:]
		}
	}
	require.Equal(t, []string{"'none'"}, directives["default-src"], csp)
	require.Contains(t, directives["script-src"], "'self'", csp)
	require.Contains(t, directives["connect-src"], "'self'", csp)
	require.Contains(t, directives["connect-src"], "ws://"+host, csp)
	require.Contains(t, directives["connect-src"], "wss://"+host, csp)
	require.Equal(t, []string{"'none'"}, directives["frame-ancestors"], csp)
	for name, sources := range directives {
		for _, s := range sources {
			switch {
			case s == "'self'", s == "'none'", s == "data:", cspNonce.MatchString(s), strings.HasPrefix(s, "'sha256-"):
			case s == "ws://"+host, s == "wss://"+host:
			default:
				t.Errorf("CSP %s allows %s: only this host (%s) may be named", name, s, host)
			}
		}
	}
	nonce := cspNonce.FindStringSubmatch(csp)

	// Inline scripts carry the CSP's nonce and name no other host.
	for _, m := range htmlScripts.FindAllStringSubmatch(page, -1) {
		attrs, text := m[1], m[2]
		if strings.Contains(strings.ToLower(attrs), "src=") {
			require.Empty(t, strings.TrimSpace(text), "a script with src has no inline text")
			continue
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		require.NotNil(t, nonce, "an inline script needs a nonce in the CSP")
		require.Contains(t, attrs, `nonce="`+nonce[1]+`"`)
		for _, u := range scriptURLs.FindAllString(text, -1) {
			requireSameHost(t, base, u)
		}
	}

	// Every src and href: relative or this host, served here.
	refs := htmlRefs.FindAllStringSubmatch(page, -1)
	require.NotEmpty(t, refs)
	var scripts, styles int
	for _, m := range refs {
		ref := requireSameHost(t, base, m[1])
		want := ""
		switch path.Ext(ref.Path) {
		case ".js":
			want, scripts = "text/javascript; charset=utf-8", scripts+1
		case ".css":
			want, styles = "text/css; charset=utf-8", styles+1
		default:
			t.Fatalf("the page references %s: only scripts and style sheets are expected", m[1])
		}
		a := get(http.MethodGet, ref.RequestURI(), nil)
		require.Equal(t, http.StatusOK, a.Status, "%s: %s", ref, a.Body)
		require.Equal(t, want, a.Header.Get("Content-Type"), ref.String())
		require.NotEmpty(t, a.Body, ref.String())
		require.Equal(t, "nosniff", a.Header.Get("X-Content-Type-Options"))
		requireImmutable(t, a.Header.Get("Cache-Control"))
		require.NotEmpty(t, a.Header.Get("ETag"))

		h := get(http.MethodHead, ref.RequestURI(), nil)
		require.Equal(t, http.StatusOK, h.Status, ref.String())
		require.Equal(t, want, h.Header.Get("Content-Type"))
		require.Empty(t, h.Body)

		// Compressed on request, the same bytes once decompressed.
		z := get(http.MethodGet, ref.RequestURI(), map[string]string{"Accept-Encoding": "gzip"})
		require.Equal(t, http.StatusOK, z.Status)
		require.Equal(t, "gzip", z.Header.Get("Content-Encoding"))
		require.Contains(t, z.Header.Get("Vary"), "Accept-Encoding")
		zr, err := gzip.NewReader(bytes.NewReader(z.Body))
		require.NoError(t, err)
		plain, err := io.ReadAll(zr)
		require.NoError(t, err)
		require.Equal(t, a.Body, plain, ref.String())

		// A validator from the response answers 304.
		c := get(http.MethodGet, ref.RequestURI(), map[string]string{"If-None-Match": a.Header.Get("ETag")})
		require.Equal(t, http.StatusNotModified, c.Status)

		// The IDE's own script builds its URLs from location: no host in it.
		if path.Base(ref.Path) == "ide.js" {
			require.Empty(t, scriptURLs.FindAllString(string(a.Body), -1), "ide.js names a host")
			body := string(a.Body)
			require.Contains(t, body, "Bearer svc_")
			require.Contains(t, body, "viewer")
			require.Contains(t, body, "graphqlWs.createClient")
		}
	}
	require.Equal(t, 5, scripts, "React, ReactDOM, graphql-ws, GraphiQL and the IDE's own script")
	require.Equal(t, 2, styles, "GraphiQL's style sheet and the page's")

	// HEAD on the page; a fresh nonce for every response.
	h := get(http.MethodHead, "/graphql", nil)
	require.Equal(t, http.StatusOK, h.Status)
	require.True(t, strings.HasPrefix(h.Header.Get("Content-Type"), "text/html"))
	require.Empty(t, h.Body)
	require.NotEmpty(t, h.Header.Get("Content-Security-Policy"))
	if nonce != nil {
		require.NotEqual(t, csp, get(http.MethodGet, "/graphql", nil).Header.Get("Content-Security-Policy"))
	}

	// Unknown assets, and known files under a wrong hash, are not found.
	for _, p := range []string{"/graphql/assets/", "/graphql/assets/nope.js", "/graphql/assets/0000000000000000/graphiql.min.js", "/graphql/assets/../server.go"} {
		require.Equal(t, http.StatusNotFound, get(http.MethodGet, p, nil).Status, p)
	}
}

// requireSameHost fails unless ref, resolved against the page, is on the
// page's scheme and host; it returns the resolved URL.
func requireSameHost(t *testing.T, page *url.URL, ref string) *url.URL {
	t.Helper()
	u, err := url.Parse(ref)
	require.NoError(t, err, ref)
	abs := page.ResolveReference(u)
	switch abs.Scheme {
	case "http", "https", "ws", "wss":
	default:
		t.Fatalf("%q: scheme %q", ref, abs.Scheme)
	}
	require.Equal(t, page.Host, abs.Host, "%q names another host", ref)
	return abs
}

func requireImmutable(t *testing.T, cc string) {
	t.Helper()
	require.Contains(t, cc, "public")
	require.Contains(t, cc, "immutable")
	m := regexp.MustCompile(`max-age=(\d+)`).FindStringSubmatch(cc)
	require.NotNil(t, m, cc)
	age, err := strconv.Atoi(m[1])
	require.NoError(t, err)
	require.GreaterOrEqual(t, age, 365*24*3600, cc)
}
