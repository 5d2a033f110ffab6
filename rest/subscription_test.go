package rest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/resolvers"
	"commerce/server"
	"commerce/testkit"
)

// The live event subscription (CONTRACT §14), spoken over a real websocket
// with a small graphql-transport-ws client.

const eventsSubscription = `subscription($after: ID, $types: [EventType!]) {
  events(after: $after, types: $types) { id object type orderId listingId createdAt data }
}`

// wsMessage is one graphql-transport-ws (or legacy graphql-ws) message.
type wsMessage struct {
	ID      string          `json:"id,omitempty"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload,omitempty"`
	at      time.Time
}

// streamedEvent is an event as the subscription delivers it.
type streamedEvent struct {
	ID      string         `json:"id"`
	Object  string         `json:"object"`
	Type    string         `json:"type"`
	OrderID *string        `json:"orderId"`
	Data    map[string]any `json:"data"`
	at      time.Time
}

// wsClient is a minimal graphql-ws client: a reader goroutine answers pings
// and queues every other message with the time it arrived.
type wsClient struct {
	t    *testing.T
	conn *websocket.Conn
	in   chan wsMessage
	// closed is closed when the reader stops; err is why.
	closed chan struct{}
	err    error
}

// dialWS opens a websocket to /graphql; the response is returned when the
// upgrade was refused.
func dialWS(t *testing.T, baseURL, subprotocol string, header http.Header) (*wsClient, *http.Response, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(baseURL, "http")+"/graphql",
		&websocket.DialOptions{Subprotocols: []string{subprotocol}, HTTPHeader: header})
	if err != nil {
		return nil, resp, err
	}
	require.Equal(t, subprotocol, conn.Subprotocol())
	c := &wsClient{t: t, conn: conn, in: make(chan wsMessage, 4096), closed: make(chan struct{})}
	go c.read()
	t.Cleanup(func() { _ = conn.CloseNow() })
	return c, resp, nil
}

func (c *wsClient) read() {
	defer close(c.closed)
	for {
		_, data, err := c.conn.Read(context.Background())
		if err != nil {
			c.err = err
			return
		}
		var m wsMessage
		if err := json.Unmarshal(data, &m); err != nil {
			c.err = fmt.Errorf("undecodable message %s: %w", data, err)
			return
		}
		m.at = time.Now()
		if m.Type == "ping" {
			_ = c.conn.Write(context.Background(), websocket.MessageText, []byte(`{"type":"pong"}`))
			continue
		}
		c.in <- m
	}
}

func (c *wsClient) send(m any) {
	c.t.Helper()
	b, err := json.Marshal(m)
	require.NoError(c.t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	require.NoError(c.t, c.conn.Write(ctx, websocket.MessageText, b))
}

// connectWS opens an authenticated graphql-transport-ws connection.
func connectWS(t *testing.T, baseURL, key string) *wsClient {
	t.Helper()
	c, _, err := dialWS(t, baseURL, "graphql-transport-ws", nil)
	require.NoError(t, err)
	c.send(map[string]any{"type": "connection_init", "payload": map[string]any{"authorization": "Bearer " + key}})
	m, ok := c.next(5 * time.Second)
	require.True(t, ok, "no connection_ack: %v", c.err)
	require.Equal(t, "connection_ack", m.Type)
	return c
}

// subscribe starts the events subscription under id.
func (c *wsClient) subscribe(id string, vars map[string]any) {
	c.t.Helper()
	c.send(map[string]any{"id": id, "type": "subscribe", "payload": map[string]any{"query": eventsSubscription, "variables": vars}})
}

// next returns the next message, or false when the connection closed or
// nothing came within timeout.
func (c *wsClient) next(timeout time.Duration) (wsMessage, bool) {
	select {
	case m := <-c.in:
		return m, true
	case <-time.After(timeout):
		return wsMessage{}, false
	case <-c.closed:
		select {
		case m := <-c.in:
			return m, true
		default:
			return wsMessage{}, false
		}
	}
}

// events reads n events of subscription id, failing on anything else.
func (c *wsClient) events(id string, n int, timeout time.Duration) []streamedEvent {
	c.t.Helper()
	deadline := time.Now().Add(timeout)
	var out []streamedEvent
	for len(out) < n {
		m, ok := c.next(time.Until(deadline))
		require.True(c.t, ok, "got %d of %d events; connection: %v", len(out), n, c.err)
		require.Equal(c.t, id, m.ID, "%s %s", m.Type, m.Payload)
		require.Equal(c.t, "next", m.Type, "%s", m.Payload)
		var p struct {
			Data   struct{ Events streamedEvent } `json:"data"`
			Errors []map[string]any               `json:"errors"`
		}
		require.NoError(c.t, json.Unmarshal(m.Payload, &p))
		require.Empty(c.t, p.Errors)
		p.Data.Events.at = m.at
		out = append(out, p.Data.Events)
	}
	return out
}

// quiet asserts that nothing arrives for d.
func (c *wsClient) quiet(d time.Duration) {
	c.t.Helper()
	m, ok := c.next(d)
	require.False(c.t, ok, "unexpected %s %s", m.Type, m.Payload)
}

// subscriptionError reads the error that ends subscription id (a next
// carrying errors, or an error message) and returns its first error.
func (c *wsClient) subscriptionError(id string, timeout time.Duration) map[string]any {
	c.t.Helper()
	m, ok := c.next(timeout)
	require.True(c.t, ok, "no error; connection: %v", c.err)
	require.Equal(c.t, id, m.ID)
	var errs []map[string]any
	switch m.Type {
	case "next":
		var p struct {
			Data   json.RawMessage  `json:"data"`
			Errors []map[string]any `json:"errors"`
		}
		require.NoError(c.t, json.Unmarshal(m.Payload, &p))
		require.Equal(c.t, "null", string(p.Data))
		errs = p.Errors
		end, ok := c.next(timeout)
		require.True(c.t, ok)
		require.Equal(c.t, "complete", end.Type)
	case "error":
		require.NoError(c.t, json.Unmarshal(m.Payload, &errs))
	default:
		c.t.Fatalf("expected an error, got %s %s", m.Type, m.Payload)
	}
	require.NotEmpty(c.t, errs)
	return errs[0]["extensions"].(map[string]any)
}

// closedWith waits for the server to close the connection and returns the
// close status and reason.
func (c *wsClient) closedWith(timeout time.Duration) (websocket.StatusCode, string) {
	c.t.Helper()
	select {
	case <-c.closed:
	case <-time.After(timeout):
		c.t.Fatal("the connection stayed open")
	}
	var ce websocket.CloseError
	if errors.As(c.err, &ce) {
		return ce.Code, ce.Reason
	}
	return -1, fmt.Sprint(c.err)
}

func ids(evs []streamedEvent) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.ID
	}
	return out
}

// logAfter is the account's event log after an event id, through the list
// use case REST and GraphQL call (every page).
func logAfter(t *testing.T, env *testkit.Env, acc testkit.Account, after string) []string {
	t.Helper()
	var out []string
	for {
		ctx := resolvers.WithPrincipal(context.Background(), resolvers.Principal{AccountID: acc.ID, KeyID: "key_test", Scope: resolvers.ScopeFull})
		limit := 100
		list, err := env.Server.Resolver.Events(ctx, &after, &limit, nil, nil, nil)
		require.NoError(t, err)
		for _, e := range list.Data {
			out = append(out, e.ID)
		}
		if !list.HasMore {
			return out
		}
		after = *list.NextCursor
	}
}

type execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// insertEvent writes an event row directly, as the order use cases do
// inside their transactions.
func insertEvent(t testing.TB, q execer, accountID, typ string) string {
	t.Helper()
	id := db.NewID("evt")
	_, err := q.Exec(context.Background(), `INSERT INTO events (id, account_id, type, data) VALUES ($1, $2, $3, '{"test": true}')`, id, accountID, typ)
	require.NoError(t, err)
	return id
}

// A subscription started after an earlier event receives every later event
// of its account exactly once, in log order, within a second of each
// payment: the ones written before it started (catch-up), the ones written
// while it catches up, and the live ones; never another account's. A
// read_only key may subscribe, and types filters.
func TestSubscriptionStreamsEveryEventOnceInOrder(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers())
	seller, other := env.NewAccount(), env.NewAccount()
	connectSandbox(t, env, seller.Key)
	connectSandbox(t, env, other.Key)
	mine := publishedListing(t, env, seller.Key, map[string]any{"title": "Coaching " + testkit.Unique(), "price": 5000})["slug"].(string)
	theirs := publishedListing(t, env, other.Key, map[string]any{"title": "Coaching " + testkit.Unique(), "price": 700})["slug"].(string)

	buy(t, env, mine, url.Values{"email": {uniqueEmail("sub")}}, "paid")
	first := env.Get("/v1/events?limit=1", seller.Key).JSON(t)["data"].([]any)[0].(map[string]any)["id"].(string)
	// Two more before subscribing: the subscription catches up on them.
	for range 2 {
		buy(t, env, mine, url.Values{"email": {uniqueEmail("sub")}}, "paid")
	}

	r := env.Post("/v1/api-keys", seller.Key, map[string]any{"name": "feed", "scope": "read_only"})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	readOnly := r.JSON(t)["key"].(string)

	all := connectWS(t, env.URL, seller.Key)
	all.subscribe("all", map[string]any{"after": first})
	fulfilled := connectWS(t, env.URL, readOnly)
	fulfilled.subscribe("fulfilled", map[string]any{"after": first, "types": []string{"ORDER_FULFILLED"}})

	// Both sellers keep selling while the subscriptions catch up; the
	// seller also fulfills each order (a second event per order).
	var mu sync.Mutex
	paidAt := map[string]time.Time{}
	t.Run("traffic", func(t *testing.T) {
		t.Run("seller", func(t *testing.T) {
			t.Parallel()
			for range 5 {
				id, _ := buy(t, env, mine, url.Values{"email": {uniqueEmail("sub")}}, "paid")
				mu.Lock()
				paidAt[id] = time.Now()
				mu.Unlock()
				require.Equal(t, 200, env.Post("/v1/orders/"+id+"/fulfill", seller.Key, map[string]any{}).Status)
			}
		})
		t.Run("other seller", func(t *testing.T) {
			t.Parallel()
			for range 5 {
				buy(t, env, theirs, url.Values{"email": {uniqueEmail("other")}}, "paid")
			}
		})
	})

	want := logAfter(t, env, seller, first)
	require.Len(t, want, 2+5*2)
	got := all.events("all", len(want), 10*time.Second)
	require.Equal(t, want, ids(got), "every event once, in log order")
	all.quiet(300 * time.Millisecond)
	for _, e := range got {
		require.Equal(t, "event", e.Object)
		if at, ok := paidAt[*e.OrderID]; ok && e.Type == "ORDER_PAID" {
			require.Less(t, e.at.Sub(at), time.Second, "order.paid of %s arrived %v after the payment", *e.OrderID, e.at.Sub(at))
		}
	}
	var paidIDs []string
	for _, e := range got {
		if e.Type == "ORDER_PAID" {
			paidIDs = append(paidIDs, *e.OrderID)
		}
	}
	for id := range paidAt {
		require.Contains(t, paidIDs, id)
	}

	var wantFulfilled []string
	for _, e := range got {
		if e.Type == "ORDER_FULFILLED" {
			wantFulfilled = append(wantFulfilled, e.ID)
		}
	}
	require.Len(t, wantFulfilled, 5)
	require.Equal(t, wantFulfilled, ids(fulfilled.events("fulfilled", 5, 5*time.Second)))
	fulfilled.quiet(200 * time.Millisecond)
}

// A transaction that took a lower seq but commits later is never skipped:
// the log's order is its commit order, per account, so a reader that has
// moved past the later-committed event still reads the held one next.
// Events committed before a subscription without after never arrive.
func TestSubscriptionOutOfOrderCommitsLeaveNoGap(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	pool := env.Server.DB.Pool
	ctx := context.Background()
	e0 := insertEvent(t, pool, acc.ID, "order.paid")

	c := connectWS(t, env.URL, acc.Key)
	c.subscribe("s", map[string]any{"after": e0})

	held, err := pool.Begin(ctx)
	require.NoError(t, err)
	defer held.Rollback(ctx) //nolint:errcheck
	e1 := insertEvent(t, held, acc.ID, "order.paid")

	later, err := pool.Begin(ctx)
	require.NoError(t, err)
	e2 := insertEvent(t, later, acc.ID, "order.fulfilled")
	require.NoError(t, later.Commit(ctx))

	require.Equal(t, []string{e2}, ids(c.events("s", 1, time.Second)))
	require.Equal(t, []string{e2}, logAfter(t, env, acc, e0))
	c.quiet(300 * time.Millisecond)

	aborted, err := pool.Begin(ctx)
	require.NoError(t, err)
	insertEvent(t, aborted, acc.ID, "order.canceled")
	require.NoError(t, aborted.Rollback(ctx))

	require.NoError(t, held.Commit(ctx))
	require.Equal(t, []string{e1}, ids(c.events("s", 1, time.Second)), "the held event is not skipped")
	// A poller of the list that had reached e2 reads e1 next.
	require.Equal(t, []string{e1}, logAfter(t, env, acc, e2))
	require.Equal(t, []string{e2, e1}, logAfter(t, env, acc, e0), "the log's order is the delivered order")
	c.quiet(300 * time.Millisecond)

	// Without after: only events that commit after the subscription started.
	live := connectWS(t, env.URL, acc.Key)
	live.subscribe("live", nil)
	var marker string
	require.Eventually(t, func() bool {
		marker = insertEvent(t, pool, acc.ID, "order.paid")
		m, ok := live.next(200 * time.Millisecond)
		if !ok {
			return false
		}
		require.Contains(t, string(m.Payload), marker, "the first event a live subscription sees is one committed after it started")
		return true
	}, 5*time.Second, time.Millisecond)
	next := insertEvent(t, pool, acc.ID, "order.refunded")
	require.Equal(t, []string{next}, ids(live.events("live", 1, time.Second)))
}

// An event keeps the seq drawn at its insert when nothing of its account
// committed above it before its commit (no rewrite, inside the account's
// commit lock); otherwise its rows are given fresh seqs at commit, and once
// one row of a transaction is, the later ones are too: the log stays in
// commit order, and a transaction's rows in their insertion order.
func TestEventSeqRewrittenOnlyWhenPassed(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	pool := env.Server.DB.Pool
	ctx := context.Background()
	seq := func(id string) int64 {
		var s int64
		require.NoError(t, pool.QueryRow(ctx, `SELECT seq FROM events WHERE id = $1`, id).Scan(&s))
		return s
	}
	insert := func(q interface {
		QueryRow(context.Context, string, ...any) pgx.Row
	}) (string, int64) {
		id := db.NewID("evt")
		var s int64
		require.NoError(t, q.QueryRow(ctx, `INSERT INTO events (id, account_id, type, data) VALUES ($1, $2, 'order.paid', '{}')
			RETURNING seq`, id, acc.ID).Scan(&s))
		return id, s
	}

	// Nothing committed above: the insert's seq stays.
	tx, err := pool.Begin(ctx)
	require.NoError(t, err)
	e0, s0 := insert(tx)
	e0b, s0b := insert(tx)
	require.NoError(t, tx.Commit(ctx))
	require.Equal(t, s0, seq(e0), "an event nothing passed keeps its seq")
	require.Equal(t, s0b, seq(e0b))

	// held's first row is passed by later's commit; its second row, drawn
	// after later's, is rewritten too, after the first.
	held, err := pool.Begin(ctx)
	require.NoError(t, err)
	defer held.Rollback(ctx) //nolint:errcheck
	e1, s1 := insert(held)
	later, err := pool.Begin(ctx)
	require.NoError(t, err)
	e2, s2 := insert(later)
	require.NoError(t, later.Commit(ctx))
	e3, s3 := insert(held)
	require.Less(t, s1, s2)
	require.Less(t, s2, s3)
	require.NoError(t, held.Commit(ctx))
	require.Equal(t, s2, seq(e2))
	require.Greater(t, seq(e1), s3, "the passed row takes a seq drawn at commit")
	require.Greater(t, seq(e3), seq(e1), "the transaction's rows keep their insertion order")
	require.Equal(t, []string{e0b, e2, e1, e3}, logAfter(t, env, acc, e0))
}

// Concurrent writers holding their transactions open for random times,
// some rolling back, never make a subscriber or a poller of the list skip
// or repeat an event.
func TestSubscriptionConcurrentWritersNoGap(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc, noise := env.NewAccount(), env.NewAccount()
	pool := env.Server.DB.Pool
	ctx := context.Background()
	e0 := insertEvent(t, pool, acc.ID, "order.paid")
	c := connectWS(t, env.URL, acc.Key)
	c.subscribe("s", map[string]any{"after": e0})

	// A poller of the list, as an integration polling GET /v1/events.
	stop := make(chan struct{})
	polled := make(chan []string, 1)
	pollErr := make(chan error, 1)
	go func() {
		pctx := resolvers.WithPrincipal(ctx, resolvers.Principal{AccountID: acc.ID, KeyID: "key_test", Scope: resolvers.ScopeFull})
		var out []string
		after, limit := e0, 100
		for {
			list, err := env.Server.Resolver.Events(pctx, &after, &limit, nil, nil, nil)
			if err != nil {
				pollErr <- err
				return
			}
			for _, e := range list.Data {
				out = append(out, e.ID)
				after = e.ID
			}
			if len(list.Data) == 0 {
				select {
				case <-stop:
					polled <- out
					return
				case <-time.After(2 * time.Millisecond):
				}
			}
		}
	}()

	const writers, txs = 6, 15
	var wg sync.WaitGroup
	errs := make(chan error, writers*txs)
	for w := range writers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 42))
			for i := range txs {
				err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
					account := acc.ID
					if i%5 == 4 {
						account = noise.ID
					}
					for range 1 + rng.IntN(2) {
						if _, err := tx.Exec(ctx, `INSERT INTO events (id, account_id, type, data) VALUES ($1, $2, 'order.paid', '{}')`, db.NewID("evt"), account); err != nil {
							return err
						}
						time.Sleep(time.Duration(rng.IntN(8)) * time.Millisecond)
					}
					time.Sleep(time.Duration(rng.IntN(15)) * time.Millisecond)
					if rng.IntN(8) == 0 {
						return errRollback
					}
					return nil
				})
				if err != nil && !errors.Is(err, errRollback) {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}

	want := logAfter(t, env, acc, e0)
	require.NotEmpty(t, want)
	require.Equal(t, want, ids(c.events("s", len(want), 10*time.Second)))
	c.quiet(300 * time.Millisecond)
	// Give the poller time to reach the end, then stop it.
	time.Sleep(100 * time.Millisecond)
	close(stop)
	select {
	case err := <-pollErr:
		require.NoError(t, err)
	case got := <-polled:
		require.Equal(t, want, got, "the poller of the list saw every event once, in order")
	}
}

var errRollback = errors.New("rollback")

// connection_init must carry a working key: anything else closes the
// connection with 4403 and the problem code. Cross-site browser origins are
// refused before the upgrade; GET without an upgrade still serves the IDE.
func TestSubscriptionAuthentication(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	revoked := env.Post("/v1/api-keys", acc.Key, map[string]any{"name": "gone"}).JSON(t)
	require.Equal(t, 204, env.Do(testkit.Request{Method: "DELETE", Path: "/v1/api-keys/" + revoked["id"].(string), Key: acc.Key}).Status)

	for name, payload := range map[string]any{
		"no payload":        nil,
		"no authorization":  map[string]any{"token": acc.Key},
		"not bearer":        map[string]any{"authorization": "Basic " + acc.Key},
		"malformed key":     map[string]any{"authorization": "Bearer svc_nope"},
		"unknown key":       map[string]any{"authorization": "Bearer svc_" + strings.Repeat("A", 40)},
		"revoked key":       map[string]any{"authorization": "Bearer " + revoked["key"].(string)},
		"authorization int": map[string]any{"authorization": 42},
	} {
		t.Run(name, func(t *testing.T) {
			c, _, err := dialWS(t, env.URL, "graphql-transport-ws", nil)
			require.NoError(t, err)
			msg := map[string]any{"type": "connection_init"}
			if payload != nil {
				msg["payload"] = payload
			}
			c.send(msg)
			code, reason := c.closedWith(5 * time.Second)
			require.Equal(t, websocket.StatusCode(4403), code, reason)
			require.Contains(t, reason, "authentication_error")
		})
	}

	t.Run("subscribe before init", func(t *testing.T) {
		c, _, err := dialWS(t, env.URL, "graphql-transport-ws", nil)
		require.NoError(t, err)
		c.subscribe("1", nil)
		code, _ := c.closedWith(5 * time.Second)
		require.NotEqual(t, websocket.StatusNormalClosure, code)
	})

	t.Run("legacy graphql-ws", func(t *testing.T) {
		c, _, err := dialWS(t, env.URL, "graphql-ws", nil)
		require.NoError(t, err)
		c.send(map[string]any{"type": "connection_init", "payload": map[string]any{"authorization": "Bearer svc_nope"}})
		m, ok := c.next(5 * time.Second)
		require.True(t, ok)
		require.Equal(t, "connection_error", m.Type)
		require.Contains(t, string(m.Payload), "authentication_error")

		c, _, err = dialWS(t, env.URL, "graphql-ws", nil)
		require.NoError(t, err)
		c.send(map[string]any{"type": "connection_init", "payload": map[string]any{"authorization": "Bearer " + acc.Key}})
		m, ok = c.next(5 * time.Second)
		require.True(t, ok)
		require.Equal(t, "connection_ack", m.Type)
		c.send(map[string]any{"id": "1", "type": "start", "payload": map[string]any{"query": eventsSubscription}})
		time.Sleep(300 * time.Millisecond) // the subscription starts at the live end
		id := insertEvent(t, env.Server.DB.Pool, acc.ID, "order.paid")
		for {
			m, ok = c.next(5 * time.Second)
			require.True(t, ok)
			if m.Type != "ka" {
				break
			}
		}
		require.Equal(t, "data", m.Type, "%s", m.Payload)
		require.Contains(t, string(m.Payload), id)
	})

	t.Run("origins", func(t *testing.T) {
		_, resp, err := dialWS(t, env.URL, "graphql-transport-ws", http.Header{"Origin": {"https://evil.example"}})
		require.Error(t, err)
		require.Equal(t, 403, resp.StatusCode)
		require.Equal(t, "application/problem+json", resp.Header.Get("Content-Type"))
		require.NotEmpty(t, resp.Header.Get("X-Correlation-Id"))
		c, _, err := dialWS(t, env.URL, "graphql-transport-ws", http.Header{"Origin": {env.URL}})
		require.NoError(t, err, "the same origin is fine")
		require.NoError(t, c.conn.Close(websocket.StatusNormalClosure, ""))

		r := env.Do(testkit.Request{Method: "GET", Path: "/graphql", NoCheck: true})
		require.Equal(t, 200, r.Status)
		require.Contains(t, r.Header.Get("Content-Type"), "text/html")
	})
}

// Subscription arguments are validated like the list's; only subscriptions
// run over the websocket and subscriptions only run there; a revoked key's
// subscription ends with authentication_error.
func TestSubscriptionErrors(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc, other := env.NewAccount(), env.NewAccount()
	theirs := insertEvent(t, env.Server.DB.Pool, other.ID, "order.paid")
	c := connectWS(t, env.URL, acc.Key)

	for i, after := range []string{"evt_unknown", theirs} {
		id := fmt.Sprint("after", i)
		c.subscribe(id, map[string]any{"after": after})
		ext := c.subscriptionError(id, 5*time.Second)
		require.Equal(t, "validation_error", ext["code"])
		require.Equal(t, "after", ext["param"])
	}
	for i, tc := range []struct {
		types []string
		param string
	}{{[]string{"ORDER_SHIPPED"}, "types[0]"}, {[]string{}, "types"}} {
		// Each on a connection of its own: an invalid variable may end
		// with an error and a complete.
		tcc := connectWS(t, env.URL, acc.Key)
		id := fmt.Sprint("types", i)
		tcc.subscribe(id, map[string]any{"types": tc.types})
		ext := tcc.subscriptionError(id, 5*time.Second)
		require.Equal(t, "validation_error", ext["code"])
		require.Equal(t, tc.param, ext["param"])
	}

	c.send(map[string]any{"id": "q", "type": "subscribe", "payload": map[string]any{"query": "{ viewer { id } }"}})
	require.Equal(t, "invalid_request", c.subscriptionError("q", 5*time.Second)["code"])

	res := gql(t, env, acc.Key, eventsSubscription, nil)
	require.Len(t, res.Errors, 1)
	require.Equal(t, "invalid_request", res.Errors[0]["extensions"].(map[string]any)["code"])

	// Revocation ends an open subscription.
	created := env.Post("/v1/api-keys", acc.Key, map[string]any{"name": "short-lived"}).JSON(t)
	s := connectWS(t, env.URL, created["key"].(string))
	s.subscribe("s", nil)
	time.Sleep(300 * time.Millisecond)
	require.Equal(t, 204, env.Do(testkit.Request{Method: "DELETE", Path: "/v1/api-keys/" + created["id"].(string), Key: acc.Key}).Status)
	insertEvent(t, env.Server.DB.Pool, acc.ID, "order.paid")
	require.Equal(t, "authentication_error", s.subscriptionError("s", 5*time.Second)["code"])
}

// A key may hold 10 subscriptions at once, across connections; the 11th
// fails with rate_limited; a slot is released when its client disconnects.
func TestSubscriptionConnectionLimit(t *testing.T) {
	t.Parallel()
	prefix := testkit.NewRedisPrefix()
	env := testkit.New(t, testkit.WithRedisPrefix(prefix))
	acc := env.NewAccount()
	first, second := connectWS(t, env.URL, acc.Key), connectWS(t, env.URL, acc.Key)
	for i := range resolvers.MaxSubscriptionsPerKey {
		if i < 6 {
			first.subscribe(fmt.Sprint(i), nil)
		} else {
			second.subscribe(fmt.Sprint(i), nil)
		}
	}
	// The ten hold their slots before the eleventh asks: a quiet wait
	// alone let a loaded machine register the eleventh before one of the
	// ten, which was then refused in its place.
	opts, err := redis.ParseURL(testkit.RedisURL)
	require.NoError(t, err)
	rdb := redis.NewClient(opts)
	t.Cleanup(func() { rdb.Close() })
	held := func() int64 {
		ctx := context.Background()
		var n int64
		for _, k := range rdb.Keys(ctx, prefix+"slots:*").Val() {
			n += rdb.ZCard(ctx, k).Val()
		}
		return n
	}
	require.Eventually(t, func() bool { return held() == resolvers.MaxSubscriptionsPerKey }, 10*time.Second, 20*time.Millisecond)
	first.quiet(0)
	second.quiet(0)

	third := connectWS(t, env.URL, acc.Key)
	third.subscribe("over", nil)
	ext := third.subscriptionError("over", 5*time.Second)
	require.Equal(t, "rate_limited", ext["code"])
	require.GreaterOrEqual(t, ext["retry_after"], 1.0)

	// Another key of the account has its own slots.
	otherKey := env.Post("/v1/api-keys", acc.Key, map[string]any{"name": "second"}).JSON(t)["key"].(string)
	connectWS(t, env.URL, otherKey).subscribe("mine", nil)

	// Disconnecting releases the second connection's four slots.
	require.NoError(t, second.conn.Close(websocket.StatusNormalClosure, "bye"))
	n := 0
	require.Eventually(t, func() bool {
		n++
		id := fmt.Sprint("retry", n)
		third.subscribe(id, nil)
		m, ok := third.next(300 * time.Millisecond)
		if !ok {
			return true // no error: it runs
		}
		require.Equal(t, id, m.ID)
		third.next(time.Second) // its complete
		return false
	}, 10*time.Second, 10*time.Millisecond)
	id := insertEvent(t, env.Server.DB.Pool, acc.ID, "order.paid")
	require.Equal(t, []string{id}, ids(third.events(fmt.Sprint("retry", n), 1, 2*time.Second)))
}

// A subscription survives the loss of the process's LISTEN connection: it
// polls while the listener is down and is woken once it is back.
func TestSubscriptionSurvivesListenerLoss(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	pool := env.Server.DB.Pool
	ctx := context.Background()
	e0 := insertEvent(t, pool, acc.ID, "order.paid")
	c := connectWS(t, env.URL, acc.Key)
	c.subscribe("s", map[string]any{"after": e0})

	for range 3 {
		// Every event listener of the package's database goes; the other
		// tests' subscriptions pay in latency only.
		_, err := pool.Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
			WHERE datname = current_database() AND application_name = 'commerce-listener' AND pid <> pg_backend_pid()`)
		require.NoError(t, err)
		id := insertEvent(t, pool, acc.ID, "order.paid")
		require.Equal(t, []string{id}, ids(c.events("s", 1, 3*time.Second)))
	}
}

// Shutting the server down with open subscriptions returns promptly and
// ends them; a websocket outlives the HTTP server's read and write
// timeouts.
func TestSubscriptionServerShutdown(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg := testkit.Config(t)
	srv, err := server.New(ctx, cfg, testkit.Logger(), server.Options{RateLimitPrefix: "t" + testkit.Unique() + ":"})
	require.NoError(t, err)
	require.NoError(t, srv.Start(ctx))
	hs := httptest.NewUnstartedServer(srv.Handler())
	hs.Config.ReadTimeout, hs.Config.WriteTimeout = time.Second, time.Second
	hs.Start()
	closed := false
	t.Cleanup(func() {
		hs.Close()
		if !closed {
			srv.Close(ctx)
		}
	})
	out, err := srv.Resolver.CreateAccount(ctx, "seller-"+testkit.Unique()+"@example.com", "free", "test", false)
	require.NoError(t, err)

	c := connectWS(t, hs.URL, out.Key.Key)
	c.subscribe("a", nil)
	c.subscribe("b", nil)
	time.Sleep(1500 * time.Millisecond) // past the read and write timeouts
	id := insertEvent(t, srv.DB.Pool, out.Account.ID, "order.paid")
	got := map[string]string{}
	for range 2 {
		m, ok := c.next(2 * time.Second)
		require.True(t, ok)
		require.Equal(t, "next", m.Type, "%s", m.Payload)
		got[m.ID] = string(m.Payload)
	}
	require.Contains(t, got["a"], id)
	require.Contains(t, got["b"], id)

	start := time.Now()
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	require.NoError(t, hs.Config.Shutdown(sctx))
	srv.Close(sctx)
	closed = true
	require.Less(t, time.Since(start), 3*time.Second, "Close returns promptly")
	// Each subscription completes, unless the close frame came first.
	for {
		m, ok := c.next(2 * time.Second)
		if !ok {
			break
		}
		require.Equal(t, "complete", m.Type, "%s", m.Payload)
	}
	code, _ := c.closedWith(3 * time.Second)
	require.NotEqual(t, websocket.StatusCode(-1), code, "the server closed the websocket: %v", c.err)
}

// BenchmarkSubscriptionLatency measures the time from an event's COMMIT
// returning to its arrival at a subscriber over the websocket:
//
//	make test PKG=./rest/ TESTFLAGS='-run XXX -bench SubscriptionLatency -benchtime 200x'
func BenchmarkSubscriptionLatency(b *testing.B) {
	env := testkit.New(b)
	acc := env.NewAccount()
	pool := env.Server.DB.Pool
	ctx := context.Background()
	e0 := insertEvent(b, pool, acc.ID, "order.paid")
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(env.URL, "http")+"/graphql",
		&websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	require.NoError(b, err)
	defer conn.CloseNow() //nolint:errcheck
	write := func(m any) {
		raw, _ := json.Marshal(m)
		require.NoError(b, conn.Write(ctx, websocket.MessageText, raw))
	}
	read := func() wsMessage {
		for {
			_, raw, err := conn.Read(ctx)
			require.NoError(b, err)
			var m wsMessage
			require.NoError(b, json.Unmarshal(raw, &m))
			if m.Type == "ping" {
				write(map[string]any{"type": "pong"})
				continue
			}
			return m
		}
	}
	write(map[string]any{"type": "connection_init", "payload": map[string]any{"authorization": "Bearer " + acc.Key}})
	require.Equal(b, "connection_ack", read().Type)
	write(map[string]any{"id": "s", "type": "subscribe", "payload": map[string]any{"query": eventsSubscription, "variables": map[string]any{"after": e0}}})

	var lat []time.Duration
	for b.Loop() {
		tx, err := pool.Begin(ctx)
		require.NoError(b, err)
		id := insertEvent(b, tx, acc.ID, "order.paid")
		require.NoError(b, tx.Commit(ctx))
		committed := time.Now()
		m := read()
		lat = append(lat, time.Since(committed))
		require.Contains(b, string(m.Payload), id)
	}
	slices.Sort(lat)
	q := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(q(0.5), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
	b.ReportMetric(q(1), "max-ms")
}

// The access line of a websocket connection names the account its
// connection_init authenticated, like any authenticated request's.
func TestSubscriptionAccessLogNamesTheAccount(t *testing.T) {
	t.Parallel()
	var buf testkit.LockedBuffer
	env := testkit.New(t, testkit.WithLogger(slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}))))
	acc := env.NewAccount()
	c := connectWS(t, env.URL, acc.Key)
	require.NoError(t, c.conn.Close(websocket.StatusNormalClosure, "done"))
	require.Eventually(t, func() bool {
		for line := range strings.SplitSeq(buf.String(), "\n") {
			var l struct {
				Msg, Route string
				AccountID  string `json:"account_id"`
			}
			if json.Unmarshal([]byte(line), &l) == nil && l.Msg == "request" && l.Route == "/graphql" {
				return l.AccountID == acc.ID
			}
		}
		return false
	}, 5*time.Second, 20*time.Millisecond, "%s", &buf)
}
