package main

import (
	"context"
	"math"
	"slices"
	"sync"
	"time"
)

// grace is how long an operation still running at the end of the measured
// time may take before its context is cancelled.
const grace = 5 * time.Second

// maxErrorKinds caps the distinct error messages a worker keeps.
const maxErrorKinds = 8

// loadStats is the merged outcome of one closed-loop run.
type loadStats struct {
	latencies []time.Duration // of the successful measured operations
	errors    int             // failed measured operations
	errorKind map[string]int  // error message → count (a sample, capped)
	elapsed   time.Duration   // from the end of warm-up to the last operation's end
	// rate, when not zero, is the throughput instead of successes/elapsed
	// (a scenario's own run that measures it apart from its latencies).
	rate float64
}

// workerStats is one worker's record; workers share nothing while running.
type workerStats struct {
	latencies []time.Duration
	errors    int
	errorKind map[string]int
}

// runLoad runs ops[i] back to back on worker i: unrecorded for warmup, then
// recorded for duration. An operation counts when it started inside the
// measured time.
func runLoad(ctx context.Context, ops []op, warmup, duration time.Duration) loadStats {
	measureFrom := time.Now().Add(warmup)
	stopAt := measureFrom.Add(duration)
	ctx, cancel := context.WithDeadline(ctx, stopAt.Add(grace))
	defer cancel()

	workers := make([]workerStats, len(ops))
	var wg sync.WaitGroup
	for i, o := range ops {
		wg.Go(func() { workers[i] = runWorker(ctx, o, measureFrom, stopAt) })
	}
	wg.Wait()
	return merge(workers, time.Since(measureFrom))
}

// runWorker is one closed-loop worker.
func runWorker(ctx context.Context, o op, measureFrom, stopAt time.Time) workerStats {
	w := workerStats{latencies: make([]time.Duration, 0, 1<<14), errorKind: map[string]int{}}
	for ctx.Err() == nil {
		start := time.Now()
		if !start.Before(stopAt) {
			break
		}
		err := o(ctx)
		took := time.Since(start)
		if start.Before(measureFrom) {
			continue
		}
		if err != nil {
			w.errors++
			if msg := err.Error(); len(w.errorKind) < maxErrorKinds || w.errorKind[msg] > 0 {
				w.errorKind[msg]++
			}
			continue
		}
		w.latencies = append(w.latencies, took)
	}
	return w
}

// merge joins the workers' records.
func merge(workers []workerStats, elapsed time.Duration) loadStats {
	s := loadStats{errorKind: map[string]int{}, elapsed: elapsed}
	n := 0
	for _, w := range workers {
		n += len(w.latencies)
	}
	s.latencies = make([]time.Duration, 0, n)
	for _, w := range workers {
		s.latencies = append(s.latencies, w.latencies...)
		s.errors += w.errors
		for msg, c := range w.errorKind {
			s.errorKind[msg] += c
		}
	}
	slices.Sort(s.latencies)
	return s
}

// result is one scenario's row.
type result struct {
	sc            *scenario
	ok, errors    int
	errorKind     map[string]int
	rate          float64 // successful operations per second
	p50, p95, p99 time.Duration
	rss           int64 // kB: the service's peak, or bench's growth when rssGrowth
	rssBefore     int64 // kB: the RSS sampled just before the first operation
	rssGrowth     bool
	workers       int
	checks        []verdict // of the scenario's check, run after the load
	broken        error     // set when the scenario could not be measured
}

// rssGrowthKB is how far the measured process's peak RSS rose over its RSS
// before the scenario; false when RSS was not sampled.
func (r *result) rssGrowthKB() (int64, bool) {
	switch {
	case r.rssGrowth:
		return r.rss, true
	case r.rss > 0:
		return r.rss - r.rssBefore, true
	}
	return 0, false
}

// fill copies the load's figures into r.
func (r *result) fill(s loadStats) {
	r.ok, r.errors, r.errorKind = len(s.latencies), s.errors, s.errorKind
	switch {
	case s.rate > 0:
		r.rate = s.rate
	case s.elapsed > 0:
		r.rate = float64(r.ok) / s.elapsed.Seconds()
	}
	r.p50 = percentile(s.latencies, 0.50)
	r.p95 = percentile(s.latencies, 0.95)
	r.p99 = percentile(s.latencies, 0.99)
}

// percentile is the nearest-rank p-quantile of sorted (0 when it is empty).
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(p*float64(len(sorted)))) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}
