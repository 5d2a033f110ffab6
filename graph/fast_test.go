package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/transport"

	"commerce/graph/model"
)

// The direct marshaller (fast.go, fast_gen.go) against gqlgen's generated
// path on the same resolvers: the same bytes, errors and nulls included.

type fakeRoot struct {
	ResolverRoot
	listings []*model.Listing
}

func (r *fakeRoot) Query() QueryResolver     { return fakeQuery{r: r} }
func (r *fakeRoot) Account() AccountResolver { return fakeAccount{r: r} }
func (r *fakeRoot) Listing() ListingResolver { return fakeListing{} }

type fakeQuery struct {
	QueryResolver
	r *fakeRoot
}

func (q fakeQuery) Viewer(context.Context) (*model.Account, error) {
	name := "Ann \"the seller\" <a&b>\n\t\x01"
	return &model.Account{Object: "account", ID: "acc_1", Email: "ann@example.com", DisplayName: &name,
		Plan: model.PlanIDGrowth, FeeRate: "0.05", BillingStatus: model.BillingStatusActive,
		CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC), NotifyOrders: true}, nil
}

func (q fakeQuery) Listing(_ context.Context, id string) (*model.Listing, error) {
	for _, l := range q.r.listings {
		if l.ID == id {
			return l, nil
		}
	}
	return nil, nil
}

type fakeAccount struct {
	AccountResolver
	r *fakeRoot
}

func (a fakeAccount) Listings(_ context.Context, _ *model.Account, first *int, _ *string, _ *model.ListingStatus, _ *string) (*model.ListingConnection, error) {
	n := len(a.r.listings)
	if first != nil && *first < n {
		n = *first
	}
	c := &model.ListingConnection{PageInfo: &model.PageInfo{HasNextPage: n < len(a.r.listings)}}
	for _, l := range a.r.listings[:n] {
		c.Edges = append(c.Edges, &model.ListingEdge{Cursor: "c_" + l.ID, Node: l})
	}
	if n > 0 {
		end := "c_" + a.r.listings[n-1].ID
		c.PageInfo.EndCursor = &end
	}
	return c, nil
}

type fakeListing struct{ ListingResolver }

func (fakeListing) Deliverables(_ context.Context, l *model.Listing) ([]*model.Deliverable, error) {
	v := "https://example.com/" + l.ID
	return []*model.Deliverable{{Object: "deliverable", ID: "del_" + l.ID, Type: model.DeliverableTypeURL, Value: &v, CreatedAt: l.CreatedAt}}, nil
}

func (fakeListing) Reviews(context.Context, *model.Listing) (*model.Reviews, error) {
	avg := 4.25
	return &model.Reviews{Count: 4, AverageRating: &avg}, nil
}

func fakeListings(n int) []*model.Listing {
	out := make([]*model.Listing, n)
	for i := range out {
		desc := fmt.Sprintf("desc %d \u2028 é \\ \"q\"", i)
		cur := "usd"
		pub := time.Date(2026, 3, 4, 5, 6, 7, 0, time.FixedZone("x", 3600))
		endpoint := "/v1/listings/lst_" + fmt.Sprint(i)
		next := model.ActionCodePublishListing
		l := &model.Listing{
			Object: "listing", ID: fmt.Sprintf("lst_%d", i), Title: fmt.Sprintf("Title %d <b>", i),
			Price: int64(100 * i), Pricing: model.ListingPricingFixed, Slug: fmt.Sprintf("slug-%d", i),
			Status: model.ListingStatusPublished, URL: "https://example.com/p", CheckoutURL: "https://example.com/c",
			CoverBlur: model.CoverBlurAuto, Fulfillment: model.FulfillmentManaged, ExternalDelivery: model.ExternalDeliveryWebhook,
			CheckoutSchema: []*model.CheckoutField{{Key: "k", Label: "L", Kind: model.CheckoutFieldKindSelect, Required: true, Options: []string{"a", "b\n"}}},
			Billing:        model.ListingBillingOneTime, Metadata: map[string]any{"b": "2", "a": "<1>"},
			Readiness: &model.ListingReadiness{Sellable: i%2 == 0, Next: &next, Actions: []*model.Action{{
				Code: model.ActionCodePublishListing, Kind: model.ActionKindAPI, Priority: model.ActionPriorityRequired, Message: "Publish it",
				Resolve: &model.ActionResolve{Method: model.ResolveMethodPost, Endpoint: &endpoint, Params: map[string]any{"status": "published"}},
			}}, Refresh: &model.ReadinessRefresh{Method: model.ResolveMethodGet, Endpoint: endpoint}},
			CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, i, time.UTC), UpdatedAt: time.Date(2026, 2, 2, 3, 4, 5, 0, time.UTC),
		}
		if i%2 == 0 {
			l.Description, l.Currency, l.PublishedAt = &desc, &cur, &pub
		}
		if i%3 == 0 {
			lim := 3
			l.License = &model.LicenseSettings{ActivationLimit: &lim, KeyPrefix: "K-"}
		}
		out[i] = l
	}
	return out
}

// fastServer runs the schema on root, counting the fields that went
// through ResolveField (and so through the field interceptors).
func fastServer(root ResolverRoot) (http.Handler, *sync.Map) {
	srv := handler.New(NewExecutableSchema(Config{Resolvers: root}))
	srv.AddTransport(transport.POST{})
	srv.Use(extension.Introspection{}) // the introspection cases
	var seen sync.Map
	srv.AroundFields(func(ctx context.Context, next graphql.Resolver) (any, error) {
		fc := graphql.GetFieldContext(ctx)
		k := fc.Object + "." + fc.Field.Name
		n, _ := seen.LoadOrStore(k, new(int64))
		seenMu.Lock()
		*n.(*int64)++
		seenMu.Unlock()
		return next(ctx)
	})
	return srv, &seen
}

var seenMu sync.Mutex

func post(t *testing.T, h http.Handler, query string, vars map[string]any) []byte {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w.Body.Bytes()
}

func count(seen *sync.Map, k string) int64 {
	n, ok := seen.Load(k)
	if !ok {
		return 0
	}
	seenMu.Lock()
	defer seenMu.Unlock()
	return *n.(*int64)
}

const fastListingFields = `object id title description price pricing suggestedPrice maximumPrice currency slug status url checkoutUrl
  coverUrl coverBlur fulfillment externalDelivery checkoutSchema { key label kind required options }
  license { activationLimit expiresAfterDays keyPrefix } access { downloadLimit accessDays } billing interval trialDays
  utmSource utmMedium utmCampaign metadata createdAt updatedAt publishedAt
  readiness { sellable next actions { code kind priority message resolve { method endpoint url params inputs { name description example } } } refresh { method endpoint } }`

var fastCases = []struct {
	name  string
	query string
	vars  map[string]any
}{
	{"bench page", `query($n: Int) { viewer { listings(first: $n) {
  edges { cursor node { id title price currency slug status url checkoutUrl fulfillment createdAt updatedAt publishedAt } }
  pageInfo { hasNextPage endCursor hasPreviousPage startCursor } } } }`, map[string]any{"n": 100}},
	{"every plain field", `{ viewer { listings(first: 20) { edges { node { ` + fastListingFields + ` } } } } }`, nil},
	{"aliases and __typename", `{ viewer { __typename id l: listings(first: 5) { __typename e: edges { c: cursor n: node { __typename i: id t: title id } } p: pageInfo { __typename n: hasNextPage } } } }`, nil},
	{"fragments", `fragment F on Listing { id title ... on Listing { slug status } } query { viewer { listings(first: 7) { edges { node { ...F ... { price } ...G } } } } }
  fragment G on Node { id }`, nil},
	{"skip and include", `query($a: Boolean!, $b: Boolean!) { viewer { listings(first: 9) { edges { cursor @skip(if: $a) node { id title @include(if: $b) slug @skip(if: $b) ... @include(if: $a) { price } } } } } }`, map[string]any{"a": true, "b": false}},
	{"skip and include, other way", `query($a: Boolean!, $b: Boolean!) { viewer { listings(first: 9) { edges { cursor @skip(if: $a) node { id title @include(if: $b) slug @skip(if: $b) ... @include(if: $a) { price } } } } } }`, map[string]any{"a": false, "b": true}},
	{"resolver fields in the list", `{ viewer { listings(first: 6) { edges { node { id title deliverables { id type value createdAt } reviews { count averageRating } } } } } }`, nil},
	{"one listing", `query($id: ID!) { listing(id: $id) { ` + fastListingFields + ` deliverables { object id type value file { name } createdAt } reviews { count averageRating } } }`, map[string]any{"id": "lst_4"}},
	{"missing listing", `query($id: ID!) { listing(id: $id) { id title } }`, map[string]any{"id": "lst_none"}},
	{"repeated fields merged", `{ viewer { listings(first: 3) { edges { node { id id title ... on Listing { title id } } } } } }`, nil},
	{"account", `{ viewer { object id email displayName plan feeRate billingStatus notifyOrders createdAt } }`, nil},
	{"empty page", `{ viewer { listings(first: 0) { edges { cursor } pageInfo { hasNextPage endCursor } } } }`, nil},
}

func TestFastPathSameBytes(t *testing.T) {
	root := &fakeRoot{listings: fakeListings(100)}
	h, seen := fastServer(root)
	// Null checks: a non-null field without a value takes gqlgen's path
	// (the error and the null propagation are its own).
	broken := &fakeRoot{listings: fakeListings(10)}
	broken.listings[7].CreatedAt = time.Time{}
	broken.listings[8].Readiness = nil
	broken.listings[9].CheckoutSchema = []*model.CheckoutField{nil}
	hb, _ := fastServer(broken)
	type tc struct {
		name    string
		h       http.Handler
		query   string
		vars    map[string]any
		wantErr bool
	}
	var cases []tc
	for _, c := range fastCases {
		cases = append(cases, tc{c.name, h, c.query, c.vars, false})
	}
	cases = append(cases,
		tc{"non-null time missing", hb, `{ viewer { listings(first: 10) { edges { node { id createdAt } } } } }`, nil, true},
		tc{"non-null object missing", hb, `{ viewer { listings(first: 10) { edges { node { id readiness { sellable } } } } } }`, nil, true},
		tc{"non-null element missing", hb, `{ viewer { listings(first: 10) { edges { node { id checkoutSchema { key } } } } } }`, nil, true},
		tc{"nothing missing", hb, `{ viewer { listings(first: 7) { edges { node { id createdAt readiness { sellable } } } } } }`, nil, false},
		// Introspection's objects are written directly too (their
		// argument-free methods are plain), and a selection holding a
		// field with arguments (fields, enumValues) falls back whole.
		tc{"introspection", h, `{ __schema { queryType { name } mutationType { name } subscriptionType { name }
			types { kind name description specifiedByURL isOneOf fields(includeDeprecated: true) { name description isDeprecated deprecationReason
				args { name description defaultValue type { kind name ofType { kind name ofType { kind name } } } }
				type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } }
				inputFields { name defaultValue type { kind name ofType { kind name } } } interfaces { name } possibleTypes { name }
				enumValues(includeDeprecated: true) { name isDeprecated deprecationReason } }
			directives { name description locations isRepeatable args { name type { kind name } } } } }`, nil, false},
		tc{"introspection, plain fields only", h, `{ __type(name: "Listing") { kind name description specifiedByURL isOneOf interfaces { name kind } } }`, nil, false},
	)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fastDisabled.Store(true)
			want := post(t, c.h, c.query, c.vars)
			fastDisabled.Store(false)
			got := post(t, c.h, c.query, c.vars)
			if !bytes.Equal(got, want) {
				t.Errorf("direct path:\n%s\ngenerated path:\n%s", got, want)
			}
			if bytes.Contains(want, []byte(`"errors"`)) != c.wantErr {
				t.Errorf("errors: %s", want)
			}
		})
	}
	// The direct path ran: the listings' plain fields skipped ResolveField.
	seen.Clear()
	post(t, h, fastCases[0].query, fastCases[0].vars)
	if n := count(seen, "Listing.title"); n != 0 {
		t.Errorf("Listing.title went through ResolveField %d times, want 0", n)
	}
	if n := count(seen, "Account.listings"); n != 1 {
		t.Errorf("Account.listings went through ResolveField %d times, want 1", n)
	}
	// A model's argument-free method (Listing.readiness is GraphQLReadiness)
	// is written directly as well.
	seen.Clear()
	post(t, h, `{ viewer { listings(first: 5) { edges { node { id readiness { sellable next } } } } } }`, nil)
	if n := count(seen, "Listing.readiness"); n != 0 {
		t.Errorf("Listing.readiness went through ResolveField %d times, want 0", n)
	}
	// Beside a resolver field, the plain fields still skip it.
	seen.Clear()
	post(t, h, `{ viewer { listings(first: 5) { edges { node { id title deliverables { id } } } } } }`, nil)
	if n, d := count(seen, "Listing.title"), count(seen, "Listing.deliverables"); n != 0 || d != 5 {
		t.Errorf("Listing.title through ResolveField %d times, want 0; Listing.deliverables %d, want 5", n, d)
	}
}

// A field excluded (as server/graphql_limits.go excludes every field it
// charges) keeps going through ResolveField, so through the interceptors.
func TestFastPathExcluded(t *testing.T) {
	root := &fakeRoot{listings: fakeListings(10)}
	h, seen := fastServer(root)
	q := `{ viewer { listings(first: 10) { edges { node { id title } } } } }`
	fast := post(t, h, q, nil)
	if n := count(seen, "Listing.title"); n != 0 {
		t.Fatalf("Listing.title through ResolveField %d times before the exclusion, want 0", n)
	}
	q2 := `{ viewer { listings(first: 10) { edges { node { id title reviews { count } } } } } }`
	fast2 := post(t, h, q2, nil)
	if n := count(seen, "Listing.title"); n != 0 {
		t.Fatalf("Listing.title beside a resolver through ResolveField %d times before the exclusion, want 0", n)
	}
	old := excluded.Load()
	t.Cleanup(func() { excluded.Store(old) })
	ExcludeFromFastPath("Listing.title")
	if !FastPathExcluded("Listing", "title") || FastPathExcluded("Listing", "id") || FastPathExcluded("Review", "title") {
		t.Fatal("FastPathExcluded does not report the exclusion")
	}
	seen.Clear()
	slow := post(t, h, q, nil)
	if n := count(seen, "Listing.title"); n != 10 {
		t.Errorf("excluded Listing.title through ResolveField %d times, want 10", n)
	}
	if !bytes.Equal(fast, slow) {
		t.Errorf("%s\n!=\n%s", fast, slow)
	}
	seen.Clear()
	slow2 := post(t, h, q2, nil)
	if n := count(seen, "Listing.title"); n != 10 {
		t.Errorf("excluded Listing.title beside a resolver through ResolveField %d times, want 10", n)
	}
	if !bytes.Equal(fast2, slow2) {
		t.Errorf("%s\n!=\n%s", fast2, slow2)
	}
}

// fastBuf's writers against the graphql marshallers they replace.
func TestFastWritersMatchGraphQL(t *testing.T) {
	gql := func(m graphql.Marshaler) string {
		var b bytes.Buffer
		m.MarshalGQL(&b)
		return b.String()
	}
	var strs []string
	for c := 0; c < 256; c++ {
		strs = append(strs, string(rune(c)), "a"+string([]byte{byte(c)})+"b")
	}
	strs = append(strs, "", "plain", "é\u2028\u2029😀", "\xff\xfe\"\\", "a\x00b", strings.Repeat("x\"", 50))
	for _, s := range strs {
		var b fastBuf
		b.str(s)
		if got, want := b.String(), gql(graphql.MarshalString(s)); got != want {
			t.Errorf("str(%q) = %s, want %s", s, got, want)
		}
		if got, want := string(fastKey(s)), gql(graphql.MarshalString(s))+":"; got != want {
			t.Errorf("fastKey(%q) = %s, want %s", s, got, want)
		}
	}
	for _, i := range []int64{0, 1, -1, 42, 1 << 53, -1 << 63, 1<<63 - 1} {
		var b fastBuf
		b.int(i)
		if got, want := b.String(), gql(graphql.MarshalInt64(i)); got != want {
			t.Errorf("int(%d) = %s, want %s", i, got, want)
		}
	}
	for _, v := range []bool{true, false} {
		var b fastBuf
		b.bool(v)
		if got, want := b.String(), gql(graphql.MarshalBoolean(v)); got != want {
			t.Errorf("bool(%t) = %s, want %s", v, got, want)
		}
	}
	for _, tm := range []time.Time{time.Unix(0, 1).UTC(), time.Date(2026, 11, 26, 18, 0, 0, 123456789, time.FixedZone("", -9000)), time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC), time.Now()} {
		var b fastBuf
		b.time(tm)
		if got, want := b.String(), gql(graphql.MarshalTime(tm)); got != want {
			t.Errorf("time(%v) = %s, want %s", tm, got, want)
		}
	}
}
