package resolvers

import (
	"context"
	"fmt"
	"iter"
	"time"

	"commerce/db"
	"commerce/export"
	"commerce/graph/model"
)

// CONTRACT §23's CSV exports: the caller's orders or customers with the
// filters of their lists, oldest first, read in keyset pages so that
// memory does not grow with the number of rows. REST writes the rows as CSV
// (rest/exports.go); there is no GraphQL twin.

// ExportPageSize is how many rows an export reads per query when
// Resolver.ExportPageSize is not set.
const ExportPageSize = 1000

func (r *Resolver) exportPageSize() int {
	if r.ExportPageSize > 0 {
		return r.ExportPageSize
	}
	return ExportPageSize
}

// orderExportRow is an order with its listing's title: the title it was
// bought under (the snapshot), else the listing's.
type orderExportRow struct {
	db.Order     `bun:",extend"`
	ListingTitle string `bun:"listing_title"`
}

// OrderExport checks the caller and the filters of GET /v1/orders, then
// returns the matching orders, oldest first (by id), read ExportPageSize
// at a time as the sequence is consumed. An error of a later page ends the
// sequence with it. Errors (before any row): authentication_error,
// validation_error (status, listing, membership, query).
func (r *Resolver) OrderExport(ctx context.Context, f model.OrderFilter) (iter.Seq2[*export.Order, error], error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	if err := orderConditions(f, func(string, any) {}); err != nil {
		return nil, err
	}
	size := r.exportPageSize()
	return func(yield func(*export.Order, error) bool) {
		after := ""
		for {
			var rows []orderExportRow
			q := r.DB.NewSelect().Model(&rows).ModelTableExpr("orders AS o").
				ColumnExpr(`o.id, o.created_at, o.paid_at, o.status, o.listing_id, o.buyer_email, o.currency, o.subtotal, o.discount_id,
					o.discount_code, o.discount_amount, o.amount, o.platform_fee, o.net_amount, o.refund_amount, o.refunded_at,
					o.membership_id, o.billing_reason`).
				ColumnExpr("coalesce(o.listing_snapshot->>'title', (SELECT l.title FROM listings l WHERE l.id = o.listing_id), '') AS listing_title").
				Where("o.account_id = ?", p.AccountID).OrderExpr("o.id ASC").Limit(int64(size))
			if after != "" {
				q = q.Where("o.id > ?", after)
			}
			_ = orderConditions(f, func(cond string, arg any) { q = q.Where(cond, arg) }) // checked above
			if err := q.Scan(ctx); err != nil {
				yield(nil, fmt.Errorf("export orders: %w", err))
				return
			}
			for i := range rows {
				if !yield(toOrderExport(&rows[i]), nil) {
					return
				}
			}
			if len(rows) < size {
				return
			}
			after = rows[len(rows)-1].ID
		}
	}, nil
}

// toOrderExport is the export's row of an order: the amounts as the order
// model shows them (toOrderModel), currency and enums lowercase.
func toOrderExport(o *orderExportRow) *export.Order {
	e := &export.Order{ID: o.ID, CreatedAt: o.CreatedAt.UTC(), PaidAt: utc(o.PaidAt), Status: o.Status, ListingID: o.ListingID,
		ListingTitle: o.ListingTitle, BuyerEmail: o.BuyerEmail, Currency: o.Currency, Subtotal: o.Subtotal, Amount: o.Amount,
		PlatformFee: o.PlatformFee, NetAmount: o.NetAmount, RefundAmount: o.RefundAmount, RefundedAt: utc(o.RefundedAt),
		MembershipID: o.MembershipID, BillingReason: o.BillingReason}
	if d := orderDiscount(&o.Order); d != nil {
		e.DiscountCode, e.DiscountAmount = &d.Code, d.Amount
	}
	return e
}

// CustomerExport checks the caller and the filters of GET /v1/customers,
// then returns the matching customers oldest first, by (first_order_at,
// id) (created_at stands in for a customer without a first order), read
// ExportPageSize at a time. Errors (before any row): authentication_error,
// validation_error (query).
func (r *Resolver) CustomerExport(ctx context.Context, f model.CustomerFilter) (iter.Seq2[*export.Customer, error], error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := customerFilter(r.DB.NewSelect(), f); err != nil {
		return nil, err
	}
	size := r.exportPageSize()
	return func(yield func(*export.Customer, error) bool) {
		var (
			afterAt time.Time
			afterID string
		)
		for {
			var rows []*db.Customer
			q := r.DB.NewSelect().Model(&rows).Where("account_id = ?", p.AccountID).
				OrderExpr("coalesce(first_order_at, created_at) ASC, id ASC").Limit(int64(size))
			if afterID != "" {
				q = q.Where("(coalesce(first_order_at, created_at), id) > (?, ?)", afterAt, afterID)
			}
			q, _ = customerFilter(q, f) // checked above
			if err := q.Scan(ctx); err != nil {
				yield(nil, fmt.Errorf("export customers: %w", err))
				return
			}
			for _, c := range rows {
				e := &export.Customer{ID: c.ID, Email: c.Email, OrdersCount: c.OrdersCount, TotalSpent: c.TotalSpent, Currency: c.Currency,
					FirstOrderAt: utc(c.FirstOrderAt), LastOrderAt: utc(c.LastOrderAt)}
				if !yield(e, nil) {
					return
				}
			}
			if len(rows) < size {
				return
			}
			last := rows[len(rows)-1]
			afterID, afterAt = last.ID, last.CreatedAt
			if last.FirstOrderAt != nil {
				afterAt = *last.FirstOrderAt
			}
		}
	}, nil
}
