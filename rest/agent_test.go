package rest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"

	"commerce/testkit"
)

// The agent end-to-end tests (issue 12, CONTRACT §7): an agent that knows
// only the base URL, the three bootstrap steps and the sandbox mailbox
// follows readiness.next alone — from an email address to an operational
// account, a published listing, a buyer's sandbox payment on the product
// page, and the fulfilled external order. It executes each next action's
// resolve as given (filling only its inputs), re-reads through refresh, and
// never calls anything readiness did not name: every request it sends is
// recorded and checked. Human actions are followed like a browser.
//
// The agent is protocol-neutral: an agentDriver speaks REST or GraphQL
// (an MCP driver plugs in the same way).

// agentDriver is how the agent talks to the service.
type agentDriver interface {
	// Bootstrap runs the three bootstrap steps for email (passcode reads
	// the mailbox) and returns the key and the account's readiness.
	Bootstrap(t *testing.T, email string, passcode func() string) (key string, readiness map[string]any)
	// Execute performs an api action's resolve in this protocol, with the
	// human's values set at the inputs' paths; it returns the result
	// object (its readiness member, when it has one, is the changed
	// thing's readiness).
	Execute(t *testing.T, resolve map[string]any, values map[string]any) map[string]any
	// Refresh reads a readiness object again through its refresh.
	Refresh(t *testing.T, refresh map[string]any) map[string]any
	// Named is the identity of the call a resolve or refresh names, as
	// Calls records it.
	Named(call map[string]any) string
	// Calls are the identities of every request the driver sent, in order;
	// Bootstrapped are those of the bootstrap steps.
	Calls() []string
	Bootstrapped() []string
}

// agentAnswers are what the agent's human says when asked for inputs.
var agentAnswers = map[string]any{
	"title":                 "Hand-knit sock pattern",
	"price":                 1200,
	"type":                  "text",
	"value":                 "Your pattern code: SOCK-2026",
	"deliverables[0].type":  "text",
	"deliverables[0].value": "Your pattern code: SOCK-2026",
	// offer_to_agents (CONTRACT §25): the agent platform's name and webhook URL.
	"name":        "Shopping Assistant",
	"webhook_url": "https://agents.example.com/acp/webhooks",
}

// graphQLPath is an input's path as GraphQL (and MCP, its arguments) spell
// it: each field in camelCase (webhook_url is webhookUrl).
func graphQLPath(name string) string {
	parts := strings.Split(name, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

func TestAgentFollowsReadinessOverREST(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers())
	runAgent(t, env, newRESTDriver(env))
}

func TestAgentFollowsReadinessOverGraphQL(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers())
	runAgent(t, env, newGraphQLDriver(env))
}

// runAgent is the whole journey, for any driver.
func runAgent(t *testing.T, env *testkit.Env, d agentDriver) {
	email := uniqueEmail("agent")
	key, account := d.Bootstrap(t, email, func() string { return mailboxPasscode(t, env, email) })
	a := &agent{t: t, env: env, d: d, named: map[string]bool{}}
	a.see(account)

	// Follow the account's readiness until nothing is next: operational,
	// with a published listing.
	account = a.follow(account)
	require.Equal(t, true, account["operational"], "the account is operational")
	require.NotEmpty(t, a.productURL, "the agent published a listing with a product page")
	require.Contains(t, a.codes, "connect_stripe")
	require.Contains(t, a.codes, "enable_charges")
	require.Contains(t, a.codes, "publish_listing")

	// A buyer pays on the product page, like a person.
	buyer := uniqueEmail("buyer")
	orderID := buyOnPages(t, env, a.productURL, buyer)

	// The sale appears in the account's readiness; the agent fulfills it.
	deadline := time.Now().Add(15 * time.Second)
	for account["next"] == nil || !strings.EqualFold(account["next"].(string), "fulfill_order") {
		require.True(t, time.Now().Before(deadline), "the paid order never appeared in readiness: %v", account)
		time.Sleep(100 * time.Millisecond)
		account = a.d.Refresh(t, account["refresh"].(map[string]any))
		a.see(account)
	}
	account = a.follow(account)
	require.Nil(t, account["next"], "nothing left to do")

	// The test's own look (not the agent's): the order is fulfilled.
	o := env.Get("/v1/orders/"+orderID, key).JSON(t)
	require.Equal(t, "fulfilled", o["status"])
	require.Equal(t, buyer, o["buyer_email"])
	require.Equal(t, "webhook", o["content_type"], "an external order, fulfilled through the API")

	// Every call the agent made was named by readiness (or bootstrap).
	allowed := map[string]bool{}
	for _, c := range d.Bootstrapped() {
		allowed[c] = true
	}
	for c := range a.named {
		allowed[c] = true
	}
	calls := d.Calls()
	require.NotEmpty(t, calls)
	for _, c := range calls {
		require.True(t, allowed[c], "the agent called something readiness did not name: %s", c)
	}
	t.Logf("%d calls, %d actions: %v", len(calls), len(a.codes), a.codes)
}

type agent struct {
	t     *testing.T
	env   *testkit.Env
	d     agentDriver
	named map[string]bool
	codes []string
	// productURL is the url of the last published listing the agent saw.
	productURL string
}

// see remembers every call a readiness object names: its refresh and its
// actions' resolves.
func (a *agent) see(r map[string]any) {
	a.t.Helper()
	ref, ok := r["refresh"].(map[string]any)
	require.True(a.t, ok, "every readiness object carries refresh: %v", r)
	a.named[a.d.Named(ref)] = true
	for _, x := range r["actions"].([]any) {
		res := x.(map[string]any)["resolve"].(map[string]any)
		if strings.EqualFold(res["method"].(string), "redirect") {
			continue
		}
		a.named[a.d.Named(res)] = true
	}
}

// follow acts on readiness.next until it is null. A result that carries
// another thing's readiness (a listing created from the account's action,
// an order fulfilled) is followed first; then the agent re-reads the one
// it came from through refresh.
func (a *agent) follow(r map[string]any) map[string]any {
	t := a.t
	t.Helper()
	stack := []map[string]any{r}
	for steps := 0; ; steps++ {
		require.Less(t, steps, 20, "readiness does not converge: %v", stack[len(stack)-1])
		top := stack[len(stack)-1]
		next, _ := top["next"].(string)
		if next == "" {
			if len(stack) == 1 {
				return top
			}
			stack = stack[:len(stack)-1]
			up := a.d.Refresh(t, stack[len(stack)-1]["refresh"].(map[string]any))
			a.see(up)
			stack[len(stack)-1] = up
			continue
		}
		action := actionOf(t, top, next)
		a.codes = append(a.codes, strings.ToLower(next))
		res := action["resolve"].(map[string]any)
		if strings.EqualFold(action["kind"].(string), "human") {
			humanFollows(t, a.env, res["url"].(string))
			again := a.d.Refresh(t, top["refresh"].(map[string]any))
			a.see(again)
			stack[len(stack)-1] = again
			continue
		}
		values := map[string]any{}
		for _, in := range res["inputs"].([]any) {
			name := in.(map[string]any)["name"].(string)
			v, ok := agentAnswers[name]
			require.True(t, ok, "the human was asked for %q", name)
			values[name] = v
		}
		out := a.d.Execute(t, res, values)
		if u, ok := out["url"].(string); ok && strings.EqualFold(stringOf(out["status"]), "published") {
			a.productURL = u
		}
		got, ok := out["readiness"].(map[string]any)
		if !ok {
			got = a.d.Refresh(t, top["refresh"].(map[string]any))
		}
		a.see(got)
		if endpointOf(got) == endpointOf(top) {
			stack[len(stack)-1] = got
		} else {
			stack = append(stack, got)
		}
	}
}

func stringOf(v any) string { s, _ := v.(string); return s }

func endpointOf(r map[string]any) string {
	return r["refresh"].(map[string]any)["endpoint"].(string)
}

func actionOf(t *testing.T, r map[string]any, code string) map[string]any {
	t.Helper()
	for _, x := range r["actions"].([]any) {
		if a := x.(map[string]any); a["code"] == code {
			return a
		}
	}
	require.Failf(t, "next names no action", "%s in %v", code, r)
	return nil
}

// setPath sets a value at a param-notation path (deliverables[0].value)
// inside obj; the path must exist (inputs name values the call carries).
func setPath(t *testing.T, obj map[string]any, path string, v any) {
	t.Helper()
	steps := strings.Split(path, ".")
	cur := any(obj)
	for i, step := range steps {
		m := regexp.MustCompile(`^([A-Za-z_]+)(?:\[(\d+)\])?$`).FindStringSubmatch(step)
		require.NotNil(t, m, "path %q", path)
		o, ok := cur.(map[string]any)
		require.True(t, ok, "%s: %s is not in an object", path, step)
		last := i == len(steps)-1
		if m[2] == "" {
			_, exists := o[m[1]]
			require.True(t, exists, "input %s names nothing in %v", path, obj)
			if last {
				o[m[1]] = v
				return
			}
			cur = o[m[1]]
			continue
		}
		list, ok := o[m[1]].([]any)
		n, _ := strconv.Atoi(m[2])
		require.True(t, ok && n < len(list), "input %s names nothing in %v", path, obj)
		if last {
			list[n] = v
			return
		}
		cur = list[n]
	}
}

// copyJSON is a deep copy through JSON (what an agent holds is JSON).
func copyJSON(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	var out any
	require.NoError(t, json.Unmarshal(b, &out))
	return out
}

// recorder is a transport that records every request the agent sends:
// "METHOD /path" for REST, "graphql <query>" for /graphql.
type recorder struct {
	mu    sync.Mutex
	calls []string
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	id := req.Method + " " + req.URL.Path
	if req.URL.Path == "/graphql" && req.Body != nil {
		b, _ := io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(b))
		var body struct {
			Query string `json:"query"`
		}
		_ = json.Unmarshal(b, &body)
		id = "graphql " + body.Query
	}
	r.mu.Lock()
	r.calls = append(r.calls, id)
	r.mu.Unlock()
	return http.DefaultTransport.RoundTrip(req)
}

func (r *recorder) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.calls...)
}

// restDriver speaks the /v1 facade.
type restDriver struct {
	env    *testkit.Env
	rec    *recorder
	client *http.Client
	key    string
	boot   int
}

func newRESTDriver(env *testkit.Env) *restDriver {
	rec := &recorder{}
	return &restDriver{env: env, rec: rec, client: &http.Client{Transport: rec, Timeout: 30 * time.Second}}
}

func (d *restDriver) do(t *testing.T, method, path string, body any) (int, map[string]any) {
	t.Helper()
	var raw []byte
	if body != nil {
		var err error
		raw, err = json.Marshal(body)
		require.NoError(t, err)
	}
	req, err := http.NewRequest(method, d.env.URL+path, bytes.NewReader(raw))
	require.NoError(t, err)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if d.key != "" {
		req.Header.Set("Authorization", "Bearer "+d.key)
	}
	resp, err := d.client.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	vreq, _ := http.NewRequest(method, d.env.URL+path, bytes.NewReader(raw))
	testkit.ValidateResponse(t, vreq, &testkit.Response{Status: resp.StatusCode, Header: resp.Header, Body: b})
	var out map[string]any
	if len(b) > 0 {
		require.NoError(t, json.Unmarshal(b, &out), "%s", b)
	}
	return resp.StatusCode, out
}

func (d *restDriver) Bootstrap(t *testing.T, email string, passcode func() string) (string, map[string]any) {
	t.Helper()
	st, s := d.do(t, "POST", "/v1/bootstrap", map[string]any{"email": email})
	require.Equal(t, 200, st, "%v", s)
	st, v := d.do(t, "POST", "/v1/bootstrap/verify", map[string]any{"session_id": s["session_id"], "code": passcode()})
	require.Equal(t, 200, st, "%v", v)
	st, store := d.do(t, "POST", "/v1/bootstrap/store", map[string]any{"session_id": s["session_id"], "display_name": "Agent Shop " + testkit.Unique()})
	require.Equal(t, 200, st, "%v", store)
	d.key = store["api_key"].(string)
	d.boot = len(d.rec.list())
	return d.key, store["readiness"].(map[string]any)
}

func (d *restDriver) Execute(t *testing.T, res map[string]any, values map[string]any) map[string]any {
	t.Helper()
	var body any
	if res["params"] != nil {
		params := copyJSON(t, res["params"]).(map[string]any)
		for name, v := range values {
			setPath(t, params, name, v)
		}
		body = params
	} else {
		require.Empty(t, values, "inputs name paths into params")
	}
	st, out := d.do(t, res["method"].(string), res["endpoint"].(string), body)
	require.True(t, st >= 200 && st < 300, "%s %s → %d %v", res["method"], res["endpoint"], st, out)
	return out
}

func (d *restDriver) Refresh(t *testing.T, ref map[string]any) map[string]any {
	t.Helper()
	require.Equal(t, "GET", ref["method"])
	st, out := d.do(t, "GET", ref["endpoint"].(string), nil)
	require.Equal(t, 200, st, "%v", out)
	return out["readiness"].(map[string]any)
}

func (d *restDriver) Named(call map[string]any) string {
	return strings.ToUpper(call["method"].(string)) + " " + call["endpoint"].(string)
}

func (d *restDriver) Calls() []string { return d.rec.list()[d.boot:] }

func (d *restDriver) Bootstrapped() []string {
	return []string{"POST /v1/bootstrap", "POST /v1/bootstrap/verify", "POST /v1/bootstrap/store"}
}

// graphQLDriver speaks /graphql, using the operations readiness gives.
type graphQLDriver struct {
	rest *restDriver // its HTTP plumbing and recorder
	boot []string
}

func newGraphQLDriver(env *testkit.Env) *graphQLDriver {
	return &graphQLDriver{rest: newRESTDriver(env)}
}

const agentReadinessSelection = `readiness { operational next
  actions { code kind priority message resolve { method endpoint url params inputs { name description example } graphql { query variables } mcp { tool arguments } } }
  refresh { method endpoint graphql { query variables } mcp { tool arguments } } }`

// post sends one operation and returns its single root field's value.
func (d *graphQLDriver) post(t *testing.T, query string, vars map[string]any) map[string]any {
	t.Helper()
	st, out := d.rest.do(t, "POST", "/graphql", map[string]any{"query": query, "variables": vars})
	require.Equal(t, 200, st, "%v", out)
	require.Nil(t, out["errors"], "%s: %v", query, out["errors"])
	data := out["data"].(map[string]any)
	require.Len(t, data, 1)
	for _, v := range data {
		m, ok := v.(map[string]any)
		require.True(t, ok, "%s returned %v", query, v)
		return m
	}
	return nil
}

func (d *graphQLDriver) Bootstrap(t *testing.T, email string, passcode func() string) (string, map[string]any) {
	t.Helper()
	d.boot = []string{
		`mutation Start($input: BootstrapInput!) { startBootstrap(input: $input) { sessionId } }`,
		`mutation Verify($input: BootstrapVerifyInput!) { verifyBootstrap(input: $input) { status } }`,
		`mutation Store($input: BootstrapStoreInput!) { completeBootstrap(input: $input) { apiKey ` + agentReadinessSelection + ` } }`,
	}
	s := d.post(t, d.boot[0], map[string]any{"input": map[string]any{"email": email}})
	d.post(t, d.boot[1], map[string]any{"input": map[string]any{"sessionId": s["sessionId"], "code": passcode()}})
	store := d.post(t, d.boot[2], map[string]any{"input": map[string]any{"sessionId": s["sessionId"], "displayName": "Agent Shop " + testkit.Unique()}})
	d.rest.key = store["apiKey"].(string)
	return d.rest.key, store["readiness"].(map[string]any)
}

func (d *graphQLDriver) Execute(t *testing.T, res map[string]any, values map[string]any) map[string]any {
	t.Helper()
	g := res["graphql"].(map[string]any)
	vars := copyJSON(t, g["variables"]).(map[string]any)
	if len(values) > 0 {
		input, ok := vars["input"].(map[string]any)
		require.True(t, ok, "inputs name paths into variables.input: %v", vars)
		for name, v := range values {
			setPath(t, input, graphQLPath(name), v)
		}
	}
	return d.post(t, g["query"].(string), vars)
}

func (d *graphQLDriver) Refresh(t *testing.T, ref map[string]any) map[string]any {
	t.Helper()
	g := ref["graphql"].(map[string]any)
	out := d.post(t, g["query"].(string), g["variables"].(map[string]any))
	return out["readiness"].(map[string]any)
}

func (d *graphQLDriver) Named(call map[string]any) string {
	return "graphql " + call["graphql"].(map[string]any)["query"].(string)
}

func (d *graphQLDriver) Calls() []string {
	all := d.rest.rec.list()
	return all[len(d.boot):]
}

func (d *graphQLDriver) Bootstrapped() []string {
	out := make([]string, len(d.boot))
	for i, q := range d.boot {
		out[i] = "graphql " + q
	}
	return out
}

// browser is a person's browser: it follows redirects one by one, keeps to
// the service, and submits forms with what a person would choose (the
// defaults, and the fields it is told).
type browser struct {
	t      *testing.T
	env    *testkit.Env
	client *http.Client
}

func newBrowser(t *testing.T, env *testkit.Env) *browser {
	c := noRedirect(env)
	return &browser{t: t, env: env, client: c}
}

// open requests a page and follows redirects; it returns the final URL,
// status and body.
func (b *browser) open(method, u string, form url.Values, referer string) (string, int, []byte) {
	t := b.t
	t.Helper()
	for hops := 0; ; hops++ {
		require.Less(t, hops, 10, "too many redirects")
		require.True(t, strings.HasPrefix(u, b.env.URL+"/"), "the person stays on the service: %s", u)
		var req *http.Request
		var err error
		if method == "POST" {
			req, err = http.NewRequest("POST", u, strings.NewReader(form.Encode()))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Origin", b.env.URL)
			req.Header.Set("Referer", referer)
		} else {
			req, err = http.NewRequest("GET", u, nil)
			require.NoError(t, err)
		}
		resp, err := b.client.Do(req)
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode >= 300 && resp.StatusCode < 400 {
			loc, err := req.URL.Parse(resp.Header.Get("Location"))
			require.NoError(t, err)
			u, method = loc.String(), "GET"
			continue
		}
		return u, resp.StatusCode, body
	}
}

// htmlForm is the first POST form of a page: where it goes and the values
// a person leaves as they are.
func htmlForm(t *testing.T, page []byte, base string) (string, url.Values) {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(page))
	require.NoError(t, err)
	var form *html.Node
	var find func(n *html.Node)
	find = func(n *html.Node) {
		if form != nil {
			return
		}
		if n.Type == html.ElementNode && n.Data == "form" && strings.EqualFold(attr(n, "method"), "post") {
			form = n
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			find(c)
		}
	}
	find(doc)
	if form == nil {
		return "", nil
	}
	values := url.Values{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			name := attr(n, "name")
			switch n.Data {
			case "input":
				typ := strings.ToLower(attr(n, "type"))
				if name != "" && ((typ != "radio" && typ != "checkbox") || hasAttr(n, "checked")) {
					values.Set(name, attr(n, "value"))
				}
			case "select":
				var first, chosen string
				for o := n.FirstChild; o != nil; o = o.NextSibling {
					if o.Type == html.ElementNode && o.Data == "option" {
						v := attr(o, "value")
						if first == "" {
							first = v
						}
						if hasAttr(o, "selected") {
							chosen = v
						}
					}
				}
				if chosen == "" {
					chosen = first
				}
				values.Set(name, chosen)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(form)
	action, err := url.Parse(base)
	require.NoError(t, err)
	target, err := action.Parse(attr(form, "action"))
	require.NoError(t, err)
	return target.String(), values
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

// humanFollows is a person doing a human action: open the url, submit each
// step's form as it comes, and end on a 200 page of the service.
func humanFollows(t *testing.T, env *testkit.Env, start string) {
	t.Helper()
	b := newBrowser(t, env)
	u, status, body := b.open("GET", start, nil, "")
	for steps := 0; status == 200; steps++ {
		require.Less(t, steps, 5, "the human flow does not end")
		action, form := htmlForm(t, body, u)
		if action == "" {
			break
		}
		u, status, body = b.open("POST", action, form, u)
	}
	if status == http.StatusNotFound && strings.HasPrefix(u, env.Server.Config.ConsoleURL+"/") {
		// The console (console/) is served by the console branch; until it
		// is part of this build its root is a 404 too, and only then is
		// a 404 on its page accepted.
		_, rootStatus, _ := b.open("GET", env.Server.Config.ConsoleURL+"/", nil, "")
		require.Equal(t, http.StatusNotFound, rootStatus, "the console is served, so %s must be a page of it", u)
		t.Logf("human flow ended at %s: the console is not part of this build (404)", u)
		return
	}
	require.Equal(t, 200, status, "the human flow ends on a page of the service: %s\n%s", u, body)
}

// buyOnPages is a buyer on the product page: submit its form with an email,
// pay on the sandbox checkout, land on the thank-you page. It returns the
// order id from the thank-you URL.
func buyOnPages(t *testing.T, env *testkit.Env, productURL, email string) string {
	t.Helper()
	b := newBrowser(t, env)
	u, status, body := b.open("GET", productURL, nil, "")
	require.Equal(t, 200, status, "%s", body)
	action, form := htmlForm(t, body, u)
	require.NotEmpty(t, action, "the product page has a buy form:\n%s", body)
	form.Set("email", email)
	u, status, body = b.open("POST", action, form, u)
	require.Equal(t, 200, status, "%s", body)
	require.Contains(t, u, "/sandbox/checkout/")
	action, form = htmlForm(t, body, u)
	require.Equal(t, "paid", form.Get("outcome"), "paying is the default choice")
	u, status, body = b.open("POST", action, form, u)
	require.Equal(t, 200, status, "%s", body)
	thanks, err := url.Parse(u)
	require.NoError(t, err)
	require.Contains(t, thanks.Path, "/thank-you")
	orderID := thanks.Query().Get("order")
	require.Regexp(t, `^ord_`, orderID)
	return orderID
}
