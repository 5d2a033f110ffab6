package rest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
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

// authRecorder records the bearer key of each request to Stripe.
type authRecorder struct {
	mu   sync.Mutex
	keys map[string][]string // path → keys
}

func (a *authRecorder) RoundTrip(r *http.Request) (*http.Response, error) {
	a.mu.Lock()
	a.keys[r.URL.Path] = append(a.keys[r.URL.Path], strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
	a.mu.Unlock()
	return http.DefaultTransport.RoundTrip(r)
}

func (a *authRecorder) last(path string) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	ks := a.keys[path]
	if len(ks) == 0 {
		return ""
	}
	return ks[len(ks)-1]
}

// A seller's processor test key makes their checkouts (and the refunds of
// those orders) run in Stripe's test mode: the requests use that key.
func TestStripeTestModeKey(t *testing.T) {
	t.Parallel()
	mock := testkit.StripeMock(t)
	rec := &authRecorder{keys: map[string][]string{}}
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

	require.Equal(t, 200, env.Post("/v1/account/processor/connect", acc.Key, nil).Status)
	require.Equal(t, testkit.StripeMockKey, rec.last("/v1/accounts"), "connecting uses the platform key")
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
	require.Equal(t, testKey, rec.last("/v1/checkout/sessions"), "the checkout runs with the seller's test key")

	// Paid, then refunded: the refund runs in test mode too.
	orderID := env.Get("/v1/orders", acc.Key).JSON(t)["data"].([]any)[0].(map[string]any)["id"].(string)
	u := testkit.Unique()
	completed := []byte(fmt.Sprintf(`{"id":"evt_tmcs_%s","object":"event","api_version":"2024-06-20","type":"checkout.session.completed","data":{"object":{"id":"cs_test_tm","object":"checkout.session","payment_status":"paid","status":"complete","amount_total":500,"currency":"usd","client_reference_id":%q,"metadata":{"order_id":%q},"payment_intent":"pi_tm_%s"}}}`, u, orderID, orderID, u))
	require.Equal(t, 200, env.Do(testkit.Request{Method: "POST", Path: "/v1/processor/webhook", Body: completed,
		Header: map[string]string{"Stripe-Signature": signed(completed, time.Now())}}).Status)
	require.Equal(t, 200, env.Post("/v1/orders/"+orderID+"/refund", acc.Key, nil).Status)
	require.Equal(t, testKey, rec.last("/v1/refunds"))

	// Clearing the key: live again.
	r = put(map[string]any{"processor_test_key": nil})
	require.Equal(t, false, r.JSON(t)["processor"].(map[string]any)["test_mode"])
	req, _ = http.NewRequest("POST", env.URL+"/p/"+l["slug"].(string)+"/checkout", strings.NewReader("email="+url.QueryEscape(uniqueEmail("live"))))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err = noRedirect(env).Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, testkit.StripeMockKey, rec.last("/v1/checkout/sessions"))
}
