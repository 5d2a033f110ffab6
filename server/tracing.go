package server

import (
	"context"
	"net/http"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/exaring/otelpgx"
	"github.com/go-chi/chi/v5"
	"github.com/redis/go-redis/extra/redisotel/v9"
	"github.com/redis/go-redis/v9"
	"github.com/riverqueue/river/rivertype"
	"github.com/riverqueue/rivercontrib/otelriver"
	"github.com/vektah/gqlparser/v2/ast"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/trace"

	"commerce/db"
	"commerce/telemetry"
)

// The service's instrumentation (CONTRACT §24, docs/operations.md
// "Tracing"): each piece is maintained instrumentation given the service's
// tracer provider, and none is installed when tracing is off (a nil
// *telemetry.Tracing), so the request path is then what it was without it.

// tracerName names the service's own spans (GraphQL, processor events,
// email and webhook attempts).
const tracerName = "commerce"

// dbOptions adds otelpgx's tracer to the pools: a span per statement,
// batch and connect, named by the statement's operation (SELECT, INSERT
// …). The statement's text is left out of the spans: bun interpolates its
// arguments into the text, and those include buyers' email addresses and
// token hashes. Pool acquires get no span of their own (a fifth of
// tracing's cost on a read): a wait shows as the gap before the statement,
// and the pool's waits are metrics (commerce_db_pool_acquire_*).
func dbOptions(t *telemetry.Tracing) []db.Option {
	if !t.On() {
		return nil
	}
	return []db.Option{db.WithTracer(otelpgx.NewTracer(
		otelpgx.WithTracerProvider(t.Provider),
		otelpgx.WithMeterProvider(noop.NewMeterProvider()),
		otelpgx.WithDisableSQLStatementInAttributes(),
		// The server's address is the resource's business, not each span's.
		otelpgx.WithDisableConnectionDetailsInAttributes(),
		otelpgx.WithDisableAcquireTracer(),
	))}
}

// traceRedis adds go-redis's tracing hook: a span per command or pipeline,
// without the command's arguments (rate-limit keys name API keys) and
// without the caller's file and line (a runtime.Caller per command).
func traceRedis(t *telemetry.Tracing, rdb redis.UniversalClient) error {
	if !t.On() {
		return nil
	}
	return redisotel.InstrumentTracing(rdb, redisotel.WithTracerProvider(t.Provider),
		redisotel.WithDBStatement(false), redisotel.WithCallerEnabled(false))
}

// riverMiddleware is otelriver's middleware: a span per insert and per
// job worked (river.work/KIND), the inserting span's traceparent kept in
// the job's metadata and linked from the job's span.
func riverMiddleware(t *telemetry.Tracing) []rivertype.Middleware {
	if !t.On() {
		return nil
	}
	return []rivertype.Middleware{otelriver.NewMiddleware(&otelriver.MiddlewareConfig{
		EnableTracePropagation:      true,
		EnableWorkSpanJobKindSuffix: true,
		TracerProvider:              t.Provider,
		MeterProvider:               noop.NewMeterProvider(),
	})}
}

// traceHTTPClient gives c a client span per request (webhook posts,
// fetches of sellers' URLs).
func traceHTTPClient(t *telemetry.Tracing, c *http.Client) *http.Client {
	if t.On() && c != nil {
		c.Transport = t.Transport(c.Transport)
	}
	return c
}

// processorHTTPClient is the Stripe client's HTTP client when tracing is
// on (stripe-go's default client's timeout, with a span per call); nil
// leaves stripe-go its own.
func processorHTTPClient(t *telemetry.Tracing) *http.Client {
	if !t.On() {
		return nil
	}
	return &http.Client{Timeout: 80 * time.Second, Transport: t.Transport(nil)}
}

// routePattern is the route table's pattern the router matched ("" when
// none), as the metrics and the access log name a request.
func routePattern(r *http.Request) string {
	if rc := chi.RouteContext(r.Context()); rc != nil {
		return rc.RoutePattern()
	}
	return ""
}

// maxSpanOperationName bounds the operation name in a span's name (a client
// chooses it).
const maxSpanOperationName = 64

// graphQLTracing is the GraphQL extension of tracing: a span per query or
// mutation, named "query Name" by the operation (the type alone when
// anonymous), with the cost the budget was charged as
// graphql.operation.cost; and a span per resolver field ("Type.field"):
// the fields with a resolver of their own, which load from the database
// or a dataloader. Plain fields (a struct's member, the direct
// marshaller's fields of graph/fast.go) get none. Subscriptions are
// traced by their HTTP upgrade only.
type graphQLTracing struct{ tracer trace.Tracer }

var _ interface {
	graphql.HandlerExtension
	graphql.OperationInterceptor
	graphql.FieldInterceptor
} = graphQLTracing{}

func (graphQLTracing) ExtensionName() string                   { return "Tracing" }
func (graphQLTracing) Validate(graphql.ExecutableSchema) error { return nil }

func (g graphQLTracing) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	oc := graphql.GetOperationContext(ctx)
	if oc == nil || oc.Operation == nil || oc.Operation.Operation == ast.Subscription {
		return next(ctx)
	}
	kind := string(oc.Operation.Operation)
	name := oc.Operation.Name
	if len(name) > maxSpanOperationName {
		name = name[:maxSpanOperationName]
	}
	spanName := kind
	if name != "" {
		spanName += " " + name
	}
	attrs := []attribute.KeyValue{attribute.String("graphql.operation.type", kind)}
	if name != "" {
		attrs = append(attrs, attribute.String("graphql.operation.name", name))
	}
	if rep, ok := oc.Stats.GetExtension("cost").(costReport); ok {
		attrs = append(attrs, attribute.Int("graphql.operation.cost", rep.Requested))
	}
	ctx, span := g.tracer.Start(ctx, spanName, trace.WithAttributes(attrs...))
	h := next(ctx)
	ended := false
	return func(ctx context.Context) *graphql.Response {
		resp := h(ctx)
		if !ended {
			ended = true
			if resp != nil && len(resp.Errors) > 0 {
				span.SetStatus(codes.Error, resp.Errors[0].Message)
			}
			span.End()
		}
		return resp
	}
}

func (g graphQLTracing) InterceptField(ctx context.Context, next graphql.Resolver) (any, error) {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || !fc.IsResolver || fc.Field.Field == nil {
		return next(ctx)
	}
	ctx, span := g.tracer.Start(ctx, fc.Object+"."+fc.Field.Name)
	defer span.End()
	v, err := next(ctx)
	if err != nil {
		span.SetStatus(codes.Error, err.Error())
	}
	return v, err
}
