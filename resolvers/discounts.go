package resolvers

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/uptrace/bun"

	"commerce/db"
	"commerce/graph/model"
	"commerce/pricing"
	"commerce/problem"
)

// Discount codes (CONTRACT §19): the seller's resource (create, read,
// list, update, delete, with its status, share_url and readiness), and the
// helpers a checkout uses to find a code and to reserve, confirm and
// release its redemptions. The rules that need no database (code format,
// terms, status, a buyer's refusals) are pricing's.

const (
	// maxDiscountListings bounds listing_ids.
	maxDiscountListings = 100
	// maxDiscountName bounds name, as a webhook endpoint's.
	maxDiscountName = 100
	// readinessListings is how many of a discount's listings its readiness
	// reads (published first): enough to find one that sells, or to say
	// what would make one sell.
	readinessListings = 10
	// exampleExtension is how far extend_discount's example expires_at lies.
	exampleExtension = 30 * 24 * time.Hour
)

// termsOf are a discount's rules and counters as pricing reads them.
func termsOf(d *db.Discount) pricing.DiscountTerms {
	return pricing.DiscountTerms{Type: d.Type, PercentOff: d.PercentOff, AmountOff: d.AmountOff, ListingIDs: d.ListingIDs,
		StartsAt: d.StartsAt, ExpiresAt: d.ExpiresAt, MaxRedemptions: d.MaxRedemptions, MaxPerCustomer: d.MaxRedemptionsPerCustomer,
		MinimumAmount: d.MinimumAmount, Disabled: d.Disabled, RedemptionsCount: d.RedemptionsCount, ReservedCount: d.ReservedCount}
}

// discountNotFound is the one not_found of a discount id.
func discountNotFound(id string) *problem.Problem {
	return problem.NotFoundf("No discount %q on this account.", id)
}

// codeTaken is the refusal of a code another live discount of the account has.
func codeTaken(code string) *problem.Problem {
	return problem.Validation("code", fmt.Sprintf("The code %q is already used by another discount of this account (codes compare without regard to case).", code))
}

// checkDiscountName validates a name: at most 100 characters.
func checkDiscountName(f *problem.Fields, name *string) {
	if name != nil && utf8.RuneCountInString(*name) > maxDiscountName {
		f.Addf("name", "name must be at most %d characters", maxDiscountName)
	}
}

// checkDiscountCode validates a code's format.
func checkDiscountCode(f *problem.Fields, code string) {
	if !pricing.ValidCode(code) {
		f.Add("code", "code must be 3 to 40 letters, digits, _ or - (^[A-Za-z0-9_-]{3,40}$)")
	}
}

// discountListings validates listing_ids: at most 100 ids, each a live
// listing of the account (duplicates dropped, order kept). Every failure
// goes to f at param listing_ids.
func (r *Resolver) discountListings(ctx context.Context, f *problem.Fields, accountID string, ids []string) []string {
	out := []string{}
	for _, id := range ids {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	if len(out) > maxDiscountListings {
		f.Addf("listing_ids", "listing_ids names at most %d listings", maxDiscountListings)
		return out
	}
	for _, id := range out {
		if !db.ValidID("lst", id) {
			f.Addf("listing_ids", "%q is not a listing id (lst_…)", id)
			return out
		}
	}
	if len(out) == 0 {
		return out
	}
	var found []string
	if err := r.DB.NewSelect().Table("listings").Column("id").Where("account_id = ?", accountID).
		Where("id IN (?)", bun.List(out)).Where("deleted_at IS NULL").Scan(ctx, &found); err != nil {
		f.Add("listing_ids", "listing_ids could not be checked; try again")
		r.Log.ErrorContext(ctx, "check discount listings", "error", err)
		return out
	}
	for _, id := range out {
		if !slices.Contains(found, id) {
			f.Addf("listing_ids", "No listing %q on this account.", id)
			return out
		}
	}
	return out
}

// CreateDiscount creates a discount code. Errors: authentication_error,
// permission_denied, validation_error (every field, listed in errors; a
// code another live discount of the account has, without regard to case,
// at code on its own).
func (r *Resolver) CreateDiscount(ctx context.Context, in model.CreateDiscountInput) (*model.Discount, error) {
	p, err := writer(ctx)
	if err != nil {
		return nil, err
	}
	var f problem.Fields
	checkDiscountName(&f, in.Name)
	checkDiscountCode(&f, in.Code)
	d := &db.Discount{ID: db.NewID("dsc"), AccountID: p.AccountID, Name: in.Name, Code: in.Code, Type: string(in.Type),
		PercentOff: in.PercentOff, AmountOff: in.AmountOff, StartsAt: utc(in.StartsAt), ExpiresAt: utc(in.ExpiresAt),
		MaxRedemptions: in.MaxRedemptions, MaxRedemptionsPerCustomer: in.MaxRedemptionsPerCustomer, MinimumAmount: in.MinimumAmount}
	termsOf(d).Check(&f)
	pricing.CheckNewExpiry(&f, in.ExpiresAt, r.Now())
	d.Metadata = checkMetadata(&f, in.Metadata)
	d.ListingIDs = r.discountListings(ctx, &f, p.AccountID, in.ListingIds)
	if err := f.Err(); err != nil {
		return nil, err
	}
	if _, err := r.DB.NewInsert().Model(d).Returning("created_at, updated_at").Exec(ctx); err != nil {
		if db.IsUniqueViolation(err, "discounts_account_code_key") {
			return nil, codeTaken(in.Code)
		}
		return nil, fmt.Errorf("insert discount: %w", err)
	}
	return r.Discount(ctx, d.ID)
}

// loadDiscount reads a live discount of the account, locked for update
// when lock is set. Errors: not_found.
func loadDiscount(ctx context.Context, idb bun.IDB, accountID, id string, lock bool) (*db.Discount, error) {
	if !db.ValidID("dsc", id) {
		return nil, discountNotFound(id)
	}
	d := new(db.Discount)
	q := idb.NewSelect().Model(d).Where("id = ?", id).Where("account_id = ?", accountID).Where("deleted_at IS NULL")
	if lock {
		q = q.For("NO KEY UPDATE")
	}
	if err := db.NotFound(q.Scan(ctx)); err != nil {
		if errors.Is(err, db.ErrNotFound) {
			return nil, discountNotFound(id)
		}
		return nil, fmt.Errorf("load discount: %w", err)
	}
	return d, nil
}

// Discount returns one of the caller's discount codes. Errors:
// authentication_error, not_found (another account's too).
func (r *Resolver) Discount(ctx context.Context, id string) (*model.Discount, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	d, err := loadDiscount(ctx, r.DB, p.AccountID, id, false)
	if err != nil {
		return nil, err
	}
	out, err := r.toDiscountModels(ctx, p.AccountID, []*db.Discount{d})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// discountStatusSQL is pricing.DiscountTerms.Status in SQL, for the list's
// status filter: the same precedence, at the time given twice.
const discountStatusSQL = `CASE WHEN disabled THEN 'disabled'
	WHEN expires_at IS NOT NULL AND expires_at <= ? THEN 'expired'
	WHEN max_redemptions IS NOT NULL AND redemptions_count >= max_redemptions THEN 'exhausted'
	WHEN starts_at IS NOT NULL AND starts_at > ? THEN 'scheduled'
	ELSE 'active' END`

// discountsPage reads a keyset page of the caller's discounts, newest
// first. limitParam and cursorParam name the paging arguments in errors
// (limit/cursor in REST, first/after in GraphQL). Errors:
// authentication_error, validation_error (limit, cursor, status, listing).
func (r *Resolver) discountsPage(ctx context.Context, limit *int, cursor *string, filter model.DiscountFilter, limitParam, cursorParam string) (string, []*db.Discount, bool, *string, error) {
	p, err := caller(ctx)
	if err != nil {
		return "", nil, false, nil, err
	}
	pg, err := parsePage(limit, cursor, "dsc")
	if err != nil {
		return "", nil, false, nil, renameParam(err, map[string]string{"limit": limitParam, "cursor": cursorParam})
	}
	var rows []*db.Discount
	q := r.DB.NewSelect().Model(&rows).Where("account_id = ?", p.AccountID).Where("deleted_at IS NULL").
		OrderExpr("id DESC").Limit(int64(pg.limit + 1))
	if pg.after != "" {
		q = q.Where("id < ?", pg.after)
	}
	if s := filter.Status; s != nil {
		if !s.Valid() {
			return "", nil, false, nil, problem.Validation("status", "status must be scheduled, active, expired, exhausted or disabled")
		}
		now := r.Now()
		q = q.Where(discountStatusSQL+" = ?", now, now, string(*s))
	}
	if l := filter.ListingID; l != nil {
		if !db.ValidID("lst", *l) {
			return "", nil, false, nil, problem.Validation("listing", "listing must be an id of the form lst_…")
		}
		q = q.Where("(cardinality(listing_ids) = 0 OR ? = ANY (listing_ids))", *l)
	}
	if err := q.Scan(ctx); err != nil {
		return "", nil, false, nil, fmt.Errorf("list discounts: %w", err)
	}
	rows, more, next := trim(rows, pg.limit, func(d *db.Discount) string { return d.ID })
	return p.AccountID, rows, more, next, nil
}

// Discounts lists the caller's discount codes, newest first, filtered by
// status (now) and by a listing they apply to (naming it, or every
// listing). Errors: authentication_error, validation_error (limit, cursor,
// status, listing).
func (r *Resolver) Discounts(ctx context.Context, limit *int, cursor *string, filter model.DiscountFilter) (*model.DiscountList, error) {
	accountID, rows, more, next, err := r.discountsPage(ctx, limit, cursor, filter, "limit", "cursor")
	if err != nil {
		return nil, err
	}
	data, err := r.toDiscountModels(ctx, accountID, rows)
	if err != nil {
		return nil, err
	}
	return &model.DiscountList{Object: "list", Data: data, HasMore: more, NextCursor: next}, nil
}

// DiscountsConnection is viewer.discounts in GraphQL: the same page as
// Discounts, as a Relay connection. Errors: as Discounts, with params
// first and after.
func (r *Resolver) DiscountsConnection(ctx context.Context, first *int, after *string, filter model.DiscountFilter) (*model.DiscountConnection, error) {
	accountID, rows, more, _, err := r.discountsPage(ctx, first, after, filter, "first", "after")
	if err != nil {
		return nil, err
	}
	data, err := r.toDiscountModels(ctx, accountID, rows)
	if err != nil {
		return nil, err
	}
	edges, pi := connection(data, func(d *model.Discount) string { return idCursor(d.ID) },
		func(cur string, d *model.Discount) *model.DiscountEdge {
			return &model.DiscountEdge{Cursor: cur, Node: d}
		}, after, more)
	return &model.DiscountConnection{Edges: edges, PageInfo: pi}, nil
}

// UpdateDiscount changes the given fields of a discount code: name,
// expires_at, max_redemptions (not below the paid orders and the checkouts
// in progress that hold it), max_redemptions_per_customer, status (active
// ↔ disabled), listing_ids and metadata; code, type, percent_off and
// amount_off only until the first paid order used it. Errors:
// authentication_error, permission_denied, not_found, conflict (code,
// type or amount after the first redemption), validation_error.
func (r *Resolver) UpdateDiscount(ctx context.Context, id string, in model.UpdateDiscountInput) (*model.Discount, error) {
	p, err := writer(ctx)
	if err != nil {
		return nil, err
	}
	now := r.Now()
	var f problem.Fields
	name, nameSet := in.Name.ValueOK()
	if nameSet {
		checkDiscountName(&f, name)
	}
	if in.Code != nil {
		checkDiscountCode(&f, *in.Code)
	}
	expires, expiresSet := in.ExpiresAt.ValueOK()
	if expiresSet {
		expires = utc(expires)
		pricing.CheckNewExpiry(&f, expires, now)
	}
	if in.Type != nil && !in.Type.Valid() {
		f.Add("type", "type must be percentage or fixed.")
	}
	if in.Status != nil && *in.Status != model.DiscountStatusActive && *in.Status != model.DiscountStatusDisabled {
		f.Add("status", "status must be active or disabled")
	}
	var meta map[string]string
	metaIn, metaSet := in.Metadata.ValueOK()
	if metaSet {
		meta = checkMetadata(&f, metaIn)
	}
	var listings []string
	listingsIn, listingsSet := in.ListingIds.ValueOK()
	if listingsSet {
		listings = r.discountListings(ctx, &f, p.AccountID, listingsIn)
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	percent, percentSet := in.PercentOff.ValueOK()
	amount, amountSet := in.AmountOff.ValueOK()
	maxR, maxSet := in.MaxRedemptions.ValueOK()
	perCustomer, perCustomerSet := in.MaxRedemptionsPerCustomer.ValueOK()
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		d, err := loadDiscount(ctx, tx, p.AccountID, id, true)
		if err != nil {
			return err
		}
		next := *d
		if in.Code != nil {
			next.Code = *in.Code
		}
		if in.Type != nil && string(*in.Type) != d.Type {
			// The other type's value goes, unless the input gives it (then
			// the check below refuses it).
			next.Type = string(*in.Type)
			if next.Type == pricing.DiscountPercentage {
				next.AmountOff = nil
			} else {
				next.PercentOff = nil
			}
		}
		if percentSet {
			next.PercentOff = percent
		}
		if amountSet {
			next.AmountOff = amount
		}
		if d.RedemptionsCount > 0 && (next.Code != d.Code || next.Type != d.Type || !samePtr(next.PercentOff, d.PercentOff) ||
			!samePtr(next.AmountOff, d.AmountOff)) {
			return problem.Newf(problem.Conflict, "Paid orders have used this code (%d): its code, type, percent_off and amount_off "+
				"can no longer change. Create another code instead.", d.RedemptionsCount).With("redemptions_count", d.RedemptionsCount)
		}
		if nameSet {
			next.Name = name
		}
		if expiresSet {
			next.ExpiresAt = expires
		}
		if maxSet {
			next.MaxRedemptions = maxR
		}
		if perCustomerSet {
			next.MaxRedemptionsPerCustomer = perCustomer
		}
		if in.Status != nil {
			next.Disabled = *in.Status == model.DiscountStatusDisabled
		}
		if listingsSet {
			next.ListingIDs = listings
		}
		if metaSet {
			next.Metadata = meta
		}
		var f problem.Fields
		termsOf(&next).Check(&f)
		if m := next.MaxRedemptions; maxSet && m != nil && *m >= 1 {
			switch {
			case *m < d.RedemptionsCount:
				f.Addf("max_redemptions", "max_redemptions cannot be below redemptions_count: paid orders used the code %d times.", d.RedemptionsCount)
			case *m < d.RedemptionsCount+d.ReservedCount:
				f.Addf("max_redemptions", "max_redemptions cannot be below %d: %d paid orders used the code and %d checkouts in progress hold it.",
					d.RedemptionsCount+d.ReservedCount, d.RedemptionsCount, d.ReservedCount)
			}
		}
		if err := f.Err(); err != nil {
			return err
		}
		_, err = tx.NewUpdate().Model(&next).WherePK().
			Column("name", "code", "type", "percent_off", "amount_off", "listing_ids", "expires_at", "max_redemptions",
				"max_redemptions_per_customer", "disabled", "metadata").
			Set("updated_at = now()").Exec(ctx)
		if db.IsUniqueViolation(err, "discounts_account_code_key") {
			return codeTaken(next.Code)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return r.Discount(ctx, id)
}

func samePtr(a, b *int64) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && *a == *b)
}

// DeleteDiscount deletes a discount code: buyers can no longer use it (its
// code is free again), and orders keep their discount. Checkouts that hold
// a redemption of it are still confirmed or released. Errors:
// authentication_error, permission_denied, not_found.
func (r *Resolver) DeleteDiscount(ctx context.Context, id string) (bool, error) {
	p, err := writer(ctx)
	if err != nil {
		return false, err
	}
	if !db.ValidID("dsc", id) {
		return false, discountNotFound(id)
	}
	res, err := r.DB.NewUpdate().Table("discounts").Set("deleted_at = now(), updated_at = now()").
		Where("id = ?", id).Where("account_id = ?", p.AccountID).Where("deleted_at IS NULL").Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("delete discount: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, discountNotFound(id)
	}
	return true, nil
}

// discountLinks are what the models of some discounts read beside their
// rows: the seller's readiness facts and store slug, and the listings the
// discounts apply to.
type discountLinks struct {
	seller *sellerFacts
	// named are the listings the discounts name, by id (deleted ones too:
	// a share_url of one listing names its page).
	named map[string]*db.Listing
	// every is the account's live listings, published first, at most
	// readinessListings (for discounts on every listing).
	every []*db.Listing
}

// loadDiscountLinks reads the links of discounts of one account: the
// seller (one statement), the listings they name (one) and, when one
// applies to every listing, the account's first listings (one).
func (r *Resolver) loadDiscountLinks(ctx context.Context, accountID string, ds []*db.Discount) (*discountLinks, error) {
	seller, err := r.sellerFacts(ctx, accountID)
	if err != nil {
		return nil, err
	}
	links := &discountLinks{seller: seller, named: map[string]*db.Listing{}}
	var ids []string
	every := false
	for _, d := range ds {
		ids = append(ids, d.ListingIDs...)
		every = every || len(d.ListingIDs) == 0
	}
	cols := []string{"id", "slug", "status", "deliverables_count", "license_enabled", "deleted_at"}
	if len(ids) > 0 {
		var rows []*db.Listing
		if err := r.DB.NewSelect().Model(&rows).Column(cols...).Where("account_id = ?", accountID).
			Where("id IN (?)", bun.List(ids)).Scan(ctx); err != nil {
			return nil, fmt.Errorf("load discount listings: %w", err)
		}
		for _, l := range rows {
			links.named[l.ID] = l
		}
	}
	if every {
		if err := r.DB.NewSelect().Model(&links.every).Column(cols...).Where("account_id = ?", accountID).
			Where("deleted_at IS NULL").OrderExpr("status = 'published' DESC, id DESC").Limit(readinessListings).
			Scan(ctx); err != nil {
			return nil, fmt.Errorf("load discount listings: %w", err)
		}
	}
	return links, nil
}

// listingsOf are the live listings a discount applies to that its
// readiness reads: published first, then newest, at most readinessListings.
func (l *discountLinks) listingsOf(d *db.Discount) []*db.Listing {
	if len(d.ListingIDs) == 0 {
		return l.every
	}
	var out []*db.Listing
	for _, id := range d.ListingIDs {
		if x, ok := l.named[id]; ok && x.DeletedAt == nil {
			out = append(out, x)
		}
	}
	slices.SortStableFunc(out, func(a, b *db.Listing) int {
		if pa, pb := a.Status == db.ListingPublished, b.Status == db.ListingPublished; pa != pb {
			if pa {
				return -1
			}
			return 1
		}
		return strings.Compare(b.ID, a.ID)
	})
	if len(out) > readinessListings {
		out = out[:readinessListings]
	}
	return out
}

// toDiscountModels converts discounts of one account into API models with
// their status, share_url and readiness, reading their links once.
func (r *Resolver) toDiscountModels(ctx context.Context, accountID string, ds []*db.Discount) ([]*model.Discount, error) {
	out := make([]*model.Discount, len(ds))
	if len(ds) == 0 {
		return out, nil
	}
	links, err := r.loadDiscountLinks(ctx, accountID, ds)
	if err != nil {
		return nil, err
	}
	now := r.Now()
	for i, d := range ds {
		out[i] = r.toDiscountModel(d, links, now)
	}
	return out, nil
}

func (r *Resolver) toDiscountModel(d *db.Discount, links *discountLinks, now time.Time) *model.Discount {
	status := termsOf(d).Status(now)
	m := &model.Discount{Object: "discount", ID: d.ID, Name: d.Name, Code: d.Code, Type: model.DiscountType(d.Type),
		PercentOff: d.PercentOff, AmountOff: d.AmountOff, ListingIds: d.ListingIDs, StartsAt: utc(d.StartsAt),
		ExpiresAt: utc(d.ExpiresAt), MaxRedemptions: d.MaxRedemptions, MaxRedemptionsPerCustomer: d.MaxRedemptionsPerCustomer,
		MinimumAmount: d.MinimumAmount, RedemptionsCount: d.RedemptionsCount, Status: model.DiscountStatus(status),
		ShareURL: r.shareURL(d, links), Metadata: map[string]any{}, Readiness: discountReadiness(d, status, now, links),
		CreatedAt: d.CreatedAt.UTC(), UpdatedAt: d.UpdatedAt.UTC()}
	if m.ListingIds == nil {
		m.ListingIds = []string{}
	}
	for k, v := range d.Metadata {
		m.Metadata[k] = v
	}
	return m
}

// shareURL is the page a buyer opens with the code filled in: the product
// page of the one listing the discount names, else the store page (nil
// while the store has no slug).
func (r *Resolver) shareURL(d *db.Discount, links *discountLinks) *string {
	query := "?code=" + url.QueryEscape(d.Code)
	if len(d.ListingIDs) == 1 {
		if l, ok := links.named[d.ListingIDs[0]]; ok {
			u := r.BaseURL + "/p/" + url.PathEscape(l.Slug) + query
			return &u
		}
	}
	if slug := links.seller.account.Slug; slug != nil {
		u := r.BaseURL + "/s/" + url.PathEscape(*slug) + query
		return &u
	}
	return nil
}

// discountReadiness (CONTRACT §19): usable when the code is active and one
// of its listings is sellable (listing readiness: published, the account
// operational). Its actions are what the status asks for (discountRows),
// then, while no listing sells, the required actions of its listings (the
// account's blocking actions once, and each listing's own), or, with no
// live listing to sell, the account's required actions and the way to
// publish or create one.
func discountReadiness(d *db.Discount, status string, now time.Time, links *discountLinks) *model.DiscountReadiness {
	var start time.Time
	if d.StartsAt != nil {
		start = *d.StartsAt
	}
	f := &facts{accountFacts: links.seller.facts, Discount: &discountFacts{ID: d.ID, Status: status, StartsAt: start,
		RedemptionsCount: d.RedemptionsCount, ExampleExpiry: now.Add(exampleExtension).Truncate(time.Second)}}
	actions := evaluate(scopeDiscount, f)
	ls := links.listingsOf(d)
	sellable := false
	for _, l := range ls {
		if sellable = listingReadiness(l, links.seller).Sellable; sellable {
			break
		}
	}
	if !sellable {
		seen := map[string]bool{}
		add := func(as []*model.Action) {
			for _, a := range as {
				key := string(a.Code)
				if a.Resolve != nil && a.Resolve.Endpoint != nil {
					key += " " + *a.Resolve.Endpoint
				}
				if !seen[key] {
					seen[key] = true
					actions = append(actions, a)
				}
			}
		}
		if len(ls) == 0 {
			add(requiredOnly(links.seller.accountActions))
			for _, a := range links.seller.accountActions {
				if a.Code == ActPublishListing {
					add([]*model.Action{a})
				}
			}
		}
		for _, l := range ls {
			add(requiredOnly(listingActions(l, links.seller)))
		}
	}
	return &model.DiscountReadiness{Usable: status == pricing.DiscountActive && sellable, Actions: nonNil(actions),
		Next: firstCode(actions), Refresh: refreshOf("/v1/discounts/{id}", "discount", map[string]string{"id": d.ID}, "DiscountReadiness")}
}

// The checkout's side (checkout, in checkouts.go, calls these): find a
// code for a purchase, then reserve a redemption in the transaction that
// creates the order, confirm it in the one that pays it (markPaid), release
// it in the one that cancels it or records its failure (endPending).

// lookupDiscountForCheckout finds the account's live discount whose code
// is code (without regard to case) and checks that it applies to a
// purchase of listingID at subtotal (the price before the discount; nil
// while a pay-what-you-want amount is not named: minimum_amount is then
// not checked) by email ("" while unknown: the per-customer limit is then
// not checked here, and reserving skips it too), in one statement. Errors: validation_error at discount_code with the
// buyer's reason: not found, disabled, not yet valid, expired, used up
// (reserved and redeemed), not for this listing, below its minimum, your
// limit reached (pricing.DiscountTerms.Applies).
func (r *Resolver) lookupDiscountForCheckout(ctx context.Context, accountID, code, listingID string, subtotal *int64, email string) (*db.Discount, error) {
	if !pricing.ValidCode(code) {
		return nil, pricing.ErrCodeNotFound()
	}
	d := new(db.Discount)
	var (
		uses     int64
		currency *string
	)
	err := r.DB.Pool.QueryRow(ctx, `SELECT `+discountColumns+`, a.currency,
			CASE WHEN $3 = '' THEN -1 ELSE (SELECT count(*) FROM discount_redemptions x
				WHERE x.discount_id = d.id AND x.email_lower = $3 AND x.state <> 'released') END
		FROM discounts d JOIN accounts a ON a.id = d.account_id
		WHERE d.account_id = $1 AND lower(d.code) = $2 AND d.deleted_at IS NULL`,
		accountID, pricing.CodeKey(code), strings.ToLower(strings.TrimSpace(email))).
		Scan(append(discountDest(d), &currency, &uses)...)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, pricing.ErrCodeNotFound()
	}
	if err != nil {
		return nil, fmt.Errorf("look up discount code: %w", err)
	}
	if err := termsOf(d).Applies(pricing.Purchase{ListingID: listingID, Subtotal: deref64(subtotal, 0), SubtotalUnknown: subtotal == nil,
		Currency: deref(currency, ""), CustomerUses: uses}, r.Now()); err != nil {
		return nil, err
	}
	return d, nil
}

// discountColumns are a discounts row (d) in the order of discountDest.
const discountColumns = `d.id, d.account_id, d.name, d.code, d.type, d.percent_off, d.amount_off, d.listing_ids,
	d.starts_at, d.expires_at, d.max_redemptions, d.max_redemptions_per_customer, d.minimum_amount,
	d.redemptions_count, d.reserved_count, d.disabled, d.metadata, d.created_at, d.updated_at, d.deleted_at`

func discountDest(d *db.Discount) []any {
	return []any{&d.ID, &d.AccountID, &d.Name, &d.Code, &d.Type, &d.PercentOff, &d.AmountOff, &d.ListingIDs,
		&d.StartsAt, &d.ExpiresAt, &d.MaxRedemptions, &d.MaxRedemptionsPerCustomer, &d.MinimumAmount,
		&d.RedemptionsCount, &d.ReservedCount, &d.Disabled, &d.Metadata, &d.CreatedAt, &d.UpdatedAt, &d.DeletedAt}
}

// lockDiscountRow takes the discount's row lock for the rest of tx. The
// statements that follow get a snapshot taken after every earlier holder
// committed, so they count the redemptions those reserved: the
// per-customer limit holds under concurrent checkouts (a count inside the
// conditional update alone would read the snapshot taken before it waited).
func lockDiscountRow(ctx context.Context, tx bun.IDB, discountID string) error {
	if _, err := tx.ExecContext(ctx, `SELECT 1 FROM discounts WHERE id = ? FOR NO KEY UPDATE`, discountID); err != nil {
		return fmt.Errorf("lock discount: %w", err)
	}
	return nil
}

// reserveDiscount reserves a redemption of d for an order of email, in tx
// (the order's transaction): after the row lock, ONE conditional update
// takes a reservation only while reserved plus redeemed stay below
// max_redemptions and the buyer's reserved and redeemed redemptions below
// max_redemptions_per_customer (skipped while email is ""), and the
// redemption row is inserted in the same statement; the order's row must
// exist when tx commits. Concurrent reservations never exceed either
// limit. Errors: validation_error at discount_code: used up, your limit
// reached, disabled, or not found (deleted since it was looked up).
func reserveDiscount(ctx context.Context, tx bun.IDB, d *db.Discount, orderID, email string) error {
	if err := lockDiscountRow(ctx, tx, d.ID); err != nil {
		return err
	}
	emailLower := strings.ToLower(strings.TrimSpace(email))
	var got string
	err := tx.QueryRowContext(ctx, `WITH taken AS (
			UPDATE discounts SET reserved_count = reserved_count + 1
			WHERE id = ? AND deleted_at IS NULL AND NOT disabled
			  AND (max_redemptions IS NULL OR redemptions_count + reserved_count < max_redemptions)
			  AND (max_redemptions_per_customer IS NULL OR ? = '' OR max_redemptions_per_customer >
			       (SELECT count(*) FROM discount_redemptions x
			        WHERE x.discount_id = discounts.id AND x.email_lower = ? AND x.state <> 'released'))
			RETURNING id, account_id)
		INSERT INTO discount_redemptions (discount_id, order_id, account_id, email_lower)
		SELECT id, ?, account_id, ? FROM taken
		RETURNING discount_id`, d.ID, emailLower, emailLower, orderID, emailLower).Scan(&got)
	if err == nil {
		return nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("reserve discount: %w", err)
	}
	// Refused: say why, from the row as it is now.
	var deleted, disabled, usedUp bool
	if err := tx.QueryRowContext(ctx, `SELECT deleted_at IS NOT NULL, disabled,
			max_redemptions IS NOT NULL AND redemptions_count + reserved_count >= max_redemptions
		FROM discounts WHERE id = ?`, d.ID).Scan(&deleted, &disabled, &usedUp); err != nil {
		return fmt.Errorf("reserve discount: %w", db.NotFound(err))
	}
	switch {
	case deleted:
		return pricing.ErrCodeNotFound()
	case disabled:
		return pricing.ErrCodeDisabled()
	case usedUp:
		return pricing.ErrCodeUsedUp()
	}
	return pricing.ErrCodeLimitReached()
}

// confirmDiscount confirms the redemption of a paid order, in tx (the
// payment's transaction): reserved → redeemed, the discount's
// reserved_count down and redemptions_count up, in one statement. A
// redemption reserved without an email (a checkout API call without
// buyer_email) takes email, the one the payment brought, so that it counts
// against that buyer from then on. An order without a redemption, or one
// already redeemed, changes nothing. A
// redemption released when its order failed, whose order was paid after
// all (a buyer may pay after a declined card), is taken again when the
// limit still allows it; when the code has been used up since, it stays
// released and uncounted (the order keeps the discount it was charged
// with, and max_redemptions is never exceeded).
func confirmDiscount(ctx context.Context, tx bun.IDB, orderID, email string) error {
	res, err := tx.ExecContext(ctx, `WITH r AS (
			UPDATE discount_redemptions SET state = 'redeemed', updated_at = now(),
				email_lower = CASE WHEN email_lower = '' THEN ? ELSE email_lower END
			WHERE order_id = ? AND state = 'reserved' RETURNING discount_id)
		UPDATE discounts SET reserved_count = reserved_count - 1, redemptions_count = redemptions_count + 1
		FROM r WHERE discounts.id = r.discount_id`, strings.ToLower(strings.TrimSpace(email)), orderID)
	if err != nil {
		return fmt.Errorf("confirm discount: %w", err)
	}
	if n, _ := res.RowsAffected(); n > 0 {
		return nil
	}
	var discountID, state string
	err = tx.QueryRowContext(ctx, `SELECT discount_id, state FROM discount_redemptions WHERE order_id = ?`, orderID).Scan(&discountID, &state)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && state != db.RedemptionReleased) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("confirm discount: %w", err)
	}
	if err := lockDiscountRow(ctx, tx, discountID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `WITH taken AS (
			UPDATE discounts SET redemptions_count = redemptions_count + 1
			WHERE id = ? AND (max_redemptions IS NULL OR redemptions_count + reserved_count < max_redemptions)
			RETURNING id)
		UPDATE discount_redemptions SET state = 'redeemed', updated_at = now(),
			email_lower = CASE WHEN email_lower = '' THEN ? ELSE email_lower END
		FROM taken WHERE discount_redemptions.order_id = ? AND discount_redemptions.discount_id = taken.id`,
		discountID, strings.ToLower(strings.TrimSpace(email)), orderID); err != nil {
		return fmt.Errorf("confirm discount: %w", err)
	}
	return nil
}

// releaseDiscount releases the reservation of an order that was canceled
// or failed, in tx: reserved → released and the discount's reserved_count
// down, in one statement, so an abandoned checkout never uses up a code.
// An order without a reservation changes nothing.
func releaseDiscount(ctx context.Context, tx bun.IDB, orderID string) error {
	if _, err := tx.ExecContext(ctx, `WITH r AS (
			UPDATE discount_redemptions SET state = 'released', updated_at = now()
			WHERE order_id = ? AND state = 'reserved' RETURNING discount_id)
		UPDATE discounts SET reserved_count = reserved_count - 1
		FROM r WHERE discounts.id = r.discount_id`, orderID); err != nil {
		return fmt.Errorf("release discount: %w", err)
	}
	return nil
}
