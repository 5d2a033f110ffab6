package webhooks_test

// Seller alerts for failing webhook endpoints (CONTRACT §22), with the
// service's clock moved by the test: the dispatcher's rounds (DeliverDue)
// and the alert job (CheckWebhookAlerts) are the test's own, so these
// tests run without workers and are not parallel (a round takes every due
// record of the package's database).

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"commerce/resolvers"
	"commerce/testkit"
)

// alertBench is one service with a movable clock and the helpers of the
// alert tests.
type alertBench struct {
	t     *testing.T
	env   *testkit.Env
	r     *resolvers.Resolver
	clock atomic.Pointer[time.Time]
}

func newAlertBench(t *testing.T) *alertBench {
	b := &alertBench{t: t, env: testkit.New(t, fastRetries)} // no workers: the test runs the rounds
	b.r = b.env.Server.Resolver
	now := time.Now().UTC()
	b.clock.Store(&now)
	b.r.Now = func() time.Time { return *b.clock.Load() }
	return b
}

// set moves the service's clock to t0 + d.
func (b *alertBench) set(t0 time.Time, d time.Duration) {
	at := t0.Add(d)
	b.clock.Store(&at)
}

func (b *alertBench) now() time.Time { return *b.clock.Load() }

// endpoint makes a seller with an endpoint at rc that hears only of an
// event the test never causes: the test writes the records itself.
func (b *alertBench) endpoint(rc *receiver) (testkit.Account, string, string) {
	acc, slug := seller(b.t, b.env)
	id, _ := createEndpoint(b.t, b.env, acc.Key, rc.URL, "order.disputed")
	return acc, slug, id
}

// record adds a pending delivery of a new paid order's event to endpoint
// id, due now by the service's clock.
func (b *alertBench) record(slug, id string) string {
	order := paidOrder(b.t, b.env, slug)
	var ev string
	require.NoError(b.t, b.env.Server.DB.Pool.QueryRow(context.Background(), `INSERT INTO webhook_deliveries (endpoint_id, event_id, account_id, type, next_attempt_at)
		SELECT $1, v.id, v.account_id, v.type, $3 FROM events v WHERE v.order_id = $2 AND v.type = 'order.paid'
		RETURNING event_id`, id, order, b.now()).Scan(&ev))
	return ev
}

// round runs one dispatcher round over what is due by the service's clock
// (a retry of the test schedule is due 10 ms after its failure).
func (b *alertBench) round() {
	_, err := b.r.DeliverDue(context.Background(), b.now().Add(time.Second), 1000)
	require.NoError(b.t, err)
}

// check runs the alert job once.
func (b *alertBench) check() {
	require.NoError(b.t, b.r.CheckWebhookAlerts(context.Background()))
}

// mails lists the templates of the email sent to to, oldest first.
func (b *alertBench) mails(to string) []string {
	rows, err := b.env.Server.DB.Pool.Query(context.Background(),
		`SELECT template FROM mail_messages WHERE to_address = $1 AND template LIKE 'webhook_%' ORDER BY created_at, id`, to)
	require.NoError(b.t, err)
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		require.NoError(b.t, rows.Scan(&s))
		out = append(out, s)
	}
	require.NoError(b.t, rows.Err())
	return out
}

// mail returns the newest email of template to to: subject, text, HTML.
func (b *alertBench) mail(to, template string) (subject, text, html string) {
	require.NoError(b.t, b.env.Server.DB.Pool.QueryRow(context.Background(),
		`SELECT subject, text_body, html_body FROM mail_messages WHERE to_address = $1 AND template = $2
		ORDER BY created_at DESC, id DESC LIMIT 1`, to, template).Scan(&subject, &text, &html))
	return
}

// actions lists the account's readiness action codes with their endpoints.
func (b *alertBench) actions(key string) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, a := range b.env.Get("/v1/account", key).JSON(b.t)["readiness"].(map[string]any)["actions"].([]any) {
		a := a.(map[string]any)
		out[a["code"].(string)] = a
	}
	return out
}

// An endpoint is warned once it has failed for WEBHOOK_ALERT_AFTER (an
// hour) with at least five failed attempts: not before, and not with four;
// once per 24 hours while it keeps failing; readiness shows webhook_failing
// meanwhile, executable as given. A success sends "recovered" (only after
// a warning), takes webhook_failing away and re-arms the warning.
func TestAlertWarningTiming(t *testing.T) {
	b := newAlertBench(t)
	var failing atomic.Bool
	failing.Store(true)
	rc := newReceiver(t, func(int) int {
		if failing.Load() {
			return 500
		}
		return 204
	})
	acc, slug, id := b.endpoint(rc)
	r := b.env.Do(testkit.Request{Method: "PUT", Path: "/v1/account", Key: acc.Key, Body: map[string]any{"display_name": "Fern Prints"}})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	var fewFailing atomic.Bool
	fewFailing.Store(true)
	few := newReceiver(t, func(int) int {
		if fewFailing.Load() {
			return 500
		}
		return 204
	})
	acc4, slug4, id4 := b.endpoint(few)
	t0 := b.now()
	b.record(slug, id)
	b.record(slug4, id4)

	// Five failed attempts of the first, four of the second, at once.
	for i := range 5 {
		b.set(t0, time.Duration(i)*time.Second)
		b.round()
		if i == 3 {
			_, err := b.env.Server.DB.Pool.Exec(context.Background(),
				`UPDATE webhook_deliveries SET next_attempt_at = next_attempt_at + interval '1 year' WHERE endpoint_id = $1`, id4)
			require.NoError(t, err)
		}
	}
	e := b.env.Get("/v1/webhooks/"+id, acc.Key).JSON(t)
	require.Equal(t, "enabled", e["status"])

	// 59 minutes: nothing yet.
	b.set(t0, 59*time.Minute)
	b.check()
	require.Empty(t, b.mails(acc.Email))
	require.NotContains(t, b.actions(acc.Key), "webhook_failing")

	// An hour: the warning, with what the seller needs; four failures
	// warn no one.
	b.set(t0, time.Hour)
	b.check()
	require.Equal(t, []string{"webhook_warning"}, b.mails(acc.Email))
	require.Empty(t, b.mails(acc4.Email))
	subject, text, html := b.mail(acc.Email, "webhook_warning")
	require.Equal(t, "Fern Prints: your webhook endpoint is failing", subject)
	require.Contains(t, text, rc.URL)
	require.Contains(t, text, "Last error:    HTTP 500")
	require.Contains(t, text, "Undelivered:   1 event")
	require.Contains(t, text, "Failing since: "+t0.Format("January 2, 2006 15:04")+" UTC")
	require.Contains(t, text, "once three deliveries in a row have failed", "one pending delivery: no estimate")
	require.Contains(t, text, "POST "+b.env.URL+"/v1/webhooks/"+id+"/test")
	require.Contains(t, text, `updateWebhook(id: "`+id+`", input: {status: ENABLED})`)
	require.Contains(t, html, rc.URL)
	require.Contains(t, html, "HTTP 500")
	require.Contains(t, html, "Fern Prints")

	// Readiness: webhook_failing, suggested, api, the test call in its
	// three forms; executing it as given answers 200.
	acts := b.actions(acc.Key)
	require.Contains(t, acts, "webhook_failing")
	a := acts["webhook_failing"]
	require.Equal(t, "suggested", a["priority"])
	require.Equal(t, "api", a["kind"])
	require.NotContains(t, a["message"], "human")
	res := a["resolve"].(map[string]any)
	require.Equal(t, "POST", res["method"])
	require.Equal(t, "/v1/webhooks/"+id+"/test", res["endpoint"])
	require.Equal(t, "test_webhook", res["mcp"].(map[string]any)["tool"])
	require.Equal(t, map[string]any{"id": id}, res["graphql"].(map[string]any)["variables"])
	require.Equal(t, true, b.env.Get("/v1/account", acc.Key).JSON(t)["readiness"].(map[string]any)["operational"])

	// Failing on, another burst within 24 hours: no second warning.
	b.record(slug, id)
	for i := range 3 {
		b.set(t0, 3*time.Hour+time.Duration(i)*time.Second)
		b.round()
	}
	b.set(t0, 24*time.Hour+59*time.Minute)
	b.check()
	require.Equal(t, []string{"webhook_warning"}, b.mails(acc.Email))
	// 24 hours after the warning: again.
	b.set(t0, 25*time.Hour)
	b.check()
	b.check()
	require.Equal(t, []string{"webhook_warning", "webhook_warning"}, b.mails(acc.Email))

	// A success: "recovered", once; webhook_failing goes. The endpoint that
	// was never warned recovers silently.
	failing.Store(false)
	b.record(slug, id)
	b.round()
	b.check()
	b.check()
	require.Equal(t, []string{"webhook_warning", "webhook_warning", "webhook_recovered"}, b.mails(acc.Email))
	require.NotContains(t, b.actions(acc.Key), "webhook_failing")
	_, text, html = b.mail(acc.Email, "webhook_recovered")
	require.Contains(t, text, rc.URL)
	require.Contains(t, html, "works again")
	_, err := b.env.Server.DB.Pool.Exec(context.Background(),
		`UPDATE webhook_deliveries SET next_attempt_at = $2 WHERE endpoint_id = $1 AND status = 'pending'`, id4, b.now())
	require.NoError(t, err)
	fewFailing.Store(false)
	b.round()
	b.check()
	require.Empty(t, b.mails(acc4.Email), "no warning, no recovered")

	// The success re-armed the warning: a new failure warns after its own
	// hour, within 24 hours of the last warning.
	failing.Store(true)
	t1 := t0.Add(26 * time.Hour)
	b.set(t1, 0)
	b.record(slug, id)
	for i := range 5 {
		b.set(t1, time.Duration(i)*time.Second)
		b.round()
	}
	b.set(t1, 59*time.Minute)
	b.check()
	require.Len(t, b.mails(acc.Email), 3)
	b.set(t1, time.Hour)
	b.check()
	require.Equal(t, []string{"webhook_warning", "webhook_warning", "webhook_recovered", "webhook_warning"}, b.mails(acc.Email))
}

// Auto-disable sends "disabled" once and readiness trades webhook_failing
// for webhook_disabled; a warning after it, none; re-enabling clears the
// alert state.
func TestAlertDisabled(t *testing.T) {
	b := newAlertBench(t)
	rc := newReceiver(t, always(500))
	acc, slug, id := b.endpoint(rc)
	t0 := b.now()
	for range 3 {
		b.record(slug, id)
	}
	// Warned first: failing an hour, with 5 failures, three pending.
	for i := range 5 {
		b.set(t0, time.Duration(i)*time.Second)
		b.round()
	}
	b.set(t0, time.Hour)
	b.check()
	require.Equal(t, []string{"webhook_warning"}, b.mails(acc.Email))
	_, text, _ := b.mail(acc.Email, "webhook_warning")
	require.Contains(t, text, "Undelivered:   3 events")
	require.Contains(t, text, "it will be disabled around ", "three pending: an estimate")
	require.Contains(t, b.actions(acc.Key), "webhook_failing")

	// Every retry spent: three permanent failures disable it.
	for i := range 20 {
		b.set(t0, time.Hour+time.Duration(i)*time.Second)
		b.round()
	}
	e := b.env.Get("/v1/webhooks/"+id, acc.Key).JSON(t)
	require.Equal(t, "disabled", e["status"])
	require.Equal(t, "consecutive_failures", e["disabled_reason"])
	b.check()
	b.check()
	b.set(t0, 30*time.Hour)
	b.check()
	require.Equal(t, []string{"webhook_warning", "webhook_disabled"}, b.mails(acc.Email))
	_, text, html := b.mail(acc.Email, "webhook_disabled")
	require.Contains(t, text, rc.URL)
	require.Contains(t, text, "Undelivered:   3 events")
	require.Contains(t, text, `PUT `+b.env.URL+`/v1/webhooks/`+id+` with {"status": "enabled"}`)
	require.Contains(t, html, "was disabled")
	acts := b.actions(acc.Key)
	require.NotContains(t, acts, "webhook_failing")
	require.Contains(t, acts, "webhook_disabled")

	// Re-enabled: the alert state starts afresh (a later success is no
	// "recovery" of a warning that the disabling ended).
	r := b.env.Do(testkit.Request{Method: "PUT", Path: "/v1/webhooks/" + id, Key: acc.Key, Body: map[string]any{"status": "enabled"}})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	var since *time.Time
	var warned *time.Time
	var attempts int
	require.NoError(t, b.env.Server.DB.Pool.QueryRow(context.Background(),
		`SELECT failing_since, failed_attempts, warned_at FROM webhook_endpoints WHERE id = $1`, id).Scan(&since, &attempts, &warned))
	require.Nil(t, since)
	require.Nil(t, warned)
	require.Zero(t, attempts)
	require.NotContains(t, b.actions(acc.Key), "webhook_disabled")
}

// notify_webhooks false: no alert email at all, the readiness action
// still shows; the account shows the setting on REST and GraphQL.
func TestAlertNotifyOff(t *testing.T) {
	b := newAlertBench(t)
	rc := newReceiver(t, always(500))
	acc, slug, id := b.endpoint(rc)
	require.Equal(t, true, b.env.Get("/v1/account", acc.Key).JSON(t)["notify_webhooks"], "on by default")
	r := b.env.Do(testkit.Request{Method: "PUT", Path: "/v1/account", Key: acc.Key, Body: map[string]any{"notify_webhooks": false}})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.Equal(t, false, r.JSON(t)["notify_webhooks"])
	g := b.env.Post("/graphql", acc.Key, map[string]any{"query": "{ viewer { notifyWebhooks } }"}).JSON(t)
	require.Equal(t, map[string]any{"viewer": map[string]any{"notifyWebhooks": false}}, g["data"], "%v", g)

	t0 := b.now()
	for range 3 {
		b.record(slug, id)
	}
	for i := range 5 {
		b.set(t0, time.Duration(i)*time.Second)
		b.round()
	}
	b.set(t0, time.Hour)
	b.check()
	require.Contains(t, b.actions(acc.Key), "webhook_failing")
	for i := range 20 {
		b.set(t0, time.Hour+time.Duration(i)*time.Second)
		b.round()
	}
	require.Equal(t, "disabled", b.env.Get("/v1/webhooks/"+id, acc.Key).JSON(t)["status"])
	b.check()
	require.Empty(t, b.mails(acc.Email))

	// Back on through GraphQL.
	g = b.env.Post("/graphql", acc.Key, map[string]any{
		"query": "mutation { updateAccount(input: {notifyWebhooks: true}) { notifyWebhooks } }"}).JSON(t)
	require.Equal(t, map[string]any{"updateAccount": map[string]any{"notifyWebhooks": true}}, g["data"], "%v", g)
}

// Two processes' rounds failing at once count every failure; two
// processes' alert jobs at once send one warning.
func TestAlertConcurrentProcesses(t *testing.T) {
	b := newAlertBench(t)
	other := testkit.New(t, fastRetries) // a second process on the same database
	other.Server.Resolver.Now = b.r.Now
	rc := newReceiver(t, always(500))
	acc, slug, id := b.endpoint(rc)
	t0 := b.now()
	for range 4 {
		b.record(slug, id)
	}
	for i := range 3 {
		b.set(t0, time.Duration(i)*time.Second)
		var wg sync.WaitGroup
		for _, r := range []*resolvers.Resolver{b.r, other.Server.Resolver} {
			wg.Go(func() {
				_, err := r.DeliverDue(context.Background(), b.now().Add(time.Second), 2)
				assert.NoError(t, err)
			})
		}
		wg.Wait()
	}
	var attempts, failed int
	require.NoError(t, b.env.Server.DB.Pool.QueryRow(context.Background(), `SELECT
		(SELECT failed_attempts FROM webhook_endpoints WHERE id = $1),
		(SELECT coalesce(sum(attempts), 0) FROM webhook_deliveries WHERE endpoint_id = $1)`, id).Scan(&failed, &attempts))
	require.Equal(t, attempts, failed, "every failed attempt counted")
	require.GreaterOrEqual(t, failed, 5)

	b.set(t0, time.Hour)
	var wg sync.WaitGroup
	for i := range 8 {
		r := b.r
		if i%2 == 1 {
			r = other.Server.Resolver
		}
		wg.Go(func() { assert.NoError(t, r.CheckWebhookAlerts(context.Background())) })
	}
	wg.Wait()
	require.Equal(t, []string{"webhook_warning"}, b.mails(acc.Email), fmt.Sprint(len(rc.deliveries()), " attempts"))
}

// webhook_failing's call as given: once the receiver works, the test
// event's 2xx ends the failure (the action goes, "recovered" is sent once);
// a test answered 500 changes nothing.
func TestAlertTestEventRecovers(t *testing.T) {
	b := newAlertBench(t)
	var failing atomic.Bool
	failing.Store(true)
	rc := newReceiver(t, func(int) int {
		if failing.Load() {
			return 500
		}
		return 200
	})
	acc, slug, id := b.endpoint(rc)
	t0 := b.now()
	b.record(slug, id)
	for i := range 5 {
		b.set(t0, time.Duration(i)*time.Second)
		b.round()
	}
	b.set(t0, time.Hour)
	b.check()
	action := b.actions(acc.Key)["webhook_failing"]
	require.NotNil(t, action)
	endpoint := action["resolve"].(map[string]any)["endpoint"].(string)

	r := b.env.Post(endpoint, acc.Key, nil)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.Equal(t, 500.0, r.JSON(t)["status_code"])
	require.Contains(t, b.actions(acc.Key), "webhook_failing")

	failing.Store(false)
	r = b.env.Post(endpoint, acc.Key, nil)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.Equal(t, 200.0, r.JSON(t)["status_code"])
	require.NotContains(t, b.actions(acc.Key), "webhook_failing")
	b.check()
	b.check()
	require.Equal(t, []string{"webhook_warning", "webhook_recovered"}, b.mails(acc.Email))
}

// The dispatcher's success path stays as it was: a healthy endpoint's
// deliveries do not write its row (the alert state is touched only when
// an attempt failed or a success ends a failure).
func TestAlertHealthySuccessWritesNoEndpoint(t *testing.T) {
	b := newAlertBench(t)
	rc := newReceiver(t, always(204))
	_, slug, id := b.endpoint(rc)
	version := func() (x string) {
		require.NoError(t, b.env.Server.DB.Pool.QueryRow(context.Background(),
			`SELECT xmin::text FROM webhook_endpoints WHERE id = $1`, id).Scan(&x))
		return
	}
	b.record(slug, id)
	b.record(slug, id)
	before := version()
	b.round()
	require.Len(t, rc.deliveries(), 2)
	require.Equal(t, before, version(), "the endpoint's row was not written")
}
