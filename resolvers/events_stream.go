package resolvers

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/jackc/pgx/v5"

	"commerce/db"
	"commerce/graph"
	"commerce/graph/model"
	"commerce/problem"
	"commerce/ratelimit"
)

// The live event log (CONTRACT §14, `subscription { events }`).
//
// The event log is the source of truth; notifications only wake readers.
// An event takes its final seq when its transaction commits, under a
// per-account lock (migration 20261123152000_event_stream), so for any
// account `seq > last` never skips a row that commits late, and the same
// trigger NOTIFYs commerceEventsChannel with the account id at commit.
//
// One LISTEN connection per process (the hub, ServeEvents) wakes the
// subscribers of the notified account: a buffered channel of one and a
// non-blocking send, so a slow or dead subscriber never holds up the
// listener, writers or other subscribers. Each subscriber then reads the
// log after its last position. While the listener is down, every subscriber
// is woken every second (it polls); after a reconnect, every subscriber is
// woken once. A missed notification costs latency, never an event.

const (
	commerceEventsChannel = "commerce_events"
	// MaxSubscriptionsPerKey is how many event subscriptions one API key may
	// hold at once, across every process (a Redis set of live subscriptions,
	// ratelimit.Slot); the next one fails with rate_limited.
	MaxSubscriptionsPerKey = 10
	// subscriptionRetryAfter is the retry_after of that rate_limited: a slot
	// frees as soon as one of the key's subscriptions ends.
	subscriptionRetryAfter = 5
	// subscriptionSlotTTL frees the slot of a subscription whose process
	// died; a live one refreshes it every subscriptionHeartbeat.
	subscriptionSlotTTL   = time.Minute
	subscriptionHeartbeat = 20 * time.Second
	// keyRecheck bounds how long a subscription outlives its key's
	// revocation when its account has no new events (every wake checks too).
	keyRecheck = 30 * time.Second
	// pollInterval is how often subscribers read the log while the
	// listener is down.
	pollInterval = time.Second
	// streamBatch is how many events one read of the log returns.
	streamBatch = 100
)

// eventHub fans the event notifications of one process out to its
// subscribers.
type eventHub struct {
	// ctx ends when the hub stops (server shutdown): every stream ends.
	ctx    context.Context
	cancel context.CancelFunc
	live   atomic.Bool // the LISTEN connection is up

	mu      sync.Mutex
	subs    map[string]map[*eventWaker]struct{} // by account
	stopped bool
	streams sync.WaitGroup
}

// eventWaker is one subscriber's doorbell.
type eventWaker struct {
	account string
	c       chan struct{}
}

func newEventHub() *eventHub {
	ctx, cancel := context.WithCancel(context.Background())
	return &eventHub{ctx: ctx, cancel: cancel, subs: map[string]map[*eventWaker]struct{}{}}
}

// add registers a subscriber of account; false once the hub stopped.
func (h *eventHub) add(account string) (*eventWaker, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stopped {
		return nil, false
	}
	w := &eventWaker{account: account, c: make(chan struct{}, 1)}
	if h.subs[account] == nil {
		h.subs[account] = map[*eventWaker]struct{}{}
	}
	h.subs[account][w] = struct{}{}
	h.streams.Add(1)
	return w, true
}

func (h *eventHub) remove(w *eventWaker) {
	h.mu.Lock()
	delete(h.subs[w.account], w)
	if len(h.subs[w.account]) == 0 {
		delete(h.subs, w.account)
	}
	h.mu.Unlock()
	h.streams.Done()
}

// wake rings the subscribers of account without ever blocking.
func (h *eventHub) wake(account string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for w := range h.subs[account] {
		ring(w)
	}
}

// wakeAll rings every subscriber.
func (h *eventHub) wakeAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, ws := range h.subs {
		for w := range ws {
			ring(w)
		}
	}
}

func ring(w *eventWaker) {
	select {
	case w.c <- struct{}{}:
	default: // already rung: it will read the log anyway
	}
}

// stop ends every stream and waits for them (they end at once: each waits
// on the hub's context).
func (h *eventHub) stop() {
	h.mu.Lock()
	h.stopped = true
	h.mu.Unlock()
	h.cancel()
	h.streams.Wait()
}

// StreamContext ends when the server shuts down (ServeEvents returns).
// Long-lived connections derive from it so that shutdown closes them.
func (r *Resolver) StreamContext() context.Context { return r.events.ctx }

// ServeEvents runs this process's event hub until ctx ends: it listens
// for the event notifications on the process's listening connection
// (db.DB.Listen, which reconnects with backoff) and wakes the subscribers
// of each notified account; while it is not listening, subscribers poll
// the log every second. When it returns, every subscription has ended.
func (r *Resolver) ServeEvents(ctx context.Context) {
	h := r.events
	defer h.stop()
	var poller sync.WaitGroup
	defer poller.Wait()
	poller.Go(func() {
		t := time.NewTicker(pollInterval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if !h.live.Load() {
					h.wakeAll()
				}
			}
		}
	})
	r.DB.Listen(ctx, commerceEventsChannel, db.Handler{
		Listening: func() {
			h.live.Store(true)
			// Anything committed while nobody listened is read now.
			h.wakeAll()
		},
		Notify: h.wake,
		Lost: func(err error) {
			h.live.Store(false)
			r.Log.Warn("event listener stopped; subscribers poll the event log every second until it reconnects", "error", err)
		},
	})
	h.live.Store(false)
}

// SubscribeEvents streams the caller's event log: every event after the
// event id after (exclusive; nil: only events committed from now on),
// exactly once and in log order, then live. types, when not nil, keeps
// only those event types. A read_only key may subscribe. The channel closes
// when ctx ends, the server shuts down, or the stream fails; onEnd (may be
// nil) is told why before the channel closes when it is an error:
// authentication_error (the key stopped working), rate_limited (the slot
// was lost), or an internal error. Errors: authentication_error,
// validation_error (after, types), rate_limited (the key holds
// MaxSubscriptionsPerKey subscriptions).
func (r *Resolver) SubscribeEvents(ctx context.Context, after *string, types []string, onEnd func(error)) (<-chan *model.Event, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	if types != nil {
		if len(types) == 0 {
			return nil, problem.Validation("types", "types must name at least one event type, or be omitted for all")
		}
		for _, t := range types {
			if !slices.Contains(EventTypes, t) {
				return nil, problem.Validation("types", "types must be among: "+strings.Join(EventTypes, ", "))
			}
		}
	}
	var pos int64
	if after != nil && *after != "" {
		err := r.DB.Pool.QueryRow(ctx, `SELECT seq FROM events WHERE id = $1 AND account_id = $2`, *after, p.AccountID).Scan(&pos)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil, problem.Validation("after", "after must be the id of an event of this account")
		}
		if err != nil {
			return nil, fmt.Errorf("find the after event: %w", err)
		}
	} else if err := r.DB.Pool.QueryRow(ctx, `SELECT coalesce(max(seq), 0) FROM events WHERE account_id = $1`, p.AccountID).Scan(&pos); err != nil {
		return nil, fmt.Errorf("find the end of the event log: %w", err)
	}

	slot, err := r.subscriptionSlot(ctx, p)
	if err != nil {
		return nil, err
	}
	w, ok := r.events.add(p.AccountID)
	if !ok { // shutting down: the stream ends at once
		r.releaseSlot(ctx, slot)
		ch := make(chan *model.Event)
		close(ch)
		return ch, nil
	}
	ch := make(chan *model.Event)
	go r.streamEvents(ctx, p, pos, types, w, slot, ch, onEnd)
	return ch, nil
}

// subscriptionSlot takes one of the key's MaxSubscriptionsPerKey slots.
func (r *Resolver) subscriptionSlot(ctx context.Context, p Principal) (*ratelimit.Slot, error) {
	if r.Limiter == nil {
		return nil, nil
	}
	slot, ok, err := r.Limiter.Acquire(ctx, "event_subscriptions", p.Credential(), MaxSubscriptionsPerKey, subscriptionSlotTTL)
	if err != nil && !errors.Is(err, ratelimit.ErrUnavailable) {
		r.Log.ErrorContext(ctx, "subscription limit check failed; allowing", "error", err)
	}
	if !ok {
		r.limitRefused("event_subscriptions")
		return nil, problem.Newf(problem.RateLimited, "This API key already holds %d event subscriptions; end one first. Retry in %d s.",
			MaxSubscriptionsPerKey, subscriptionRetryAfter).With("retry_after", subscriptionRetryAfter)
	}
	return slot, nil
}

func (r *Resolver) releaseSlot(ctx context.Context, slot *ratelimit.Slot) {
	if slot == nil {
		return
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	if err := slot.Release(rctx); err != nil {
		r.Log.Warn("release subscription slot (it expires by itself)", "error", err)
	}
}

// streamEvents reads the log after pos into ch each time w rings, until
// ctx ends or the hub stops.
func (r *Resolver) streamEvents(ctx context.Context, p Principal, pos int64, types []string, w *eventWaker,
	slot *ratelimit.Slot, ch chan<- *model.Event, onEnd func(error)) {
	h := r.events
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(h.ctx, cancel)
	var end error
	defer func() {
		stop()
		cancel()
		r.releaseSlot(ctx, slot)
		if end != nil && onEnd != nil {
			onEnd(end)
		}
		close(ch)
		h.remove(w)
	}()
	heartbeat := time.NewTicker(subscriptionHeartbeat)
	defer heartbeat.Stop()
	recheck := time.NewTicker(keyRecheck)
	defer recheck.Stop()
	for {
		evs, keyLive, err := r.readEventLog(ctx, p, pos)
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			r.Log.ErrorContext(ctx, "event subscription: read the log (retrying)", "account_id", p.AccountID, "error", err)
			select {
			case <-ctx.Done():
				return
			case <-time.After(pollInterval):
			}
			continue
		case !keyLive && p.KeyID == "" && p.SessionID != "":
			end = problem.New(problem.AuthenticationError, "The console session was signed out or has expired, or its account was deleted; the subscription ended.")
			return
		case !keyLive:
			end = problem.New(problem.AuthenticationError, "The API key was revoked or has expired, or its account was deleted; the subscription ended.")
			return
		}
		for _, ev := range evs {
			pos = ev.Seq
			if types != nil && !slices.Contains(types, ev.Type) {
				continue
			}
			select {
			case ch <- toEventModel(ev):
			case <-ctx.Done():
				return
			}
		}
		if len(evs) == streamBatch {
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-w.c:
		case <-recheck.C:
		case <-heartbeat.C:
			if slot == nil {
				continue
			}
			held, err := slot.Refresh(ctx)
			if err != nil && !errors.Is(err, ratelimit.ErrUnavailable) {
				r.Log.WarnContext(ctx, "refresh subscription slot", "error", err)
			}
			if !held {
				end = problem.Newf(problem.RateLimited, "This subscription lost its slot (the key holds %d others); subscribe again. Retry in %d s.",
					MaxSubscriptionsPerKey, subscriptionRetryAfter).With("retry_after", subscriptionRetryAfter)
				return
			}
		}
	}
}

// keyLiveQuery reports whether a key still authenticates: not revoked, not
// expired, its account not deleted.
const keyLiveQuery = `
SELECT EXISTS (
  SELECT 1 FROM api_keys k JOIN accounts a ON a.id = k.account_id AND a.deleted_at IS NULL
  WHERE k.id = $1 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now()))`

// sessionLiveQuery is keyLiveQuery for a console session.
const sessionLiveQuery = `
SELECT EXISTS (
  SELECT 1 FROM console_sessions s JOIN accounts a ON a.id = s.account_id AND a.deleted_at IS NULL
  WHERE s.id = $1 AND s.revoked_at IS NULL AND s.expires_at > now())`

// readEventLog returns the next events of the caller's account after pos,
// and whether the caller's key still works, in one round trip.
func (r *Resolver) readEventLog(ctx context.Context, p Principal, pos int64) ([]*db.Event, bool, error) {
	b := &pgx.Batch{}
	var live bool
	liveQuery := keyLiveQuery
	if p.KeyID == "" && p.SessionID != "" {
		liveQuery = sessionLiveQuery
	}
	b.Queue(liveQuery, p.Credential()).QueryRow(func(row pgx.Row) error { return row.Scan(&live) })
	var evs []*db.Event
	b.Queue(`SELECT seq, id, account_id, type, listing_id, order_id, data, created_at FROM events
		WHERE account_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`, p.AccountID, pos, streamBatch).Query(func(rows pgx.Rows) error {
		var err error
		evs, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (*db.Event, error) {
			ev := &db.Event{}
			err := row.Scan(&ev.Seq, &ev.ID, &ev.AccountID, &ev.Type, &ev.ListingID, &ev.OrderID, &ev.Data, &ev.CreatedAt)
			return ev, err
		})
		return err
	})
	if err := r.DB.Pool.SendBatch(ctx, b).Close(); err != nil {
		return nil, false, err
	}
	return evs, live, nil
}

// GraphQL glue.

var _ graph.SubscriptionResolver = subscriptionResolver{}

func (x root) Subscription() graph.SubscriptionResolver { return subscriptionResolver{x.r} }

type subscriptionResolver struct{ *Resolver }

// Events is `subscription { events(after, types) }`.
func (x subscriptionResolver) Events(ctx context.Context, after *string, types []model.EventType) (<-chan *model.Event, error) {
	var names []string
	if types != nil {
		names = make([]string, len(types))
		for i, t := range types {
			names[i] = string(t)
		}
	}
	return x.SubscribeEvents(ctx, after, names, func(err error) { x.endSubscription(ctx, err) })
}

// endSubscription hands the error that ended a stream to the websocket
// transport, presented like every GraphQL error (the problem code under
// extensions); the transport sends it as the subscription's last message.
func (x subscriptionResolver) endSubscription(ctx context.Context, err error) {
	defer func() {
		// Only the websocket transport collects stream errors, and only it
		// runs subscriptions (server/subscriptions.go); never crash on it.
		if v := recover(); v != nil {
			x.Log.ErrorContext(ctx, "event subscription ended without reporting its error", "error", err, "panic", v)
		}
	}()
	rctx := graphql.WithFreshResponseContext(ctx)
	graphql.AddError(rctx, err)
	for _, e := range graphql.GetErrors(rctx) {
		transport.AddSubscriptionError(ctx, e)
	}
}
