package telemetry

import (
	"context"
	"net/http"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
)

// Traceparent is the W3C traceparent of ctx's span, for an outbox row whose
// attempts run later in another goroutine or process (an email, a webhook
// event); nil when ctx has no sampled span (tracing off: nothing to keep).
func Traceparent(ctx context.Context) *string {
	sc := trace.SpanContextFromContext(ctx)
	if !sc.IsValid() || !sc.IsSampled() {
		return nil
	}
	c := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(ctx, c)
	v, ok := c["traceparent"]
	if !ok {
		return nil
	}
	return &v
}

// LinkTo is the start option linking a span to the span a stored
// traceparent names (none when it names none). An attempt is linked to
// its cause rather than made its child: it may run minutes or days later,
// and again (otelriver links jobs the same way).
func LinkTo(traceparent *string) trace.SpanStartOption {
	if traceparent == nil || *traceparent == "" {
		return trace.WithLinks()
	}
	ctx := propagation.TraceContext{}.Extract(context.Background(), propagation.MapCarrier{"traceparent": *traceparent})
	sc := trace.SpanContextFromContext(ctx)
	if !sc.IsValid() {
		return trace.WithLinks()
	}
	return trace.WithLinks(trace.Link{SpanContext: sc})
}

// HTTP is the server middleware: otelhttp's span for each request, the
// incoming traceparent continued, the span named "METHOD pattern" by the
// route table's pattern once the router matched it (route returns "" when
// nothing matched: the span keeps the method alone). Nil when tracing is
// off: the caller then installs nothing.
func (t *Tracing) HTTP(route func(*http.Request) string) func(http.Handler) http.Handler {
	if !t.On() {
		return nil
	}
	return func(next http.Handler) http.Handler {
		named := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			next.ServeHTTP(w, r)
			if p := route(r); p != "" {
				span := trace.SpanFromContext(r.Context())
				span.SetName(r.Method + " " + p)
				span.SetAttributes(semconv.HTTPRoute(p))
			}
		})
		return otelhttp.NewHandler(named, "http",
			otelhttp.WithTracerProvider(t.Provider),
			otelhttp.WithPropagators(t.Propagator),
			otelhttp.WithMeterProvider(noop.NewMeterProvider()),
			otelhttp.WithSpanNameFormatter(func(_ string, r *http.Request) string { return r.Method }))
	}
}

// Transport is base with a client span per request (processor calls,
// webhook posts), or base itself when tracing is off. No trace context is
// sent: these requests go to third parties.
func (t *Tracing) Transport(base http.RoundTripper) http.RoundTripper {
	if !t.On() {
		return base
	}
	if base == nil {
		base = http.DefaultTransport
	}
	return otelhttp.NewTransport(base,
		otelhttp.WithTracerProvider(t.Provider),
		otelhttp.WithPropagators(propagation.NewCompositeTextMapPropagator()),
		otelhttp.WithMeterProvider(noop.NewMeterProvider()))
}
