package resolvers

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"commerce/db"
	"commerce/graph"
	"commerce/graph/model"
	"commerce/input"
	"commerce/membership"
	"commerce/problem"
)

// Memberships (CONTRACT §26), the seller's reads: GET /v1/memberships with
// its filters and one membership; GraphQL viewer.memberships, membership,
// Membership's listing, customer and orders, Order.membership. The
// lifecycle (checkout, renewals, cancel, resume, the end) is in
// membership_lifecycle.go; its rules are package membership's. Another
// account's membership is not_found everywhere.

func membershipNotFound(id string) *problem.Problem {
	return problem.NotFoundf("No membership %q on this account.", id)
}

// listingBillingOf is a listing's billing as the API names it.
func listingBillingOf(l *db.Listing) model.ListingBilling {
	if l.Billing == db.BillingMembership {
		return model.ListingBillingMembership
	}
	return model.ListingBillingOneTime
}

// loadMembership reads a membership of the account, locked for update when
// lock is set. Errors: not_found.
func loadMembership(ctx context.Context, idb bun.IDB, accountID, id string, lock bool) (*db.Membership, error) {
	if !db.ValidID("mem", id) {
		return nil, membershipNotFound(id)
	}
	m := new(db.Membership)
	q := idb.NewSelect().Model(m).Where("id = ?", id).Where("account_id = ?", accountID)
	if lock {
		q = q.For("UPDATE")
	}
	if err := db.NotFound(q.Scan(ctx)); err != nil {
		if errors.Is(err, db.ErrNotFound) {
			return nil, membershipNotFound(id)
		}
		return nil, fmt.Errorf("load membership: %w", err)
	}
	return m, nil
}

// toMembershipModel is a membership as the API shows it.
func toMembershipModel(m *db.Membership) *model.Membership {
	return &model.Membership{Object: "membership", ID: m.ID, AccountID: m.AccountID, ListingID: m.ListingID,
		CustomerID: m.CustomerID, BuyerEmail: m.BuyerEmail, Status: model.MembershipStatus(m.Status),
		Interval: model.MembershipInterval(m.Interval), Amount: m.Amount, Currency: strings.ToLower(m.Currency),
		CurrentPeriodStart: m.CurrentPeriodStart.UTC(), CurrentPeriodEnd: m.CurrentPeriodEnd.UTC(), TrialEnd: utc(m.TrialEnd),
		CancelAtPeriodEnd: m.CancelAtPeriodEnd, CanceledAt: utc(m.CanceledAt), EndedAt: utc(m.EndedAt),
		EndedReason: (*model.MembershipEndedReason)(m.EndedReason), LatestOrderID: m.LatestOrderID,
		OrdersCount: m.OrdersCount, CreatedAt: m.CreatedAt.UTC(), UpdatedAt: m.UpdatedAt.UTC()}
}

// Membership returns one of the caller's memberships. Errors:
// authentication_error, not_found (another account's too).
func (r *Resolver) Membership(ctx context.Context, id string) (*model.Membership, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	m, err := loadMembership(ctx, r.DB, p.AccountID, id, false)
	if err != nil {
		return nil, err
	}
	return toMembershipModel(m), nil
}

// membershipsPage reads a keyset page of the caller's memberships, newest
// first. limitParam and cursorParam name the paging arguments in errors.
// Errors: authentication_error, validation_error (limit, cursor, status,
// listing, customer, buyer_email).
func (r *Resolver) membershipsPage(ctx context.Context, limit *int, cursor *string, f model.MembershipFilter, limitParam, cursorParam string) ([]*model.Membership, bool, *string, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, false, nil, err
	}
	pg, err := parsePage(limit, cursor, "mem")
	if err != nil {
		return nil, false, nil, renameParam(err, map[string]string{"limit": limitParam, "cursor": cursorParam})
	}
	var rows []*db.Membership
	q := r.DB.NewSelect().Model(&rows).Where("account_id = ?", p.AccountID).OrderExpr("id DESC").Limit(int64(pg.limit + 1))
	if pg.after != "" {
		q = q.Where("id < ?", pg.after)
	}
	if s := f.Status; s != nil {
		if !membership.Status(*s).Valid() {
			return nil, false, nil, problem.Validation("status", "status must be trialing, active, past_due, canceled or ended")
		}
		q = q.Where("status = ?", string(*s))
	}
	if l := f.ListingID; l != nil {
		if !db.ValidID("lst", *l) {
			return nil, false, nil, problem.Validation("listing", "listing must be a listing id of the form lst_…")
		}
		q = q.Where("listing_id = ?", *l)
	}
	if c := f.CustomerID; c != nil {
		if !db.ValidID("cus", *c) {
			return nil, false, nil, problem.Validation("customer", "customer must be a customer id of the form cus_…")
		}
		q = q.Where("customer_id = ?", *c)
	}
	if e := f.BuyerEmail; e != nil {
		email := strings.ToLower(strings.TrimSpace(*e))
		if email == "" || utf8.RuneCountInString(email) > maxEmailFilter || input.Text(email) != nil {
			return nil, false, nil, problem.Validation("buyer_email", "buyer_email must be the buyer's email address (at most 320 characters)")
		}
		q = q.Where("lower(buyer_email) = ?", email)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, false, nil, fmt.Errorf("list memberships: %w", err)
	}
	rows, more, next := trim(rows, pg.limit, func(m *db.Membership) string { return m.ID })
	out := make([]*model.Membership, len(rows))
	for i, m := range rows {
		out[i] = toMembershipModel(m)
	}
	return out, more, next, nil
}

// Memberships lists the caller's memberships, newest first, filtered by
// status, listing, customer and buyer email (without regard to case).
// Errors: authentication_error, validation_error (limit, cursor, status,
// listing, customer, buyer_email).
func (r *Resolver) Memberships(ctx context.Context, limit *int, cursor *string, f model.MembershipFilter) (*model.MembershipList, error) {
	data, more, next, err := r.membershipsPage(ctx, limit, cursor, f, "limit", "cursor")
	if err != nil {
		return nil, err
	}
	return &model.MembershipList{Object: "list", Data: data, HasMore: more, NextCursor: next}, nil
}

// MembershipsConnection is viewer.memberships in GraphQL: the same page as
// Memberships, as a Relay connection. Errors: as Memberships, with params
// first and after.
func (r *Resolver) MembershipsConnection(ctx context.Context, first *int, after *string, f model.MembershipFilter) (*model.MembershipConnection, error) {
	data, more, _, err := r.membershipsPage(ctx, first, after, f, "first", "after")
	if err != nil {
		return nil, err
	}
	edges, pi := connection(data, func(m *model.Membership) string { return idCursor(m.ID) },
		func(cur string, m *model.Membership) *model.MembershipEdge {
			return &model.MembershipEdge{Cursor: cur, Node: m}
		}, after, more)
	return &model.MembershipConnection{Edges: edges, PageInfo: pi}, nil
}

// The GraphQL side.

var _ graph.MembershipResolver = membershipResolver{}

func (x root) Membership() graph.MembershipResolver { return membershipResolver{x.r} }

type membershipResolver struct{ *Resolver }

// Memberships is viewer.memberships.
func (x accountResolver) Memberships(ctx context.Context, obj *model.Account, first *int, after *string, status *model.MembershipStatus,
	listing, customer, buyerEmail *string) (*model.MembershipConnection, error) {
	return x.MembershipsConnection(ctx, first, after, model.MembershipFilter{Status: status, ListingID: listing, CustomerID: customer, BuyerEmail: buyerEmail})
}

// CancelMembership is the GraphQL form of POST /v1/memberships/{id}/cancel.
func (x mutationResolver) CancelMembership(ctx context.Context, id string, atPeriodEnd *bool) (*model.Membership, error) {
	return x.Resolver.CancelMembership(ctx, id, atPeriodEnd == nil || *atPeriodEnd)
}

// ResumeMembership is the GraphQL form of POST /v1/memberships/{id}/resume.
func (x mutationResolver) ResumeMembership(ctx context.Context, id string) (*model.Membership, error) {
	return x.Resolver.ResumeMembership(ctx, id)
}

// Listing of a membership; null once deleted.
func (x membershipResolver) Listing(ctx context.Context, obj *model.Membership) (*model.Listing, error) {
	return x.loadListing(ctx, obj.ListingID)
}

// Customer of a membership.
func (x membershipResolver) Customer(ctx context.Context, obj *model.Membership) (*model.Customer, error) {
	return x.loadCustomer(ctx, obj.CustomerID)
}

// Orders of a membership, newest first.
func (x membershipResolver) Orders(ctx context.Context, obj *model.Membership, first *int, after *string) (*model.OrderConnection, error) {
	return x.OrdersConnection(ctx, first, after, model.OrderFilter{MembershipID: &obj.ID})
}

// Membership of an order: null on a one-time order.
func (x orderResolver) Membership(ctx context.Context, obj *model.Order) (*model.Membership, error) {
	if obj.MembershipID == nil {
		return nil, nil
	}
	return x.Resolver.Membership(ctx, *obj.MembershipID)
}

// MembershipStats is the caller's recurring revenue now: the memberships
// active or past due (trials excluded), counted, and their monthly value
// (membership.MRR: yearly ones divided by 12). Errors:
// authentication_error.
func (r *Resolver) MembershipStats(ctx context.Context) (*model.MembershipStats, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	var monthly, yearly int64
	var active int
	var cur *string
	if err := r.DB.Pool.QueryRow(ctx, `SELECT
			coalesce(sum(amount) FILTER (WHERE interval = 'month'), 0)::bigint,
			coalesce(sum(amount) FILTER (WHERE interval = 'year'), 0)::bigint,
			count(*)::int,
			(SELECT currency FROM accounts WHERE id = $1)
		FROM memberships WHERE account_id = $1 AND status IN ('active', 'past_due')`, p.AccountID).
		Scan(&monthly, &yearly, &active, &cur); err != nil {
		return nil, fmt.Errorf("membership stats: %w", err)
	}
	return &model.MembershipStats{Mrr: membership.MRR(monthly, yearly), ActiveMemberships: active, Currency: cur}, nil
}

// MembershipStats is viewer.membershipStats.
func (x accountResolver) MembershipStats(ctx context.Context, obj *model.Account) (*model.MembershipStats, error) {
	return x.Resolver.MembershipStats(ctx)
}
