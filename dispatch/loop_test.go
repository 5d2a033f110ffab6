package dispatch_test

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/dispatch"
)

// queue is an in-memory table of due items for a Loop: item n is due at
// due[n]; a claim takes due items not claimed, a recorded outcome either
// ends the item or makes it due again.
type queue struct {
	mu       sync.Mutex
	due      map[int]time.Time
	claimed  map[int]bool
	recorded []outcome
	inFlight int // attempts under way
	peak     int // the most attempts under way at once
	// downUntil makes Record fail until then (the database failing over).
	downUntil time.Time
	failed    int // Record calls that failed
	// lease, when set, is how long a claim lasts: an item claimed longer
	// ago and not recorded may be claimed again (the outbox's claims).
	lease     time.Duration
	claimedAt map[int]time.Time
}

type outcome struct {
	item int
	next *time.Time
}

func newQueue(n int) *queue {
	q := &queue{due: map[int]time.Time{}, claimed: map[int]bool{}, claimedAt: map[int]time.Time{}}
	for i := range n {
		q.due[i] = time.Now()
	}
	return q
}

// loop runs a Loop over q until the test ends; send makes an attempt's
// outcome.
func (q *queue) loop(t *testing.T, maxInFlight int, send func(item int) outcome) {
	l := &dispatch.Loop[int, outcome]{
		MaxInFlight:  maxInFlight,
		Batch:        4,
		PollInterval: time.Hour, // only the hooks and the retries wake it
		WriteTimeout: time.Second,
		Log:          slog.New(slog.DiscardHandler),
		Listen:       func(ctx context.Context, wake func()) { wake(); <-ctx.Done() },
		Claim: func(_ context.Context, limit int) ([]int, error) {
			q.mu.Lock()
			defer q.mu.Unlock()
			var items []int
			for i, at := range q.due {
				expired := q.lease > 0 && time.Since(q.claimedAt[i]) > q.lease
				if len(items) < limit && (!q.claimed[i] || expired) && !at.After(time.Now()) {
					q.claimed[i] = true
					q.claimedAt[i] = time.Now()
					items = append(items, i)
				}
			}
			q.inFlight += len(items)
			q.peak = max(q.peak, q.inFlight)
			return items, nil
		},
		Send: func(_ context.Context, item *int) (outcome, bool) {
			time.Sleep(time.Millisecond)
			q.mu.Lock()
			q.inFlight--
			q.mu.Unlock()
			return send(*item), true
		},
		Record: func(_ context.Context, batch []outcome) error {
			q.mu.Lock()
			defer q.mu.Unlock()
			if time.Now().Before(q.downUntil) {
				q.failed++
				return errors.New("the database is failing over")
			}
			for _, o := range batch {
				q.recorded = append(q.recorded, o)
				delete(q.claimed, o.item)
				if o.next == nil {
					delete(q.due, o.item)
				} else {
					q.due[o.item] = *o.next
				}
			}
			return nil
		},
		NextAttempt: func(o outcome) *time.Time { return o.next },
	}
	l.Start(context.Background())
	t.Cleanup(func() { l.Stop(context.Background()) })
}

func (q *queue) left() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.due)
}

func TestLoopSendsEveryItemOnceWithinItsRoom(t *testing.T) {
	t.Parallel()
	q := newQueue(100)
	q.loop(t, 8, func(item int) outcome { return outcome{item: item} })

	// Room comes back as attempts end: no poll is needed to go on.
	require.Eventually(t, func() bool { return q.left() == 0 }, 5*time.Second, 5*time.Millisecond)
	q.mu.Lock()
	defer q.mu.Unlock()
	require.Len(t, q.recorded, 100)
	require.LessOrEqual(t, q.peak, 8)
}

func TestLoopWakesForTheEarliestRetry(t *testing.T) {
	t.Parallel()
	q := newQueue(1)
	var mu sync.Mutex
	tries := 0
	q.loop(t, 8, func(item int) outcome {
		mu.Lock()
		defer mu.Unlock()
		tries++
		if tries == 1 {
			next := time.Now().Add(50 * time.Millisecond)
			return outcome{item: item, next: &next}
		}
		return outcome{item: item}
	})

	// The poll is an hour away: only the retry's timer claims it again.
	require.Eventually(t, func() bool { return q.left() == 0 }, 5*time.Second, 5*time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	require.Equal(t, 2, tries)
}

// An outcome whose write fails while the database fails over (a few
// seconds) is written once it is back: dropped, its item would wait for
// its claim to expire and be sent again.
func TestLoopWritesOutcomesAcrossAFailover(t *testing.T) {
	t.Parallel()
	q := newQueue(20)
	q.downUntil = time.Now().Add(3 * time.Second)
	var mu sync.Mutex
	sent := map[int]int{}
	q.loop(t, 8, func(item int) outcome {
		mu.Lock()
		defer mu.Unlock()
		sent[item]++
		return outcome{item: item}
	})

	require.Eventually(t, func() bool { return q.left() == 0 }, 10*time.Second, 10*time.Millisecond)
	q.mu.Lock()
	defer q.mu.Unlock()
	require.Len(t, q.recorded, 20)
	require.Positive(t, q.failed)
	mu.Lock()
	defer mu.Unlock()
	for item, n := range sent {
		require.Equal(t, 1, n, "item %d sent", item)
	}
}

// Outcomes queued behind a failing write, more than one batch of them, are
// all written before the loop claims again: their claims expired during the
// outage, and a claim between two of their batches would send the items of
// the later ones a second time (the failover drill's kill phase).
func TestLoopClaimsAfterEveryQueuedOutcomeIsWritten(t *testing.T) {
	t.Parallel()
	q := newQueue(40)
	q.lease = 200 * time.Millisecond
	q.downUntil = time.Now().Add(time.Second)
	var mu sync.Mutex
	sent := map[int]int{}
	q.loop(t, 32, func(item int) outcome {
		mu.Lock()
		defer mu.Unlock()
		sent[item]++
		return outcome{item: item}
	})

	require.Eventually(t, func() bool { return q.left() == 0 }, 10*time.Second, 10*time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	for item, n := range sent {
		require.Equal(t, 1, n, "item %d sent", item)
	}
}
