package acp_test

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"commerce/acp"
	"commerce/config"
	"commerce/testkit"
)

// The conformance suite (CONTRACT §25, issue 30): the protocol walked as an
// agent walks it, over REST and over MCP with the official SDK's client,
// every ACP response, error and webhook body validated against the pinned
// 2026-04-17 JSON Schema (schema_test.go).

const apiVersion = "2026-04-17"

// seller is an operational sandbox account with a published listing, a
// discount code, a webhook endpoint of its own, and an agent connection
// whose webhook URL is a receiver of the test.
type seller struct {
	env       *testkit.Env
	acc       testkit.Account
	listingID string
	price     int64
	discount  string
	connID    string
	token     string
	secret    string
	agentHook *receiver
	ownHook   *receiver
}

// receiver keeps every request a webhook endpoint of the test receives.
type receiver struct {
	mu   sync.Mutex
	srv  *httptest.Server
	reqs []received
}

type received struct {
	header http.Header
	body   []byte
}

func newReceiver(t *testing.T) *receiver {
	rc := &receiver{}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.reqs = append(rc.reqs, received{r.Header.Clone(), b})
		rc.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"received":true}`))
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) all() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.reqs...)
}

func newSeller(t *testing.T, env *testkit.Env) *seller {
	t.Helper()
	s := &seller{env: env, acc: env.NewAccount(), price: 2900, discount: "SUMMER-" + strings.ToUpper(testkit.Unique())}
	env.ConnectSandbox(s.acc.Key, "usd")
	s.ownHook, s.agentHook = newReceiver(t), newReceiver(t)
	r := env.Post("/v1/webhooks", s.acc.Key, map[string]any{"url": s.ownHook.srv.URL, "events": []string{"order.paid"}})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	r = env.Post("/v1/listings", s.acc.Key, map[string]any{"title": "Course " + testkit.Unique(), "price": s.price,
		"deliverables": []any{map[string]any{"type": "text", "value": "the course"}}})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	s.listingID = r.JSON(t)["id"].(string)
	r = env.Post("/v1/listings/"+s.listingID+"/publish", s.acc.Key, nil)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	r = env.Post("/v1/discounts", s.acc.Key, map[string]any{"code": s.discount, "type": "percentage", "percent_off": 25})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	r = env.Post("/v1/agent-connections", s.acc.Key, map[string]any{"name": "Test agent", "webhook_url": s.agentHook.srv.URL})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	c := r.JSON(t)
	s.connID, s.token, s.secret = c["id"].(string), c["token"].(string), c["webhook_secret"].(string)
	require.Regexp(t, `^acp_[A-Za-z0-9]{40}$`, s.token)
	return s
}

// call is one ACP request of the agent.
type call struct {
	method, path string
	body         any
	key          string // Idempotency-Key
	token        string // "" the seller's
	header       map[string]string
}

type reply struct {
	status int
	header http.Header
	body   []byte
}

func (r reply) json(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(r.body, &m), "%s", r.body)
	return m
}

func (s *seller) do(t testing.TB, c call) reply {
	t.Helper()
	var body io.Reader
	if c.body != nil {
		b, ok := c.body.([]byte)
		if !ok {
			var err error
			b, err = json.Marshal(c.body)
			require.NoError(t, err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequest(c.method, s.env.URL+c.path, body)
	require.NoError(t, err)
	token := c.token
	if token == "" {
		token = s.token
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("API-Version", apiVersion)
	req.Header.Set("Request-Id", "req_"+testkit.Unique())
	if c.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.key != "" {
		req.Header.Set("Idempotency-Key", c.key)
	}
	for k, v := range c.header {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	if id := req.Header.Get("Request-Id"); id != "" && strings.HasPrefix(c.path, "/acp") {
		require.Equal(t, id, resp.Header.Get("Request-Id"), "Request-Id is echoed")
	}
	require.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	return reply{resp.StatusCode, resp.Header, b}
}

// acpErr checks an ACP error reply against the schema and its status and code.
func acpErr(t testing.TB, r reply, status int, code string) map[string]any {
	t.Helper()
	require.Equal(t, status, r.status, "%s", r.body)
	validate(t, "Error", r.body)
	e := r.json(t)
	require.Equal(t, code, e["code"], "%s", r.body)
	require.NotContains(t, string(r.body), "problem", "never a problem document")
	return e
}

func key() string { return "key_" + testkit.Unique() }

func (s *seller) create(t testing.TB, body map[string]any) (reply, map[string]any) {
	t.Helper()
	if body == nil {
		body = map[string]any{"line_items": []any{map[string]any{"id": s.listingID, "quantity": 1}}, "currency": "usd", "capabilities": map[string]any{}}
	}
	r := s.do(t, call{method: "POST", path: "/acp/checkout_sessions", body: body, key: key()})
	require.Equal(t, 201, r.status, "%s", r.body)
	return r, validateSession(t, r.body)
}

// delegate asks the sandbox's delegate-payment API for a vault token.
func (s *seller) delegate(t testing.TB, sessionID, card string, max int64) string {
	t.Helper()
	r := s.do(t, call{method: "POST", path: "/sandbox/acp/agentic_commerce/delegate_payment", key: key(), token: "platform_token_" + testkit.Unique(),
		body: map[string]any{
			"payment_method": map[string]any{"type": "card", "card_number_type": "fpan", "number": card, "exp_month": "12", "exp_year": "2030",
				"cvc": "123", "name": "Ada Buyer", "display_card_funding_type": "credit", "display_last4": card[len(card)-4:], "metadata": map[string]any{}},
			"allowance": map[string]any{"reason": "one_time", "max_amount": max, "currency": "usd", "checkout_session_id": sessionID,
				"merchant_id": s.acc.ID, "expires_at": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)},
			"risk_signals": []any{}, "metadata": map[string]any{"campaign": "conformance"},
		}})
	require.Equal(t, 201, r.status, "%s", r.body)
	validate(t, "DelegatePaymentResponse", r.body)
	return r.json(t)["id"].(string)
}

func paymentData(token string) map[string]any {
	return map[string]any{"payment_data": map[string]any{"handler_id": "sandbox_card",
		"instrument": map[string]any{"type": "card", "credential": map[string]any{"type": "spt", "token": token}}}}
}

func messages(s map[string]any) []map[string]any {
	var out []map[string]any
	for _, m := range s["messages"].([]any) {
		out = append(out, m.(map[string]any))
	}
	return out
}

func hasMessage(s map[string]any, code, param string) bool {
	for _, m := range messages(s) {
		if m["type"] == "error" && m["code"] == code && (param == "" || m["param"] == param) {
			return true
		}
	}
	return false
}

func totalOf(s map[string]any, typ string) float64 {
	for _, x := range s["totals"].([]any) {
		if m := x.(map[string]any); m["type"] == typ {
			return m["amount"].(float64)
		}
	}
	return -1
}

// verifySignature checks Merchant-Signature: t={unix},v1={hex HMAC-SHA256("{t}.{body}")}.
func verifySignature(t testing.TB, secret string, rc received) {
	t.Helper()
	sig := rc.header.Get("Merchant-Signature")
	require.Regexp(t, `^t=\d+,v1=[a-f0-9]{64}$`, sig)
	parts := strings.Split(sig, ",")
	ts, v1 := strings.TrimPrefix(parts[0], "t="), strings.TrimPrefix(parts[1], "v1=")
	sec, err := strconv.ParseInt(ts, 10, 64)
	require.NoError(t, err)
	require.InDelta(t, time.Now().Unix(), sec, 300, "within the recommended tolerance")
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(ts + "." + string(rc.body)))
	require.Equal(t, hex.EncodeToString(m.Sum(nil)), v1, "the signature verifies with the connection's webhook secret")
}

// agentEvents waits for the agent platform's events of an order, each
// verified and validated, until want has arrived.
func (s *seller) agentEvents(t *testing.T, orderID string, want ...string) []map[string]any {
	t.Helper()
	var events []map[string]any
	require.Eventually(t, func() bool {
		events = nil
		for _, rc := range s.agentHook.all() {
			var ev map[string]any
			if json.Unmarshal(rc.body, &ev) != nil {
				continue
			}
			if d, _ := ev["data"].(map[string]any); d == nil || d["id"] != orderID {
				continue
			}
			verifySignature(t, s.secret, rc)
			validate(t, "WebhookEvent", rc.body)
			events = append(events, ev)
		}
		seen := map[string]bool{}
		for _, ev := range events {
			seen[ev["type"].(string)] = true
		}
		for _, w := range want {
			if !seen[w] {
				return false
			}
		}
		return true
	}, 30*time.Second, 100*time.Millisecond, "the agent platform's events %v of %s", want, orderID)
	return events
}

// requireFulfilled waits for the order to be fulfilled (read in the
// database: the order's REST shape is the orders API's, not ACP's).
func requireFulfilled(t *testing.T, env *testkit.Env, orderID string) {
	t.Helper()
	require.Eventually(t, func() bool {
		var status string
		_ = env.Server.DB.Pool.QueryRow(context.Background(), `SELECT status FROM orders WHERE id = $1`, orderID).Scan(&status)
		return status == "fulfilled"
	}, 30*time.Second, 100*time.Millisecond, "order %s fulfilled", orderID)
}

func conformanceEnv(t *testing.T, opts ...testkit.Option) *testkit.Env {
	return testkit.New(t, append([]testkit.Option{testkit.WithWorkers()}, opts...)...)
}

// Discovery: public, cached an hour, no seller identifier, the versions,
// transports, the checkout service, the discount extension, the currencies.
func TestConformanceDiscovery(t *testing.T) {
	t.Parallel()
	env := conformanceEnv(t)
	s := newSeller(t, env)
	r := env.Get("/.well-known/acp.json", "")
	require.Equal(t, 200, r.Status, "%s", r.Body)
	validate(t, "DiscoveryResponse", r.Body)
	require.Equal(t, "public, max-age=3600", r.Header.Get("Cache-Control"))
	d := r.JSON(t)
	require.Equal(t, map[string]any{"name": "acp", "version": apiVersion, "supported_versions": []any{apiVersion},
		"documentation_url": env.URL + "/docs/acp"}, d["protocol"])
	require.Equal(t, env.URL+"/acp", d["api_base_url"])
	require.Equal(t, []any{"rest", "mcp"}, d["transports"])
	caps := d["capabilities"].(map[string]any)
	require.Contains(t, caps["services"], "checkout")
	require.Equal(t, "discount", caps["extensions"].([]any)[0].(map[string]any)["name"])
	require.Contains(t, caps["supported_currencies"], "usd")
	require.Contains(t, caps["supported_currencies"], "jpy")
	require.NotContains(t, string(r.Body), s.acc.ID, "no seller identifier")
}

// The agent's walk over REST: create without email (not ready, missing),
// update with email and a discount code, a sandbox token, complete; the
// order fulfilled and the buyer mailed; the seller's order.paid webhook;
// the agent platform's signed order_create and order_update.
func TestConformanceRESTPurchase(t *testing.T) {
	t.Parallel()
	env := conformanceEnv(t)
	s := newSeller(t, env)

	r, cs := s.create(t, nil)
	require.NotEmpty(t, r.header.Get("Idempotency-Key"), "echoed")
	require.Equal(t, "600", r.header.Get("RateLimit-Limit"))
	require.NotEmpty(t, r.header.Get("RateLimit-Remaining"))
	require.NotEmpty(t, r.header.Get("RateLimit-Reset"))
	id := cs["id"].(string)
	require.Regexp(t, `^acs_`, id)
	require.Equal(t, "not_ready_for_payment", cs["status"])
	require.True(t, hasMessage(cs, "missing", "$.buyer.email"), "%s", r.body)
	require.Equal(t, "usd", cs["currency"])
	require.Equal(t, float64(s.price), totalOf(cs, "total"))
	line := cs["line_items"].([]any)[0].(map[string]any)
	require.Equal(t, s.listingID, line["item"].(map[string]any)["id"])
	caps := cs["capabilities"].(map[string]any)
	require.Equal(t, "discount", caps["extensions"].([]any)[0].(map[string]any)["name"])
	h := caps["payment"].(map[string]any)["handlers"].([]any)[0].(map[string]any)
	require.Equal(t, "sandbox_card", h["id"])
	require.Equal(t, "dev.acp.tokenized.card", h["name"])
	require.Equal(t, "sandbox", h["psp"])
	require.Equal(t, true, h["requires_delegate_payment"])
	require.Equal(t, s.acc.ID, h["config"].(map[string]any)["merchant_id"])
	fo := cs["fulfillment_options"].([]any)[0].(map[string]any)
	require.Equal(t, "digital", fo["id"])

	buyer := "ada." + testkit.Unique() + "@example.com"
	r = s.do(t, call{method: "POST", path: "/acp/checkout_sessions/" + id, key: key(), body: map[string]any{
		"buyer": map[string]any{"first_name": "Ada", "last_name": "Buyer", "email": buyer}, "discounts": map[string]any{"codes": []string{strings.ToLower(s.discount)}}}})
	require.Equal(t, 200, r.status, "%s", r.body)
	cs = validateSession(t, r.body)
	require.Equal(t, "ready_for_payment", cs["status"], "%s", r.body)
	require.False(t, hasMessage(cs, "missing", ""))
	applied := cs["discounts"].(map[string]any)["applied"].([]any)
	require.Len(t, applied, 1)
	require.Equal(t, 725.0, applied[0].(map[string]any)["amount"])
	require.Equal(t, 2175.0, totalOf(cs, "total"))

	// The retrieve is the same state.
	r = s.do(t, call{method: "GET", path: "/acp/checkout_sessions/" + id})
	require.Equal(t, 200, r.status, "%s", r.body)
	require.Equal(t, "ready_for_payment", validateSession(t, r.body)["status"])

	token := s.delegate(t, id, "4242424242424242", 2175)
	r = s.do(t, call{method: "POST", path: "/acp/checkout_sessions/" + id + "/complete", key: key(), body: paymentData(token)})
	require.Equal(t, 200, r.status, "%s", r.body)
	cs = validateSession(t, r.body)
	require.Equal(t, "completed", cs["status"])
	o := cs["order"].(map[string]any)
	orderID := o["id"].(string)
	require.Regexp(t, `^ord_`, orderID)
	require.Equal(t, id, o["checkout_session_id"])
	require.Contains(t, o["permalink_url"], env.URL+"/")

	// The seller's order: paid, from the agent, then fulfilled; the buyer mailed.
	requireFulfilled(t, env, orderID)
	var source, conn string
	var amount int64
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(),
		`SELECT source, coalesce(agent_connection_id, ''), amount FROM orders WHERE id = $1`, orderID).Scan(&source, &conn, &amount))
	require.Equal(t, [3]any{"acp", s.connID, int64(2175)}, [3]any{source, conn, amount})
	require.Eventually(t, func() bool {
		var n int
		_ = env.Server.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM mail_messages WHERE lower(to_address) = lower($1)`, buyer).Scan(&n)
		return n > 0
	}, 30*time.Second, 100*time.Millisecond, "the buyer is mailed")
	require.Eventually(t, func() bool {
		for _, rc := range s.ownHook.all() {
			if strings.Contains(string(rc.body), `"order.paid"`) && strings.Contains(string(rc.body), orderID) {
				return true
			}
		}
		return false
	}, 30*time.Second, 100*time.Millisecond, "the seller's order.paid webhook")
	// Both events arrive (the dispatcher may deliver an endpoint's records
	// concurrently, so their order of arrival is not asserted).
	events := s.agentEvents(t, orderID, "order_create", "order_update")
	for _, ev := range events {
		d := ev["data"].(map[string]any)
		require.Equal(t, id, d["checkout_session_id"])
	}
	for _, rc := range s.agentHook.all() {
		require.NotContains(t, string(rc.body), `"order.paid"`, "the agent platform gets ACP's events only")
	}

	// Retrieve after completion: completed with its order.
	r = s.do(t, call{method: "GET", path: "/acp/checkout_sessions/" + id})
	require.Equal(t, 200, r.status)
	require.Equal(t, orderID, validateSession(t, r.body)["order"].(map[string]any)["id"])
	// Complete again: a 4xx with ACP's error object.
	r = s.do(t, call{method: "POST", path: "/acp/checkout_sessions/" + id + "/complete", key: key(), body: paymentData(token)})
	require.GreaterOrEqual(t, r.status, 400)
	require.Less(t, r.status, 500)
	validate(t, "Error", r.body)
}

// The same walk through /acp/mcp with the official SDK's client.
func TestConformanceMCPPurchase(t *testing.T) {
	t.Parallel()
	env := conformanceEnv(t)
	s := newSeller(t, env)
	ctx := context.Background()
	cs := s.mcpSession(t, ctx, s.token)
	defer cs.Close()

	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	require.ElementsMatch(t, []string{"create_checkout_session", "get_checkout_session", "update_checkout_session",
		"complete_checkout_session", "cancel_checkout_session"}, names)

	meta := func(k string) map[string]any { return map[string]any{"api_version": apiVersion, "idempotency_key": k} }
	res := s.tool(t, ctx, cs, "create_checkout_session", map[string]any{"meta": meta(key()), "payload": map[string]any{
		"line_items": []any{map[string]any{"id": s.listingID, "quantity": 1}}, "currency": "usd", "capabilities": map[string]any{}}}, false)
	require.Equal(t, "not_ready_for_payment", res["status"])
	require.True(t, hasMessage(res, "missing", "$.buyer.email"))
	id := res["id"].(string)

	// A mutating tool without meta.idempotency_key is refused.
	e := s.tool(t, ctx, cs, "update_checkout_session", map[string]any{"meta": map[string]any{"api_version": apiVersion}, "id": id,
		"payload": map[string]any{"buyer": map[string]any{"email": "x@example.com"}}}, true)
	require.Equal(t, "idempotency_key_required", e["code"])
	// meta.api_version is required.
	e = s.tool(t, ctx, cs, "get_checkout_session", map[string]any{"meta": map[string]any{}, "id": id}, true)
	require.Equal(t, "missing_api_version", e["code"])

	buyer := "mcp." + testkit.Unique() + "@example.com"
	upd := map[string]any{"meta": meta(key()), "id": id, "payload": map[string]any{"buyer": map[string]any{"email": buyer},
		"discounts": map[string]any{"codes": []string{s.discount}}}}
	res = s.tool(t, ctx, cs, "update_checkout_session", upd, false)
	require.Equal(t, "ready_for_payment", res["status"])
	require.Equal(t, 2175.0, totalOf(res, "total"))
	// The same call again is a replay (REST's rules): the same session.
	again := s.tool(t, ctx, cs, "update_checkout_session", upd, false)
	require.Equal(t, res, again)

	res = s.tool(t, ctx, cs, "get_checkout_session", map[string]any{"meta": map[string]any{"api_version": apiVersion}, "id": id}, false)
	require.Equal(t, "ready_for_payment", res["status"])

	token := s.delegate(t, id, "4242424242424242", 2175)
	res = s.tool(t, ctx, cs, "complete_checkout_session", map[string]any{"meta": meta(key()), "id": id, "payload": paymentData(token)}, false)
	require.Equal(t, "completed", res["status"])
	orderID := res["order"].(map[string]any)["id"].(string)
	requireFulfilled(t, env, orderID)
	require.Eventually(t, func() bool {
		var n int
		_ = env.Server.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM mail_messages WHERE lower(to_address) = lower($1)`, buyer).Scan(&n)
		return n > 0
	}, 30*time.Second, 100*time.Millisecond, "the buyer is mailed")
	s.agentEvents(t, orderID, "order_create")

	// Cancel of a completed session: isError with ACP's error.
	e = s.tool(t, ctx, cs, "cancel_checkout_session", map[string]any{"meta": meta(key()), "id": id}, true)
	require.NotEmpty(t, e["code"])

	// Another seller's token cannot read the session: not_found.
	other := newSeller(t, env)
	ocs := other.mcpSession(t, ctx, other.token)
	defer ocs.Close()
	e = other.tool(t, ctx, ocs, "get_checkout_session", map[string]any{"meta": map[string]any{"api_version": apiVersion}, "id": id}, true)
	require.Equal(t, "not_found", e["code"])

	// A bad token: 401 with ACP's error before any MCP work.
	req, _ := http.NewRequest("POST", env.URL+"/acp/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	req.Header.Set("Authorization", "Bearer acp_nope")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	acpErr(t, reply{resp.StatusCode, resp.Header, b}, 401, "unauthorized")
}

// bearerTransport adds the connection's token to the SDK client's requests.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func (s *seller) mcpSession(t *testing.T, ctx context.Context, token string) *sdk.ClientSession {
	t.Helper()
	client := sdk.NewClient(&sdk.Implementation{Name: "conformance-agent", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: s.env.URL + "/acp/mcp",
		HTTPClient: &http.Client{Transport: bearerTransport{token}}, DisableStandaloneSSE: true}, nil)
	require.NoError(t, err)
	return cs
}

// tool calls an ACP tool; the structuredContent is validated (a session,
// or ACP's error when isError) and returned; the text content is the
// same JSON.
func (s *seller) tool(t *testing.T, ctx context.Context, cs *sdk.ClientSession, name string, args map[string]any, isError bool) map[string]any {
	t.Helper()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err)
	b, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	require.Equal(t, isError, res.IsError, "%s", b)
	require.Len(t, res.Content, 1)
	text := res.Content[0].(*sdk.TextContent).Text
	require.JSONEq(t, string(b), text, "the text content is the same JSON")
	if isError {
		validate(t, "Error", b)
	} else {
		validateSession(t, b)
	}
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	return m
}

// Headers: the bearer token, API-Version, Idempotency-Key, bounded bodies,
// flat errors on unknown routes and methods.
func TestConformanceHeadersAndErrors(t *testing.T) {
	t.Parallel()
	env := conformanceEnv(t)
	s := newSeller(t, env)
	body := map[string]any{"line_items": []any{map[string]any{"id": s.listingID}}, "currency": "usd", "capabilities": map[string]any{}}

	acpErr(t, s.do(t, call{method: "POST", path: "/acp/checkout_sessions", key: key(), body: body, header: map[string]string{"Authorization": ""}}), 401, "unauthorized")
	acpErr(t, s.do(t, call{method: "POST", path: "/acp/checkout_sessions", key: key(), body: body, token: "acp_" + strings.Repeat("x", 40)}), 401, "unauthorized")
	e := acpErr(t, s.do(t, call{method: "POST", path: "/acp/checkout_sessions", key: key(), body: body, header: map[string]string{"API-Version": ""}}), 400, "missing_api_version")
	require.Equal(t, []any{apiVersion}, e["supported_versions"])
	e = acpErr(t, s.do(t, call{method: "POST", path: "/acp/checkout_sessions", key: key(), body: body, header: map[string]string{"API-Version": "2025-09-29"}}), 400, "unsupported_api_version")
	require.Equal(t, []any{apiVersion}, e["supported_versions"])
	acpErr(t, s.do(t, call{method: "POST", path: "/acp/checkout_sessions", body: body}), 400, "idempotency_key_required")
	acpErr(t, s.do(t, call{method: "POST", path: "/acp/checkout_sessions", key: key(), body: []byte(`{"line_items":`)}), 400, "invalid")
	e = acpErr(t, s.do(t, call{method: "POST", path: "/acp/checkout_sessions", key: key(), body: map[string]any{"line_items": []any{}, "currency": "usd"}}), 400, "invalid")
	require.Equal(t, "$.line_items", e["param"])
	e = acpErr(t, s.do(t, call{method: "POST", path: "/acp/checkout_sessions", key: key(), body: map[string]any{"line_items": "x", "currency": "usd"}}), 400, "invalid")
	require.Equal(t, "$.line_items", e["param"])
	acpErr(t, s.do(t, call{method: "POST", path: "/acp/checkout_sessions", key: key(), body: bytes.Repeat([]byte(" "), 70<<10)}), 413, "request_too_large")
	acpErr(t, s.do(t, call{method: "GET", path: "/acp/checkout_sessions/acs_nope"}), 404, "not_found")
	acpErr(t, s.do(t, call{method: "GET", path: "/acp/checkout_sessions/acs_x/complete"}), 405, "method_not_allowed")
	acpErr(t, s.do(t, call{method: "GET", path: "/acp/nothing"}), 404, "not_found")
	e = acpErr(t, s.do(t, call{method: "POST", path: "/acp/checkout_sessions/acs_nope/complete", key: key(), body: map[string]any{}}), 400, "invalid")
	require.Equal(t, "$.payment_data", e["param"])
}

// Idempotency: replay (byte for byte, Idempotent-Replayed, semantically
// equal bodies too), conflict, in flight (Retry-After), keys scoped to the
// path, and a request that failed with a 5xx is not stored: its retry runs.
func TestConformanceIdempotency(t *testing.T) {
	t.Parallel()
	env := conformanceEnv(t)
	s := newSeller(t, env)
	k := key()
	body := []byte(`{"currency":"usd","line_items":[{"id":"` + s.listingID + `","quantity":1}]}`)
	first := s.do(t, call{method: "POST", path: "/acp/checkout_sessions", key: k, body: body})
	require.Equal(t, 201, first.status, "%s", first.body)
	validateSession(t, first.body)
	require.Empty(t, first.header.Get("Idempotent-Replayed"))
	replay := s.do(t, call{method: "POST", path: "/acp/checkout_sessions", key: k, body: body})
	require.Equal(t, 201, replay.status)
	require.Equal(t, "true", replay.header.Get("Idempotent-Replayed"))
	require.Equal(t, first.body, replay.body)
	// Key order and number form do not make another request (ACP §6.2).
	same := s.do(t, call{method: "POST", path: "/acp/checkout_sessions", key: k,
		body: []byte(`{ "line_items" : [ {"quantity": 1.0, "id":"` + s.listingID + `"} ], "currency":"usd" }`)})
	require.Equal(t, "true", same.header.Get("Idempotent-Replayed"))
	require.Equal(t, first.body, same.body)
	acpErr(t, s.do(t, call{method: "POST", path: "/acp/checkout_sessions", key: k, body: map[string]any{"line_items": []any{map[string]any{"id": s.listingID}}, "currency": "eur"}}), 422, "idempotency_conflict")
	id := first.json(t)["id"].(string)
	// The same key on another path is another request.
	r := s.do(t, call{method: "POST", path: "/acp/checkout_sessions/" + id, key: k, body: map[string]any{}})
	require.Equal(t, 200, r.status, "%s", r.body)
	require.Empty(t, r.header.Get("Idempotent-Replayed"))

	// In flight: the key claimed by a request still running.
	k2 := key()
	upd := []byte(`{"buyer":{"email":"inflight@example.com"}}`)
	scope := "acp:" + s.connID + ":POST /acp/checkout_sessions/" + id
	st, _, err := env.Server.DB.ClaimIdempotencyKey(context.Background(), scope, k2, acp.Fingerprint(upd), time.Now())
	require.NoError(t, err)
	require.Zero(t, st, "claimed")
	r = s.do(t, call{method: "POST", path: "/acp/checkout_sessions/" + id, key: k2, body: upd})
	acpErr(t, r, 409, "idempotency_in_flight")
	require.NotEmpty(t, r.header.Get("Retry-After"))

}

// A 5xx is never stored (ACP §6.5). Not parallel: it holds an exclusive
// lock on acp_checkout_sessions for a moment, so it runs before the
// parallel tests start. The complete blocks on the table lock, the client
// gives up, the request fails under its canceled context (a 5xx) and
// releases its key; the retry with the same key runs afresh and completes.
func TestConformanceNoStored5xx(t *testing.T) {
	env := conformanceEnv(t)
	s := newSeller(t, env)
	_, cs := s.create(t, map[string]any{"line_items": []any{map[string]any{"id": s.listingID, "quantity": 1}}, "currency": "usd",
		"buyer": map[string]any{"email": "five@example.com"}, "capabilities": map[string]any{}})
	id := cs["id"].(string)
	token := s.delegate(t, id, "4242424242424242", s.price)
	ctx := context.Background()
	tx, err := env.Server.DB.Pool.Begin(ctx)
	require.NoError(t, err)
	locked := true
	unlock := func() {
		if locked {
			locked = false
			require.NoError(t, tx.Rollback(ctx))
		}
	}
	t.Cleanup(unlock)
	_, err = tx.Exec(ctx, `LOCK TABLE acp_checkout_sessions IN ACCESS EXCLUSIVE MODE`)
	require.NoError(t, err)
	k := key()
	b, _ := json.Marshal(paymentData(token))
	req, _ := http.NewRequest("POST", env.URL+"/acp/checkout_sessions/"+id+"/complete", bytes.NewReader(b))
	req.Header.Set("Authorization", "Bearer "+s.token)
	req.Header.Set("API-Version", apiVersion)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", k)
	resp, err := (&http.Client{Timeout: time.Second}).Do(req)
	if err == nil {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		t.Fatalf("the complete answered while the table was locked: %d %s", resp.StatusCode, body)
	}
	scope := "acp:" + s.connID + ":POST /acp/checkout_sessions/" + id + "/complete"
	require.Eventually(t, func() bool {
		var n int
		_ = env.Server.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM idempotency_keys WHERE scope = $1 AND key = $2`, scope, k).Scan(&n)
		return n == 0
	}, 10*time.Second, 50*time.Millisecond, "the failed request's key is released, not stored")
	unlock()
	r := s.do(t, call{method: "POST", path: "/acp/checkout_sessions/" + id + "/complete", key: k, body: paymentData(token)})
	require.Equal(t, 200, r.status, "%s", r.body)
	require.Empty(t, r.header.Get("Idempotent-Replayed"), "run afresh")
	require.Equal(t, "completed", validateSession(t, r.body)["status"])
}

// A declined token leaves the session open with payment_declined; an
// expired session refuses complete; cancel, then a second cancel is 405;
// another seller's listing is not_found at its line; a disabled connection
// is refused at once.
func TestConformanceRefusals(t *testing.T) {
	t.Parallel()
	env := conformanceEnv(t)
	s := newSeller(t, env)
	ready := func() string {
		_, cs := s.create(t, map[string]any{"line_items": []any{map[string]any{"id": s.listingID, "quantity": 1}}, "currency": "usd",
			"buyer": map[string]any{"email": "ref." + testkit.Unique() + "@example.com"}, "capabilities": map[string]any{}})
		require.Equal(t, "ready_for_payment", cs["status"])
		return cs["id"].(string)
	}

	// Declined.
	id := ready()
	token := s.delegate(t, id, "4000000000000002", s.price)
	r := s.do(t, call{method: "POST", path: "/acp/checkout_sessions/" + id + "/complete", key: key(), body: paymentData(token)})
	require.Equal(t, 200, r.status, "%s", r.body)
	cs := validateSession(t, r.body)
	require.NotEqual(t, "completed", cs["status"])
	require.True(t, hasMessage(cs, "payment_declined", ""), "%s", r.body)

	// Cancel, then cancel again: 405; complete on a canceled session: 4xx.
	id = ready()
	token = s.delegate(t, id, "4242424242424242", s.price)
	r = s.do(t, call{method: "POST", path: "/acp/checkout_sessions/" + id + "/cancel", key: key()})
	require.Equal(t, 200, r.status, "%s", r.body)
	require.Equal(t, "canceled", validateSession(t, r.body)["status"])
	r = s.do(t, call{method: "POST", path: "/acp/checkout_sessions/" + id + "/cancel", key: key(), body: map[string]any{"intent_trace": map[string]any{"reason_code": "other"}}})
	require.Equal(t, 405, r.status, "%s", r.body)
	validate(t, "Error", r.body)
	r = s.do(t, call{method: "POST", path: "/acp/checkout_sessions/" + id + "/complete", key: key(), body: paymentData(token)})
	require.True(t, r.status >= 400 && r.status < 500, "%d %s", r.status, r.body)
	validate(t, "Error", r.body)

	// Another seller's listing: a not_found message at its line.
	other := newSeller(t, env)
	r, cs = s.create(t, map[string]any{"line_items": []any{map[string]any{"id": other.listingID, "quantity": 1}}, "currency": "usd", "capabilities": map[string]any{}})
	require.True(t, hasMessage(cs, "not_found", "$.line_items[0].id"), "%s", r.body)
	require.NotEqual(t, "ready_for_payment", cs["status"])

	// An unknown discount code: the session stays usable, and a warning
	// names the code's ACP rejection reason at its path, as the discount
	// extension's rejected list does.
	r, cs = s.create(t, map[string]any{"line_items": []any{map[string]any{"id": s.listingID, "quantity": 1}}, "currency": "usd",
		"discounts": map[string]any{"codes": []string{"NO-SUCH-CODE"}}, "capabilities": map[string]any{}})
	rejected := cs["discounts"].(map[string]any)["rejected"].([]any)
	require.Len(t, rejected, 1, "%s", r.body)
	reason := rejected[0].(map[string]any)["reason"]
	require.Equal(t, "discount_code_invalid", reason)
	warned := false
	for _, m := range messages(cs) {
		if m["type"] == "warning" && m["code"] == reason && m["param"] == "$.discounts.codes[0]" {
			warned = true
		}
	}
	require.True(t, warned, "a warning with the rejection's code: %s", r.body)

	// Disabled: 401 at once, REST and MCP.
	id = ready()
	p := env.Do(testkit.Request{Method: "PATCH", Path: "/v1/agent-connections/" + s.connID, Key: s.acc.Key, Body: map[string]any{"status": "disabled"}})
	require.Equal(t, 200, p.Status, "%s", p.Body)
	acpErr(t, s.do(t, call{method: "GET", path: "/acp/checkout_sessions/" + id}), 401, "unauthorized")
	acpErr(t, s.do(t, call{method: "POST", path: "/acp/checkout_sessions/" + id, key: key(), body: map[string]any{}}), 401, "unauthorized")
	req, _ := http.NewRequest("POST", env.URL+"/acp/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	req.Header.Set("Authorization", "Bearer "+s.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	acpErr(t, reply{resp.StatusCode, resp.Header, b}, 401, "unauthorized")
}

// An unpaid session expires after CHECKOUT_EXPIRY; complete then refuses.
func TestConformanceExpiredSession(t *testing.T) {
	t.Parallel()
	env := conformanceEnv(t, testkit.WithConfig(func(c *config.Config) { c.CheckoutExpiry = 2 * time.Second }))
	s := newSeller(t, env)
	_, cs := s.create(t, map[string]any{"line_items": []any{map[string]any{"id": s.listingID, "quantity": 1}}, "currency": "usd",
		"buyer": map[string]any{"email": "late@example.com"}, "capabilities": map[string]any{}})
	id := cs["id"].(string)
	token := s.delegate(t, id, "4242424242424242", s.price)
	require.Eventually(t, func() bool {
		r := s.do(t, call{method: "GET", path: "/acp/checkout_sessions/" + id})
		return r.status == 200 && validateSession(t, r.body)["status"] == "expired"
	}, 60*time.Second, 250*time.Millisecond)
	r := s.do(t, call{method: "POST", path: "/acp/checkout_sessions/" + id + "/complete", key: key(), body: paymentData(token)})
	require.True(t, r.status >= 400 && r.status < 500, "%d %s", r.status, r.body)
	validate(t, "Error", r.body)
}

// 20 concurrent completes of one session (the same and different
// Idempotency-Keys): one order, one charge; every answer is a completed
// session of that order or ACP's error.
func TestConformanceConcurrentCompletes(t *testing.T) {
	t.Parallel()
	env := conformanceEnv(t)
	s := newSeller(t, env)
	_, cs := s.create(t, map[string]any{"line_items": []any{map[string]any{"id": s.listingID, "quantity": 1}}, "currency": "usd",
		"buyer": map[string]any{"email": "race@example.com"}, "capabilities": map[string]any{}})
	id := cs["id"].(string)
	token := s.delegate(t, id, "4242424242424242", s.price)
	shared := key()
	replies := make([]reply, 20)
	var wg sync.WaitGroup
	for i := range replies {
		k := shared
		if i%2 == 1 {
			k = key()
		}
		wg.Go(func() {
			replies[i] = s.do(t, call{method: "POST", path: "/acp/checkout_sessions/" + id + "/complete", key: k, body: paymentData(token)})
		})
	}
	wg.Wait()
	orders := map[string]bool{}
	for _, r := range replies {
		if r.status == 200 {
			c := validateSession(t, r.body)
			require.Equal(t, "completed", c["status"], "%s", r.body)
			orders[c["order"].(map[string]any)["id"].(string)] = true
			continue
		}
		require.True(t, r.status >= 400 && r.status < 500, "%d %s", r.status, r.body)
		validate(t, "Error", r.body)
	}
	require.Len(t, orders, 1, "one order")
	var n, paid int
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(),
		`SELECT count(*), count(*) FILTER (WHERE paid_at IS NOT NULL) FROM orders WHERE account_id = $1`, s.acc.ID).Scan(&n, &paid))
	require.Equal(t, 1, n, "one order")
	require.Equal(t, 1, paid, "paid once")
	var charges int
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(),
		`SELECT count(*) FROM sandbox_vault_tokens WHERE used_at IS NOT NULL AND checkout_session_id = $1`, id).Scan(&charges))
	require.Equal(t, 1, charges, "one charge")
	_ = fmt.Sprint
}

// The guide (docs/acp.md) is served as HTML and Markdown, and the landing
// page, llms.txt and the discovery document point at it.
func TestACPGuide(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	page := env.Get("/docs/acp", "")
	require.Equal(t, 200, page.Status)
	require.Contains(t, string(page.Body), "<h1>Buyers' agents: the Agentic Commerce Protocol</h1>")
	require.Contains(t, string(page.Body), "<table>")
	md := env.Get("/docs/acp.md", "")
	require.Equal(t, 200, md.Status)
	require.True(t, strings.HasPrefix(string(md.Body), "# Buyers' agents: the Agentic Commerce Protocol\n"))
	require.Contains(t, string(env.Get("/", "").Body), `href="`+env.URL+`/docs/acp"`)
	llms := string(env.Get("/llms.txt", "").Body)
	require.Contains(t, llms, env.URL+"/docs/acp.md")
	require.Contains(t, llms, env.URL+"/.well-known/acp.json")
}
