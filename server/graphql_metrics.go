package server

import (
	"context"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/vektah/gqlparser/v2/ast"
)

// GraphQL's metrics (CONTRACT §24), by operation name:
// commerce_graphql_operation_duration_seconds{operation} from the request's
// start (parsing included) to its response, and
// commerce_graphql_operation_cost{operation}, the cost spent from the
// caller's budget (graphql_cost.go), for every query and mutation that
// ran; commerce_graphql_subscriptions_active, the subscriptions this
// process is serving. An operation without a name is "anonymous"; past
// maxOperationNames distinct names (or a name longer than
// maxOperationName), "other": clients choose the names, the series stay
// bounded.
const (
	maxOperationNames = 200
	maxOperationName  = 100
)

// graphQLMetrics is the gqlgen extension that observes operations.
type graphQLMetrics struct {
	duration, cost *prometheus.HistogramVec
	active         prometheus.Gauge

	mu    sync.RWMutex
	names map[string]struct{}
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationInterceptor
} = (*graphQLMetrics)(nil)

// newGraphQLMetrics registers the metrics on reg.
func newGraphQLMetrics(reg prometheus.Registerer) *graphQLMetrics {
	m := &graphQLMetrics{
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "commerce_graphql_operation_duration_seconds", Help: "GraphQL queries' and mutations' latency, parsing included, by operation name.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"operation"}),
		cost: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "commerce_graphql_operation_cost", Help: "Cost of GraphQL queries and mutations spent from the caller's budget, by operation name.",
			Buckets: []float64{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000},
		}, []string{"operation"}),
		active: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "commerce_graphql_subscriptions_active", Help: "GraphQL subscriptions this process is serving.",
		}),
		names: map[string]struct{}{},
	}
	reg.MustRegister(m.duration, m.cost, m.active)
	return m
}

func (*graphQLMetrics) ExtensionName() string                   { return "Metrics" }
func (*graphQLMetrics) Validate(graphql.ExecutableSchema) error { return nil }

// operation is the label of an operation name.
func (m *graphQLMetrics) operation(name string) string {
	if name == "" {
		return "anonymous"
	}
	if len(name) > maxOperationName || name == "anonymous" || name == "other" {
		return "other"
	}
	m.mu.RLock()
	_, ok := m.names[name]
	m.mu.RUnlock()
	if ok {
		return name
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.names[name]; ok {
		return name
	}
	if len(m.names) >= maxOperationNames {
		return "other"
	}
	m.names[name] = struct{}{}
	return name
}

func (m *graphQLMetrics) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	oc := graphql.GetOperationContext(ctx)
	if oc.Operation == nil {
		return next(ctx)
	}
	if oc.Operation.Operation == ast.Subscription {
		return m.subscription(ctx, next)
	}
	start := oc.Stats.OperationStart
	if start.IsZero() {
		start = time.Now()
	}
	op := m.operation(oc.Operation.Name)
	responses := next(ctx)
	var once sync.Once
	return func(ctx context.Context) *graphql.Response {
		resp := responses(ctx)
		once.Do(func() {
			m.duration.WithLabelValues(op).Observe(time.Since(start).Seconds())
			if rep, ok := oc.Stats.GetExtension("cost").(costReport); ok {
				m.cost.WithLabelValues(op).Observe(float64(rep.Requested))
			}
		})
		return resp
	}
}

// subscription counts a subscription as active from its start until its
// stream ends (the handler returns nil: the client completed it, the
// connection closed, or the stream failed) or the handler panics.
func (m *graphQLMetrics) subscription(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	m.active.Inc()
	var once sync.Once
	end := func() { once.Do(m.active.Dec) }
	responses := func() (h graphql.ResponseHandler) {
		defer func() {
			if v := recover(); v != nil {
				end()
				panic(v)
			}
		}()
		return next(ctx)
	}()
	return func(ctx context.Context) (resp *graphql.Response) {
		defer func() {
			if v := recover(); v != nil {
				end()
				panic(v)
			}
			if resp == nil {
				end()
			}
		}()
		return responses(ctx)
	}
}
