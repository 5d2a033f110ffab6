package rest_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

// introspectionQuery reads every type with its fields, arguments, input
// fields and enum values, with their descriptions.
const introspectionQuery = `{
  __schema {
    directives { name description args { name description } }
    types {
      name kind description
      fields(includeDeprecated: true) { name description args { name description } type { ...T } }
      inputFields { name description type { ...T } }
      enumValues(includeDeprecated: true) { name description }
      interfaces { name }
      possibleTypes { name }
    }
  }
}
fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name } } } }`

type introType struct {
	Name          string       `json:"name"`
	Kind          string       `json:"kind"`
	Description   *string      `json:"description"`
	Fields        []introField `json:"fields"`
	InputFields   []introField `json:"inputFields"`
	EnumValues    []introValue `json:"enumValues"`
	Interfaces    []introValue `json:"interfaces"`
	PossibleTypes []introValue `json:"possibleTypes"`
}

type introField struct {
	Name        string       `json:"name"`
	Description *string      `json:"description"`
	Args        []introValue `json:"args"`
	Type        *introRef    `json:"type"`
}

type introValue struct {
	Name        string  `json:"name"`
	Description *string `json:"description"`
}

type introRef struct {
	Kind   string    `json:"kind"`
	Name   *string   `json:"name"`
	OfType *introRef `json:"ofType"`
}

// named is the named type under NON_NULL and LIST wrappers.
func (r *introRef) named() *introRef {
	for r.OfType != nil {
		r = r.OfType
	}
	return r
}

func (r *introRef) isList() bool {
	for ; r != nil; r = r.OfType {
		if r.Kind == "LIST" {
			return true
		}
	}
	return false
}

type introSchema struct {
	types map[string]introType
}

func introspect(t *testing.T, env *testkit.Env) introSchema {
	t.Helper()
	res := gql(t, env, "", introspectionQuery, nil)
	require.Empty(t, res.Errors)
	var d struct {
		Schema struct {
			Directives []struct {
				Name        string       `json:"name"`
				Description *string      `json:"description"`
				Args        []introValue `json:"args"`
			} `json:"directives"`
			Types []introType `json:"types"`
		} `json:"__schema"`
	}
	require.NoError(t, json.Unmarshal(res.Data, &d))
	s := introSchema{types: map[string]introType{}}
	for _, ty := range d.Schema.Types {
		s.types[ty.Name] = ty
	}
	for _, dir := range d.Schema.Directives {
		if dir.Name == "goField" {
			require.NotEmpty(t, deref(dir.Description), "directive @goField has no description")
			for _, a := range dir.Args {
				require.NotEmpty(t, deref(a.Description), "argument %s of @goField has no description", a.Name)
			}
		}
	}
	return s
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// Every type, field, argument, input field and enum value of the schema has
// a description; the closed sets are enums; Node is implemented by every
// account resource.
func TestGraphQLSchemaIsDescribedAndTyped(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	s := introspect(t, env)

	var missing []string
	for name, ty := range s.types {
		if strings.HasPrefix(name, "__") || (ty.Kind == "SCALAR" && builtinScalar(name)) {
			continue
		}
		if deref(ty.Description) == "" {
			missing = append(missing, "type "+name)
		}
		for _, f := range ty.Fields {
			if deref(f.Description) == "" {
				missing = append(missing, "field "+name+"."+f.Name)
			}
			for _, a := range f.Args {
				if deref(a.Description) == "" {
					missing = append(missing, "argument "+name+"."+f.Name+"("+a.Name+")")
				}
			}
		}
		for _, f := range ty.InputFields {
			if deref(f.Description) == "" {
				missing = append(missing, "input field "+name+"."+f.Name)
			}
		}
		for _, v := range ty.EnumValues {
			if deref(v.Description) == "" {
				missing = append(missing, "enum value "+name+"."+v.Name)
			}
		}
	}
	sort.Strings(missing)
	require.Empty(t, missing, "undescribed schema elements")

	// Closed sets are enums, UPPER_CASE.
	enumOf := map[string]string{
		"Listing.status": "ListingStatus", "Listing.coverBlur": "CoverBlur", "Listing.fulfillment": "Fulfillment",
		"Listing.externalDelivery": "ExternalDelivery", "Deliverable.type": "DeliverableType", "CheckoutField.kind": "CheckoutFieldKind",
		"Order.status": "OrderStatus", "Order.paymentStatus": "PaymentStatus", "Order.contentType": "OrderContentType",
		"Order.disputeStatus": "DisputeStatus", "Account.plan": "PlanId", "Account.billingStatus": "BillingStatus",
		"ProcessorStatus.status": "ProcessorConnectionStatus", "Action.code": "ActionCode", "Action.kind": "ActionKind",
		"Action.priority": "ActionPriority", "ActionResolve.method": "ResolveMethod", "ApiKey.scope": "ApiKeyScope",
		"WebhookEndpoint.events": "EventType", "WebhookEndpoint.status": "WebhookStatus",
		"WebhookEndpoint.disabledReason": "WebhookDisabledReason", "WebhookEvent.status": "WebhookDeliveryStatus",
		"Event.type": "EventType", "File.purpose": "FilePurpose", "Plan.id": "PlanId", "BootstrapSession.status": "BootstrapStatus",
		"AccountReadiness.next": "ActionCode", "ListingReadiness.next": "ActionCode", "OrderReadiness.next": "ActionCode",
		"Discount.type": "DiscountType", "Discount.status": "DiscountStatus", "DiscountReadiness.next": "ActionCode",
		"Listing.billing": "ListingBilling", "Listing.interval": "MembershipInterval", "Membership.status": "MembershipStatus",
		"Membership.interval": "MembershipInterval", "Membership.endedReason": "MembershipEndedReason", "Order.billingReason": "BillingReason",
	}
	for path, enum := range enumOf {
		typ, field, _ := strings.Cut(path, ".")
		f := fieldOf(t, s.types[typ], field)
		require.Equal(t, "ENUM", f.Type.named().Kind, "%s", path)
		require.Equal(t, enum, *f.Type.named().Name, "%s", path)
		for _, v := range s.types[enum].EnumValues {
			require.Equal(t, strings.ToUpper(v.Name), v.Name, "%s.%s", enum, v.Name)
		}
	}
	var events []string
	for _, v := range s.types["EventType"].EnumValues {
		events = append(events, v.Name)
	}
	require.ElementsMatch(t, []string{"ORDER_PAID", "ORDER_FULFILLED", "ORDER_REFUNDED", "ORDER_DISPUTED", "ORDER_DISPUTE_CLOSED", "ORDER_CANCELED",
		"LICENSE_KEY_ACTIVATED", "LICENSE_KEY_DEACTIVATED", "MEMBERSHIP_CREATED", "MEMBERSHIP_RENEWED", "MEMBERSHIP_PAYMENT_FAILED",
		"MEMBERSHIP_CANCELED", "MEMBERSHIP_RESUMED", "MEMBERSHIP_ENDED"}, events)

	// Node and its implementations.
	var nodes []string
	for _, p := range s.types["Node"].PossibleTypes {
		nodes = append(nodes, p.Name)
	}
	require.ElementsMatch(t, []string{"Account", "Listing", "Deliverable", "Order", "Customer", "WebhookEndpoint", "Event", "ApiKey", "File", "Review", "Discount",
		"LicenseKey", "Membership", "AgentConnection"}, nodes)
	for _, q := range []string{"node", "nodes"} {
		fieldOf(t, s.types["Query"], q)
	}
	var pageInfo []string
	for _, f := range s.types["PageInfo"].Fields {
		pageInfo = append(pageInfo, f.Name)
	}
	require.ElementsMatch(t, []string{"hasNextPage", "endCursor", "hasPreviousPage", "startCursor"}, pageInfo)

	// Every list of the account is a connection.
	for _, f := range s.types["Account"].Fields {
		if f.Type.isList() {
			t.Errorf("Account.%s is a plain list, not a connection", f.Name)
		}
		if strings.HasSuffix(*f.Type.named().Name, "Connection") {
			require.NotNil(t, argOf(f, "first"), "Account.%s has no first", f.Name)
			require.NotNil(t, argOf(f, "after"), "Account.%s has no after", f.Name)
		}
	}
	for _, q := range s.types["Query"].Fields {
		require.False(t, q.Type.isList() && *q.Type.named().Name != "Plan" && q.Name != "nodes", "Query.%s is a plain list", q.Name)
	}
}

func builtinScalar(name string) bool {
	switch name {
	case "String", "Int", "Float", "Boolean", "ID":
		return true
	}
	return false
}

func fieldOf(t *testing.T, ty introType, name string) introField {
	t.Helper()
	for _, f := range ty.Fields {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no field %s.%s", ty.Name, name)
	return introField{}
}

func argOf(f introField, name string) *introValue {
	for _, a := range f.Args {
		if a.Name == name {
			return &a
		}
	}
	return nil
}

// Bootstrap through GraphQL alone yields a working key.
func TestGraphQLBootstrap(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	email := uniqueEmail("gql-bootstrap")

	res := gql(t, env, "", `mutation($e: String!) { startBootstrap(input: {email: $e}) { object sessionId email status expiresAt } }`,
		map[string]any{"e": email})
	require.Empty(t, res.Errors)
	var start struct {
		StartBootstrap struct{ Object, SessionID, Email, Status string } `json:"startBootstrap"`
	}
	require.NoError(t, json.Unmarshal(res.Data, &start))
	require.Equal(t, "bootstrap_session", start.StartBootstrap.Object)
	require.Equal(t, "PENDING", start.StartBootstrap.Status)
	sid := start.StartBootstrap.SessionID

	res = gql(t, env, "", `mutation($s: ID!, $c: String!) { verifyBootstrap(input: {sessionId: $s, code: $c}) { status accountId accountCreated } }`,
		map[string]any{"s": sid, "c": mailboxPasscode(t, env, email)})
	require.Empty(t, res.Errors)
	var verify struct {
		VerifyBootstrap struct {
			Status         string
			AccountID      string
			AccountCreated bool
		} `json:"verifyBootstrap"`
	}
	require.NoError(t, json.Unmarshal(res.Data, &verify))
	require.Equal(t, "VERIFIED", verify.VerifyBootstrap.Status)
	require.True(t, verify.VerifyBootstrap.AccountCreated)

	res = gql(t, env, "", `mutation($s: ID!) { completeBootstrap(input: {sessionId: $s, displayName: "GraphQL Shop"}) { object id displayName slug apiKey readiness { operational next } } }`,
		map[string]any{"s": sid})
	require.Empty(t, res.Errors)
	var done struct {
		CompleteBootstrap struct {
			Object, ID, DisplayName, Slug, APIKey string
			Readiness                             struct {
				Operational bool
				Next        string
			}
		} `json:"completeBootstrap"`
	}
	require.NoError(t, json.Unmarshal(res.Data, &done))
	require.Equal(t, verify.VerifyBootstrap.AccountID, done.CompleteBootstrap.ID)
	require.Equal(t, "CONNECT_STRIPE", done.CompleteBootstrap.Readiness.Next)
	require.True(t, strings.HasPrefix(done.CompleteBootstrap.APIKey, "svc_"))

	// The key works, for GraphQL and REST alike.
	res = gql(t, env, done.CompleteBootstrap.APIKey, `{ viewer { id email plan billingStatus processor { status } } }`, nil)
	require.Empty(t, res.Errors)
	require.JSONEq(t, fmt.Sprintf(`{"viewer":{"id":%q,"email":%q,"plan":"FREE","billingStatus":"ACTIVE","processor":{"status":"NOT_CONNECTED"}}}`,
		done.CompleteBootstrap.ID, email), string(res.Data))
	require.Equal(t, 200, env.Get("/v1/account", done.CompleteBootstrap.APIKey).Status)

	// Ping and self-revoke.
	res = gql(t, env, "", `{ ping { object ok version time } }`, nil)
	require.Empty(t, res.Errors)
	require.Contains(t, string(res.Data), `"ok":true`)
	res = gql(t, env, done.CompleteBootstrap.APIKey, `mutation { selfRevokeApiKey }`, nil)
	require.Empty(t, res.Errors)
	require.JSONEq(t, `{"selfRevokeApiKey":true}`, string(res.Data))
	require.Equal(t, 401, env.Get("/v1/account", done.CompleteBootstrap.APIKey).Status)
}

// node and nodes resolve the caller's resources by id, and another
// account's as null.
func TestGraphQLNode(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc, other := env.NewAccount(), env.NewAccount()
	lst := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Node book", "price": 900,
		"deliverables": []any{map[string]any{"type": "text", "value": "hello"}}}).JSON(t)
	otherLst := env.Post("/v1/listings", other.Key, map[string]any{"title": "Not yours", "price": 900}).JSON(t)
	del := lst["deliverables"].([]any)[0].(map[string]any)["id"].(string)
	key := env.Post("/v1/api-keys", acc.Key, map[string]any{"name": "second"}).JSON(t)
	token := uploadToken(t, env, acc.Key, "cover", "c.png", pngBytes)

	q := `query($ids: [ID!]!, $id: ID!) {
	  node(id: $id) { __typename id ... on Listing { title status } }
	  nodes(ids: $ids) { __typename id }
	}`
	res := gql(t, env, acc.Key, q, map[string]any{"id": lst["id"], "ids": []string{
		acc.ID, lst["id"].(string), del, key["id"].(string), token, otherLst["id"].(string), other.ID, "lst_nonsense", "zzz"}})
	require.Empty(t, res.Errors)
	require.JSONEq(t, fmt.Sprintf(`{
	  "node": {"__typename":"Listing","id":%q,"title":"Node book","status":"DRAFT"},
	  "nodes": [
	    {"__typename":"Account","id":%q},
	    {"__typename":"Listing","id":%q},
	    {"__typename":"Deliverable","id":%q},
	    {"__typename":"ApiKey","id":%q},
	    {"__typename":"File","id":%q},
	    null, null, null, null
	  ]}`, lst["id"], acc.ID, lst["id"], del, key["id"], token), string(res.Data))

	// Another account's listing through node is null, not an error.
	res = gql(t, env, other.Key, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": lst["id"]})
	require.Empty(t, res.Errors)
	require.JSONEq(t, `{"node":null}`, string(res.Data))

	// More than 100 ids is refused.
	ids := make([]string, 101)
	for i := range ids {
		ids[i] = lst["id"].(string)
	}
	res = gql(t, env, acc.Key, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, map[string]any{"ids": ids})
	require.NotEmpty(t, res.Errors)
	require.Equal(t, "validation_error", res.Errors[0]["extensions"].(map[string]any)["code"])
}

// pageInfo carries both ends of the page.
func TestGraphQLPageInfo(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	for i := range 3 {
		require.Equal(t, 201, env.Post("/v1/api-keys", acc.Key, map[string]any{"name": fmt.Sprintf("k%d", i)}).Status)
	}
	type page struct {
		Viewer struct {
			APIKeys struct {
				Edges []struct {
					Cursor string
					Node   struct{ ID, Scope string }
				}
				PageInfo struct {
					HasNextPage, HasPreviousPage bool
					StartCursor, EndCursor       *string
				}
			} `json:"apiKeys"`
		}
	}
	q := `query($after: String) { viewer { apiKeys(first: 2, after: $after) { edges { cursor node { id scope } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`
	var p1, p2 page
	res := gql(t, env, acc.Key, q, nil)
	require.Empty(t, res.Errors)
	require.NoError(t, json.Unmarshal(res.Data, &p1))
	k := p1.Viewer.APIKeys
	require.Len(t, k.Edges, 2)
	require.True(t, k.PageInfo.HasNextPage)
	require.False(t, k.PageInfo.HasPreviousPage)
	require.Equal(t, k.Edges[0].Cursor, *k.PageInfo.StartCursor)
	require.Equal(t, k.Edges[1].Cursor, *k.PageInfo.EndCursor)
	require.Equal(t, "FULL", k.Edges[0].Node.Scope)

	res = gql(t, env, acc.Key, q, map[string]any{"after": *k.PageInfo.EndCursor})
	require.Empty(t, res.Errors)
	require.NoError(t, json.Unmarshal(res.Data, &p2))
	k2 := p2.Viewer.APIKeys
	require.Len(t, k2.Edges, 2) // three created plus the account's own key
	require.False(t, k2.PageInfo.HasNextPage)
	require.True(t, k2.PageInfo.HasPreviousPage)
	require.NotEqual(t, k.Edges[1].Node.ID, k2.Edges[0].Node.ID)

	// The same keys, in the same order, as REST.
	rest := env.Get("/v1/api-keys?limit=4", acc.Key).JSON(t)["data"].([]any)
	require.Len(t, rest, 4)
	require.Equal(t, rest[0].(map[string]any)["id"], k.Edges[0].Node.ID)
	require.Equal(t, rest[3].(map[string]any)["id"], k2.Edges[1].Node.ID)
}

// The cost model admits the whole readiness graph in one operation and
// refuses many large pages.
func TestGraphQLCostLimit(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	res := gql(t, env, acc.Key, readinessGraphQuery, nil)
	require.Empty(t, res.Errors)
	require.Contains(t, string(res.Data), `"readiness"`)

	var b strings.Builder
	b.WriteString("{ viewer {")
	for i := range 20 {
		fmt.Fprintf(&b, " o%d: orders(first: 100) { edges { node { id } } }", i)
	}
	b.WriteString(" } }")
	res = gql(t, env, acc.Key, b.String(), nil)
	require.Len(t, res.Errors, 1)
	ext := res.Errors[0]["extensions"].(map[string]any)
	require.Equal(t, "invalid_request", ext["code"])
	require.Equal(t, float64(2000), ext["max_complexity"])
	require.Equal(t, float64(20*(1+100*2)+1), ext["complexity"])
	require.Contains(t, []string{"", "null"}, string(res.Data))
}

// readinessGraphQuery is everything an agent reads to decide what to do: the
// account's readiness, 100 listings and 100 orders with theirs.
const readinessGraphQuery = `{
  viewer {
    id readiness { operational next actions { code kind priority message resolve { method endpoint url params } } }
    stats { totalRevenue totalOrders totalListings }
    listings(first: 100) {
      edges { node { id title status slug url fulfillment
        readiness { sellable next actions { code kind priority message resolve { method endpoint url params } } } } }
      pageInfo { hasNextPage endCursor }
    }
    orders(first: 100) {
      edges { node { id status contentType listingId
        readiness { next actions { code kind priority message resolve { method endpoint url params } } } } }
      pageInfo { hasNextPage endCursor }
    }
  }
}`

// A listing and an order read through REST and through GraphQL agree field
// by field, for every field the GraphQL type has.
func TestGraphQLAndRESTAgreeFieldByField(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers())
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	s := introspect(t, env)

	cover := uploadToken(t, env, acc.Key, "cover", "cover.png", pngBytes)
	lst := publishedListing(t, env, acc.Key, map[string]any{
		"title": "Agreement", "price": 1500, "description": "Every field", "cover": cover, "cover_blur": "false",
		"deliverables":    []any{map[string]any{"type": "text", "value": "the content"}},
		"checkout_schema": []any{map[string]any{"key": "size", "label": "Size", "kind": "select", "required": true, "options": []string{"S", "M"}}},
		"utm_source":      "newsletter", "metadata": map[string]any{"sku": "A-1"},
	})
	orderID, _ := buy(t, env, lst["slug"].(string), url.Values{"email": {"agree@example.com"}, "size": {"M"}}, "paid")

	for _, c := range []struct{ typ, query, id, path string }{
		{"Listing", "listing", lst["id"].(string), "/v1/listings/"},
		{"Order", "order", orderID, "/v1/orders/"},
	} {
		ty := s.types[c.typ]
		sel := selection(s, ty, 0)
		res := gql(t, env, acc.Key, fmt.Sprintf(`query($id: ID!) { x: %s(id: $id) %s }`, c.query, sel), map[string]any{"id": c.id})
		require.Empty(t, res.Errors, "%s", sel)
		var g struct{ X map[string]any }
		require.NoError(t, json.Unmarshal(res.Data, &g))
		rest := env.Get(c.path+c.id, acc.Key).JSON(t)
		for _, f := range ty.Fields {
			t.Run(c.typ+"."+f.Name, func(t *testing.T) {
				if graphQLOnly[c.typ+"."+f.Name] {
					return
				}
				key := snakeName(f.Name)
				rv, ok := rest[key]
				require.True(t, ok, "REST has no %s", key)
				gv, selected := g.X[f.Name]
				require.True(t, selected, "GraphQL did not return %s", f.Name)
				agree(t, s, f.Type, gv, rv, c.typ+"."+f.Name)
			})
		}
	}
}

// graphQLOnly are fields that link to other resources in the graph; REST
// gives their ids instead.
var graphQLOnly = map[string]bool{"Order.listing": true, "Order.customer": true,
	"Listing.allReviews": true, // REST: GET /v1/listings/{id}/reviews
	"Order.membership":   true} // REST: membership_id, and GET /v1/memberships/{id}

// selection selects every field of ty, recursively (arguments omitted).
func selection(s introSchema, ty introType, depth int) string {
	var b strings.Builder
	b.WriteString("{")
	for _, f := range ty.Fields {
		if graphQLOnly[ty.Name+"."+f.Name] {
			continue
		}
		b.WriteString(" " + f.Name)
		n := f.Type.named()
		if n.Kind == "OBJECT" || n.Kind == "INTERFACE" {
			b.WriteString(" " + selection(s, s.types[*n.Name], depth+1))
		}
	}
	b.WriteString(" }")
	return b.String()
}

func snakeName(s string) string {
	var b strings.Builder
	for _, c := range s {
		if c >= 'A' && c <= 'Z' {
			b.WriteByte('_')
			c += 'a' - 'A'
		}
		b.WriteRune(c)
	}
	return b.String()
}

// agree compares a GraphQL value with the REST value of the same field,
// knowing the GraphQL type: enums are UPPER_CASE of REST's strings, objects
// compare field by field under snake_case names, Map values as they are.
func agree(t *testing.T, s introSchema, typ *introRef, g, r any, path string) {
	t.Helper()
	n := typ.named()
	if g == nil || r == nil {
		require.Equal(t, r == nil, g == nil, "%s: REST %v, GraphQL %v", path, r, g)
		return
	}
	if typ.isList() {
		gl, rl := g.([]any), r.([]any)
		require.Len(t, gl, len(rl), path)
		inner := typ
		for inner.Kind != "LIST" {
			inner = inner.OfType
		}
		for i := range gl {
			agree(t, s, inner.OfType, gl[i], rl[i], fmt.Sprintf("%s[%d]", path, i))
		}
		return
	}
	switch n.Kind {
	case "ENUM":
		require.Equal(t, strings.ToUpper(strings.ReplaceAll(r.(string), ".", "_")), g, path)
	case "OBJECT":
		gm, rm := g.(map[string]any), r.(map[string]any)
		for _, f := range s.types[*n.Name].Fields {
			gv, selected := gm[f.Name]
			if graphQLOnly[*n.Name+"."+f.Name] || !selected {
				continue
			}
			rv, ok := rm[snakeName(f.Name)]
			require.True(t, ok, "%s: REST has no %s", path, snakeName(f.Name))
			agree(t, s, f.Type, gv, rv, path+"."+f.Name)
		}
	default:
		require.Equal(t, r, g, path)
	}
}

// objectRef is the type reference of a named object type.
func objectRef(name string) *introRef { return &introRef{Kind: "OBJECT", Name: &name} }
