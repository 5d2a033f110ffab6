package webhooks_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/processor/sandbox"
	"commerce/resolvers"
	"commerce/testkit"
	"commerce/webhooks"
)

// Order events to an agent platform (CONTRACT §25): an agent connection's
// endpoint gets its own orders' events only, as ACP's webhook body
// (order_create on payment, order_update on delivery, refund and lost
// dispute) signed with Merchant-Signature, which a real receiver checks
// here as an agent platform would; a seller's endpoint gets every order's
// events as before, with Standard Webhooks' headers.

// acpReceiver verifies Merchant-Signature with secret and keeps the
// bodies it accepted; a bad signature is answered 401.
type acpReceiver struct {
	*httptest.Server
	mu     sync.Mutex
	secret string
	bodies []map[string]any
	bad    int
}

func newACPReceiver(t *testing.T) *acpReceiver {
	rc := &acpReceiver{}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		defer rc.mu.Unlock()
		if !verifyMerchantSignature(r.Header.Get("Merchant-Signature"), body, rc.secret, time.Now()) ||
			r.Header.Get("Content-Type") != "application/json" {
			rc.bad++
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		rc.bodies = append(rc.bodies, m)
		_, _ = w.Write([]byte(`{"received":true}`))
	}))
	t.Cleanup(rc.Close)
	return rc
}

// verifyMerchantSignature checks "t={unix},v1={hex}" as ACP's webhook
// receiver does: a 300 s window and HMAC-SHA256 of "{t}.{body}".
func verifyMerchantSignature(header string, body []byte, secret string, now time.Time) bool {
	var ts, sig string
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(part, "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sig = v
		}
	}
	t, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || now.Sub(time.Unix(t, 0)).Abs() > 300*time.Second {
		return false
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts + "." + string(body)))
	want := hex.EncodeToString(mac.Sum(nil))
	return hmac.Equal([]byte(want), []byte(sig))
}

func (rc *acpReceiver) got() ([]map[string]any, int) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]map[string]any(nil), rc.bodies...), rc.bad
}

func TestMerchantSignature(t *testing.T) {
	ts := time.Unix(1709123456, 0)
	sig := webhooks.MerchantSignature("whsec_abc", ts, []byte(`{"a":1}`))
	mac := hmac.New(sha256.New, []byte("whsec_abc"))
	mac.Write([]byte(`1709123456.{"a":1}`))
	require.Equal(t, "t=1709123456,v1="+hex.EncodeToString(mac.Sum(nil)), sig)
	require.Regexp(t, `^t=\d+,v1=[a-f0-9]{64}$`, sig)
}

func TestAgentConnectionWebhooks(t *testing.T) {
	t.Parallel()
	// Its own workers post the deliveries, with the package's fast retries:
	// a manual DeliverDue round here would claim any test's due records
	// (the package shares one database), retry them on the default
	// schedule, and wait behind slow receivers of other tests.
	env := testkit.New(t, testkit.WithWorkers(), fastRetries)
	ctx := context.Background()
	r := env.Server.Resolver
	acc := env.NewAccount()
	env.ConnectSandbox(acc.Key, "usd")
	// The agent connection, its endpoint made with it.
	agent := newACPReceiver(t)
	cr := env.Post("/v1/agent-connections", acc.Key, map[string]any{"name": "Agent", "webhook_url": agent.URL + "/hooks"})
	require.Equal(t, 201, cr.Status, "%s", cr.Body)
	agent.mu.Lock()
	agent.secret = cr.JSON(t)["webhook_secret"].(string)
	agent.mu.Unlock()
	p, err := r.AuthenticateAgentConnection(ctx, cr.JSON(t)["token"].(string))
	require.NoError(t, err)
	var endpointID string
	require.NoError(t, env.Server.DB.NewSelect().Table("webhook_endpoints").Column("id").
		Where("agent_connection_id = ?", p.ConnectionID).Scan(ctx, &endpointID))
	// The seller's own endpoint.
	seller := newReceiver(t, func(int) int { return 200 })
	ep := env.Post("/v1/webhooks", acc.Key, map[string]any{"url": seller.URL, "events": []string{"order.paid", "order.fulfilled"}})
	require.Equal(t, 201, ep.Status, "%s", ep.Body)

	// A listing delivered by the seller (webhook content), so fulfilment
	// is its own event.
	l := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Agent webhook " + testkit.Unique(), "price": 2500, "external_delivery": "webhook"})
	require.Equal(t, 201, l.Status, "%s", l.Body)
	listingID := l.JSON(t)["id"].(string)
	require.Equal(t, 200, env.Post("/v1/listings/"+listingID+"/publish", acc.Key, nil).Status)

	// A product-page order: the seller's endpoint only.
	buyPage := env.Post("/v1/checkouts", acc.Key, map[string]any{"listing_id": listingID, "buyer_email": "page@example.com"})
	require.Equal(t, 201, buyPage.Status, "%s", buyPage.Body)
	pageURL := buyPage.JSON(t)["url"].(string)
	_, err = r.CompleteSandboxCheckout(ctx, pageURL[strings.LastIndex(pageURL, "/")+1:], "paid", "")
	require.NoError(t, err)

	// The agent's order.
	c, err := r.CreateAgentCheckout(ctx, p, resolvers.AgentCheckoutInput{Currency: "usd",
		Items: []resolvers.AgentItemInput{{ID: listingID, Quantity: 1}}, Buyer: &resolvers.AgentBuyer{Email: "agent@example.com"}})
	require.NoError(t, err)
	require.Equal(t, resolvers.AgentReady, c.Status, "%+v", c.Messages)
	tok, err := r.SandboxDelegatePayment(ctx, resolvers.SandboxCard{Number: "4242424242424242"},
		resolvers.SandboxAllowance{Reason: "one_time", Currency: "usd", CheckoutSessionID: c.ID, MerchantID: acc.ID, MaxAmount: 2500,
			ExpiresAt: time.Now().Add(time.Hour)}, nil)
	require.NoError(t, err)
	c, err = r.CompleteAgentCheckout(ctx, p, c.ID, resolvers.AgentPayment{HandlerID: "sandbox_card", InstrumentType: "card", CredentialType: "spt", Token: tok.ID})
	require.NoError(t, err)
	require.Equal(t, resolvers.AgentCompleted, c.Status, "%+v", c.Messages)
	orderID := c.Order.ID

	// deliver waits until the agent platform has n.
	deliver := func(n int) {
		t.Helper()
		ok := assert.Eventually(t, func() bool {
			bodies, _ := agent.got()
			return len(bodies) >= n
		}, 10*time.Second, 50*time.Millisecond)
		if !ok {
			var errs []*string
			_ = env.Server.DB.NewSelect().Table("webhook_deliveries").Column("last_error").Where("endpoint_id = ?", endpointID).Scan(ctx, &errs)
			for _, e := range errs {
				t.Logf("last_error: %v", deref(e))
			}
			t.FailNow()
		}
	}

	// Paid: order_create to the agent platform, once, signed.
	var queued []string
	require.NoError(t, env.Server.DB.NewSelect().Table("webhook_deliveries").Column("type").
		Where("endpoint_id = ?", endpointID).Scan(ctx, &queued))
	require.Equal(t, []string{"order.paid"}, queued, "the fan-out gives the agent's endpoint its order's order.paid only")
	deliver(1)
	bodies, bad := agent.got()
	require.Zero(t, bad)
	require.Len(t, bodies, 1)
	require.Equal(t, "order_create", bodies[0]["type"])
	data := bodies[0]["data"].(map[string]any)
	require.Equal(t, "order", data["type"])
	require.Equal(t, orderID, data["id"])
	require.Equal(t, c.ID, data["checkout_session_id"])
	// Any process of the package's tests may deliver it, each with a base
	// URL of its own (in a deployment every process has the same): the
	// thank-you page's path and view token are the order's.
	require.Equal(t, urlPathQuery(t, c.Order.PermalinkURL), urlPathQuery(t, data["permalink_url"].(string)))
	require.Equal(t, "confirmed", data["status"])
	line := data["line_items"].([]any)[0].(map[string]any)
	require.Equal(t, 2500.0, line["unit_price"])
	require.Equal(t, map[string]any{"ordered": 1.0, "current": 1.0, "fulfilled": 0.0}, line["quantity"])
	require.Contains(t, data["totals"], map[string]any{"type": "total", "display_text": "Total", "amount": 2500.0})
	// The seller's endpoint got both orders' order.paid, Standard Webhooks signed.
	require.Eventually(t, func() bool { return len(seller.deliveries()) >= 2 }, 5*time.Second, 20*time.Millisecond)
	for _, d := range seller.deliveries() {
		require.NotEmpty(t, d.Header.Get("webhook-signature"))
		require.Empty(t, d.Header.Get("Merchant-Signature"))
	}

	// Fulfilled by the seller: order_update with the delivery.
	f := env.Post("/v1/orders/"+orderID+"/fulfill", acc.Key, map[string]any{})
	require.Equal(t, 200, f.Status, "%s", f.Body)
	deliver(2)
	bodies, bad = agent.got()
	require.Zero(t, bad)
	require.Len(t, bodies, 2)
	require.Equal(t, "order_update", bodies[1]["type"])
	data = bodies[1]["data"].(map[string]any)
	require.Equal(t, "completed", data["status"])
	line = data["line_items"].([]any)[0].(map[string]any)
	require.Equal(t, "fulfilled", line["status"])

	// Refunded (the sandbox confirms): order_update with the refund.
	rf := env.Post("/v1/orders/"+orderID+"/refund", acc.Key, nil)
	require.Equal(t, 200, rf.Status, "%s", rf.Body)
	var o db.Order
	require.NoError(t, env.Server.DB.NewSelect().Model(&o).Where("id = ?", orderID).Scan(ctx))
	require.NoError(t, r.ApplyProcessorEvent(ctx, sandbox.RefundConfirmed(orderID, *o.PaymentIntentID, o.Amount, o.Currency)))
	deliver(3)
	bodies, _ = agent.got()
	require.Len(t, bodies, 3)
	data = bodies[2]["data"].(map[string]any)
	require.Equal(t, "order_update", bodies[2]["type"])
	require.Equal(t, "canceled", data["status"])
	adj := data["adjustments"].([]any)[0].(map[string]any)
	require.Equal(t, "refund", adj["type"])
	require.Equal(t, 2500.0, adj["amount"])

	// Nothing of the product-page order reached the agent platform.
	for _, b := range bodies {
		require.Equal(t, orderID, b["data"].(map[string]any)["id"])
	}
	var n int
	require.NoError(t, env.Server.DB.NewSelect().Table("webhook_deliveries").ColumnExpr("count(*)").
		Where("endpoint_id = ?", endpointID).Scan(ctx, &n))
	require.Equal(t, 3, n)

	// A lost dispute is an order_update with the dispute; a won one is
	// none of the agent platform's business.
	buyAgain := func() string {
		t.Helper()
		c, err := r.CreateAgentCheckout(ctx, p, resolvers.AgentCheckoutInput{Currency: "usd",
			Items: []resolvers.AgentItemInput{{ID: listingID, Quantity: 1}}, Buyer: &resolvers.AgentBuyer{Email: "again@example.com"}})
		require.NoError(t, err)
		tok, err := r.SandboxDelegatePayment(ctx, resolvers.SandboxCard{Number: "4242424242424242"},
			resolvers.SandboxAllowance{Reason: "one_time", Currency: "usd", CheckoutSessionID: c.ID, MerchantID: acc.ID, MaxAmount: 2500,
				ExpiresAt: time.Now().Add(time.Hour)}, nil)
		require.NoError(t, err)
		c, err = r.CompleteAgentCheckout(ctx, p, c.ID, resolvers.AgentPayment{HandlerID: "sandbox_card", InstrumentType: "card", CredentialType: "spt", Token: tok.ID})
		require.NoError(t, err)
		require.Equal(t, resolvers.AgentCompleted, c.Status, "%+v", c.Messages)
		return c.Order.ID
	}
	won, lost := buyAgain(), buyAgain()
	deliver(5)
	require.NoError(t, r.SandboxDispute(ctx, won, "won"))
	require.NoError(t, r.SandboxDispute(ctx, lost, "lost"))
	deliver(6)
	bodies, bad = agent.got()
	require.Zero(t, bad)
	require.Len(t, bodies, 6)
	last := bodies[5]
	require.Equal(t, "order_update", last["type"])
	data = last["data"].(map[string]any)
	require.Equal(t, lost, data["id"])
	require.Equal(t, "canceled", data["status"])
	require.Equal(t, "dispute", data["adjustments"].([]any)[0].(map[string]any)["type"])
	var types []string
	require.NoError(t, env.Server.DB.NewSelect().Table("webhook_deliveries").Column("type").
		Where("endpoint_id = ?", endpointID).Where("event_id IN (SELECT id FROM events WHERE order_id = ?)", won).Scan(ctx, &types))
	require.Equal(t, []string{"order.paid"}, types, "the won dispute's order.dispute_closed does not go to the agent")
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// urlPathQuery is a URL without its scheme and host.
func urlPathQuery(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	require.NoError(t, err)
	return u.RequestURI()
}
