package resolvers

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/url"
	"strings"

	"github.com/gosimple/slug"

	"commerce/db"
	"commerce/graph/model"
	"commerce/membership"
	"commerce/pricing"
	"commerce/problem"
)

const maxSlugLen = 60

// slugify turns s into a slug: lowercase letters and digits with single
// dashes, at most 60 characters. ok is false when nothing is left.
func slugify(s string) (string, bool) {
	out := slug.Make(s)
	if len(out) > maxSlugLen {
		out = strings.TrimRight(out[:maxSlugLen], "-")
	}
	return out, out != ""
}

// randomSuffix is "-" and 5 lowercase letters or digits.
func randomSuffix() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	var b [5]byte
	_, _ = rand.Read(b[:])
	out := []byte{'-'}
	for _, c := range b {
		out = append(out, alphabet[int(c)%len(alphabet)])
	}
	return string(out)
}

// slugLockSpace is the namespace of the advisory locks claimSlug takes
// (two-key advisory locks; the event log's commit lock is 7421338).
const slugLockSpace = 7421339

// claimSlug picks a unique slug for a row of table (accounts: store slugs;
// listings: product page slugs): the one asked for (taken by another row:
// validation_error param slug), or one derived from name (fallback when
// nothing is left of it), with a random suffix when taken. Before it looks
// at a candidate it takes a transaction lock on it, held until tx ends, so
// two transactions claiming the same slug at once take turns: the second
// sees the first's row once it committed and moves on to another candidate
// (TestConcurrentSlugClaims), instead of failing on the unique index.
func claimSlug(ctx context.Context, tx db.Tx, table, id, want, name, fallback string) (string, error) {
	taken := func(s string) (bool, error) {
		if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(?, hashtext(? || ':' || ?))", slugLockSpace, table, s); err != nil {
			return false, fmt.Errorf("lock slug: %w", err)
		}
		return tx.NewSelect().Table(table).Where("slug = ?", s).Where("id <> ?", id).Exists(ctx)
	}
	if want != "" {
		t, err := taken(want)
		if err != nil {
			return "", err
		}
		if t {
			return "", problem.Validation("slug", fmt.Sprintf("The slug %q is taken; choose another.", want))
		}
		return want, nil
	}
	base, ok := slugify(name)
	if !ok {
		base = fallback
	}
	candidate := base
	for range 5 {
		t, err := taken(candidate)
		if err != nil {
			return "", err
		}
		if !t {
			return candidate, nil
		}
		candidate = strings.TrimRight(base[:min(len(base), maxSlugLen-6)], "-") + randomSuffix()
	}
	return "", fmt.Errorf("no free slug for %q after 5 tries", base)
}

// UpdateStore changes the given store fields. Errors: authentication_error,
// permission_denied, validation_error (display_name, bio, avatar, slug), not_found.
func (r *Resolver) UpdateStore(ctx context.Context, in model.UpdateStoreInput) (*model.Store, error) {
	p, err := writer(ctx)
	if err != nil {
		return nil, err
	}
	var f problem.Fields
	bio, bioSet := in.Bio.ValueOK()
	avatar, avatarSet := in.Avatar.ValueOK()
	change := profileOf(&f, in.DisplayName, false, bio, bioSet, avatar, avatarSet)
	var newSlug string
	if in.Slug != nil {
		newSlug = slugOf(&f, *in.Slug)
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		q := tx.NewUpdate().Table("accounts").Set("updated_at = now()").
			Where("id = ?", p.AccountID).Where("deleted_at IS NULL")
		q, err := r.applyProfile(ctx, tx, p.AccountID, change, q)
		if err != nil {
			return err
		}
		if in.Slug != nil {
			s, err := claimSlug(ctx, tx, "accounts", p.AccountID, newSlug, "", "store")
			if err != nil {
				return err
			}
			q = q.Set("slug = ?", s)
		}
		res, err := q.Exec(ctx)
		if db.IsUniqueViolation(err, "accounts_slug_key") {
			return problem.Validation("slug", fmt.Sprintf("The slug %q is taken; choose another.", newSlug))
		}
		if err != nil {
			return fmt.Errorf("update store: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return problem.NotFoundf("The account no longer exists.")
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return r.Store(ctx)
}

// storePageSize is how many listings a store page shows (CONTRACT §10).
const storePageSize = 24

// PublicStore is a store page's content, found by slug.
type PublicStore struct {
	DisplayName string
	Bio         string
	Slug        string
	AvatarURL   string
	// URL is the store page's canonical address (its first page).
	URL string
	// Listings are the published listings, newest first, one page.
	Listings []StoreListing
	// NextURL is the next page's address ("" on the last page); PrevURL
	// the first page's when this is a later one.
	NextURL  string
	FirstURL string
	// Code is the discount code the page was opened with (?code=, a
	// discount's share_url), carried to its product pages; "" for none.
	Code string
}

// CarryCode makes the store page's links carry a discount code (?code=,
// a code for several listings shares the store page): each product page
// then opens with the code applied (CONTRACT §19). A code that cannot be
// one (not 3 to 40 letters, digits, _ or -) is dropped.
func (ps *PublicStore) CarryCode(code string) {
	if !pricing.ValidCode(code) {
		return
	}
	ps.Code = code
	q := "code=" + url.QueryEscape(code)
	for i := range ps.Listings {
		ps.Listings[i].URL += "?" + q
	}
	if ps.NextURL != "" {
		ps.NextURL += "&" + q
	}
	if ps.FirstURL != "" {
		ps.FirstURL += "?" + q
	}
}

// StoreListing is one listing on a store page.
type StoreListing struct {
	Title string
	// PriceText is the price ("$29.00"), per period for a membership
	// ("$9 a month"); Trial a membership's free trial ("7-day free
	// trial"), "" without one.
	PriceText string
	Trial     string
	CoverURL  string
	// CoverSrcset offers the cover's sizes; "" without a cover.
	CoverSrcset string
	URL         string
	// Reviews is the listing's review count and average (no items).
	Reviews *model.Reviews
}

// StoreBySlug returns the public store of a live account with one page of
// its published listings (drafts, paused and deleted listings are not
// shown), newest first, 24 a page; after is the last listing id of the
// previous page ("" for the first). Errors: not_found (no such store, or an
// after that is not a listing id).
func (r *Resolver) StoreBySlug(ctx context.Context, slugValue, after string) (*PublicStore, error) {
	var ps PublicStore
	var id string
	var name, bio, avatar, cur *string
	var billing string
	err := r.DB.NewSelect().Table("accounts").Column("id", "display_name", "bio", "slug", "avatar_key", "currency", "billing_status").
		Where("slug = ?", strings.ToLower(slugValue)).Where("deleted_at IS NULL").
		Scan(ctx, &id, &name, &bio, &ps.Slug, &avatar, &cur, &billing)
	if err := db.NotFound(err); err != nil {
		if err == db.ErrNotFound {
			return nil, problem.NotFoundf("No store %q.", slugValue)
		}
		return nil, err
	}
	if after != "" && !db.ValidID("lst", after) {
		return nil, problem.NotFoundf("No such page of store %q.", slugValue)
	}
	ps.DisplayName, ps.Bio = deref(name, ""), deref(bio, "")
	ps.URL = r.BaseURL + "/s/" + ps.Slug
	if avatar != nil {
		ps.AvatarURL = r.MediaURL(*avatar)
	}
	var rows []db.Listing
	if billing == "unpaid" {
		// Its product pages answer 410 until billing is updated (CONTRACT
		// §16): the store links to none of them meanwhile.
		ps.Listings = []StoreListing{}
		return &ps, nil
	}
	q := r.DB.NewSelect().Model(&rows).Where("account_id = ?", id).Where("status = ?", db.ListingPublished).
		Where("deleted_at IS NULL").OrderExpr("id DESC").Limit(storePageSize + 1)
	if after != "" {
		q = q.Where("id < ?", after)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, fmt.Errorf("store listings: %w", err)
	}
	base := r.BaseURL + "/s/" + ps.Slug
	if len(rows) > storePageSize {
		rows = rows[:storePageSize]
		ps.NextURL = base + "?after=" + rows[len(rows)-1].ID
	}
	if after != "" {
		ps.FirstURL = base
	}
	ps.Listings = make([]StoreListing, len(rows))
	for i, l := range rows {
		ps.Listings[i] = StoreListing{Title: l.Title, PriceText: listingPriceText(&l, deref(cur, "")),
			URL: r.BaseURL + "/p/" + l.Slug, Trial: membership.Offer{TrialDays: l.TrialDays}.TrialText()}
		if l.CoverKey != nil {
			ps.Listings[i].CoverURL = r.MediaURL(*l.CoverKey)
			ps.Listings[i].CoverSrcset = r.CoverSrcset(*l.CoverKey)
		}
	}
	ids := make([]string, len(rows))
	for i, l := range rows {
		ids[i] = l.ID
	}
	rs, err := r.reviewStats(ctx, ids)
	if err != nil {
		return nil, err
	}
	for i := range ps.Listings {
		ps.Listings[i].Reviews = rs[i]
	}
	return &ps, nil
}
