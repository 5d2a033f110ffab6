package dispatch

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Loop claims items of type T, makes each one's attempt on a goroutine and
// writes the attempts' outcomes (type O) in batches. Every field but Freed
// must be set before Start; none may change after it.
type Loop[T, O any] struct {
	// MaxInFlight bounds the attempts under way; Batch is the most items
	// one claim takes; PollInterval is how often the loop claims without
	// being woken; WriteTimeout bounds one try at writing outcomes.
	MaxInFlight, Batch         int
	PollInterval, WriteTimeout time.Duration

	// Log receives a claim that failed (a warning, ClaimFailed) and a
	// batch of outcomes that could not be written (an error, RecordFailed).
	Log                       *slog.Logger
	ClaimFailed, RecordFailed string

	// Listen calls wake for every notification that work was committed
	// (and once when it starts listening) until ctx ends.
	Listen func(ctx context.Context, wake func())
	// Claim claims up to limit due items.
	Claim func(ctx context.Context, limit int) ([]T, error)
	// Send makes one item's attempt; ok false means there is no outcome
	// to write (the attempt was canceled: Send releases the claim).
	Send func(ctx context.Context, item *T) (o O, ok bool)
	// Freed, if set, is told that an item's attempt has ended, after its
	// outcome went to the writer; claiming says whether the loop asks for
	// a claim already. It returns whether a claim is wanted.
	Freed func(item *T, claiming bool) bool
	// Record writes a batch of outcomes, in the order the attempts ended.
	Record func(ctx context.Context, batch []O) error
	// NextAttempt is when an outcome's retry is due (nil: none).
	NextAttempt func(o O) *time.Time

	wake    chan struct{}
	results chan O

	mu      sync.Mutex
	total   int       // attempts under way
	full    bool      // the last claim took as many as it asked for
	retryAt time.Time // the earliest retry this loop scheduled
	claim   bool      // a claim is wanted (woken, or room came back)
	// behind: the writer is trying a failed write again. The loop claims
	// nothing meanwhile: once the database is back, the outcomes are
	// written before their items' expired claims could be taken again.
	behind bool

	stop     context.CancelFunc // ends the loop
	cancel   context.CancelFunc // cancels the attempts under way
	done     chan struct{}      // closed when the loop has returned
	attempts sync.WaitGroup
}

// Start runs the loop until Stop.
func (l *Loop[T, O]) Start(ctx context.Context) {
	l.wake = make(chan struct{}, 1)
	l.results = make(chan O, l.MaxInFlight)
	l.done = make(chan struct{})
	ctx, l.stop = context.WithCancel(context.WithoutCancel(ctx))
	var actx context.Context
	actx, l.cancel = context.WithCancel(context.WithoutCancel(ctx))
	go func() {
		defer close(l.done)
		l.run(ctx, actx)
	}()
}

// Stop stops claiming, lets the attempts under way finish until ctx ends,
// then cancels them and writes the outcomes. It returns when the loop,
// the attempts and the writer have all returned.
func (l *Loop[T, O]) Stop(ctx context.Context) {
	if l.stop == nil {
		return
	}
	l.stop() // the loop claims no more, then waits for the attempts
	select {
	case <-l.done:
	case <-ctx.Done():
		l.cancel()
		<-l.done
	}
	l.cancel()
}

// Cancel cancels the attempts under way.
func (l *Loop[T, O]) Cancel() {
	if l.cancel != nil {
		l.cancel()
	}
}

func (l *Loop[T, O]) signal() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

func (l *Loop[T, O]) want() {
	l.mu.Lock()
	l.claim = true
	l.mu.Unlock()
	l.signal()
}

// run is the claim loop; actx is the attempts' context.
func (l *Loop[T, O]) run(ctx, actx context.Context) {
	var listening, writing sync.WaitGroup
	listening.Go(func() { l.Listen(ctx, l.want) })
	writing.Go(l.write)
	defer func() {
		listening.Wait()
		l.attempts.Wait()
		close(l.results)
		writing.Wait()
	}()

	l.want()
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		l.mu.Lock()
		do := l.claim && !l.behind
		if do {
			l.claim = false
		}
		l.mu.Unlock()
		if do {
			l.claimAndSend(ctx, actx)
		}
		l.mu.Lock()
		sleep := l.PollInterval
		if !l.retryAt.IsZero() {
			sleep = min(sleep, max(time.Until(l.retryAt), time.Millisecond))
		}
		l.mu.Unlock()
		timer.Reset(sleep)
		select {
		case <-ctx.Done():
			return
		case <-l.wake:
		case <-timer.C:
			l.mu.Lock()
			l.claim = true
			if !l.retryAt.IsZero() && !time.Now().Before(l.retryAt) {
				l.retryAt = time.Time{}
			}
			l.mu.Unlock()
		}
	}
}

// claimAndSend claims the due items there is room for and starts their
// attempts.
func (l *Loop[T, O]) claimAndSend(ctx, actx context.Context) {
	l.mu.Lock()
	limit := min(l.Batch, l.MaxInFlight-l.total)
	l.mu.Unlock()
	if limit <= 0 {
		return
	}
	items, err := l.Claim(ctx, limit)
	if err != nil {
		if ctx.Err() == nil {
			l.Log.WarnContext(ctx, l.ClaimFailed, "error", err)
		}
		return
	}
	l.mu.Lock()
	l.total += len(items)
	l.full = len(items) == limit
	if l.full {
		l.claim = true // more may be due; claimed again as room allows
	}
	l.mu.Unlock()
	for i := range items {
		item := &items[i]
		l.attempts.Go(func() {
			defer l.finished(item)
			if o, ok := l.Send(actx, item); ok {
				l.results <- o
			}
		})
	}
}

// finished frees an attempt's slot and asks for a claim when a quarter of
// the room came back after a full claim (or Freed wants one).
func (l *Loop[T, O]) finished(item *T) {
	l.mu.Lock()
	l.total--
	// Claim again once a quarter of the room is back, not per attempt.
	again := (l.full && l.total <= l.MaxInFlight*3/4) || l.total == 0
	if again {
		l.claim = true
	}
	l.mu.Unlock()
	if l.Freed != nil && l.Freed(item, again) && !again {
		l.want()
		return
	}
	if again {
		l.signal()
	}
}

// writeRetryFor is how long the writer tries a batch of outcomes again:
// longer than a failover takes (pg_auto_failover gives a lost primary 30 s
// to demote itself before the standby takes writes). A write
// after the items' claims expired does no harm: each Record ignores an
// outcome whose item was claimed again meanwhile.
const writeRetryFor = time.Minute

// write records outcomes in batches until results is closed: whatever
// arrived while the previous batch was written goes in the next.
func (l *Loop[T, O]) write() {
	for o := range l.results {
		batch := []O{o}
	more:
		for len(batch) < 4*l.Batch {
			select {
			case o, ok := <-l.results:
				if !ok {
					break more
				}
				batch = append(batch, o)
			default:
				break more
			}
		}
		// A failing write is tried again, with backoff, for writeRetryFor:
		// long enough to outlast a database failover, so that what went out
		// is recorded rather than claimed again and sent twice.
		var err error
		deadline := time.Now().Add(writeRetryFor)
		for pause := 100 * time.Millisecond; ; pause = min(2*pause, time.Second) {
			ctx, cancel := context.WithTimeout(context.Background(), l.WriteTimeout)
			err = l.Record(ctx, batch)
			cancel()
			if err == nil || time.Now().Add(pause).After(deadline) {
				break
			}
			l.mu.Lock()
			l.behind = true
			l.mu.Unlock()
			time.Sleep(pause)
		}
		l.mu.Lock()
		// Claims resume only once the outcomes queued behind a failing
		// write are written too: their items' claims may have expired
		// during the outage, and a claim before their outcome is recorded
		// would send them again (the failover drill's kill phase).
		if l.behind && (err != nil || len(l.results) == 0) {
			l.behind = false
			l.claim = true
		}
		l.mu.Unlock()
		l.signal()
		if err != nil {
			l.Log.Error(l.RecordFailed, "attempts", len(batch), "error", err)
			continue
		}
		// Wake for the earliest retry scheduled: written now, so a claim
		// at that time finds it.
		var next time.Time
		for _, o := range batch {
			if t := l.NextAttempt(o); t != nil && (next.IsZero() || t.Before(next)) {
				next = *t
			}
		}
		if !next.IsZero() {
			l.mu.Lock()
			if l.retryAt.IsZero() || next.Before(l.retryAt) {
				l.retryAt = next
			}
			l.mu.Unlock()
			l.signal()
		}
	}
}
