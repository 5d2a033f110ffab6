package telemetry_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"commerce/config"
	"commerce/telemetry"
	"commerce/testkit"
)

// What tracing costs the request path of GET /v1/listings/{id} (the
// service's handler called in process: the authenticated read, its Redis
// round trip and its SELECT), off and on to an in-process exporter (the
// memory exporter: spans built, sampled and batched, then counted). Off must
// allocate what the service did before tracing existed (docs/decisions.md,
// "Tracing with OpenTelemetry"):
//
//	go test -run '^$' -bench ListingGetTracing -benchmem ./telemetry/   (under make test's services)
func BenchmarkListingGetTracing(b *testing.B) {
	for _, tc := range []struct {
		name string
		opts []testkit.Option
	}{
		{"off", nil},
		{"on", []testkit.Option{testkit.WithTracing(sdktrace.NewTracerProvider(sdktrace.WithBatcher(&telemetry.CountingExporter{})))}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			opts := append([]testkit.Option{testkit.WithConfig(func(c *config.Config) { c.RateLimitScale = 1000000 })}, tc.opts...)
			env := testkit.New(b, opts...)
			acc := env.NewAccount()
			r := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Bench " + testkit.Unique(), "price": 1500,
				"deliverables": []any{map[string]any{"type": "text", "value": "x"}}})
			require.Equal(b, 201, r.Status, "%s", r.Body)
			path := "/v1/listings/" + r.JSON(b)["id"].(string)
			h := env.Server.Handler()
			req := httptest.NewRequest("GET", path, nil).WithContext(context.Background())
			req.Header.Set("Authorization", "Bearer "+acc.Key)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != http.StatusOK {
					b.Fatalf("status %d: %s", w.Code, w.Body)
				}
			}
		})
	}
}
