package rest_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/resolvers"
	"commerce/testkit"
)

// changePlan posts POST /v1/account/plan and returns the plan change.
func changePlan(t *testing.T, env *testkit.Env, key, plan string) map[string]any {
	t.Helper()
	r := env.Post("/v1/account/plan", key, map[string]any{"plan": plan})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	return r.JSON(t)
}

// payPlan opens a pending plan change's sandbox subscription page and posts
// an outcome; it returns where the seller was sent.
func payPlan(t *testing.T, env *testkit.Env, change map[string]any, outcome string) string {
	t.Helper()
	u := change["url"].(string)
	require.True(t, strings.HasPrefix(u, env.URL+"/sandbox/billing/"), u)
	c := noRedirect(env)
	page, err := c.Get(u)
	require.NoError(t, err)
	body, _ := io.ReadAll(page.Body)
	page.Body.Close()
	require.Equal(t, 200, page.StatusCode, "%s", body)
	require.Contains(t, string(body), `name="outcome" value="paid"`)
	resp, err := c.PostForm(u, url.Values{"outcome": {outcome}})
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 303, resp.StatusCode)
	return resp.Header.Get("Location")
}

// billingHook plays the sandbox operator hook on an account.
func billingHook(t *testing.T, env *testkit.Env, accountID, outcome string) int {
	t.Helper()
	resp, err := http.PostForm(env.URL+"/sandbox/accounts/"+accountID+"/billing", url.Values{"outcome": {outcome}})
	require.NoError(t, err)
	resp.Body.Close()
	return resp.StatusCode
}

func pageStatus(t *testing.T, env *testkit.Env, path string) int {
	t.Helper()
	resp, err := http.Get(env.URL + path)
	require.NoError(t, err)
	resp.Body.Close()
	return resp.StatusCode
}

// A growth upgrade through the sandbox's subscription page changes the plan
// and fee rate only once paid, and the next sale (even one whose checkout
// started before) pays 5 %; moving back to free is immediate and cancels
// the subscription.
func TestBillingUpgradeChangesFee(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Fee " + testkit.Unique(), "price": 1000})
	slug := l["slug"].(string)

	a := env.Get("/v1/account", acc.Key).JSON(t)
	require.Nil(t, a["subscription"], "free with no history")

	change := changePlan(t, env, acc.Key, "growth")
	require.Equal(t, "plan_change", change["object"])
	require.Equal(t, "growth", change["plan"])
	require.Equal(t, "pending", change["status"])
	require.NotNil(t, change["expires_at"])
	// Nothing changes before the processor confirms payment.
	a = env.Get("/v1/account", acc.Key).JSON(t)
	require.Equal(t, "free", a["plan"])
	require.Equal(t, "0.15", a["fee_rate"])
	require.Equal(t, map[string]any{"plan": "growth", "status": "pending", "current_period_end": nil, "cancel_at": nil}, a["subscription"])

	// A failed payment leaves the plan alone and no history.
	failed := changePlan(t, env, acc.Key, "growth")
	require.Equal(t, env.URL+"/console/settings/billing?plan_change=failed", payPlan(t, env, failed, "failed"))
	a = env.Get("/v1/account", acc.Key).JSON(t)
	require.Equal(t, "free", a["plan"])

	// A buyer starts checking out on the free plan; the seller upgrades;
	// the buyer pays after: the fee is the plan's in force at payment.
	early := env.URL + "/sandbox/checkout/sbx_cs_" + strings.TrimPrefix(startCheckout(t, env, slug, url.Values{"email": {uniqueEmail("early")}}), "ord_")
	require.Equal(t, env.URL+"/console/settings/billing?plan_change=paid", payPlan(t, env, change, "paid"))
	a = env.Get("/v1/account", acc.Key).JSON(t)
	require.Equal(t, "growth", a["plan"])
	require.Equal(t, "0.05", a["fee_rate"])
	require.Equal(t, "active", a["billing_status"])
	sub := a["subscription"].(map[string]any)
	require.Equal(t, "growth", sub["plan"])
	require.Equal(t, "active", sub["status"])
	end, err := time.Parse(time.RFC3339, sub["current_period_end"].(string))
	require.NoError(t, err)
	require.WithinDuration(t, time.Now().AddDate(0, 1, 0), end, time.Hour)
	// Paying the same page again changes nothing.
	payPlan(t, env, change, "paid")

	resp, err := noRedirect(env).PostForm(early, url.Values{"outcome": {"paid"}})
	require.NoError(t, err)
	resp.Body.Close()
	orderID, _ := buy(t, env, slug, url.Values{"email": {uniqueEmail("next")}}, "paid")
	for _, o := range env.Get("/v1/orders", acc.Key).JSON(t)["data"].([]any) {
		o := env.Get("/v1/orders/"+o.(map[string]any)["id"].(string), acc.Key).JSON(t)
		require.Equal(t, "paid", o["payment_status"], o["id"])
		require.Equal(t, 50.0, o["platform_fee"], "growth: 5 %% of 1000 (order %s)", o["id"])
		require.Equal(t, 950.0, o["net_amount"])
	}
	require.Equal(t, 50.0, env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)["platform_fee"])

	// The plan in force and paid up: active at once, nothing to pay.
	same := changePlan(t, env, acc.Key, "growth")
	require.Equal(t, "active", same["status"])
	require.Nil(t, same["url"])

	// Back to free: at once, the subscription canceled, 15 % again.
	free := changePlan(t, env, acc.Key, "free")
	require.Equal(t, map[string]any{"object": "plan_change", "plan": "free", "status": "active", "url": nil, "expires_at": nil}, free)
	a = env.Get("/v1/account", acc.Key).JSON(t)
	require.Equal(t, "free", a["plan"])
	require.Equal(t, "0.15", a["fee_rate"])
	sub = a["subscription"].(map[string]any)
	require.Equal(t, "canceled", sub["status"])
	require.NotNil(t, sub["cancel_at"])
	orderID, _ = buy(t, env, slug, url.Values{"email": {uniqueEmail("after")}}, "paid")
	require.Equal(t, 150.0, env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)["platform_fee"])

	// Bad input: a clear 422, never a 500; read-only keys cannot.
	requireProblem(t, env, env.Post("/v1/account/plan", acc.Key, map[string]any{"plan": "gold"}), 422, "validation_error")
	requireProblem(t, env, env.Post("/v1/account/plan", acc.Key, map[string]any{}), 422, "validation_error")
	requireProblem(t, env, env.Post("/v1/account/plan", acc.Key, map[string]any{"plan": "free", "x": 1}), 422, "validation_error")
	requireProblem(t, env, env.Post("/v1/account/plan", "", map[string]any{"plan": "free"}), 401, "authentication_error")
	// Another account's checkout token, or a made-up one: 404.
	require.Equal(t, 404, pageStatus(t, env, "/sandbox/billing/sbx_bill_01jdx0v3k7q8r9s0t1u2v3w4x5"))
	require.Equal(t, 404, pageStatus(t, env, "/sandbox/billing/nope"))
}

// changePlan over GraphQL is the same use case as POST /v1/account/plan.
func TestBillingChangePlanGraphQL(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	const m = `mutation($p: PlanId!) { changePlan(input: {plan: $p}) { object plan status url expiresAt } }`
	gc := gqlData(t, gql(t, env, acc.Key, m, map[string]any{"p": "GROWTH"}))["changePlan"].(map[string]any)
	rc := changePlan(t, env, acc.Key, "growth")
	require.Equal(t, "plan_change", gc["object"])
	require.Equal(t, "GROWTH", gc["plan"])
	require.Equal(t, "PENDING", gc["status"])
	require.Equal(t, rc["status"], strings.ToLower(gc["status"].(string)))
	require.True(t, strings.HasPrefix(gc["url"].(string), env.URL+"/sandbox/billing/sbx_bill_"))
	require.NotNil(t, gc["expiresAt"])
	// Paid through the GraphQL change's page: the account shows it both ways.
	payPlan(t, env, map[string]any{"url": gc["url"]}, "paid")
	viewer := gqlData(t, gql(t, env, acc.Key, `{ viewer { plan feeRate billingStatus subscription { plan status currentPeriodEnd cancelAt } } }`, nil))["viewer"].(map[string]any)
	require.Equal(t, "GROWTH", viewer["plan"])
	require.Equal(t, "0.05", viewer["feeRate"])
	sub := viewer["subscription"].(map[string]any)
	require.Equal(t, "ACTIVE", sub["status"])
	rest := env.Get("/v1/account", acc.Key).JSON(t)["subscription"].(map[string]any)
	require.Equal(t, rest["current_period_end"], sub["currentPeriodEnd"])

	g := gqlData(t, gql(t, env, acc.Key, `mutation { changePlan(input: {plan: FREE}) { object plan status url expiresAt } }`, nil))
	require.Equal(t, map[string]any{"object": "plan_change", "plan": "FREE", "status": "ACTIVE", "url": nil, "expiresAt": nil}, g["changePlan"])
	require.Equal(t, map[string]any{"object": "plan_change", "plan": "free", "status": "active", "url": nil, "expires_at": nil},
		changePlan(t, env, acc.Key, "free"))
}

// gqlData decodes a GraphQL response's data, failing on errors.
func gqlData(t *testing.T, g gqlResponse) map[string]any {
	t.Helper()
	require.Empty(t, g.Errors)
	var m map[string]any
	require.NoError(t, json.Unmarshal(g.Data, &m))
	return m
}

// readinessAction finds an action by code in a readiness object.
func readinessAction(ready map[string]any, code string) map[string]any {
	for _, a := range ready["actions"].([]any) {
		if a := a.(map[string]any); a["code"] == code {
			return a
		}
	}
	return nil
}

// Renewals through the sandbox operator hook: a failed renewal is past due
// (update_billing suggested, still selling); the grace period's end is
// unpaid (update_billing required, the listing unsellable and its page
// unavailable); a paid renewal restores both.
func TestBillingRenewals(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Renewals " + testkit.Unique(), "price": 1000})
	slug, listingID := l["slug"].(string), l["id"].(string)

	// No subscription yet: the hook has nothing to renew.
	require.Equal(t, 404, billingHook(t, env, acc.ID, "renewal_failed"))
	payPlan(t, env, changePlan(t, env, acc.Key, "scale"), "paid")
	require.Equal(t, 422, billingHook(t, env, acc.ID, "renewal_exploded"))
	require.Equal(t, 404, billingHook(t, env, "acc_01jdx0v3k7q8r9s0t1u2v3w4x5", "renewal_failed"))
	before := env.Get("/v1/account", acc.Key).JSON(t)["subscription"].(map[string]any)["current_period_end"].(string)

	sellable := func() bool {
		return env.Get("/v1/listings/"+listingID, acc.Key).JSON(t)["readiness"].(map[string]any)["sellable"].(bool)
	}
	require.Equal(t, 200, billingHook(t, env, acc.ID, "renewal_failed"))
	a := env.Get("/v1/account", acc.Key).JSON(t)
	require.Equal(t, "past_due", a["billing_status"])
	require.Equal(t, "past_due", a["subscription"].(map[string]any)["status"])
	ready := a["readiness"].(map[string]any)
	require.Equal(t, true, ready["operational"])
	act := readinessAction(ready, "update_billing")
	require.NotNil(t, act, "%v", ready)
	require.Equal(t, "suggested", act["priority"])
	require.Equal(t, "human", act["kind"])
	require.Equal(t, env.URL+"/console/settings/billing", act["resolve"].(map[string]any)["url"])
	require.True(t, sellable())
	require.Equal(t, 200, pageStatus(t, env, "/p/"+slug))
	require.Equal(t, "scale", a["plan"], "past due keeps the plan")

	require.Equal(t, 200, billingHook(t, env, acc.ID, "grace_expired"))
	a = env.Get("/v1/account", acc.Key).JSON(t)
	require.Equal(t, "unpaid", a["billing_status"])
	require.Equal(t, "unpaid", a["subscription"].(map[string]any)["status"])
	ready = a["readiness"].(map[string]any)
	require.Equal(t, false, ready["operational"])
	require.Equal(t, "update_billing", ready["next"])
	require.Equal(t, "required", readinessAction(ready, "update_billing")["priority"])
	require.False(t, sellable())
	require.Equal(t, 410, pageStatus(t, env, "/p/"+slug))
	resp, err := http.Get(env.URL + "/p/" + slug)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NotContains(t, string(body), `action="/p/`+slug+`/checkout"`, "no checkout form")
	// A checkout post is refused too.
	req, _ := http.NewRequest("POST", env.URL+"/p/"+slug+"/checkout", strings.NewReader("email="+url.QueryEscape(uniqueEmail("late"))))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err = noRedirect(env).Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 410, resp.StatusCode)
	// Publishing is refused while unpaid.
	draft := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Draft " + testkit.Unique(), "price": 500}).JSON(t)
	requireProblem(t, env, env.Post("/v1/listings/"+draft["id"].(string)+"/publish", acc.Key, nil), 409, "publish_failed")
	// A second grace expiry changes nothing.
	require.Equal(t, 200, billingHook(t, env, acc.ID, "grace_expired"))

	require.Equal(t, 200, billingHook(t, env, acc.ID, "renewal_paid"))
	a = env.Get("/v1/account", acc.Key).JSON(t)
	require.Equal(t, "active", a["billing_status"])
	sub := a["subscription"].(map[string]any)
	require.Equal(t, "active", sub["status"])
	require.Greater(t, sub["current_period_end"].(string), before, "the next period starts")
	ready = a["readiness"].(map[string]any)
	require.Equal(t, true, ready["operational"])
	require.Nil(t, readinessAction(ready, "update_billing"))
	require.True(t, sellable())
	require.Equal(t, 200, pageStatus(t, env, "/p/"+slug))
	orderID, _ := buy(t, env, slug, url.Values{"email": {uniqueEmail("back")}}, "paid")
	require.Equal(t, 30.0, env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)["platform_fee"], "scale: 3 %% of 1000")
}

// The grace period is run by the River job: 7 days past due (by the
// service's clock) makes the account unpaid, not a day sooner. Not parallel:
// it moves the clock of a job that reads every account of the package's
// database, and parallel tests never run beside a sequential one.
func TestBillingGraceJob(t *testing.T) {
	env := testkit.New(t)
	acc := env.NewAccount()
	payPlan(t, env, changePlan(t, env, acc.Key, "growth"), "paid")
	require.Equal(t, 200, billingHook(t, env, acc.ID, "renewal_failed"))
	// A second failed retry keeps the grace period's start.
	require.Equal(t, 200, billingHook(t, env, acc.ID, "renewal_failed"))

	res := env.Server.Resolver
	w := &resolvers.GraceWorker{R: res}
	start := time.Now()
	res.Now = func() time.Time { return start.Add(6*24*time.Hour + 23*time.Hour) }
	require.NoError(t, w.Work(context.Background(), nil))
	require.Equal(t, "past_due", env.Get("/v1/account", acc.Key).JSON(t)["billing_status"])
	res.Now = func() time.Time { return start.Add(7*24*time.Hour + time.Minute) }
	require.NoError(t, w.Work(context.Background(), nil))
	a := env.Get("/v1/account", acc.Key).JSON(t)
	require.Equal(t, "unpaid", a["billing_status"])
	require.Equal(t, "unpaid", a["subscription"].(map[string]any)["status"])
	require.Equal(t, false, a["readiness"].(map[string]any)["operational"])
}

// A subscription checkout left unpaid past its expires_at ends like a
// failed one when the billing job runs (the pending change failed, the
// never-paid subscription gone), and its sandbox page can no longer pay:
// the seller is sent back to the billing page with plan_change=expired.
func TestBillingPlanCheckoutExpires(t *testing.T) {
	env := testkit.New(t)
	acc := env.NewAccount()
	change := changePlan(t, env, acc.Key, "growth")
	require.Equal(t, "pending", change["status"])
	exp, err := time.Parse(time.RFC3339, change["expires_at"].(string))
	require.NoError(t, err)
	require.Equal(t, "pending", env.Get("/v1/account", acc.Key).JSON(t)["subscription"].(map[string]any)["status"])

	res := env.Server.Resolver
	w := &resolvers.GraceWorker{R: res}
	require.NoError(t, w.Work(context.Background(), nil))
	require.Equal(t, "pending", env.Get("/v1/account", acc.Key).JSON(t)["subscription"].(map[string]any)["status"], "not expired yet")

	res.Now = func() time.Time { return exp.Add(time.Minute) }
	// Paying on the expired page changes nothing.
	c := noRedirect(env)
	resp, err := c.PostForm(change["url"].(string), url.Values{"outcome": {"paid"}})
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 303, resp.StatusCode)
	require.True(t, strings.HasSuffix(resp.Header.Get("Location"), "?plan_change=expired"), resp.Header.Get("Location"))
	a := env.Get("/v1/account", acc.Key).JSON(t)
	require.Equal(t, "free", a["plan"])

	require.NoError(t, w.Work(context.Background(), nil))
	a = env.Get("/v1/account", acc.Key).JSON(t)
	require.Nil(t, a["subscription"], "%v", a["subscription"])
	var status string
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(),
		`SELECT status FROM plan_changes WHERE account_id = $1 AND plan = 'growth'`, acc.ID).Scan(&status))
	require.Equal(t, "failed", status)
}
