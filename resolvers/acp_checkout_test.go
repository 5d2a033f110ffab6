package resolvers_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/problem"
	"commerce/processor/sandbox"
	"commerce/resolvers"
	"commerce/testkit"
)

// Buyers' agents' checkout sessions (CONTRACT §25), on real rows: the
// messages and statuses of each use case, the pending order behind a
// session, discount codes applied and rejected with ACP's reasons, expiry
// and cancel releasing the code, the sandbox vault's tokens declined and
// paid, and one charge and one order under 20 concurrent completes.

type acpFixture struct {
	t   *testing.T
	env *testkit.Env
	r   *resolvers.Resolver
	acc testkit.Account
	p   resolvers.AgentPrincipal
	// listing is a published listing at 2900 (USD).
	listing string
}

func newACPFixture(t *testing.T) *acpFixture {
	t.Helper()
	env := testkit.New(t)
	acc := env.NewAccount()
	env.ConnectSandbox(acc.Key, "usd")
	f := &acpFixture{t: t, env: env, r: env.Server.Resolver, acc: acc}
	f.p = f.connect("https://agent.example.com/acp/webhooks")
	f.listing = f.publish(map[string]any{"title": "Agent guide " + testkit.Unique(), "price": 2900})
	return f
}

// connect creates an agent connection of the fixture's seller and
// returns the principal its token authenticates.
func (f *acpFixture) connect(webhookURL string) resolvers.AgentPrincipal {
	f.t.Helper()
	r := f.env.Post("/v1/agent-connections", f.acc.Key, map[string]any{"name": "Agent " + testkit.Unique(), "webhook_url": webhookURL})
	require.Equal(f.t, http.StatusCreated, r.Status, "%s", r.Body)
	p, err := f.r.AuthenticateAgentConnection(context.Background(), r.JSON(f.t)["token"].(string))
	require.NoError(f.t, err)
	require.Equal(f.t, f.acc.ID, p.AccountID)
	return p
}

// publish creates and publishes a listing with a text deliverable.
func (f *acpFixture) publish(body map[string]any) string {
	f.t.Helper()
	body["deliverables"] = []any{map[string]any{"type": "text", "value": "the goods"}}
	r := f.env.Post("/v1/listings", f.acc.Key, body)
	require.Equal(f.t, http.StatusCreated, r.Status, "%s", r.Body)
	id := r.JSON(f.t)["id"].(string)
	r = f.env.Post("/v1/listings/"+id+"/publish", f.acc.Key, nil)
	require.Equal(f.t, http.StatusOK, r.Status, "%s", r.Body)
	return id
}

func (f *acpFixture) create(in resolvers.AgentCheckoutInput) *resolvers.AgentCheckout {
	f.t.Helper()
	if in.Currency == "" {
		in.Currency = "usd"
	}
	c, err := f.r.CreateAgentCheckout(context.Background(), f.p, in)
	require.NoError(f.t, err)
	return c
}

func items(ids ...string) []resolvers.AgentItemInput {
	out := make([]resolvers.AgentItemInput, len(ids))
	for i, id := range ids {
		out[i] = resolvers.AgentItemInput{ID: id, Quantity: 1}
	}
	return out
}

func buyer(email string) *resolvers.AgentBuyer { return &resolvers.AgentBuyer{Email: email} }

func codes(cs ...string) *[]string { return &cs }

// message finds the message at param, failing without one.
func message(t *testing.T, c *resolvers.AgentCheckout, param string) resolvers.AgentMessage {
	t.Helper()
	for _, m := range c.Messages {
		if m.Param == param {
			return m
		}
	}
	require.Failf(t, "no message", "no message at %s in %+v", param, c.Messages)
	return resolvers.AgentMessage{}
}

func (f *acpFixture) order(id string) *db.Order {
	f.t.Helper()
	o := new(db.Order)
	require.NoError(f.t, f.env.Server.DB.NewSelect().Model(o).Where("id = ?", id).Scan(context.Background()))
	return o
}

// sessionOrderID is the session's backing order ("" for none).
func (f *acpFixture) sessionOrderID(id string) string {
	f.t.Helper()
	var orderID *string
	require.NoError(f.t, f.env.Server.DB.NewSelect().Table("acp_checkout_sessions").Column("order_id").
		Where("id = ?", id).Scan(context.Background(), &orderID))
	if orderID == nil {
		return ""
	}
	return *orderID
}

func (f *acpFixture) vault(sessionID, card string, maxAmount int64, cur string) string {
	f.t.Helper()
	tok, err := f.r.SandboxDelegatePayment(context.Background(), resolvers.SandboxCard{Number: card, ExpMonth: "12", ExpYear: "2030", CVC: "123"},
		resolvers.SandboxAllowance{Reason: "one_time", Currency: cur, CheckoutSessionID: sessionID, MerchantID: f.acc.ID,
			MaxAmount: maxAmount, ExpiresAt: time.Now().Add(time.Hour)}, map[string]string{"agent": "test"})
	require.NoError(f.t, err)
	require.True(f.t, strings.HasPrefix(tok.ID, "vt_"), tok.ID)
	return tok.ID
}

func pay(token string) resolvers.AgentPayment {
	return resolvers.AgentPayment{HandlerID: "sandbox_card", InstrumentType: "card", CredentialType: "spt", Token: token}
}

func requireProblemCode(t *testing.T, err error, code problem.Code, param string) *problem.Problem {
	t.Helper()
	p := problem.From(err)
	require.NotNil(t, p, "%v", err)
	require.Equal(t, code, p.Code, "%v", err)
	if param != "" {
		require.Equal(t, param, p.Param, "%v", err)
	}
	return p
}

func TestAgentCheckoutMessagesAndStatuses(t *testing.T) {
	t.Parallel()
	f := newACPFixture(t)
	ctx := context.Background()

	// No line item: a request error, as is a malformed currency.
	_, err := f.r.CreateAgentCheckout(ctx, f.p, resolvers.AgentCheckoutInput{Currency: "usd"})
	requireProblemCode(t, err, problem.ValidationError, "$.line_items")
	_, err = f.r.CreateAgentCheckout(ctx, f.p, resolvers.AgentCheckoutInput{Items: items(f.listing), Currency: "dollars"})
	requireProblemCode(t, err, problem.ValidationError, "$.currency")
	_, err = f.r.CreateAgentCheckout(ctx, f.p, resolvers.AgentCheckoutInput{Items: []resolvers.AgentItemInput{{ID: f.listing}}, Currency: "usd"})
	requireProblemCode(t, err, problem.ValidationError, "$.line_items[0].quantity")

	// Without the email: not ready, missing at $.buyer.email; the listing
	// priced, the pending order behind the session.
	c := f.create(resolvers.AgentCheckoutInput{Items: items(f.listing)})
	require.Regexp(t, `^acs_`, c.ID)
	require.Equal(t, resolvers.AgentNotReady, c.Status)
	m := message(t, c, "$.buyer.email")
	require.Equal(t, "error", m.Type)
	require.Equal(t, "missing", m.Code)
	require.Len(t, c.Items, 1)
	require.Equal(t, f.listing, c.Items[0].ListingID)
	require.Equal(t, 1, c.Items[0].Quantity)
	require.Equal(t, int64(2900), c.Items[0].UnitAmount)
	require.Equal(t, f.env.URL+"/p/", c.Items[0].URL[:len(f.env.URL)+3])
	require.Equal(t, resolvers.AgentTotals{ItemsBase: 2900, Subtotal: 2900, Total: 2900}, c.Totals)
	require.Equal(t, []resolvers.AgentPaymentHandler{{ID: "sandbox_card", Name: "dev.acp.tokenized.card", PSP: "sandbox",
		RequiresDelegatePayment: true, Config: map[string]any{"merchant_id": f.acc.ID}}}, c.Handlers)
	require.Equal(t, "usd", c.Currency)
	require.WithinDuration(t, time.Now().Add(30*time.Minute), c.ExpiresAt, time.Minute)
	o := f.order(f.sessionOrderID(c.ID))
	require.Equal(t, db.OrderPending, o.Status)
	require.Equal(t, db.OrderSourceACP, o.Source)
	require.Equal(t, f.p.ConnectionID, *o.AgentConnectionID)
	require.Equal(t, int64(2900), o.Amount)
	require.WithinDuration(t, c.ExpiresAt, *o.CheckoutExpiresAt, time.Second)

	// The email makes it ready; the order takes it.
	c, err = f.r.UpdateAgentCheckout(ctx, f.p, c.ID, resolvers.AgentCheckoutInput{Buyer: buyer("Agent.Buyer@Example.com")})
	require.NoError(t, err)
	require.Equal(t, resolvers.AgentReady, c.Status, "%+v", c.Messages)
	require.Empty(t, c.Messages)
	require.Equal(t, "Agent.Buyer@Example.com", c.Buyer.Email)
	require.Equal(t, "Agent.Buyer@example.com", f.order(o.ID).BuyerEmail)
	got, err := f.r.AgentCheckoutSession(ctx, f.p, c.ID)
	require.NoError(t, err)
	require.Equal(t, c.Status, got.Status)
	require.Equal(t, c.Totals, got.Totals)

	// An invalid email: not ready, invalid at $.buyer.email.
	c, err = f.r.UpdateAgentCheckout(ctx, f.p, c.ID, resolvers.AgentCheckoutInput{Buyer: buyer("not an email")})
	require.NoError(t, err)
	require.Equal(t, resolvers.AgentNotReady, c.Status)
	require.Equal(t, "invalid", message(t, c, "$.buyer.email").Code)

	// Another session of the same seller by another connection is fine;
	// another account's session is not_found.
	other := f.connect("https://agent.example.com/other")
	_, err = f.r.AgentCheckoutSession(ctx, other, c.ID)
	require.NoError(t, err)
	stranger := f.env.NewAccount()
	_, err = f.r.AgentCheckoutSession(ctx, resolvers.AgentPrincipal{ConnectionID: db.NewID("acn"), AccountID: stranger.ID}, c.ID)
	requireProblemCode(t, err, problem.NotFound, "")
	_, err = f.r.UpdateAgentCheckout(ctx, resolvers.AgentPrincipal{ConnectionID: db.NewID("acn"), AccountID: stranger.ID}, c.ID,
		resolvers.AgentCheckoutInput{Buyer: buyer("x@example.com")})
	requireProblemCode(t, err, problem.NotFound, "")

	// Another currency: unsupported at $.currency.
	c = f.create(resolvers.AgentCheckoutInput{Items: items(f.listing), Currency: "eur", Buyer: buyer("b@example.com")})
	require.Equal(t, resolvers.AgentNotReady, c.Status)
	require.Equal(t, "unsupported", message(t, c, "$.currency").Code)

	// Unknown and another seller's listings: not_found at the item's id.
	strangerListing := func() string {
		r := f.env.Post("/v1/listings", stranger.Key, map[string]any{"title": "Not yours", "price": 900})
		require.Equal(t, 201, r.Status, "%s", r.Body)
		return r.JSON(t)["id"].(string)
	}()
	for _, id := range []string{"lst_unknown", "nonsense", strangerListing} {
		c = f.create(resolvers.AgentCheckoutInput{Items: items(id), Buyer: buyer("b@example.com")})
		require.Equal(t, resolvers.AgentNotReady, c.Status)
		require.Equal(t, "not_found", message(t, c, "$.line_items[0].id").Code, id)
		require.Empty(t, c.Items)
		require.Empty(t, f.sessionOrderID(c.ID), "nothing priced, no order")
	}

	// The same listing twice: quantity_exceeded at the repeat's id; a
	// quantity above 1: at its quantity; a second listing: unsupported.
	second := f.publish(map[string]any{"title": "Second " + testkit.Unique(), "price": 1500})
	c = f.create(resolvers.AgentCheckoutInput{Items: items(f.listing, f.listing), Buyer: buyer("b@example.com")})
	require.Equal(t, "quantity_exceeded", message(t, c, "$.line_items[1].id").Code)
	require.Equal(t, resolvers.AgentNotReady, c.Status)
	c = f.create(resolvers.AgentCheckoutInput{Items: []resolvers.AgentItemInput{{ID: f.listing, Quantity: 3}}, Buyer: buyer("b@example.com")})
	require.Equal(t, "quantity_exceeded", message(t, c, "$.line_items[0].quantity").Code)
	c = f.create(resolvers.AgentCheckoutInput{Items: items(f.listing, second), Buyer: buyer("b@example.com")})
	m = message(t, c, "$.line_items[1]")
	require.Equal(t, "unsupported", m.Code)
	require.Contains(t, m.Content, "one listing")
	// Updating the items to the second listing alone replaces the order.
	before := f.sessionOrderID(c.ID)
	c, err = f.r.UpdateAgentCheckout(ctx, f.p, c.ID, resolvers.AgentCheckoutInput{Items: items(second)})
	require.NoError(t, err)
	require.Equal(t, resolvers.AgentReady, c.Status, "%+v", c.Messages)
	require.Equal(t, int64(1500), c.Totals.Total)
	require.Equal(t, db.OrderCanceled, f.order(before).Status)
	require.Equal(t, int64(1500), f.order(f.sessionOrderID(c.ID)).Amount)

	// A required checkout field: an error the buyer resolves on the
	// product page.
	fielded := f.publish(map[string]any{"title": "Sized " + testkit.Unique(), "price": 1000,
		"checkout_schema": []any{map[string]any{"key": "size", "label": "Size", "kind": "select", "required": true, "options": []string{"S", "M"}}}})
	c = f.create(resolvers.AgentCheckoutInput{Items: items(fielded), Buyer: buyer("b@example.com")})
	m = message(t, c, "$.line_items[0]")
	require.Equal(t, "requires_buyer_input", m.Resolution)
	require.Equal(t, "error", m.Type)
	require.Contains(t, m.Content, f.env.URL+"/p/")
	require.Contains(t, m.Content, "Size")
	require.Equal(t, resolvers.AgentNotReady, c.Status)

	// Pay what you want: its suggested price, else its minimum.
	pwyw := f.publish(map[string]any{"title": "PWYW " + testkit.Unique(), "pricing": "pay_what_you_want", "price": 500, "suggested_price": 1200})
	c = f.create(resolvers.AgentCheckoutInput{Items: items(pwyw), Buyer: buyer("b@example.com")})
	require.Equal(t, int64(1200), c.Totals.Total)
	minimum := f.publish(map[string]any{"title": "PWYW min " + testkit.Unique(), "pricing": "pay_what_you_want", "price": 700})
	c = f.create(resolvers.AgentCheckoutInput{Items: items(minimum), Buyer: buyer("b@example.com")})
	require.Equal(t, int64(700), c.Totals.Total)

	// Unknown sessions.
	_, err = f.r.AgentCheckoutSession(ctx, f.p, "acs_nope")
	requireProblemCode(t, err, problem.NotFound, "")
}

func TestAgentCheckoutDiscounts(t *testing.T) {
	t.Parallel()
	f := newACPFixture(t)
	ctx := context.Background()
	discount := func(body map[string]any) string {
		r := f.env.Post("/v1/discounts", f.acc.Key, body)
		require.Equal(t, 201, r.Status, "%s", r.Body)
		return r.JSON(t)["id"].(string)
	}
	reserved := func(id string) (reserved, redeemed int) {
		require.NoError(t, f.env.Server.DB.NewSelect().Table("discounts").Column("reserved_count", "redemptions_count").
			Where("id = ?", id).Scan(ctx, &reserved, &redeemed))
		return
	}
	tenOff := discount(map[string]any{"code": "TENOFF", "type": "percentage", "percent_off": 10})

	// Applied: the totals and the order carry it, and it is reserved.
	c := f.create(resolvers.AgentCheckoutInput{Items: items(f.listing), Buyer: buyer("d@example.com"), Discounts: codes("tenoff")})
	require.Equal(t, resolvers.AgentReady, c.Status, "%+v", c.Messages)
	require.Len(t, c.Discounts.Applied, 1)
	require.Equal(t, "TENOFF", c.Discounts.Applied[0].Code)
	require.Equal(t, int64(290), c.Discounts.Applied[0].Amount)
	require.Equal(t, resolvers.AgentTotals{ItemsBase: 2900, ItemsDiscount: 290, Subtotal: 2610, Discount: 290, Total: 2610}, c.Totals)
	require.Equal(t, int64(2610), f.order(f.sessionOrderID(c.ID)).Amount)
	n, _ := reserved(tenOff)
	require.Equal(t, 1, n)

	// Removing the code gives it back; applying it again takes it again.
	c, err := f.r.UpdateAgentCheckout(ctx, f.p, c.ID, resolvers.AgentCheckoutInput{Discounts: codes()})
	require.NoError(t, err)
	require.Equal(t, int64(2900), c.Totals.Total)
	n, _ = reserved(tenOff)
	require.Equal(t, 0, n)
	c, err = f.r.UpdateAgentCheckout(ctx, f.p, c.ID, resolvers.AgentCheckoutInput{Discounts: codes("TENOFF", "tenoff", "OTHER")})
	require.NoError(t, err)
	require.Equal(t, int64(2610), c.Totals.Total)
	n, _ = reserved(tenOff)
	require.Equal(t, 1, n)
	rejected := map[string]string{}
	for _, r := range c.Discounts.Rejected {
		rejected[r.Code] = r.Reason
	}
	require.Equal(t, map[string]string{"tenoff": "discount_code_already_applied", "OTHER": "discount_code_combination_disallowed"}, rejected)
	require.Equal(t, "warning", message(t, c, "$.discounts.codes[2]").Type)

	// Cancel releases the reservation.
	c, err = f.r.CancelAgentCheckout(ctx, f.p, c.ID)
	require.NoError(t, err)
	require.Equal(t, resolvers.AgentCanceled, c.Status)
	n, _ = reserved(tenOff)
	require.Equal(t, 0, n)

	// Each refusal with its reason; the session priced without the code
	// and still ready.
	expiring := discount(map[string]any{"code": "GONE", "type": "fixed", "amount_off": 100, "expires_at": time.Now().Add(time.Hour).Format(time.RFC3339)})
	_, err = f.env.Server.DB.NewUpdate().Table("discounts").Set("expires_at = now() - interval '1 minute'").Where("id = ?", expiring).Exec(ctx)
	require.NoError(t, err)
	discount(map[string]any{"code": "BIGSPEND", "type": "fixed", "amount_off": 100, "minimum_amount": 10000})
	discount(map[string]any{"code": "ONCE", "type": "fixed", "amount_off": 100, "max_redemptions": 1})
	other := f.publish(map[string]any{"title": "Other " + testkit.Unique(), "price": 1000})
	discount(map[string]any{"code": "OTHERONLY", "type": "fixed", "amount_off": 100, "listing_ids": []string{other}})
	// ONCE is taken by a first session.
	first := f.create(resolvers.AgentCheckoutInput{Items: items(f.listing), Buyer: buyer("first@example.com"), Discounts: codes("ONCE")})
	require.Len(t, first.Discounts.Applied, 1)
	for code, reason := range map[string]string{"NOPE": "discount_code_invalid", "GONE": "discount_code_expired",
		"BIGSPEND": "discount_code_minimum_not_met", "ONCE": "discount_code_usage_limit_reached", "OTHERONLY": "discount_code_user_ineligible"} {
		c := f.create(resolvers.AgentCheckoutInput{Items: items(f.listing), Buyer: buyer("d@example.com"), Discounts: codes(code)})
		require.Equal(t, resolvers.AgentReady, c.Status, "%s: %+v", code, c.Messages)
		require.Empty(t, c.Discounts.Applied, code)
		require.Len(t, c.Discounts.Rejected, 1, code)
		require.Equal(t, reason, c.Discounts.Rejected[0].Reason, code)
		require.NotEmpty(t, c.Discounts.Rejected[0].Message, code)
		m := message(t, c, "$.discounts.codes[0]")
		require.Equal(t, reason, m.Code, code)
		require.Equal(t, int64(2900), c.Totals.Total, code)
		require.Nil(t, f.order(f.sessionOrderID(c.ID)).DiscountID, code)
	}
}

func TestAgentCheckoutExpiryAndCancel(t *testing.T) {
	t.Parallel()
	f := newACPFixture(t)
	ctx := context.Background()
	r := f.env.Post("/v1/discounts", f.acc.Key, map[string]any{"code": "EXP", "type": "percentage", "percent_off": 50})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	dsc := r.JSON(t)["id"].(string)
	reservedCount := func() (n int) {
		require.NoError(t, f.env.Server.DB.NewSelect().Table("discounts").Column("reserved_count").Where("id = ?", dsc).Scan(ctx, &n))
		return n
	}
	past := func(sessionID string) {
		_, err := f.env.Server.DB.ExecContext(ctx, `UPDATE acp_checkout_sessions SET expires_at = now() - interval '1 second' WHERE id = ?`, sessionID)
		require.NoError(t, err)
		_, err = f.env.Server.DB.ExecContext(ctx, `UPDATE orders SET checkout_expires_at = now() - interval '1 second'
			WHERE id = (SELECT order_id FROM acp_checkout_sessions WHERE id = ?)`, sessionID)
		require.NoError(t, err)
	}

	// Read past its expiry: expired, its order canceled, the code released.
	c := f.create(resolvers.AgentCheckoutInput{Items: items(f.listing), Buyer: buyer("e@example.com"), Discounts: codes("EXP")})
	require.Equal(t, resolvers.AgentReady, c.Status)
	require.Equal(t, 1, reservedCount())
	past(c.ID)
	c, err := f.r.AgentCheckoutSession(ctx, f.p, c.ID)
	require.NoError(t, err)
	require.Equal(t, resolvers.AgentExpired, c.Status)
	require.Equal(t, db.OrderCanceled, f.order(f.sessionOrderID(c.ID)).Status)
	require.Equal(t, 0, reservedCount())
	_, err = f.r.UpdateAgentCheckout(ctx, f.p, c.ID, resolvers.AgentCheckoutInput{Buyer: buyer("x@example.com")})
	p := requireProblemCode(t, err, problem.InvalidTransition, "")
	require.Equal(t, "expired", p.Ext["current_status"])
	_, err = f.r.CompleteAgentCheckout(ctx, f.p, c.ID, pay("vt_whatever"))
	p = requireProblemCode(t, err, problem.InvalidTransition, "")
	require.Equal(t, "checkout_session_expired", p.Ext["acp_code"])

	// The order expiry sweep expires the session through its order.
	c = f.create(resolvers.AgentCheckoutInput{Items: items(f.listing), Buyer: buyer("e2@example.com"), Discounts: codes("EXP")})
	require.Equal(t, 1, reservedCount())
	past(c.ID)
	_, err = f.r.ExpireDueCheckouts(ctx)
	require.NoError(t, err)
	require.Equal(t, 0, reservedCount())
	var status string
	require.NoError(t, f.env.Server.DB.NewSelect().Table("acp_checkout_sessions").Column("status").Where("id = ?", c.ID).Scan(ctx, &status))
	require.Equal(t, resolvers.AgentExpired, status)

	// Cancel: the order canceled, the code released; a second cancel and
	// a complete are refused.
	c = f.create(resolvers.AgentCheckoutInput{Items: items(f.listing), Buyer: buyer("e3@example.com"), Discounts: codes("EXP")})
	require.Equal(t, 1, reservedCount())
	c, err = f.r.CancelAgentCheckout(ctx, f.p, c.ID)
	require.NoError(t, err)
	require.Equal(t, resolvers.AgentCanceled, c.Status)
	require.Empty(t, c.Messages)
	require.Equal(t, db.OrderCanceled, f.order(f.sessionOrderID(c.ID)).Status)
	require.Equal(t, 0, reservedCount())
	_, err = f.r.CancelAgentCheckout(ctx, f.p, c.ID)
	p = requireProblemCode(t, err, problem.InvalidTransition, "")
	require.Equal(t, "canceled", p.Ext["current_status"])
	_, err = f.r.CompleteAgentCheckout(ctx, f.p, c.ID, pay("vt_whatever"))
	requireProblemCode(t, err, problem.InvalidTransition, "")
	// A session without a priced listing cancels too.
	c = f.create(resolvers.AgentCheckoutInput{Items: items("lst_unknown")})
	c, err = f.r.CancelAgentCheckout(ctx, f.p, c.ID)
	require.NoError(t, err)
	require.Equal(t, resolvers.AgentCanceled, c.Status)
}

func TestAgentCheckoutDeclinedThenPaid(t *testing.T) {
	t.Parallel()
	f := newACPFixture(t)
	ctx := context.Background()
	c := f.create(resolvers.AgentCheckoutInput{Items: items(f.listing)})
	require.Equal(t, resolvers.AgentNotReady, c.Status)

	// Not ready: complete is refused.
	good := f.vault(c.ID, "4242424242424242", 2900, "usd")
	_, err := f.r.CompleteAgentCheckout(ctx, f.p, c.ID, pay(good))
	p := requireProblemCode(t, err, problem.InvalidTransition, "")
	require.Equal(t, "checkout_session_not_ready", p.Ext["acp_code"])
	// Payment data's shape.
	_, err = f.r.CompleteAgentCheckout(ctx, f.p, c.ID, resolvers.AgentPayment{HandlerID: "stripe", InstrumentType: "card", CredentialType: "spt", Token: good})
	requireProblemCode(t, err, problem.ValidationError, "$.payment_data.handler_id")

	// The vault refuses what is not a test card or an open session's.
	_, err = f.r.SandboxDelegatePayment(ctx, resolvers.SandboxCard{Number: "4111111111111111"},
		resolvers.SandboxAllowance{Reason: "one_time", Currency: "usd", CheckoutSessionID: c.ID, MerchantID: f.acc.ID, MaxAmount: 2900, ExpiresAt: time.Now().Add(time.Hour)}, nil)
	requireProblemCode(t, err, problem.ValidationError, "$.payment_method.number")
	_, err = f.r.SandboxDelegatePayment(ctx, resolvers.SandboxCard{Number: "4242424242424242"},
		resolvers.SandboxAllowance{Reason: "one_time", Currency: "usd", CheckoutSessionID: "acs_nope", MerchantID: f.acc.ID, MaxAmount: 2900, ExpiresAt: time.Now().Add(time.Hour)}, nil)
	requireProblemCode(t, err, problem.ValidationError, "$.allowance.checkout_session_id")

	declinedCard := f.vault(c.ID, "4000000000000002", 2900, "usd")
	small := f.vault(c.ID, "4242424242424242", 100, "usd")
	euro := f.vault(c.ID, "4242424242424242", 2900, "eur")
	otherSession := f.create(resolvers.AgentCheckoutInput{Items: items(f.listing), Buyer: buyer("o@example.com")})
	elsewhere := f.vault(otherSession.ID, "4242424242424242", 2900, "usd")
	expired := f.vault(c.ID, "4242424242424242", 2900, "usd")
	_, err = f.env.Server.DB.ExecContext(ctx, `UPDATE sandbox_vault_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = ?`,
		sandbox.VaultTokenHash(expired))
	require.NoError(t, err)

	// The email (given with complete) makes it ready; each bad token is
	// declined with its reason and leaves the session open.
	for tok, want := range map[string]string{declinedCard: "declined", small: "at most", euro: "EUR", elsewhere: "another checkout session",
		expired: "expired", "vt_unknown": "not one the sandbox issued"} {
		pp := pay(tok)
		pp.Buyer = buyer("paid@example.com")
		c, err = f.r.CompleteAgentCheckout(ctx, f.p, c.ID, pp)
		require.NoError(t, err)
		require.Equal(t, resolvers.AgentReady, c.Status)
		m := message(t, c, "$.payment_data")
		require.Equal(t, "payment_declined", m.Code)
		require.Contains(t, m.Content, want)
		require.Nil(t, c.Order)
	}
	require.Equal(t, db.OrderPending, f.order(f.sessionOrderID(c.ID)).Status)

	// The good token pays: completed, the order paid and delivered at once.
	c, err = f.r.CompleteAgentCheckout(ctx, f.p, c.ID, pay(good))
	require.NoError(t, err)
	require.Equal(t, resolvers.AgentCompleted, c.Status)
	require.Empty(t, c.Messages)
	require.NotNil(t, c.Order)
	orderID := f.sessionOrderID(c.ID)
	require.Equal(t, orderID, c.Order.ID)
	require.Equal(t, c.ID, c.Order.CheckoutSessionID)
	o := f.order(orderID)
	require.Contains(t, c.Order.PermalinkURL, "/thank-you?order="+orderID+"&token="+o.ViewToken)
	require.Equal(t, db.OrderFulfilled, o.Status, "a static listing is delivered with the payment")
	require.Equal(t, db.PaymentPaid, o.PaymentStatus)
	require.Equal(t, "paid@example.com", o.BuyerEmail)
	require.Equal(t, db.OrderSourceACP, o.Source)
	require.Equal(t, f.p.ConnectionID, *o.AgentConnectionID)
	require.NotNil(t, o.PaymentIntentID)
	// The order through the API.
	r := f.env.Get("/v1/orders/"+orderID, f.acc.Key)
	require.Equal(t, 200, r.Status)
	require.Equal(t, "acp", r.JSON(t)["source"])
	require.Equal(t, f.p.ConnectionID, r.JSON(t)["agent_connection_id"])
	// The download link emailed to the buyer, as for any order.
	var mails int
	require.NoError(t, f.env.Server.DB.NewSelect().Table("mail_messages").ColumnExpr("count(*)").
		Where("to_address = ?", "paid@example.com").Where("text_body LIKE ?", "%"+f.env.URL+"/d/%").Scan(ctx, &mails))
	require.Equal(t, 1, mails)
	// And through GraphQL.
	g := f.env.Post("/graphql", f.acc.Key, map[string]any{"query": `query($id: ID!) { order(id: $id) { source agentConnectionId } }`,
		"variables": map[string]any{"id": orderID}})
	require.Equal(t, 200, g.Status, "%s", g.Body)
	require.Equal(t, map[string]any{"source": "acp", "agentConnectionId": f.p.ConnectionID},
		g.JSON(t)["data"].(map[string]any)["order"], "%s", g.Body)
	// Events: order.paid and order.fulfilled.
	var types []string
	require.NoError(t, f.env.Server.DB.NewSelect().Table("events").Column("type").Where("order_id = ?", orderID).OrderExpr("seq").Scan(ctx, &types))
	require.Equal(t, []string{"order.paid", "order.fulfilled"}, types)

	// Completed: complete and cancel refused; the good token again pays nothing more.
	_, err = f.r.CompleteAgentCheckout(ctx, f.p, c.ID, pay(good))
	p = requireProblemCode(t, err, problem.InvalidTransition, "")
	require.Equal(t, "checkout_session_completed", p.Ext["acp_code"])
	_, err = f.r.CancelAgentCheckout(ctx, f.p, c.ID)
	requireProblemCode(t, err, problem.InvalidTransition, "")
	got, err := f.r.AgentCheckoutSession(ctx, f.p, c.ID)
	require.NoError(t, err)
	require.Equal(t, resolvers.AgentCompleted, got.Status)
	require.Equal(t, c.Order, got.Order)
}

func TestAgentCheckoutConcurrentCompletes(t *testing.T) {
	t.Parallel()
	f := newACPFixture(t)
	ctx := context.Background()
	c := f.create(resolvers.AgentCheckoutInput{Items: items(f.listing), Buyer: buyer("many@example.com")})
	require.Equal(t, resolvers.AgentReady, c.Status)
	tok := f.vault(c.ID, "4242424242424242", 2900, "usd")
	var wg sync.WaitGroup
	var mu sync.Mutex
	completed, refused := 0, 0
	for range 20 {
		wg.Go(func() {
			got, err := f.r.CompleteAgentCheckout(ctx, f.p, c.ID, pay(tok))
			mu.Lock()
			defer mu.Unlock()
			if err == nil && got.Status == resolvers.AgentCompleted {
				completed++
				return
			}
			p := problem.From(err)
			if p != nil && (p.Code == problem.Conflict || p.Code == problem.InvalidTransition) {
				refused++
				return
			}
			t.Errorf("complete: %+v, %v", got, err)
		})
	}
	wg.Wait()
	require.Equal(t, 1, completed)
	require.Equal(t, 19, refused)
	var orders, paidEvents, charges int
	require.NoError(t, f.env.Server.DB.NewSelect().Table("orders").ColumnExpr("count(*)").
		Where("account_id = ?", f.acc.ID).Where("status IN (?, ?)", db.OrderPaid, db.OrderFulfilled).Scan(ctx, &orders))
	require.Equal(t, 1, orders)
	require.NoError(t, f.env.Server.DB.NewSelect().Table("events").ColumnExpr("count(*)").
		Where("account_id = ?", f.acc.ID).Where("type = 'order.paid'").Scan(ctx, &paidEvents))
	require.Equal(t, 1, paidEvents)
	require.NoError(t, f.env.Server.DB.NewSelect().Table("sandbox_vault_tokens").ColumnExpr("count(*)").
		Where("checkout_session_id = ?", c.ID).Where("used_at IS NOT NULL").Scan(ctx, &charges))
	require.Equal(t, 1, charges)
	// One order_create queued for the connection's endpoint.
	var queued []string
	require.NoError(t, f.env.Server.DB.NewSelect().Table("webhook_deliveries").Column("webhook_deliveries.type").
		Join("JOIN webhook_endpoints e ON e.id = webhook_deliveries.endpoint_id").
		Where("e.agent_connection_id = ?", f.p.ConnectionID).Scan(ctx, &queued))
	require.ElementsMatch(t, []string{"order.paid", "order.fulfilled"}, queued)
}
