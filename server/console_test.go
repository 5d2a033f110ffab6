package server

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/go-chi/chi/v5"
	"github.com/stretchr/testify/require"
)

// A build like Vite's: index.html, hashed bundles under assets/, a file at
// the root.
var testBuild = fstest.MapFS{
	"index.html":                  {Data: []byte(`<!doctype html><html><head><script type="module" src="/console/assets/index-AbC123.js"></script></head><body><div id="root"></div></body></html>`)},
	"assets/index-AbC123.js":      {Data: bytes.Repeat([]byte("console.log('console');\n"), 100)},
	"assets/index-XyZ789.css":     {Data: []byte("body{margin:0}")},
	"assets/logo-Q1w2e3.svg":      {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`)},
	"assets/font-Z9y8x7.woff2":    {Data: []byte("wOF2")},
	"favicon.ico":                 {Data: []byte{0, 0, 1, 0}},
	"site.webmanifest":            {Data: []byte(`{"name":"console"}`)},
	"assets/nested/chunk-Aa11.js": {Data: []byte("export {}")},
}

func consoleTestServer(t *testing.T) *httptest.Server {
	t.Helper()
	r := chi.NewRouter()
	r.NotFound(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/problem+json")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"code":"not_found"}`))
	})
	mountConsole(r, "/console", testBuild, r.NotFoundHandler())
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return srv
}

func consoleGet(t *testing.T, srv *httptest.Server, method, path string, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, nil)
	require.NoError(t, err)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	tr := &http.Transport{DisableCompression: true}
	c := &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, body
}

func TestConsoleFiles(t *testing.T) {
	t.Parallel()
	srv := consoleTestServer(t)
	host := strings.TrimPrefix(srv.URL, "http://")
	index := testBuild["index.html"].Data

	for _, tc := range []struct {
		path, contentType, cache string
		body                     []byte
	}{
		{"/console/", "text/html; charset=utf-8", "no-cache", index},
		{"/console/index.html", "text/html; charset=utf-8", "no-cache", index},
		{"/console/assets/index-AbC123.js", "text/javascript; charset=utf-8", "public, max-age=31536000, immutable", testBuild["assets/index-AbC123.js"].Data},
		{"/console/assets/index-XyZ789.css", "text/css; charset=utf-8", "public, max-age=31536000, immutable", testBuild["assets/index-XyZ789.css"].Data},
		{"/console/assets/logo-Q1w2e3.svg", "image/svg+xml", "public, max-age=31536000, immutable", testBuild["assets/logo-Q1w2e3.svg"].Data},
		{"/console/assets/font-Z9y8x7.woff2", "font/woff2", "public, max-age=31536000, immutable", testBuild["assets/font-Z9y8x7.woff2"].Data},
		{"/console/assets/nested/chunk-Aa11.js", "text/javascript; charset=utf-8", "public, max-age=31536000, immutable", testBuild["assets/nested/chunk-Aa11.js"].Data},
		{"/console/favicon.ico", "image/x-icon", "no-cache", testBuild["favicon.ico"].Data},
		{"/console/site.webmanifest", "application/manifest+json", "no-cache", testBuild["site.webmanifest"].Data},
		// The application's routes get index.html (SPA fallback).
		{"/console/orders", "text/html; charset=utf-8", "no-cache", index},
		{"/console/orders/ord_01jf0000000000000000000000", "text/html; charset=utf-8", "no-cache", index},
		{"/console/settings/billing?from=checkout", "text/html; charset=utf-8", "no-cache", index},
		{"/console/listings/", "text/html; charset=utf-8", "no-cache", index},
	} {
		t.Run(tc.path, func(t *testing.T) {
			resp, body := consoleGet(t, srv, http.MethodGet, tc.path, nil)
			require.Equal(t, 200, resp.StatusCode)
			require.Equal(t, tc.contentType, resp.Header.Get("Content-Type"))
			require.Equal(t, tc.cache, resp.Header.Get("Cache-Control"))
			require.Equal(t, tc.body, body)
			require.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"))
			csp := resp.Header.Get("Content-Security-Policy")
			for _, d := range []string{"default-src 'self'", "script-src 'self';", "img-src 'self' data: blob:",
				"connect-src 'self' ws://" + host + " wss://" + host, "object-src 'none'", "frame-ancestors 'none'"} {
				require.Contains(t, csp, d)
			}
			require.NotContains(t, csp, "unsafe-inline")
			require.NotContains(t, csp, "unsafe-eval")
			etag := resp.Header.Get("ETag")
			require.NotEmpty(t, etag)

			// HEAD: the same headers, no body.
			head, hb := consoleGet(t, srv, http.MethodHead, tc.path, nil)
			require.Equal(t, 200, head.StatusCode)
			require.Empty(t, hb)
			require.Equal(t, tc.contentType, head.Header.Get("Content-Type"))
			require.Equal(t, resp.Header.Get("Content-Length"), head.Header.Get("Content-Length"))

			// Revalidation.
			again, ab := consoleGet(t, srv, http.MethodGet, tc.path, map[string]string{"If-None-Match": etag})
			require.Equal(t, http.StatusNotModified, again.StatusCode)
			require.Empty(t, ab)
		})
	}
}

func TestConsoleFilesGzipRedirectAndMisses(t *testing.T) {
	t.Parallel()
	srv := consoleTestServer(t)

	resp, body := consoleGet(t, srv, http.MethodGet, "/console/assets/index-AbC123.js", map[string]string{"Accept-Encoding": "gzip, br"})
	require.Equal(t, 200, resp.StatusCode)
	require.Equal(t, "gzip", resp.Header.Get("Content-Encoding"))
	require.Equal(t, "Accept-Encoding", resp.Header.Get("Vary"))
	zr, err := gzip.NewReader(bytes.NewReader(body))
	require.NoError(t, err)
	plain, err := io.ReadAll(zr)
	require.NoError(t, err)
	require.Equal(t, testBuild["assets/index-AbC123.js"].Data, plain)
	require.Less(t, len(body), len(plain))

	// /console itself redirects to the application's root.
	resp, _ = consoleGet(t, srv, http.MethodGet, "/console?x=1", nil)
	require.Equal(t, http.StatusMovedPermanently, resp.StatusCode)
	require.Equal(t, "/console/?x=1", resp.Header.Get("Location"))
	resp, _ = consoleGet(t, srv, http.MethodHead, "/console", nil)
	require.Equal(t, http.StatusMovedPermanently, resp.StatusCode)

	// A missing file (a dot in the name) is a 404, never index.html.
	for _, p := range []string{"/console/assets/index-missing.js", "/console/missing.css", "/console/orders/x.png", "/console/../go.mod", "/console/%2e%2e/go.mod"} {
		resp, body := consoleGet(t, srv, http.MethodGet, p, nil)
		require.Equal(t, 404, resp.StatusCode, p)
		require.JSONEq(t, `{"code":"not_found"}`, string(body), p)
	}
	// Only GET and HEAD.
	resp, _ = consoleGet(t, srv, http.MethodPost, "/console/", nil)
	require.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
}

func TestConsolePath(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"http://localhost:8080/console":    "/console",
		"http://localhost:8080/console/":   "/console",
		"https://example.com/app/console/": "/app/console",
		"https://console.example.com":      "/console",
		"https://console.example.com/":     "/console",
		"::not a url":                      "/console",
	} {
		require.Equal(t, want, consolePath(in), in)
	}
}
