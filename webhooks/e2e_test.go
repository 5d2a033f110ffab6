package webhooks_test

// End-to-end webhook delivery through the whole service (its own test
// database: every service here retries on the same short schedule, since any
// of them may work another's jobs).

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
	"github.com/stretchr/testify/require"

	"commerce/config"
	"commerce/processor/sandbox"
	"commerce/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

var schedule = []time.Duration{10 * time.Millisecond, 10 * time.Millisecond, 10 * time.Millisecond,
	10 * time.Millisecond, 10 * time.Millisecond, 10 * time.Millisecond, 10 * time.Millisecond}

var fastRetries = testkit.WithConfig(func(c *config.Config) {
	c.RateLimitScale = 100 // the tests poll
	c.WebhookRetrySchedule = schedule
})

// fastRetriesLimited keeps the real rate limits.
var fastRetriesLimited = testkit.WithConfig(func(c *config.Config) { c.WebhookRetrySchedule = schedule })

// receiver records deliveries and answers with status(n) for the n-th request.
type receiver struct {
	*httptest.Server
	mu     sync.Mutex
	got    []delivery
	status func(n int) int
	block  chan struct{} // when set, requests wait on it
}

type delivery struct {
	Header http.Header
	Body   []byte
}

func newReceiver(t *testing.T, status func(n int) int) *receiver {
	rc := &receiver{status: status}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.got = append(rc.got, delivery{r.Header.Clone(), body})
		n := len(rc.got)
		block := rc.block
		rc.mu.Unlock()
		if block != nil {
			select {
			case <-block:
			case <-r.Context().Done():
				return
			}
		}
		w.WriteHeader(rc.status(n))
		_, _ = fmt.Fprintf(w, "answer %d", n)
	}))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *receiver) deliveries() []delivery {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]delivery(nil), rc.got...)
}

func always(code int) func(int) int { return func(int) int { return code } }

// seller makes an operational account with a published external listing.
func seller(t *testing.T, env *testkit.Env) (testkit.Account, string) {
	t.Helper()
	acc := env.NewAccount()
	onb := env.Post("/v1/account/processor/connect", acc.Key, nil).JSON(t)
	c := *env.HTTP.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.PostForm(onb["url"].(string), url.Values{"currency": {"usd"}})
	require.NoError(t, err)
	resp.Body.Close()
	l := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Hooked " + testkit.Unique(), "price": 1000}).JSON(t)
	r := env.Post("/v1/listings/"+l["id"].(string)+"/publish", acc.Key, nil)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	return acc, l["slug"].(string)
}

// paidOrder creates an order through the product page and pays it.
func paidOrder(t *testing.T, env *testkit.Env, slug string) string {
	t.Helper()
	c := *env.HTTP.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.PostForm(env.URL+"/p/"+slug+"/checkout", url.Values{"email": {"buyer-" + testkit.Unique() + "@example.com"}})
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 303, resp.StatusCode)
	loc := resp.Header.Get("Location")
	id, ok := sandbox.SessionOrderID(loc[strings.LastIndex(loc, "/")+1:])
	require.True(t, ok)
	require.NoError(t, env.Server.Resolver.ApplyProcessorEvent(context.Background(), sandbox.PaymentSucceeded(id, 1000, "usd")))
	return id
}

func createEndpoint(t *testing.T, env *testkit.Env, key, u string, events ...string) (string, string) {
	t.Helper()
	body := map[string]any{"url": u, "name": "receiver"}
	if events != nil {
		body["events"] = events
	}
	r := env.Post("/v1/webhooks", key, body)
	require.Equal(t, 201, r.Status, "%s", r.Body)
	e := r.JSON(t)
	return e["id"].(string), e["secret"].(string)
}

func records(t *testing.T, env *testkit.Env, key, id, query string) []map[string]any {
	t.Helper()
	r := env.Get("/v1/webhooks/"+id+"/events"+query, key)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	var out []map[string]any
	for _, d := range r.JSON(t)["data"].([]any) {
		out = append(out, d.(map[string]any))
	}
	return out
}

// A paid order's order.paid reaches the endpoint signed as Standard
// Webhooks says, with the event log's body; the record is delivered.
func TestDeliverySigned(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers(), fastRetries)
	acc, slug := seller(t, env)
	rc := newReceiver(t, always(200))
	id, secret := createEndpoint(t, env, acc.Key, rc.URL+"/hooks", "order.paid")
	require.Regexp(t, `^whsec_`, secret)
	got := env.Get("/v1/webhooks/"+id, acc.Key)
	require.NotContains(t, string(got.Body), "secret", "the secret is shown once")

	orderID := paidOrder(t, env, slug)
	require.Eventually(t, func() bool { return len(rc.deliveries()) == 1 }, 10*time.Second, 20*time.Millisecond)
	d := rc.deliveries()[0]
	wh, err := standardwebhooks.NewWebhook(secret)
	require.NoError(t, err)
	require.NoError(t, wh.Verify(d.Body, d.Header), "verified with the Standard Webhooks library")
	var ev map[string]any
	require.NoError(t, json.Unmarshal(d.Body, &ev))
	require.Equal(t, "order.paid", ev["type"])
	require.Equal(t, d.Header.Get("webhook-id"), ev["id"])
	data := ev["data"].(map[string]any)
	require.Equal(t, orderID, data["order_id"])
	require.Equal(t, "paid", data["status"])

	// The event log has the same data.
	log := env.Get("/v1/events?order_id="+orderID, acc.Key).JSON(t)["data"].([]any)
	require.Len(t, log, 1)
	require.Equal(t, ev["data"], log[0].(map[string]any)["data"])
	require.Eventually(t, func() bool {
		recs := records(t, env, acc.Key, id, "?delivered=true")
		return len(recs) == 1 && recs[0]["attempts"] == 1.0 && recs[0]["last_status_code"] == 200.0
	}, 5*time.Second, 20*time.Millisecond)

	// Test: the receiver's answer, nothing stored.
	r := env.Post("/v1/webhooks/"+id+"/test", acc.Key, nil)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	tr := r.JSON(t)
	require.Equal(t, 200.0, tr["status_code"])
	require.Equal(t, "answer 2", tr["body"])
	require.Len(t, records(t, env, acc.Key, id, ""), 1)
	var last map[string]any
	require.NoError(t, json.Unmarshal(rc.deliveries()[1].Body, &last))
	require.Equal(t, "webhook.test", last["type"])
}

// A receiver answering 500 sees 8 attempts with one webhook-id, then the
// record is failed; three such deliveries disable the endpoint and the
// account shows webhook_disabled; re-enabling works; retry re-dispatches.
func TestFailuresDisable(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers(), fastRetries)
	acc, slug := seller(t, env)
	var failing atomic.Bool
	failing.Store(true)
	rc := newReceiver(t, func(int) int {
		if failing.Load() {
			return 500
		}
		return 204
	})
	id, _ := createEndpoint(t, env, acc.Key, rc.URL, "order.paid")

	first := paidOrder(t, env, slug)
	require.Eventually(t, func() bool {
		recs := records(t, env, acc.Key, id, "?delivered=false")
		return len(recs) == 1 && recs[0]["status"] == "failed"
	}, 15*time.Second, 20*time.Millisecond)
	rec := records(t, env, acc.Key, id, "")[0]
	require.Equal(t, 8.0, rec["attempts"])
	require.Equal(t, 500.0, rec["last_status_code"])
	require.Equal(t, "HTTP 500", rec["last_error"])
	require.NotNil(t, rec["failed_at"])
	ids := map[string]bool{}
	for _, d := range rc.deliveries() {
		ids[d.Header.Get("webhook-id")] = true
	}
	require.GreaterOrEqual(t, len(rc.deliveries()), 8, "delivery is at least once")
	require.Len(t, ids, 1, "webhook-id is stable across attempts")
	require.Equal(t, 1.0, env.Get("/v1/webhooks/"+id, acc.Key).JSON(t)["consecutive_failures"])

	paidOrder(t, env, slug)
	paidOrder(t, env, slug)
	require.Eventually(t, func() bool {
		return env.Get("/v1/webhooks/"+id, acc.Key).JSON(t)["status"] == "disabled"
	}, 15*time.Second, 20*time.Millisecond)
	e := env.Get("/v1/webhooks/"+id, acc.Key).JSON(t)
	require.Equal(t, "consecutive_failures", e["disabled_reason"])
	require.Equal(t, 3.0, e["consecutive_failures"])
	ready := env.Get("/v1/account", acc.Key).JSON(t)["readiness"].(map[string]any)
	require.Contains(t, fmt.Sprint(ready["actions"]), "webhook_disabled")
	require.Contains(t, fmt.Sprint(ready["actions"]), "/v1/webhooks/"+id)

	// Re-enable: the count resets; the readiness action goes.
	failing.Store(false)
	r := env.Do(testkit.Request{Method: "PUT", Path: "/v1/webhooks/" + id, Key: acc.Key, Body: map[string]any{"status": "enabled"}})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.Equal(t, 0.0, r.JSON(t)["consecutive_failures"])
	require.Nil(t, r.JSON(t)["disabled_reason"])
	require.NotContains(t, fmt.Sprint(env.Get("/v1/account", acc.Key).JSON(t)["readiness"]), "webhook_disabled")

	// Retry the first event: cleared and delivered.
	var firstEvent string
	for _, ev := range env.Get("/v1/events?order_id="+first, acc.Key).JSON(t)["data"].([]any) {
		firstEvent = ev.(map[string]any)["id"].(string)
	}
	r = env.Post("/v1/webhooks/"+id+"/events/"+firstEvent+"/retry", acc.Key, nil)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.Equal(t, 0.0, r.JSON(t)["attempts"])
	require.Nil(t, r.JSON(t)["failed_at"])
	require.Eventually(t, func() bool {
		for _, rec := range records(t, env, acc.Key, id, "?delivered=true") {
			if rec["id"] == firstEvent {
				return true
			}
		}
		return false
	}, 10*time.Second, 20*time.Millisecond)
	requireCode(t, env.Post("/v1/webhooks/"+id+"/events/evt_01jdx0v3k7q8r9s0t1u2v3w4x5/retry", acc.Key, nil), 404, "not_found")

	// 410 Gone fails at once.
	gone := newReceiver(t, always(410))
	gid, _ := createEndpoint(t, env, acc.Key, gone.URL, "order.paid")
	paidOrder(t, env, slug)
	require.Eventually(t, func() bool {
		recs := records(t, env, acc.Key, gid, "")
		return len(recs) == 1 && recs[0]["status"] == "failed"
	}, 10*time.Second, 20*time.Millisecond)
	require.Equal(t, 1.0, records(t, env, acc.Key, gid, "")[0]["attempts"])
}

func assertEventually(f func() bool) bool {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if f() {
			return true
		}
	}
	return false
}

func requireCode(t *testing.T, r *testkit.Response, status int, code string) {
	t.Helper()
	require.Equal(t, status, r.Status, "%s", r.Body)
	require.Equal(t, code, r.JSON(t)["code"])
}

// Deleting an endpoint cancels its pending deliveries; a worker whose
// context is canceled mid-delivery loses nothing: the event is delivered
// after the restart.
//
// Not parallel: the blocked delivery must run on this test's workers, and
// every service of the package works the same queue.
func TestDeleteCancelsAndCrashSafety(t *testing.T) {
	env := testkit.New(t, testkit.WithWorkers(), fastRetries)
	acc, slug := seller(t, env)

	// A receiver that hangs: the worker is stopped mid-delivery.
	rc := newReceiver(t, always(200))
	rc.mu.Lock()
	rc.block = make(chan struct{})
	rc.mu.Unlock()
	id, _ := createEndpoint(t, env, acc.Key, rc.URL, "order.paid")
	paidOrder(t, env, slug)
	require.Eventually(t, func() bool { return len(rc.deliveries()) == 1 }, 10*time.Second, 20*time.Millisecond)
	// Stop the workers, canceling the running delivery; wait for it to end.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	env.Server.Webhooks.StopAndCancel(ctx)
	require.NoError(t, env.Server.Jobs.StopAndCancel(ctx))
	require.Empty(t, records(t, env, acc.Key, id, "?delivered=true"), "not delivered by the stopped worker")
	rc.mu.Lock()
	close(rc.block)
	rc.block = nil
	rc.mu.Unlock()

	// Another process's workers pick the delivery up.
	env2 := testkit.New(t, testkit.WithWorkers(), fastRetries)
	require.Eventually(t, func() bool {
		recs := records(t, env2, acc.Key, id, "?delivered=true")
		return len(recs) == 1
	}, 15*time.Second, 20*time.Millisecond)
	if len(rc.deliveries()) < 2 {
		t.Log(records(t, env2, acc.Key, id, ""))
	}
	require.GreaterOrEqual(t, len(rc.deliveries()), 2)

	// Delete cancels what is pending: a failing receiver with retries
	// pending, then the endpoint goes.
	slow := newReceiver(t, always(503))
	sid, _ := createEndpoint(t, env2, acc.Key, slow.URL, "order.paid")
	paidOrder(t, env2, slug)
	require.Eventually(t, func() bool { return len(slow.deliveries()) >= 1 }, 10*time.Second, 20*time.Millisecond)
	require.Equal(t, 204, env2.Do(testkit.Request{Method: "DELETE", Path: "/v1/webhooks/" + sid, Key: acc.Key}).Status)
	n := len(slow.deliveries())
	time.Sleep(300 * time.Millisecond)
	require.LessOrEqual(t, len(slow.deliveries()), n+1, "no further attempts after delete (one may be in flight)")
	requireCode(t, env2.Get("/v1/webhooks/"+sid, acc.Key), 404, "not_found")
	var status string
	require.NoError(t, env2.Server.DB.Pool.QueryRow(context.Background(),
		"SELECT status FROM webhook_deliveries WHERE endpoint_id = $1", sid).Scan(&status))
	require.Equal(t, "canceled", status)
}

// Redeliver replays an order's events; 10 per hour per order.
func TestRedeliver(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers(), fastRetriesLimited)
	acc, slug := seller(t, env)
	rc := newReceiver(t, always(200))
	id, _ := createEndpoint(t, env, acc.Key, rc.URL)
	orderID := paidOrder(t, env, slug)
	require.Eventually(t, func() bool { return len(rc.deliveries()) == 1 }, 10*time.Second, 20*time.Millisecond)
	r := env.Post("/v1/orders/"+orderID+"/redeliver", acc.Key, nil)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.Equal(t, map[string]any{"object": "redelivery", "order_id": orderID, "events": 1.0, "endpoints": 1.0}, r.JSON(t))
	// The headers of the binding rule: per order (9 left of 10), not per
	// key (99 left of 100).
	require.Equal(t, "10", r.Header.Get("RateLimit-Limit"))
	require.Equal(t, "9", r.Header.Get("RateLimit-Remaining"))
	require.NotEmpty(t, r.Header.Get("RateLimit-Reset"))
	if !assertEventually(func() bool { return len(rc.deliveries()) == 2 }) {
		t.Log(records(t, env, acc.Key, id, ""))
		t.FailNow()
	}
	require.Equal(t, rc.deliveries()[0].Header.Get("webhook-id"), rc.deliveries()[1].Header.Get("webhook-id"))
	for i := 0; i < 9; i++ {
		require.Equal(t, 200, env.Post("/v1/orders/"+orderID+"/redeliver", acc.Key, nil).Status)
	}
	r = env.Post("/v1/orders/"+orderID+"/redeliver", acc.Key, nil)
	requireCode(t, r, 429, "rate_limited")
	require.Equal(t, "10", r.Header.Get("RateLimit-Limit"))
	require.Equal(t, "0", r.Header.Get("RateLimit-Remaining"))
	require.NotEmpty(t, r.Header.Get("Retry-After"))
	requireCode(t, env.Post("/v1/orders/ord_01jdx0v3k7q8r9s0t1u2v3w4x5/redeliver", acc.Key, nil), 404, "not_found")
}

// Endpoint URLs: https only, events validated, private targets refused at
// create time when not allowed.
func TestEndpointValidation(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithConfig(func(c *config.Config) { c.AllowPrivateTargets = false }))
	acc := env.NewAccount()
	for _, u := range []string{"https://127.0.0.1/h", "https://10.1.2.3/h", "https://169.254.169.254/latest", "https://[::1]/h",
		"https://localhost/h", "http://example.com/h", "not a url"} {
		r := env.Post("/v1/webhooks", acc.Key, map[string]any{"url": u})
		requireCode(t, r, 422, "validation_error")
		require.Equal(t, "url", r.JSON(t)["param"], u)
	}
	r := env.Post("/v1/webhooks", acc.Key, map[string]any{"url": "https://93.184.216.34/h", "events": []string{"order.shipped"}})
	requireCode(t, r, 422, "validation_error")
	require.Equal(t, "events", r.JSON(t)["param"], "%s", r.Body)
	r = env.Post("/v1/webhooks", acc.Key, map[string]any{"url": "https://93.184.216.34/h"})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	require.Len(t, r.JSON(t)["events"], 6, "all six by default")
	other := env.NewAccount()
	requireCode(t, env.Get("/v1/webhooks/"+r.JSON(t)["id"].(string), other.Key), 404, "not_found")
}

// The event log pages forward with after, without gaps or repeats, while
// events are written concurrently.
func TestEventLogPaging(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, fastRetries)
	acc, slug := seller(t, env)
	var wg sync.WaitGroup
	const orders = 30
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < orders; i++ {
			paidOrder(t, env, slug)
		}
	}()
	seen := map[string]bool{}
	var after string
	deadline := time.Now().Add(30 * time.Second)
	for len(seen) < orders && time.Now().Before(deadline) {
		path := "/v1/events?limit=7&type=order.paid"
		if after != "" {
			path += "&after=" + after
		}
		r := env.Get(path, acc.Key)
		require.Equal(t, 200, r.Status, "%s", r.Body)
		for _, e := range r.JSON(t)["data"].([]any) {
			id := e.(map[string]any)["id"].(string)
			require.False(t, seen[id], "event %s repeated", id)
			seen[id] = true
			after = id
		}
	}
	wg.Wait()
	require.Len(t, seen, orders, "no gaps")
}

// The webhook API through GraphQL: the same resolvers as REST.
func TestGraphQLWebhooks(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers(), fastRetries)
	acc, slug := seller(t, env)
	rc := newReceiver(t, always(200))
	gql := func(query string, vars map[string]any) map[string]any {
		t.Helper()
		r := env.Post("/graphql", acc.Key, map[string]any{"query": query, "variables": vars})
		require.Equal(t, 200, r.Status, "%s", r.Body)
		out := r.JSON(t)
		require.Nil(t, out["errors"], "%s", r.Body)
		return out["data"].(map[string]any)
	}
	created := gql(`mutation($u: String!) { createWebhook(input: {url: $u, events: [ORDER_PAID]}) { id secret status } }`,
		map[string]any{"u": rc.URL})["createWebhook"].(map[string]any)
	require.Regexp(t, `^whsec_`, created["secret"])
	id := created["id"].(string)
	orderID := paidOrder(t, env, slug)
	require.Eventually(t, func() bool { return len(rc.deliveries()) == 1 }, 10*time.Second, 20*time.Millisecond)
	require.Eventually(t, func() bool {
		d := gql(`query($id: ID!) { webhook(id: $id) { deliveries(first: 10) { edges { node { id status attempts } } } } }`, map[string]any{"id": id})
		edges := d["webhook"].(map[string]any)["deliveries"].(map[string]any)["edges"].([]any)
		return len(edges) == 1 && edges[0].(map[string]any)["node"].(map[string]any)["status"] == "DELIVERED"
	}, 10*time.Second, 50*time.Millisecond)
	ev := gql(`query($o: ID) { viewer { events(first: 10, orderId: $o) { edges { node { id type data } } pageInfo { hasNextPage endCursor } } } }`,
		map[string]any{"o": orderID})["viewer"].(map[string]any)["events"].(map[string]any)
	edges := ev["edges"].([]any)
	require.Len(t, edges, 1)
	node := edges[0].(map[string]any)["node"].(map[string]any)
	require.Equal(t, "ORDER_PAID", node["type"])
	require.Equal(t, orderID, node["data"].(map[string]any)["order_id"])
	tr := gql(`mutation($id: ID!) { testWebhook(id: $id) { statusCode body } }`, map[string]any{"id": id})["testWebhook"].(map[string]any)
	require.Equal(t, 200.0, tr["statusCode"])
	up := gql(`mutation($id: ID!) { updateWebhook(id: $id, input: {status: DISABLED}) { status disabledReason } }`, map[string]any{"id": id})
	require.Equal(t, map[string]any{"status": "DISABLED", "disabledReason": "MANUAL"}, up["updateWebhook"])
	list := gql(`{ viewer { webhooks(first: 5) { edges { node { id status } } } } }`, nil)
	require.Len(t, list["viewer"].(map[string]any)["webhooks"].(map[string]any)["edges"], 1)
	require.Equal(t, true, gql(`mutation($id: ID!) { deleteWebhook(id: $id) }`, map[string]any{"id": id})["deleteWebhook"])
}

// With private targets refused, an endpoint whose address is private is
// refused at dial time too (here one stored before the policy changed): the
// delivery fails without reaching the receiver.
//
// Not parallel: no other test's workers (which allow private targets) may
// run this delivery.
func TestDialTimeRefusal(t *testing.T) {
	env := testkit.New(t, testkit.WithWorkers(), testkit.WithConfig(func(c *config.Config) {
		c.AllowPrivateTargets = false
		c.RateLimitScale = 100
		c.WebhookRetrySchedule = schedule
	}))
	acc, slug := seller(t, env)
	rc := newReceiver(t, always(200))
	sealed, err := env.Server.Resolver.Secrets.Seal("whsec_" + "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
	require.NoError(t, err)
	id := "wh_01jdx0v3k7q8r9s0t1u2v3w4" + strings.ToLower(testkit.Unique()[:2])
	_, err = env.Server.DB.Pool.Exec(context.Background(), `INSERT INTO webhook_endpoints (id, account_id, url, events, secret_ciphertext)
		VALUES ($1, $2, $3, '{order.paid}', $4)`, id, acc.ID, rc.URL, sealed)
	require.NoError(t, err)
	paidOrder(t, env, slug)
	require.Eventually(t, func() bool {
		var status, lastError string
		err := env.Server.DB.Pool.QueryRow(context.Background(),
			"SELECT status, coalesce(last_error, '') FROM webhook_deliveries WHERE endpoint_id = $1", id).Scan(&status, &lastError)
		return err == nil && status == "failed" && strings.Contains(lastError, "not allowed")
	}, 15*time.Second, 50*time.Millisecond)
	require.Empty(t, rc.deliveries(), "the receiver was never reached")
}
