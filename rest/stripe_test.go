package rest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/stripe/stripe-go/v76/webhook"

	"commerce/config"
	stripeproc "commerce/processor/stripe"
	"commerce/testkit"
)

const stripeWebhookSecret = "whsec_test_commerce"

// accountUpdated builds a Stripe account.updated event.
func accountUpdated(id, acct string, charges bool, currency string) []byte {
	ev := map[string]any{
		"id": id, "object": "event", "api_version": "2019-02-19", "created": time.Now().Unix(), "livemode": false,
		"type": "account.updated", "pending_webhooks": 1, "request": map[string]any{"id": nil, "idempotency_key": nil},
		"data": map[string]any{"object": map[string]any{
			"id": acct, "object": "account", "type": "express", "charges_enabled": charges, "payouts_enabled": charges,
			"details_submitted": true, "default_currency": currency,
		}},
	}
	b, _ := json.Marshal(ev)
	return b
}

func signed(payload []byte, at time.Time) string {
	return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: stripeWebhookSecret, Timestamp: at}).Header
}

// The Stripe path: connect against stripe-mock (the connected account id is
// saved at once), then a signed account.updated marks the account connected;
// a replay changes nothing, a tampered signature is 400, unknown types 200.
func TestStripeConnect(t *testing.T) {
	t.Parallel()
	mock := testkit.StripeMock(t)
	env := testkit.New(t, testkit.WithConfig(func(c *config.Config) {
		c.Processor = "stripe"
		c.StripeSecretKey = testkit.StripeMockKey
		c.StripeWebhookSecret = stripeWebhookSecret
		c.StripeAPIBase = mock
	}))
	acc := env.NewAccount()

	r := env.Post("/v1/account/processor/connect", acc.Key, nil)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.True(t, strings.HasPrefix(r.JSON(t)["url"].(string), "https://"), "%s", r.Body)
	a := env.Get("/v1/account", acc.Key).JSON(t)
	proc := a["processor"].(map[string]any)
	require.Equal(t, "onboarding", proc["status"])
	acct, _ := proc["account_id"].(string)
	require.Regexp(t, `^acct_`, acct)
	require.Equal(t, "enable_charges", a["readiness"].(map[string]any)["next"], "onboarding: a human finishes it at the stable url")

	hook := func(payload []byte, sig string) *testkit.Response {
		return env.Do(testkit.Request{Method: "POST", Path: "/v1/processor/webhook", Body: payload,
			Header: map[string]string{"Stripe-Signature": sig}})
	}
	// Details submitted, charges not yet enabled: connected, enable_charges next.
	evID := "evt_" + strings.ToLower(testkit.Unique())
	pending := accountUpdated(evID+"a", acct, false, "EUR")
	require.Equal(t, 200, hook(pending, signed(pending, time.Now())).Status)
	a = env.Get("/v1/account", acc.Key).JSON(t)
	require.Equal(t, "connected", a["processor"].(map[string]any)["status"])
	require.Equal(t, "eur", a["currency"], "lowercase, from the account's default currency")
	ready := a["readiness"].(map[string]any)
	require.Equal(t, false, ready["operational"])
	require.Equal(t, "enable_charges", ready["next"])
	action := ready["actions"].([]any)[0].(map[string]any)
	require.Equal(t, "human", action["kind"])
	resolve := action["resolve"].(map[string]any)
	require.Equal(t, "redirect", resolve["method"])
	require.True(t, strings.HasPrefix(resolve["url"].(string), env.URL+"/processor/onboarding/"), resolve["url"])
	// That url sends the human to a fresh Stripe account link.
	resp, err := noRedirect(env).Get(resolve["url"].(string))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 303, resp.StatusCode)
	require.True(t, strings.HasPrefix(resp.Header.Get("Location"), "https://"), resp.Header.Get("Location"))

	// Charges enabled: operational. The currency never changes once set.
	enabled := accountUpdated(evID+"b", acct, true, "usd")
	require.Equal(t, 200, hook(enabled, signed(enabled, time.Now())).Status)
	a = env.Get("/v1/account", acc.Key).JSON(t)
	require.Equal(t, true, a["readiness"].(map[string]any)["operational"])
	require.Equal(t, true, a["processor"].(map[string]any)["charges_enabled"])
	require.Equal(t, "eur", a["currency"])

	// A replayed event (same id) changes nothing, even with other content.
	replay := accountUpdated(evID+"a", acct, false, "usd")
	require.Equal(t, 200, hook(replay, signed(replay, time.Now())).Status)
	require.Equal(t, true, env.Get("/v1/account", acc.Key).JSON(t)["processor"].(map[string]any)["charges_enabled"])

	// Bad signatures: 400, nothing applied.
	disable := accountUpdated(evID+"c", acct, false, "usd")
	sig := signed(disable, time.Now())
	tampered := []byte(strings.Replace(string(disable), `"charges_enabled":false`, `"charges_enabled":true `, 1))
	requireProblem(t, env, hook(tampered, sig), 400, "invalid_request")
	requireProblem(t, env, hook(disable, signed(disable, time.Now().Add(-301*time.Second))), 400, "invalid_request")
	requireProblem(t, env, hook(disable, ""), 400, "invalid_request")
	require.Equal(t, true, env.Get("/v1/account", acc.Key).JSON(t)["processor"].(map[string]any)["charges_enabled"])

	// Unknown event types are acknowledged.
	other := []byte(fmt.Sprintf(`{"id":"%sd","object":"event","api_version":"2024-06-20","type":"customer.created","data":{"object":{"id":"cus_1","object":"customer"}}}`, evID))
	require.Equal(t, 200, hook(other, signed(other, time.Now())).Status)
}

// A seller's processor test key makes their checkouts (and the refunds of
// those orders) run in Stripe's test mode, end to end: setting the key
// registers the service's endpoint on the seller's test account (with that
// key); the checkout is a direct charge made with the key; its completion,
// signed by that endpoint's secret, reaches the service and pays the order;
// the same event through the platform's endpoint changes nothing.
func TestStripeTestModeKey(t *testing.T) {
	t.Parallel()
	env, rec := recordedStripeEnv(t)
	acc := env.NewAccount()
	put := func(body any) *testkit.Response {
		return env.Do(testkit.Request{Method: "PUT", Path: "/v1/account", Key: acc.Key, Body: body})
	}
	p := requireProblem(t, env, put(map[string]any{"processor_test_key": "sk_live_nope1234567"}), 422, "validation_error")
	require.Equal(t, "processor_test_key", p["param"])
	testKey := "sk_test_seller" + testkit.Unique()
	r := put(map[string]any{"processor_test_key": testKey})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.Equal(t, true, r.JSON(t)["processor"].(map[string]any)["test_mode"])
	require.NotContains(t, string(r.Body), testKey, "the key is never shown")
	// The service's endpoint on the seller's test account, made with the key.
	reg := rec.last("/v1/webhook_endpoints")
	require.Equal(t, testKey, reg.Key)
	testHook := "/v1/processor/webhook/accounts/" + acc.ID
	require.Equal(t, env.URL+testHook, reg.Form.Get("url"))
	require.Equal(t, "checkout.session.completed", reg.Form.Get("enabled_events[0]"))

	require.Equal(t, 200, env.Post("/v1/account/processor/connect", acc.Key, nil).Status)
	require.Equal(t, testkit.StripeMockKey, rec.last("/v1/accounts").Key, "connecting uses the platform key")
	acct := env.Get("/v1/account", acc.Key).JSON(t)["processor"].(map[string]any)["account_id"].(string)
	up := accountUpdated("evt_tm_"+testkit.Unique(), acct, true, "usd")
	require.Equal(t, 200, env.Do(testkit.Request{Method: "POST", Path: "/v1/processor/webhook", Body: up,
		Header: map[string]string{"Stripe-Signature": signed(up, time.Now())}}).Status)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Test mode " + testkit.Unique(), "price": 500})
	req, _ := http.NewRequest("POST", env.URL+"/p/"+l["slug"].(string)+"/checkout", strings.NewReader("email="+url.QueryEscape(uniqueEmail("tm"))))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := noRedirect(env).Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 303, resp.StatusCode)
	cs := rec.last("/v1/checkout/sessions")
	require.Equal(t, testKey, cs.Key, "the checkout runs with the seller's test key")
	require.Empty(t, cs.Form.Get("payment_intent_data[transfer_data][destination]"), "a direct charge on the seller's account")
	require.Empty(t, cs.Form.Get("payment_intent_data[application_fee_amount]"))
	orderID := cs.Form.Get("metadata[order_id]")
	require.Regexp(t, `^ord_`, orderID)

	u := testkit.Unique()
	completed := []byte(fmt.Sprintf(`{"id":"evt_tmcs_%s","object":"event","api_version":"2024-06-20","livemode":false,"type":"checkout.session.completed","data":{"object":{"id":"cs_test_tm","object":"checkout.session","mode":"payment","payment_status":"paid","status":"complete","amount_total":500,"currency":"usd","client_reference_id":%q,"metadata":{"order_id":%q},"payment_intent":"pi_tm_%s"}}}`, u, orderID, orderID, u))
	sendTest := func(payload []byte, secret string) *testkit.Response {
		sig := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: time.Now()}).Header
		return env.Do(testkit.Request{Method: "POST", Path: testHook, Body: payload, Header: map[string]string{"Stripe-Signature": sig}})
	}
	// Through the platform's endpoint: not the test account's event, ignored.
	require.Equal(t, 200, env.Do(testkit.Request{Method: "POST", Path: "/v1/processor/webhook", Body: completed,
		Header: map[string]string{"Stripe-Signature": signed(completed, time.Now())}}).Status)
	require.Equal(t, "pending", env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)["status"])
	// Signed with another secret, or for another account: refused.
	requireProblem(t, env, sendTest(completed, stripeWebhookSecret), 400, "invalid_request")
	other := env.NewAccount()
	requireProblem(t, env, env.Do(testkit.Request{Method: "POST", Path: "/v1/processor/webhook/accounts/" + other.ID, Body: completed,
		Header: map[string]string{"Stripe-Signature": signed(completed, time.Now())}}), 400, "invalid_request")
	// Through the seller's test endpoint: the order is paid.
	require.Equal(t, 200, sendTest(completed, testkit.StripeMockEndpointSecret).Status)
	o := env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)
	require.Equal(t, "paid", o["payment_status"])
	require.Equal(t, "pi_tm_"+u, o["payment_intent_id"])

	// Refunded in test mode too, and confirmed through the test endpoint.
	require.Equal(t, 200, env.Post("/v1/orders/"+orderID+"/refund", acc.Key, nil).Status)
	refund := rec.last("/v1/refunds")
	require.Equal(t, testKey, refund.Key)
	require.Empty(t, refund.Form.Get("reverse_transfer"), "no transfer to reverse on a direct charge")
	refunded := []byte(fmt.Sprintf(`{"id":"evt_tmrf_%s","object":"event","api_version":"2024-06-20","livemode":false,"type":"charge.refunded","data":{"object":{"id":"ch_tm_%s","object":"charge","amount_refunded":500,"currency":"usd","payment_intent":"pi_tm_%s","metadata":{"order_id":%q}}}}`, u, u, u, orderID))
	require.Equal(t, 200, sendTest(refunded, testkit.StripeMockEndpointSecret).Status)
	require.Equal(t, "refunded", env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)["payment_status"])

	// Clearing the key: live again, and the endpoint deleted with the key.
	r = put(map[string]any{"processor_test_key": nil})
	require.Equal(t, false, r.JSON(t)["processor"].(map[string]any)["test_mode"])
	del := rec.last("/v1/webhook_endpoints/" + stripeMockEndpointID(t, rec))
	require.Equal(t, "DELETE", del.Method)
	require.Equal(t, testKey, del.Key)
	requireProblem(t, env, sendTest(completed, testkit.StripeMockEndpointSecret), 400, "invalid_request")
	req, _ = http.NewRequest("POST", env.URL+"/p/"+l["slug"].(string)+"/checkout", strings.NewReader("email="+url.QueryEscape(uniqueEmail("live"))))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err = noRedirect(env).Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	live := rec.last("/v1/checkout/sessions")
	require.Equal(t, testkit.StripeMockKey, live.Key)
	require.Equal(t, acct, live.Form.Get("payment_intent_data[transfer_data][destination]"))
}

// stripeMockEndpointID is the id of the webhook endpoint a DELETE went to.
func stripeMockEndpointID(t *testing.T, rec *bodyRecorder) string {
	t.Helper()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for i := len(rec.calls) - 1; i >= 0; i-- {
		if id, ok := strings.CutPrefix(rec.calls[i].Path, "/v1/webhook_endpoints/"); ok {
			return id
		}
	}
	t.Fatal("no webhook endpoint was deleted")
	return ""
}

// recordedStripeEnv is an Env whose processor is Stripe (stripe-mock,
// webhooks signed with stripeWebhookSecret) and records the body of every
// request the service sends to Stripe.
func recordedStripeEnv(t *testing.T) (*testkit.Env, *bodyRecorder) {
	t.Helper()
	mock := testkit.StripeMock(t)
	rec := &bodyRecorder{}
	env := testkit.New(t, testkit.WithConfig(func(c *config.Config) {
		c.Processor = "stripe"
		c.StripeSecretKey = testkit.StripeMockKey
		c.StripeWebhookSecret = stripeWebhookSecret
		c.StripeAPIBase = mock
	}))
	proc, err := stripeproc.New(stripeproc.Config{SecretKey: testkit.StripeMockKey, WebhookSecret: stripeWebhookSecret,
		APIBase: mock, HTTPClient: &http.Client{Transport: rec}})
	require.NoError(t, err)
	env.Server.Resolver.Processor = proc
	return env, rec
}
