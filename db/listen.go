package db

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// Notifications (LISTEN) need a session of their own, which a pooler in
// transaction mode (PgBouncer) cannot give: a process listens on one
// connection dialled from the direct URL (DATABASE_DIRECT_URL), outside
// the pool, that LISTENs on every channel some part of the process asked
// for and fans the notifications out. After it is lost it reconnects with
// backoff, LISTENs again and tells every subscriber (Handler.Listening), so
// that what was committed meanwhile is read.

// Handler receives one channel's notifications. Its functions run on the
// listener's goroutine: they must return at once (ring a bell, drop a
// cache entry), never block.
type Handler struct {
	// Listening is called each time the connection starts listening on the
	// channel (first, and after every reconnect): anything committed before
	// may have been missed.
	Listening func()
	// Notify is called with each notification's payload.
	Notify func(payload string)
	// Lost is called when the connection listening on the channel is lost;
	// Listening follows once it is back.
	Lost func(err error)
}

// listenerAppName names the listening connection in pg_stat_activity when
// the direct URL names no application.
const listenerAppName = "commerce-listener"

// listenerPing is how long the connection may stay silent before the
// listener checks it answers (a peer gone without a reset, a failover).
const listenerPing = 15 * time.Second

// Listener is a process's listening connection (see Handler). Its zero
// value is not usable: DB.Listen uses the one Open made.
type Listener struct {
	config *pgx.ConnConfig
	log    *slog.Logger

	mu      sync.Mutex
	subs    map[*subscription]struct{}
	running bool
	closed  bool
	// interrupt ends the wait for a notification (a subscription came or
	// went); nil while not waiting. changed says one came or went since
	// the listener last looked: a wait about to start ends at once.
	interrupt context.CancelFunc
	changed   bool
	// done is closed when the run goroutine returns.
	done chan struct{}
}

type subscription struct {
	channel string
	h       Handler
}

func newListener(config *pgx.ConnConfig) *Listener {
	c := config.Copy()
	c.Tracer = nil
	if c.RuntimeParams["application_name"] == "" {
		c.RuntimeParams["application_name"] = listenerAppName
	}
	return &Listener{config: c, log: slog.Default(), subs: map[*subscription]struct{}{}}
}

// Listen calls h's functions for channel until ctx ends (see Handler). The
// channel is an identifier the caller owns, never user input.
func (d *DB) Listen(ctx context.Context, channel string, h Handler) {
	d.listener.listen(ctx, channel, h)
}

// SetLog sets where the listener reports a lost connection.
func (d *DB) SetLog(log *slog.Logger) {
	d.listener.mu.Lock()
	d.listener.log = log
	d.listener.mu.Unlock()
}

// Listen calls wake on every notification on channel until ctx ends, and
// once each time the process's listener starts listening (for what was
// committed before).
func Listen(ctx context.Context, d *DB, channel string, wake func(), _ *slog.Logger) {
	d.Listen(ctx, channel, Handler{Listening: wake, Notify: func(string) { wake() }})
}

func (l *Listener) listen(ctx context.Context, channel string, h Handler) {
	if h.Listening == nil {
		h.Listening = func() {}
	}
	if h.Notify == nil {
		h.Notify = func(string) {}
	}
	if h.Lost == nil {
		h.Lost = func(error) {}
	}
	s := &subscription{channel: channel, h: h}
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return
	}
	l.subs[s] = struct{}{}
	if !l.running {
		l.running = true
		l.done = make(chan struct{})
		go l.run()
	}
	l.kickLocked()
	l.mu.Unlock()

	<-ctx.Done()
	l.mu.Lock()
	delete(l.subs, s)
	l.kickLocked()
	l.mu.Unlock()
}

func (l *Listener) kickLocked() {
	l.changed = true
	if l.interrupt != nil {
		l.interrupt()
	}
}

// waiting installs cancel as the interrupt of the wait about to start,
// canceling it at once when the subscriptions changed meanwhile.
func (l *Listener) waiting(cancel context.CancelFunc) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.changed {
		cancel()
	}
	l.interrupt = cancel
}

func (l *Listener) waited() {
	l.mu.Lock()
	l.interrupt = nil
	l.mu.Unlock()
}

// close stops listening for good and waits for the connection to close.
func (l *Listener) close() {
	l.mu.Lock()
	l.closed = true
	clear(l.subs)
	l.kickLocked()
	done := l.done
	l.mu.Unlock()
	if done != nil {
		<-done
	}
}

// current is what the connection should listen for now; nil when nobody
// listens any more (the run goroutine ends).
func (l *Listener) current() []*subscription {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.changed = false
	if len(l.subs) == 0 {
		l.running = false
		close(l.done)
		return nil
	}
	out := make([]*subscription, 0, len(l.subs))
	for s := range l.subs {
		out = append(out, s)
	}
	return out
}

func (l *Listener) run() {
	backoff := 100 * time.Millisecond
	for {
		started := time.Now()
		err := l.session()
		if err == nil {
			return // nobody listens any more
		}
		if time.Since(started) > time.Minute {
			backoff = 100 * time.Millisecond
		}
		l.mu.Lock()
		log := l.log
		l.mu.Unlock()
		log.Warn("notification listener lost its connection; reconnecting", "error", err, "retry_in", backoff.String())
		ctx, cancel := context.WithCancel(context.Background())
		l.waiting(cancel)
		select {
		case <-ctx.Done(): // a subscription came or went: try at once
		case <-time.After(backoff/2 + rand.N(backoff/2)):
		}
		cancel()
		l.waited()
		backoff = min(2*backoff, 5*time.Second)
	}
}

// session listens on one connection until it fails (the error) or nobody
// listens any more (nil).
func (l *Listener) session() (err error) {
	subs := l.current()
	if subs == nil {
		return nil
	}
	cctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	conn, err := pgx.ConnectConfig(cctx, l.config)
	cancel()
	if err != nil {
		return err
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = conn.Close(ctx)
	}()
	listening := map[string]bool{}
	told := map[*subscription]bool{}
	defer func() {
		if err != nil {
			for s := range told {
				s.h.Lost(err)
			}
		}
	}()
	lastHeard := time.Now()
	for {
		// LISTEN on every channel asked for (and UNLISTEN the others)
		// before telling their subscribers.
		want := map[string]bool{}
		for _, s := range subs {
			want[s.channel] = true
		}
		var stmts []string
		for ch := range want {
			if !listening[ch] {
				stmts = append(stmts, "LISTEN "+pgx.Identifier{ch}.Sanitize())
			}
		}
		for ch := range listening {
			if !want[ch] {
				stmts = append(stmts, "UNLISTEN "+pgx.Identifier{ch}.Sanitize())
			}
		}
		if len(stmts) > 0 {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			_, err := conn.Exec(ctx, strings.Join(stmts, "; "))
			cancel()
			if err != nil {
				return err
			}
			listening = want
			lastHeard = time.Now()
		}
		now := map[*subscription]bool{}
		for _, s := range subs {
			now[s] = true
			if !told[s] {
				s.h.Listening()
			}
		}
		told = now

		ctx, cancel := context.WithTimeout(context.Background(), listenerPing)
		l.waiting(cancel)
		n, werr := conn.WaitForNotification(ctx)
		cancel()
		l.waited()
		switch {
		case werr == nil:
			lastHeard = time.Now()
			for _, s := range subs {
				if s.channel == n.Channel {
					s.h.Notify(n.Payload)
				}
			}
		case conn.IsClosed() || ctx.Err() == nil:
			return werr
		case time.Since(lastHeard) >= listenerPing:
			// Silent for a while: check the connection still answers.
			pctx, pcancel := context.WithTimeout(context.Background(), 5*time.Second)
			perr := conn.Ping(pctx)
			pcancel()
			if perr != nil {
				return perr
			}
			lastHeard = time.Now()
		}
		// Notifications that arrived with the ping or the LISTEN are
		// buffered by pgx and returned by the next wait.
		if subs = l.current(); subs == nil {
			return nil
		}
	}
}
