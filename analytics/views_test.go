package analytics_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/analytics"
)

// clock is a settable time.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// sink collects what the counter flushes.
type sink struct {
	mu   sync.Mutex
	got  map[analytics.ViewKey]int64
	fail bool
}

func (s *sink) flush(_ context.Context, batch []analytics.ViewCount) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail {
		return errors.New("database down")
	}
	for _, v := range batch {
		s.got[v.ViewKey] += v.Views
	}
	return nil
}

func (s *sink) views(listing string, day string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, _ := time.Parse(time.DateOnly, day)
	return s.got[analytics.ViewKey{ListingID: listing, Day: d}]
}

func newCounter(t *testing.T, opts analytics.CounterOptions) (*analytics.Counter, *clock, *sink) {
	c := &clock{t: time.Date(2026, 11, 26, 23, 40, 0, 0, time.UTC)}
	s := &sink{got: map[analytics.ViewKey]int64{}}
	opts.Flush, opts.Now = s.flush, c.now
	return analytics.NewCounter(opts), c, s
}

func TestViewsOnePerClientPer30Minutes(t *testing.T) {
	t.Parallel()
	vc, clk, s := newCounter(t, analytics.CounterOptions{})
	for i := 0; i < 50; i++ {
		vc.Record("lst_a", "203.0.113.7", "Firefox")
		clk.add(30 * time.Second) // 50 views in 25 minutes
	}
	for i := 0; i < 50; i++ {
		vc.Record("lst_a", fmt.Sprintf("203.0.113.%d", i), "Firefox")
		vc.Record("lst_b", "203.0.113.7", fmt.Sprintf("Agent %d", i))
	}
	require.NoError(t, vc.Flush(context.Background()))
	require.EqualValues(t, 1+49, s.views("lst_a", "2026-11-27")+s.views("lst_a", "2026-11-26"), "one client counts once; 49 others once each")
	require.EqualValues(t, 50, s.views("lst_b", "2026-11-27"), "a user agent is another client")
	// 30 minutes after its first view the client counts again, on the
	// UTC day of the view.
	clk.add(5 * time.Minute)
	vc.Record("lst_a", "203.0.113.7", "Firefox")
	require.NoError(t, vc.Flush(context.Background()))
	require.EqualValues(t, 1, s.views("lst_a", "2026-11-26"))
	require.EqualValues(t, 50, s.views("lst_a", "2026-11-27"))
}

func TestViewsKeyRotationKeepsTheWindow(t *testing.T) {
	t.Parallel()
	vc, clk, s := newCounter(t, analytics.CounterOptions{})
	// Views every 7 minutes across several key rotations: a new view only
	// once each 30 minutes have passed since the counted one.
	counted := 0
	var last time.Time
	for i := 0; i < 40; i++ {
		if last.IsZero() || clk.now().Sub(last) >= 30*time.Minute {
			counted++
			last = clk.now()
		}
		vc.Record("lst_a", "198.51.100.1", "Safari")
		clk.add(7 * time.Minute)
	}
	require.NoError(t, vc.Flush(context.Background()))
	var total int64
	for _, n := range s.got {
		total += n
	}
	require.EqualValues(t, counted, total)
}

func TestViewsMemoryIsBounded(t *testing.T) {
	t.Parallel()
	vc, clk, s := newCounter(t, analytics.CounterOptions{MaxClients: 100})
	for i := 0; i < 300; i++ {
		vc.Record("lst_a", fmt.Sprintf("10.0.%d.%d", i/256, i%256), "x")
	}
	require.LessOrEqual(t, vc.Clients(), 100)
	// Past the cap a view is counted but not remembered: the client's
	// next view counts again.
	vc.Record("lst_a", "10.0.1.40", "x")
	require.NoError(t, vc.Flush(context.Background()))
	require.EqualValues(t, 301, s.views("lst_a", "2026-11-26"))
	// Expired clients are forgotten with their key (at most an hour
	// later), which makes room again.
	clk.add(61 * time.Minute)
	vc.Record("lst_a", "10.9.9.9", "x")
	vc.Record("lst_a", "10.9.9.9", "x")
	require.NoError(t, vc.Flush(context.Background()))
	require.EqualValues(t, 1, s.views("lst_a", "2026-11-27"))
	require.Equal(t, 1, vc.Clients())
}

func TestViewsFailedFlushIsKept(t *testing.T) {
	t.Parallel()
	vc, _, s := newCounter(t, analytics.CounterOptions{})
	vc.Record("lst_a", "192.0.2.1", "x")
	s.fail = true
	require.Error(t, vc.Flush(context.Background()))
	vc.Record("lst_a", "192.0.2.2", "x")
	s.fail = false
	require.NoError(t, vc.Flush(context.Background()))
	require.EqualValues(t, 2, s.views("lst_a", "2026-11-26"))
	require.NoError(t, vc.Flush(context.Background()), "nothing left: no second write")
	require.EqualValues(t, 2, s.views("lst_a", "2026-11-26"))
}

func TestViewsRunFlushesPeriodicallyAndAtTheEnd(t *testing.T) {
	t.Parallel()
	vc, _, s := newCounter(t, analytics.CounterOptions{Every: 20 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { vc.Run(ctx, nil); close(done) }()
	vc.Record("lst_a", "192.0.2.1", "x")
	require.Eventually(t, func() bool { return s.views("lst_a", "2026-11-26") == 1 }, 5*time.Second, 10*time.Millisecond)
	vc.Record("lst_a", "192.0.2.2", "x")
	cancel()
	<-done
	require.EqualValues(t, 2, s.views("lst_a", "2026-11-26"), "the last views are flushed when the counter stops")
}
