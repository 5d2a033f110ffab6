package resolvers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun"

	"commerce/db"
	"commerce/problem"
	"commerce/resolvers"
	"commerce/testkit"
)

// The checkout's helpers of discount codes (CONTRACT §19), on real rows:
// reservations are taken by one conditional update and never exceed either
// limit, confirmed when the order is paid and released when it is canceled
// or fails; the seller's resource follows (frozen fields, exhausted).

type discountFixture struct {
	t         *testing.T
	env       *testkit.Env
	acc       testkit.Account
	listingID string
}

func newDiscountFixture(t *testing.T) *discountFixture {
	t.Helper()
	env := testkit.New(t)
	acc := env.NewAccount()
	r := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Guide " + testkit.Unique(), "price": 2900})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	return &discountFixture{t: t, env: env, acc: acc, listingID: r.JSON(t)["id"].(string)}
}

// create makes a discount through the API and returns its row.
func (f *discountFixture) create(body map[string]any) *db.Discount {
	f.t.Helper()
	r := f.env.Post("/v1/discounts", f.acc.Key, body)
	require.Equal(f.t, http.StatusCreated, r.Status, "%s", r.Body)
	return f.row(r.JSON(f.t)["id"].(string))
}

func (f *discountFixture) row(id string) *db.Discount {
	f.t.Helper()
	d := new(db.Discount)
	require.NoError(f.t, f.env.Server.DB.NewSelect().Model(d).Where("id = ?", id).Scan(context.Background()))
	return d
}

// insertOrder writes a pending order of the fixture's listing in idb.
func (f *discountFixture) insertOrder(ctx context.Context, idb bun.IDB, email string) (string, error) {
	o := &db.Order{ID: db.NewID("ord"), AccountID: f.acc.ID, ListingID: f.listingID, ListingSlug: "guide", BuyerEmail: email,
		Subtotal: 2900, Amount: 2900, Currency: "USD", PlatformFee: 435, NetAmount: 2465, ContentType: "webhook",
		Status: db.OrderPending, PaymentStatus: db.PaymentUnpaid, CheckoutData: map[string]any{},
		ListingSnapshot: json.RawMessage(`{}`), SellerSnapshot: json.RawMessage(`{}`), Deliverables: []db.OrderDeliverable{},
		ViewToken: "v" + testkit.Unique()}
	_, err := idb.NewInsert().Model(o).Exec(ctx)
	return o.ID, err
}

// checkout creates an order of email and reserves a redemption of d for
// it in one transaction, as a checkout does; a refusal rolls both back.
func (f *discountFixture) checkout(d *db.Discount, email string) (string, error) {
	var id string
	err := f.env.Server.DB.InTx(context.Background(), func(ctx context.Context, tx db.Tx) error {
		var err error
		if id, err = f.insertOrder(ctx, tx, email); err != nil {
			return err
		}
		return resolvers.ReserveDiscount(ctx, tx, d, id, email)
	})
	return id, err
}

func (f *discountFixture) confirm(orderID string) {
	f.t.Helper()
	require.NoError(f.t, f.env.Server.DB.InTx(context.Background(), func(ctx context.Context, tx db.Tx) error {
		return resolvers.ConfirmDiscount(ctx, tx, orderID, "")
	}))
}

func (f *discountFixture) release(orderID string) {
	f.t.Helper()
	require.NoError(f.t, f.env.Server.DB.InTx(context.Background(), func(ctx context.Context, tx db.Tx) error {
		return resolvers.ReleaseDiscount(ctx, tx, orderID)
	}))
}

// counts are the discount's redemptions_count and reserved_count.
func (f *discountFixture) counts(id string) [2]int64 {
	f.t.Helper()
	d := f.row(id)
	return [2]int64{d.RedemptionsCount, d.ReservedCount}
}

func (f *discountFixture) state(orderID string) string {
	f.t.Helper()
	var s string
	require.NoError(f.t, f.env.Server.DB.NewSelect().Table("discount_redemptions").Column("state").
		Where("order_id = ?", orderID).Scan(context.Background(), &s))
	return s
}

// requireRefusal checks a buyer's refusal at discount_code.
func requireRefusal(t *testing.T, err error, detail string) {
	t.Helper()
	p := problem.From(err)
	require.NotNil(t, p, "want a refusal, got %v", err)
	require.Equal(t, problem.ValidationError, p.Code)
	require.Equal(t, "discount_code", p.Param)
	require.Equal(t, detail, p.Detail)
}

const (
	usedUp       = "This code has been used up."
	limitReached = "You have already used this code as many times as it allows."
)

func TestDiscountReserveConfirmRelease(t *testing.T) {
	t.Parallel()
	f := newDiscountFixture(t)
	d := f.create(map[string]any{"code": "LAUNCH", "type": "percentage", "percent_off": 20, "max_redemptions": 3,
		"max_redemptions_per_customer": 1})

	ann1, err := f.checkout(d, "ann@example.com")
	require.NoError(t, err)
	require.Equal(t, [2]int64{0, 1}, f.counts(d.ID))
	require.Equal(t, db.RedemptionReserved, f.state(ann1))
	// The same buyer, whatever the case of her email: her limit.
	_, err = f.checkout(d, "ANN@Example.com")
	requireRefusal(t, err, limitReached)
	require.Equal(t, [2]int64{0, 1}, f.counts(d.ID), "a refusal takes nothing")

	// Her first checkout is abandoned: released, and she may try again.
	f.release(ann1)
	require.Equal(t, db.RedemptionReleased, f.state(ann1))
	require.Equal(t, [2]int64{0, 0}, f.counts(d.ID))
	f.release(ann1) // again: nothing changes
	require.Equal(t, [2]int64{0, 0}, f.counts(d.ID))
	ann2, err := f.checkout(d, "Ann@example.com")
	require.NoError(t, err)

	// Paid: reserved → redeemed, the counters move together; once.
	f.confirm(ann2)
	require.Equal(t, db.RedemptionRedeemed, f.state(ann2))
	require.Equal(t, [2]int64{1, 0}, f.counts(d.ID))
	f.confirm(ann2)
	f.release(ann2) // a paid order's redemption is not released
	require.Equal(t, [2]int64{1, 0}, f.counts(d.ID))
	require.Equal(t, db.RedemptionRedeemed, f.state(ann2))
	_, err = f.checkout(d, "ann@example.com")
	requireRefusal(t, err, limitReached)

	// Reserved and redeemed count against max_redemptions together.
	_, err = f.checkout(d, "bob@example.com")
	require.NoError(t, err)
	cat, err := f.checkout(d, "cat@example.com")
	require.NoError(t, err)
	require.Equal(t, [2]int64{1, 2}, f.counts(d.ID))
	_, err = f.checkout(d, "dan@example.com")
	requireRefusal(t, err, usedUp)
	f.release(cat)
	dan, err := f.checkout(d, "dan@example.com")
	require.NoError(t, err, "a released reservation frees its place")

	// Without an email the per-customer limit is not counted.
	open := f.create(map[string]any{"code": "OPEN", "type": "fixed", "amount_off": 500, "max_redemptions_per_customer": 1})
	_, err = f.checkout(open, "")
	require.NoError(t, err)
	_, err = f.checkout(open, "")
	require.NoError(t, err)

	// An order without a redemption: confirm and release change nothing.
	plain, err := f.insertOrder(context.Background(), f.env.Server.DB, "eve@example.com")
	require.NoError(t, err)
	f.confirm(plain)
	f.release(plain)

	// A disabled or deleted code cannot be reserved any more, whatever a
	// lookup said a moment before.
	r := f.env.Do(testkit.Request{Method: "PUT", Path: "/v1/discounts/" + open.ID, Key: f.acc.Key, Body: map[string]any{"status": "disabled"}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	_, err = f.checkout(open, "")
	requireRefusal(t, err, "This code has been disabled.")
	r = f.env.Do(testkit.Request{Method: "DELETE", Path: "/v1/discounts/" + open.ID, Key: f.acc.Key})
	require.Equal(t, http.StatusNoContent, r.Status)
	_, err = f.checkout(open, "")
	requireRefusal(t, err, "This code does not exist; check its spelling.")

	// The deleted code's reservations are still confirmed.
	f.confirm(dan)
	require.Equal(t, [2]int64{2, 1}, f.counts(d.ID))
}

// 50 checkouts at once against max_redemptions 10: exactly 10 reserve,
// the others are told the code is used up; and one buyer's 20 checkouts at
// once against a per-customer limit of 1: exactly one.
func TestDiscountReserveConcurrently(t *testing.T) {
	t.Parallel()
	f := newDiscountFixture(t)
	d := f.create(map[string]any{"code": "RUSH", "type": "percentage", "percent_off": 10, "max_redemptions": 10})
	run := func(d *db.Discount, n int, email func(i int) string) (int, []error) {
		var (
			wg      sync.WaitGroup
			mu      sync.Mutex
			ok      int
			refused []error
		)
		start := make(chan struct{})
		for i := range n {
			wg.Go(func() {
				<-start
				_, err := f.checkout(d, email(i))
				mu.Lock()
				defer mu.Unlock()
				if err == nil {
					ok++
				} else {
					refused = append(refused, err)
				}
			})
		}
		close(start)
		wg.Wait()
		return ok, refused
	}
	ok, refused := run(d, 50, func(i int) string { return testkit.Unique() + "@example.com" })
	require.Equal(t, 10, ok)
	require.Len(t, refused, 40)
	for _, err := range refused {
		requireRefusal(t, err, usedUp)
	}
	require.Equal(t, [2]int64{0, 10}, f.counts(d.ID))
	var rows int
	require.NoError(t, f.env.Server.DB.NewSelect().Table("discount_redemptions").ColumnExpr("count(*)").
		Where("discount_id = ?", d.ID).Scan(context.Background(), &rows))
	require.Equal(t, 10, rows)

	once := f.create(map[string]any{"code": "ONCE", "type": "fixed", "amount_off": 100, "max_redemptions_per_customer": 1})
	ok, refused = run(once, 20, func(int) string { return "same@example.com" })
	require.Equal(t, 1, ok)
	for _, err := range refused {
		requireRefusal(t, err, limitReached)
	}
	require.Equal(t, [2]int64{0, 1}, f.counts(once.ID))
}

// A failed order's redemption is released; if that order is paid after all
// (a buyer may pay after a declined card), its redemption is taken again
// while the limit allows, and otherwise stays released and uncounted, so
// max_redemptions is never exceeded.
func TestDiscountConfirmAfterRelease(t *testing.T) {
	t.Parallel()
	f := newDiscountFixture(t)
	d := f.create(map[string]any{"code": "RETRY", "type": "percentage", "percent_off": 10, "max_redemptions": 1})
	failed, err := f.checkout(d, "ann@example.com")
	require.NoError(t, err)
	f.release(failed)
	f.confirm(failed)
	require.Equal(t, db.RedemptionRedeemed, f.state(failed))
	require.Equal(t, [2]int64{1, 0}, f.counts(d.ID))

	d2 := f.create(map[string]any{"code": "RETRY2", "type": "percentage", "percent_off": 10, "max_redemptions": 1})
	failed, err = f.checkout(d2, "ann@example.com")
	require.NoError(t, err)
	f.release(failed)
	other, err := f.checkout(d2, "bob@example.com")
	require.NoError(t, err)
	f.confirm(other)
	f.confirm(failed)
	require.Equal(t, db.RedemptionReleased, f.state(failed))
	require.Equal(t, [2]int64{1, 0}, f.counts(d2.ID))
}

// The checkout's lookup: the code without regard to case, and each of the
// buyer's refusals at discount_code.
func TestLookupDiscountForCheckout(t *testing.T) {
	t.Parallel()
	f := newDiscountFixture(t)
	ctx := context.Background()
	_, err := f.env.Server.DB.NewUpdate().Table("accounts").Set("currency = 'usd'").Where("id = ?", f.acc.ID).Exec(ctx)
	require.NoError(t, err)
	r := f.env.Server.Resolver
	lookup := func(code string, subtotal int64, email string) (*db.Discount, error) {
		return resolvers.LookupDiscountForCheckout(r, ctx, f.acc.ID, code, f.listingID, &subtotal, email)
	}

	d := f.create(map[string]any{"code": "Summer-25", "type": "percentage", "percent_off": 25, "minimum_amount": 2000,
		"max_redemptions_per_customer": 1, "listing_ids": []string{f.listingID}})
	for _, code := range []string{"Summer-25", "summer-25", "SUMMER-25"} {
		got, err := lookup(code, 2900, "ann@example.com")
		require.NoError(t, err, code)
		require.Equal(t, d.ID, got.ID)
		require.EqualValues(t, 25, *got.PercentOff)
	}
	_, err = lookup("winter", 2900, "")
	requireRefusal(t, err, "This code does not exist; check its spelling.")
	_, err = lookup("no spaces", 2900, "")
	requireRefusal(t, err, "This code does not exist; check its spelling.")
	_, err = lookup("summer-25", 1999, "")
	requireRefusal(t, err, "This code needs an order of at least $20.00.")
	_, err = resolvers.LookupDiscountForCheckout(r, ctx, f.acc.ID, "summer-25", f.listingID, nil, "")
	require.NoError(t, err, "no amount named yet: the minimum waits for it")
	order, err := f.checkout(d, "ann@example.com")
	require.NoError(t, err)
	_, err = lookup("summer-25", 2900, "Ann@Example.com")
	requireRefusal(t, err, limitReached)
	_, err = lookup("summer-25", 2900, "bob@example.com")
	require.NoError(t, err)
	f.release(order)
	_, err = lookup("summer-25", 2900, "ann@example.com")
	require.NoError(t, err, "a released reservation does not count")

	other := f.env.Post("/v1/listings", f.acc.Key, map[string]any{"title": "Other", "price": 900}).JSON(t)["id"].(string)
	f.create(map[string]any{"code": "OTHER", "type": "fixed", "amount_off": 100, "listing_ids": []string{other}})
	_, err = lookup("other", 2900, "")
	requireRefusal(t, err, "This code does not apply to this product.")

	starts := time.Now().Add(time.Hour).UTC().Truncate(time.Minute)
	f.create(map[string]any{"code": "LATER", "type": "fixed", "amount_off": 100, "starts_at": starts})
	_, err = lookup("later", 2900, "")
	requireRefusal(t, err, "This code is not valid yet: it starts on "+starts.Format("2006-01-02 at 15:04")+" UTC.")

	soon := f.create(map[string]any{"code": "SOON", "type": "fixed", "amount_off": 100,
		"expires_at": time.Now().Add(1500 * time.Millisecond).UTC().Format(time.RFC3339Nano)})
	_, err = lookup("soon", 2900, "")
	require.NoError(t, err)
	time.Sleep(time.Until(*soon.ExpiresAt) + 50*time.Millisecond)
	_, err = lookup("soon", 2900, "")
	requireRefusal(t, err, "This code has expired.")

	one := f.create(map[string]any{"code": "ONE", "type": "fixed", "amount_off": 100, "max_redemptions": 1})
	_, err = f.checkout(one, "")
	require.NoError(t, err)
	_, err = lookup("one", 2900, "")
	requireRefusal(t, err, usedUp)

	off := f.create(map[string]any{"code": "OFF", "type": "fixed", "amount_off": 100})
	require.Equal(t, http.StatusOK, f.env.Do(testkit.Request{Method: "PUT", Path: "/v1/discounts/" + off.ID, Key: f.acc.Key,
		Body: map[string]any{"status": "disabled"}}).Status)
	_, err = lookup("off", 2900, "")
	requireRefusal(t, err, "This code has been disabled.")
	require.Equal(t, http.StatusNoContent, f.env.Do(testkit.Request{Method: "DELETE", Path: "/v1/discounts/" + off.ID, Key: f.acc.Key}).Status)
	_, err = lookup("off", 2900, "")
	requireRefusal(t, err, "This code does not exist; check its spelling.")

	// Another account's code is not found.
	stranger := f.env.NewAccount()
	_, err = resolvers.LookupDiscountForCheckout(r, ctx, stranger.ID, "summer-25", f.listingID, nil, "")
	requireRefusal(t, err, "This code does not exist; check its spelling.")
}

// code, type, percent_off and amount_off change freely until a paid order
// used the code (confirmDiscount on a real order), then 409 conflict; the
// other fields still change; max_redemptions never goes below what is
// redeemed and reserved. An exhausted code's readiness raises its limit.
func TestDiscountFrozenAfterFirstRedemption(t *testing.T) {
	t.Parallel()
	f := newDiscountFixture(t)
	put := func(id string, body map[string]any) *testkit.Response {
		return f.env.Do(testkit.Request{Method: "PUT", Path: "/v1/discounts/" + id, Key: f.acc.Key, Body: body})
	}
	d := f.create(map[string]any{"code": "EARLY", "type": "percentage", "percent_off": 10, "max_redemptions": 2})
	r := put(d.ID, map[string]any{"code": "EARLY-BIRD", "percent_off": 15})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	r = put(d.ID, map[string]any{"type": "fixed", "amount_off": 300})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	got := r.JSON(t)
	require.Equal(t, "fixed", got["type"])
	require.Nil(t, got["percent_off"], "the other type's value goes")
	require.EqualValues(t, 300, got["amount_off"])

	paid, err := f.checkout(f.row(d.ID), "ann@example.com")
	require.NoError(t, err)
	held, err := f.checkout(f.row(d.ID), "bob@example.com")
	require.NoError(t, err)
	// Reserved is not redeemed: still free to change.
	require.Equal(t, http.StatusOK, put(d.ID, map[string]any{"amount_off": 350}).Status)
	f.confirm(paid)

	for _, body := range []map[string]any{
		{"code": "OTHER"}, {"type": "percentage", "percent_off": 10}, {"amount_off": 400}, {"amount_off": nil, "type": "percentage"},
		{"name": "Renamed", "amount_off": 999},
	} {
		r := put(d.ID, body)
		require.Equal(t, http.StatusConflict, r.Status, "%v: %s", body, r.Body)
		p := r.JSON(t)
		require.Equal(t, "conflict", p["code"])
		require.EqualValues(t, 1, p["redemptions_count"])
	}
	// The same values are no change; the other fields change.
	r = put(d.ID, map[string]any{"code": "EARLY-BIRD", "type": "fixed", "amount_off": 350, "name": "Early birds",
		"max_redemptions_per_customer": 1, "metadata": map[string]any{"campaign": "spring"}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Equal(t, "Early birds", r.JSON(t)["name"])

	// max_redemptions: not below the redeemed one, nor below it plus the
	// reservation in flight.
	for _, m := range []int{0, 1} {
		r = put(d.ID, map[string]any{"max_redemptions": m})
		require.Equal(t, http.StatusUnprocessableEntity, r.Status, "%d: %s", m, r.Body)
		require.Equal(t, "max_redemptions", r.JSON(t)["param"])
	}
	f.confirm(held)
	r = f.env.Get("/v1/discounts/"+d.ID, f.acc.Key)
	require.Equal(t, http.StatusOK, r.Status)
	got = r.JSON(t)
	require.Equal(t, "exhausted", got["status"])
	require.EqualValues(t, 2, got["redemptions_count"])
	readiness := got["readiness"].(map[string]any)
	require.Equal(t, false, readiness["usable"])
	require.Equal(t, "raise_discount_limit", readiness["next"])
	action := readiness["actions"].([]any)[0].(map[string]any)
	require.Equal(t, "required", action["priority"])
	resolve := action["resolve"].(map[string]any)
	require.Equal(t, "PUT", resolve["method"])
	require.Equal(t, "/v1/discounts/"+d.ID, resolve["endpoint"])
	require.EqualValues(t, 102, resolve["params"].(map[string]any)["max_redemptions"])
	require.Empty(t, resolve["inputs"], "the example works as given")
	require.Equal(t, "update_discount", resolve["mcp"].(map[string]any)["tool"])
	// Following it as given: active again.
	r = put(d.ID, resolve["params"].(map[string]any))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Equal(t, "active", r.JSON(t)["status"])
	r = f.env.Get("/v1/discounts?status=exhausted", f.acc.Key)
	require.Empty(t, r.JSON(t)["data"])
}
