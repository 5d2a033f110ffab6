package resolvers

import (
	"context"

	otelcodes "go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// tracerName names the resolvers' spans.
const tracerName = "commerce/resolvers"

// span starts a span of the resolvers' own (a processor event, an order's
// fulfilment, a webhook delivery attempt) when tracing is on; end ends it,
// recording err. With tracing off it returns ctx and an end that does
// nothing, without allocating.
func (r *Resolver) span(ctx context.Context, name string, opts ...trace.SpanStartOption) (context.Context, trace.Span, func(err error)) {
	if !r.Tracing.On() {
		return ctx, nil, endNothing
	}
	ctx, sp := r.Tracing.Provider.Tracer(tracerName).Start(ctx, name, opts...)
	return ctx, sp, func(err error) {
		if err != nil {
			sp.SetStatus(otelcodes.Error, err.Error())
		}
		sp.End()
	}
}

func endNothing(error) {}
