// Package linear checks that the cost of an operation grows at most
// linearly with the size of its input (issue 20, "linear by construction"):
// the input is doubled several times, and the bytes allocated per run and
// the time of the fastest run are compared across the sizes.
package linear

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

const (
	// MaxAllocGrowth bounds the bytes allocated at 2n over those at n: 2 is
	// linear, a little more is noise (a slice or buffer doubling its
	// capacity one size earlier), 4 is quadratic.
	MaxAllocGrowth = 3.0
	// MaxAllocFactor bounds the bytes allocated at the largest size over
	// the smallest, as a multiple of the ratio of the sizes (16× over four
	// doublings: linear is 1, quadratic 16), so that growth a little over
	// 2 at every step cannot add up. Linear is not exactly 1: append grows
	// a large slice by 1.25× rather than 2×, which leaves about 5 times
	// its final size allocated instead of 2 (decoding 80,000 array
	// elements measures 1.7).
	MaxAllocFactor = 2.0
	// MaxTimeFactor bounds the time of the largest size over the smallest,
	// as a multiple of the ratio of the sizes. Time is noisy on a shared
	// machine under -race, so it is judged once over the whole range (16×
	// in size: linear is 16×, quadratic 256×) on the fastest of several runs.
	MaxTimeFactor = 3.0
	// runs is how many times each size runs (after one warm-up run).
	runs = 5
	// timeRetries is how many times the smallest and the largest sizes are
	// measured again when their times look more than linear.
	timeRetries = 3
)

// Case is one operation on inputs of growing size.
type Case struct {
	Name string
	// Sizes doubles at each step (at least three steps).
	Sizes []int
	// Input builds the input of size n (not measured).
	Input func(n int) any
	// Run performs the operation on an input (measured). It reports a
	// failure through t itself.
	Run func(t testing.TB, in any)
}

// point is one size's measurement.
type point struct {
	n     int
	bytes float64 // allocated by the leanest run
	best  time.Duration
}

// Check measures c at each size and fails t when allocated bytes grow by more
// than MaxAllocGrowth per doubling or MaxAllocFactor times the growth of the
// size over the whole range, or time by more than MaxTimeFactor times the
// growth of the size over the whole range. It logs the measurements.
//
// Allocations are read from runtime.MemStats, which counts the whole
// process: a test calling Check must not be parallel (t.Parallel), so that
// no other test runs while it measures.
func Check(t *testing.T, c Case) {
	t.Helper()
	if len(c.Sizes) < 3 {
		t.Fatalf("%s: give at least three sizes", c.Name)
	}
	var pts []point
	for _, n := range c.Sizes {
		pts = append(pts, measure(t, c, n))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s:", c.Name)
	for _, p := range pts {
		fmt.Fprintf(&b, " n=%d %.0f B %v;", p.n, p.bytes, p.best)
	}
	t.Log(b.String())
	for i := 1; i < len(pts); i++ {
		prev, cur := pts[i-1], pts[i]
		if cur.n != 2*prev.n {
			t.Fatalf("%s: sizes must double (%d then %d)", c.Name, prev.n, cur.n)
		}
		// A few hundred bytes are not growth worth judging (the floor
		// keeps tiny counts from making large ratios).
		if g := cur.bytes / max(prev.bytes, 1024); g > MaxAllocGrowth {
			t.Errorf("%s: allocated bytes grow %.2f× from n=%d (%.0f B) to n=%d (%.0f B), more than %.1f× per doubling",
				c.Name, g, prev.n, prev.bytes, cur.n, cur.bytes, MaxAllocGrowth)
		}
	}
	first, last := pts[0], pts[len(pts)-1]
	sizeRatio := float64(last.n) / float64(first.n)
	if g := last.bytes / max(first.bytes, 1024); g > MaxAllocFactor*sizeRatio {
		t.Errorf("%s: allocated bytes grow %.1f× from n=%d (%.0f B) to n=%d (%.0f B), more than %.1f× for %.0f× the size",
			c.Name, g, first.n, first.bytes, last.n, last.bytes, MaxAllocFactor*sizeRatio, sizeRatio)
	}
	// 50 µs is below what a shared machine measures reliably.
	// A machine busy with other tests can stall every run of one size; a
	// cost that grows faster than linearly does so every time. So a time
	// that looks too large is measured again (the ends only, keeping the
	// fastest) before it fails the test.
	for try := 0; try < timeRetries && timeFactor(first, last) > MaxTimeFactor*sizeRatio; try++ {
		again := measure(t, c, first.n)
		first.best = min(first.best, again.best)
		again = measure(t, c, last.n)
		last.best = min(last.best, again.best)
		t.Logf("%s: measured again (try %d): n=%d %v; n=%d %v", c.Name, try+1, first.n, first.best, last.n, last.best)
	}
	if g := timeFactor(first, last); g > MaxTimeFactor*sizeRatio {
		t.Errorf("%s: time grows %.1f× from n=%d (%v) to n=%d (%v), more than %.0f× for %.0f× the size",
			c.Name, g, first.n, first.best, last.n, last.best, MaxTimeFactor*sizeRatio, sizeRatio)
	}
}

// measure runs c at size n: one warm-up run, then runs measured runs with
// the collector off; the point keeps the fewest bytes and the fastest time.
func measure(t *testing.T, c Case, n int) point {
	in := c.Input(n)
	runtime.GC()
	gc := debug.SetGCPercent(-1)
	defer debug.SetGCPercent(gc)
	c.Run(t, in) // warm-up: lazily built tables, pools
	var before, after runtime.MemStats
	best := time.Duration(1<<63 - 1)
	least := uint64(1<<64 - 1)
	for range runs {
		runtime.ReadMemStats(&before)
		start := time.Now()
		c.Run(t, in)
		best = min(best, time.Since(start))
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return point{n: n, bytes: float64(least), best: best}
}

// timeFactor is how many times longer the last point's fastest run took
// than the first's (a first under 50µs counts as 50µs: timer noise).
func timeFactor(first, last point) float64 {
	return float64(last.best) / float64(max(first.best, 50*time.Microsecond))
}
