package resolvers

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"go.opentelemetry.io/otel/attribute"

	"commerce/db"
	"commerce/graph/model"
	"commerce/mail"
	"commerce/membership"
	"commerce/pricing"
	"commerce/problem"
	"commerce/processor"
	"commerce/telemetry"
)

// The order lifecycle (spec "Order" states) lives here, in one place: every
// transition locks the order, checks the state it may leave, writes the
// order, its event-log row and its consequences (customer, stats, access
// grant, email) in one transaction. A transition whose order is not in
// the state it leaves changes nothing: duplicate and out-of-order processor
// events are no-ops.

// Order event types (the event log and, later, webhook deliveries).
const (
	EventOrderPaid          = "order.paid"
	EventOrderFulfilled     = "order.fulfilled"
	EventOrderRefunded      = "order.refunded"
	EventOrderDisputed      = "order.disputed"
	EventOrderDisputeClosed = "order.dispute_closed"
	EventOrderCanceled      = "order.canceled"
)

// orderEventData is the order snapshot every order event carries (spec
// "Events"): the same structure the webhook body's data has.
func orderEventData(o *db.Order) map[string]any {
	var snap struct {
		Metadata map[string]string `json:"metadata"`
	}
	_ = json.Unmarshal(o.ListingSnapshot, &snap)
	if snap.Metadata == nil {
		snap.Metadata = map[string]string{}
	}
	ds := make([]map[string]any, 0, len(o.Deliverables))
	for _, d := range o.Deliverables {
		m := map[string]any{"id": d.ID, "type": d.Type, "value": d.Value}
		if d.Type == "file" {
			m["file"] = map[string]any{"name": d.FileName, "size": d.FileSize, "content_type": d.FileContentType}
		}
		ds = append(ds, m)
	}
	return map[string]any{
		"order_id": o.ID, "listing_id": o.ListingID, "listing_slug": o.ListingSlug, "buyer_email": o.BuyerEmail,
		"customer_id": o.CustomerID, "subtotal": o.Subtotal, "discount": orderDiscount(o), "amount": o.Amount,
		"currency": o.Currency, "platform_fee": o.PlatformFee,
		"net_amount": o.NetAmount, "status": o.Status, "payment_status": o.PaymentStatus,
		"content_type": o.ContentType, "has_deliverables": o.HasDeliverables, "checkout_data": o.CheckoutData,
		"listing_metadata": snap.Metadata, "deliverables": ds, "dispute_status": o.DisputeStatus,
		"refund_amount": o.RefundAmount, "created_at": o.CreatedAt.UTC(), "paid_at": utc(o.PaidAt),
		"fulfilled_at": utc(o.FulfilledAt), "canceled_at": utc(o.CanceledAt), "refunded_at": utc(o.RefundedAt),
		"handed_off_at": utc(o.HandedOffAt), "fulfillment_note": o.FulfillmentNote,
		"membership_id": o.MembershipID, "billing_reason": o.BillingReason,
	}
}

// recordEvent writes an order event to the log in tx.
func (r *Resolver) recordEvent(ctx context.Context, tx db.Tx, o *db.Order, typ string) error {
	ev, err := orderEvent(o, typ)
	if err != nil {
		return err
	}
	return r.recordEvents(ctx, tx, ev)
}

// licenseKeyRef is a license key as order.fulfilled carries it (CONTRACT
// §20: data.license_keys).
type licenseKeyRef struct {
	ID  string `json:"id"`
	Key string `json:"key"`
}

// orderEvent is the event typ about o in its state now. order.fulfilled
// also carries the order's license keys (none: an empty list).
func orderEvent(o *db.Order, typ string, keys ...licenseKeyRef) (*db.Event, error) {
	snap := orderEventData(o)
	if typ == EventOrderFulfilled {
		if keys == nil {
			keys = []licenseKeyRef{}
		}
		snap["license_keys"] = keys
	}
	data, err := json.Marshal(snap)
	if err != nil {
		return nil, err
	}
	ev := &db.Event{ID: db.NewID("evt"), AccountID: o.AccountID, Type: typ, ListingID: &o.ListingID, OrderID: &o.ID, Data: data}
	if o.AgentConnectionID != nil && agentEventType(o, typ) {
		ev.AgentConnectionID = o.AgentConnectionID
	}
	return ev, nil
}

// agentEventType reports whether an event of an agent's order goes to its
// connection's endpoint (CONTRACT §25): the payment (order_create), the
// delivery, a refund and a lost dispute (order_update).
func agentEventType(o *db.Order, typ string) bool {
	switch typ {
	case EventOrderPaid, EventOrderFulfilled, EventOrderRefunded:
		return true
	case EventOrderDisputeClosed:
		return disputeLost(o)
	}
	return false
}

// recordEvents writes events to the log in tx, in their order, with the
// webhook delivery records of each (one per enabled endpoint of the
// event's account subscribed to its type), in one statement that also
// wakes the dispatchers when tx commits. Their seq is settled at COMMIT
// under the account's lock (migration 20261203100000_event_seq_kept): kept
// when nothing of the account committed above it since, rewritten
// otherwise; so a transition writes its events last, just before COMMIT.
func (r *Resolver) recordEvents(ctx context.Context, tx db.Tx, evs ...*db.Event) error {
	if len(evs) == 0 {
		return nil
	}
	ids, accounts, types, listings, orders, data := make([]string, len(evs)), make([]string, len(evs)),
		make([]string, len(evs)), make([]*string, len(evs)), make([]*string, len(evs)), make([]string, len(evs))
	var conns []*string
	for i, ev := range evs {
		ids[i], accounts[i], types[i], listings[i], orders[i], data[i] = ev.ID, ev.AccountID, ev.Type, ev.ListingID, ev.OrderID, string(ev.Data)
		if ev.AgentConnectionID != nil && conns == nil {
			conns = make([]*string, len(evs))
		}
	}
	// The span that caused them, for their deliveries' spans to link to
	// (NULL when tracing is off).
	args := []any{ids, accounts, types, listings, orders, data, telemetry.Traceparent(ctx)}
	q := recordEventsQuery
	if conns != nil {
		for i, ev := range evs {
			conns[i] = ev.AgentConnectionID
		}
		q, args = recordAgentEventsQuery, append(args, conns)
	}
	if _, err := tx.River.Exec(ctx, q, args...); err != nil {
		return fmt.Errorf("record %s: %w", evs[0].Type, err)
	}
	return nil
}

// recordEventsQuery writes events ($1…$6 one element each, $7 the
// traceparent) and their deliveries to the account's endpoints subscribed
// to their types. An agent connection's endpoint (agent_connection_id set,
// CONTRACT §25) takes only its own orders' events: none of these, so the
// statement of orders without a connection costs one more predicate on
// the endpoints it already reads.
const recordEventsQuery = `WITH ev AS (
		INSERT INTO events (id, account_id, type, listing_id, order_id, data, traceparent)
		SELECT id, account_id, type, listing_id, order_id, data::jsonb, $7::text
		FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
			AS v(id, account_id, type, listing_id, order_id, data)
		RETURNING id, account_id, type),
	ins AS (
		INSERT INTO webhook_deliveries (endpoint_id, event_id, account_id, type, next_attempt_at)
		SELECT e.id, ev.id, ev.account_id, ev.type, now()
		FROM ev JOIN webhook_endpoints e ON e.account_id = ev.account_id AND e.status = 'enabled'
			AND e.deleted_at IS NULL AND ev.type = ANY (e.events) AND e.agent_connection_id IS NULL
		RETURNING 1)
	SELECT pg_notify('` + notifyChannel + `', '') FROM (SELECT 1 FROM ins LIMIT 1) AS any_delivery`

// recordAgentEventsQuery is recordEventsQuery for events of which some
// are an agent's order's ($8: each event's connection, NULL for none): an
// event with a connection also goes to that connection's endpoint.
const recordAgentEventsQuery = `WITH v AS (
		SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $8::text[])
			AS v(id, account_id, type, listing_id, order_id, data, conn)),
	ev AS (
		INSERT INTO events (id, account_id, type, listing_id, order_id, data, traceparent)
		SELECT id, account_id, type, listing_id, order_id, data::jsonb, $7::text FROM v
		RETURNING id, account_id, type),
	ins AS (
		INSERT INTO webhook_deliveries (endpoint_id, event_id, account_id, type, next_attempt_at)
		SELECT e.id, ev.id, ev.account_id, ev.type, now()
		FROM ev JOIN v ON v.id = ev.id
		JOIN webhook_endpoints e ON e.account_id = ev.account_id AND e.status = 'enabled'
			AND e.deleted_at IS NULL AND ev.type = ANY (e.events)
			AND (e.agent_connection_id IS NULL OR e.agent_connection_id = v.conn)
		RETURNING 1)
	SELECT pg_notify('` + notifyChannel + `', '') FROM (SELECT 1 FROM ins LIMIT 1) AS any_delivery`

// lockOrder loads an order for update: by id, or by payment intent.
func lockOrder(ctx context.Context, tx db.Tx, p *processor.Payment) (*db.Order, error) {
	o := new(db.Order)
	q := tx.NewSelect().Model(o).For("UPDATE")
	switch {
	case p.OrderID != "":
		q = q.Where("id = ?", p.OrderID)
	case p.PaymentIntentID != "":
		q = q.Where("payment_intent_id = ?", p.PaymentIntentID)
	default:
		return nil, db.ErrNotFound
	}
	return o, db.NotFound(q.Scan(ctx))
}

func (r *Resolver) applyPaymentEvent(ctx context.Context, tx db.Tx, ev processor.Event) error {
	if ev.Payment == nil {
		return nil
	}
	o, err := lockOrder(ctx, tx, ev.Payment)
	if errors.Is(err, db.ErrNotFound) {
		r.Log.InfoContext(ctx, "processor event for no known order; ignored", "type", ev.RawType, "order_id", ev.Payment.OrderID)
		return nil
	}
	if err != nil {
		return err
	}
	// Test-mode orders are paid on the seller's own test account: only that
	// account's events are about them, and those are about nothing else.
	if o.TestMode != (ev.TestAccountID != "") || (ev.TestAccountID != "" && o.AccountID != ev.TestAccountID) {
		r.Log.InfoContext(ctx, "processor event from another account than the order's; ignored", "type", ev.RawType, "order_id", o.ID)
		return nil
	}
	if ok, err := connectedAccountIs(ctx, tx, o.AccountID, ev.ConnectedAccountID); err != nil || !ok {
		if err == nil {
			r.Log.InfoContext(ctx, "processor event from another connected account than the order's seller; ignored", "type", ev.RawType, "order_id", o.ID)
		}
		return err
	}
	switch ev.Type {
	case processor.PaymentSucceeded:
		return r.markPaid(ctx, tx, o, ev.Payment)
	case processor.PaymentFailed:
		return r.endPending(ctx, tx, o, db.OrderFailed)
	case processor.CheckoutExpired:
		return r.endPending(ctx, tx, o, db.OrderCanceled)
	case processor.RefundConfirmed:
		return r.confirmRefund(ctx, tx, o, ev.Payment)
	case processor.DisputeChanged:
		return r.changeDispute(ctx, tx, o, ev.Dispute)
	}
	return nil
}

// connectedAccountIs reports whether an event normalized on a seller's
// connected account (connected: its id; "" for an event of the platform's
// own account) is about the seller of accountID: a membership's payments,
// refunds and disputes happen on the seller's account (direct charges),
// and an event there may change only that seller's orders and memberships.
func connectedAccountIs(ctx context.Context, tx db.Tx, accountID, connected string) (bool, error) {
	if connected == "" {
		return true, nil
	}
	var procID *string
	if err := tx.River.QueryRow(ctx, `SELECT processor_account_id FROM accounts WHERE id = $1`, accountID).Scan(&procID); err != nil {
		return false, fmt.Errorf("read the seller's connected account: %w", err)
	}
	return procID != nil && *procID == connected, nil
}

// markPaid: pending → paid (order.paid). The listing's content decides the
// rest: static orders get the listing's deliverables and become fulfilled in
// the same step (access grant, buyer email, order.fulfilled); webhook orders
// are handed off; the seller is alerted of external orders. A processor's
// payment event and the free path (freeOrder) both pay orders here.
func (r *Resolver) markPaid(ctx context.Context, tx db.Tx, o *db.Order, pay *processor.Payment) error {
	// A failed order may still be paid: Checkout lets the buyer try another
	// card after a decline (payment_intent.payment_failed). Anything else
	// is a duplicate, or after the checkout ended.
	if o.Status != db.OrderPending && o.Status != db.OrderFailed {
		// A membership's first order is paid twice under Stripe Billing: by
		// its checkout session (no payment intent in subscription mode) and
		// by its first invoice (with it), in either order. The later one
		// brings the payment intent a refund needs.
		if o.PaymentIntentID == nil && pay.PaymentIntentID != "" && o.PaymentStatus == db.PaymentPaid {
			o.PaymentIntentID = &pay.PaymentIntentID
			_, err := tx.NewUpdate().Model(o).WherePK().Column("payment_intent_id").Set("updated_at = now()").Exec(ctx)
			return err
		}
		return nil
	}
	now := r.Now().UTC()
	o.Status, o.PaymentStatus, o.PaidAt = db.OrderPaid, db.PaymentPaid, &now
	// The fee is the one of the plan in force when the order is paid
	// (CONTRACT §16), not when its checkout started.
	var plan string
	if err := tx.River.QueryRow(ctx, `SELECT plan FROM accounts WHERE id = $1`, o.AccountID).Scan(&plan); err != nil {
		return fmt.Errorf("read the seller's plan: %w", err)
	}
	o.PlatformFee = pricing.PlatformFee(o.Amount, plan)
	o.NetAmount = o.Amount - o.PlatformFee
	if o.BuyerEmail == "" && pay.BuyerEmail != "" {
		// A checkout started without the buyer's email (the checkout API):
		// the processor's checkout asked the buyer for it.
		o.BuyerEmail = pay.BuyerEmail
		if e, err := NormalizeEmail(pay.BuyerEmail); err == nil {
			o.BuyerEmail = e
		}
	}
	if pay.PaymentIntentID != "" {
		o.PaymentIntentID = &pay.PaymentIntentID
	}
	cust, err := r.upsertCustomer(ctx, tx, o, now)
	if err != nil {
		return err
	}
	o.CustomerID = &cust
	// The first order of a membership creates it (CONTRACT §26), in this
	// transaction: the order and its events name it.
	var m *db.Membership
	if isFirstMembershipOrder(o) && o.MembershipID == nil {
		if m, err = newMembership(o, pay, now); err != nil {
			return err
		}
		o.MembershipID = &m.ID
	}
	if o.ContentType == "webhook" {
		o.HandedOffAt = &now
	}
	paid, err := orderEvent(o, EventOrderPaid)
	if err != nil {
		return err
	}
	// The events are written last, just before COMMIT, where the event
	// log's commit trigger most often finds that nothing of the seller
	// committed above their seq and keeps it (see recordEvents).
	evs := []*db.Event{paid}
	switch {
	case isRenewalOrder(o):
		// A renewal is fulfilled at once on the first order's access (no
		// new grant, no download email: the renewal's receipt is mailed
		// by the renewal itself), whatever the content type.
		o.Status, o.FulfilledAt = db.OrderFulfilled, &now
		fulfilled, err := orderEvent(o, EventOrderFulfilled)
		if err != nil {
			return err
		}
		evs = append(evs, fulfilled)
	case o.ContentType == "static":
		rows, err := tx.River.Query(ctx, `SELECT id, type, value, file_key, file_name, file_size, file_content_type
			FROM deliverables WHERE listing_id = $1 ORDER BY id`, o.ListingID)
		if err != nil {
			return fmt.Errorf("read the deliverables: %w", err)
		}
		o.Deliverables, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (db.OrderDeliverable, error) {
			var d db.OrderDeliverable
			err := row.Scan(&d.ID, &d.Type, &d.Value, &d.FileKey, &d.FileName, &d.FileSize, &d.FileContentType)
			return d, err
		})
		if err != nil {
			return fmt.Errorf("read the deliverables: %w", err)
		}
		// order.paid is written with order.fulfilled, in one statement.
		fulfilled, err := r.deliver(ctx, tx, o, now)
		if err != nil {
			return err
		}
		evs = append(evs, fulfilled)
	default:
		if err := r.alertSeller(ctx, tx, o); err != nil {
			return err
		}
	}
	if m != nil {
		// membership.created follows the order's events in the log.
		if err := r.recordEvents(ctx, tx, evs...); err != nil {
			return err
		}
		evs = nil
		if err := r.insertMembership(ctx, tx, m); err != nil {
			return err
		}
	}
	// A discount code's redemption counts from now on (CONTRACT §19),
	// whichever payment made the order paid: the processor's event, or the
	// free path. Before the stats: the free path holds the discount's row
	// since its reservation, so every transaction takes the two in this order.
	if o.DiscountID != nil {
		if err := confirmDiscount(ctx, tx, o.ID, o.BuyerEmail); err != nil {
			return err
		}
	}
	// The seller's running totals near the end: a payment of the seller on
	// a connection with the same shard waits on its row, so it is held for
	// as little of the transaction as can be.
	month := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	if err := addStats(ctx, tx, o, o.Amount, &month); err != nil {
		return err
	}
	_, err = tx.NewUpdate().Model(o).WherePK().Column("status", "payment_status", "paid_at", "payment_intent_id", "buyer_email",
		"customer_id", "handed_off_at", "deliverables", "fulfilled_at", "platform_fee", "net_amount", "membership_id").Set("updated_at = now()").Exec(ctx)
	if err != nil {
		return err
	}
	return r.recordEvents(ctx, tx, evs...)
}

// upsertCustomer creates the buyer's customer on the first paid order with
// the seller, or adds the order to it; race-safe by the unique index.
func (r *Resolver) upsertCustomer(ctx context.Context, tx db.Tx, o *db.Order, now time.Time) (string, error) {
	var id string
	err := tx.River.QueryRow(ctx, `INSERT INTO customers (id, account_id, email, orders_count, total_spent, currency, first_order_at, last_order_at)
		VALUES ($1, $2, $3, 1, $4, $5, $6, $6)
		ON CONFLICT (account_id, lower(email)) DO UPDATE SET
			orders_count = customers.orders_count + 1, total_spent = customers.total_spent + EXCLUDED.total_spent,
			last_order_at = EXCLUDED.last_order_at
		RETURNING id`, db.NewID("cus"), o.AccountID, o.BuyerEmail, o.Amount, strings.ToLower(o.Currency), now).Scan(&id)
	if err != nil {
		return "", fmt.Errorf("upsert customer: %w", err)
	}
	return id, nil
}

// deliver: paid → fulfilled with an access grant, the license key of a
// licensed listing (CONTRACT §20: one per order, issued once) and the
// buyer's email. It returns order.fulfilled (with the key) for the caller
// to record with the transition's other events.
func (r *Resolver) deliver(ctx context.Context, tx db.Tx, o *db.Order, now time.Time) (_ *db.Event, err error) {
	ctx, sp, end := r.span(ctx, "order.fulfil")
	if sp != nil {
		sp.SetAttributes(attribute.String("order.id", o.ID), attribute.String("listing.id", o.ListingID))
	}
	defer func() { end(err) }()
	o.Status, o.FulfilledAt = db.OrderFulfilled, &now
	token, err := r.grantAccess(ctx, tx, o)
	if err != nil {
		return nil, err
	}
	var snap struct {
		Title string `json:"title"`
		// License is the listing's license when the order was placed
		// (null or absent: none); it cannot change once the listing is on
		// sale.
		License json.RawMessage `json:"license"`
	}
	var seller struct {
		DisplayName string `json:"display_name"`
	}
	_ = json.Unmarshal(o.ListingSnapshot, &snap)
	_ = json.Unmarshal(o.SellerSnapshot, &seller)
	var refs []licenseKeyRef
	var mailKeys []mail.LicenseKey
	// An order without a license reads nothing more.
	if len(snap.License) > 0 && string(snap.License) != "null" {
		id, key, ok, err := r.issueLicenseKey(ctx, tx, o, now)
		if err != nil {
			return nil, err
		}
		if ok {
			var expires *time.Time
			if err := tx.River.QueryRow(ctx, `SELECT expires_at FROM license_keys WHERE id = $1`, id).Scan(&expires); err != nil {
				return nil, fmt.Errorf("read the license key's expiry: %w", err)
			}
			refs = append(refs, licenseKeyRef{ID: id, Key: key})
			mailKeys = append(mailKeys, mail.LicenseKey{Key: key, ExpiresAt: expires})
		}
	}
	msg, err := mail.DownloadLink(o.BuyerEmail, mail.DownloadData{ListingTitle: snap.Title, StoreName: seller.DisplayName,
		DownloadURL: r.BaseURL + "/d/" + token, Receipt: receiptOf(o), LicenseKeys: mailKeys, LibraryURL: r.BaseURL + "/library"})
	if err != nil {
		return nil, err
	}
	if _, err := r.Mail.Send(ctx, tx, msg); err != nil {
		return nil, err
	}
	return orderEvent(o, EventOrderFulfilled, refs...)
}

// grantAccess creates the order's access grant and returns its token: it
// is found by its hash, and kept sealed for the buyer's library, which
// links the download page (CONTRACT §21).
func (r *Resolver) grantAccess(ctx context.Context, tx db.Tx, o *db.Order) (string, error) {
	var b [32]byte
	_, _ = rand.Read(b[:])
	token := base64.RawURLEncoding.EncodeToString(b[:])
	h := sha256.Sum256([]byte(token))
	sealed, err := r.Secrets.Seal(token)
	if err != nil {
		return "", fmt.Errorf("seal the access grant: %w", err)
	}
	if _, err := tx.River.Exec(ctx, `INSERT INTO access_grants (order_id, account_id, token_hash, token_sealed) VALUES ($1, $2, $3, $4)
		ON CONFLICT (order_id) DO UPDATE SET token_hash = EXCLUDED.token_hash, token_sealed = EXCLUDED.token_sealed, revoked_at = NULL`,
		o.ID, o.AccountID, h[:], sealed); err != nil {
		return "", fmt.Errorf("grant access: %w", err)
	}
	return token, nil
}

// alertSeller emails the seller about a new external order when they asked to.
func (r *Resolver) alertSeller(ctx context.Context, tx db.Tx, o *db.Order) error {
	var email string
	var notify bool
	if err := tx.NewSelect().Table("accounts").Column("email", "notify_orders").Where("id = ?", o.AccountID).
		Scan(ctx, &email, &notify); err != nil {
		return err
	}
	if !notify {
		return nil
	}
	var snap struct {
		Title string `json:"title"`
	}
	_ = json.Unmarshal(o.ListingSnapshot, &snap)
	msg, err := mail.SellerOrderAlert(email, mail.OrderAlertData{OrderID: o.ID, ListingTitle: snap.Title, Amount: o.Amount,
		Currency: strings.ToLower(o.Currency), BuyerEmail: o.BuyerEmail, OrderURL: r.ConsoleURL + "/orders/" + o.ID})
	if err != nil {
		return err
	}
	_, err = r.Mail.Send(ctx, tx, msg)
	return err
}

// endPending: pending → failed (payment failed) or canceled (checkout
// expired or abandoned: order.canceled). Either gives back the order's
// discount code reservation in the same transaction, so an abandoned
// checkout never uses up a code (a failed order paid after all takes it
// again: confirmDiscount). Every such transition comes here: the expiry
// sweep and its older per-order job (ExpireCheckout), the processor's
// checkout expired and payment failed events, and the sandbox's failed and
// canceled outcomes, which travel as those events.
func (r *Resolver) endPending(ctx context.Context, tx db.Tx, o *db.Order, to string) error {
	if o.Status != db.OrderPending {
		return nil
	}
	// A membership's first order with a trial holds its code's reservation
	// without carrying the discount (the first paid period takes it).
	if o.DiscountID != nil || isFirstMembershipOrder(o) {
		if err := releaseDiscount(ctx, tx, o.ID); err != nil {
			return err
		}
	}
	o.Status = to
	q := tx.NewUpdate().Model(o).WherePK().Set("status = ?", to).Set("updated_at = now()")
	if to == db.OrderCanceled {
		now := r.Now().UTC()
		o.CanceledAt = &now
		q = q.Set("canceled_at = ?", now)
	}
	if _, err := q.Exec(ctx); err != nil {
		return err
	}
	if to == db.OrderCanceled {
		return r.recordEvent(ctx, tx, o, EventOrderCanceled)
	}
	return nil
}

// confirmRefund: the processor confirmed a refund: payment_status refunded,
// refund_amount and refunded_at set, the access grant and the license key
// revoked, revenue
// reduced, order.refunded recorded. Once. A discount code's redemption
// stays counted, as after a lost dispute (docs/decisions.md).
func (r *Resolver) confirmRefund(ctx context.Context, tx db.Tx, o *db.Order, pay *processor.Payment) error {
	if o.PaymentStatus != db.PaymentPaid {
		return nil
	}
	amount := pay.Amount
	if amount <= 0 || amount > o.Amount {
		amount = o.Amount
	}
	now := r.Now().UTC()
	o.Status, o.PaymentStatus, o.RefundAmount, o.RefundedAt = db.OrderRefunded, db.PaymentRefunded, &amount, &now
	if _, err := tx.NewUpdate().Model(o).WherePK().Column("status", "payment_status", "refund_amount", "refunded_at").
		Set("updated_at = now()").Exec(ctx); err != nil {
		return err
	}
	if err := r.revokeOrderAccess(ctx, tx, o); err != nil {
		return err
	}
	// A lost dispute already took the whole amount out of revenue.
	if !disputeLost(o) {
		if err := addStats(ctx, tx, o, -amount, nil); err != nil {
			return err
		}
	}
	if o.CustomerID != nil {
		if _, err := tx.ExecContext(ctx, "UPDATE customers SET total_spent = total_spent - ? WHERE id = ?", amount, *o.CustomerID); err != nil {
			return err
		}
	}
	if err := r.recordEvent(ctx, tx, o, EventOrderRefunded); err != nil {
		return err
	}
	// A refund of a membership's latest order ends it at once (CONTRACT §26).
	return r.endMembershipOfOrder(ctx, tx, o, membership.Refunded)
}

// changeDispute records a dispute's state: order.disputed when it opens,
// order.dispute_closed when it is won or lost.
func (r *Resolver) changeDispute(ctx context.Context, tx db.Tx, o *db.Order, d *processor.Dispute) error {
	if d == nil || (o.DisputeStatus != nil && *o.DisputeStatus == d.Status) {
		return nil
	}
	opened := o.DisputeStatus == nil
	o.DisputeStatus = &d.Status
	if d.Status == processor.DisputeLost {
		now := r.Now().UTC()
		o.DisputeLostAt = &now
	}
	if _, err := tx.NewUpdate().Model(o).WherePK().Column("dispute_status", "dispute_lost_at").Set("updated_at = now()").Exec(ctx); err != nil {
		return err
	}
	if d.Status == processor.DisputeLost {
		if err := r.loseDispute(ctx, tx, o); err != nil {
			return err
		}
	}
	switch {
	case d.Status == processor.DisputeWon || d.Status == processor.DisputeLost:
		if opened {
			if err := r.recordEvent(ctx, tx, o, EventOrderDisputed); err != nil {
				return err
			}
		}
		return r.recordEvent(ctx, tx, o, EventOrderDisputeClosed)
	case opened:
		return r.recordEvent(ctx, tx, o, EventOrderDisputed)
	}
	return nil
}

// loseDispute applies a lost dispute (CONTRACT §9): the buyer's access
// grant is revoked (the download page answers 410), so is the order's
// license key (CONTRACT §20), and the disputed amount
// leaves the seller's revenue, unless a confirmed refund already took it
// out (confirmRefund does not take it out twice either). The order's review
// is hidden by the order's dispute status.
func (r *Resolver) loseDispute(ctx context.Context, tx db.Tx, o *db.Order) error {
	if err := r.revokeOrderAccess(ctx, tx, o); err != nil {
		return err
	}
	// A lost dispute of a membership's latest order ends it at once.
	if err := r.endMembershipOfOrder(ctx, tx, o, membership.DisputeLost); err != nil {
		return err
	}
	if o.PaymentStatus != db.PaymentPaid {
		return nil
	}
	return addStats(ctx, tx, o, -o.Amount, nil)
}

// revokeOrderAccess revokes o's access grant and license keys (a confirmed
// refund, a lost dispute: CONTRACT §9, §20), unless o is the first order
// of a membership that goes on with later orders: its grant and key are
// then the membership's, and access follows the membership (§26: a refund
// or lost dispute of the latest order ends it, and that closes them).
func (r *Resolver) revokeOrderAccess(ctx context.Context, tx db.Tx, o *db.Order) error {
	if o.MembershipID != nil && isFirstMembershipOrder(o) {
		var latest, status string
		if err := tx.River.QueryRow(ctx, `SELECT latest_order_id, status FROM memberships WHERE id = $1`, *o.MembershipID).
			Scan(&latest, &status); err != nil {
			return fmt.Errorf("read the order's membership: %w", err)
		}
		if status != string(membership.Ended) && latest != o.ID {
			return nil
		}
	}
	if _, err := tx.ExecContext(ctx, "UPDATE access_grants SET revoked_at = now() WHERE order_id = ? AND revoked_at IS NULL", o.ID); err != nil {
		return fmt.Errorf("revoke access: %w", err)
	}
	return revokeLicenseKeys(ctx, tx, o.ID)
}

// statsShards is how many rows an account's stats are spread over
// (account_stats.shard is 0..statsShards-1).
const statsShards = 16

// nextStatsShard hands the shards out to connections in turn, from a
// random start per process (so that two processes' first connections do
// not all take shard 0).
var nextStatsShard atomic.Uint32

func init() { nextStatsShard.Store(mrand.Uint32() % statsShards) }

// connStatsShard is the stats shard of the transaction's connection: given
// on its first payment and kept for its life (in the connection's own data,
// which only the goroutine holding the connection touches). With up to 16
// connections in a pool no two share a shard; the order id's hash, chosen
// before, put two of 6 concurrent payments on one shard more often than
// not, and a payment that lands on a busy shard waits for the other's
// commit, itself queued on the event log's per-account lock.
func connStatsShard(tx db.Tx) int {
	data := tx.River.Conn().PgConn().CustomData()
	if s, ok := data["commerce.stats_shard"].(int); ok {
		return s
	}
	s := int((nextStatsShard.Add(1) - 1) % statsShards)
	data["commerce.stats_shard"] = s
	return s
}

// addStats adds revenue (negative: a refund or a lost dispute) to the
// stats of o's seller and, with month set, counts o as paid in that UTC
// month. It changes one shard, the one of the transaction's connection
// (connStatsShard): a process's connections take the shards in turn, so
// the seller's payments running at once on other connections change other
// rows and do not queue on one lock (TestPaymentsDoNotQueueOnTheSellersRow,
// TestConcurrentPaymentsTakeOtherShards); loadAccount sums the shards, so
// which shard a payment or a refund changes does not matter to the totals.
func addStats(ctx context.Context, tx db.Tx, o *db.Order, revenue int64, month *time.Time) error {
	shard := connStatsShard(tx)
	count := 0
	if month != nil {
		count = 1
	}
	if _, err := tx.River.Exec(ctx, `INSERT INTO account_stats AS s (account_id, shard, revenue, orders_month, orders_month_count)
		VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (account_id, shard) DO UPDATE SET revenue = s.revenue + EXCLUDED.revenue,
			orders_month_count = CASE WHEN EXCLUDED.orders_month IS NULL THEN s.orders_month_count
				WHEN s.orders_month = EXCLUDED.orders_month THEN s.orders_month_count + 1 ELSE 1 END,
			orders_month = coalesce(EXCLUDED.orders_month, s.orders_month)`,
		o.AccountID, shard, revenue, month, count); err != nil {
		return fmt.Errorf("update stats: %w", err)
	}
	return nil
}

// disputeLost reports whether the order's dispute was lost.
func disputeLost(o *db.Order) bool {
	return o.DisputeStatus != nil && *o.DisputeStatus == processor.DisputeLost
}

// lockCallerOrder loads one of the caller's orders for update. Errors: not_found.
func lockCallerOrder(ctx context.Context, tx db.Tx, accountID, id string) (*db.Order, error) {
	o := new(db.Order)
	err := tx.NewSelect().Model(o).Where("id = ?", id).Where("account_id = ?", accountID).For("UPDATE").Scan(ctx)
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return nil, problem.NotFoundf("No order %q on this account.", id)
	}
	return o, err
}

// FulfillOrder delivers a paid order (CONTRACT §9): a generated order takes
// 1..3 deliverables (access grant and buyer email); a webhook order takes
// none and is only marked fulfilled. An already fulfilled order is returned
// unchanged (body ignored, no second email). The order's existence,
// ownership and state are checked before the body, so no URL deliverable is
// fetched for an order that is not the caller's, does not exist, or is not
// paid. Errors: not_found, invalid_transition (current_status,
// allowed_statuses), validation_error.
func (r *Resolver) FulfillOrder(ctx context.Context, id string, in model.FulfillInput) (*model.Order, error) {
	p, cur, done, err := r.fulfillable(ctx, id)
	if done != nil || err != nil {
		return done, err
	}
	if cur.ContentType == "webhook" && len(in.Deliverables) > 0 {
		return nil, webhookFulfillProblem()
	}
	// Only now the body: its URL deliverables are fetched (reachability).
	var v listingFields
	if in.Note != nil && len([]rune(*in.Note)) > 1000 {
		v.f.Add("note", "note must be at most 1000 characters")
	}
	if len(in.Deliverables) > maxDeliverables {
		v.f.Add("deliverables", "an order takes at most 3 deliverables")
	}
	ds := r.deliverables(ctx, &v, in.Deliverables, "deliverables")
	if err := v.f.Err(); err != nil {
		return nil, err
	}
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		o, err := lockCallerOrder(ctx, tx, p.AccountID, id)
		if err != nil {
			return err
		}
		// Again under the lock: another fulfill may have won meanwhile.
		if done, err := fulfillState(o); done || err != nil {
			return err
		}
		now := r.Now().UTC()
		if in.Note != nil && strings.TrimSpace(*in.Note) != "" {
			note := strings.TrimSpace(*in.Note)
			o.FulfillmentNote = &note
		}
		switch o.ContentType {
		case "webhook":
			if len(ds) > 0 {
				return webhookFulfillProblem()
			}
			o.Status, o.FulfilledAt = db.OrderFulfilled, &now
			if err := r.recordEvent(ctx, tx, o, EventOrderFulfilled); err != nil {
				return err
			}
		default: // generated (or a static order paid before its content existed)
			if len(ds) == 0 && len(o.Deliverables) == 0 {
				return problem.Validation("deliverables", "give 1 to 3 deliverables to deliver to the buyer")
			}
			for _, c := range ds {
				d := db.OrderDeliverable{ID: db.NewID("del"), Type: c.typ}
				if c.typ == "file" {
					f, key, err := r.claimFile(ctx, tx, p.AccountID, c.token, "deliverable", c.param+".token",
						func(*db.File) string { return privatePrefix + "orders/" + o.ID + "/" + d.ID })
					if err != nil {
						return err
					}
					d.FileKey, d.FileName, d.FileSize, d.FileContentType = &key, &f.Filename, &f.Size, &f.ContentType
				} else {
					val := c.value
					d.Value = &val
				}
				o.Deliverables = append(o.Deliverables, d)
			}
			fulfilled, err := r.deliver(ctx, tx, o, now)
			if err != nil {
				return err
			}
			if err := r.recordEvents(ctx, tx, fulfilled); err != nil {
				return err
			}
		}
		_, err = tx.NewUpdate().Model(o).WherePK().Column("status", "fulfilled_at", "deliverables", "fulfillment_note").
			Set("updated_at = now()").Exec(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return r.Order(ctx, id)
}

// FulfillOrderUndecodable answers a fulfill whose body could not be read
// (malformed JSON, an unknown field, a value of the wrong type): the order's
// state still comes first, so an already fulfilled order is returned
// unchanged, and only a paid one gets bodyErr. Errors: not_found,
// invalid_transition, bodyErr.
func (r *Resolver) FulfillOrderUndecodable(ctx context.Context, id string, bodyErr error) (*model.Order, error) {
	_, _, done, err := r.fulfillable(ctx, id)
	if done != nil || err != nil {
		return done, err
	}
	return nil, bodyErr
}

// fulfillable checks, before any body, that the caller may fulfill the
// order: done is the order when it is already fulfilled (returned
// unchanged). Errors: authentication_error, permission_denied, not_found,
// invalid_transition.
func (r *Resolver) fulfillable(ctx context.Context, id string) (Principal, *db.Order, *model.Order, error) {
	var none Principal
	p, err := writer(ctx)
	if err != nil {
		return none, nil, nil, err
	}
	if !db.ValidID("ord", id) {
		return none, nil, nil, problem.NotFoundf("No order %q on this account.", id)
	}
	cur := new(db.Order)
	err = r.DB.NewSelect().Model(cur).Column("id", "status", "content_type").
		Where("id = ?", id).Where("account_id = ?", p.AccountID).Scan(ctx)
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return none, nil, nil, problem.NotFoundf("No order %q on this account.", id)
	}
	if err != nil {
		return none, nil, nil, err
	}
	done, err := fulfillState(cur)
	if err != nil {
		return none, nil, nil, err
	}
	if done {
		o, err := r.Order(ctx, id)
		return none, nil, o, err
	}
	return p, cur, nil, nil
}

// fulfillState says what fulfill does with an order in its state: done for
// a fulfilled order (returned unchanged), an invalid_transition for any
// other status but paid.
func fulfillState(o *db.Order) (done bool, err error) {
	switch o.Status {
	case db.OrderFulfilled:
		return true, nil
	case db.OrderPaid:
		return false, nil
	}
	return false, problem.Newf(problem.InvalidTransition, "The order is %s; only a paid order can be fulfilled.", o.Status).
		With("current_status", o.Status).With("allowed_statuses", []string{db.OrderPaid})
}

func webhookFulfillProblem() error {
	return problem.Validation("deliverables", "a webhook order was delivered by your system: fulfill it without deliverables")
}

// RefundOrder refunds a paid or fulfilled order through the processor (fee
// refunded, transfer reversed). The order shows refunded at once;
// payment_status, refund_amount and refunded_at follow when the processor
// confirms (order.refunded). Refunding a refunded order returns it as is.
// Errors: not_found, refund_not_allowed, missing_payment_intent,
// missing_processor_connection.
func (r *Resolver) RefundOrder(ctx context.Context, id string) (*model.Order, error) {
	p, err := writer(ctx)
	if err != nil {
		return nil, err
	}
	var req *processor.RefundRequest
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		o, err := lockCallerOrder(ctx, tx, p.AccountID, id)
		if err != nil {
			return err
		}
		switch {
		case o.Status == db.OrderRefunded && (o.PaymentStatus != db.PaymentPaid || r.Processor.Name() == processor.Sandbox):
			return nil
		case o.Status == db.OrderRefunded:
			// Not confirmed yet: ask again (the processor's refund is
			// idempotent per order), so a failed call can be retried.
		case o.Status == db.OrderPaid, o.Status == db.OrderFulfilled:
		default:
			return problem.Newf(problem.RefundNotAllowed, "The order is %s; only a paid or fulfilled order can be refunded.", o.Status).
				With("current_status", o.Status).With("allowed_statuses", []string{db.OrderPaid, db.OrderFulfilled})
		}
		if o.PaymentIntentID == nil {
			return problem.New(problem.MissingPaymentIntent, "The order has no payment to refund.")
		}
		var procID *string
		var status string
		var sealedKey []byte
		if err := tx.NewSelect().Table("accounts").Column("processor_account_id", "processor_status", "processor_test_key").
			Where("id = ?", p.AccountID).Scan(ctx, &procID, &status, &sealedKey); err != nil {
			return err
		}
		if procID == nil || status != db.ProcessorConnected {
			return problem.New(problem.MissingProcessorConnection, "Connect the payment processor again to refund.")
		}
		testKey := ""
		if o.TestMode {
			// A test-mode payment is refunded in test mode.
			if sealedKey == nil {
				return problem.New(problem.MissingProcessorConnection, "The order was paid in test mode: set processor_test_key again to refund it.")
			}
			if testKey, err = r.testKeyOf(sealedKey); err != nil {
				return err
			}
		}
		if o.Status != db.OrderRefunded {
			if _, err := tx.NewUpdate().Model(o).WherePK().Set("status = ?", db.OrderRefunded).Set("updated_at = now()").Exec(ctx); err != nil {
				return err
			}
		} else {
			req = &processor.RefundRequest{OrderID: o.ID, PaymentIntentID: *o.PaymentIntentID, ProcessorAccountID: *procID, Amount: o.Amount, APIKey: testKey,
				MembershipID: deref(o.MembershipID, ""), OnConnectedAccount: o.Source == db.OrderSourceACP}
			return nil
		}
		req = &processor.RefundRequest{OrderID: o.ID, PaymentIntentID: *o.PaymentIntentID, ProcessorAccountID: *procID, Amount: o.Amount, APIKey: testKey,
			MembershipID: deref(o.MembershipID, ""), OnConnectedAccount: o.Source == db.OrderSourceACP}
		if r.Processor.Name() == processor.Sandbox {
			// The sandbox confirms refunds itself, about a second later.
			_, err := r.Jobs.InsertTx(ctx, tx.River, SandboxRefundArgs{OrderID: o.ID},
				&river.InsertOpts{ScheduledAt: r.Now().Add(time.Second)})
			return err
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if req != nil {
		if err := r.Processor.Refund(ctx, *req); err != nil {
			return nil, fmt.Errorf("processor refund: %w", err)
		}
	}
	return r.Order(ctx, id)
}

// Order returns one of the caller's orders in full. Errors: not_found.
func (r *Resolver) Order(ctx context.Context, id string) (*model.Order, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	if !db.ValidID("ord", id) {
		return nil, problem.NotFoundf("No order %q on this account.", id)
	}
	o := new(db.Order)
	err = r.DB.NewSelect().Model(o).Where("id = ?", id).Where("account_id = ?", p.AccountID).Scan(ctx)
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return nil, problem.NotFoundf("No order %q on this account.", id)
	}
	if err != nil {
		return nil, err
	}
	m := toOrderModel(o)
	if err := r.fillOrderAccess(ctx, []*db.Order{o}, []*model.Order{m}); err != nil {
		return nil, err
	}
	return m, nil
}

// orderDiscount is the discount an order carries, nil when no code was
// applied.
func orderDiscount(o *db.Order) *model.OrderDiscount {
	return discountOf(o.DiscountID, o.DiscountCode, o.DiscountAmount)
}

// discountOf is an order's discount from its three columns (nil unless
// all three are set).
func discountOf(id, code *string, amount *int64) *model.OrderDiscount {
	if id == nil || code == nil || amount == nil {
		return nil
	}
	return &model.OrderDiscount{ID: *id, Code: *code, Amount: *amount}
}

func toOrderModel(o *db.Order) *model.Order {
	m := &model.Order{AccountID: o.AccountID, Object: "order", ID: o.ID, ListingID: o.ListingID, ListingSlug: o.ListingSlug, CustomerID: o.CustomerID,
		BuyerEmail: o.BuyerEmail, Subtotal: o.Subtotal, Discount: orderDiscount(o), Amount: o.Amount, Currency: o.Currency, PlatformFee: o.PlatformFee, NetAmount: o.NetAmount,
		ContentType: model.OrderContentType(o.ContentType), Status: model.OrderStatus(o.Status), PaymentStatus: model.PaymentStatus(o.PaymentStatus), PaymentIntentID: o.PaymentIntentID,
		CheckoutData: o.CheckoutData, ListingSnapshot: o.ListingSnapshot, SellerSnapshot: o.SellerSnapshot,
		HandedOffAt: utc(o.HandedOffAt), HasDeliverables: o.HasDeliverables, DisputeStatus: (*model.DisputeStatus)(o.DisputeStatus),
		RefundAmount: o.RefundAmount, RefundedAt: utc(o.RefundedAt), CreatedAt: o.CreatedAt.UTC(), PaidAt: utc(o.PaidAt),
		FulfilledAt: utc(o.FulfilledAt), FulfillmentNote: o.FulfillmentNote, CanceledAt: utc(o.CanceledAt), UpdatedAt: o.UpdatedAt.UTC(),
		Deliverables: make([]*model.Deliverable, len(o.Deliverables)), Readiness: orderReadiness(o),
		MembershipID: o.MembershipID, BillingReason: (*model.BillingReason)(o.BillingReason),
		Source: o.Source, AgentConnectionID: o.AgentConnectionID}
	if m.Source == "" {
		m.Source = db.OrderSourceCheckout
	}
	if m.CheckoutData == nil {
		m.CheckoutData = map[string]any{}
	}
	for i, d := range o.Deliverables {
		md := &model.Deliverable{Object: "deliverable", ID: d.ID, Type: model.DeliverableType(d.Type), CreatedAt: o.CreatedAt.UTC()}
		if d.Type == "file" {
			md.File = &model.DeliverableFile{Name: deref(d.FileName, "")}
			if d.FileSize != nil {
				md.File.Size = *d.FileSize
			}
			md.File.ContentType = deref(d.FileContentType, "")
		} else {
			md.Value = d.Value
		}
		m.Deliverables[i] = md
	}
	return m
}

// SandboxRefundArgs confirms a sandbox refund, as the processor would.
type SandboxRefundArgs struct {
	OrderID string `json:"order_id"`
}

// Kind names the job.
func (SandboxRefundArgs) Kind() string { return "sandbox_refund_confirm" }
