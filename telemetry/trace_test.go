package telemetry_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"commerce/config"
	"commerce/testkit"
)

// This package's tests have a database of their own: no other test's
// workers take their jobs, emails or webhook deliveries (which would then
// be traced, or not, by another service).
func TestMain(m *testing.M) { testkit.Main(m) }

// spans is what the in-memory exporter holds, with lookups.
type spans struct {
	t    *testing.T
	all  tracetest.SpanStubs
	byID map[trace.SpanID]tracetest.SpanStub
}

func snapshot(t *testing.T, exp *tracetest.InMemoryExporter) spans {
	s := spans{t: t, all: exp.GetSpans(), byID: map[trace.SpanID]tracetest.SpanStub{}}
	for _, sp := range s.all {
		s.byID[sp.SpanContext.SpanID()] = sp
	}
	return s
}

// named is the one span called name; it fails the test unless there is
// exactly one.
func (s spans) named(name string) tracetest.SpanStub {
	s.t.Helper()
	var found []tracetest.SpanStub
	for _, sp := range s.all {
		if sp.Name == name {
			found = append(found, sp)
		}
	}
	require.Len(s.t, found, 1, "spans named %q among %v", name, s.names())
	return found[0]
}

func (s spans) has(name string) bool {
	for _, sp := range s.all {
		if sp.Name == name {
			return true
		}
	}
	return false
}

func (s spans) names() []string {
	out := make([]string, len(s.all))
	for i, sp := range s.all {
		out[i] = sp.Name
	}
	return out
}

// within reports whether sp is anc or below it (a descendant in the same
// trace, through the parents the exporter holds).
func (s spans) within(sp, anc tracetest.SpanStub) bool {
	for {
		if sp.SpanContext.SpanID() == anc.SpanContext.SpanID() {
			return true
		}
		p, ok := s.byID[sp.Parent.SpanID()]
		if !ok || !sp.Parent.IsValid() {
			return false
		}
		sp = p
	}
}

// below lists the spans under anc (not anc) whose instrumentation scope
// is scope.
func (s spans) below(anc tracetest.SpanStub, scope string) []tracetest.SpanStub {
	var out []tracetest.SpanStub
	for _, sp := range s.all {
		if sp.InstrumentationScope.Name == scope && sp.SpanContext.SpanID() != anc.SpanContext.SpanID() && s.within(sp, anc) {
			out = append(out, sp)
		}
	}
	return out
}

// linksTo reports whether sp has a link to target.
func linksTo(sp, target tracetest.SpanStub) bool {
	for _, l := range sp.Links {
		if l.SpanContext.SpanID() == target.SpanContext.SpanID() && l.SpanContext.TraceID() == target.SpanContext.TraceID() {
			return true
		}
	}
	return false
}

// buyer is a browser that sends one trace's traceparent with each request
// (as a page's own tracing, or a proxy in front, does): the service
// continues it.
type buyer struct {
	t           *testing.T
	env         *testkit.Env
	traceparent string
}

func (b buyer) do(method, path string, form url.Values) (*http.Response, string) {
	b.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	target := path
	if !strings.HasPrefix(path, "http") {
		target = b.env.URL + path
	}
	req, err := http.NewRequest(method, target, body)
	require.NoError(b.t, err)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", b.env.URL)
	}
	req.Header.Set("traceparent", b.traceparent)
	c := *b.env.HTTP.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Do(req)
	require.NoError(b.t, err)
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	require.NoError(b.t, err)
	return resp, string(out)
}

// One sandbox purchase, traced with the SDK's in-memory exporter: the
// product page, the checkout and the payment continue the buyer's trace;
// the payment event, the order's fulfilment and the SQL under them are in
// it; the download email's send and the order.paid delivery (another
// goroutine, after the commit) link to the spans that stored them; the
// buyer's library sign-in enqueues a River job whose span links to the
// insert made in that request, and the job's email links to the job.
// A GraphQL operation gets a span named by its operation, with its cost,
// and its resolver fields spans, not its plain fields.
func TestPurchaseTrace(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	env := testkit.New(t, testkit.WithWorkers(), testkit.WithTracing(tp))

	// The seller: operational, an order.paid endpoint, a static listing.
	acc := env.NewAccount()
	onb := env.Post("/v1/account/processor/connect", acc.Key, nil)
	require.Equal(t, 200, onb.Status, "%s", onb.Body)
	seller := buyer{t: t, env: env, traceparent: "00-00000000000000000000000000000001-0000000000000001-01"}
	resp, _ := seller.do("POST", onb.JSON(t)["url"].(string), url.Values{"currency": {"usd"}})
	require.Equal(t, 303, resp.StatusCode)
	var mu sync.Mutex
	var hooks []http.Header
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var ev map[string]any
		_ = json.NewDecoder(r.Body).Decode(&ev)
		if ev["type"] == "order.paid" {
			mu.Lock()
			hooks = append(hooks, r.Header.Clone())
			mu.Unlock()
		}
	}))
	t.Cleanup(receiver.Close)
	require.Equal(t, 201, env.Post("/v1/webhooks", acc.Key, map[string]any{"url": receiver.URL, "events": []string{"order.paid"}}).Status)
	r := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Traced Guide " + testkit.Unique(), "price": 1500,
		"deliverables": []any{map[string]any{"type": "text", "value": "the guide"}}})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	id := r.JSON(t)["id"].(string)
	r = env.Post("/v1/listings/"+id+"/publish", acc.Key, nil)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	slug := r.JSON(t)["slug"].(string)
	exp.Reset()

	// The buyer's session: one trace of theirs.
	const buyerTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
	b := buyer{t: t, env: env, traceparent: "00-" + buyerTrace + "-00f067aa0ba902b7-01"}
	resp, _ = b.do("GET", "/p/"+slug, nil)
	require.Equal(t, 200, resp.StatusCode)
	email := "traced-" + testkit.Unique() + "@example.com"
	resp, body := b.do("POST", "/p/"+slug+"/checkout", url.Values{"email": {email}})
	require.Equal(t, 303, resp.StatusCode, body)
	checkout := resp.Header.Get("Location")
	require.Contains(t, checkout, "/sandbox/checkout/")
	resp, _ = b.do("GET", checkout, nil)
	require.Equal(t, 200, resp.StatusCode)
	resp, _ = b.do("POST", checkout, url.Values{"outcome": {"paid"}})
	require.Equal(t, 303, resp.StatusCode)

	// The email and the webhook go out on the dispatchers' goroutines.
	var s spans
	require.Eventually(t, func() bool {
		s = snapshot(t, exp)
		return s.has("mail.send download_link") && s.has("webhook.deliver order.paid")
	}, 15*time.Second, 20*time.Millisecond, "no email or webhook attempt span")

	inTrace := func(sp tracetest.SpanStub) {
		t.Helper()
		require.Equal(t, buyerTrace, sp.SpanContext.TraceID().String(), "%s is not in the buyer's trace", sp.Name)
	}
	page := s.named("GET /p/{slug}")
	checkoutSpan := s.named("POST /p/{slug}/checkout")
	pay := s.named("POST /sandbox/checkout/{session_id}")
	for _, sp := range []tracetest.SpanStub{page, checkoutSpan, pay} {
		inTrace(sp)
		require.Equal(t, "00f067aa0ba902b7", sp.Parent.SpanID().String(), "%s continues the incoming traceparent", sp.Name)
		require.True(t, sp.Parent.IsRemote())
		require.Equal(t, trace.SpanKindServer, sp.SpanKind)
	}
	// SQL (pgx) under the checkout and the payment.
	require.NotEmpty(t, s.below(checkoutSpan, "github.com/exaring/otelpgx"), "no SQL span under the checkout")
	require.NotEmpty(t, s.below(pay, "github.com/exaring/otelpgx"), "no SQL span under the payment")

	event := s.named("processor.event")
	inTrace(event)
	require.True(t, s.within(event, pay), "the payment event is handled in the sandbox's payment request")
	fulfil := s.named("order.fulfil")
	require.True(t, s.within(fulfil, event), "the order is fulfilled in the payment event")

	mailSpan := s.named("mail.send download_link")
	require.True(t, linksTo(mailSpan, fulfil), "the download email's send links to the fulfilment that stored it")
	hook := s.named("webhook.deliver order.paid")
	require.True(t, linksTo(hook, event), "the order.paid delivery links to the payment event that recorded it")
	require.Equal(t, trace.SpanKindClient, hook.SpanKind)
	post := s.below(hook, "go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp")
	require.Len(t, post, 1, "the delivery's POST is a client span under the attempt")
	mu.Lock()
	require.Len(t, hooks, 1)
	require.Empty(t, hooks[0].Get("traceparent"), "no trace context goes to a seller's endpoint")
	mu.Unlock()

	// The buyer's library: the sign-in request enqueues a River job, and
	// the job mails the link.
	exp.Reset()
	resp, body = b.do("POST", "/library/sign-in", url.Values{"email": {email}})
	require.Equal(t, 200, resp.StatusCode, body)
	require.Eventually(t, func() bool {
		s = snapshot(t, exp)
		return s.has("mail.send library_sign_in")
	}, 15*time.Second, 20*time.Millisecond, "no sign-in email span")
	signIn := s.named("POST /library/sign-in")
	inTrace(signIn)
	insert := s.named("river.insert_many")
	require.True(t, s.within(insert, signIn), "the job is inserted in the request")
	work := s.named("river.work/library_sign_in")
	require.True(t, linksTo(work, insert), "the job's span links to the insert in the request")
	require.True(t, linksTo(s.named("mail.send library_sign_in"), work), "the job's email links to the job")

	// GraphQL: the operation, named, with its cost; resolver fields only.
	exp.Reset()
	r = env.Post("/graphql", acc.Key, map[string]any{"query": "query Seller { viewer { id email } }"})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	s = snapshot(t, exp)
	op := s.named("query Seller")
	require.True(t, s.within(op, s.named("POST /graphql")))
	var cost int64 = -1
	for _, a := range op.Attributes {
		if a.Key == "graphql.operation.cost" {
			cost = a.Value.AsInt64()
		}
	}
	require.Equal(t, int64(1), cost, "the operation's cost is an attribute")
	require.True(t, s.within(s.named("Query.viewer"), op), "a resolver field has a span under the operation")
	require.False(t, s.has("Account.email"), "a plain field has none")
	require.False(t, s.has("Account.id"), "a plain field has none")
}

// A processor call (Stripe, here stripe-mock) is a client span under the
// request that made it, and carries no trace context to the processor.
func TestProcessorCallTrace(t *testing.T) {
	mock := testkit.StripeMock(t)
	var sent []string
	var mu sync.Mutex
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		sent = append(sent, r.Header.Get("traceparent"))
		mu.Unlock()
		u, _ := url.Parse(mock)
		httputil.NewSingleHostReverseProxy(u).ServeHTTP(w, r)
	}))
	t.Cleanup(proxy.Close)
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	env := testkit.New(t, testkit.WithTracing(tp), testkit.WithConfig(func(c *config.Config) {
		c.Processor = "stripe"
		c.StripeSecretKey = testkit.StripeMockKey
		c.StripeWebhookSecret = "whsec_test"
		c.StripeAPIBase = proxy.URL
	}))
	acc := env.NewAccount()
	exp.Reset()
	r := env.Post("/v1/account/processor/connect", acc.Key, nil)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	s := snapshot(t, exp)
	connect := s.named("POST /v1/account/processor/connect")
	calls := s.below(connect, "go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp")
	require.NotEmpty(t, calls, "no client span for the Stripe calls among %v", s.names())
	for _, c := range calls {
		require.Equal(t, trace.SpanKindClient, c.SpanKind)
	}
	mu.Lock()
	defer mu.Unlock()
	require.NotEmpty(t, sent)
	for _, h := range sent {
		require.Empty(t, h, "no trace context goes to the processor")
	}
}
