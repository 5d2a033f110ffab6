package rest_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"commerce/processor/sandbox"
	"commerce/resolvers"
	"commerce/testkit"
)

// The buyer's library (CONTRACT §21): sign-in by a single-use emailed
// link, the commerce_buyer session, every order of the email across
// stores, one store's view, Deactivate from the library, portal links.

// librarySeller is a connected seller with a store name and a published
// listing (a text deliverable, or a license when licensed).
type librarySeller struct {
	testkit.Account
	Store   string
	Slug    string
	Listing map[string]any
}

func newLibrarySeller(t *testing.T, env *testkit.Env, store, title string, licensed bool) librarySeller {
	t.Helper()
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	r := env.Do(testkit.Request{Method: "PUT", Path: "/v1/store", Key: acc.Key, Body: map[string]any{"display_name": store,
		"slug": strings.ToLower(strings.ReplaceAll(store, " ", "-")) + "-" + testkit.Unique()}})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	slug := r.JSON(t)["slug"].(string)
	body := map[string]any{"title": title, "price": 1200, "deliverables": []map[string]any{{"type": "text", "value": "Thank you for " + title}}}
	if licensed {
		body = map[string]any{"title": title, "price": 1200, "license": map[string]any{"activation_limit": 2}}
	}
	return librarySeller{Account: acc, Store: store, Slug: slug, Listing: publishedListing(t, env, acc.Key, body)}
}

// libraryRequest sends a page request as a browser of the service's own
// origin would, from client address ip ("" for a fresh one), with the
// buyer's cookie when given; redirects are not followed.
func libraryRequest(t *testing.T, env *testkit.Env, method, path, cookie, ip string, form url.Values) (*http.Response, string) {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, env.URL+path, body)
	require.NoError(t, err)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", env.URL)
	}
	if ip == "" {
		ip = buyerIP()
	}
	req.Header.Set("X-Forwarded-For", ip)
	if cookie != "" {
		req.AddCookie(&http.Cookie{Name: "commerce_buyer", Value: cookie})
	}
	resp, err := noRedirect(env).Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(b)
}

// askSignIn posts the library's email form.
func askSignIn(t *testing.T, env *testkit.Env, email, ip string) (*http.Response, string) {
	t.Helper()
	return libraryRequest(t, env, "POST", "/library/sign-in", "", ip, url.Values{"email": {email}})
}

// runSignInJobs does what the workers do with email's sign-in requests
// still waiting, and waits for those another test's workers took (the
// package's tests share one database, and River's queue in it).
func runSignInJobs(t *testing.T, env *testkit.Env, email string) {
	t.Helper()
	ctx := context.Background()
	email = strings.ToLower(email)
	rows, err := env.Server.DB.Pool.Query(ctx, `DELETE FROM river_job WHERE kind = 'library_sign_in' AND args->>'email' = $1
		AND state = 'available' RETURNING args`, email)
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
	w := &resolvers.LibrarySignInWorker{R: env.Server.Resolver}
	for _, a := range jobs {
		require.NoError(t, w.Work(ctx, &river.Job[resolvers.LibrarySignInArgs]{Args: a}))
	}
	require.Eventually(t, func() bool {
		var n int
		require.NoError(t, env.Server.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM river_job WHERE kind = 'library_sign_in'
			AND args->>'email' = $1 AND state NOT IN ('completed', 'discarded', 'cancelled')`, email).Scan(&n))
		return n == 0
	}, 10*time.Second, 20*time.Millisecond)
}

var signInLinkPattern = regexp.MustCompile(`/library/auth/[A-Za-z0-9_-]+`)

// signInMails are the paths of the library sign-in links mailed to email,
// newest first.
func signInMails(t *testing.T, env *testkit.Env, email string) []string {
	t.Helper()
	rows, err := env.Server.DB.Pool.Query(context.Background(),
		`SELECT text_body FROM mail_messages WHERE lower(to_address) = lower($1) AND template = 'library_sign_in' ORDER BY created_at DESC, id DESC`, email)
	require.NoError(t, err)
	defer rows.Close()
	var links []string
	for rows.Next() {
		var text string
		require.NoError(t, rows.Scan(&text))
		links = append(links, signInLinkPattern.FindString(text))
	}
	return links
}

// signIn asks for a link, has it mailed, opens it and returns the
// session's cookie value.
func signIn(t *testing.T, env *testkit.Env, email string) string {
	t.Helper()
	resp, _ := askSignIn(t, env, email, "")
	require.Equal(t, 200, resp.StatusCode)
	runSignInJobs(t, env, email)
	links := signInMails(t, env, email)
	require.NotEmpty(t, links, "no sign-in mail to %s", email)
	return openSignIn(t, env, links[0])
}

// openSignIn opens a sign-in link and returns the session cookie it set.
func openSignIn(t *testing.T, env *testkit.Env, link string) string {
	t.Helper()
	resp, body := libraryRequest(t, env, "GET", link, "", "", nil)
	require.Equal(t, http.StatusSeeOther, resp.StatusCode, "%s", body)
	for _, c := range resp.Cookies() {
		if c.Name == "commerce_buyer" {
			return c.Value
		}
	}
	t.Fatalf("no commerce_buyer cookie from %s", link)
	return ""
}

func libraryEnv(t *testing.T) *testkit.Env { return codeEnv(t, nil) }

// A buyer who bought from two sellers (in two spellings of one email) signs
// in once and sees both stores' orders, grouped by store, newest first,
// with what each costs and links to its download page and review form;
// another buyer's order is not there. The store's own view shows one
// store. The download page and the email link the library. Sign out ends
// the session.
func TestLibraryAcrossSellers(t *testing.T) {
	t.Parallel()
	env := libraryEnv(t)
	moss := newLibrarySeller(t, env, "Moss Press", "Moss field guide", false)
	fern := newLibrarySeller(t, env, "Fern Works", "Fern atlas", false)
	ada := uniqueEmail("ada")
	mossOrder, _ := buy(t, env, moss.Listing["slug"].(string), url.Values{"email": {ada}}, "paid")
	mossLink := mailLinkTo(t, env, ada)
	fernOrder, _ := buy(t, env, fern.Listing["slug"].(string), url.Values{"email": {strings.ToUpper(ada)}}, "paid")
	other := uniqueEmail("grace")
	buy(t, env, moss.Listing["slug"].(string), url.Values{"email": {other}}, "paid")
	_ = mossOrder
	_ = fernOrder

	// The download email and the download page link the library.
	var text string
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(),
		`SELECT text_body FROM mail_messages WHERE to_address = $1 AND template = 'download_link' LIMIT 1`, ada).Scan(&text))
	require.Contains(t, text, env.URL+"/library")
	require.Contains(t, string(env.Get(strings.TrimPrefix(mossLink, env.URL), "").Body), `href="/library"`)

	// Signed out, /library is the email form.
	resp, form := libraryRequest(t, env, "GET", "/library", "", "", nil)
	require.Equal(t, 200, resp.StatusCode)
	require.Contains(t, form, `<form method="post" action="/library/sign-in">`)
	require.Contains(t, form, `type="email"`)
	require.Contains(t, form, `autocomplete="email"`)

	// The link, opened: the cookie, its hash stored, and /library.
	resp, _ = askSignIn(t, env, ada, "")
	require.Equal(t, 200, resp.StatusCode)
	runSignInJobs(t, env, ada)
	links := signInMails(t, env, ada)
	require.Len(t, links, 1)
	resp, _ = libraryRequest(t, env, "GET", links[0], "", "", nil)
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	require.Equal(t, "/library", resp.Header.Get("Location"))
	var ck *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == "commerce_buyer" {
			ck = c
		}
	}
	require.NotNil(t, ck)
	require.True(t, ck.HttpOnly)
	require.Equal(t, http.SameSiteLaxMode, ck.SameSite)
	require.False(t, ck.Secure, "http://: not Secure (https is)")
	require.Equal(t, 30*24*3600, ck.MaxAge)
	require.Equal(t, "/", ck.Path)
	sum := sha256.Sum256([]byte(ck.Value))
	var stored int
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(),
		`SELECT count(*) FROM buyer_sessions WHERE token_hash = $1 AND email = lower($2) AND account_id IS NULL`, sum[:], ada).Scan(&stored))
	require.Equal(t, 1, stored)
	var plain int
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(),
		`SELECT count(*) FROM buyer_sessions WHERE position($1::bytea IN token_hash) > 0`, []byte(ck.Value)).Scan(&plain))
	require.Zero(t, plain)

	resp, page := libraryRequest(t, env, "GET", "/library", ck.Value, "", nil)
	require.Equal(t, 200, resp.StatusCode)
	require.Contains(t, page, "Moss field guide")
	require.Contains(t, page, "Fern atlas")
	require.Contains(t, page, "Moss Press")
	require.Contains(t, page, "Fern Works")
	require.Contains(t, page, "$12.00")
	require.Less(t, strings.Index(page, "Fern Works"), strings.Index(page, "Moss Press"), "the store of the newest order first")
	require.Equal(t, 2, strings.Count(page, `class="purchase"`), "grace's order is not ada's")
	mossPath := strings.TrimPrefix(mossLink, env.URL)
	require.Contains(t, page, `href="`+mossPath+`"`)
	require.Contains(t, page, `href="`+mossPath+`#review"`)
	require.Contains(t, page, `href="/s/`+moss.Slug+`/library"`)
	require.Contains(t, page, `<form method="post" action="/library/sign-out">`)

	// One store's view.
	resp, one := libraryRequest(t, env, "GET", "/s/"+moss.Slug+"/library", ck.Value, "", nil)
	require.Equal(t, 200, resp.StatusCode)
	require.Contains(t, one, "Moss field guide")
	require.NotContains(t, one, "Fern atlas")
	require.Equal(t, 1, strings.Count(one, `class="purchase"`))
	// Signed out it is the form; an unknown store is 404.
	_, one = libraryRequest(t, env, "GET", "/s/"+moss.Slug+"/library", "", "", nil)
	require.Contains(t, one, `action="/library/sign-in"`)
	require.NotContains(t, one, "Moss field guide")
	resp, _ = libraryRequest(t, env, "GET", "/s/no-such-store-"+testkit.Unique()+"/library", ck.Value, "", nil)
	require.Equal(t, 404, resp.StatusCode)

	// A refunded order stays listed, without access.
	var pi string
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(), `SELECT payment_intent_id FROM orders WHERE id = $1`, mossOrder).Scan(&pi))
	require.NoError(t, env.Server.Resolver.ApplyProcessorEvent(context.Background(), sandbox.RefundConfirmed(mossOrder, pi, 1200, "usd")))
	_, page = libraryRequest(t, env, "GET", "/library", ck.Value, "", nil)
	require.Contains(t, page, "Refunded: this purchase can no longer be downloaded.")
	require.NotContains(t, page, `href="`+mossPath+`"`)

	// Sign out: the cookie is cleared and the session ends for good.
	resp, _ = libraryRequest(t, env, "POST", "/library/sign-out", ck.Value, "", url.Values{})
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	cleared := false
	for _, c := range resp.Cookies() {
		cleared = cleared || (c.Name == "commerce_buyer" && c.MaxAge < 0)
	}
	require.True(t, cleared)
	_, page = libraryRequest(t, env, "GET", "/library", ck.Value, "", nil)
	require.Contains(t, page, `action="/library/sign-in"`)
	require.NotContains(t, page, "Fern atlas")
	var revoked bool
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(),
		`SELECT revoked_at IS NOT NULL FROM buyer_sessions WHERE token_hash = $1`, sum[:]).Scan(&revoked))
	require.True(t, revoked)

	// The sign-in form refuses other sites and bad addresses, never a 500.
	req, _ := http.NewRequest("POST", env.URL+"/library/sign-in", strings.NewReader("email="+url.QueryEscape(ada)))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "https://evil.example")
	r, err := noRedirect(env).Do(req)
	require.NoError(t, err)
	r.Body.Close()
	require.Equal(t, http.StatusForbidden, r.StatusCode)
	for _, bad := range []string{"", "not an email", strings.Repeat("a", 300) + "@example.com"} {
		resp, body := askSignIn(t, env, bad, "")
		require.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode, bad)
		require.Contains(t, body, `aria-invalid="true"`)
	}
	for _, bad := range []string{"short", strings.Repeat("A", 43), strings.Repeat("x", 2000), "%00%ff"} {
		resp, body := libraryRequest(t, env, "GET", "/library/auth/"+bad, "", "", nil)
		require.Equal(t, http.StatusNotFound, resp.StatusCode, bad)
		require.Contains(t, body, "This sign-in link is not valid.")
	}
	resp, _ = libraryRequest(t, env, "GET", "/library", strings.Repeat("x", 3000), "", nil)
	require.Equal(t, 200, resp.StatusCode)
}

// A sign-in link works once: opened again it shows the form with the
// email filled in and says it was used. Past its 15 minutes it says it
// expired (the resolver's clock, and the page for a link past its time).
func TestLibrarySignInLinkUsedOrExpired(t *testing.T) {
	t.Parallel()
	env := libraryEnv(t)
	moss := newLibrarySeller(t, env, "Moss Press", "Moss field guide", false)
	ada := uniqueEmail("ada")
	buy(t, env, moss.Listing["slug"].(string), url.Values{"email": {ada}}, "paid")

	askSignIn(t, env, ada, "")
	runSignInJobs(t, env, ada)
	link := signInMails(t, env, ada)[0]
	head, _ := libraryRequest(t, env, "HEAD", link, "", "", nil)
	require.Equal(t, http.StatusSeeOther, head.StatusCode, "a HEAD answers as the GET would")
	require.Empty(t, head.Cookies(), "a HEAD (a link preview) does not sign in")
	openSignIn(t, env, link)
	head, _ = libraryRequest(t, env, "HEAD", link, "", "", nil)
	require.Equal(t, http.StatusGone, head.StatusCode, "a used link's HEAD answers as its GET")
	resp, body := libraryRequest(t, env, "GET", link, "", "", nil)
	require.Equal(t, http.StatusGone, resp.StatusCode)
	require.Empty(t, resp.Cookies())
	require.Contains(t, body, "This sign-in link was already used.")
	require.Contains(t, body, `value="`+ada+`"`)
	require.Contains(t, body, `action="/library/sign-in"`)

	// A link past its time, on the page.
	askSignIn(t, env, ada, "")
	runSignInJobs(t, env, ada)
	late := signInMails(t, env, ada)[0]
	require.NotEqual(t, link, late)
	_, err := env.Server.DB.Pool.Exec(context.Background(),
		`UPDATE buyer_sign_ins SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, hashOf(late[strings.LastIndex(late, "/")+1:]))
	require.NoError(t, err)
	resp, body = libraryRequest(t, env, "GET", late, "", "", nil)
	require.Equal(t, http.StatusGone, resp.StatusCode)
	require.Contains(t, body, "This sign-in link expired: links work for 15 minutes.")
	require.Contains(t, body, `value="`+ada+`"`)

	// The rule, on the resolver's clock: 15 minutes.
	askSignIn(t, env, ada, "")
	runSignInJobs(t, env, ada)
	fresh := signInMails(t, env, ada)[0]
	token := fresh[strings.LastIndex(fresh, "/")+1:]
	res := env.Server.Resolver
	now := time.Now()
	res.Now = func() time.Time { return now.Add(15*time.Minute + time.Second) }
	_, err = res.OpenLibrarySignIn(context.Background(), token)
	var refused *resolvers.SignInRefused
	require.ErrorAs(t, err, &refused)
	require.Equal(t, "expired", refused.Reason)
	require.Equal(t, strings.ToLower(ada), refused.Email)
	res.Now = func() time.Time { return now.Add(14 * time.Minute) }
	s, err := res.OpenLibrarySignIn(context.Background(), token)
	require.NoError(t, err)
	require.NotEmpty(t, s.Token)
	require.Equal(t, "/library", s.ReturnPath)
}

func hashOf(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// Known and unknown emails get the same answer, byte for byte; only the
// known one is mailed.
func TestLibrarySignInSameAnswer(t *testing.T) {
	t.Parallel()
	env := libraryEnv(t)
	moss := newLibrarySeller(t, env, "Moss Press", "Moss field guide", false)
	ada := uniqueEmail("ada")
	buy(t, env, moss.Listing["slug"].(string), url.Values{"email": {ada}}, "paid")
	nobody := uniqueEmail("nobody")

	known, knownBody := askSignIn(t, env, ada, "")
	unknown, unknownBody := askSignIn(t, env, nobody, "")
	require.Equal(t, 200, known.StatusCode)
	require.Equal(t, known.StatusCode, unknown.StatusCode)
	require.Equal(t, knownBody, unknownBody)
	require.Contains(t, knownBody, "Check your inbox")
	require.Empty(t, known.Cookies())
	require.Empty(t, unknown.Cookies())
	for _, h := range []string{"Content-Type", "Cache-Control", "Content-Length"} {
		require.Equal(t, known.Header.Get(h), unknown.Header.Get(h), h)
	}
	runSignInJobs(t, env, ada)
	runSignInJobs(t, env, nobody)
	require.Len(t, signInMails(t, env, ada), 1)
	require.Empty(t, signInMails(t, env, nobody))
}

// At most 5 sign-in mails an hour per email (then the same page, nothing
// sent), and 20 requests an hour per client address (then 429).
func TestLibrarySignInLimits(t *testing.T) {
	t.Parallel()
	env := libraryEnv(t)
	moss := newLibrarySeller(t, env, "Moss Press", "Moss field guide", false)
	ada := uniqueEmail("ada")
	buy(t, env, moss.Listing["slug"].(string), url.Values{"email": {ada}}, "paid")

	var first string
	for i := range 6 {
		resp, body := askSignIn(t, env, ada, "")
		require.Equal(t, 200, resp.StatusCode, "request %d", i+1)
		if i == 0 {
			first = body
		}
		require.Equal(t, first, body, "request %d", i+1)
	}
	runSignInJobs(t, env, ada)
	require.Len(t, signInMails(t, env, ada), 5, "the 6th sends nothing")

	ip := buyerIP()
	for i := range 20 {
		resp, _ := askSignIn(t, env, uniqueEmail("someone"), ip)
		require.Equal(t, 200, resp.StatusCode, "request %d", i+1)
	}
	resp, body := askSignIn(t, env, uniqueEmail("someone"), ip)
	require.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
	require.NotEmpty(t, resp.Header.Get("Retry-After"))
	require.Contains(t, body, "Too many sign-in requests")
}

// A license key's devices in the library, each with Deactivate through the
// one deactivation; a device of an order the session does not own is 404.
func TestLibraryDeactivatesDevice(t *testing.T) {
	t.Parallel()
	env := libraryEnv(t)
	keys := newLibrarySeller(t, env, "Key Foundry", "Fern sync app", true)
	ada, grace := uniqueEmail("ada"), uniqueEmail("grace")
	adaOrder, _ := buy(t, env, keys.Listing["slug"].(string), url.Values{"email": {ada}}, "paid")
	graceOrder, _ := buy(t, env, keys.Listing["slug"].(string), url.Values{"email": {grace}}, "paid")
	adaKey := fulfilledLicenseKeys(t, env, adaOrder)[0].(map[string]any)
	graceKey := fulfilledLicenseKeys(t, env, graceOrder)[0].(map[string]any)
	activate := func(key, fpr, label string) string {
		r := env.Post("/v1/licenses/activate", "", map[string]any{"key": key, "fingerprint": fpr, "label": label})
		require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
		return r.JSON(t)["activation"].(map[string]any)["id"].(string)
	}
	laptop := activate(adaKey["key"].(string), "fpr-laptop", "Ada's laptop")
	graceDevice := activate(graceKey["key"].(string), "fpr-grace", "Grace's desk")

	cookie := signIn(t, env, ada)
	_, page := libraryRequest(t, env, "GET", "/library", cookie, "", nil)
	require.Contains(t, page, adaKey["key"].(string))
	require.Contains(t, page, "Active on 1 of 2 devices")
	require.Contains(t, page, "Ada&#39;s laptop")
	action := "/library/licenses/" + adaKey["id"].(string) + "/deactivate"
	require.Contains(t, page, `<form method="post" action="`+action+`">`)

	// Grace's device through ada's session: 404, and nothing changes.
	resp, _ := libraryRequest(t, env, "POST", "/library/licenses/"+graceKey["id"].(string)+"/deactivate", cookie, "", url.Values{"activation_id": {graceDevice}})
	require.Equal(t, http.StatusNotFound, resp.StatusCode)
	resp, _ = libraryRequest(t, env, "POST", action, cookie, "", url.Values{"activation_id": {graceDevice}})
	require.Equal(t, http.StatusNotFound, resp.StatusCode)
	// Without a session: back to the form.
	resp, _ = libraryRequest(t, env, "POST", action, "", "", url.Values{"activation_id": {laptop}})
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	require.Equal(t, "/library", resp.Header.Get("Location"))

	resp, _ = libraryRequest(t, env, "POST", action, cookie, "", url.Values{"activation_id": {laptop}})
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	require.Equal(t, "/library?freed=1#"+adaKey["id"].(string), resp.Header.Get("Location"))
	_, page = libraryRequest(t, env, "GET", "/library?freed=1", cookie, "", nil)
	require.Contains(t, page, "Not active on any device yet (up to 2)")
	require.Contains(t, page, "The device was deactivated")
	evs := env.Get("/v1/events?type=license_key.deactivated", keys.Key).JSON(t)["data"].([]any)
	require.Len(t, evs, 1)
	var graceLeft int
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(),
		`SELECT count(*) FROM license_activations WHERE id = $1`, graceDevice).Scan(&graceLeft))
	require.Equal(t, 1, graceLeft)
}

// A seller's portal link: a single-use sign-in for 24 hours whose session
// shows only that seller's orders, even when the email bought elsewhere;
// another account's customer is 404; GraphQL does the same.
func TestPortalLink(t *testing.T) {
	t.Parallel()
	env := libraryEnv(t)
	moss := newLibrarySeller(t, env, "Moss Press", "Moss field guide", false)
	fern := newLibrarySeller(t, env, "Fern Works", "Fern atlas", false)
	ada := uniqueEmail("ada")
	buy(t, env, moss.Listing["slug"].(string), url.Values{"email": {ada}}, "paid")
	buy(t, env, fern.Listing["slug"].(string), url.Values{"email": {ada}}, "paid")
	customerOf := func(s librarySeller) string {
		r := env.Get("/v1/customers?email="+url.QueryEscape(ada), s.Key)
		require.Equal(t, 200, r.Status, "%s", r.Body)
		return r.JSON(t)["data"].([]any)[0].(map[string]any)["id"].(string)
	}
	mossCustomer, fernCustomer := customerOf(moss), customerOf(fern)

	before := time.Now()
	r := env.Post("/v1/customers/"+mossCustomer+"/portal-link", moss.Key, nil)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	link := r.JSON(t)
	require.Equal(t, "portal_link", link["object"])
	require.Regexp(t, `^`+regexp.QuoteMeta(env.URL)+`/library/auth/[A-Za-z0-9_-]{43}$`, link["url"])
	expires, err := time.Parse(time.RFC3339, link["expires_at"].(string))
	require.NoError(t, err)
	require.WithinDuration(t, before.Add(24*time.Hour), expires, time.Minute)

	// Another account's customer, and a malformed id.
	require.Equal(t, 404, env.Post("/v1/customers/"+fernCustomer+"/portal-link", moss.Key, nil).Status)
	require.Equal(t, 404, env.Post("/v1/customers/cus_01jdx0v3k7q8r9s0t1u2v3w4x5/portal-link", moss.Key, nil).Status)

	path := strings.TrimPrefix(link["url"].(string), env.URL)
	cookie := openSignIn(t, env, path)
	_, page := libraryRequest(t, env, "GET", "/library", cookie, "", nil)
	require.Contains(t, page, "Moss field guide")
	require.NotContains(t, page, "Fern atlas")
	require.Contains(t, page, "Moss Press")
	_, page = libraryRequest(t, env, "GET", "/s/"+fern.Slug+"/library", cookie, "", nil)
	require.NotContains(t, page, "Fern atlas")
	require.Contains(t, page, `action="/library/sign-in"`)
	var scoped string
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(),
		`SELECT account_id FROM buyer_sessions WHERE token_hash = $1`, hashOf(cookie)).Scan(&scoped))
	require.Equal(t, moss.ID, scoped)

	// Single use.
	resp, body := libraryRequest(t, env, "GET", path, "", "", nil)
	require.Equal(t, http.StatusGone, resp.StatusCode)
	require.Contains(t, body, "This sign-in link was already used.")

	// GraphQL, and the 24 hours on the resolver's clock.
	g := gql(t, env, moss.Key, `mutation($id: ID!) { createCustomerPortalLink(customerId: $id) { object url expiresAt } }`,
		map[string]any{"id": mossCustomer})
	u := gqlData(t, g)["createCustomerPortalLink"].(map[string]any)["url"].(string)
	token := u[strings.LastIndex(u, "/")+1:]
	res := env.Server.Resolver
	now := time.Now()
	res.Now = func() time.Time { return now.Add(24*time.Hour + time.Minute) }
	_, err = res.OpenLibrarySignIn(context.Background(), token)
	var refused *resolvers.SignInRefused
	require.ErrorAs(t, err, &refused)
	require.Equal(t, "expired", refused.Reason)
	res.Now = func() time.Time { return now.Add(23 * time.Hour) }
	s, err := res.OpenLibrarySignIn(context.Background(), token)
	require.NoError(t, err)
	require.NotEmpty(t, s.Token)
}
