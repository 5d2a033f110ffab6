package rest_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

// The developer console's session (CONTRACT §15): signIn turns a verified
// bootstrap session into the commerce_session cookie, which authenticates
// /graphql (POST and the websocket) from the service's own origin.

// consolePost posts a GraphQL operation as the console's browser would:
// same origin, with the cookie (when given) and no key.
func consolePost(t *testing.T, env *testkit.Env, cookie, query string, vars map[string]any, header map[string]string) *testkit.Response {
	t.Helper()
	h := map[string]string{"Origin": env.URL, "Sec-Fetch-Site": "same-origin"}
	if cookie != "" {
		h["Cookie"] = "commerce_session=" + cookie
	}
	for k, v := range header {
		if v == "" {
			delete(h, k)
		} else {
			h[k] = v
		}
	}
	return env.Do(testkit.Request{Method: http.MethodPost, Path: "/graphql", Body: map[string]any{"query": query, "variables": vars}, Header: h})
}

func consoleGQL(t *testing.T, env *testkit.Env, cookie, query string, vars map[string]any) (gqlResponse, *testkit.Response) {
	t.Helper()
	r := consolePost(t, env, cookie, query, vars, nil)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	var out gqlResponse
	r.Decode(t, &out)
	return out, r
}

// sessionCookie returns the commerce_session cookie r sets (nil if none).
func sessionCookie(r *testkit.Response) *http.Cookie {
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		if c.Name == "commerce_session" {
			return c
		}
	}
	return nil
}

// verifiedBootstrap runs bootstrap steps 1 and 2 over GraphQL for email and
// returns the verified session id.
func verifiedBootstrap(t *testing.T, env *testkit.Env, email string) string {
	t.Helper()
	res := gql(t, env, "", `mutation($e: String!) { startBootstrap(input: {email: $e}) { sessionId } }`, map[string]any{"e": email})
	require.Empty(t, res.Errors)
	var start struct {
		StartBootstrap struct{ SessionID string } `json:"startBootstrap"`
	}
	require.NoError(t, json.Unmarshal(res.Data, &start))
	res = gql(t, env, "", `mutation($s: ID!, $c: String!) { verifyBootstrap(input: {sessionId: $s, code: $c}) { status } }`,
		map[string]any{"s": start.StartBootstrap.SessionID, "c": mailboxPasscode(t, env, email)})
	require.Empty(t, res.Errors)
	return start.StartBootstrap.SessionID
}

const signInMutation = `mutation($s: ID!) { signIn(input: {sessionId: $s}) { expiresAt account { id email displayName } } }`

// consoleSignIn signs in with a verified bootstrap session and returns the cookie's value.
func consoleSignIn(t *testing.T, env *testkit.Env, sid string) string {
	t.Helper()
	res, r := consoleGQL(t, env, "", signInMutation, map[string]any{"s": sid})
	require.Empty(t, res.Errors, "%s", r.Body)
	c := sessionCookie(r)
	require.NotNil(t, c, "signIn sets the cookie: %v", r.Header)
	return c.Value
}

func requireGQLCode(t *testing.T, res gqlResponse, code string) {
	t.Helper()
	require.NotEmpty(t, res.Errors, "expected %s", code)
	ext, _ := res.Errors[0]["extensions"].(map[string]any)
	require.Equal(t, code, ext["code"], "%v", res.Errors)
}

// Sign up (bootstrap, the key once, then signIn), use the console with the
// cookie alone, sign out, and find the session refused; then sign in again
// to the existing account with a passcode.
func TestConsoleSignUpSignInSignOut(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	email := uniqueEmail("console")

	sid := verifiedBootstrap(t, env, email)
	res := gql(t, env, "", `mutation($s: ID!) { completeBootstrap(input: {sessionId: $s, displayName: "Console Shop"}) { id apiKey } }`,
		map[string]any{"s": sid})
	require.Empty(t, res.Errors)
	var done struct {
		CompleteBootstrap struct{ ID, APIKey string } `json:"completeBootstrap"`
	}
	require.NoError(t, json.Unmarshal(res.Data, &done))

	res, r := consoleGQL(t, env, "", signInMutation, map[string]any{"s": sid})
	require.Empty(t, res.Errors, "%s", r.Body)
	var in struct {
		SignIn struct {
			ExpiresAt time.Time
			Account   struct{ ID, Email, DisplayName string }
		} `json:"signIn"`
	}
	require.NoError(t, json.Unmarshal(res.Data, &in))
	require.Equal(t, done.CompleteBootstrap.ID, in.SignIn.Account.ID)
	require.Equal(t, email, in.SignIn.Account.Email)
	require.Equal(t, "Console Shop", in.SignIn.Account.DisplayName)
	require.WithinDuration(t, time.Now().Add(30*24*time.Hour), in.SignIn.ExpiresAt, time.Minute)

	c := sessionCookie(r)
	require.NotNil(t, c)
	require.True(t, c.HttpOnly)
	require.Equal(t, http.SameSiteLaxMode, c.SameSite)
	require.Equal(t, "/", c.Path)
	require.Equal(t, 30*24*3600, c.MaxAge)
	require.False(t, c.Secure, "BASE_URL is http")
	require.GreaterOrEqual(t, len(c.Value), 43)
	cookie := c.Value

	// The bootstrap session signs in once.
	res, _ = consoleGQL(t, env, "", signInMutation, map[string]any{"s": sid})
	requireGQLCode(t, res, "invalid_session")

	// The cookie alone reads and writes with the full scope.
	res, _ = consoleGQL(t, env, cookie, `{ viewer { id email } }`, nil)
	require.Empty(t, res.Errors)
	require.JSONEq(t, `{"viewer":{"id":"`+done.CompleteBootstrap.ID+`","email":"`+email+`"}}`, string(res.Data))
	res, _ = consoleGQL(t, env, cookie, `mutation { createApiKey(input: {name: "from the console"}) { key } }`, nil)
	require.Empty(t, res.Errors, "%v", res.Errors)

	// An API key sent with the cookie wins (the cookie is not looked at).
	r = consolePost(t, env, "not-a-session", `{ viewer { id } }`, nil, map[string]string{"Authorization": "Bearer " + done.CompleteBootstrap.APIKey})
	require.Equal(t, 200, r.Status, "%s", r.Body)

	// Sign out: true, the cookie cleared, the session refused at once.
	res, r = consoleGQL(t, env, cookie, `mutation { signOut }`, nil)
	require.Empty(t, res.Errors)
	require.JSONEq(t, `{"signOut":true}`, string(res.Data))
	cleared := sessionCookie(r)
	require.NotNil(t, cleared)
	require.Equal(t, "", cleared.Value)
	require.Less(t, cleared.MaxAge, 0, "Max-Age=0 deletes the cookie")

	r = consolePost(t, env, cookie, `{ viewer { id } }`, nil, nil)
	requireProblem(t, env, r, 401, "authentication_error")
	require.NotNil(t, sessionCookie(r), "a refused session's cookie is cleared")
	require.Equal(t, "", sessionCookie(r).Value)
	r = consolePost(t, env, "garbage", `{ plans { id } }`, nil, nil)
	requireProblem(t, env, r, 401, "authentication_error")

	// Sign in again to the existing account: passcode, then signIn.
	sid2 := verifiedBootstrap(t, env, email)
	cookie2 := consoleSignIn(t, env, sid2)
	require.NotEqual(t, cookie, cookie2)
	res, _ = consoleGQL(t, env, cookie2, `{ viewer { id } }`, nil)
	require.Empty(t, res.Errors)
	require.JSONEq(t, `{"viewer":{"id":"`+done.CompleteBootstrap.ID+`"}}`, string(res.Data))

	// The session is stored hashed: the token is nowhere in the table.
	var n int
	require.NoError(t, env.Server.DB.Pool.QueryRow(t.Context(),
		`SELECT count(*) FROM console_sessions WHERE account_id = $1 AND position($2::bytea in token_hash) > 0`,
		done.CompleteBootstrap.ID, []byte(cookie2)).Scan(&n))
	require.Zero(t, n)
}

// signIn refuses what is not a verified, unused bootstrap session, and a
// request that cannot keep a session (another origin).
func TestConsoleSignInRefusals(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	email := uniqueEmail("console-refuse")

	res := gql(t, env, "", `mutation($e: String!) { startBootstrap(input: {email: $e}) { sessionId } }`, map[string]any{"e": email})
	var start struct {
		StartBootstrap struct{ SessionID string } `json:"startBootstrap"`
	}
	require.NoError(t, json.Unmarshal(res.Data, &start))
	// Pending (the passcode not checked yet).
	res, _ = consoleGQL(t, env, "", signInMutation, map[string]any{"s": start.StartBootstrap.SessionID})
	requireGQLCode(t, res, "invalid_session")
	// Unknown and malformed ids.
	res, _ = consoleGQL(t, env, "", signInMutation, map[string]any{"s": "bss_01jf0000000000000000000000"})
	requireGQLCode(t, res, "invalid_session")
	res, _ = consoleGQL(t, env, "", signInMutation, map[string]any{"s": ""})
	requireGQLCode(t, res, "validation_error")

	sid := verifiedBootstrap(t, env, email)
	// From another origin: refused, and the bootstrap session stays usable.
	r := consolePost(t, env, "", signInMutation, map[string]any{"s": sid}, map[string]string{"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"})
	require.Equal(t, 200, r.Status)
	var out gqlResponse
	r.Decode(t, &out)
	requireGQLCode(t, out, "permission_denied")
	require.Nil(t, sessionCookie(r))
	consoleSignIn(t, env, sid)

	// signOut without a session: authentication_error; with a key: invalid_request.
	res, _ = consoleGQL(t, env, "", `mutation { signOut }`, nil)
	requireGQLCode(t, res, "authentication_error")
	acc := env.NewAccount()
	res = gql(t, env, acc.Key, `mutation { signOut }`, nil)
	requireGQLCode(t, res, "invalid_request")
}

// A request carrying only the cookie from another origin is refused with
// 403 permission_denied (http.CrossOriginProtection's semantics).
func TestConsoleSessionForeignOrigin(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	cookie := consoleSignIn(t, env, verifiedBootstrap(t, env, uniqueEmail("console-csrf")))

	for name, h := range map[string]map[string]string{
		"foreign Origin":            {"Origin": "https://evil.example", "Sec-Fetch-Site": ""},
		"cross-site Sec-Fetch-Site": {"Sec-Fetch-Site": "cross-site", "Origin": ""},
		"same-site subdomain":       {"Sec-Fetch-Site": "same-site", "Origin": "http://sub.127.0.0.1.example"},
		"both foreign":              {"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"},
	} {
		t.Run(name, func(t *testing.T) {
			r := consolePost(t, env, cookie, `mutation { createApiKey(input: {name: "stolen"}) { key } }`, nil, h)
			p := requireProblem(t, env, r, 403, "permission_denied")
			require.Contains(t, p["detail"], "origin")
		})
	}
	// The same request from the own origin, or from no browser at all, works.
	res, _ := consoleGQL(t, env, cookie, `{ viewer { id } }`, nil)
	require.Empty(t, res.Errors)
	r := consolePost(t, env, cookie, `{ viewer { id } }`, nil, map[string]string{"Origin": "", "Sec-Fetch-Site": ""})
	require.Equal(t, 200, r.Status, "%s", r.Body)
}

// Signing out on one process is refused by another at its very next request.
func TestConsoleSignOutEveryProcess(t *testing.T) {
	t.Parallel()
	prefix := testkit.NewRedisPrefix()
	a := testkit.New(t, testkit.WithRedisPrefix(prefix))
	b := testkit.New(t, testkit.WithRedisPrefix(prefix))
	cookie := consoleSignIn(t, a, verifiedBootstrap(t, a, uniqueEmail("console-procs")))

	for range 3 { // warm whatever b keeps
		res, _ := consoleGQL(t, b, cookie, `{ viewer { id } }`, nil)
		require.Empty(t, res.Errors)
	}
	res, _ := consoleGQL(t, a, cookie, `mutation { signOut }`, nil)
	require.Empty(t, res.Errors)
	requireProblem(t, b, consolePost(t, b, cookie, `{ viewer { id } }`, nil, nil), 401, "authentication_error")
}

// The events subscription over the websocket, authenticated by the cookie
// of the upgrade request (connection_init without a key); a signed-out
// session's connection is closed with 4403.
func TestConsoleSessionWebsocket(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers())
	email := uniqueEmail("console-ws")
	sid := verifiedBootstrap(t, env, email)
	res := gql(t, env, "", `mutation($s: ID!) { completeBootstrap(input: {sessionId: $s, displayName: "Live Shop"}) { apiKey } }`, map[string]any{"s": sid})
	require.Empty(t, res.Errors)
	var done struct {
		CompleteBootstrap struct{ APIKey string } `json:"completeBootstrap"`
	}
	require.NoError(t, json.Unmarshal(res.Data, &done))
	key := done.CompleteBootstrap.APIKey
	cookie := consoleSignIn(t, env, sid)
	connectSandbox(t, env, key)
	slug := publishedListing(t, env, key, map[string]any{"title": "Live " + testkit.Unique(), "price": 900})["slug"].(string)

	header := http.Header{"Cookie": {"commerce_session=" + cookie}, "Origin": {env.URL}}
	c, _, err := dialWS(t, env.URL, "graphql-transport-ws", header)
	require.NoError(t, err)
	c.send(map[string]any{"type": "connection_init", "payload": map[string]any{}})
	m, ok := c.next(5 * time.Second)
	require.True(t, ok, "no connection_ack: %v", c.err)
	require.Equal(t, "connection_ack", m.Type, "%s", m.Payload)
	c.subscribe("feed", nil)
	c.quiet(300 * time.Millisecond)
	orderID, _ := buy(t, env, slug, url.Values{"email": {uniqueEmail("buyer")}}, "paid")
	evs := c.events("feed", 1, 10*time.Second)
	require.Equal(t, "ORDER_PAID", evs[0].Type)
	require.NotNil(t, evs[0].OrderID)
	require.Equal(t, orderID, *evs[0].OrderID)

	// A foreign Origin with the cookie cannot even upgrade.
	_, resp, err := dialWS(t, env.URL, "graphql-transport-ws", http.Header{"Cookie": {"commerce_session=" + cookie}, "Origin": {"https://evil.example"}})
	require.Error(t, err)
	require.NotNil(t, resp)
	require.Equal(t, 403, resp.StatusCode)

	// Signed out: the open subscription ends, and a new connection is
	// refused at connection_init.
	res2, _ := consoleGQL(t, env, cookie, `mutation { signOut }`, nil)
	require.Empty(t, res2.Errors)
	var accountID string
	require.NoError(t, env.Server.DB.Pool.QueryRow(t.Context(), `SELECT id FROM accounts WHERE email = $1`, email).Scan(&accountID))
	insertEvent(t, env.Server.DB.Pool, accountID, "order.paid")
	ext := c.subscriptionError("feed", 10*time.Second)
	require.Equal(t, "authentication_error", ext["code"])
	c2, _, err := dialWS(t, env.URL, "graphql-transport-ws", header)
	require.NoError(t, err)
	c2.send(map[string]any{"type": "connection_init", "payload": map[string]any{}})
	code, reason := c2.closedWith(5 * time.Second)
	require.EqualValues(t, 4403, code)
	require.True(t, strings.HasPrefix(reason, "authentication_error"), reason)
}

// An expired session, and every session of a deleted account, is refused.
func TestConsoleSessionExpiredOrAccountDeleted(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	email := uniqueEmail("console-end")
	expired := consoleSignIn(t, env, verifiedBootstrap(t, env, email))
	live := consoleSignIn(t, env, verifiedBootstrap(t, env, email))

	_, err := env.Server.DB.Pool.Exec(t.Context(), `UPDATE console_sessions SET expires_at = now() - interval '1 second'
		WHERE id = (SELECT min(s.id) FROM console_sessions s JOIN accounts a ON a.id = s.account_id WHERE a.email = $1)`, email)
	require.NoError(t, err)
	p := requireProblem(t, env, consolePost(t, env, expired, `{ viewer { id } }`, nil, nil), 401, "authentication_error")
	require.Contains(t, p["detail"], "expired")
	res, _ := consoleGQL(t, env, live, `{ viewer { email } }`, nil)
	require.Empty(t, res.Errors)

	// The console deletes the account: its sessions end with it.
	res, _ = consoleGQL(t, env, live, `mutation { deleteAccount }`, nil)
	require.Empty(t, res.Errors, "%v", res.Errors)
	requireProblem(t, env, consolePost(t, env, live, `{ viewer { id } }`, nil, nil), 401, "authentication_error")
}
