package resolvers

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/riverqueue/river"
	"github.com/uptrace/bun"

	"commerce/db"
	"commerce/graph/model"
	"commerce/problem"
	"commerce/processor/sandbox"
	"commerce/search"
)

func validOrderStatus(s string) bool {
	switch s {
	case db.OrderPending, db.OrderPaid, db.OrderFulfilled, db.OrderCanceled, db.OrderFailed, db.OrderRefunded:
		return true
	}
	return false
}

// ordersPage reads a keyset page of the caller's orders with the filters.
// Errors: validation_error (limit, cursor, status, listing, membership,
// query).
func (r *Resolver) ordersPage(ctx context.Context, limit *int, cursor *string, f model.OrderFilter, columns ...string) ([]*db.Order, bool, *string, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, false, nil, err
	}
	pg, err := parsePage(limit, cursor, "ord")
	if err != nil {
		return nil, false, nil, err
	}
	var rows []*db.Order
	q := r.DB.NewSelect().Model(&rows).Where("account_id = ?", p.AccountID).OrderExpr("id DESC").Limit(int64(pg.limit + 1))
	if len(columns) > 0 {
		q = q.Column(columns...)
	}
	if pg.after != "" {
		q = q.Where("id < ?", pg.after)
	}
	if q, err = orderFilter(q, f); err != nil {
		return nil, false, nil, err
	}
	if err := q.Scan(ctx); err != nil {
		return nil, false, nil, fmt.Errorf("list orders: %w", err)
	}
	rows, more, next := trim(rows, pg.limit, func(o *db.Order) string { return o.ID })
	return rows, more, next, nil
}

// orderFilter adds the filters of GET /v1/orders to q (the list and the
// export share them). Errors: validation_error (status, listing,
// membership, query).
func orderFilter(q *bun.SelectQuery, f model.OrderFilter) (*bun.SelectQuery, error) {
	if f.Status != nil {
		if !validOrderStatus(strings.ToLower(string(*f.Status))) {
			return nil, problem.Validation("status", "status must be pending, paid, fulfilled, canceled, failed or refunded")
		}
		q = q.Where("status = ?", strings.ToLower(string(*f.Status)))
	}
	if f.ListingID != nil {
		if !db.ValidID("lst", *f.ListingID) {
			return nil, problem.Validation("listing", "listing must be a listing id (lst_…)")
		}
		q = q.Where("listing_id = ?", *f.ListingID)
	}
	if f.BuyerEmail != nil {
		q = q.Where("lower(buyer_email) = lower(?)", *f.BuyerEmail)
	}
	if f.MembershipID != nil {
		if !db.ValidID("mem", *f.MembershipID) {
			return nil, problem.Validation("membership", "membership must be a membership id (mem_…)")
		}
		q = q.Where("membership_id = ?", *f.MembershipID)
	}
	if f.Query != nil {
		text, err := searchQuery(*f.Query)
		if err != nil {
			return nil, err
		}
		if db.ValidID("ord", text) {
			q = q.Where("id = ?", text)
		} else {
			// LIKE's escape character is \ by default (search.Contains).
			q = q.Where("buyer_email ILIKE ?", search.Contains(text))
		}
	}
	if f.CreatedAfter != nil {
		q = q.Where("created_at > ?", *f.CreatedAfter)
	}
	if f.CreatedBefore != nil {
		q = q.Where("created_at < ?", *f.CreatedBefore)
	}
	return q, nil
}

// searchQuery is the trimmed search box text. Errors: validation_error
// (query).
func searchQuery(raw string) (string, error) {
	text, err := search.Query(raw)
	if err != nil {
		return "", problem.Validation("query", "query "+err.Error())
	}
	return text, nil
}

// customerFilter adds the filters of GET /v1/customers to q (the list and
// the export share them). Errors: validation_error (query).
func customerFilter(q *bun.SelectQuery, f model.CustomerFilter) (*bun.SelectQuery, error) {
	if f.Email != nil {
		q = q.Where("lower(email) = lower(?)", *f.Email)
	}
	if f.Query != nil {
		text, err := searchQuery(*f.Query)
		if err != nil {
			return nil, err
		}
		q = q.Where("email ILIKE ?", search.Contains(text))
	}
	if f.CreatedAfter != nil {
		q = q.Where("created_at > ?", *f.CreatedAfter)
	}
	if f.CreatedBefore != nil {
		q = q.Where("created_at < ?", *f.CreatedBefore)
	}
	return q, nil
}

// Orders lists the caller's orders (summaries), newest first. Errors:
// validation_error (limit, cursor, status, listing, membership, query).
func (r *Resolver) Orders(ctx context.Context, limit *int, cursor *string, f model.OrderFilter) (*model.OrderList, error) {
	rows, more, next, err := r.ordersPage(ctx, limit, cursor, f,
		"id", "listing_id", "buyer_email", "subtotal", "discount_id", "discount_code", "discount_amount", "amount", "currency", "status", "payment_status", "content_type", "created_at", "paid_at",
		"membership_id", "billing_reason")
	if err != nil {
		return nil, err
	}
	out := &model.OrderList{Object: "list", Data: make([]*model.OrderSummary, len(rows)), HasMore: more, NextCursor: next}
	for i, o := range rows {
		out.Data[i] = &model.OrderSummary{Object: "order", ID: o.ID, ListingID: o.ListingID, BuyerEmail: o.BuyerEmail,
			Subtotal: o.Subtotal, Discount: orderDiscount(o), Amount: o.Amount, Currency: o.Currency, Status: model.OrderStatus(o.Status), PaymentStatus: model.PaymentStatus(o.PaymentStatus),
			ContentType: model.OrderContentType(o.ContentType), CreatedAt: o.CreatedAt.UTC(), PaidAt: utc(o.PaidAt),
			MembershipID: o.MembershipID, BillingReason: (*model.BillingReason)(o.BillingReason)}
	}
	return out, nil
}

// OrdersConnection is viewer.orders in GraphQL: full orders; their
// listings and customers come from dataloaders.
func (r *Resolver) OrdersConnection(ctx context.Context, first *int, after *string, f model.OrderFilter) (*model.OrderConnection, error) {
	rows, more, _, err := r.ordersPage(ctx, first, after, f)
	if err != nil {
		return nil, err
	}
	edges, pi := connection(rows, func(o *db.Order) string { return idCursor(o.ID) },
		func(cur string, o *db.Order) *model.OrderEdge {
			return &model.OrderEdge{Cursor: cur, Node: toOrderModel(o)}
		}, after, more)
	// The access of the page's orders with access limits, in one statement.
	nodes := make([]*model.Order, len(edges))
	for i, e := range edges {
		nodes[i] = e.Node
	}
	if err := r.fillOrderAccess(ctx, rows, nodes); err != nil {
		return nil, err
	}
	return &model.OrderConnection{Edges: edges, PageInfo: pi}, nil
}

// Customers lists the caller's customers, most recent purchase first.
// Errors: validation_error (limit, cursor, query).
func (r *Resolver) Customers(ctx context.Context, limit *int, cursor *string, f model.CustomerFilter) (*model.CustomerList, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	pg, err := parsePage(limit, cursor, "cus")
	if err != nil {
		return nil, err
	}
	var rows []*db.Customer
	q := r.DB.NewSelect().Model(&rows).Where("account_id = ?", p.AccountID).
		OrderExpr("last_order_at DESC, id DESC").Limit(int64(pg.limit + 1))
	if pg.after != "" {
		q = q.Where("(last_order_at, id) < (SELECT last_order_at, id FROM customers WHERE id = ?)", pg.after)
	}
	if q, err = customerFilter(q, f); err != nil {
		return nil, err
	}
	if err := q.Scan(ctx); err != nil {
		return nil, fmt.Errorf("list customers: %w", err)
	}
	rows, more, next := trim(rows, pg.limit, func(c *db.Customer) string { return c.ID })
	out := &model.CustomerList{Object: "list", Data: make([]*model.Customer, len(rows)), HasMore: more, NextCursor: next}
	for i, c := range rows {
		out.Data[i] = toCustomerModel(c)
	}
	return out, nil
}

// Customer returns one of the caller's customers. Errors: not_found.
func (r *Resolver) Customer(ctx context.Context, id string) (*model.Customer, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	if !db.ValidID("cus", id) {
		return nil, problem.Validation("customer_id", "customer_id must be a customer id (cus_…)")
	}
	c := new(db.Customer)
	err = r.DB.NewSelect().Model(c).Where("id = ?", id).Where("account_id = ?", p.AccountID).Scan(ctx)
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return nil, problem.NotFoundf("No customer %q on this account.", id)
	}
	if err != nil {
		return nil, err
	}
	return toCustomerModel(c), nil
}

func toCustomerModel(c *db.Customer) *model.Customer {
	return &model.Customer{Object: "customer", ID: c.ID, Email: c.Email, OrdersCount: c.OrdersCount, TotalSpent: c.TotalSpent,
		Currency: c.Currency, FirstOrderAt: utc(c.FirstOrderAt), LastOrderAt: utc(c.LastOrderAt), CreatedAt: c.CreatedAt.UTC()}
}

// SandboxRefundWorker confirms sandbox refunds through the same event path
// as the Stripe processor's charge.refunded.
type SandboxRefundWorker struct {
	river.WorkerDefaults[SandboxRefundArgs]
	R *Resolver
}

// SandboxRefundTimeout bounds one confirmation (a read and one
// transaction), below jobs.RescueStuckJobsAfter.
const SandboxRefundTimeout = 15 * time.Second

// Timeout bounds one confirmation (SandboxRefundTimeout).
func (w *SandboxRefundWorker) Timeout(*river.Job[SandboxRefundArgs]) time.Duration {
	return SandboxRefundTimeout
}

// Work applies the refund confirmation.
func (w *SandboxRefundWorker) Work(ctx context.Context, job *river.Job[SandboxRefundArgs]) error {
	o := new(db.Order)
	if err := w.R.DB.NewSelect().Model(o).Where("id = ?", job.Args.OrderID).Scan(ctx); err != nil {
		return err
	}
	return w.R.ApplyProcessorEvent(ctx, sandbox.RefundConfirmed(o.ID, deref(o.PaymentIntentID, ""), o.Amount, strings.ToLower(o.Currency)))
}
