// Package telemetry builds the service's OpenTelemetry tracing from the
// standard OTEL_* variables (CONTRACT §24) and holds the few helpers the
// instrumented packages share: the propagator, the W3C traceparent kept
// with outbox rows (emails, webhook events) so that their asynchronous
// attempts link back to the request that caused them, and the HTTP
// middleware that names a request's span by its route pattern.
//
// Tracing is off when neither OTEL_EXPORTER_OTLP_ENDPOINT nor
// OTEL_TRACES_EXPORTER is set (or OTEL_TRACES_EXPORTER=none, or
// OTEL_SDK_DISABLED=true): FromEnv then returns a nil *Tracing, and the
// service wraps nothing, so the request path costs what it did before.
package telemetry

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
)

// DefaultServiceName is service.name when OTEL_SERVICE_NAME (or
// OTEL_RESOURCE_ATTRIBUTES' service.name) does not name the service.
const DefaultServiceName = "commerce"

// Exporter names OTEL_TRACES_EXPORTER takes.
const (
	ExporterOTLP    = "otlp"
	ExporterConsole = "console"
	ExporterNone    = "none"
	// ExporterMemory exports in process, keeping only a count of the
	// spans: every span is built, sampled and batched as with OTLP, and
	// nothing leaves the process (benchmarks: scripts/bench.sh -tracing).
	ExporterMemory = "memory"
)

// Tracing is the service's tracer provider and propagator. A nil *Tracing
// is tracing off; its methods are safe on nil.
type Tracing struct {
	// Provider makes the service's tracers.
	Provider trace.TracerProvider
	// Propagator reads and writes W3C traceparent/tracestate and baggage.
	Propagator propagation.TextMapPropagator

	shutdown func(context.Context) error
	counter  *CountingExporter
}

// Propagator is the W3C trace context and baggage propagator (the
// OTEL_PROPAGATORS default).
func Propagator() propagation.TextMapPropagator {
	return propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})
}

// Getenv reads a variable; os.Getenv in the service, a map in tests.
type Getenv func(string) string

// FromEnv builds tracing from the OTEL_* variables: nil when tracing is
// off. OTEL_TRACES_EXPORTER is otlp (the default once
// OTEL_EXPORTER_OTLP_ENDPOINT is set), console (spans as JSON on stderr:
// stdout carries `commerce mcp`'s protocol), memory (in process, counted
// only) or none. The OTLP exporter speaks http/protobuf or grpc as
// OTEL_EXPORTER_OTLP_TRACES_PROTOCOL or OTEL_EXPORTER_OTLP_PROTOCOL say
// (default http/protobuf) and reads its endpoint, headers, timeout and TLS
// from the standard variables itself; the sampler comes from
// OTEL_TRACES_SAMPLER/OTEL_TRACES_SAMPLER_ARG (default parentbased_always_on)
// and the resource from OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES.
func FromEnv(ctx context.Context, getenv Getenv) (*Tracing, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") {
		return nil, nil
	}
	name := strings.ToLower(strings.TrimSpace(getenv("OTEL_TRACES_EXPORTER")))
	endpoint := strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_ENDPOINT")) + strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"))
	switch {
	case name == "" && endpoint == "":
		return nil, nil
	case name == "":
		name = ExporterOTLP
	}
	// A list is the spec's form; the service exports to one.
	if first, _, ok := strings.Cut(name, ","); ok {
		name = strings.TrimSpace(first)
	}
	var (
		exp     sdktrace.SpanExporter
		counter *CountingExporter
		err     error
	)
	switch name {
	case ExporterNone:
		return nil, nil
	case ExporterOTLP:
		exp, err = otlpExporter(ctx, getenv)
	case ExporterConsole:
		exp, err = stdouttrace.New(stdouttrace.WithWriter(os.Stderr))
	case ExporterMemory:
		counter = &CountingExporter{}
		exp = counter
	default:
		return nil, fmt.Errorf("OTEL_TRACES_EXPORTER: unknown exporter %q (want otlp, console, memory or none)", name)
	}
	if err != nil {
		return nil, fmt.Errorf("OTEL_TRACES_EXPORTER=%s: %w", name, err)
	}
	res, err := serviceResource(ctx, getenv)
	if err != nil {
		return nil, err
	}
	// The sampler is the SDK's from OTEL_TRACES_SAMPLER (it reads the
	// process environment itself); the batcher's limits from OTEL_BSP_*.
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	return &Tracing{Provider: tp, Propagator: Propagator(), shutdown: tp.Shutdown, counter: counter}, nil
}

// otlpExporter is the OTLP exporter for the protocol the variables name.
func otlpExporter(ctx context.Context, getenv Getenv) (sdktrace.SpanExporter, error) {
	protocol := strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"))
	if protocol == "" {
		protocol = strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_PROTOCOL"))
	}
	switch protocol {
	case "", "http/protobuf":
		return otlptracehttp.New(ctx)
	case "grpc":
		return otlptracegrpc.New(ctx)
	}
	return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_PROTOCOL: %q is not supported (want http/protobuf or grpc)", protocol)
}

// serviceResource is the resource of the service's spans: service.name
// from the environment, else DefaultServiceName.
func serviceResource(ctx context.Context, getenv Getenv) (*resource.Resource, error) {
	attrs := []resource.Option{resource.WithAttributes(semconv.ServiceName(DefaultServiceName))}
	if getenv("OTEL_SERVICE_NAME") != "" || getenv("OTEL_RESOURCE_ATTRIBUTES") != "" {
		// WithFromEnv reads the process environment.
		attrs = append(attrs, resource.WithFromEnv())
	}
	if v := getenv("OTEL_SERVICE_NAME"); v != "" {
		attrs = append(attrs, resource.WithAttributes(semconv.ServiceName(v)))
	}
	res, err := resource.New(ctx, attrs...)
	if err != nil && !errors.Is(err, resource.ErrPartialResource) {
		return nil, fmt.Errorf("OTEL_RESOURCE_ATTRIBUTES: %w", err)
	}
	return res, nil
}

// New is tracing on tp (tests: the SDK's in-memory exporter).
func New(tp trace.TracerProvider) *Tracing {
	if tp == nil {
		return nil
	}
	return &Tracing{Provider: tp, Propagator: Propagator()}
}

// On reports whether tracing is on.
func (t *Tracing) On() bool { return t != nil && t.Provider != nil }

// Tracer is the named tracer, or nil when tracing is off.
func (t *Tracing) Tracer(name string) trace.Tracer {
	if !t.On() {
		return nil
	}
	return t.Provider.Tracer(name)
}

// Shutdown exports the spans still queued and stops the exporter, within
// ctx. Nothing to do when tracing is off or was built by New.
func (t *Tracing) Shutdown(ctx context.Context) error {
	if t == nil || t.shutdown == nil {
		return nil
	}
	return t.shutdown(ctx)
}

// Exported is how many spans the memory exporter took (0 for the others).
func (t *Tracing) Exported() int64 {
	if t == nil || t.counter == nil {
		return 0
	}
	return t.counter.n.Load()
}

// CountingExporter is the memory exporter: it counts the spans it is given
// and keeps nothing (bounded whatever the load).
type CountingExporter struct{ n atomic.Int64 }

// ExportSpans counts spans.
func (e *CountingExporter) ExportSpans(_ context.Context, spans []sdktrace.ReadOnlySpan) error {
	e.n.Add(int64(len(spans)))
	return nil
}

// Shutdown does nothing.
func (e *CountingExporter) Shutdown(context.Context) error { return nil }
