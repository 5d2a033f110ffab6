package resolvers

import (
	"context"
	"errors"
	"fmt"
	"strconv"
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

// orderRead is what a page of orders reads into rows of type T: its
// columns of the orders table, where a row's values go (in the same
// order), and the row's id.
type orderRead[T any] struct {
	columns string
	dest    func(o *T, d []any) []any
	id      func(o *T) string
}

// orderSummaryRow is an order summary as REST's page reads it: the model
// itself, and the columns that become its discount and billing reason.
type orderSummaryRow struct {
	model.OrderSummary
	discountID, discountCode, billingReason *string
	discountAmount                          *int64
}

// orderSummaryRead reads REST's summaries straight into the model.
var orderSummaryRead = orderRead[orderSummaryRow]{
	columns: `id, listing_id, buyer_email, subtotal, discount_id, discount_code, discount_amount, amount, currency, status,
		payment_status, content_type, created_at, paid_at, membership_id, billing_reason`,
	dest: func(o *orderSummaryRow, d []any) []any {
		return append(d, &o.ID, &o.ListingID, &o.BuyerEmail, &o.Subtotal, &o.discountID, &o.discountCode, &o.discountAmount, &o.Amount,
			&o.Currency, (*string)(&o.Status), (*string)(&o.PaymentStatus), (*string)(&o.ContentType), &o.CreatedAt, &o.PaidAt,
			&o.MembershipID, &o.billingReason)
	},
	id: func(o *orderSummaryRow) string { return o.ID },
}

// orderFullRead reads the whole order (GraphQL's connection).
var orderFullRead = orderRead[db.Order]{columns: db.OrderColumns, dest: (*db.Order).ScanDest, id: func(o *db.Order) string { return o.ID }}

// ordersPage reads a keyset page of the caller's orders with the filters,
// the columns of read, in one statement through pgx (the rows are scanned
// with no reflection per column: issue 27 item 3). Errors:
// validation_error (limit, cursor, status, listing, membership, query).
func ordersPage[T any](ctx context.Context, r *Resolver, limit *int, cursor *string, f model.OrderFilter, read orderRead[T]) ([]*T, bool, *string, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, false, nil, err
	}
	pg, err := parsePage(limit, cursor, "ord")
	if err != nil {
		return nil, false, nil, err
	}
	w := pgWhere{sql: make([]byte, 0, 256), args: make([]any, 0, 8)}
	w.sql = append(w.sql, "SELECT "...)
	w.sql = append(w.sql, read.columns...)
	w.sql = append(w.sql, " FROM orders WHERE"...)
	w.and("account_id = ?", p.AccountID)
	if pg.after != "" {
		w.and("id < ?", pg.after)
	}
	if err := orderConditions(f, w.and); err != nil {
		return nil, false, nil, err
	}
	w.sql = append(w.sql, " ORDER BY id DESC LIMIT "...)
	w.sql = strconv.AppendInt(w.sql, int64(pg.limit+1), 10)
	rs, err := r.DB.Pool.Query(ctx, string(w.sql), w.args...)
	if err != nil {
		return nil, false, nil, fmt.Errorf("list orders: %w", err)
	}
	defer rs.Close()
	// One allocation for the page's rows, one destination slice for all.
	buf := make([]T, pg.limit+1)
	rows := make([]*T, 0, pg.limit+1)
	dest := make([]any, 0, 48)
	for rs.Next() {
		if len(rows) == len(buf) {
			break // LIMIT bounds it; never more than buf holds
		}
		o := &buf[len(rows)]
		if err := rs.Scan(read.dest(o, dest[:0])...); err != nil {
			return nil, false, nil, fmt.Errorf("list orders: %w", err)
		}
		rows = append(rows, o)
	}
	if err := rs.Err(); err != nil {
		return nil, false, nil, fmt.Errorf("list orders: %w", err)
	}
	rows, more, next := trim(rows, pg.limit, read.id)
	return rows, more, next, nil
}

// pgWhere builds a statement for pgx from conditions written with one ?
// each (as bun takes them): each ? becomes the next $n and its argument
// joins args.
type pgWhere struct {
	sql   []byte
	args  []any
	after bool // a condition is written: the next one starts with AND
}

// and adds cond, whose one ? stands for arg.
func (w *pgWhere) and(cond string, arg any) {
	if w.after {
		w.sql = append(w.sql, " AND "...)
	} else {
		w.sql = append(w.sql, ' ')
	}
	w.after = true
	w.args = append(w.args, arg)
	before, after, ok := strings.Cut(cond, "?")
	if !ok || strings.Contains(after, "?") {
		panic("pgWhere: a condition needs exactly one ?: " + cond)
	}
	w.sql = append(w.sql, before...)
	w.sql = append(w.sql, '$')
	w.sql = strconv.AppendInt(w.sql, int64(len(w.args)), 10)
	w.sql = append(w.sql, after...)
}

// orderConditions calls where with each condition the filters of GET
// /v1/orders put on the orders table, written with one ? for its argument:
// the one definition of the filters, which the list (pgx, pgWhere) and
// the export (bun's Where) both take. Errors: validation_error (status,
// listing, membership, query).
func orderConditions(f model.OrderFilter, where func(cond string, arg any)) error {
	if f.Status != nil {
		if !validOrderStatus(strings.ToLower(string(*f.Status))) {
			return problem.Validation("status", "status must be pending, paid, fulfilled, canceled, failed or refunded")
		}
		where("status = ?", strings.ToLower(string(*f.Status)))
	}
	if f.ListingID != nil {
		if !db.ValidID("lst", *f.ListingID) {
			return problem.Validation("listing", "listing must be a listing id (lst_…)")
		}
		where("listing_id = ?", *f.ListingID)
	}
	if f.BuyerEmail != nil {
		where("lower(buyer_email) = lower(?)", *f.BuyerEmail)
	}
	if f.MembershipID != nil {
		if !db.ValidID("mem", *f.MembershipID) {
			return problem.Validation("membership", "membership must be a membership id (mem_…)")
		}
		where("membership_id = ?", *f.MembershipID)
	}
	if f.Query != nil {
		text, err := searchQuery(*f.Query)
		if err != nil {
			return err
		}
		if db.ValidID("ord", text) {
			where("id = ?", text)
		} else {
			// LIKE's escape character is \ by default (search.Contains).
			where("buyer_email ILIKE ?", search.Contains(text))
		}
	}
	if f.CreatedAfter != nil {
		where("created_at > ?", *f.CreatedAfter)
	}
	if f.CreatedBefore != nil {
		where("created_at < ?", *f.CreatedBefore)
	}
	return nil
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
	rows, more, next, err := ordersPage(ctx, r, limit, cursor, f, orderSummaryRead)
	if err != nil {
		return nil, err
	}
	out := &model.OrderList{Object: "list", Data: make([]*model.OrderSummary, len(rows)), HasMore: more, NextCursor: next}
	for i, o := range rows {
		m := &o.OrderSummary
		m.Object = "order"
		m.Discount = discountOf(o.discountID, o.discountCode, o.discountAmount)
		m.CreatedAt = m.CreatedAt.UTC()
		if m.PaidAt != nil {
			*m.PaidAt = m.PaidAt.UTC() // pgx scanned it into a time of its own
		}
		m.BillingReason = (*model.BillingReason)(o.billingReason)
		out.Data[i] = m
	}
	return out, nil
}

// OrdersConnection is viewer.orders in GraphQL: full orders; their
// listings and customers come from dataloaders.
func (r *Resolver) OrdersConnection(ctx context.Context, first *int, after *string, f model.OrderFilter) (*model.OrderConnection, error) {
	rows, more, _, err := ordersPage(ctx, r, first, after, f, orderFullRead)
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
