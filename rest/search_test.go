package rest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/testkit"
)

// The search box of the lists (CONTRACT §15, `query`): orders by buyer
// email or order id, customers by email, listings by title; trimmed, 1 to
// 200 characters, LIKE's metacharacters literal, scoped by account, on
// REST and GraphQL alike.

// seededOrder is an order row written straight to the database (the
// lists and the export read rows; how an order came to be is tested
// elsewhere).
type seededOrder struct {
	email    string
	status   string
	created  time.Time
	listing  string
	title    string
	mutate   func(o *db.Order)
	customer bool
}

// seedOrders writes orders of account acc (and, with customer set, their
// customers) and returns the ids in the order given.
func seedOrders(t *testing.T, env *testkit.Env, acc testkit.Account, orders ...seededOrder) []string {
	t.Helper()
	ctx := context.Background()
	ids := make([]string, len(orders))
	for i, s := range orders {
		if s.status == "" {
			s.status = db.OrderPaid
		}
		if s.created.IsZero() {
			s.created = time.Now().UTC().Add(time.Duration(i-len(orders)) * time.Minute).Truncate(time.Second)
		}
		title := s.title
		if title == "" {
			title = "Guide"
		}
		snap, _ := json.Marshal(map[string]any{"id": s.listing, "title": title})
		paid := s.created.Add(time.Minute)
		o := &db.Order{ID: db.NewID("ord"), AccountID: acc.ID, ListingID: s.listing, ListingSlug: "guide", BuyerEmail: s.email,
			Subtotal: 2900, Amount: 2900, Currency: "USD", PlatformFee: 435, NetAmount: 2465, ContentType: "webhook",
			Status: s.status, PaymentStatus: db.PaymentPaid, CheckoutData: map[string]any{},
			ListingSnapshot: snap, SellerSnapshot: json.RawMessage(`{}`), Deliverables: []db.OrderDeliverable{},
			ViewToken: "v" + testkit.Unique(), CreatedAt: s.created, PaidAt: &paid}
		if s.mutate != nil {
			s.mutate(o)
		}
		_, err := env.Server.DB.NewInsert().Model(o).Exec(ctx)
		require.NoError(t, err)
		if s.customer {
			c := &db.Customer{ID: db.NewID("cus"), AccountID: acc.ID, Email: s.email, OrdersCount: 1, TotalSpent: o.Amount,
				Currency: ptr("usd"), FirstOrderAt: &paid, LastOrderAt: &paid, CreatedAt: paid}
			_, err := env.Server.DB.NewInsert().Model(c).Exec(ctx)
			require.NoError(t, err)
			cid := c.ID
			_, err = env.Server.DB.NewUpdate().Model((*db.Order)(nil)).Set("customer_id = ?", cid).Where("id = ?", o.ID).Exec(ctx)
			require.NoError(t, err)
		}
		ids[i] = o.ID
	}
	return ids
}

// draftListingID creates a draft listing of the key's account.
func draftListingID(t *testing.T, env *testkit.Env, key, title string) string {
	t.Helper()
	r := env.Post("/v1/listings", key, map[string]any{"title": title, "price": 2900})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	return r.JSON(t)["id"].(string)
}

// searchIDs reads every id of a REST list (one page of 100).
func searchIDs(t *testing.T, env *testkit.Env, key, path string, q url.Values) []string {
	t.Helper()
	q.Set("limit", "100")
	r := env.Get(path+"?"+q.Encode(), key)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var out struct {
		Data []struct{ ID string } `json:"data"`
	}
	r.Decode(t, &out)
	ids := make([]string, len(out.Data))
	for i, d := range out.Data {
		ids[i] = d.ID
	}
	return ids
}

// gqlIDs reads the node ids of a viewer connection with a query argument.
func gqlIDs(t *testing.T, env *testkit.Env, key, field, query string) []string {
	t.Helper()
	res := gql(t, env, key, `query($q: String) { viewer { `+field+`(first: 100, query: $q) { edges { node { id } } } } }`, map[string]any{"q": query})
	require.Empty(t, res.Errors)
	var out struct {
		Viewer map[string]struct {
			Edges []struct{ Node struct{ ID string } }
		}
	}
	require.NoError(t, json.Unmarshal(res.Data, &out))
	var ids []string
	for _, e := range out.Viewer[field].Edges {
		ids = append(ids, e.Node.ID)
	}
	return ids
}

func TestSearchOrders(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc, other := env.NewAccount(), env.NewAccount()
	lst := draftListingID(t, env, acc.Key, "Guide")
	ids := seedOrders(t, env, acc,
		seededOrder{email: "Ada.Lovelace@Example.com", listing: lst},
		seededOrder{email: "grace@example.org", listing: lst, status: db.OrderRefunded},
		seededOrder{email: "50%off_deal@example.com", listing: lst},
		seededOrder{email: "50xoffxdeal@example.com", listing: lst},
		seededOrder{email: `back\slash@example.com`, listing: lst},
	)
	olst := draftListingID(t, env, other.Key, "Other")
	otherIDs := seedOrders(t, env, other, seededOrder{email: "ada.lovelace@example.com", listing: olst})

	for _, tc := range []struct {
		query string
		want  []string // newest first
	}{
		{"lovelace", []string{ids[0]}},
		{"  ADA.LOVELACE@EXAMPLE.COM  ", []string{ids[0]}},
		{"example", []string{ids[4], ids[3], ids[2], ids[1], ids[0]}},
		{"50%", []string{ids[2]}},
		{"%off_", []string{ids[2]}},
		{"_", []string{ids[2]}},
		{`\`, []string{ids[4]}},
		{ids[1], []string{ids[1]}},
		{otherIDs[0], nil},
		{"nobody", nil},
	} {
		got := searchIDs(t, env, acc.Key, "/v1/orders", url.Values{"query": {tc.query}})
		require.Equal(t, tc.want, nilIfEmpty(got), "REST query %q", tc.query)
		require.Equal(t, tc.want, gqlIDs(t, env, acc.Key, "orders", tc.query), "GraphQL query %q", tc.query)
	}
	// With the other filters, and paged by keyset.
	got := searchIDs(t, env, acc.Key, "/v1/orders", url.Values{"query": {"example"}, "status": {"refunded"}})
	require.Equal(t, []string{ids[1]}, got)
	r := env.Get("/v1/orders?query=example&limit=2", acc.Key)
	require.Equal(t, http.StatusOK, r.Status)
	page := r.JSON(t)
	require.Equal(t, true, page["has_more"])
	r = env.Get("/v1/orders?query=example&limit=2&cursor="+url.QueryEscape(page["next_cursor"].(string)), acc.Key)
	require.Equal(t, http.StatusOK, r.Status)
	data := r.JSON(t)["data"].([]any)
	require.Len(t, data, 2)
	require.Equal(t, ids[2], data[0].(map[string]any)["id"])
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

func TestSearchCustomersAndListings(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc, other := env.NewAccount(), env.NewAccount()
	lst := draftListingID(t, env, acc.Key, "Guide")
	seedOrders(t, env, acc,
		seededOrder{email: "Ada@Example.com", listing: lst, customer: true},
		seededOrder{email: "grace_h@example.org", listing: lst, customer: true},
	)
	olst := draftListingID(t, env, other.Key, "Other")
	seedOrders(t, env, other, seededOrder{email: "ada@elsewhere.com", listing: olst, customer: true})

	emails := func(q string) []string {
		r := env.Get("/v1/customers?limit=100&query="+url.QueryEscape(q), acc.Key)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		var out struct{ Data []struct{ Email string } }
		r.Decode(t, &out)
		var es []string
		for _, c := range out.Data {
			es = append(es, c.Email)
		}
		require.Len(t, gqlIDs(t, env, acc.Key, "customers", q), len(es), "GraphQL agrees on %q", q)
		return es
	}
	require.Equal(t, []string{"Ada@Example.com"}, emails("aDa"))
	require.Equal(t, []string{"grace_h@example.org"}, emails("e_h"))
	require.Nil(t, emails("elsewhere"))

	a := draftListingID(t, env, acc.Key, "The 100% Guide to Go")
	b := draftListingID(t, env, acc.Key, "Go_Lang notes")
	draftListingID(t, env, other.Key, "Guide to Go (other account)")
	for _, tc := range []struct {
		q    string
		want []string
	}{
		{"guide to", []string{a}},
		{"100%", []string{a}},
		{"_", []string{b}},
		{"GO", []string{b, a}},
		{"other account", nil},
	} {
		require.Equal(t, tc.want, nilIfEmpty(searchIDs(t, env, acc.Key, "/v1/listings", url.Values{"query": {tc.q}})), "REST %q", tc.q)
		require.Equal(t, tc.want, gqlIDs(t, env, acc.Key, "listings", tc.q), "GraphQL %q", tc.q)
	}
}

// A query of no characters after trimming, or of more than 200, is 422
// param query, on every list, REST and GraphQL.
func TestSearchBounds(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	for _, path := range []string{"/v1/orders", "/v1/customers", "/v1/listings", "/v1/orders/export", "/v1/customers/export"} {
		for _, q := range []string{"", "   ", strings.Repeat("a", 201)} {
			r := env.Get(path+"?query="+url.QueryEscape(q), acc.Key)
			require.Equal(t, http.StatusUnprocessableEntity, r.Status, "%s %q: %s", path, q, r.Body)
			require.Equal(t, "query", r.JSON(t)["param"], path)
		}
		r := env.Get(path+"?query="+strings.Repeat("é", 200), acc.Key)
		require.Equal(t, http.StatusOK, r.Status, "%s: %s", path, r.Body)
	}
	for _, field := range []string{"orders", "customers", "listings"} {
		res := gql(t, env, acc.Key, `query($q: String) { viewer { `+field+`(first: 1, query: $q) { edges { node { id } } } } }`, map[string]any{"q": " "})
		requireGQLCode(t, res, "validation_error")
		ext := res.Errors[0]["extensions"].(map[string]any)
		require.Equal(t, "query", ext["param"], field)
	}
}
