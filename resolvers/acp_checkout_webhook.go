package resolvers

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"commerce/db"
	"commerce/webhooks"
)

// Order events to the agent platform (CONTRACT §25): an agent connection's
// endpoint receives its orders' order.paid as ACP's order_create and
// order.fulfilled, order.refunded and a lost order.dispute_closed as
// order_update, the body's data ACP's Order (type "order", the checkout
// session, the thank-you page as permalink_url, the status, the line
// item, the totals, a refund or a lost dispute as an adjustment), signed
// with Merchant-Signature. The dispatcher's retries, auto-disable, address
// rules and delivery log are the same as for any endpoint.

// acpWebhookEvent is ACP's webhook body.
type acpWebhookEvent struct {
	Type string       `json:"type"`
	Data acpOrderData `json:"data"`
}

type acpOrderData struct {
	Type              string           `json:"type"`
	ID                string           `json:"id"`
	CheckoutSessionID string           `json:"checkout_session_id"`
	PermalinkURL      string           `json:"permalink_url"`
	Status            string           `json:"status"`
	LineItems         []acpOrderLine   `json:"line_items"`
	Adjustments       []acpAdjustment  `json:"adjustments"`
	Totals            []acpOrderTotal  `json:"totals"`
	Confirmation      *acpConfirmation `json:"confirmation,omitempty"`
	Fulfillments      []acpFulfillment `json:"fulfillments,omitempty"`
}

type acpConfirmation struct {
	ConfirmationNumber string `json:"confirmation_number"`
	// EmailSent: the buyer's receipt and download link were emailed.
	EmailSent bool `json:"confirmation_email_sent"`
}

type acpOrderLine struct {
	ID       string           `json:"id"`
	Title    string           `json:"title"`
	Quantity acpOrderQuantity `json:"quantity"`
	// UnitPrice and Subtotal in minor units.
	UnitPrice int64  `json:"unit_price"`
	Subtotal  int64  `json:"subtotal"`
	Status    string `json:"status"`
}

type acpOrderQuantity struct {
	Ordered   int `json:"ordered"`
	Current   int `json:"current"`
	Fulfilled int `json:"fulfilled"`
}

type acpAdjustment struct {
	ID         string `json:"id"`
	Type       string `json:"type"`
	OccurredAt string `json:"occurred_at"`
	Status     string `json:"status"`
	Amount     int64  `json:"amount"`
	Currency   string `json:"currency"`
}

type acpOrderTotal struct {
	Type        string `json:"type"`
	DisplayText string `json:"display_text"`
	Amount      int64  `json:"amount"`
}

type acpFulfillment struct {
	ID     string `json:"id"`
	Type   string `json:"type"`
	Status string `json:"status"`
}

// deliverAgentWebhook posts one claimed record to an agent platform:
// ACP's body, Merchant-Signature.
func (r *Resolver) deliverAgentWebhook(ctx context.Context, c *claimedDelivery, secret string) webhooks.Attempt {
	body, err := r.agentWebhookBody(ctx, &c.ev)
	if err != nil {
		return webhooks.Attempt{Err: err}
	}
	return webhooks.DeliverACP(ctx, r.WebhookHTTP, c.ep.URL, secret, c.ev.ID, body, r.Now())
}

// agentWebhookBody is an order event as ACP's webhook body: the order as
// the event's data has it (its state when the event was recorded), with
// its checkout session and thank-you page read from the order's row (by
// the event's order id: a claimed event carries no account, and the
// event's endpoint is of the order's account).
func (r *Resolver) agentWebhookBody(ctx context.Context, ev *db.Event) ([]byte, error) {
	var d struct {
		OrderID       string  `json:"order_id"`
		ListingSlug   string  `json:"listing_slug"`
		BuyerEmail    string  `json:"buyer_email"`
		Subtotal      int64   `json:"subtotal"`
		Amount        int64   `json:"amount"`
		Currency      string  `json:"currency"`
		Status        string  `json:"status"`
		DisputeStatus *string `json:"dispute_status"`
		RefundAmount  *int64  `json:"refund_amount"`
		RefundedAt    *string `json:"refunded_at"`
		FulfilledAt   *string `json:"fulfilled_at"`
		Discount      *struct {
			Amount int64 `json:"amount"`
		} `json:"discount"`
	}
	if err := json.Unmarshal(ev.Data, &d); err != nil {
		return nil, fmt.Errorf("read the event's order: %w", err)
	}
	var title, viewToken, sessionID string
	var listingID string
	if err := r.DB.Pool.QueryRow(ctx, `SELECT o.listing_id, coalesce(o.listing_snapshot->>'title', ''), o.view_token, coalesce(s.id, '')
		FROM orders o LEFT JOIN acp_checkout_sessions s ON s.order_id = o.id AND s.account_id = o.account_id
		WHERE o.id = $1`, d.OrderID).Scan(&listingID, &title, &viewToken, &sessionID); err != nil {
		return nil, fmt.Errorf("read the event's order: %w", err)
	}
	o := &db.Order{ID: d.OrderID, Status: d.Status, ListingSlug: d.ListingSlug, ViewToken: viewToken, DisputeStatus: d.DisputeStatus}
	typ := "order_update"
	if ev.Type == EventOrderPaid {
		typ = "order_create"
	}
	cur := strings.ToLower(d.Currency)
	off := int64(0)
	if d.Discount != nil {
		off = d.Discount.Amount
	}
	line := acpOrderLine{ID: "li_" + strings.TrimPrefix(listingID, "lst_"), Title: title,
		Quantity: acpOrderQuantity{Ordered: 1, Current: 1}, UnitPrice: d.Subtotal, Subtotal: d.Amount, Status: "processing"}
	data := acpOrderData{Type: "order", ID: d.OrderID, CheckoutSessionID: sessionID, PermalinkURL: r.thankYouURL(o),
		Status: agentOrderStatus(o), Adjustments: []acpAdjustment{},
		Confirmation: &acpConfirmation{ConfirmationNumber: d.OrderID, EmailSent: d.FulfilledAt != nil}}
	if d.FulfilledAt != nil || d.Status == db.OrderFulfilled {
		line.Quantity.Fulfilled, line.Status = 1, "fulfilled"
		data.Fulfillments = []acpFulfillment{{ID: "ful_" + strings.TrimPrefix(d.OrderID, "ord_"), Type: "digital", Status: "delivered"}}
	}
	totals := []acpOrderTotal{{Type: "items_base_amount", DisplayText: "Items", Amount: d.Subtotal}}
	if off > 0 {
		totals = append(totals, acpOrderTotal{Type: "items_discount", DisplayText: "Discount", Amount: off})
	}
	totals = append(totals, acpOrderTotal{Type: "subtotal", DisplayText: "Subtotal", Amount: d.Amount},
		acpOrderTotal{Type: "fulfillment", DisplayText: "Digital delivery", Amount: 0},
		acpOrderTotal{Type: "total", DisplayText: "Total", Amount: d.Amount})
	if d.RefundAmount != nil {
		at := deref(d.RefundedAt, r.Now().UTC().Format(time.RFC3339))
		data.Adjustments = append(data.Adjustments, acpAdjustment{ID: "adj_refund_" + strings.TrimPrefix(d.OrderID, "ord_"),
			Type: "refund", OccurredAt: at, Status: "completed", Amount: *d.RefundAmount, Currency: cur})
		totals = append(totals, acpOrderTotal{Type: "amount_refunded", DisplayText: "Refunded", Amount: *d.RefundAmount})
		line.Quantity.Current, line.Status = 0, "removed"
	}
	if disputeLost(o) {
		data.Adjustments = append(data.Adjustments, acpAdjustment{ID: "adj_dispute_" + strings.TrimPrefix(d.OrderID, "ord_"),
			Type: "dispute", OccurredAt: ev.CreatedAt.UTC().Format(time.RFC3339), Status: "completed", Amount: d.Amount, Currency: cur})
		line.Quantity.Current, line.Status = 0, "removed"
	}
	data.LineItems, data.Totals = []acpOrderLine{line}, totals
	return json.Marshal(acpWebhookEvent{Type: typ, Data: data})
}
