package db

import (
	"encoding/json"
	"time"

	"github.com/uptrace/bun"
)

// Order states and payment states.
const (
	OrderPending   = "pending"
	OrderPaid      = "paid"
	OrderFulfilled = "fulfilled"
	OrderCanceled  = "canceled"
	OrderFailed    = "failed"
	OrderRefunded  = "refunded"

	PaymentUnpaid   = "unpaid"
	PaymentPaid     = "paid"
	PaymentRefunded = "refunded"
)

// Order sources (orders.source).
const (
	OrderSourceCheckout = "checkout"
	OrderSourceACP      = "acp"
)

// OrderDeliverable is a deliverable as an order keeps it (copied at payment,
// or given by fulfill).
type OrderDeliverable struct {
	ID              string  `json:"id"`
	Type            string  `json:"type"`
	Value           *string `json:"value,omitempty"`
	FileKey         *string `json:"file_key,omitempty"`
	FileName        *string `json:"file_name,omitempty"`
	FileSize        *int64  `json:"file_size,omitempty"`
	FileContentType *string `json:"file_content_type,omitempty"`
}

// Order is a row of orders.
type Order struct {
	bun.BaseModel `bun:"table:orders"`

	ID          string  `bun:"id,pk"`
	AccountID   string  `bun:"account_id"`
	ListingID   string  `bun:"listing_id"`
	ListingSlug string  `bun:"listing_slug"`
	CustomerID  *string `bun:"customer_id"`
	BuyerEmail  string  `bun:"buyer_email"`
	// Subtotal is the price before any discount; Amount = Subtotal −
	// DiscountAmount is what is charged (pricing.Price).
	Subtotal int64 `bun:"subtotal"`
	// DiscountID, DiscountCode and DiscountAmount are the applied discount
	// code, all nil when none was.
	DiscountID        *string `bun:"discount_id"`
	DiscountCode      *string `bun:"discount_code"`
	DiscountAmount    *int64  `bun:"discount_amount"`
	Amount            int64   `bun:"amount"`
	Currency          string  `bun:"currency"`
	PlatformFee       int64   `bun:"platform_fee"`
	NetAmount         int64   `bun:"net_amount"`
	ContentType       string  `bun:"content_type"`
	Status            string  `bun:"status"`
	PaymentStatus     string  `bun:"payment_status"`
	PaymentIntentID   *string `bun:"payment_intent_id"`
	CheckoutSessionID *string `bun:"checkout_session_id"`
	// CheckoutExpiresAt is when the expiry sweep cancels the order if it
	// is still pending (nil: an order from before the sweep, whose
	// checkout_expiry job does it).
	CheckoutExpiresAt *time.Time         `bun:"checkout_expires_at"`
	CheckoutData      map[string]any     `bun:"checkout_data,type:jsonb"`
	ListingSnapshot   json.RawMessage    `bun:"listing_snapshot,type:jsonb"`
	SellerSnapshot    json.RawMessage    `bun:"seller_snapshot,type:jsonb"`
	Deliverables      []OrderDeliverable `bun:"deliverables,type:jsonb"`
	HasDeliverables   bool               `bun:"has_deliverables"`
	TestMode          bool               `bun:"test_mode"`
	DisputeStatus     *string            `bun:"dispute_status"`
	// DisputeLostAt is when the dispute was lost (analytics' bucket of
	// the amount it took out of revenue).
	DisputeLostAt     *time.Time `bun:"dispute_lost_at"`
	RefundAmount      *int64     `bun:"refund_amount"`
	ViewToken         string     `bun:"view_token"`
	PurchaseTrackedAt *time.Time `bun:"purchase_tracked_at"`
	HandedOffAt       *time.Time `bun:"handed_off_at"`
	FulfillmentNote   *string    `bun:"fulfillment_note"`
	// AccessExpiresAt is where a reset moved the end of the order's access
	// (CONTRACT §21); nil: paid_at plus the snapshot's access_days.
	AccessExpiresAt *time.Time `bun:"access_expires_at"`
	// The membership (CONTRACT §26): MembershipID is set once the first
	// order is paid (its membership is created then) and on every renewal
	// order; BillingReason is BillingReasonCreate or BillingReasonCycle (nil
	// on a one-time order); MembershipCycle is the period the order pays
	// (1 the first), unique per membership.
	MembershipID    *string `bun:"membership_id"`
	BillingReason   *string `bun:"billing_reason"`
	MembershipCycle *int    `bun:"membership_cycle"`
	// ProcessorInvoiceID is the invoice of a renewal the processor bills
	// itself (Stripe Billing), unique: its events find the order by it.
	ProcessorInvoiceID *string `bun:"processor_invoice_id"`
	// Source is where the order came from: OrderSourceCheckout (the
	// product page, the checkout API) or OrderSourceACP (a buyer's agent,
	// CONTRACT §25); "" is written as the column's default, checkout.
	Source string `bun:"source,nullzero,notnull,default:'checkout'"`
	// AgentConnectionID is the agent connection (acn_…) that made an
	// OrderSourceACP order; nil otherwise.
	AgentConnectionID *string    `bun:"agent_connection_id"`
	CreatedAt         time.Time  `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	PaidAt            *time.Time `bun:"paid_at"`
	FulfilledAt       *time.Time `bun:"fulfilled_at"`
	CanceledAt        *time.Time `bun:"canceled_at"`
	RefundedAt        *time.Time `bun:"refunded_at"`
	UpdatedAt         time.Time  `bun:"updated_at,nullzero,notnull,default:current_timestamp"`
}

// OrderColumns are the columns of Order, in the order ScanDest gives their
// destinations: a read through pgx selects them and scans each row with
// ScanDest, without bun's reflection per column (issue 27 item 3).
const OrderColumns = `id, account_id, listing_id, listing_slug, customer_id, buyer_email, subtotal, discount_id, discount_code,
	discount_amount, amount, currency, platform_fee, net_amount, content_type, status, payment_status, payment_intent_id,
	checkout_session_id, checkout_expires_at, checkout_data, listing_snapshot, seller_snapshot, deliverables, has_deliverables,
	test_mode, dispute_status, dispute_lost_at, refund_amount, view_token, purchase_tracked_at, handed_off_at, fulfillment_note,
	access_expires_at, membership_id, billing_reason, membership_cycle, processor_invoice_id, source, agent_connection_id, created_at,
	paid_at, fulfilled_at, canceled_at, refunded_at, updated_at`

// ScanDest appends to d the destinations in o of OrderColumns, for pgx's
// Rows.Scan (the JSON columns are decoded as bun decodes them: the
// snapshots kept as they are, checkout_data and deliverables by
// encoding/json).
func (o *Order) ScanDest(d []any) []any {
	return append(d, &o.ID, &o.AccountID, &o.ListingID, &o.ListingSlug, &o.CustomerID, &o.BuyerEmail, &o.Subtotal, &o.DiscountID, &o.DiscountCode,
		&o.DiscountAmount, &o.Amount, &o.Currency, &o.PlatformFee, &o.NetAmount, &o.ContentType, &o.Status, &o.PaymentStatus, &o.PaymentIntentID,
		&o.CheckoutSessionID, &o.CheckoutExpiresAt, &o.CheckoutData, (*[]byte)(&o.ListingSnapshot), (*[]byte)(&o.SellerSnapshot), &o.Deliverables, &o.HasDeliverables,
		&o.TestMode, &o.DisputeStatus, &o.DisputeLostAt, &o.RefundAmount, &o.ViewToken, &o.PurchaseTrackedAt, &o.HandedOffAt, &o.FulfillmentNote,
		&o.AccessExpiresAt, &o.MembershipID, &o.BillingReason, &o.MembershipCycle, &o.ProcessorInvoiceID, &o.Source, &o.AgentConnectionID, &o.CreatedAt,
		&o.PaidAt, &o.FulfilledAt, &o.CanceledAt, &o.RefundedAt, &o.UpdatedAt)
}

// Customer is a row of customers.
type Customer struct {
	bun.BaseModel `bun:"table:customers"`

	ID           string     `bun:"id,pk"`
	AccountID    string     `bun:"account_id"`
	Email        string     `bun:"email"`
	OrdersCount  int        `bun:"orders_count"`
	TotalSpent   int64      `bun:"total_spent"`
	Currency     *string    `bun:"currency"`
	FirstOrderAt *time.Time `bun:"first_order_at"`
	LastOrderAt  *time.Time `bun:"last_order_at"`
	CreatedAt    time.Time  `bun:"created_at,nullzero,notnull,default:current_timestamp"`
}

// Event is a row of the event log.
type Event struct {
	bun.BaseModel `bun:"table:events"`

	Seq       int64           `bun:"seq,scanonly"`
	ID        string          `bun:"id,pk"`
	AccountID string          `bun:"account_id"`
	Type      string          `bun:"type"`
	ListingID *string         `bun:"listing_id"`
	OrderID   *string         `bun:"order_id"`
	Data      json.RawMessage `bun:"data,type:jsonb"`
	CreatedAt time.Time       `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	// Traceparent is the span that recorded the event, when tracing was
	// on (its webhook deliveries' spans link to it); never in the API.
	Traceparent *string `bun:"traceparent" json:"-"`
	// AgentConnectionID is the agent connection of the event's order (an
	// OrderSourceACP order), not stored: the fan-out (recordEvents) sends
	// the event to that connection's endpoint too; nil for any other.
	AgentConnectionID *string `bun:"-" json:"-"`
}
