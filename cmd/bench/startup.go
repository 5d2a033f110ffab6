package main

import (
	"context"
	"fmt"
	"time"
)

// Startup targets (issue 15): `serve` answers within a second of its exec,
// and the idle service stays small.
const (
	maxColdStart = time.Second
	maxIdleRSSMB = 60
	// idleFor is how long the idle service's RSS is sampled.
	idleFor = time.Second
)

// runStartup reports the cold start scripts/bench.sh measured (-cold-start:
// from the exec of `commerce serve` to the first 200 of /readyz) as the
// row's latency, and samples the service's RSS while it idles (the row's
// RSS, checked by checkStartup). It runs before any scenario loads the
// service.
func runStartup(ctx context.Context, e *env, r *result) (loadStats, error) {
	var stats loadStats
	v := verdict{name: "cold start"}
	if d := e.cfg.coldStart; d > 0 {
		stats.latencies = []time.Duration{d}
		v.state = passFail(d <= maxColdStart)
		v.detail = fmt.Sprintf("%v from exec to the first 200 of /readyz, want <= %v", d.Round(time.Millisecond), maxColdStart)
	} else {
		stats.latencies = []time.Duration{0}
		v.state, v.detail = "SKIP", "not measured (-cold-start not given)"
	}
	r.checks = append(r.checks, v)
	select {
	case <-ctx.Done():
		return stats, ctx.Err()
	case <-time.After(idleFor):
	}
	return stats, nil
}

// checkStartup checks the idle service's peak RSS.
func checkStartup(_ context.Context, _ *env, r *result) verdict {
	v := verdict{name: "idle RSS"}
	if r.rss <= 0 {
		v.state, v.detail = "SKIP", "not sampled (-pid not given)"
		return v
	}
	mb := float64(r.rss) / 1024
	v.state = passFail(mb <= maxIdleRSSMB)
	v.detail = fmt.Sprintf("%.1f MB, want <= %d MB", mb, maxIdleRSSMB)
	return v
}
