package stripe_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	stripego "github.com/stripe/stripe-go/v76"
	"github.com/stripe/stripe-go/v76/webhook"

	"commerce/processor"
	"commerce/processor/stripe"
	"commerce/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

const secret = "whsec_test_secret"

// recorder is an http.RoundTripper that remembers the requests it forwards
// to stripe-mock, with their form bodies.
type recorder struct {
	mu   sync.Mutex
	reqs []recorded
}

type recorded struct {
	Method, Path string
	Header       http.Header
	// Form is the form body of a POST, or the query of a GET.
	Form url.Values
	// Response is the body of the answer.
	Response []byte
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	rec := recorded{Method: req.Method, Path: req.URL.Path, Header: req.Header.Clone(), Form: req.URL.Query()}
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		req.Body.Close()
		if len(b) > 0 {
			if rec.Form, err = url.ParseQuery(string(b)); err != nil {
				return nil, err
			}
		}
		req.Body = io.NopCloser(strings.NewReader(string(b)))
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(strings.NewReader(string(b)))
	rec.Response = b
	r.mu.Lock()
	r.reqs = append(r.reqs, rec)
	r.mu.Unlock()
	return resp, nil
}

// all returns the requests recorded so far, oldest first.
func (r *recorder) all() []recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]recorded(nil), r.reqs...)
}

func (r *recorder) last(t *testing.T) recorded {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	require.NotEmpty(t, r.reqs)
	return r.reqs[len(r.reqs)-1]
}

// newProcessor returns a Processor against stripe-mock and the recorder of
// its requests.
func newProcessor(t *testing.T) (*stripe.Processor, *recorder) {
	t.Helper()
	rec := &recorder{}
	p, err := stripe.New(stripe.Config{
		SecretKey:     testkit.StripeMockKey,
		WebhookSecret: secret,
		APIBase:       testkit.StripeMock(t),
		HTTPClient:    &http.Client{Transport: rec, Timeout: 10 * time.Second},
	})
	require.NoError(t, err)
	return p, rec
}

func TestNew(t *testing.T) {
	_, err := stripe.New(stripe.Config{})
	require.Error(t, err)
	for _, base := range []string{"not a url", "ftp://example.com", "/v1"} {
		_, err = stripe.New(stripe.Config{SecretKey: "sk_test_123", APIBase: base})
		require.Error(t, err, base)
	}
	p, err := stripe.New(stripe.Config{SecretKey: "sk_test_123"})
	require.NoError(t, err)
	require.Equal(t, processor.Stripe, p.Name())
	var _ processor.Processor = p
}

func TestCreateAccount(t *testing.T) {
	p, rec := newProcessor(t)
	ctx := context.Background()
	accID := "acc_" + testkit.Unique()

	id, err := p.CreateAccount(ctx, processor.NewAccount{AccountID: accID, Email: "seller@example.com"})
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(id, "acct_"), id)

	req := rec.last(t)
	require.Equal(t, http.MethodPost, req.Method)
	require.Equal(t, "/v1/accounts", req.Path)
	require.Equal(t, "Bearer "+testkit.StripeMockKey, req.Header.Get("Authorization"))
	require.Equal(t, "express", req.Form.Get("type"))
	require.Equal(t, "seller@example.com", req.Form.Get("email"))
	require.Equal(t, "true", req.Form.Get("capabilities[card_payments][requested]"))
	require.Equal(t, "true", req.Form.Get("capabilities[transfers][requested]"))
	require.Equal(t, accID, req.Form.Get("metadata[account_id]"))
	key := req.Header.Get("Idempotency-Key")
	require.Contains(t, key, accID)

	// A retry uses the same idempotency key, so Stripe returns the account
	// it already created; another seller gets another key.
	_, err = p.CreateAccount(ctx, processor.NewAccount{AccountID: accID, Email: "seller@example.com"})
	require.NoError(t, err)
	require.Equal(t, key, rec.last(t).Header.Get("Idempotency-Key"))
	_, err = p.CreateAccount(ctx, processor.NewAccount{AccountID: accID + "x", Email: "seller@example.com"})
	require.NoError(t, err)
	require.NotEqual(t, key, rec.last(t).Header.Get("Idempotency-Key"))

	_, err = p.CreateAccount(ctx, processor.NewAccount{Email: "seller@example.com"})
	require.Error(t, err, "no service account id")
}

func TestCreateAccountAPIError(t *testing.T) {
	p, err := stripe.New(stripe.Config{SecretKey: "sk_bogus", APIBase: testkit.StripeMock(t)})
	require.NoError(t, err)
	_, err = p.CreateAccount(context.Background(), processor.NewAccount{AccountID: "acc_" + testkit.Unique(), Email: "seller@example.com"})
	var serr *stripego.Error
	require.ErrorAs(t, err, &serr)
	require.Equal(t, http.StatusUnauthorized, serr.HTTPStatusCode)
}

func TestOnboardingLink(t *testing.T) {
	p, rec := newProcessor(t)
	ctx := context.Background()
	acct, err := p.CreateAccount(ctx, processor.NewAccount{AccountID: "acc_" + testkit.Unique(), Email: "seller@example.com"})
	require.NoError(t, err)

	link, err := p.OnboardingLink(ctx, acct, "https://shop.example.com/console/return", "https://shop.example.com/console/refresh")
	require.NoError(t, err)
	u, err := url.Parse(link.URL)
	require.NoError(t, err)
	require.Equal(t, "https", u.Scheme)
	require.NotEmpty(t, u.Host)
	require.True(t, link.ExpiresAt.After(time.Now()), "expires at %s", link.ExpiresAt)
	require.True(t, link.ExpiresAt.Equal(testkit.StripeMockExpiresAt), "expires at %s", link.ExpiresAt)

	req := rec.last(t)
	require.Equal(t, "/v1/account_links", req.Path)
	require.Equal(t, acct, req.Form.Get("account"))
	require.Equal(t, "account_onboarding", req.Form.Get("type"))
	require.Equal(t, "https://shop.example.com/console/return", req.Form.Get("return_url"))
	require.Equal(t, "https://shop.example.com/console/refresh", req.Form.Get("refresh_url"))
}

// event is a Stripe event of type typ, in API version apiVersion, about obj.
func event(typ, apiVersion string, obj any) []byte {
	b, err := json.Marshal(map[string]any{
		"id":               "evt_1PgbmXB7WZ01zgkW3mJ7QmFq",
		"object":           "event",
		"account":          "acct_1PgafTB7WZ01zgkW",
		"api_version":      apiVersion,
		"created":          time.Now().Unix(),
		"livemode":         false,
		"pending_webhooks": 1,
		"request":          map[string]any{"id": nil, "idempotency_key": nil},
		"type":             typ,
		"data": map[string]any{
			"object":              obj,
			"previous_attributes": map[string]any{"charges_enabled": false},
		},
	})
	if err != nil {
		panic(err)
	}
	return b
}

// account is the data.object of an account.updated event.
func account(currency string) map[string]any {
	return map[string]any{
		"id":                "acct_1PgafTB7WZ01zgkW",
		"object":            "account",
		"type":              "express",
		"country":           "US",
		"email":             "seller@example.com",
		"charges_enabled":   true,
		"payouts_enabled":   false,
		"details_submitted": true,
		"default_currency":  currency,
		"capabilities":      map[string]any{"card_payments": "active", "transfers": "active"},
		"metadata":          map[string]any{"account_id": "acc_01J0000000000000000000000"},
		"requirements": map[string]any{
			"currently_due": []string{"external_account"}, "eventually_due": []string{"external_account"},
			"past_due": []string{}, "pending_verification": []string{}, "disabled_reason": nil,
		},
	}
}

// signed returns the headers of a webhook delivery of payload signed with
// secret at time at.
func signed(payload []byte, secret string, at time.Time) http.Header {
	sp := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: at})
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Stripe-Signature", sp.Header)
	return h
}

func TestParseWebhookAccountUpdated(t *testing.T) {
	p, _ := newProcessor(t)
	want := processor.Event{
		ID: "evt_1PgbmXB7WZ01zgkW3mJ7QmFq", Type: processor.AccountUpdated, RawType: "account.updated",
		Account: &processor.AccountStatus{
			AccountID: "acct_1PgafTB7WZ01zgkW", ChargesEnabled: true, PayoutsEnabled: false,
			DetailsSubmitted: true, Currency: "usd",
		},
	}
	for name, tc := range map[string]struct {
		apiVersion, currency string
		at                   time.Time
	}{
		"current api version":      {stripego.APIVersion, "usd", time.Now()},
		"other api version":        {"2019-02-19", "usd", time.Now()},
		"newer api version":        {"2025-03-31.basil", "usd", time.Now()},
		"uppercase currency":       {stripego.APIVersion, "USD", time.Now()},
		"signed a little earlier":  {stripego.APIVersion, "usd", time.Now().Add(-290 * time.Second)},
		"clock a little in future": {stripego.APIVersion, "usd", time.Now().Add(30 * time.Second)},
	} {
		t.Run(name, func(t *testing.T) {
			payload := event("account.updated", tc.apiVersion, account(tc.currency))
			ev, err := p.ParseWebhook(payload, signed(payload, secret, tc.at))
			require.NoError(t, err)
			require.Equal(t, want, ev)
		})
	}

	t.Run("no currency yet", func(t *testing.T) {
		obj := account("")
		obj["default_currency"] = nil
		payload := event("account.updated", stripego.APIVersion, obj)
		ev, err := p.ParseWebhook(payload, signed(payload, secret, time.Now()))
		require.NoError(t, err)
		require.Equal(t, processor.AccountUpdated, ev.Type)
		require.Empty(t, ev.Account.Currency)
	})
}

func TestParseWebhookIgnored(t *testing.T) {
	p, _ := newProcessor(t)
	for _, typ := range []string{"customer.created", "payment_intent.succeeded", "charge.dispute.funds_withdrawn", "some.future.type"} {
		payload := event(typ, stripego.APIVersion, map[string]any{"id": "cus_1", "object": "customer"})
		ev, err := p.ParseWebhook(payload, signed(payload, secret, time.Now()))
		require.NoError(t, err, typ)
		require.Equal(t, processor.Event{ID: "evt_1PgbmXB7WZ01zgkW3mJ7QmFq", Type: processor.Ignored, RawType: typ}, ev)
	}
}

func TestParseWebhookBadSignature(t *testing.T) {
	p, _ := newProcessor(t)
	payload := event("account.updated", stripego.APIVersion, account("usd"))
	tampered := []byte(strings.Replace(string(payload), `"payouts_enabled":false`, `"payouts_enabled":true`, 1))
	require.NotEqual(t, payload, tampered)

	for name, tc := range map[string]struct {
		payload []byte
		header  http.Header
	}{
		"tampered body": {tampered, signed(payload, secret, time.Now())},
		"wrong secret":  {payload, signed(payload, "whsec_other", time.Now())},
		"too old":       {payload, signed(payload, secret, time.Now().Add(-301*time.Second))},
		"much too old":  {payload, signed(payload, secret, time.Now().Add(-24*time.Hour))},
		"no header":     {payload, http.Header{}},
		"nil header":    {payload, nil},
		"garbage":       {payload, http.Header{"Stripe-Signature": {"garbage"}}},
		"no v1":         {payload, http.Header{"Stripe-Signature": {"t=" + time.Now().Format("20060102")}}},
		"empty body":    {nil, signed(payload, secret, time.Now())},
	} {
		t.Run(name, func(t *testing.T) {
			ev, err := p.ParseWebhook(tc.payload, tc.header)
			require.ErrorIs(t, err, processor.ErrBadSignature)
			require.Equal(t, processor.Event{}, ev)
		})
	}

	t.Run("no webhook secret configured", func(t *testing.T) {
		p, err := stripe.New(stripe.Config{SecretKey: testkit.StripeMockKey, APIBase: testkit.StripeMock(t)})
		require.NoError(t, err)
		_, err = p.ParseWebhook(payload, signed(payload, "", time.Now()))
		require.ErrorIs(t, err, processor.ErrBadSignature)
	})
}

func TestParseWebhookMalformed(t *testing.T) {
	p, _ := newProcessor(t)
	badAccount := account("usd")
	badAccount["charges_enabled"] = "yes"
	notAccount := map[string]any{"id": "cus_1", "object": "customer"}
	noID := map[string]any{}
	require.NoError(t, json.Unmarshal(event("account.updated", stripego.APIVersion, account("usd")), &noID))
	delete(noID, "id")
	noIDPayload, err := json.Marshal(noID)
	require.NoError(t, err)

	for name, payload := range map[string][]byte{
		"not json":             []byte(`{"id": "evt_1", "type": "account.updated", `),
		"data.object a string": event("account.updated", stripego.APIVersion, "acct_1"),
		"bad account field":    event("account.updated", stripego.APIVersion, badAccount),
		"not an account":       event("account.updated", stripego.APIVersion, notAccount),
		"no data.object":       event("account.updated", stripego.APIVersion, nil),
		"no event id":          noIDPayload,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := p.ParseWebhook(payload, signed(payload, secret, time.Now()))
			require.Error(t, err)
			require.False(t, errors.Is(err, processor.ErrBadSignature), "%v", err)
		})
	}
}
