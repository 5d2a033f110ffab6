package soak_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

// The traffic: a fixed set of clients, each at a moderate pace (the
// service shares two cores with PostgreSQL, Redis and this test), about
// 30 requests a second in all.
const (
	readers      = 2
	readerPace   = 250 * time.Millisecond
	writerPace   = time.Second
	buyers       = 2
	buyerPace    = 500 * time.Millisecond
	graphQLPace  = 500 * time.Millisecond
	hostilePace  = time.Second
	keptOrderIDs = 50
)

// soak drives the traffic against one service.
type soak struct {
	t    *testing.T
	base string
	key  string
	// client keeps connections alive across requests, as integrations do;
	// hostile requests go on connections of their own (the service may
	// close one after refusing a body).
	client, hostile *http.Client
	traffic         *traffic

	listingID, slug string
	// draftID is a draft listing the writers keep changing (a published
	// listing's content is fixed).
	draftID    string
	webhookIDs []string
	purchases  atomic.Int64

	mu       sync.Mutex
	orderIDs []string // the newest orders the readers saw
}

func newSoak(t *testing.T, base, key string) *soak {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 32
	return &soak{t: t, base: base, key: key,
		client: &http.Client{Transport: tr, Timeout: 30 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
		hostile: &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 30 * time.Second},
		traffic: newTraffic(),
	}
}

// setup makes the seller operational (sandbox, USD), subscribes two
// webhook endpoints of hookURL and publishes the listing the buyers buy (a
// text deliverable: a download email per buyer).
func (s *soak) setup(hookURL string) {
	t := s.t
	var onb struct {
		URL string `json:"url"`
	}
	s.mustJSON("POST", "/v1/account/processor/connect", nil, 200, &onb)
	_, err := testkit.PostForm(onb.URL, "", url.Values{"currency": {"usd"}})
	require.NoError(t, err, "sandbox onboarding")
	for _, p := range []string{"/a", "/b"} {
		var e struct {
			ID string `json:"id"`
		}
		s.mustJSON("POST", "/v1/webhooks", map[string]any{"url": hookURL + p, "name": "soak " + p}, 201, &e)
		s.webhookIDs = append(s.webhookIDs, e.ID)
	}
	var l struct {
		ID   string `json:"id"`
		Slug string `json:"slug"`
	}
	s.mustJSON("POST", "/v1/listings", map[string]any{"title": "Soak " + testkit.Unique(), "price": 1500,
		"description":  "A steady seller.",
		"deliverables": []any{map[string]any{"type": "text", "value": "What the buyer gets."}}}, 201, &l)
	s.mustJSON("POST", "/v1/listings/"+l.ID+"/publish", nil, 200, nil)
	s.listingID, s.slug = l.ID, l.Slug
	s.mustJSON("POST", "/v1/listings", map[string]any{"title": "Soak draft " + testkit.Unique(), "price": 900}, 201, &l)
	s.draftID = l.ID
}

// mustJSON calls the API with the key during the setup; any other status
// than want fails the test.
func (s *soak) mustJSON(method, path string, body any, want int, out any) {
	testkit.CallAPI(s.t, s.client, s.base, s.key, method, path, body, want, out)
}

// call is one request of the traffic.
type call struct {
	kind   string // what the traffic report counts it as
	method string
	path   string // after the base URL, or an absolute URL
	body   []byte
	header http.Header
	// key sends the soak's API key.
	key bool
	// want lists the statuses expected; anything else (any 5xx included)
	// is a traffic error.
	want []int
	// hostile sends it on a connection of its own.
	hostile bool
}

// do sends c and returns the response's status, header and body (up to 2
// MiB); ok is false when the answer was unexpected (recorded as an error).
func (s *soak) do(c call) (status int, header http.Header, body []byte, ok bool) {
	u := c.path
	if !strings.HasPrefix(u, "http") {
		u = s.base + c.path
	}
	var r io.Reader
	if c.body != nil {
		r = bytes.NewReader(c.body)
	}
	req, err := http.NewRequest(c.method, u, r)
	if err != nil {
		s.traffic.fail(c.kind, fmt.Sprintf("%s %s: %v", c.method, c.path, err))
		return 0, nil, nil, false
	}
	for k, v := range c.header {
		req.Header[k] = v
	}
	if c.key {
		req.Header.Set("Authorization", "Bearer "+s.key)
	}
	if c.body != nil && req.Header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", "application/json")
	}
	client := s.client
	if c.hostile {
		client = s.hostile
	}
	resp, err := client.Do(req)
	if err != nil {
		s.traffic.fail(c.kind, fmt.Sprintf("%s %s: %v", c.method, c.path, err))
		return 0, nil, nil, false
	}
	defer resp.Body.Close()
	body, _ = io.ReadAll(io.LimitReader(resp.Body, 2<<20))
	_, _ = io.Copy(io.Discard, resp.Body)
	if !slices.Contains(c.want, resp.StatusCode) {
		s.traffic.fail(c.kind, fmt.Sprintf("%s %s: HTTP %d, want %v: %.300s", c.method, short(c.path), resp.StatusCode, c.want, body))
		return resp.StatusCode, resp.Header, body, false
	}
	s.traffic.ok(c.kind)
	return resp.StatusCode, resp.Header, body, true
}

func short(p string) string {
	if len(p) > 120 {
		return p[:120] + "…"
	}
	return p
}

// run starts the clients; they stop when ctx ends (each finishing the
// request it is in).
func (s *soak) run(ctx context.Context, wg *sync.WaitGroup) {
	loop := func(pace time.Duration, step func(i int)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ctx.Err() == nil; i++ {
				step(i)
				select {
				case <-ctx.Done():
				case <-time.After(pace):
				}
			}
		}()
	}
	for r := range readers {
		loop(readerPace, func(i int) { s.read(r*7 + i) })
	}
	loop(writerPace, s.write)
	for range buyers {
		loop(buyerPace, func(int) { s.buy() })
	}
	loop(graphQLPace, s.graphQL)
	loop(hostilePace, s.attack)
}

// read is one REST or page read, in turn.
func (s *soak) read(i int) {
	get := func(path string) []byte {
		_, _, b, _ := s.do(call{kind: "rest read", method: "GET", path: path, key: true, want: []int{200}})
		return b
	}
	switch i % 12 {
	case 0:
		get("/v1/listings?limit=20")
	case 1:
		get("/v1/listings/" + s.listingID)
	case 2:
		var page struct {
			Data []struct {
				ID string `json:"id"`
			} `json:"data"`
		}
		if json.Unmarshal(get("/v1/orders?limit=20"), &page) == nil && len(page.Data) > 0 {
			s.mu.Lock()
			for _, o := range page.Data {
				if !slices.Contains(s.orderIDs, o.ID) {
					s.orderIDs = append(s.orderIDs, o.ID)
				}
			}
			if n := len(s.orderIDs); n > keptOrderIDs {
				s.orderIDs = s.orderIDs[n-keptOrderIDs:]
			}
			s.mu.Unlock()
		}
	case 3:
		s.mu.Lock()
		var id string
		if len(s.orderIDs) > 0 {
			id = s.orderIDs[i%len(s.orderIDs)]
		}
		s.mu.Unlock()
		if id != "" {
			get("/v1/orders/" + id)
		}
	case 4:
		get("/v1/events?limit=20")
	case 5:
		get("/v1/webhooks")
	case 6:
		get("/v1/webhooks/" + s.webhookIDs[i%len(s.webhookIDs)] + "/events?limit=20")
	case 7:
		get("/v1/account")
	case 8:
		get("/v1/customers?limit=20")
	case 9:
		get("/v1/store")
	case 10:
		s.do(call{kind: "page read", method: "GET", path: "/p/" + s.slug, want: []int{200}})
	case 11:
		s.do(call{kind: "rest read", method: "GET", path: "/v1/ping", want: []int{200}})
	}
}

// write creates a draft listing, changes it and deletes it (the listing
// count stays put), and now and then changes the long-lived draft.
func (s *soak) write(i int) {
	js := func(v any) []byte { b, _ := json.Marshal(v); return b }
	if i%5 == 4 {
		s.do(call{kind: "rest write", method: "PUT", path: "/v1/listings/" + s.draftID, key: true, want: []int{200},
			body: js(map[string]any{"description": fmt.Sprintf("Still a draft, revision %d.", i)})})
		return
	}
	_, _, b, ok := s.do(call{kind: "rest write", method: "POST", path: "/v1/listings", key: true, want: []int{201},
		body: js(map[string]any{"title": fmt.Sprintf("Draft %d %s", i, testkit.Unique()), "price": 100 + i%5000})})
	var l struct {
		ID string `json:"id"`
	}
	if !ok || json.Unmarshal(b, &l) != nil {
		return
	}
	s.do(call{kind: "rest write", method: "PUT", path: "/v1/listings/" + l.ID, key: true, want: []int{200},
		body: js(map[string]any{"title": "Renamed draft", "price": 2500, "description": "Written by the soak."})})
	s.do(call{kind: "rest write", method: "DELETE", path: "/v1/listings/" + l.ID, key: true, want: []int{204}})
}

// buy is one purchase through the HTML checkout and the sandbox's payment
// page, as a browser makes it; every fifth buyer reads the thank-you page.
func (s *soak) buy() {
	n := s.purchases.Add(1)
	form := func(u string, v url.Values) (*url.URL, bool) {
		h := http.Header{"Content-Type": {"application/x-www-form-urlencoded"}, "Origin": {s.base}}
		_, hdr, _, ok := s.do(call{kind: "purchase", method: "POST", path: u, header: h, body: []byte(v.Encode()), want: []int{303}})
		if !ok {
			return nil, false
		}
		loc, err := url.Parse(hdr.Get("Location"))
		if err != nil {
			s.traffic.fail("purchase", fmt.Sprintf("POST %s: Location %q: %v", short(u), hdr.Get("Location"), err))
			return nil, false
		}
		return loc, true
	}
	email := fmt.Sprintf("buyer-%d-%s@example.com", n, testkit.Unique())
	co, ok := form("/p/"+s.slug+"/checkout", url.Values{"email": {email}})
	if !ok {
		return
	}
	co = resolve(s.base, co)
	thanks, ok := form(co.String(), url.Values{"outcome": {"paid"}})
	if !ok {
		return
	}
	if !strings.HasSuffix(thanks.Path, "/thank-you") {
		s.traffic.fail("purchase", fmt.Sprintf("paid: redirected to %s", thanks))
		return
	}
	s.traffic.ok("purchase completed")
	if n%5 == 0 {
		s.do(call{kind: "page read", method: "GET", path: resolve(s.base, thanks).String(), want: []int{200}})
	}
}

func resolve(base string, u *url.URL) *url.URL {
	b, _ := url.Parse(base)
	return b.ResolveReference(u)
}

// graphQL is one GraphQL operation or MCP tool call, in turn.
func (s *soak) graphQL(i int) {
	op := func(query string, vars map[string]any) {
		b, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
		_, _, body, ok := s.do(call{kind: "graphql", method: "POST", path: "/graphql", key: true, body: b, want: []int{200}})
		if !ok {
			return
		}
		var res struct {
			Errors []json.RawMessage `json:"errors"`
		}
		if err := json.Unmarshal(body, &res); err != nil || len(res.Errors) > 0 {
			s.traffic.fail("graphql", fmt.Sprintf("POST /graphql %.80q: %.300s", query, body))
		}
	}
	switch i % 6 {
	case 0:
		op(`{ viewer { id email plan readiness { operational } listings(first: 20) { edges { node { id title price status url } } pageInfo { hasNextPage endCursor } } } }`, nil)
	case 1:
		op(`{ viewer { orders(first: 20) { edges { node { id status amount buyerEmail listingId createdAt } } pageInfo { hasNextPage } } } }`, nil)
	case 2:
		op(`query($id: ID!) { listing(id: $id) { id title description price slug status deliverables { id } readiness { sellable } } }`,
			map[string]any{"id": s.listingID})
	case 3:
		op(`mutation($id: ID!, $d: String) { updateListing(id: $id, input: {description: $d}) { id updatedAt } }`,
			map[string]any{"id": s.draftID, "d": fmt.Sprintf("Still a draft, GraphQL revision %d.", i)})
	case 4:
		op(`{ viewer { events(first: 20) { edges { node { id type createdAt } } } webhooks(first: 10) { edges { node { id url status } } } } }`, nil)
	case 5:
		// MCP (stateless streamable HTTP): one tool call.
		b := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"viewer","arguments":{}}}`)
		_, _, body, ok := s.do(call{kind: "mcp", method: "POST", path: "/mcp", key: true, body: b, want: []int{200},
			header: http.Header{"Accept": {"application/json, text/event-stream"}}})
		if ok && (!bytes.Contains(body, []byte(`"result"`)) || bytes.Contains(body, []byte(`"isError":true`))) {
			s.traffic.fail("mcp", fmt.Sprintf("tools/call viewer: %.300s", body))
		}
	}
}

// attack is one hostile request, in turn: each must be refused with the
// right 4xx, and none may cost the service for long.
func (s *soak) attack(i int) {
	deep := func(n int) []byte { return []byte(strings.Repeat("[", n) + strings.Repeat("]", n)) }
	big := append(append([]byte(`{"title":"`), bytes.Repeat([]byte("x"), 1<<20)...), `"}`...)
	h := func(c call) { c.kind, c.hostile = "hostile", true; s.do(c) }
	switch i % 10 {
	case 0: // 1 MiB and a bit of JSON, over the body limit
		h(call{method: "POST", path: "/v1/listings", key: true, body: big, want: []int{400}})
	case 1: // 1,000 levels of nesting, anonymous
		h(call{method: "POST", path: "/v1/bootstrap", body: deep(1000), want: []int{400}})
	case 2: // malformed JSON, anonymous
		h(call{method: "POST", path: "/v1/bootstrap", body: []byte(`{"email": "a@example.com",`), want: []int{400}})
	case 3: // malformed JSON, with a key
		h(call{method: "PUT", path: "/v1/listings/" + s.listingID, key: true, body: []byte(`{"title": }`), want: []int{400}})
	case 4: // no such route
		h(call{method: "GET", path: fmt.Sprintf("/v1/nothing-here/%d", i), key: true, want: []int{404}})
	case 5: // a wrong key
		h(call{method: "GET", path: "/v1/listings", header: http.Header{"Authorization": {"Bearer svc_" + strings.Repeat("0", 40)}}, want: []int{401}})
	case 6: // a wrong method
		h(call{method: "DELETE", path: "/v1/ping", want: []int{405}})
	case 7: // a GraphQL syntax error, anonymous
		h(call{method: "POST", path: "/graphql", body: []byte(`{"query":"{ viewer { id "}`), want: []int{422}})
	case 8: // 1,000 levels of nesting in an unused GraphQL variable
		b := append(append([]byte(`{"query":"{ ping { ok } }","variables":{"x":`), deep(1000)...), '}', '}')
		h(call{method: "POST", path: "/graphql", key: true, body: b, want: []int{400}})
	case 9: // a processor event with no signature
		h(call{method: "POST", path: "/v1/processor/webhook", body: []byte(`{"id":"evt_1","type":"payment_intent.succeeded"}`), want: []int{400}})
	}
}

// subscription is the long-lived graphql-ws connection: the account's
// events, counted as they come.
type subscription struct {
	conn   *websocket.Conn
	cancel context.CancelFunc
	events atomic.Int64
	// err is why the stream ended before the soak closed it.
	mu     sync.Mutex
	err    error
	closed atomic.Bool
	done   chan struct{}
}

// subscribe opens the subscription (graphql-transport-ws) and starts
// reading it.
func (s *soak) subscribe(ctx context.Context) *subscription {
	t := s.t
	ctx, cancel := context.WithCancel(ctx)
	dctx, dcancel := context.WithTimeout(ctx, 10*time.Second)
	defer dcancel()
	conn, _, err := websocket.Dial(dctx, "ws"+strings.TrimPrefix(s.base, "http")+"/graphql",
		&websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	require.NoError(t, err)
	conn.SetReadLimit(1 << 20)
	write := func(v any) error {
		b, _ := json.Marshal(v)
		wctx, wcancel := context.WithTimeout(ctx, 5*time.Second)
		defer wcancel()
		return conn.Write(wctx, websocket.MessageText, b)
	}
	require.NoError(t, write(map[string]any{"type": "connection_init", "payload": map[string]any{"authorization": "Bearer " + s.key}}))
	_, b, err := conn.Read(dctx)
	require.NoError(t, err)
	require.Contains(t, string(b), `"connection_ack"`)
	require.NoError(t, write(map[string]any{"id": "1", "type": "subscribe", "payload": map[string]any{
		"query": `subscription { events { id type createdAt } }`}}))
	sub := &subscription{conn: conn, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(sub.done)
		for {
			_, b, err := conn.Read(ctx)
			if err != nil {
				if !sub.closed.Load() {
					sub.setErr(fmt.Errorf("the subscription's connection ended: %w", err))
				}
				return
			}
			var m struct {
				Type    string          `json:"type"`
				Payload json.RawMessage `json:"payload"`
			}
			if err := json.Unmarshal(b, &m); err != nil {
				sub.setErr(fmt.Errorf("undecodable message %.200s", b))
				return
			}
			switch m.Type {
			case "ping":
				_ = write(map[string]any{"type": "pong"})
			case "pong":
			case "next":
				if bytes.Contains(m.Payload, []byte(`"errors"`)) {
					sub.setErr(fmt.Errorf("subscription error: %.300s", m.Payload))
					return
				}
				sub.events.Add(1)
			default:
				sub.setErr(fmt.Errorf("unexpected %s message: %.300s", m.Type, b))
				return
			}
		}
	}()
	return sub
}

func (sub *subscription) setErr(err error) {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	if sub.err == nil {
		sub.err = err
	}
}

// close ends the subscription (the client completes it and goes away).
func (sub *subscription) close() {
	if sub.closed.Swap(true) {
		return
	}
	_ = sub.conn.Close(websocket.StatusNormalClosure, "")
	sub.cancel()
	<-sub.done
}

// traffic counts the requests by kind, and the unexpected answers.
type traffic struct {
	mu     sync.Mutex
	counts map[string]int
	errs   map[string]int
	first  []string
	total  int
}

func newTraffic() *traffic { return &traffic{counts: map[string]int{}, errs: map[string]int{}} }

func (tr *traffic) ok(kind string) {
	tr.mu.Lock()
	tr.counts[kind]++
	tr.mu.Unlock()
}

func (tr *traffic) fail(kind, msg string) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.counts[kind]++
	tr.errs[kind]++
	tr.total++
	if len(tr.first) < 20 {
		tr.first = append(tr.first, kind+": "+msg)
	}
}

// noteSubscription counts the subscription's events and, when it ended
// early, its failure.
func (tr *traffic) noteSubscription(sub *subscription) {
	tr.mu.Lock()
	tr.counts["subscription event"] += int(sub.events.Load())
	tr.mu.Unlock()
	sub.mu.Lock()
	err := sub.err
	sub.mu.Unlock()
	if err != nil {
		tr.fail("subscription", err.Error())
	}
}

// requests is the number of requests sent so far.
func (tr *traffic) requests() int {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	n := 0
	for k, c := range tr.counts {
		if k != "purchase completed" {
			n += c
		}
	}
	return n
}

func (tr *traffic) errorCount() int {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.total
}

func (tr *traffic) firstErrors() []string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return slices.Clone(tr.first)
}

// report is the traffic table: requests and unexpected answers by kind.
func (tr *traffic) report(elapsed time.Duration, rc *receiver) string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "traffic over %s:\n", elapsed.Round(time.Second))
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "kind\tcount\tper s\tunexpected\t")
	kinds := make([]string, 0, len(tr.counts))
	for k := range tr.counts {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	all := 0
	for _, k := range kinds {
		if k != "subscription event" && k != "purchase completed" {
			all += tr.counts[k]
		}
		fmt.Fprintf(w, "%s\t%d\t%.1f\t%d\t\n", k, tr.counts[k], float64(tr.counts[k])/elapsed.Seconds(), tr.errs[k])
	}
	fmt.Fprintf(w, "requests\t%d\t%.1f\t%d\t\n", all, float64(all)/elapsed.Seconds(), tr.total)
	_ = w.Flush()
	fmt.Fprintf(&b, "%s\n", rc)
	return b.String()
}
