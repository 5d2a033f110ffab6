package rest_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

var passcodePattern = regexp.MustCompile(`\b(\d{6})\b`)

// noRedirect is the env's client without following redirects.
func noRedirect(env *testkit.Env) *http.Client { return env.NoRedirect() }

// mailboxPasscode reads the newest passcode sent to email from the sandbox
// mailbox pages, as a developer would.
func mailboxPasscode(t *testing.T, env *testkit.Env, email string) string {
	t.Helper()
	r := env.Get("/sandbox/mail", "")
	require.Equal(t, 200, r.Status)
	// Rows are newest first: the first link of a row addressed to email.
	row := regexp.MustCompile(`<td>` + regexp.QuoteMeta(email) + `</td><td><a href="(/sandbox/mail/msg_[0-9a-z]+)">`).FindSubmatch(r.Body)
	require.NotNil(t, row, "no mail to %s in the sandbox mailbox:\n%s", email, r.Body)
	r = env.Get(string(row[1]), "")
	require.Equal(t, 200, r.Status)
	m := passcodePattern.FindSubmatch(r.Body)
	require.NotNil(t, m, "no passcode in %s", r.Body)
	return string(m[1])
}

func uniqueEmail(prefix string) string {
	return fmt.Sprintf("%s-%s@example.com", prefix, testkit.Unique())
}

// The acceptance path, with HTTP alone: bootstrap by email, read the account
// (not operational, next connect_stripe), connect, complete the sandbox
// onboarding page, and see the account operational in usd.
func TestBootstrapToOperationalSeller(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers())
	email := uniqueEmail("seller")

	r := env.Post("/v1/bootstrap", "", map[string]any{"email": email})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	s := r.JSON(t)
	require.Equal(t, "bootstrap_session", s["object"])
	require.Equal(t, "pending", s["status"])
	require.Regexp(t, `^bss_[0-9a-z]{26}$`, s["session_id"])
	sessionID := s["session_id"].(string)

	code := mailboxPasscode(t, env, email)
	r = env.Post("/v1/bootstrap/verify", "", map[string]any{"session_id": sessionID, "code": code})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	v := r.JSON(t)
	require.Equal(t, "verified", v["status"])
	require.Equal(t, true, v["account_created"])
	require.Regexp(t, `^acc_`, v["account_id"])

	r = env.Post("/v1/bootstrap/store", "", map[string]any{"session_id": sessionID, "display_name": "Ada's Patterns"})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	st := r.JSON(t)
	require.Equal(t, "store", st["object"])
	require.Equal(t, v["account_id"], st["id"])
	require.Equal(t, "adas-patterns", st["slug"])
	require.Equal(t, env.URL+"/s/adas-patterns", st["url"])
	key := st["api_key"].(string)
	require.Regexp(t, `^svc_[0-9A-Za-z]{40}$`, key)

	r = env.Get("/v1/account", key)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	acc := r.JSON(t)
	require.Equal(t, email, acc["email"])
	require.Equal(t, "free", acc["plan"])
	require.Equal(t, "0.15", acc["fee_rate"])
	require.Equal(t, "active", acc["billing_status"])
	require.Nil(t, acc["currency"])
	require.Equal(t, map[string]any{"total_revenue": 0.0, "total_orders": 0.0, "total_listings": 0.0}, acc["stats"])
	ready := acc["readiness"].(map[string]any)
	require.Equal(t, false, ready["operational"])
	require.Equal(t, "connect_stripe", ready["next"])
	first := ready["actions"].([]any)[0].(map[string]any)
	require.Equal(t, "api", first["kind"])
	require.Equal(t, "required", first["priority"])
	res := first["resolve"].(map[string]any)
	require.Equal(t, "POST", res["method"])
	require.Equal(t, "/v1/account/processor/connect", res["endpoint"])
	require.Nil(t, res["url"])
	require.Nil(t, res["params"])
	require.Equal(t, []any{}, res["inputs"])
	require.Equal(t, map[string]any{"tool": "connect_processor", "arguments": map[string]any{}}, res["mcp"])
	require.Contains(t, res["graphql"].(map[string]any)["query"], "connectProcessor")

	r = env.Post("/v1/account/processor/connect", key, nil)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	onb := r.JSON(t)
	require.Equal(t, "processor_onboarding", onb["object"])
	onboardingURL := onb["url"].(string)
	require.True(t, strings.HasPrefix(onboardingURL, env.URL+"/sandbox/onboarding/sbx_acct_"), onboardingURL)
	// The connect response carries the account's readiness: a human finishes onboarding.
	ready = onb["readiness"].(map[string]any)
	require.Equal(t, "enable_charges", ready["next"])

	acc = env.Get("/v1/account", key).JSON(t)
	proc := acc["processor"].(map[string]any)
	require.Equal(t, "onboarding", proc["status"])
	require.Regexp(t, `^sbx_acct_`, proc["account_id"], "the processor account id is saved at once")
	require.Equal(t, false, acc["readiness"].(map[string]any)["operational"])
	require.Equal(t, "enable_charges", acc["readiness"].(map[string]any)["next"], "no loop back to connect_stripe")
	human := acc["readiness"].(map[string]any)["actions"].([]any)[0].(map[string]any)
	require.Equal(t, "human", human["kind"])
	require.Regexp(t, `^`+regexp.QuoteMeta(env.URL)+`/processor/onboarding/[a-z0-9]+$`, human["resolve"].(map[string]any)["url"])

	// The human's side: the onboarding page, then its form.
	path := strings.TrimPrefix(onboardingURL, env.URL)
	r = env.Get(path, "")
	require.Equal(t, 200, r.Status)
	require.Contains(t, string(r.Body), `<option value="usd" selected>`)
	require.Contains(t, string(r.Body), `<option value="jpy">`)
	resp, err := noRedirect(env).PostForm(onboardingURL, url.Values{"currency": {"xyz"}})
	require.NoError(t, err)
	require.Equal(t, 422, resp.StatusCode, "an unknown currency re-renders the form")
	resp.Body.Close()
	resp, err = noRedirect(env).PostForm(onboardingURL, url.Values{"currency": {"usd"}})
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	require.Equal(t, env.Server.Config.ConsoleURL+"/processor", resp.Header.Get("Location"), "back to the console's processor page")

	acc = env.Get("/v1/account", key).JSON(t)
	require.Equal(t, "usd", acc["currency"])
	proc = acc["processor"].(map[string]any)
	require.Equal(t, "connected", proc["status"])
	require.Equal(t, true, proc["charges_enabled"])
	require.Equal(t, true, proc["payouts_enabled"])
	ready = acc["readiness"].(map[string]any)
	require.Equal(t, true, ready["operational"])
	require.Equal(t, "publish_listing", ready["next"], "suggested actions stay on an operational account")

	// The currency never changes once set, even if onboarding is completed again.
	resp, err = noRedirect(env).PostForm(onboardingURL, url.Values{"currency": {"eur"}})
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, "usd", env.Get("/v1/account", key).JSON(t)["currency"])

	// The store page shows the store.
	r = env.Get("/s/adas-patterns", "")
	require.Equal(t, 200, r.Status)
	require.Contains(t, string(r.Body), "Ada&#39;s Patterns")
}

func TestBootstrapWrongPasscodes(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	email := uniqueEmail("wrong")
	sid := env.Post("/v1/bootstrap", "", map[string]any{"email": email}).JSON(t)["session_id"].(string)
	code := mailboxPasscode(t, env, email)
	wrong := fmt.Sprintf("%06d", (mustAtoi(t, code)+1)%1_000_000)

	for remaining := 4; remaining >= 0; remaining-- {
		r := env.Post("/v1/bootstrap/verify", "", map[string]any{"session_id": sid, "code": wrong})
		p := requireProblem(t, env, r, 400, "invalid_passcode")
		require.Equal(t, float64(remaining), p["attempts_remaining"])
		require.Equal(t, "code", p["param"])
	}
	// The sixth try is refused, even with the right passcode.
	r := env.Post("/v1/bootstrap/verify", "", map[string]any{"session_id": sid, "code": code})
	requireProblem(t, env, r, 429, "rate_limited")
	require.NotEmpty(t, r.Header.Get("Retry-After"))

	// Unknown sessions and malformed input.
	requireProblem(t, env, env.Post("/v1/bootstrap/verify", "", map[string]any{"session_id": "bss_01jdx0v3k7q8r9s0t1u2v3w4x5", "code": "123456"}), 400, "invalid_session")
	p := requireProblem(t, env, env.Post("/v1/bootstrap/verify", "", map[string]any{"session_id": sid, "code": "12ab"}), 422, "validation_error")
	require.Equal(t, "code", p["param"])
	requireProblem(t, env, env.Post("/v1/bootstrap/store", "", map[string]any{"session_id": sid, "display_name": "x"}), 400, "invalid_session")
}

func mustAtoi(t *testing.T, s string) int {
	var n int
	_, err := fmt.Sscanf(s, "%d", &n)
	require.NoError(t, err)
	return n
}

func TestBootstrapEmailPolicyAndLimits(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	for _, email := range []string{"someone@mailinator.com", "a@eu.mailinator.com", "x@anonymized.invalid", "not an email"} {
		p := requireProblem(t, env, env.Post("/v1/bootstrap", "", map[string]any{"email": email}), 422, "validation_error")
		require.Equal(t, "email", p["param"], email)
	}
	// Five passcodes per email an hour; the sixth is refused.
	email := uniqueEmail("limit")
	for i := 0; i < 5; i++ {
		require.Equal(t, 200, env.Post("/v1/bootstrap", "", map[string]any{"email": email}).Status)
	}
	r := env.Post("/v1/bootstrap", "", map[string]any{"email": email})
	p := requireProblem(t, env, r, 429, "rate_limited")
	require.Greater(t, p["retry_after"], 60.0, "an hourly window")
	// Another email from the same address still works (20 per IP an hour).
	require.Equal(t, 200, env.Post("/v1/bootstrap", "", map[string]any{"email": uniqueEmail("other")}).Status)
}

// An existing account gets its existing store back (unchanged) and a new key;
// a session completes once.
func TestBootstrapExistingAccount(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	email := uniqueEmail("again")
	bootstrap := func(name string) (map[string]any, map[string]any) {
		sid := env.Post("/v1/bootstrap", "", map[string]any{"email": email}).JSON(t)["session_id"].(string)
		v := env.Post("/v1/bootstrap/verify", "", map[string]any{"session_id": sid, "code": mailboxPasscode(t, env, email)}).JSON(t)
		r := env.Post("/v1/bootstrap/store", "", map[string]any{"session_id": sid, "display_name": name})
		require.Equal(t, 200, r.Status, "%s", r.Body)
		again := env.Post("/v1/bootstrap/store", "", map[string]any{"session_id": sid, "display_name": name})
		requireProblem(t, env, again, 400, "invalid_session")
		return v, r.JSON(t)
	}
	v1, s1 := bootstrap("First Name")
	v2, s2 := bootstrap("Second Name")
	require.Equal(t, true, v1["account_created"])
	require.Equal(t, false, v2["account_created"])
	require.Equal(t, v1["account_id"], v2["account_id"])
	require.Equal(t, "First Name", s2["display_name"], "the existing store is returned unchanged")
	require.Equal(t, s1["slug"], s2["slug"])
	require.NotEqual(t, s1["api_key"], s2["api_key"])
	for _, k := range []any{s1["api_key"], s2["api_key"]} {
		require.Equal(t, 200, env.Get("/v1/account", k.(string)).Status)
	}
}

func TestUpdateAccount(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	put := func(body any) *testkit.Response {
		return env.Do(testkit.Request{Method: "PUT", Path: "/v1/account", Key: acc.Key, Body: body})
	}
	r := put(map[string]any{"ga_measurement_id": "G-ABC123DEF4", "notify_orders": false})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	a := r.JSON(t)
	require.Equal(t, "G-ABC123DEF4", a["ga_measurement_id"])
	require.Equal(t, false, a["notify_orders"])

	// Only given fields change; null clears.
	a = put(map[string]any{"notify_orders": true}).JSON(t)
	require.Equal(t, "G-ABC123DEF4", a["ga_measurement_id"])
	a = put(map[string]any{"ga_measurement_id": nil}).JSON(t)
	require.Nil(t, a["ga_measurement_id"])
	require.Equal(t, true, a["notify_orders"])

	p := requireProblem(t, env, put(map[string]any{"ga_measurement_id": "UA-12345-1", "display_name": ""}), 422, "validation_error")
	require.Equal(t, "ga_measurement_id", p["param"])
	require.Len(t, p["errors"], 2)
	p = requireProblem(t, env, put(map[string]any{"currency": "eur"}), 422, "validation_error")
	require.Equal(t, "currency", p["param"], "currency is not settable")
}

func TestStore(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	a, b := env.NewAccount(), env.NewAccount()
	put := func(key string, body any) *testkit.Response {
		return env.Do(testkit.Request{Method: "PUT", Path: "/v1/store", Key: key, Body: body})
	}
	slug := "shop-" + testkit.Unique()
	r := put(a.Key, map[string]any{"display_name": "Shop <A>", "bio": "Knitting patterns", "slug": strings.ToUpper(slug)})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	s := r.JSON(t)
	require.Equal(t, slug, s["slug"])
	require.Equal(t, env.URL+"/s/"+slug, s["url"])
	require.Equal(t, "Knitting patterns", s["bio"])
	require.Equal(t, false, s["readiness"].(map[string]any)["operational"])

	p := requireProblem(t, env, put(b.Key, map[string]any{"slug": slug}), 422, "validation_error")
	require.Equal(t, "slug", p["param"])
	p = requireProblem(t, env, put(b.Key, map[string]any{"avatar": "file_nope"}), 422, "validation_error")
	require.Equal(t, "avatar", p["param"])
	p = requireProblem(t, env, put(b.Key, map[string]any{"bio": strings.Repeat("x", 501)}), 422, "validation_error")
	require.Equal(t, "bio", p["param"])

	page := env.Get("/s/"+slug, "")
	require.Equal(t, 200, page.Status)
	require.Contains(t, string(page.Body), "Shop &lt;A&gt;", "escaped")
	require.Equal(t, 404, env.Get("/s/no-such-store-"+testkit.Unique(), "").Status)
	require.Equal(t, slug, env.Get("/v1/store", a.Key).JSON(t)["slug"])
	require.Nil(t, env.Get("/v1/store", b.Key).JSON(t)["slug"], "each key sees its own store")
}

func TestDeleteAccount(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	ctx := context.Background()
	second := env.Post("/v1/api-keys", acc.Key, map[string]any{"name": "second"}).JSON(t)["key"].(string)
	slug := "gone-" + testkit.Unique()
	require.Equal(t, 200, env.Do(testkit.Request{Method: "PUT", Path: "/v1/store", Key: acc.Key,
		Body: map[string]any{"slug": slug, "display_name": "Gone", "bio": "bio"}}).Status)
	_, err := env.Server.DB.Pool.Exec(ctx, `INSERT INTO webhook_endpoints (id, account_id, url, events, secret_ciphertext)
		VALUES ($1, $2, 'https://example.com/hook', '{order.paid}', '\x00')`, "wh_"+strings.ToLower(testkit.Unique()), acc.ID)
	require.NoError(t, err)

	r := env.Do(testkit.Request{Method: "DELETE", Path: "/v1/account", Key: acc.Key})
	require.Equal(t, 204, r.Status, "%s", r.Body)
	requireProblem(t, env, env.Get("/v1/account", acc.Key), 401, "authentication_error")
	requireProblem(t, env, env.Get("/v1/account", second), 401, "authentication_error")

	var email string
	var name, bio, storeSlug *string
	var deleted *time.Time
	require.NoError(t, env.Server.DB.Pool.QueryRow(ctx, `SELECT email, display_name, bio, slug, deleted_at FROM accounts WHERE id = $1`, acc.ID).
		Scan(&email, &name, &bio, &storeSlug, &deleted))
	require.Equal(t, "deleted+"+acc.ID+"@anonymized.invalid", email)
	require.Nil(t, name)
	require.Nil(t, bio)
	require.Nil(t, storeSlug)
	require.NotNil(t, deleted)
	var live, enabled int
	require.NoError(t, env.Server.DB.Pool.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL),
		(SELECT count(*) FROM webhook_endpoints WHERE account_id = $1 AND status = 'enabled')`, acc.ID).Scan(&live, &enabled))
	require.Zero(t, live, "every key revoked")
	require.Zero(t, enabled, "every webhook endpoint disabled")
	require.Equal(t, 404, env.Get("/s/"+slug, "").Status)

	// The email can open a new account.
	r = env.Post("/v1/bootstrap", "", map[string]any{"email": acc.Email})
	require.Equal(t, 200, r.Status, "%s", r.Body)
}

func TestProcessorDisconnect(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	del := func() *testkit.Response {
		return env.Do(testkit.Request{Method: "DELETE", Path: "/v1/account/processor", Key: acc.Key})
	}
	requireProblem(t, env, del(), 422, "missing_processor_connection")
	onb := env.Post("/v1/account/processor/connect", acc.Key, nil).JSON(t)
	resp, err := noRedirect(env).PostForm(onb["url"].(string), url.Values{"currency": {"jpy"}})
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	a := env.Get("/v1/account", acc.Key).JSON(t)
	require.Equal(t, true, a["readiness"].(map[string]any)["operational"])
	procID := a["processor"].(map[string]any)["account_id"]

	r := del()
	require.Equal(t, 200, r.Status, "%s", r.Body)
	d := r.JSON(t)
	require.Equal(t, "processor_disconnection", d["object"])
	require.Equal(t, procID, d["account_id"])
	a = env.Get("/v1/account", acc.Key).JSON(t)
	require.Equal(t, "disconnected", a["processor"].(map[string]any)["status"])
	require.Equal(t, false, a["readiness"].(map[string]any)["operational"])
	require.Equal(t, "connect_stripe", a["readiness"].(map[string]any)["next"])
	require.Equal(t, "jpy", a["currency"], "the currency stays")
	// The old onboarding link is dead; connecting again starts a new one.
	require.Equal(t, 404, env.Get(strings.TrimPrefix(onb["url"].(string), env.URL), "").Status)
	onb2 := env.Post("/v1/account/processor/connect", acc.Key, nil).JSON(t)
	require.NotEqual(t, onb["url"], onb2["url"])

	// Processor connect is limited to 5 a minute.
	for i := 0; i < 3; i++ {
		env.Post("/v1/account/processor/connect", acc.Key, nil)
	}
	requireProblem(t, env, env.Post("/v1/account/processor/connect", acc.Key, nil), 429, "rate_limited")
}
