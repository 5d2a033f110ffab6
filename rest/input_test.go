package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/processor/sandbox"
	"commerce/rest"
	"commerce/testkit"
)

// exampleBodies is a JSON body for every route of the table that takes one,
// with every string field the route accepts (map keys included). A route of
// the table must be here or in routesWithoutJSONBody.
var exampleBodies = map[string]map[string]any{
	"POST /v1/bootstrap":        {"email": "seller@example.com"},
	"POST /v1/bootstrap/verify": {"session_id": "bss_x", "code": "123456"},
	"POST /v1/bootstrap/store":  {"session_id": "bss_x", "display_name": "Shop", "slug": "shop"},
	"POST /v1/api-keys":         {"name": "ci", "scope": "full", "expires_at": "2030-01-01T00:00:00Z"},
	"PUT /v1/account": {"ga_measurement_id": "G-ABCDEFGHIJ", "display_name": "Ann", "processor_test_key": "sk_test_x",
		"notify_orders": true},
	"PUT /v1/store":                    {"display_name": "Ann", "bio": "Hello", "avatar": "file_x", "slug": "ann"},
	"POST /v1/account/plan":            {"plan": "growth"},
	"POST /v1/webhooks":                {"url": "https://example.com/hook", "name": "hook", "events": []any{"order.paid"}},
	"POST /v1/agent-connections":       {"name": "Platform", "webhook_url": "https://example.com/acp"},
	"PATCH /v1/agent-connections/{id}": {"name": "Platform", "webhook_url": "https://example.com/acp", "status": "disabled"},
	"PUT /v1/webhooks/{id}": {"url": "https://example.com/hook", "name": "hook", "events": []any{"order.paid"},
		"status": "enabled"},
	"POST /v1/orders/{id}/fulfill": {"note": "thanks", "deliverables": []any{
		map[string]any{"type": "text", "value": "hello"}, map[string]any{"type": "file", "token": "file_x"}}},
	"POST /v1/listings": {"title": "Guide", "price": 100, "description": "A guide", "slug": "guide", "cover": "file_x",
		"cover_blur": "none", "utm_source": "s", "utm_medium": "m", "utm_campaign": "c", "external_delivery": "generated",
		"metadata":        map[string]any{"key": "value", "list": []any{"item"}, "nested": map[string]any{"inner": "v"}},
		"deliverables":    []any{map[string]any{"type": "url", "value": "https://example.com/x"}},
		"license":         map[string]any{"key_prefix": "APP", "activation_limit": 3},
		"access":          map[string]any{"download_limit": 3, "access_days": 30},
		"checkout_schema": []any{map[string]any{"key": "size", "label": "Size", "kind": "select", "options": []any{"S", "M"}}}},
	"PUT /v1/listings/{id}": {"title": "Guide", "price": 100, "description": "A guide", "slug": "guide", "cover": "file_x",
		"cover_blur": "none", "utm_source": "s", "utm_medium": "m", "utm_campaign": "c", "external_delivery": "generated",
		"status":          "paused",
		"metadata":        map[string]any{"key": "value"},
		"license":         map[string]any{"key_prefix": "APP"},
		"access":          map[string]any{"download_limit": 3},
		"checkout_schema": []any{map[string]any{"key": "size", "label": "Size", "kind": "select", "options": []any{"S", "M"}}}},
	"POST /v1/discounts": {"name": "Summer", "code": "SUMMER", "type": "percentage", "starts_at": "2030-01-01T00:00:00Z",
		"expires_at": "2030-02-01T00:00:00Z", "listing_ids": []any{"lst_x"}, "metadata": map[string]any{"key": "value"}},
	"PUT /v1/discounts/{id}": {"name": "Summer", "code": "SUMMER", "type": "fixed", "status": "disabled",
		"expires_at": "2030-02-01T00:00:00Z", "listing_ids": []any{"lst_x"}, "metadata": map[string]any{"key": "value"}},
	"PUT /v1/license-keys/{id}":           {"status": "disabled", "activation_limit": 2, "expires_at": "2030-02-01T00:00:00Z"},
	"PUT /v1/listings/{id}/deliverables":  {"deliverables": []any{map[string]any{"type": "text", "value": "hi"}, map[string]any{"type": "file", "token": "file_x"}}},
	"POST /v1/listings/{id}/deliverables": {"type": "text", "value": "hi", "token": "file_x"},
	"POST /v1/checkouts": {"listing_id": "lst_x", "buyer_email": "buyer@example.com", "discount_code": "SAVE10",
		"checkout_data": map[string]any{"size": "M", "ship": map[string]any{"line1": "1 Main St", "city": "Springfield"}}},
	"POST /v1/licenses/activate": {"key": "APP-7K3QW-9XH2M-D4RT8-VB6NC", "fingerprint": "machine-1", "label": "Desk",
		"metadata": map[string]any{"os": "linux"}, "listing_id": "lst_x"},
	"POST /v1/licenses/validate":   {"key": "APP-7K3QW-9XH2M-D4RT8-VB6NC", "fingerprint": "machine-1", "listing_id": "lst_x"},
	"POST /v1/licenses/deactivate": {"key": "APP-7K3QW-9XH2M-D4RT8-VB6NC", "fingerprint": "machine-1", "activation_id": "act_x"},
}

// routesWithoutJSONBody are the routes of the table that read no JSON body.
var routesWithoutJSONBody = map[string]string{
	"POST /v1/files":                                   "multipart (TestInputBoundaryUpload)",
	"POST /v1/processor/webhook":                       "signed by the processor",
	"POST /v1/processor/webhook/accounts/{account_id}": "signed by the seller's test account",
	"POST /v1/api-keys/self-revoke":                    "no body",
	"POST /v1/account/processor/connect":               "no body",
	"POST /v1/orders/{id}/redeliver":                   "no body",
	"POST /v1/customers/{id}/portal-link":              "no body",
	"POST /v1/orders/{id}/refund":                      "no body",
	"POST /v1/orders/{id}/access/reset":                "an optional body of one integer, extend_days: no string to refuse (TestResetOrderAccess)",
	"POST /v1/webhooks/{id}/test":                      "no body",
	"POST /v1/listings/{id}/publish":                   "no body",
	"POST /v1/webhooks/{id}/events/{event_id}/retry":   "no body",
	"POST /v1/memberships/{id}/cancel":                 "an optional body of one boolean, at_period_end: no string to refuse (TestMembershipCancelAndResume)",
	"POST /v1/memberships/{id}/resume":                 "no body",
}

// pathIDPrefix is the id prefix of each path parameter, by name and the
// segment before it.
func pathIDPrefix(t *testing.T, path, param string) string {
	segs := strings.Split(path, "/")
	for i, s := range segs {
		if s == "{"+param+"}" {
			switch segs[i-1] {
			case "api-keys":
				return "key"
			case "customers":
				return "cus"
			case "orders":
				return "ord"
			case "webhooks":
				return "wh"
			case "events":
				return "evt"
			case "listings":
				return "lst"
			case "deliverables":
				return "del"
			case "accounts":
				return "acc"
			case "discounts":
				return "dsc"
			case "license-keys":
				return "lic"
			case "activations":
				return "act"
			case "memberships":
				return "mem"
			case "agent-connections":
				return "acn"
			}
		}
	}
	t.Fatalf("%s: no id prefix known for {%s}", path, param)
	return ""
}

// fillPath replaces every {param} of a route path: the one named bad by
// value (already escaped), the others by well-formed ids of nothing.
// paidOrder is a paid order of a generated listing of the key's account.
func paidOrder(t *testing.T, env *testkit.Env, key string) string {
	t.Helper()
	connectSandbox(t, env, key)
	l := publishedListing(t, env, key, map[string]any{"title": "Paid " + testkit.Unique(), "price": 100, "external_delivery": "generated"})
	id := startCheckout(t, env, l["slug"].(string), url.Values{"email": {uniqueEmail("paid")}})
	require.NoError(t, env.Server.Resolver.ApplyProcessorEvent(context.Background(), sandbox.PaymentSucceeded(id, 100, "usd")))
	return id
}

func fillPath(t *testing.T, path, bad, value string) string {
	out := path
	for _, seg := range strings.Split(path, "/") {
		if !strings.HasPrefix(seg, "{") {
			continue
		}
		name := strings.Trim(seg, "{}")
		v := db.NewID(pathIDPrefix(t, path, name))
		if name == bad {
			v = value
		}
		out = strings.Replace(out, seg, v, 1)
	}
	return out
}

func pathParams(path string) []string {
	var out []string
	for _, seg := range strings.Split(path, "/") {
		if strings.HasPrefix(seg, "{") {
			out = append(out, strings.Trim(seg, "{}"))
		}
	}
	return out
}

// stringLeaf is one string of an example body: where it is, in the
// contract's notation, and how to set it.
type stringLeaf struct {
	param string
	isKey bool
	set   func(string)
	unset func()
}

// stringLeaves lists every string value and map key of v (objects of the
// body and of metadata alike).
func stringLeaves(v any, at string) []stringLeaf {
	var out []stringLeaf
	join := func(k string) string {
		if at == "" {
			return k
		}
		return at + "." + k
	}
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			switch val := x[k].(type) {
			case string:
				out = append(out, stringLeaf{param: join(k), set: func(s string) { x[k] = s }, unset: func() { x[k] = val }})
			default:
				out = append(out, stringLeaves(val, join(k))...)
			}
			if at != "" { // a key of a map (metadata); the body's own keys are field names
				out = append(out, stringLeaf{isKey: true, param: at, set: func(s string) {
					x[s] = x[k]
					delete(x, k)
				}, unset: func() {
					for kk := range x {
						if strings.Contains(kk, marker) {
							x[k] = x[kk]
							delete(x, kk)
						}
					}
				}})
			}
		}
	case []any:
		for i, item := range x {
			p := fmt.Sprintf("%s[%d]", at, i)
			if s, ok := item.(string); ok {
				out = append(out, stringLeaf{param: p, set: func(v string) { x[i] = v }, unset: func() { x[i] = s }})
				continue
			}
			out = append(out, stringLeaves(item, p)...)
		}
	}
	return out
}

const marker = "MARKER"

// badBytes are what PostgreSQL's text cannot hold, as they appear in a
// JSON body: an escaped NUL and a byte that is not UTF-8.
var badBytes = []struct{ name, json, decoded string }{
	{"NUL", `\u0000`, "\x00"},
	{"not UTF-8", "\xff", "\ufffd"},
}

// Every string of every JSON body of the route table, keys of maps
// included, holding a NUL or a byte that is not UTF-8: 422
// validation_error naming it, never a 5xx.
func TestInputBoundaryJSONStrings(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	for _, rt := range rest.Routes {
		name := rt.Method + " " + rt.Path
		body, ok := exampleBodies[name]
		if !ok {
			if rt.Method == http.MethodPost || rt.Method == http.MethodPut || rt.Method == http.MethodPatch {
				_, listed := routesWithoutJSONBody[name]
				require.True(t, listed, "%s: add an example body to exampleBodies (or say why it has none)", name)
			}
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			acc := env.NewAccount() // one account per route: the rate limits count per key
			key := acc.Key
			if rt.Access != rest.Key {
				key = ""
			}
			path := fillPath(t, rt.Path, "", "")
			if name == "POST /v1/orders/{id}/fulfill" {
				// Fulfill reads the order's state before its body: a paid order.
				path = "/v1/orders/" + paidOrder(t, env, key) + "/fulfill"
			}
			leaves := stringLeaves(body, "")
			require.NotEmpty(t, leaves)
			for _, leaf := range leaves {
				for _, bad := range badBytes {
					value := "a" + marker + "b"
					leaf.set(value)
					raw, err := json.Marshal(body)
					leaf.unset()
					require.NoError(t, err)
					raw = bytes.Replace(raw, []byte(marker), []byte(bad.json), 1)
					want := leaf.param
					if leaf.isKey {
						want = leaf.param + ".a" + bad.decoded + "b"
					}
					r := env.Do(testkit.Request{Method: rt.Method, Path: path, Key: key, Body: raw, NoCheck: true})
					p := requireProblem(t, env, r, 422, "validation_error")
					require.Equal(t, want, p["param"], "%s %s in %s: %s", name, bad.name, leaf.param, r.Body)
				}
			}
		})
	}
}

// A timestamp in a JSON body outside the years 1..9999.
func TestInputBoundaryJSONTimes(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	for _, ts := range []string{"0000-01-01T00:00:00Z", "0001-01-01T00:30:00+01:00"} {
		r := env.Do(testkit.Request{Method: "POST", Path: "/v1/api-keys", Key: acc.Key, NoCheck: true,
			Body: `{"name":"k","expires_at":"` + ts + `"}`})
		p := requireProblem(t, env, r, 422, "validation_error")
		require.Equal(t, "expires_at", p["param"], ts)
	}
}

// Every path id of the route table that is not an id of its kind: 404
// not_found, before any query.
func TestInputBoundaryPathIDs(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	bad := []string{"%00", "%FF", "a%00b", "lst_", "ord_01ARZ3NDEKTSV4RRFFQ69G5FAV", "nope",
		"key_01jdx0v3k7q8r9s0t1u2v3w4x5", "%27%3B--", strings.Repeat("x", 300)}
	for _, rt := range rest.Routes {
		for _, param := range pathParams(rt.Path) {
			name := rt.Method + " " + rt.Path + " " + param
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				acc := env.NewAccount() // one account per route: the rate limits count per key
				var body any
				if b, ok := exampleBodies[rt.Method+" "+rt.Path]; ok {
					raw, err := json.Marshal(b)
					require.NoError(t, err)
					body = raw
				}
				prefix := pathIDPrefix(t, rt.Path, param)
				for _, v := range append(bad, prefix+"_"+strings.Repeat("z", 26), prefix+"_0"+strings.Repeat("0", 24)+"%00") {
					if strings.HasPrefix(v, prefix+"_01") && !strings.Contains(v, "%") {
						continue // a well-formed id of this kind
					}
					r := env.Do(testkit.Request{Method: rt.Method, Path: fillPath(t, rt.Path, param, v), Key: acc.Key, Body: body, NoCheck: true})
					requireProblem(t, env, r, 404, "not_found")
				}
			})
		}
	}
}

// Query parameters: any string with a NUL or a byte that is not UTF-8, ids
// in filters that are not ids of their kind, dates outside 1..9999: 422
// validation_error naming the parameter.
func TestInputBoundaryQuery(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	wh := env.Post("/v1/webhooks", acc.Key, map[string]any{"url": "https://example.com/hook"}).JSON(t)["id"].(string)
	cases := []struct{ path, param string }{
		{"/v1/events?order_id=%00", "order_id"},
		{"/v1/events?order_id=%FF", "order_id"},
		{"/v1/events?order_id=lst_01arz3ndektsv4rrffq69g5fav", "order_id"},
		{"/v1/events?order_id=nope", "order_id"},
		{"/v1/events?listing_id=%00", "listing_id"},
		{"/v1/events?listing_id=ord_01arz3ndektsv4rrffq69g5fav", "listing_id"},
		{"/v1/events?type=%00", "type"},
		{"/v1/events?after=%00", "after"},
		{"/v1/events?cursor=%00", "cursor"},
		{"/v1/orders?buyer_email=%00", "buyer_email"},
		{"/v1/orders?buyer_email=a%FF%40example.com", "buyer_email"},
		{"/v1/orders?listing=%00", "listing"},
		{"/v1/orders?listing=ord_01arz3ndektsv4rrffq69g5fav", "listing"},
		{"/v1/orders?status=%00", "status"},
		{"/v1/orders?cursor=%00", "cursor"},
		{"/v1/orders?limit=%00", "limit"},
		{"/v1/orders?created_after=0000-01-01T00:00:00Z", "created_after"},
		{"/v1/orders?created_after=0001-01-01T00:30:00%2B01:00", "created_after"},
		{"/v1/orders?created_before=0000-12-31T23:59:59Z", "created_before"},
		{"/v1/orders?created_before=10000-01-01T00:00:00Z", "created_before"},
		{"/v1/orders?created_after=%00", "created_after"},
		{"/v1/customers?email=%00", "email"},
		{"/v1/customers?created_after=0000-01-01T00:00:00Z", "created_after"},
		{"/v1/customers?created_before=10000-01-01T00:00:00Z", "created_before"},
		{"/v1/listings?status=%00", "status"},
		{"/v1/listings?cursor=%FF", "cursor"},
		{"/v1/webhooks?cursor=%00", "cursor"},
		{"/v1/api-keys?cursor=%00", "cursor"},
		{"/v1/webhooks/" + wh + "/events?delivered=%00", "delivered"},
		{"/v1/account?anything=%00", "anything"},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			t.Parallel()
			r := env.Do(testkit.Request{Method: "GET", Path: tc.path, Key: acc.Key, NoCheck: true})
			p := requireProblem(t, env, r, 422, "validation_error")
			require.Equal(t, tc.param, p["param"], "%s", r.Body)
		})
	}
	// Within range, a date is a date.
	r := env.Get("/v1/orders?created_after=0001-01-01T00:00:00Z&created_before=9999-12-31T23:59:59Z", acc.Key)
	require.Equal(t, 200, r.Status, "%s", r.Body)
}

// The multipart upload's strings: the purpose and the file name.
func TestInputBoundaryUpload(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	for _, tc := range []struct {
		purpose, filename string
		status            int
		code              string
		param             any
	}{
		{"deliverable\x00", "a.txt", 422, "validation_error", "purpose"},
		{"deliverable", "a\xff.txt", 422, "validation_error", "file"},
		// A NUL in a part's header is a malformed body (mime/multipart).
		{"deliverable", "a\x00.txt", 400, "invalid_request", nil},
	} {
		var buf bytes.Buffer
		boundary := "b0undary"
		fmt.Fprintf(&buf, "--%s\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\n%s\r\n", boundary, tc.purpose)
		fmt.Fprintf(&buf, "--%s\r\nContent-Disposition: form-data; name=\"file\"; filename=\"%s\"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--%s--\r\n",
			boundary, tc.filename, boundary)
		req, err := http.NewRequest("POST", env.URL+"/v1/files", &buf)
		require.NoError(t, err)
		req.Header.Set("Content-Type", "multipart/form-data; boundary="+boundary)
		req.Header.Set("Authorization", "Bearer "+acc.Key)
		resp, err := env.HTTP.Client().Do(req)
		require.NoError(t, err)
		var p map[string]any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&p))
		resp.Body.Close()
		require.Equal(t, tc.status, resp.StatusCode, "%v", p)
		require.Equal(t, tc.code, p["code"])
		require.Equal(t, tc.param, p["param"])
	}
}

// Fulfill checks that the order exists and is the caller's, and its state,
// before it fetches a URL deliverable: another account's order and an order
// that does not exist make no request to the URL.
func TestFulfillChecksOrderBeforeFetch(t *testing.T) {
	t.Parallel()
	var hits atomic.Int64
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
	}))
	t.Cleanup(target.Close)
	env := testkit.New(t, testkit.WithWorkers())
	seller := env.NewAccount()
	connectSandbox(t, env, seller.Key)
	l := publishedListing(t, env, seller.Key, map[string]any{"title": "Portrait " + testkit.Unique(), "price": 2500, "external_delivery": "generated"})
	orderID, _ := buy(t, env, l["slug"].(string), url.Values{"email": {uniqueEmail("fetch")}}, "paid")
	pendingID, _ := buy(t, env, l["slug"].(string), url.Values{"email": {uniqueEmail("fetch")}}, "canceled")
	other := env.NewAccount()
	body := map[string]any{"deliverables": []any{map[string]any{"type": "url", "value": target.URL + "/file"}}}

	requireProblem(t, env, env.Post("/v1/orders/"+orderID+"/fulfill", other.Key, body), 404, "not_found")
	requireProblem(t, env, env.Post("/v1/orders/"+db.NewID("ord")+"/fulfill", seller.Key, body), 404, "not_found")
	requireProblem(t, env, env.Post("/v1/orders/"+pendingID+"/fulfill", seller.Key, body), 409, "invalid_transition")
	require.Zero(t, hits.Load(), "no request before the order is known to be the caller's and paid")

	// The owner's fulfill does fetch it (so the zero above means something).
	r := env.Post("/v1/orders/"+orderID+"/fulfill", seller.Key, body)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.Positive(t, hits.Load())

	// Fulfilled: returned unchanged whatever the body, and nothing fetched.
	n := hits.Load()
	r = env.Post("/v1/orders/"+orderID+"/fulfill", seller.Key, body)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.Equal(t, n, hits.Load())
}

// GraphQL holds Time arguments to the same years as REST (input.Time).
func TestInputBoundaryGraphQLTimes(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	for _, tc := range []struct {
		query string
		vars  map[string]any
		param string
	}{
		{`{ viewer { orders(createdAfter: "0000-01-01T00:00:00Z") { edges { cursor } } } }`, nil, "created_after"},
		{`query($t: Time) { viewer { customers(createdBefore: $t) { edges { cursor } } } }`, map[string]any{"t": "0000-12-31T23:59:59Z"}, "created_before"},
		{`mutation { createApiKey(input: {name: "k", expiresAt: "0001-01-01T00:30:00+01:00"}) { id } }`, nil, "input.expires_at"},
	} {
		r := env.Do(testkit.Request{Method: "POST", Path: "/graphql", Key: acc.Key, NoCheck: true,
			Body: map[string]any{"query": tc.query, "variables": tc.vars}})
		require.Equal(t, 200, r.Status, "%s", r.Body)
		var res gqlResponse
		r.Decode(t, &res)
		require.Len(t, res.Errors, 1, "%s", r.Body)
		ext, ok := res.Errors[0]["extensions"].(map[string]any)
		require.True(t, ok, "%s", r.Body)
		require.Equal(t, "validation_error", ext["code"], "%s", r.Body)
		require.Equal(t, tc.param, ext["param"], "%s", r.Body)
	}
}
