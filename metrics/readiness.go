package metrics

import (
	"context"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// pingTimeout is how long a dependency has to answer, as /readyz gives it.
const pingTimeout = time.Second

// Dependency is something the service needs to be ready, and how to ask it.
type Dependency struct {
	Name string
	Ping func(ctx context.Context) error
}

// Readiness reports commerce_dependency_up{dependency}: 1 when the
// dependency answered a ping within a second, 0 when it did not: the
// checks of /readyz, for the readiness alert. The pings run when scraped,
// at once, at most once per QueueCacheFor.
type Readiness struct {
	deps []Dependency
	up   *prometheus.Desc

	mu   sync.Mutex
	at   time.Time
	last []float64
}

// NewReadiness is the collector of deps' readiness.
func NewReadiness(deps ...Dependency) *Readiness {
	return &Readiness{deps: deps, up: prometheus.NewDesc("commerce_dependency_up",
		"Whether a dependency (postgres, redis) answered a ping within a second: 1 yes, 0 no (the checks of /readyz).",
		[]string{"dependency"}, nil)}
}

func (r *Readiness) Describe(ch chan<- *prometheus.Desc) { ch <- r.up }

func (r *Readiness) Collect(ch chan<- prometheus.Metric) {
	r.mu.Lock()
	if time.Since(r.at) >= QueueCacheFor {
		ctx, cancel := context.WithTimeout(context.Background(), pingTimeout)
		up := make([]float64, len(r.deps))
		var wg sync.WaitGroup
		for i, d := range r.deps {
			wg.Go(func() {
				if d.Ping(ctx) == nil {
					up[i] = 1
				}
			})
		}
		wg.Wait()
		cancel()
		r.at, r.last = time.Now(), up
	}
	last := r.last
	r.mu.Unlock()
	for i, d := range r.deps {
		ch <- prometheus.MustNewConstMetric(r.up, prometheus.GaugeValue, last[i], d.Name)
	}
}
