package mail

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"commerce/db"
)

// Dispatcher defaults.
const (
	// DispatchMaxInFlight bounds the SMTP sessions under way in one
	// process (a relay limits the connections of one client; 16 is well
	// under the usual limits).
	DispatchMaxInFlight = 16
	// DispatchBatch is the most messages one claim takes.
	DispatchBatch = 64
	// DispatchPollInterval is how often the dispatcher looks for due
	// messages without being woken: the claims of processes that died.
	DispatchPollInterval = time.Second
)

// Dispatcher delivers the due messages of mail_messages, in every process
// that works (commerce serve and commerce worker), the way the webhook
// dispatcher delivers its records: it claims due messages in batches for
// claimFor, sends each on a goroutine, and writes the outcomes in batches.
// It wakes on NOTIFY mail_messages (sent by the transaction that stores a
// message, when it commits), on the earliest retry it scheduled, when room
// comes back after a full claim, and every PollInterval for what other
// processes left (expired claims).
type Dispatcher struct {
	DB     *db.DB
	Sender *Sender
	Log    *slog.Logger
	// MaxInFlight, Batch and PollInterval default to the Dispatch
	// constants.
	MaxInFlight, Batch int
	PollInterval       time.Duration

	wake    chan struct{}
	results chan outcome

	mu      sync.Mutex
	total   int       // attempts under way
	full    bool      // the last claim took as many as it asked for
	retryAt time.Time // the earliest retry this process scheduled
	claim   bool      // a claim is wanted

	stop     context.CancelFunc // ends the loop
	cancel   context.CancelFunc // cancels the attempts under way
	done     chan struct{}      // closed when the loop has returned
	attempts sync.WaitGroup
}

func (w *Dispatcher) defaults() {
	if w.MaxInFlight <= 0 {
		w.MaxInFlight = DispatchMaxInFlight
	}
	if w.Batch <= 0 {
		w.Batch = DispatchBatch
	}
	if w.PollInterval <= 0 {
		w.PollInterval = DispatchPollInterval
	}
	if w.Log == nil {
		w.Log = slog.Default()
	}
	w.wake = make(chan struct{}, 1)
	w.results = make(chan outcome, w.MaxInFlight)
	w.done = make(chan struct{})
}

// Start runs the dispatcher until Stop.
func (w *Dispatcher) Start(ctx context.Context) {
	w.defaults()
	ctx, w.stop = context.WithCancel(context.WithoutCancel(ctx))
	var actx context.Context
	actx, w.cancel = context.WithCancel(context.WithoutCancel(ctx))
	go func() {
		defer close(w.done)
		w.run(ctx, actx)
	}()
}

// Stop stops claiming, lets the attempts under way finish until ctx ends,
// then cancels them (their claims are released: another process sends
// them) and writes the outcomes.
func (w *Dispatcher) Stop(ctx context.Context) {
	if w.stop == nil {
		return
	}
	w.stop()
	select {
	case <-w.done:
	case <-ctx.Done():
		w.cancel()
		<-w.done
	}
	w.cancel()
}

func (w *Dispatcher) signal() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *Dispatcher) want() {
	w.mu.Lock()
	w.claim = true
	w.mu.Unlock()
	w.signal()
}

// run is the claim loop; actx is the attempts' context.
func (w *Dispatcher) run(ctx, actx context.Context) {
	var listening, writing sync.WaitGroup
	listening.Go(func() { db.Listen(ctx, w.DB, notifyChannel, w.want, w.Log) })
	writing.Go(w.write)
	defer func() {
		listening.Wait()
		w.attempts.Wait()
		close(w.results)
		writing.Wait()
	}()

	w.want()
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		w.mu.Lock()
		do := w.claim
		w.claim = false
		w.mu.Unlock()
		if do {
			w.claimAndSend(ctx, actx)
		}
		w.mu.Lock()
		sleep := w.PollInterval
		if !w.retryAt.IsZero() {
			sleep = min(sleep, max(time.Until(w.retryAt), time.Millisecond))
		}
		w.mu.Unlock()
		timer.Reset(sleep)
		select {
		case <-ctx.Done():
			return
		case <-w.wake:
		case <-timer.C:
			w.mu.Lock()
			w.claim = true
			if !w.retryAt.IsZero() && !time.Now().Before(w.retryAt) {
				w.retryAt = time.Time{}
			}
			w.mu.Unlock()
		}
	}
}

// claimAndSend claims the due messages there is room for and starts their
// attempts.
func (w *Dispatcher) claimAndSend(ctx, actx context.Context) {
	w.mu.Lock()
	limit := min(w.Batch, w.MaxInFlight-w.total)
	w.mu.Unlock()
	if limit <= 0 {
		return
	}
	msgs, err := claim(ctx, w.DB.Pool, limit, nil, nil, w.Sender.idDomain)
	if err != nil {
		if ctx.Err() == nil {
			w.Log.WarnContext(ctx, "claim mail", "error", err)
		}
		return
	}
	w.mu.Lock()
	w.total += len(msgs)
	w.full = len(msgs) == limit
	if w.full {
		w.claim = true // more may be due; claimed again as room allows
	}
	w.mu.Unlock()
	for i := range msgs {
		m := &msgs[i]
		w.attempts.Go(func() {
			defer w.finished()
			o, ok := w.Sender.attempt(actx, m)
			if !ok {
				rctx, cancel := context.WithTimeout(context.Background(), finishTimeout)
				defer cancel()
				if err := release(rctx, w.DB.Pool, m); err != nil {
					w.Log.Warn("release mail claim", "message_id", m.ID, "error", err)
				}
				return
			}
			w.results <- o
		})
	}
}

// finished frees an attempt's slot and asks for a claim when a quarter of
// the room came back after a full claim.
func (w *Dispatcher) finished() {
	w.mu.Lock()
	w.total--
	again := (w.full && w.total <= w.MaxInFlight*3/4) || w.total == 0
	if again {
		w.claim = true
	}
	w.mu.Unlock()
	if again {
		w.signal()
	}
}

// write records outcomes in batches until results is closed: whatever
// arrived while the previous batch was written goes in the next. A write
// is tried three times (a sent outcome is recorded even after its claim
// expired, see recordQuery); an outcome that cannot be written leaves its
// claim to expire, and the message is sent again, as the same message.
func (w *Dispatcher) write() {
	for o := range w.results {
		batch := []outcome{o}
	more:
		for len(batch) < 4*w.Batch {
			select {
			case o, ok := <-w.results:
				if !ok {
					break more
				}
				batch = append(batch, o)
			default:
				break more
			}
		}
		var err error
		for try := range 3 {
			ctx, cancel := context.WithTimeout(context.Background(), finishTimeout)
			err = record(ctx, w.DB.Pool, batch)
			cancel()
			if err == nil {
				break
			}
			time.Sleep(time.Duration(try+1) * 100 * time.Millisecond)
		}
		if err != nil {
			w.Log.Error("record mail attempts", "attempts", len(batch), "error", err)
			continue
		}
		// Wake for the earliest retry scheduled: written now, so a claim
		// at that time finds it.
		var next time.Time
		for _, o := range batch {
			if o.next != nil && (next.IsZero() || o.next.Before(next)) {
				next = *o.next
			}
		}
		if !next.IsZero() {
			w.mu.Lock()
			if w.retryAt.IsZero() || next.Before(w.retryAt) {
				w.retryAt = next
			}
			w.mu.Unlock()
			w.signal()
		}
	}
}
