package pages_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"commerce/config"
	"commerce/processor/sandbox"
	"commerce/resolvers"
	"commerce/testkit"
)

// The buyer's pages through the whole service (testkit: real PostgreSQL,
// Redis and the sandbox processor), over HTTP as a browser without
// JavaScript sends them.

func TestMain(m *testing.M) { testkit.Main(m) }

// pagesEnv is a service that trusts the loopback as a proxy, so each test
// can be its own client address (X-Forwarded-For): the buyer pages' limits
// are per address. configure, when given, changes the configuration
// further.
func pagesEnv(t *testing.T, configure ...func(*config.Config)) *testkit.Env {
	t.Helper()
	return testkit.New(t, testkit.WithConfig(func(c *config.Config) {
		c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
		for _, fn := range configure {
			fn(c)
		}
	}))
}

var addresses atomic.Uint32

// clientIP is a fresh client address.
func clientIP() string {
	n := addresses.Add(1)
	return fmt.Sprintf("10.%d.%d.%d", n>>16&255, n>>8&255, n&255)
}

func uniqueEmail(prefix string) string {
	return fmt.Sprintf("%s-%s@example.com", prefix, testkit.Unique())
}

// seller is a connected sandbox seller (usd) with a store.
type seller struct {
	testkit.Account
	Store string
	Slug  string
}

func newSeller(t *testing.T, env *testkit.Env, store string) seller {
	t.Helper()
	acc := env.NewAccount()
	onb := env.Post("/v1/account/processor/connect", acc.Key, nil)
	require.Equal(t, 200, onb.Status, "%s", onb.Body)
	resp, _ := send(t, env, "POST", onb.JSON(t)["url"].(string), "", url.Values{"currency": {"usd"}})
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	r := env.Do(testkit.Request{Method: "PUT", Path: "/v1/store", Key: acc.Key, Body: map[string]any{"display_name": store,
		"slug": strings.ToLower(strings.ReplaceAll(store, " ", "-")) + "-" + testkit.Unique()}})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	return seller{Account: acc, Store: store, Slug: r.JSON(t)["slug"].(string)}
}

// publish creates and publishes a listing with body.
func publish(t *testing.T, env *testkit.Env, key string, body map[string]any) map[string]any {
	t.Helper()
	r := env.Post("/v1/listings", key, body)
	require.Equal(t, 201, r.Status, "%s", r.Body)
	r = env.Post("/v1/listings/"+r.JSON(t)["id"].(string)+"/publish", key, nil)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	return r.JSON(t)
}

// membershipListing publishes a membership listing: price per interval,
// with a free trial of trialDays, a text deliverable unless body says
// otherwise.
func membershipListing(t *testing.T, env *testkit.Env, key string, price int64, interval string, trialDays int, body map[string]any) map[string]any {
	t.Helper()
	b := map[string]any{"title": "Club " + testkit.Unique(), "price": price,
		"deliverables": []map[string]any{{"type": "text", "value": "Welcome to the club"}},
		"billing":      "membership", "interval": interval, "trial_days": trialDays}
	for k, v := range body {
		b[k] = v
	}
	return publish(t, env, key, b)
}

// send sends a request as a browser on the service's own pages would:
// a form post with the service's Origin, from a fresh client address,
// with the buyer's cookie when given; redirects are not followed. A
// target may be a path or an absolute URL.
func send(t *testing.T, env *testkit.Env, method, target, cookie string, form url.Values) (*http.Response, string) {
	t.Helper()
	return sendFrom(t, env, method, target, cookie, env.URL, form)
}

// sendFrom is send with the Origin header given ("" for none).
func sendFrom(t *testing.T, env *testkit.Env, method, target, cookie, origin string, form url.Values) (*http.Response, string) {
	t.Helper()
	if !strings.HasPrefix(target, "http") {
		target = env.URL + target
	}
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, target, body)
	require.NoError(t, err)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
	}
	req.Header.Set("X-Forwarded-For", clientIP())
	if cookie != "" {
		req.AddCookie(&http.Cookie{Name: "commerce_buyer", Value: cookie})
	}
	c := *env.HTTP.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(b)
}

// page GETs a page and requires 200.
func page(t *testing.T, env *testkit.Env, target, cookie string) string {
	t.Helper()
	resp, body := send(t, env, "GET", target, cookie, nil)
	require.Equal(t, 200, resp.StatusCode, "%s", body)
	return body
}

// startCheckout posts the product page's form and returns the sandbox
// checkout's URL and the order id.
func startCheckout(t *testing.T, env *testkit.Env, slug string, form url.Values) (string, string) {
	t.Helper()
	resp, body := send(t, env, "POST", "/p/"+slug+"/checkout", "", form)
	require.Equal(t, http.StatusSeeOther, resp.StatusCode, "%s", body)
	checkout := resp.Header.Get("Location")
	require.True(t, strings.HasPrefix(checkout, env.URL+"/sandbox/checkout/sbx_cs_"), checkout)
	orderID, ok := sandbox.SessionOrderID(checkout[strings.LastIndex(checkout, "/")+1:])
	require.True(t, ok)
	return checkout, orderID
}

// buy goes through the product page and the sandbox checkout, paid, and
// returns the order id.
func buy(t *testing.T, env *testkit.Env, slug string, form url.Values) string {
	t.Helper()
	checkout, orderID := startCheckout(t, env, slug, form)
	page(t, env, checkout, "")
	resp, body := send(t, env, "POST", checkout, "", url.Values{"outcome": {"paid"}})
	require.Equal(t, http.StatusSeeOther, resp.StatusCode, "%s", body)
	require.Contains(t, resp.Header.Get("Location"), "/thank-you?order="+orderID)
	return orderID
}

var signInLink = regexp.MustCompile(`/library/auth/[A-Za-z0-9_-]+`)

// signIn signs email in to the library as a buyer does (the email form,
// the mailed link, the cookie) and returns the session's cookie value.
func signIn(t *testing.T, env *testkit.Env, email string) string {
	t.Helper()
	ctx := context.Background()
	resp, _ := send(t, env, "POST", "/library/sign-in", "", url.Values{"email": {email}})
	require.Equal(t, 200, resp.StatusCode)
	// What the worker does with the request (the env runs no workers).
	rows, err := env.Server.DB.Pool.Query(ctx, `DELETE FROM river_job WHERE kind = 'library_sign_in' AND args->>'email' = $1
		AND state = 'available' RETURNING args`, strings.ToLower(email))
	require.NoError(t, err)
	var jobs []resolvers.LibrarySignInArgs
	for rows.Next() {
		var raw []byte
		require.NoError(t, rows.Scan(&raw))
		var a resolvers.LibrarySignInArgs
		require.NoError(t, json.Unmarshal(raw, &a))
		jobs = append(jobs, a)
	}
	require.NoError(t, rows.Err())
	require.NotEmpty(t, jobs)
	w := &resolvers.LibrarySignInWorker{R: env.Server.Resolver}
	for _, a := range jobs {
		require.NoError(t, w.Work(ctx, &river.Job[resolvers.LibrarySignInArgs]{Args: a}))
	}
	var text string
	require.NoError(t, env.Server.DB.Pool.QueryRow(ctx, `SELECT text_body FROM mail_messages WHERE lower(to_address) = lower($1)
		AND template = 'library_sign_in' ORDER BY created_at DESC, id DESC LIMIT 1`, email).Scan(&text))
	link := signInLink.FindString(text)
	require.NotEmpty(t, link, "no sign-in link in %q", text)
	return openSignIn(t, env, link)
}

// openSignIn opens a sign-in link and returns the session cookie it set.
func openSignIn(t *testing.T, env *testkit.Env, link string) string {
	t.Helper()
	resp, body := send(t, env, "GET", link, "", nil)
	require.Equal(t, http.StatusSeeOther, resp.StatusCode, "%s", body)
	for _, c := range resp.Cookies() {
		if c.Name == "commerce_buyer" {
			return c.Value
		}
	}
	t.Fatalf("no commerce_buyer cookie from %s", link)
	return ""
}

// dump writes a page's HTML under $PAGES_DUMP_DIR (when set) for a
// screenshot: the pages' assets are their own, so the file renders alone.
func dump(t *testing.T, name, html string) {
	t.Helper()
	dir := os.Getenv("PAGES_DUMP_DIR")
	if dir == "" {
		return
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, name+".html"), []byte(html), 0o644))
}

// text is a page's text as a reader hears it: tags dropped, spaces
// collapsed, entities of the templates decoded.
func text(html string) string {
	s := regexp.MustCompile(`(?s)<(script|style)[^>]*>.*?</(script|style)>`).ReplaceAllString(html, " ")
	s = regexp.MustCompile(`<[^>]*>`).ReplaceAllString(s, " ")
	s = strings.NewReplacer("&#39;", "'", "&amp;", "&", "&quot;", `"`, "&lt;", "<", "&gt;", ">", "&#43;", "+").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}
