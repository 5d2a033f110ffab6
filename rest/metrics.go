package rest

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the HTTP and rate-limit metrics, registered on one registry.
type Metrics struct {
	requests    *prometheus.CounterVec
	latency     *prometheus.HistogramVec
	rejections  *prometheus.CounterVec
	limitErrors prometheus.Counter
}

// NewMetrics registers the metrics on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "commerce_http_requests_total", Help: "HTTP requests by route pattern, method and status.",
		}, []string{"route", "method", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "commerce_http_request_duration_seconds", Help: "HTTP request latency by route pattern.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route", "method"}),
		rejections: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "commerce_ratelimit_rejections_total", Help: "Requests (and GraphQL fields and operations) refused by a rate limit, by group (graphql_cost: the GraphQL cost budget).",
		}, []string{"group"}),
		limitErrors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "commerce_ratelimit_errors_total", Help: "Rate-limit checks that failed (Redis unreachable) and were allowed.",
		}),
	}
	reg.MustRegister(m.requests, m.latency, m.rejections, m.limitErrors)
	return m
}

// Refused counts a refusal of a rate limit of group checked outside this
// package (resolvers.Resolver.LimitRefused).
func (m *Metrics) Refused(group string) { m.rejections.WithLabelValues(group).Inc() }

func (m *Metrics) observe(method, route string, status int, d time.Duration) {
	m.requests.WithLabelValues(route, method, itoa(status)).Inc()
	m.latency.WithLabelValues(route, method).Observe(d.Seconds())
}
