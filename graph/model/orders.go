package model

import (
	"encoding/json"
	"time"
)

// Order is a purchase, in full.
type Order struct {
	AccountID   string  `json:"-"`
	Object      string  `json:"object"`
	ID          string  `json:"id"`
	ListingID   string  `json:"listing_id"`
	ListingSlug string  `json:"listing_slug"`
	CustomerID  *string `json:"customer_id"`
	BuyerEmail  string  `json:"buyer_email"`
	// Subtotal is the price before any discount; Amount = Subtotal −
	// Discount.Amount is what is charged (CONTRACT §19).
	Subtotal int64 `json:"subtotal"`
	// Discount is the discount code applied, null when none was.
	Discount        *OrderDiscount   `json:"discount"`
	Amount          int64            `json:"amount"`
	Currency        string           `json:"currency"`
	PlatformFee     int64            `json:"platform_fee"`
	NetAmount       int64            `json:"net_amount"`
	ContentType     OrderContentType `json:"content_type"`
	Status          OrderStatus      `json:"status"`
	PaymentStatus   PaymentStatus    `json:"payment_status"`
	PaymentIntentID *string          `json:"payment_intent_id"`
	CheckoutData    map[string]any   `json:"checkout_data"`
	ListingSnapshot json.RawMessage  `json:"listing_snapshot"`
	SellerSnapshot  json.RawMessage  `json:"seller_snapshot"`
	HandedOffAt     *time.Time       `json:"handed_off_at"`
	Deliverables    []*Deliverable   `json:"deliverables"`
	HasDeliverables bool             `json:"has_deliverables"`
	DisputeStatus   *DisputeStatus   `json:"dispute_status"`
	RefundAmount    *int64           `json:"refund_amount"`
	RefundedAt      *time.Time       `json:"refunded_at"`
	CreatedAt       time.Time        `json:"created_at"`
	PaidAt          *time.Time       `json:"paid_at"`
	FulfilledAt     *time.Time       `json:"fulfilled_at"`
	// FulfillmentNote is the seller's note to the buyer given with fulfill.
	FulfillmentNote *string         `json:"fulfillment_note"`
	CanceledAt      *time.Time      `json:"canceled_at"`
	UpdatedAt       time.Time       `json:"updated_at"`
	Readiness       *OrderReadiness `json:"readiness"`
	// Access is null when the order's listing had no access limits
	// (CONTRACT §21).
	Access *OrderAccess `json:"access"`
	// MembershipID and BillingReason are the membership the order pays a
	// period of, null on a one-time order (CONTRACT §26).
	MembershipID  *string        `json:"membership_id"`
	BillingReason *BillingReason `json:"billing_reason"`
	// Source is where the order came from: "checkout" (the product page,
	// the checkout API) or "acp" (a buyer's agent, CONTRACT §25).
	Source string `json:"source"`
	// AgentConnectionID is the agent connection (acn_…) that made an
	// "acp" order; null otherwise.
	AgentConnectionID *string `json:"agent_connection_id"`
}

// OrderDiscount is the discount code an order was bought with: the
// discount's id, its code and the amount it took off the subtotal.
type OrderDiscount struct {
	ID     string `json:"id"`
	Code   string `json:"code"`
	Amount int64  `json:"amount"`
}

// OrderReadiness names the recommended next action on an order.
type OrderReadiness struct {
	Actions []*Action         `json:"actions"`
	Next    *ActionCode       `json:"next"`
	Refresh *ReadinessRefresh `json:"refresh"`
}

// OrderSummary is an order in a list.
type OrderSummary struct {
	Object        string           `json:"object"`
	ID            string           `json:"id"`
	ListingID     string           `json:"listing_id"`
	BuyerEmail    string           `json:"buyer_email"`
	Subtotal      int64            `json:"subtotal"`
	Discount      *OrderDiscount   `json:"discount"`
	Amount        int64            `json:"amount"`
	Currency      string           `json:"currency"`
	Status        OrderStatus      `json:"status"`
	PaymentStatus PaymentStatus    `json:"payment_status"`
	ContentType   OrderContentType `json:"content_type"`
	CreatedAt     time.Time        `json:"created_at"`
	PaidAt        *time.Time       `json:"paid_at"`
	// MembershipID and BillingReason: the membership the order pays a
	// period of, null on a one-time order (CONTRACT §26).
	MembershipID  *string        `json:"membership_id"`
	BillingReason *BillingReason `json:"billing_reason"`
}

// OrderList is a page of orders, newest first.
type OrderList struct {
	Object     string          `json:"object"`
	Data       []*OrderSummary `json:"data"`
	HasMore    bool            `json:"has_more"`
	NextCursor *string         `json:"next_cursor"`
}

// OrderFilter are the filters of GET /v1/orders.
type OrderFilter struct {
	Status        *OrderStatus
	ListingID     *string
	BuyerEmail    *string
	CreatedAfter  *time.Time
	CreatedBefore *time.Time
	// MembershipID keeps the orders of one membership (CONTRACT §26).
	MembershipID *string
	// Query is the search box (CONTRACT §15): an order id finds that
	// order, other text the orders whose buyer email contains it.
	Query *string
}

// CustomerFilter are the filters of GET /v1/customers.
type CustomerFilter struct {
	// Email keeps the customer with this email (case-insensitive).
	Email *string
	// Query is the search box (CONTRACT §15): customers whose email
	// contains it (case-insensitive).
	Query         *string
	CreatedAfter  *time.Time
	CreatedBefore *time.Time
}

// FulfillInput is the body of POST /v1/orders/{id}/fulfill.
type FulfillInput struct {
	Deliverables []*DeliverableInput `json:"deliverables"`
	Note         *string             `json:"note"`
}

// Customer is a buyer of the seller.
type Customer struct {
	Object       string     `json:"object"`
	ID           string     `json:"id"`
	Email        string     `json:"email"`
	OrdersCount  int        `json:"orders_count"`
	TotalSpent   int64      `json:"total_spent"`
	Currency     *string    `json:"currency"`
	FirstOrderAt *time.Time `json:"first_order_at"`
	LastOrderAt  *time.Time `json:"last_order_at"`
	CreatedAt    time.Time  `json:"created_at"`
}

// CustomerList is a page of customers, most recent purchase first.
type CustomerList struct {
	Object     string      `json:"object"`
	Data       []*Customer `json:"data"`
	HasMore    bool        `json:"has_more"`
	NextCursor *string     `json:"next_cursor"`
}

// OrderConnection is a Relay connection of orders.
type OrderConnection struct {
	Edges    []*OrderEdge `json:"edges"`
	PageInfo *PageInfo    `json:"page_info"`
}

// OrderEdge is one order of a connection.
type OrderEdge struct {
	Cursor string `json:"cursor"`
	Node   *Order `json:"node"`
}

// CustomerConnection is a Relay connection of customers.
type CustomerConnection struct {
	Edges    []*CustomerEdge `json:"edges"`
	PageInfo *PageInfo       `json:"page_info"`
}

// CustomerEdge is one customer of a connection.
type CustomerEdge struct {
	Cursor string    `json:"cursor"`
	Node   *Customer `json:"node"`
}
