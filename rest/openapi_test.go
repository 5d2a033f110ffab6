package rest_test

import (
	"net/http"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-chi/chi/v5"
	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

var chiParam = regexp.MustCompile(`\{[^}]+\}`)

// Every registered route is in docs/openapi.yaml and every documented
// operation is registered.
func TestOpenAPICoversEveryRoute(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	doc, _ := testkit.OpenAPI(t)

	normal := func(method, path string) string { return method + " " + chiParam.ReplaceAllString(path, "{}") }
	var registered []string
	routes, ok := env.Server.Handler().(chi.Routes)
	require.True(t, ok)
	require.NoError(t, chi.Walk(routes, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		registered = append(registered, normal(method, strings.Replace(route, "/*", "/{}", 1)))
		return nil
	}))
	var documented []string
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			documented = append(documented, normal(method, path))
		}
	}
	sort.Strings(registered)
	sort.Strings(documented)
	require.Equal(t, documented, registered)
}

func TestOpenAPIServed(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	r := env.Get("/v1/openapi.yaml", "")
	require.Equal(t, 200, r.Status)
	require.Contains(t, string(r.Body), "openapi: 3.0.3")
	// The servers entry follows BASE_URL.
	doc, err := openapi3.NewLoader().LoadFromData(r.Body)
	require.NoError(t, err)
	require.Len(t, doc.Servers, 1)
	require.Equal(t, env.URL, doc.Servers[0].URL)
}

func TestPlansAndPing(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	r := env.Get("/v1/plans", "")
	require.Equal(t, 200, r.Status)
	require.Equal(t, "public, max-age=3600", r.Header.Get("Cache-Control"))
	etag := r.Header.Get("ETag")
	require.NotEmpty(t, etag)
	body := r.JSON(t)
	data := body["data"].([]any)
	require.Len(t, data, 3)
	want := map[string][]any{"free": {"0.15", 0.0}, "growth": {"0.05", 2900.0}, "scale": {"0.03", 9900.0}}
	for _, p := range data {
		m := p.(map[string]any)
		require.Equal(t, want[m["id"].(string)], []any{m["fee_rate"], m["monthly_price"]})
		require.Equal(t, "usd", m["currency"])
	}
	r = env.Do(testkit.Request{Method: "GET", Path: "/v1/plans", Header: map[string]string{"If-None-Match": etag}})
	require.Equal(t, 304, r.Status)
	require.Empty(t, r.Body)
	r = env.Do(testkit.Request{Method: "GET", Path: "/v1/plans", Header: map[string]string{"If-None-Match": `"other"`}})
	require.Equal(t, 200, r.Status)

	r = env.Get("/v1/ping", "")
	require.Equal(t, 200, r.Status)
	p := r.JSON(t)
	require.Equal(t, "ping", p["object"])
	require.Equal(t, true, p["ok"])
}

func TestMetrics(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	env.Get("/v1/ping", "")
	r := env.Get("/metrics", "")
	require.Equal(t, 200, r.Status)
	require.Contains(t, string(r.Body), `commerce_http_requests_total{method="GET",route="/v1/ping",status="200"} 1`)
	require.Contains(t, string(r.Body), "commerce_http_request_duration_seconds_bucket")
}
