package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/rest"
	"commerce/testkit"
)

// A published listing's readiness.sellable and its product page agree in
// every account state; an account that cannot sell is not operational and
// an action says why (CONTRACT §7).
func TestSellableAgreesWithProductPage(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Agreeing " + testkit.Unique(), "price": 900})
	id, slug := l["id"].(string), l["slug"].(string)
	// Offered to agents already: offer_to_agents (suggested) is not what this test is about.
	createAgentConnection(t, env, acc.Key, "Platform")
	exec := func(sql string) {
		_, err := env.Server.DB.Pool.Exec(context.Background(), sql+" WHERE id = $1", acc.ID)
		require.NoError(t, err)
	}
	reset := `UPDATE accounts SET processor_status = 'connected', charges_enabled = true, currency = 'usd', billing_status = 'active'`
	for _, tc := range []struct {
		name        string
		sql         string
		operational bool
		next        string
		message     string
	}{
		{"operational", reset, true, "", ""},
		{"charges disabled", `UPDATE accounts SET charges_enabled = false`, false, "enable_charges", "not enabled payments"},
		{"onboarding", `UPDATE accounts SET processor_status = 'onboarding', charges_enabled = false`, false, "enable_charges", "onboarding"},
		{"no currency the service sells in", `UPDATE accounts SET currency = NULL`, false, "enable_charges", "currency"},
		{"billing unpaid", `UPDATE accounts SET billing_status = 'unpaid'`, false, "update_billing", "unpaid"},
		{"billing past due", `UPDATE accounts SET billing_status = 'past_due'`, true, "update_billing", "renewal payment failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			exec(reset)
			exec(tc.sql)
			a := env.Get("/v1/account", acc.Key).JSON(t)["readiness"].(map[string]any)
			require.Equal(t, tc.operational, a["operational"])
			if tc.next == "" {
				require.Nil(t, a["next"])
			} else {
				require.Equal(t, tc.next, a["next"])
				first := a["actions"].([]any)[0].(map[string]any)
				require.Contains(t, first["message"], tc.message)
				require.Equal(t, "human", first["kind"])
				u := first["resolve"].(map[string]any)["url"].(string)
				if tc.next == "update_billing" {
					require.Equal(t, env.Server.Config.ConsoleURL+"/settings/billing", u)
				} else {
					require.Regexp(t, `^`+env.URL+`/processor/onboarding/[a-z0-9]+$`, u)
				}
			}
			lr := env.Get("/v1/listings/"+id, acc.Key).JSON(t)["readiness"].(map[string]any)
			page := env.Get("/p/"+slug, "")
			if tc.next == "update_billing" && !tc.operational {
				require.Equal(t, 410, page.Status, "an unpaid account's product pages are unavailable (CONTRACT §16)")
			} else {
				require.Equal(t, 200, page.Status)
			}
			buyable := strings.Contains(string(page.Body), `action="/p/`+slug+`/checkout"`)
			require.Equal(t, lr["sellable"], buyable, "readiness.sellable and the product page agree")
			require.Equal(t, tc.operational, lr["sellable"], "a published listing sells exactly when the account is operational")
		})
	}
}

// requireReadiness checks that a response object carries a readiness whose
// refresh reads the same thing again at endpoint.
func requireReadiness(t *testing.T, obj map[string]any, endpoint string) map[string]any {
	t.Helper()
	r, ok := obj["readiness"].(map[string]any)
	require.True(t, ok, "the response carries readiness: %v", obj)
	require.Equal(t, endpoint, r["refresh"].(map[string]any)["endpoint"])
	return r
}

func actionByCode(t *testing.T, r map[string]any, code string) map[string]any {
	t.Helper()
	for _, x := range r["actions"].([]any) {
		if a := x.(map[string]any); a["code"] == code {
			return a
		}
	}
	require.Failf(t, "no action", "%s in %v", code, r)
	return nil
}

// Each action's REST form works as given, and its GraphQL form as given
// (on a twin of the same state): fulfill_order for a generated order,
// configure_fulfillment, webhook_disabled; the responses carry readiness.
func TestActionsExecuteAsGiven(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers())
	for _, form := range []string{"rest", "graphql"} {
		t.Run(form, func(t *testing.T) {
			acc := env.NewAccount()
			connectSandbox(t, env, acc.Key)
			run := func(a map[string]any) map[string]any {
				t.Helper()
				res := a["resolve"].(map[string]any)
				if form == "rest" {
					r := env.Do(testkit.Request{Method: res["method"].(string), Path: res["endpoint"].(string), Key: acc.Key, Body: res["params"]})
					require.True(t, r.Status < 300, "%s %s → %d %s", res["method"], res["endpoint"], r.Status, r.Body)
					return r.JSON(t)
				}
				g := res["graphql"].(map[string]any)
				out := gql(t, env, acc.Key, g["query"].(string), g["variables"].(map[string]any))
				require.Empty(t, out.Errors, "%s", g["query"])
				var data map[string]map[string]any
				require.NoError(t, json.Unmarshal(out.Data, &data))
				require.Len(t, data, 1)
				for _, v := range data {
					return v
				}
				return nil
			}

			// A draft with nothing to deliver: configure_fulfillment adds a deliverable.
			r := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Configured " + testkit.Unique(), "price": 700})
			require.Equal(t, 201, r.Status, "%s", r.Body)
			draft := r.JSON(t)
			lr := requireReadiness(t, draft, "/v1/listings/"+draft["id"].(string))
			out := run(actionByCode(t, lr, "configure_fulfillment"))
			after := requireReadiness(t, out, "/v1/listings/"+draft["id"].(string))
			require.NotContains(t, fmt.Sprint(after["actions"]), "configure_fulfillment")
			require.Equal(t, "managed", env.Get("/v1/listings/"+draft["id"].(string), acc.Key).JSON(t)["fulfillment"])

			// A generated order: fulfill_order's example body is valid as given.
			l := publishedListing(t, env, acc.Key, map[string]any{"title": "Generated " + testkit.Unique(), "price": 800,
				"external_delivery": "generated"})
			orderID := buyOnPages(t, env, l["url"].(string), uniqueEmail("buyer"))
			o := env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)
			require.Equal(t, "generated", o["content_type"])
			or := requireReadiness(t, o, "/v1/orders/"+orderID)
			require.Equal(t, "fulfill_order", or["next"])
			out = run(actionByCode(t, or, "fulfill_order"))
			require.Contains(t, []any{"fulfilled", "FULFILLED"}, out["status"])
			require.Nil(t, requireReadiness(t, out, "/v1/orders/"+orderID)["next"])

			// An endpoint disabled after failures: webhook_disabled re-enables it.
			w := env.Post("/v1/webhooks", acc.Key, map[string]any{"url": "https://example.com/hook"})
			require.Equal(t, 201, w.Status, "%s", w.Body)
			wid := w.JSON(t)["id"].(string)
			_, err := env.Server.DB.Pool.Exec(context.Background(), `UPDATE webhook_endpoints
				SET status = 'disabled', disabled_reason = 'consecutive_failures' WHERE id = $1`, wid)
			require.NoError(t, err)
			ar := env.Get("/v1/account", acc.Key).JSON(t)["readiness"].(map[string]any)
			out = run(actionByCode(t, ar, "webhook_disabled"))
			require.Contains(t, []any{"enabled", "ENABLED"}, out["status"])
			require.NotContains(t, fmt.Sprint(env.Get("/v1/account", acc.Key).JSON(t)["readiness"]), "webhook_disabled")
		})
	}
}

// Every API action's REST method and path are the route whose GraphQL
// field its graphql form calls (rest.Routes is the one route table).
func TestActionFormsAreOneRoute(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	r := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Routes " + testkit.Unique(), "price": 700})
	require.Equal(t, 201, r.Status)
	seen := 0
	check := func(readiness map[string]any) {
		for _, x := range readiness["actions"].([]any) {
			a := x.(map[string]any)
			res := a["resolve"].(map[string]any)
			if a["kind"] != "api" {
				continue
			}
			field := res["mcp"].(map[string]any)["tool"].(string)
			route := routeOf(t, res["method"].(string), res["endpoint"].(string))
			require.Equal(t, "Mutation."+camelOf(field), route.GraphQL, "%s %s", res["method"], res["endpoint"])
			require.Regexp(t, `\{ `+camelOf(field)+`[ (]`, res["graphql"].(map[string]any)["query"])
			seen++
		}
	}
	check(env.Get("/v1/account", acc.Key).JSON(t)["readiness"].(map[string]any))
	check(r.JSON(t)["readiness"].(map[string]any))
	require.GreaterOrEqual(t, seen, 3)
}

func camelOf(snake string) string {
	parts := strings.Split(snake, "_")
	for i := 1; i < len(parts); i++ {
		parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
	}
	return strings.Join(parts, "")
}

// routeOf finds the declared route of a concrete method and path.
func routeOf(t *testing.T, method, path string) rest.Route {
	t.Helper()
	segs := strings.Split(path, "/")
	for _, r := range rest.Routes {
		if r.Method != method {
			continue
		}
		rs := strings.Split(r.Path, "/")
		if len(rs) != len(segs) {
			continue
		}
		ok := true
		for i := range rs {
			if !strings.HasPrefix(rs[i], "{") && rs[i] != segs[i] {
				ok = false
				break
			}
		}
		if ok {
			return r
		}
	}
	require.Failf(t, "no route", "%s %s", method, path)
	return rest.Route{}
}

// The whole readiness graph an agent reads — the account's readiness and
// 100 listings' and 100 orders', each action with its three forms and
// inputs, each with refresh — fits the cost limit in one operation
// (CONTRACT §14).
func TestFullReadinessGraphFitsCostLimit(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	actions := `next actions { code kind priority message resolve { method endpoint url params
	  inputs { name description example } graphql { query variables } mcp { tool arguments } } }
	  refresh { method endpoint graphql { query variables } mcp { tool arguments } }`
	q := `{ viewer { id readiness { operational ` + actions + ` }
	  listings(first: 100) { edges { node { id status url readiness { sellable ` + actions + ` } } } pageInfo { hasNextPage endCursor } }
	  orders(first: 100) { edges { node { id status contentType readiness { ` + actions + ` } } } pageInfo { hasNextPage endCursor } } } }`
	r := env.Post("/graphql", acc.Key, map[string]any{"query": q})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	var out struct {
		Errors     []map[string]any `json:"errors"`
		Extensions struct {
			Cost struct {
				Requested int `json:"requested"`
			} `json:"cost"`
		} `json:"extensions"`
	}
	r.Decode(t, &out)
	require.Empty(t, out.Errors)
	t.Logf("the full readiness graph costs %d", out.Extensions.Cost.Requested)
	require.LessOrEqual(t, out.Extensions.Cost.Requested, 2000)
}
