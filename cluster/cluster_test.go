// Package cluster_test is `make cluster-test`: end-to-end tests of the
// service deployed as docs/operations.md deploys it — several `commerce
// serve --no-worker` processes and a `commerce worker` behind nginx
// (deploy/nginx/commerce.conf), PgBouncer, PostgreSQL and Redis, started by
// scripts/cluster.sh. Every request goes through nginx, as a client's
// would: whichever process answers, the result must be the same.
//
// The tests run when COMMERCE_CLUSTER=1 (scripts/cluster.sh sets it with
// the cluster's addresses); `make test` skips them.
package cluster_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/jackc/pgx/v5"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

// cluster is what scripts/cluster.sh started.
type cluster struct {
	// base is nginx's URL (the service's BASE_URL).
	base string
	// servers are the serving processes, in nginx's upstream order.
	servers []process
	// databaseURL is PostgreSQL's, directly (not through PgBouncer).
	databaseURL string
	client      *http.Client
}

type process struct {
	name string
	pid  int
	addr string // host:port of its own listener, behind nginx
}

// setup reads the cluster of COMMERCE_CLUSTER_*; it skips without
// COMMERCE_CLUSTER=1 and fails when the cluster is not described.
func setup(t *testing.T) *cluster {
	t.Helper()
	if os.Getenv("COMMERCE_CLUSTER") == "" {
		t.Skip("runs in `make cluster-test` (COMMERCE_CLUSTER=1, against the cluster of scripts/cluster.sh)")
	}
	c := &cluster{
		base:        os.Getenv("COMMERCE_CLUSTER_URL"),
		databaseURL: os.Getenv("COMMERCE_CLUSTER_DATABASE_URL"),
		client: &http.Client{Timeout: 30 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
	}
	require.NotEmpty(t, c.base, "COMMERCE_CLUSTER_URL (nginx) is not set: run `make cluster-test`")
	require.NotEmpty(t, c.databaseURL, "COMMERCE_CLUSTER_DATABASE_URL is not set: run `make cluster-test`")
	// name=pid@host:port …
	for _, f := range strings.Fields(os.Getenv("COMMERCE_CLUSTER_SERVERS")) {
		name, rest, ok1 := strings.Cut(f, "=")
		pid, addr, ok2 := strings.Cut(rest, "@")
		n, err := strconv.Atoi(pid)
		require.True(t, ok1 && ok2 && err == nil, "COMMERCE_CLUSTER_SERVERS entry %q", f)
		c.servers = append(c.servers, process{name: name, pid: n, addr: addr})
	}
	require.GreaterOrEqual(t, len(c.servers), 2, "the cluster needs two serving processes at least (COMMERCE_CLUSTER_SERVERS)")
	return c
}

// call sends one request through nginx; body is JSON unless it is []byte.
func (c *cluster) call(t *testing.T, method, path, key string, body any, header map[string]string) (int, http.Header, []byte) {
	t.Helper()
	var r io.Reader
	var raw []byte
	switch b := body.(type) {
	case nil:
	case []byte:
		raw = b
	default:
		var err error
		raw, err = json.Marshal(b)
		require.NoError(t, err)
	}
	if raw != nil {
		r = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, c.base+path, r)
	require.NoError(t, err)
	if raw != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := c.client.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, resp.Header, b
}

// api is call for the REST API: a status other than want fails t; the
// answer is decoded into out when it is not nil.
func (c *cluster) api(t *testing.T, key, method, path string, body any, want int, out any) {
	t.Helper()
	st, _, b := c.call(t, method, path, key, body, nil)
	require.Equal(t, want, st, "%s %s: %s", method, path, b)
	if out != nil {
		require.NoError(t, json.Unmarshal(b, out), "%s", b)
	}
}

// graphQL posts an operation with key (or the headers alone) and returns
// the response's data; errors fail t.
func (c *cluster) graphQL(t *testing.T, key, query string, vars map[string]any, header map[string]string) (json.RawMessage, http.Header) {
	t.Helper()
	st, h, b := c.call(t, "POST", "/graphql", key, map[string]any{"query": query, "variables": vars}, header)
	require.Equal(t, 200, st, "%s", b)
	var res struct {
		Data   json.RawMessage   `json:"data"`
		Errors []json.RawMessage `json:"errors"`
	}
	require.NoError(t, json.Unmarshal(b, &res), "%s", b)
	require.Empty(t, res.Errors, "%s", b)
	return res.Data, h
}

var passcodePattern = regexp.MustCompile(`\b(\d{6})\b`)

// passcode reads the newest passcode mailed to email from the sandbox
// mailbox (no SMTP_URL: mail stays in the service's sandbox).
func (c *cluster) passcode(t *testing.T, email string) string {
	t.Helper()
	row := regexp.MustCompile(`<td>` + regexp.QuoteMeta(email) + `</td><td><a href="(/sandbox/mail/msg_[0-9a-z]+)">`)
	var m [][]byte
	require.Eventually(t, func() bool {
		st, _, b := c.call(t, "GET", "/sandbox/mail", "", nil, nil)
		if st != 200 {
			return false
		}
		m = row.FindSubmatch(b)
		return m != nil
	}, 20*time.Second, 200*time.Millisecond, "no mail to %s in the sandbox mailbox", email)
	st, _, b := c.call(t, "GET", string(m[1]), "", nil, nil)
	require.Equal(t, 200, st)
	p := passcodePattern.FindSubmatch(b)
	require.NotNil(t, p, "no passcode in %s", b)
	return string(p[1])
}

// signUp bootstraps a seller over REST as an integration does (email,
// passcode, store) and returns the key and the bootstrap session (which
// signs the console in once).
func (c *cluster) signUp(t *testing.T, email string) (key, session string) {
	t.Helper()
	var s struct {
		SessionID string `json:"session_id"`
	}
	c.api(t, "", "POST", "/v1/bootstrap", map[string]any{"email": email}, 200, &s)
	c.api(t, "", "POST", "/v1/bootstrap/verify", map[string]any{"session_id": s.SessionID, "code": c.passcode(t, email)}, 200, nil)
	var store struct {
		APIKey string `json:"api_key"`
	}
	c.api(t, "", "POST", "/v1/bootstrap/store", map[string]any{"session_id": s.SessionID, "display_name": "Cluster Shop " + testkit.Unique()}, 200, &store)
	require.NotEmpty(t, store.APIKey)
	return store.APIKey, s.SessionID
}

// operationalListing connects the sandbox processor (USD) and publishes a
// listing with a text deliverable; it returns the listing's id and slug.
func (c *cluster) operationalListing(t *testing.T, key string) (id, slug string) {
	t.Helper()
	var onb struct {
		URL string `json:"url"`
	}
	c.api(t, key, "POST", "/v1/account/processor/connect", nil, 200, &onb)
	_, err := testkit.PostForm(onb.URL, "", url.Values{"currency": {"usd"}})
	require.NoError(t, err, "sandbox onboarding")
	var l struct {
		ID   string `json:"id"`
		Slug string `json:"slug"`
	}
	c.api(t, key, "POST", "/v1/listings", map[string]any{"title": "Cluster " + testkit.Unique(), "price": 1500,
		"deliverables": []any{map[string]any{"type": "text", "value": "What the buyer gets."}}}, 201, &l)
	c.api(t, key, "POST", "/v1/listings/"+l.ID+"/publish", nil, 200, nil)
	return l.ID, l.Slug
}

// buy is one purchase as a browser makes it: the product page's checkout
// form, then the sandbox payment page's "paid".
func (c *cluster) buy(t *testing.T, slug, email string) {
	t.Helper()
	co, err := testkit.PostForm(c.base+"/p/"+slug+"/checkout", c.base, url.Values{"email": {email}})
	require.NoError(t, err, "checkout")
	b, _ := url.Parse(c.base)
	thanks, err := testkit.PostForm(b.ResolveReference(co).String(), c.base, url.Values{"outcome": {"paid"}})
	require.NoError(t, err, "sandbox payment")
	require.True(t, strings.HasSuffix(thanks.Path, "/thank-you"), "paid: redirected to %s", thanks)
}

// subscription is a graphql-transport-ws connection through nginx,
// subscribed to the account's events.
type subscription struct {
	conn   *websocket.Conn
	events chan string // event types, as they come
	errs   chan error
}

func (c *cluster) subscribe(t *testing.T, ctx context.Context, key string) *subscription {
	t.Helper()
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	conn, resp, err := websocket.Dial(dctx, "ws"+strings.TrimPrefix(c.base, "http")+"/graphql",
		&websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	require.NoError(t, err, "websocket upgrade through nginx")
	require.Equal(t, "nginx", resp.Header.Get("Server"), "the upgrade went through nginx")
	t.Cleanup(func() { _ = conn.Close(websocket.StatusNormalClosure, "") })
	write := func(v any) error {
		b, _ := json.Marshal(v)
		wctx, wcancel := context.WithTimeout(ctx, 5*time.Second)
		defer wcancel()
		return conn.Write(wctx, websocket.MessageText, b)
	}
	require.NoError(t, write(map[string]any{"type": "connection_init", "payload": map[string]any{"authorization": "Bearer " + key}}))
	_, b, err := conn.Read(dctx)
	require.NoError(t, err)
	require.Contains(t, string(b), `"connection_ack"`)
	require.NoError(t, write(map[string]any{"id": "1", "type": "subscribe", "payload": map[string]any{
		"query": `subscription { events { id type createdAt } }`}}))
	sub := &subscription{conn: conn, events: make(chan string, 64), errs: make(chan error, 1)}
	go func() {
		for {
			_, b, err := conn.Read(ctx)
			if err != nil {
				sub.errs <- err
				return
			}
			var m struct {
				Type    string `json:"type"`
				Payload struct {
					Data struct {
						Events struct{ Type string } `json:"events"`
					} `json:"data"`
					Errors []json.RawMessage `json:"errors"`
				} `json:"payload"`
			}
			if err := json.Unmarshal(b, &m); err != nil {
				sub.errs <- fmt.Errorf("undecodable message %.200s", b)
				return
			}
			switch m.Type {
			case "ping":
				_ = write(map[string]any{"type": "pong"})
			case "next":
				if len(m.Payload.Errors) > 0 {
					sub.errs <- fmt.Errorf("subscription error: %.300s", b)
					return
				}
				sub.events <- m.Payload.Data.Events.Type
			case "pong":
			default:
				sub.errs <- fmt.Errorf("unexpected message: %.300s", b)
				return
			}
		}
	}()
	return sub
}

// waitFor waits for an event of type typ on the subscription.
func (sub *subscription) waitFor(t *testing.T, typ string, within time.Duration) {
	t.Helper()
	deadline := time.After(within)
	var seen []string
	for {
		select {
		case got := <-sub.events:
			if got == typ {
				return
			}
			seen = append(seen, got)
		case err := <-sub.errs:
			t.Fatalf("the subscription ended waiting for %s: %v (seen %v)", typ, err, seen)
		case <-deadline:
			t.Fatalf("no %s event on the subscription within %s (seen %v)", typ, within, seen)
		}
	}
}

// A seller signs up, sells, and a buyer buys, all through nginx: REST,
// the product page and the sandbox's payment page, the order fulfilled by
// the worker process, the events on a GraphQL subscription (a websocket
// through the proxy), an agent over MCP (the official SDK's streamable
// HTTP client), and the console's GraphQL API with its session cookie.
func TestSellAndBuyThroughTheProxy(t *testing.T) {
	c := setup(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	email := "seller-" + testkit.Unique() + "@example.com"
	key, session := c.signUp(t, email)
	sub := c.subscribe(t, ctx, key)
	listingID, slug := c.operationalListing(t, key)

	buyer := "buyer-" + testkit.Unique() + "@example.com"
	c.buy(t, slug, buyer)
	sub.waitFor(t, "ORDER_PAID", 20*time.Second)
	sub.waitFor(t, "ORDER_FULFILLED", 20*time.Second)

	// The worker delivers (a text deliverable): the order ends fulfilled.
	var order map[string]any
	require.Eventually(t, func() bool {
		var list struct {
			Data []map[string]any `json:"data"`
		}
		c.api(t, key, "GET", "/v1/orders", nil, 200, &list)
		for _, o := range list.Data {
			if o["buyer_email"] == buyer && o["status"] == "fulfilled" {
				order = o
				return true
			}
		}
		return false
	}, 30*time.Second, 250*time.Millisecond, "the order is fulfilled")
	require.Equal(t, listingID, order["listing_id"])

	// GraphQL over POST reads the same order.
	data, _ := c.graphQL(t, key, `{ viewer { orders(first: 5) { edges { node { id status buyerEmail } } } } }`, nil, nil)
	require.Contains(t, string(data), order["id"].(string))

	// MCP: the SDK's client lists the tools and calls one.
	client := sdk.NewClient(&sdk.Implementation{Name: "cluster-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: c.base + "/mcp", MaxRetries: -1,
		HTTPClient: &http.Client{Transport: bearer{key}, Timeout: 30 * time.Second}}, nil)
	require.NoError(t, err)
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	require.NotEmpty(t, tools.Tools)
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "viewer", Arguments: map[string]any{"listings": map[string]any{}}})
	require.NoError(t, err)
	require.False(t, res.IsError, "%v", res.StructuredContent)
	b, _ := json.Marshal(res.StructuredContent)
	require.Contains(t, string(b), listingID)

	// The console: signIn with the bootstrap session sets the cookie; the
	// cookie alone then reads the account, on whichever process.
	origin := map[string]string{"Origin": c.base, "Sec-Fetch-Site": "same-origin"}
	_, h := c.graphQL(t, "", `mutation($s: ID!) { signIn(input: {sessionId: $s}) { expiresAt } }`, map[string]any{"s": session}, origin)
	var cookie string
	for _, ck := range (&http.Response{Header: h}).Cookies() {
		if ck.Name == "commerce_session" {
			cookie = ck.Value
		}
	}
	require.NotEmpty(t, cookie, "signIn sets commerce_session: %v", h)
	origin["Cookie"] = "commerce_session=" + cookie
	for range 2 * len(c.servers) {
		data, _ = c.graphQL(t, "", `{ viewer { email listings(first: 5) { edges { node { id } } } } }`, nil, origin)
		require.Contains(t, string(data), email)
		require.Contains(t, string(data), listingID)
	}
}

// bearer adds the API key to every MCP request.
type bearer struct{ key string }

func (b bearer) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+b.key)
	return http.DefaultTransport.RoundTrip(req)
}

// A key revoked through the proxy (so on one process) is refused at once
// through the proxy, by every process: each had it cached as valid.
func TestRevokedKeyRefusedByEveryProcess(t *testing.T) {
	c := setup(t)
	key, _ := c.signUp(t, "revoke-"+testkit.Unique()+"@example.com")
	var second struct {
		ID  string `json:"id"`
		Key string `json:"key"`
	}
	c.api(t, key, "POST", "/v1/api-keys", map[string]any{"name": "to revoke"}, 201, &second)
	require.NotEmpty(t, second.Key)
	// Round robin: every process authenticates (and caches) the key.
	for range 4 * len(c.servers) {
		c.api(t, second.Key, "GET", "/v1/listings", nil, 200, nil)
	}
	c.api(t, key, "DELETE", "/v1/api-keys/"+second.ID, nil, 204, nil)
	refused := 0
	for range 20 * len(c.servers) {
		st, _, _ := c.call(t, "GET", "/v1/listings", second.Key, nil, nil)
		if st == http.StatusUnauthorized {
			refused++
		}
	}
	require.Equal(t, 20*len(c.servers), refused, "every request with the revoked key is refused, on every process")
}

// Per-IP rate limits count each client, not nginx: the service trusts
// X-Forwarded-For from the proxy alone (TRUSTED_PROXIES=127.0.0.1/32) and
// takes the address nginx appended. Two clients on other loopback
// addresses (127.0.0.2, 127.0.0.3: not trusted) have a window each, and an
// X-Forwarded-For a client writes itself changes nothing.
func TestRateLimitsSeeTheClientThroughTheProxy(t *testing.T) {
	c := setup(t)
	from := func(ip string) *http.Client {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
		return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DialContext: d.DialContext}}
	}
	remaining := func(client *http.Client, forged string) int {
		req, err := http.NewRequest("GET", c.base+"/v1/ping", nil)
		require.NoError(t, err)
		if forged != "" {
			req.Header.Set("X-Forwarded-For", forged)
		}
		resp, err := client.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		require.Equal(t, 200, resp.StatusCode)
		n, err := strconv.Atoi(resp.Header.Get("RateLimit-Remaining"))
		require.NoError(t, err, "RateLimit-Remaining %q", resp.Header.Get("RateLimit-Remaining"))
		return n
	}
	a, b := from("127.0.0.2"), from("127.0.0.3")
	first := remaining(a, "")
	for range 3 {
		remaining(a, "")
	}
	require.Equal(t, first-4, remaining(a, ""), "one client's window counts its five requests")
	require.Equal(t, first-5, remaining(a, "203.0.113.9"), "a forged X-Forwarded-For is the same client")
	require.Greater(t, remaining(b, ""), first-5, "another client has a window of its own, not nginx's")
}

// The request path goes through PgBouncer in transaction mode
// (COMMERCE_CLUSTER_DB=pgbouncer, the default): the transactions of a
// burst of requests show in PgBouncer's statistics. With
// COMMERCE_CLUSTER_DB=direct, PgBouncer serves none of them.
func TestRequestPathThroughPgBouncer(t *testing.T) {
	c := setup(t)
	mode, bouncer := os.Getenv("COMMERCE_CLUSTER_DB"), os.Getenv("COMMERCE_CLUSTER_PGBOUNCER_URL")
	require.Contains(t, []string{"pgbouncer", "direct"}, mode, "COMMERCE_CLUSTER_DB")
	require.NotEmpty(t, bouncer, "COMMERCE_CLUSTER_PGBOUNCER_URL")
	// PgBouncer's admin console speaks the simple protocol only.
	u, err := url.Parse(bouncer)
	require.NoError(t, err)
	u.Path = "/pgbouncer"
	q := u.Query()
	q.Set("default_query_exec_mode", "simple_protocol")
	u.RawQuery = q.Encode()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, u.String())
	require.NoError(t, err)
	defer conn.Close(ctx)
	xacts := func() int64 {
		rows, err := conn.Query(ctx, "SHOW STATS")
		require.NoError(t, err)
		defer rows.Close()
		for rows.Next() {
			v := rows.RawValues() // text: the simple protocol
			for i, f := range rows.FieldDescriptions() {
				if f.Name == "total_xact_count" && string(v[0]) == "commerce" {
					n, err := strconv.ParseInt(string(v[i]), 10, 64)
					require.NoError(t, err)
					return n
				}
			}
		}
		require.NoError(t, rows.Err())
		return 0
	}
	key, _ := c.signUp(t, "pooled-"+testkit.Unique()+"@example.com")
	before := xacts()
	for range 10 {
		c.api(t, key, "GET", "/v1/listings", nil, 200, nil)
	}
	after := xacts()
	if mode == "pgbouncer" {
		require.GreaterOrEqual(t, after-before, int64(10), "ten requests, at least one transaction each, through PgBouncer")
	} else {
		require.Equal(t, before, after, "CLUSTER_DB=direct: the requests do not go through PgBouncer")
	}
}
