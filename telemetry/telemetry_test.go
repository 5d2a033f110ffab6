package telemetry_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"commerce/telemetry"
)

func envOf(m map[string]string) telemetry.Getenv { return func(k string) string { return m[k] } }

// Tracing is off unless OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_TRACES_EXPORTER
// asks for it (CONTRACT §24), and off again with none or OTEL_SDK_DISABLED.
func TestFromEnvOff(t *testing.T) {
	t.Parallel()
	for _, env := range []map[string]string{
		{},
		{"OTEL_SERVICE_NAME": "shop"},
		{"OTEL_TRACES_EXPORTER": "none"},
		{"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"},
		{"OTEL_SDK_DISABLED": "true", "OTEL_TRACES_EXPORTER": "console"},
	} {
		tr, err := telemetry.FromEnv(context.Background(), envOf(env))
		require.NoError(t, err, "%v", env)
		require.Nil(t, tr, "%v", env)
		require.False(t, tr.On())
		require.Nil(t, tr.HTTP(nil), "nothing to install when off")
		require.NoError(t, tr.Shutdown(context.Background()))
	}
}

// An endpoint alone means OTLP (over HTTP unless the protocol says grpc);
// console and memory are on; an unknown exporter or protocol is an error
// at start.
func TestFromEnvOn(t *testing.T) {
	t.Parallel()
	for _, env := range []map[string]string{
		{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"},
		{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"},
		{"OTEL_TRACES_EXPORTER": "otlp"},
		{"OTEL_TRACES_EXPORTER": "console", "OTEL_SERVICE_NAME": "shop"},
		{"OTEL_TRACES_EXPORTER": "memory"},
	} {
		tr, err := telemetry.FromEnv(context.Background(), envOf(env))
		require.NoError(t, err, "%v", env)
		require.True(t, tr.On(), "%v", env)
		require.NotNil(t, tr.HTTP(func(*http.Request) string { return "" }))
		require.NoError(t, tr.Shutdown(context.Background()))
	}
	for _, env := range []map[string]string{
		{"OTEL_TRACES_EXPORTER": "zipkin"},
		{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"},
	} {
		_, err := telemetry.FromEnv(context.Background(), envOf(env))
		require.Error(t, err, "%v", env)
	}
}

// The memory exporter counts what it is given, after a flush, and keeps
// nothing else.
func TestMemoryExporterCounts(t *testing.T) {
	t.Parallel()
	tr, err := telemetry.FromEnv(context.Background(), envOf(map[string]string{"OTEL_TRACES_EXPORTER": "memory"}))
	require.NoError(t, err)
	_, sp := tr.Provider.Tracer("test").Start(context.Background(), "one")
	sp.End()
	require.NoError(t, tr.Shutdown(context.Background()))
	require.Equal(t, int64(1), tr.Exported())
}

// A traceparent is kept only for a sampled span, and a kept one links back.
func TestTraceparentRoundTrip(t *testing.T) {
	t.Parallel()
	require.Nil(t, telemetry.Traceparent(context.Background()))
	tr, err := telemetry.FromEnv(context.Background(), envOf(map[string]string{"OTEL_TRACES_EXPORTER": "memory"}))
	require.NoError(t, err)
	t.Cleanup(func() { _ = tr.Shutdown(context.Background()) })
	ctx, sp := tr.Provider.Tracer("test").Start(context.Background(), "cause")
	defer sp.End()
	tp := telemetry.Traceparent(ctx)
	require.NotNil(t, tp)
	require.Equal(t, "00-"+sp.SpanContext().TraceID().String()+"-"+sp.SpanContext().SpanID().String()+"-01", *tp)
	_, later := tr.Provider.Tracer("test").Start(context.Background(), "attempt", telemetry.LinkTo(tp))
	defer later.End()
	links := later.(sdktrace.ReadOnlySpan).Links()
	require.Len(t, links, 1)
	require.Equal(t, sp.SpanContext().SpanID(), links[0].SpanContext.SpanID())
	bad := "not a traceparent"
	_, none := tr.Provider.Tracer("test").Start(context.Background(), "attempt", telemetry.LinkTo(&bad), telemetry.LinkTo(nil))
	defer none.End()
	require.Empty(t, none.(sdktrace.ReadOnlySpan).Links())
}
