package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/testkit"
)

// Discount codes (CONTRACT §19): the seller's resource over REST and
// GraphQL. The checkout's helpers (reserve, confirm, release, lookup) are
// tested in resolvers; applying codes at checkout, on the product page and
// in the checkout API, in discount_checkout_test.go.

func draftListing(t *testing.T, env *testkit.Env, key, title string) map[string]any {
	t.Helper()
	r := env.Post("/v1/listings", key, map[string]any{"title": title + " " + testkit.Unique(), "price": 2900})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	return r.JSON(t)
}

func createDiscount(t *testing.T, env *testkit.Env, key string, body map[string]any) map[string]any {
	t.Helper()
	r := env.Post("/v1/discounts", key, body)
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	return r.JSON(t)
}

func putDiscount(env *testkit.Env, key, id string, body any) *testkit.Response {
	return env.Do(testkit.Request{Method: http.MethodPut, Path: "/v1/discounts/" + id, Key: key, Body: body})
}

func discountIDs(t *testing.T, r *testkit.Response) []string {
	t.Helper()
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var out []string
	for _, d := range r.JSON(t)["data"].([]any) {
		out = append(out, d.(map[string]any)["id"].(string))
	}
	return out
}

func TestDiscountCreateReadDelete(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	l := draftListing(t, env, acc.Key, "Guide")

	d := createDiscount(t, env, acc.Key, map[string]any{"name": "Summer sale", "code": "Summer-25", "type": "percentage",
		"percent_off": 25, "listing_ids": []string{l["id"].(string), l["id"].(string)}, "max_redemptions": 100,
		"max_redemptions_per_customer": 1, "minimum_amount": 1000, "metadata": map[string]any{"campaign": "summer"}})
	id := d["id"].(string)
	require.True(t, db.ValidID("dsc", id), id)
	require.Equal(t, "discount", d["object"])
	require.Equal(t, "Summer sale", d["name"])
	require.Equal(t, "Summer-25", d["code"], "as the seller wrote it")
	require.Equal(t, "percentage", d["type"])
	require.EqualValues(t, 25, d["percent_off"])
	require.Nil(t, d["amount_off"])
	require.Equal(t, []any{l["id"]}, d["listing_ids"], "duplicates dropped")
	require.Nil(t, d["starts_at"])
	require.Nil(t, d["expires_at"])
	require.EqualValues(t, 100, d["max_redemptions"])
	require.EqualValues(t, 1, d["max_redemptions_per_customer"])
	require.EqualValues(t, 1000, d["minimum_amount"])
	require.EqualValues(t, 0, d["redemptions_count"])
	require.Equal(t, "active", d["status"])
	require.Equal(t, env.URL+"/p/"+l["slug"].(string)+"?code=Summer-25", d["share_url"])
	require.Equal(t, map[string]any{"campaign": "summer"}, d["metadata"])
	require.NotEmpty(t, d["created_at"])
	readiness := d["readiness"].(map[string]any)
	require.Equal(t, false, readiness["usable"], "nothing sells yet")
	require.Equal(t, "/v1/discounts/"+id, readiness["refresh"].(map[string]any)["endpoint"])

	// Fixed, for every listing.
	f := createDiscount(t, env, acc.Key, map[string]any{"code": "TENOFF", "type": "fixed", "amount_off": 1000})
	require.Nil(t, f["percent_off"])
	require.EqualValues(t, 1000, f["amount_off"])
	require.Equal(t, []any{}, f["listing_ids"])
	require.Nil(t, f["name"])
	require.Equal(t, map[string]any{}, f["metadata"])

	got := env.Get("/v1/discounts/"+id, acc.Key)
	require.Equal(t, http.StatusOK, got.Status)
	require.Equal(t, d, got.JSON(t))
	require.Equal(t, []string{f["id"].(string), id}, discountIDs(t, env.Get("/v1/discounts", acc.Key)), "newest first")

	// Another account sees none of it.
	other := env.NewAccount()
	requireProblem(t, env, env.Get("/v1/discounts/"+id, other.Key), 404, "not_found")
	requireProblem(t, env, putDiscount(env, other.Key, id, map[string]any{"name": "mine"}), 404, "not_found")
	requireProblem(t, env, env.Do(testkit.Request{Method: "DELETE", Path: "/v1/discounts/" + id, Key: other.Key}), 404, "not_found")
	require.Empty(t, discountIDs(t, env.Get("/v1/discounts", other.Key)))
	requireProblem(t, env, env.Get("/v1/discounts/dsc_"+strings.Repeat("0", 26), acc.Key), 404, "not_found")

	// An order that used the code keeps its discount after the code is deleted.
	order := &db.Order{ID: db.NewID("ord"), AccountID: acc.ID, ListingID: l["id"].(string), ListingSlug: l["slug"].(string),
		BuyerEmail: "ann@example.com", Subtotal: 2900, DiscountID: &id, DiscountCode: ptr("Summer-25"), DiscountAmount: ptr(int64(725)),
		Amount: 2175, Currency: "USD", PlatformFee: 326, NetAmount: 1849, ContentType: "webhook", Status: db.OrderPending,
		PaymentStatus: db.PaymentUnpaid, CheckoutData: map[string]any{}, ListingSnapshot: json.RawMessage(`{}`),
		SellerSnapshot: json.RawMessage(`{}`), Deliverables: []db.OrderDeliverable{}, ViewToken: "v" + testkit.Unique()}
	_, err := env.Server.DB.NewInsert().Model(order).Exec(context.Background())
	require.NoError(t, err)

	r := env.Do(testkit.Request{Method: "DELETE", Path: "/v1/discounts/" + id, Key: acc.Key})
	require.Equal(t, http.StatusNoContent, r.Status, "%s", r.Body)
	require.Empty(t, r.Body)
	requireProblem(t, env, env.Get("/v1/discounts/"+id, acc.Key), 404, "not_found")
	requireProblem(t, env, env.Do(testkit.Request{Method: "DELETE", Path: "/v1/discounts/" + id, Key: acc.Key}), 404, "not_found")
	requireProblem(t, env, putDiscount(env, acc.Key, id, map[string]any{"name": "back"}), 404, "not_found")
	require.Equal(t, []string{f["id"].(string)}, discountIDs(t, env.Get("/v1/discounts", acc.Key)))
	o := env.Get("/v1/orders/"+order.ID, acc.Key)
	require.Equal(t, http.StatusOK, o.Status, "%s", o.Body)
	require.Equal(t, map[string]any{"id": id, "code": "Summer-25", "amount": 725.0}, o.JSON(t)["discount"])
	// Its code is free again.
	createDiscount(t, env, acc.Key, map[string]any{"code": "summer-25", "type": "fixed", "amount_off": 100})
}

func ptr[T any](v T) *T { return &v }

// Every rule of create, each at its param; several at once are listed in
// errors.
func TestDiscountCreateValidation(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	other := env.NewAccount()
	foreign := draftListing(t, env, other.Key, "Theirs")["id"].(string)
	mine := draftListing(t, env, acc.Key, "Mine")
	gone := draftListing(t, env, acc.Key, "Gone")["id"].(string)
	require.Equal(t, http.StatusNoContent, env.Do(testkit.Request{Method: "DELETE", Path: "/v1/listings/" + gone, Key: acc.Key}).Status)
	pct := func(extra map[string]any) map[string]any {
		b := map[string]any{"code": "CODE" + strings.ToUpper(testkit.Unique()[:6]), "type": "percentage", "percent_off": 10}
		for k, v := range extra {
			if v == nil {
				delete(b, k)
			} else {
				b[k] = v
			}
		}
		return b
	}
	past := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	soon := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	later := time.Now().Add(2 * time.Hour).UTC().Format(time.RFC3339)
	metadata := map[string]any{}
	for i := range 21 {
		metadata["k"+strconv.Itoa(i)] = "v"
	}
	for _, tc := range []struct {
		name  string
		body  map[string]any
		param string
	}{
		{"code too short", pct(map[string]any{"code": "ab"}), "code"},
		{"code too long", pct(map[string]any{"code": strings.Repeat("a", 41)}), "code"},
		{"code with a space", pct(map[string]any{"code": "SUMMER 25"}), "code"},
		{"code with a dot", pct(map[string]any{"code": "a.b.c"}), "code"},
		{"no code", pct(map[string]any{"code": ""}), "code"},
		{"no type", pct(map[string]any{"type": nil}), "type"},
		{"unknown type", pct(map[string]any{"type": "bogo"}), "type"},
		{"percentage without percent_off", pct(map[string]any{"percent_off": nil}), "percent_off"},
		{"percent_off 0", pct(map[string]any{"percent_off": 0}), "percent_off"},
		{"percent_off 101", pct(map[string]any{"percent_off": 101}), "percent_off"},
		{"percentage with amount_off", pct(map[string]any{"amount_off": 100}), "amount_off"},
		{"fixed without amount_off", pct(map[string]any{"type": "fixed", "percent_off": nil}), "amount_off"},
		{"amount_off 0", pct(map[string]any{"type": "fixed", "percent_off": nil, "amount_off": 0}), "amount_off"},
		{"amount_off too large", pct(map[string]any{"type": "fixed", "percent_off": nil, "amount_off": 100_000_000}), "amount_off"},
		{"fixed with percent_off", pct(map[string]any{"type": "fixed", "amount_off": 100}), "percent_off"},
		{"another account's listing", pct(map[string]any{"listing_ids": []string{mine["id"].(string), foreign}}), "listing_ids"},
		{"a deleted listing", pct(map[string]any{"listing_ids": []string{gone}}), "listing_ids"},
		{"not a listing id", pct(map[string]any{"listing_ids": []string{"nope"}}), "listing_ids"},
		{"expires before it starts", pct(map[string]any{"starts_at": later, "expires_at": soon}), "expires_at"},
		{"expires when it starts", pct(map[string]any{"starts_at": soon, "expires_at": soon}), "expires_at"},
		{"expired already", pct(map[string]any{"expires_at": past}), "expires_at"},
		{"max_redemptions 0", pct(map[string]any{"max_redemptions": 0}), "max_redemptions"},
		{"max_redemptions_per_customer 0", pct(map[string]any{"max_redemptions_per_customer": 0}), "max_redemptions_per_customer"},
		{"minimum_amount 0", pct(map[string]any{"minimum_amount": 0}), "minimum_amount"},
		{"name too long", pct(map[string]any{"name": strings.Repeat("n", 101)}), "name"},
		{"21 metadata keys", pct(map[string]any{"metadata": metadata}), "metadata"},
		{"a metadata value not a string", pct(map[string]any{"metadata": map[string]any{"n": 1}}), "metadata.n"},
		{"an unknown field", pct(map[string]any{"currency": "usd"}), "currency"},
		{"status is not set at create", pct(map[string]any{"status": "disabled"}), "status"},
	} {
		p := requireProblem(t, env, env.Post("/v1/discounts", acc.Key, tc.body), 422, "validation_error")
		require.Equal(t, tc.param, p["param"], "%s: %v", tc.name, p)
	}
	p := requireProblem(t, env, env.Post("/v1/discounts", acc.Key, map[string]any{"code": "x", "type": "percentage",
		"max_redemptions": 0}), 422, "validation_error")
	var params []string
	for _, e := range p["errors"].([]any) {
		params = append(params, e.(map[string]any)["param"].(string))
	}
	require.Equal(t, []string{"code", "percent_off", "max_redemptions"}, params, "every failed field")
	require.Empty(t, discountIDs(t, env.Get("/v1/discounts", acc.Key)), "nothing was created")

	// A code is unique among the account's discounts without regard to case.
	createDiscount(t, env, acc.Key, map[string]any{"code": "LAUNCH", "type": "fixed", "amount_off": 500})
	p = requireProblem(t, env, env.Post("/v1/discounts", acc.Key, map[string]any{"code": "launch", "type": "percentage", "percent_off": 5}),
		422, "validation_error")
	require.Equal(t, "code", p["param"])
	require.Contains(t, p["detail"], "already used")
	createDiscount(t, env, other.Key, map[string]any{"code": "LAUNCH", "type": "fixed", "amount_off": 500})
	// The boundaries are accepted.
	createDiscount(t, env, acc.Key, pct(map[string]any{"percent_off": 100, "code": strings.Repeat("Z", 40)}))
	createDiscount(t, env, acc.Key, pct(map[string]any{"type": "fixed", "percent_off": nil, "amount_off": 99_999_999}))
	createDiscount(t, env, acc.Key, pct(map[string]any{"code": "a_-", "percent_off": 1, "max_redemptions": 1, "starts_at": past,
		"expires_at": soon, "minimum_amount": 99_999_999, "listing_ids": []string{}}))
}

// PUT changes only the contract's fields; starts_at, minimum_amount and
// anything else are refused, naming the field.
func TestDiscountUpdate(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	l1 := draftListing(t, env, acc.Key, "One")
	l2 := draftListing(t, env, acc.Key, "Two")
	d := createDiscount(t, env, acc.Key, map[string]any{"name": "First", "code": "FIRST", "type": "percentage", "percent_off": 10,
		"metadata": map[string]any{"a": "1"}})
	id := d["id"].(string)

	expires := time.Now().Add(48 * time.Hour).UTC().Truncate(time.Second)
	r := putDiscount(env, acc.Key, id, map[string]any{"name": "Renamed", "expires_at": expires.Format(time.RFC3339), "max_redemptions": 50,
		"max_redemptions_per_customer": 2, "listing_ids": []string{l1["id"].(string), l2["id"].(string)}, "metadata": map[string]any{"b": "2"},
		"code": "SECOND", "percent_off": 15})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	u := r.JSON(t)
	require.Equal(t, "Renamed", u["name"])
	require.Equal(t, expires.Format(time.RFC3339), u["expires_at"])
	require.EqualValues(t, 50, u["max_redemptions"])
	require.EqualValues(t, 2, u["max_redemptions_per_customer"])
	require.Equal(t, []any{l1["id"], l2["id"]}, u["listing_ids"])
	require.Equal(t, map[string]any{"b": "2"}, u["metadata"], "metadata is replaced")
	require.Equal(t, "SECOND", u["code"])
	require.EqualValues(t, 15, u["percent_off"])
	require.NotEqual(t, d["updated_at"], u["updated_at"])
	require.Equal(t, d["created_at"], u["created_at"])

	// An empty body changes nothing; null clears what can be cleared.
	r = putDiscount(env, acc.Key, id, map[string]any{})
	require.Equal(t, http.StatusOK, r.Status)
	require.Equal(t, "Renamed", r.JSON(t)["name"])
	r = putDiscount(env, acc.Key, id, map[string]any{"name": nil, "expires_at": nil, "max_redemptions": nil,
		"max_redemptions_per_customer": nil, "metadata": nil, "listing_ids": nil})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	u = r.JSON(t)
	for _, k := range []string{"name", "expires_at", "max_redemptions", "max_redemptions_per_customer"} {
		require.Nil(t, u[k], k)
	}
	require.Equal(t, map[string]any{}, u["metadata"])
	require.Equal(t, []any{}, u["listing_ids"], "null: every listing")

	// The switch: disabled ↔ active.
	r = putDiscount(env, acc.Key, id, map[string]any{"status": "disabled"})
	require.Equal(t, "disabled", r.JSON(t)["status"])
	r = putDiscount(env, acc.Key, id, map[string]any{"status": "active"})
	require.Equal(t, "active", r.JSON(t)["status"])

	for _, tc := range []struct {
		body  map[string]any
		param string
	}{
		{map[string]any{"starts_at": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)}, "starts_at"},
		{map[string]any{"minimum_amount": 500}, "minimum_amount"},
		{map[string]any{"redemptions_count": 0}, "redemptions_count"},
		{map[string]any{"status": "expired"}, "status"},
		{map[string]any{"status": "scheduled"}, "status"},
		{map[string]any{"code": "no way"}, "code"},
		{map[string]any{"type": "bogo"}, "type"},
		{map[string]any{"percent_off": 0}, "percent_off"},
		{map[string]any{"percent_off": nil}, "percent_off"},
		{map[string]any{"amount_off": 100}, "amount_off"},
		{map[string]any{"type": "fixed"}, "amount_off"},
		{map[string]any{"max_redemptions": 0}, "max_redemptions"},
		{map[string]any{"max_redemptions_per_customer": 0}, "max_redemptions_per_customer"},
		{map[string]any{"expires_at": time.Now().Add(-time.Minute).UTC().Format(time.RFC3339)}, "expires_at"},
		{map[string]any{"listing_ids": []string{"lst_" + strings.Repeat("0", 26)}}, "listing_ids"},
		{map[string]any{"name": strings.Repeat("n", 101)}, "name"},
		{map[string]any{"metadata": map[string]any{"n": true}}, "metadata.n"},
	} {
		p := requireProblem(t, env, putDiscount(env, acc.Key, id, tc.body), 422, "validation_error")
		require.Equal(t, tc.param, p["param"], "%v: %v", tc.body, p)
	}
	// A type change with its value is fine before the first redemption.
	r = putDiscount(env, acc.Key, id, map[string]any{"type": "fixed", "amount_off": 250})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Nil(t, r.JSON(t)["percent_off"])

	// A code another discount has, in any case.
	createDiscount(t, env, acc.Key, map[string]any{"code": "TAKEN", "type": "fixed", "amount_off": 100})
	p := requireProblem(t, env, putDiscount(env, acc.Key, id, map[string]any{"code": "taken"}), 422, "validation_error")
	require.Equal(t, "code", p["param"])
	// Its own code in another case is no conflict.
	require.Equal(t, http.StatusOK, putDiscount(env, acc.Key, id, map[string]any{"code": "second"}).Status)

	// Not JSON, or not an object.
	requireProblem(t, env, env.Do(testkit.Request{Method: "PUT", Path: "/v1/discounts/" + id, Key: acc.Key, Body: "{", NoCheck: true}),
		400, "invalid_request")
}

func TestDiscountListFiltersAndPages(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	l1 := draftListing(t, env, acc.Key, "One")["id"].(string)
	l2 := draftListing(t, env, acc.Key, "Two")["id"].(string)
	all := createDiscount(t, env, acc.Key, map[string]any{"code": "ALL", "type": "percentage", "percent_off": 10})["id"].(string)
	one := createDiscount(t, env, acc.Key, map[string]any{"code": "ONE", "type": "percentage", "percent_off": 10,
		"listing_ids": []string{l1}})["id"].(string)
	two := createDiscount(t, env, acc.Key, map[string]any{"code": "TWO", "type": "fixed", "amount_off": 100,
		"listing_ids": []string{l2}})["id"].(string)
	off := createDiscount(t, env, acc.Key, map[string]any{"code": "OFF", "type": "fixed", "amount_off": 100})["id"].(string)
	require.Equal(t, http.StatusOK, putDiscount(env, acc.Key, off, map[string]any{"status": "disabled"}).Status)
	later := createDiscount(t, env, acc.Key, map[string]any{"code": "LATER", "type": "fixed", "amount_off": 100,
		"starts_at": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)})["id"].(string)

	require.Equal(t, []string{later, off, two, one, all}, discountIDs(t, env.Get("/v1/discounts", acc.Key)))
	require.Equal(t, []string{two, one, all}, discountIDs(t, env.Get("/v1/discounts?status=active", acc.Key)))
	require.Equal(t, []string{off}, discountIDs(t, env.Get("/v1/discounts?status=disabled", acc.Key)))
	require.Equal(t, []string{later}, discountIDs(t, env.Get("/v1/discounts?status=scheduled", acc.Key)))
	require.Empty(t, discountIDs(t, env.Get("/v1/discounts?status=expired", acc.Key)))
	require.Empty(t, discountIDs(t, env.Get("/v1/discounts?status=exhausted", acc.Key)))
	// The codes that apply to a listing: those naming it and those for every listing.
	require.Equal(t, []string{later, off, one, all}, discountIDs(t, env.Get("/v1/discounts?listing="+l1, acc.Key)))
	require.Equal(t, []string{two, all}, discountIDs(t, env.Get("/v1/discounts?listing="+l2+"&status=active", acc.Key)))

	// Keyset pages.
	r := env.Get("/v1/discounts?limit=2", acc.Key)
	page := r.JSON(t)
	require.Equal(t, true, page["has_more"])
	require.Equal(t, []string{later, off}, discountIDs(t, r))
	r = env.Get("/v1/discounts?limit=2&cursor="+page["next_cursor"].(string), acc.Key)
	require.Equal(t, []string{two, one}, discountIDs(t, r))
	r = env.Get("/v1/discounts?limit=2&cursor="+r.JSON(t)["next_cursor"].(string), acc.Key)
	require.Equal(t, []string{all}, discountIDs(t, r))
	require.Equal(t, false, r.JSON(t)["has_more"])
	require.Nil(t, r.JSON(t)["next_cursor"])

	for path, param := range map[string]string{
		"/v1/discounts?limit=0":         "limit",
		"/v1/discounts?limit=101":       "limit",
		"/v1/discounts?cursor=bogus":    "cursor",
		"/v1/discounts?status=bogus":    "status",
		"/v1/discounts?listing=nope":    "listing",
		"/v1/discounts?listing=ord_123": "listing",
	} {
		p := requireProblem(t, env, env.Get(path, acc.Key), 422, "validation_error")
		require.Equal(t, param, p["param"], path)
	}
}

// The status follows the clock: scheduled until starts_at, active, expired
// at expires_at; readiness says what to do in each, and following its
// resolve as given makes the code usable again.
func TestDiscountStatusOverTime(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	publishedListing(t, env, acc.Key, map[string]any{"title": "Sells " + testkit.Unique(), "price": 2900})

	starts := time.Now().Add(1500 * time.Millisecond).UTC()
	d := createDiscount(t, env, acc.Key, map[string]any{"code": "SOON", "type": "percentage", "percent_off": 10,
		"starts_at": starts.Format(time.RFC3339Nano)})
	id := d["id"].(string)
	require.Equal(t, "scheduled", d["status"])
	readiness := d["readiness"].(map[string]any)
	require.Equal(t, false, readiness["usable"])
	require.Equal(t, "await_discount_start", readiness["next"])
	wait := readiness["actions"].([]any)[0].(map[string]any)
	require.Equal(t, "GET", wait["resolve"].(map[string]any)["method"])
	require.Equal(t, "/v1/discounts/"+id, wait["resolve"].(map[string]any)["endpoint"])
	require.Contains(t, wait["message"], "Wait until")

	time.Sleep(time.Until(starts) + 100*time.Millisecond)
	d = env.Get("/v1/discounts/"+id, acc.Key).JSON(t)
	require.Equal(t, "active", d["status"])
	require.Equal(t, true, d["readiness"].(map[string]any)["usable"])
	require.Empty(t, d["readiness"].(map[string]any)["actions"])
	require.Nil(t, d["readiness"].(map[string]any)["next"])

	ends := time.Now().Add(1500 * time.Millisecond).UTC()
	r := putDiscount(env, acc.Key, id, map[string]any{"expires_at": ends.Format(time.RFC3339Nano)})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Equal(t, "active", r.JSON(t)["status"])
	time.Sleep(time.Until(ends) + 100*time.Millisecond)
	d = env.Get("/v1/discounts/"+id, acc.Key).JSON(t)
	require.Equal(t, "expired", d["status"])
	require.Equal(t, []string{id}, discountIDs(t, env.Get("/v1/discounts?status=expired", acc.Key)))
	readiness = d["readiness"].(map[string]any)
	require.Equal(t, false, readiness["usable"])
	require.Equal(t, "extend_discount", readiness["next"])
	extend := readiness["actions"].([]any)[0].(map[string]any)["resolve"].(map[string]any)
	require.Equal(t, "PUT", extend["method"])
	r = putDiscount(env, acc.Key, id, extend["params"])
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Equal(t, "active", r.JSON(t)["status"])

	// Disabled: enable it, as readiness says.
	d = putDiscount(env, acc.Key, id, map[string]any{"status": "disabled"}).JSON(t)
	require.Equal(t, "disabled", d["status"])
	readiness = d["readiness"].(map[string]any)
	require.Equal(t, "enable_discount", readiness["next"])
	enable := readiness["actions"].([]any)[0].(map[string]any)["resolve"].(map[string]any)
	require.Equal(t, map[string]any{"status": "active"}, enable["params"])
	r = putDiscount(env, acc.Key, id, enable["params"])
	require.Equal(t, "active", r.JSON(t)["status"])
	require.Equal(t, true, r.JSON(t)["readiness"].(map[string]any)["usable"])
}

// share_url is the product page for one listing, else the store page (null
// until the store has a slug), with ?code=.
func TestDiscountShareURL(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	l1 := draftListing(t, env, acc.Key, "One")
	l2 := draftListing(t, env, acc.Key, "Two")
	one := createDiscount(t, env, acc.Key, map[string]any{"code": "Only_One", "type": "percentage", "percent_off": 10,
		"listing_ids": []string{l1["id"].(string)}})
	several := createDiscount(t, env, acc.Key, map[string]any{"code": "BOTH", "type": "percentage", "percent_off": 10,
		"listing_ids": []string{l1["id"].(string), l2["id"].(string)}})
	every := createDiscount(t, env, acc.Key, map[string]any{"code": "EVERY", "type": "percentage", "percent_off": 10})
	require.Equal(t, env.URL+"/p/"+l1["slug"].(string)+"?code=Only_One", one["share_url"])
	require.Nil(t, several["share_url"], "no store slug yet")
	require.Nil(t, every["share_url"])

	slug := "shop-" + strings.ToLower(testkit.Unique())
	r := env.Do(testkit.Request{Method: "PUT", Path: "/v1/store", Key: acc.Key, Body: map[string]any{"display_name": "Shop", "slug": slug}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	for _, d := range []map[string]any{several, every} {
		got := env.Get("/v1/discounts/"+d["id"].(string), acc.Key).JSON(t)
		require.Equal(t, env.URL+"/s/"+slug+"?code="+d["code"].(string), got["share_url"])
	}
	// Narrowed to one listing: its product page.
	r = putDiscount(env, acc.Key, several["id"].(string), map[string]any{"listing_ids": []string{l2["id"].(string)}})
	require.Equal(t, env.URL+"/p/"+l2["slug"].(string)+"?code=BOTH", r.JSON(t)["share_url"])
}

// usable when active with a sellable listing (any, for every listing);
// otherwise the listings' required actions, the account's once.
func TestDiscountReadinessUsable(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	draft := draftListing(t, env, acc.Key, "Draft")["id"].(string)
	every := createDiscount(t, env, acc.Key, map[string]any{"code": "EVERY", "type": "percentage", "percent_off": 10})["id"].(string)
	onDraft := createDiscount(t, env, acc.Key, map[string]any{"code": "DRAFT", "type": "percentage", "percent_off": 10,
		"listing_ids": []string{draft}})["id"].(string)

	readiness := func(id string) map[string]any {
		r := env.Get("/v1/discounts/"+id, acc.Key)
		require.Equal(t, http.StatusOK, r.Status)
		return r.JSON(t)["readiness"].(map[string]any)
	}
	codes := func(rd map[string]any) []string {
		var out []string
		for _, a := range rd["actions"].([]any) {
			a := a.(map[string]any)
			out = append(out, a["code"].(string)+" "+fmt.Sprint(a["resolve"].(map[string]any)["endpoint"]))
		}
		return out
	}
	// Not connected: the account's required action once, then the draft's own.
	rd := readiness(onDraft)
	require.Equal(t, false, rd["usable"])
	require.Equal(t, "connect_stripe", rd["next"])
	require.Equal(t, []string{"connect_stripe /v1/account/processor/connect", "publish_listing /v1/listings/" + draft + "/publish"}, codes(rd))

	connectSandbox(t, env, acc.Key)
	rd = readiness(onDraft)
	require.Equal(t, false, rd["usable"])
	require.Equal(t, []string{"publish_listing /v1/listings/" + draft + "/publish"}, codes(rd))
	require.Equal(t, false, readiness(every)["usable"])

	// Another listing sells: the code for every listing is usable, the one
	// for the draft still is not.
	publishedListing(t, env, acc.Key, map[string]any{"title": "Sells " + testkit.Unique(), "price": 2900})
	rd = readiness(every)
	require.Equal(t, true, rd["usable"])
	require.Empty(t, rd["actions"])
	require.Equal(t, false, readiness(onDraft)["usable"])
	// Following its action: published, usable.
	require.Equal(t, http.StatusOK, env.Post("/v1/listings/"+draft+"/publish", acc.Key, nil).Status)
	require.Equal(t, true, readiness(onDraft)["usable"])

	// The list carries every discount's readiness too.
	for _, d := range env.Get("/v1/discounts", acc.Key).JSON(t)["data"].([]any) {
		require.Equal(t, true, d.(map[string]any)["readiness"].(map[string]any)["usable"])
	}
}

// Every /v1/discounts route is charged to the group discounts (60 a
// minute per key), and the GraphQL fields to the same window.
func TestDiscountRateLimit(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	id := createDiscount(t, env, acc.Key, map[string]any{"code": "LIMIT", "type": "fixed", "amount_off": 100})["id"].(string)
	passed := 1
	var last *testkit.Response
	for i := 0; i < 60; i++ {
		path := "/v1/discounts/" + id
		if i%2 == 0 {
			path = "/v1/discounts?limit=1"
		}
		last = env.Get(path, acc.Key)
		if last.Status == http.StatusOK {
			passed++
			require.Equal(t, "60", last.Header.Get("RateLimit-Limit"))
			require.Equal(t, strconv.Itoa(60-passed), last.Header.Get("RateLimit-Remaining"))
		}
	}
	require.Equal(t, 60, passed)
	requireProblem(t, env, last, 429, "rate_limited")
	require.NotEmpty(t, last.Header.Get("Retry-After"))
	res := gql(t, env, acc.Key, `query($id: ID!) { discount(id: $id) { id } }`, map[string]any{"id": id})
	require.Len(t, res.Errors, 1)
	require.Equal(t, "rate_limited", res.Errors[0]["extensions"].(map[string]any)["code"])
	// Another group is not charged.
	require.Equal(t, http.StatusOK, env.Get("/v1/listings", acc.Key).Status)
}

func TestDiscountIdempotencyAndScope(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	body := map[string]any{"code": "ONCE", "type": "fixed", "amount_off": 100}
	hdr := map[string]string{"Idempotency-Key": "create-once-" + testkit.Unique()}
	first := env.Do(testkit.Request{Method: "POST", Path: "/v1/discounts", Key: acc.Key, Body: body, Header: hdr})
	require.Equal(t, http.StatusCreated, first.Status, "%s", first.Body)
	again := env.Do(testkit.Request{Method: "POST", Path: "/v1/discounts", Key: acc.Key, Body: body, Header: hdr})
	require.Equal(t, http.StatusCreated, again.Status)
	require.Equal(t, "true", again.Header.Get("Idempotent-Replayed"))
	require.Equal(t, string(first.Body), string(again.Body))
	require.Len(t, discountIDs(t, env.Get("/v1/discounts", acc.Key)), 1)

	r := env.Post("/v1/api-keys", acc.Key, map[string]any{"name": "reader", "scope": "read_only"})
	require.Equal(t, http.StatusCreated, r.Status)
	ro := r.JSON(t)["key"].(string)
	id := first.JSON(t)["id"].(string)
	require.Equal(t, http.StatusOK, env.Get("/v1/discounts/"+id, ro).Status)
	requireProblem(t, env, env.Post("/v1/discounts", ro, map[string]any{"code": "RO", "type": "fixed", "amount_off": 1}), 403, "permission_denied")
	requireProblem(t, env, putDiscount(env, ro, id, map[string]any{"name": "x"}), 403, "permission_denied")
	requireProblem(t, env, env.Do(testkit.Request{Method: "DELETE", Path: "/v1/discounts/" + id, Key: ro}), 403, "permission_denied")
	requireProblem(t, env, env.Get("/v1/discounts", ""), 401, "authentication_error")
}

// The GraphQL forms call the same resolvers: create, read, node, the
// connection with its filters, update and delete, with REST's errors.
func TestDiscountGraphQL(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	l := draftListing(t, env, acc.Key, "Guide")["id"].(string)
	const fields = `id object name code type percentOff amountOff listingIds startsAt expiresAt maxRedemptions
		maxRedemptionsPerCustomer minimumAmount redemptionsCount status shareUrl metadata createdAt updatedAt
		readiness { usable next actions { code } refresh { endpoint mcp { tool arguments } } }`
	res := gql(t, env, acc.Key, `mutation($in: CreateDiscountInput!) { createDiscount(input: $in) { `+fields+` } }`,
		map[string]any{"in": map[string]any{"code": "Gql-10", "type": "PERCENTAGE", "percentOff": 10, "listingIds": []string{l},
			"maxRedemptions": 5, "metadata": map[string]any{"via": "graphql"}}})
	require.Empty(t, res.Errors)
	var created struct {
		CreateDiscount map[string]any `json:"createDiscount"`
	}
	require.NoError(t, json.Unmarshal(res.Data, &created))
	g := created.CreateDiscount
	id := g["id"].(string)
	require.Equal(t, "PERCENTAGE", g["type"])
	require.Equal(t, "ACTIVE", g["status"])
	require.Equal(t, map[string]any{"tool": "discount", "arguments": map[string]any{"id": id}},
		g["readiness"].(map[string]any)["refresh"].(map[string]any)["mcp"])

	// REST reads the same discount: the same values, in REST's shape.
	rest := env.Get("/v1/discounts/"+id, acc.Key).JSON(t)
	shaped := snake(g).(map[string]any)
	shaped["type"] = strings.ToLower(shaped["type"].(string))
	shaped["status"] = strings.ToLower(shaped["status"].(string))
	for _, k := range []string{"id", "object", "code", "type", "percent_off", "listing_ids", "max_redemptions", "status", "share_url",
		"metadata", "created_at", "updated_at"} {
		require.Equal(t, rest[k], shaped[k], k)
	}

	res = gql(t, env, acc.Key, `query($id: ID!) { discount(id: $id) { code } node(id: $id) { __typename ... on Discount { code status } } }`,
		map[string]any{"id": id})
	require.Empty(t, res.Errors)
	require.JSONEq(t, `{"discount":{"code":"Gql-10"},"node":{"__typename":"Discount","code":"Gql-10","status":"ACTIVE"}}`, string(res.Data))

	createDiscount(t, env, acc.Key, map[string]any{"code": "REST", "type": "fixed", "amount_off": 100, "listing_ids": []string{}})
	res = gql(t, env, acc.Key, `query($l: ID) { viewer { all: discounts { edges { node { code } } }
		mine: discounts(listing: $l, first: 1) { edges { node { code } } pageInfo { hasNextPage } }
		off: discounts(status: DISABLED) { edges { node { code } } } } }`, map[string]any{"l": l})
	require.Empty(t, res.Errors)
	require.JSONEq(t, `{"viewer":{"all":{"edges":[{"node":{"code":"REST"}},{"node":{"code":"Gql-10"}}]},
		"mine":{"edges":[{"node":{"code":"REST"}}],"pageInfo":{"hasNextPage":true}},"off":{"edges":[]}}}`, string(res.Data))

	res = gql(t, env, acc.Key, `mutation($id: ID!) { updateDiscount(id: $id, input: {status: DISABLED, name: "Off", maxRedemptions: null}) {
		status name maxRedemptions readiness { next } } }`, map[string]any{"id": id})
	require.Empty(t, res.Errors)
	require.JSONEq(t, `{"updateDiscount":{"status":"DISABLED","name":"Off","maxRedemptions":null,"readiness":{"next":"ENABLE_DISCOUNT"}}}`, string(res.Data))

	// Errors carry REST's code and param.
	res = gql(t, env, acc.Key, `mutation { createDiscount(input: {code: "rest", type: FIXED, amountOff: 5}) { id } }`, nil)
	require.Len(t, res.Errors, 1)
	ext := res.Errors[0]["extensions"].(map[string]any)
	require.Equal(t, "validation_error", ext["code"])
	require.Equal(t, "code", ext["param"])
	res = gql(t, env, acc.Key, `mutation($id: ID!) { updateDiscount(id: $id, input: {status: EXPIRED}) { id } }`, map[string]any{"id": id})
	require.Equal(t, "status", res.Errors[0]["extensions"].(map[string]any)["param"])

	// Another account: null node, not_found field.
	other := env.NewAccount()
	res = gql(t, env, other.Key, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": id})
	require.Empty(t, res.Errors)
	require.JSONEq(t, `{"node":null}`, string(res.Data))
	res = gql(t, env, other.Key, `query($id: ID!) { discount(id: $id) { id } }`, map[string]any{"id": id})
	require.Equal(t, "not_found", res.Errors[0]["extensions"].(map[string]any)["code"])
	res = gql(t, env, other.Key, `mutation($id: ID!) { deleteDiscount(id: $id) }`, map[string]any{"id": id})
	require.Equal(t, "not_found", res.Errors[0]["extensions"].(map[string]any)["code"])

	res = gql(t, env, acc.Key, `mutation($id: ID!) { deleteDiscount(id: $id) }`, map[string]any{"id": id})
	require.Empty(t, res.Errors)
	require.JSONEq(t, `{"deleteDiscount":true}`, string(res.Data))
	requireProblem(t, env, env.Get("/v1/discounts/"+id, acc.Key), 404, "not_found")
}
