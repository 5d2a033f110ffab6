package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/config"
	"commerce/graph/model"
	"commerce/problem"
	"commerce/resolvers"
	"commerce/testkit"
)

// Agent connections, the seller's side (CONTRACT §25): REST and GraphQL,
// the token and webhook secret shown once, validation, scoping, the cap,
// the endpoint kept out of the seller's webhooks, refusal of the token at
// once on every process, and the offer_to_agents readiness action.

var (
	agentTokenRE  = regexp.MustCompile(`^acp_[0-9A-Za-z]{40}$`)
	agentIDRE     = regexp.MustCompile(`^acn_[0-9a-z]{26}$`)
	agentWebhook  = "https://agents.example.com/acp/webhooks"
	agentConnKeys = []string{"created_at", "id", "last_used_at", "name", "object", "status", "webhook_url"}
)

func createAgentConnection(t *testing.T, env *testkit.Env, key, name string) map[string]any {
	t.Helper()
	r := env.Post("/v1/agent-connections", key, map[string]any{"name": name, "webhook_url": agentWebhook})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	return r.JSON(t)
}

func keysOf(m map[string]any) []string { return sortedStrings(slices.Collect(maps.Keys(m))) }

func sortedStrings(s []string) []string { slices.Sort(s); return s }

func requireAgentProblem(t *testing.T, r *testkit.Response, status int, code, param string) {
	t.Helper()
	require.Equal(t, status, r.Status, "%s", r.Body)
	body := r.JSON(t)
	require.Equal(t, code, body["code"], "%s", r.Body)
	if param != "" {
		require.Equal(t, param, body["param"], "%s", r.Body)
	}
}

// Create answers 201 with the token and the webhook secret, once; list,
// get and patch show the connection without them; delete answers 204 and
// the connection is gone.
func TestAgentConnectionsLifecycle(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()

	r := env.Post("/v1/agent-connections", acc.Key, map[string]any{"name": "  Shopping assistant  ", "webhook_url": agentWebhook})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	require.Equal(t, "no-store", r.Header.Get("Cache-Control"))
	created := r.JSON(t)
	require.Equal(t, sortedStrings(append([]string{"token", "webhook_secret"}, agentConnKeys...)), keysOf(created))
	require.Equal(t, "agent_connection", created["object"])
	require.Regexp(t, agentIDRE, created["id"])
	require.Equal(t, "Shopping assistant", created["name"], "the name is trimmed")
	require.Equal(t, agentWebhook, created["webhook_url"])
	require.Equal(t, "active", created["status"])
	require.Nil(t, created["last_used_at"])
	require.Regexp(t, agentTokenRE, created["token"])
	require.Regexp(t, `^whsec_`, created["webhook_secret"])
	id, token := created["id"].(string), created["token"].(string)

	// Stored: the token's SHA-256 only, the secret sealed.
	var stored []byte
	var sealed []byte
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(), `SELECT c.token_hash, e.secret_ciphertext
		FROM agent_connections c JOIN webhook_endpoints e ON e.agent_connection_id = c.id WHERE c.id = $1`, id).Scan(&stored, &sealed))
	require.Len(t, stored, 32)
	require.NotContains(t, string(stored), token[4:])
	require.NotContains(t, string(sealed), created["webhook_secret"].(string)[6:])
	opened, err := env.Server.Resolver.Secrets.Open(sealed)
	require.NoError(t, err)
	require.Equal(t, created["webhook_secret"], opened)

	// Shown once: never again.
	got := env.Get("/v1/agent-connections/"+id, acc.Key)
	require.Equal(t, http.StatusOK, got.Status, "%s", got.Body)
	one := got.JSON(t)
	require.Equal(t, agentConnKeys, keysOf(one))
	for _, k := range agentConnKeys {
		require.Equal(t, created[k], one[k], k)
	}
	list := env.Get("/v1/agent-connections", acc.Key)
	require.Equal(t, http.StatusOK, list.Status, "%s", list.Body)
	require.NotContains(t, string(list.Body), token)
	require.NotContains(t, string(list.Body), created["webhook_secret"])
	lj := list.JSON(t)
	require.Equal(t, "list", lj["object"])
	require.Equal(t, false, lj["has_more"])
	require.Nil(t, lj["next_cursor"])
	require.Len(t, lj["data"], 1)
	require.Equal(t, one, lj["data"].([]any)[0])

	// Newest first, paged by cursor.
	second := createAgentConnection(t, env, acc.Key, "Second platform")
	page := env.Get("/v1/agent-connections?limit=1", acc.Key).JSON(t)
	require.Equal(t, second["id"], page["data"].([]any)[0].(map[string]any)["id"])
	require.Equal(t, true, page["has_more"])
	page = env.Get("/v1/agent-connections?limit=1&cursor="+page["next_cursor"].(string), acc.Key).JSON(t)
	require.Equal(t, id, page["data"].([]any)[0].(map[string]any)["id"])
	require.Equal(t, false, page["has_more"])

	// PATCH changes only the given fields.
	p := env.Do(testkit.Request{Method: "PATCH", Path: "/v1/agent-connections/" + id, Key: acc.Key,
		Body: map[string]any{"name": "Renamed", "webhook_url": "https://agents.example.com/other"}})
	require.Equal(t, http.StatusOK, p.Status, "%s", p.Body)
	pj := p.JSON(t)
	require.Equal(t, "Renamed", pj["name"])
	require.Equal(t, "https://agents.example.com/other", pj["webhook_url"])
	require.Equal(t, "active", pj["status"])
	var url, epName, epStatus string
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(), `SELECT url, name, status FROM webhook_endpoints
		WHERE agent_connection_id = $1`, id).Scan(&url, &epName, &epStatus))
	require.Equal(t, []string{"https://agents.example.com/other", "Renamed", "enabled"}, []string{url, epName, epStatus},
		"the endpoint changes with its connection")

	p = env.Do(testkit.Request{Method: "PATCH", Path: "/v1/agent-connections/" + id, Key: acc.Key, Body: map[string]any{"status": "disabled"}})
	require.Equal(t, http.StatusOK, p.Status, "%s", p.Body)
	require.Equal(t, "disabled", p.JSON(t)["status"])
	require.Equal(t, "Renamed", p.JSON(t)["name"])
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(), `SELECT status FROM webhook_endpoints
		WHERE agent_connection_id = $1`, id).Scan(&epStatus))
	require.Equal(t, "disabled", epStatus, "a disabled connection sends nothing")
	p = env.Do(testkit.Request{Method: "PATCH", Path: "/v1/agent-connections/" + id, Key: acc.Key, Body: map[string]any{"status": "active"}})
	require.Equal(t, "active", p.JSON(t)["status"])

	// Delete: 204, then 404 everywhere, and the endpoint deleted with it.
	d := env.Do(testkit.Request{Method: "DELETE", Path: "/v1/agent-connections/" + id, Key: acc.Key})
	require.Equal(t, http.StatusNoContent, d.Status, "%s", d.Body)
	requireAgentProblem(t, env.Get("/v1/agent-connections/"+id, acc.Key), 404, "not_found", "")
	requireAgentProblem(t, env.Do(testkit.Request{Method: "DELETE", Path: "/v1/agent-connections/" + id, Key: acc.Key}), 404, "not_found", "")
	requireAgentProblem(t, env.Do(testkit.Request{Method: "PATCH", Path: "/v1/agent-connections/" + id, Key: acc.Key,
		Body: map[string]any{"status": "active"}}), 404, "not_found", "")
	var deleted bool
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(), `SELECT deleted_at IS NOT NULL FROM webhook_endpoints
		WHERE agent_connection_id = $1`, id).Scan(&deleted))
	require.True(t, deleted)
	list = env.Get("/v1/agent-connections", acc.Key)
	require.Len(t, list.JSON(t)["data"], 1)

	// A read-only key reads but does not write.
	ro := env.Post("/v1/api-keys", acc.Key, map[string]any{"name": "ro", "scope": "read_only"}).JSON(t)["key"].(string)
	require.Equal(t, http.StatusOK, env.Get("/v1/agent-connections", ro).Status)
	requireAgentProblem(t, env.Post("/v1/agent-connections", ro, map[string]any{"name": "x", "webhook_url": agentWebhook}), 403, "permission_denied", "")
}

// Bad input is a 422 naming the field; nothing is created.
func TestAgentConnectionValidation(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	for name, tc := range map[string]struct {
		body  any
		param string
	}{
		"no name":          {map[string]any{"webhook_url": agentWebhook}, "name"},
		"blank name":       {map[string]any{"name": "   ", "webhook_url": agentWebhook}, "name"},
		"long name":        {map[string]any{"name": strings.Repeat("é", 101), "webhook_url": agentWebhook}, "name"},
		"no webhook_url":   {map[string]any{"name": "A"}, "webhook_url"},
		"relative":         {map[string]any{"name": "A", "webhook_url": "/hooks"}, "webhook_url"},
		"not http":         {map[string]any{"name": "A", "webhook_url": "ftp://agents.example.com/x"}, "webhook_url"},
		"unknown field":    {map[string]any{"name": "A", "webhook_url": agentWebhook, "events": []string{"order.paid"}}, "events"},
		"too long webhook": {map[string]any{"name": "A", "webhook_url": "https://agents.example.com/" + strings.Repeat("a", 3000)}, "webhook_url"},
	} {
		t.Run(name, func(t *testing.T) {
			r := env.Do(testkit.Request{Method: "POST", Path: "/v1/agent-connections", Key: acc.Key, Body: tc.body})
			requireAgentProblem(t, r, 422, "validation_error", tc.param)
		})
	}
	requireAgentProblem(t, env.Do(testkit.Request{Method: "POST", Path: "/v1/agent-connections", Key: acc.Key, Body: "{", NoCheck: true}),
		400, "invalid_request", "")
	require.Empty(t, env.Get("/v1/agent-connections", acc.Key).JSON(t)["data"])

	id := createAgentConnection(t, env, acc.Key, "Platform")["id"].(string)
	for name, tc := range map[string]struct {
		body  any
		param string
	}{
		"bad status":  {map[string]any{"status": "paused"}, "status"},
		"blank name":  {map[string]any{"name": ""}, "name"},
		"bad url":     {map[string]any{"webhook_url": "not a url"}, "webhook_url"},
		"token field": {map[string]any{"token": "acp_x"}, "token"},
	} {
		t.Run("patch "+name, func(t *testing.T) {
			r := env.Do(testkit.Request{Method: "PATCH", Path: "/v1/agent-connections/" + id, Key: acc.Key, Body: tc.body, NoCheck: true})
			requireAgentProblem(t, r, 422, "validation_error", tc.param)
		})
	}
	requireAgentProblem(t, env.Get("/v1/agent-connections/acn_nope", acc.Key), 404, "not_found", "")
	requireAgentProblem(t, env.Get("/v1/agent-connections?limit=0", acc.Key), 422, "validation_error", "limit")
	requireAgentProblem(t, env.Get("/v1/agent-connections?cursor=bogus", acc.Key), 422, "validation_error", "cursor")
}

// Another account's connection does not exist for the caller.
func TestAgentConnectionOtherAccount(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	owner, other := env.NewAccount(), env.NewAccount()
	id := createAgentConnection(t, env, owner.Key, "Owner's platform")["id"].(string)
	requireAgentProblem(t, env.Get("/v1/agent-connections/"+id, other.Key), 404, "not_found", "")
	requireAgentProblem(t, env.Do(testkit.Request{Method: "PATCH", Path: "/v1/agent-connections/" + id, Key: other.Key,
		Body: map[string]any{"status": "disabled"}}), 404, "not_found", "")
	requireAgentProblem(t, env.Do(testkit.Request{Method: "DELETE", Path: "/v1/agent-connections/" + id, Key: other.Key}), 404, "not_found", "")
	require.Empty(t, env.Get("/v1/agent-connections", other.Key).JSON(t)["data"])
	g := gql(t, env, other.Key, `query($id: ID!) { agentConnection(id: $id) { id } node(id: $id) { id } }`, map[string]any{"id": id})
	require.JSONEq(t, `{"agentConnection": null, "node": null}`, string(g.Data))
	require.Equal(t, "active", env.Get("/v1/agent-connections/"+id, owner.Key).JSON(t)["status"], "untouched")
}

// An account has at most 20 live connections; a deleted one frees a place.
func TestAgentConnectionCap(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	var first string
	for i := range 20 {
		c := createAgentConnection(t, env, acc.Key, fmt.Sprintf("Platform %d", i))
		if i == 0 {
			first = c["id"].(string)
		}
	}
	r := env.Post("/v1/agent-connections", acc.Key, map[string]any{"name": "One too many", "webhook_url": agentWebhook})
	requireAgentProblem(t, r, 409, "conflict", "")
	require.EqualValues(t, 20, r.JSON(t)["max_count"])
	require.Equal(t, 204, env.Do(testkit.Request{Method: "DELETE", Path: "/v1/agent-connections/" + first, Key: acc.Key}).Status)
	createAgentConnection(t, env, acc.Key, "In the freed place")

	// The connections' endpoints count against none of the seller's own
	// limits: all 16 endpoints can still be created.
	for i := range 16 {
		w := env.Post("/v1/webhooks", acc.Key, map[string]any{"url": fmt.Sprintf("https://seller.example.com/%d", i)})
		require.Equal(t, 201, w.Status, "endpoint %d: %s", i, w.Body)
	}
}

// Under the operator's default address rules, webhook_url follows §12's
// rules: https, and never a private, loopback or link-local address.
func TestAgentConnectionWebhookURLRefusesPrivateTargets(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithConfig(func(c *config.Config) { c.AllowPrivateTargets = false }))
	acc := env.NewAccount()
	for _, u := range []string{"https://127.0.0.1/hook", "https://10.1.2.3/hook", "https://169.254.169.254/latest", "https://[::1]/hook",
		"https://localhost/hook", "http://agents.example.com/hook"} {
		t.Run(u, func(t *testing.T) {
			r := env.Post("/v1/agent-connections", acc.Key, map[string]any{"name": "Platform", "webhook_url": u})
			requireAgentProblem(t, r, 422, "validation_error", "webhook_url")
			require.Contains(t, r.JSON(t)["detail"], "webhook_url")
		})
	}
	require.Empty(t, env.Get("/v1/agent-connections", acc.Key).JSON(t)["data"])
}

// The connection's webhook endpoint is the connection's: the seller's
// endpoint list, GET/PUT/DELETE/test of it, its deliveries, and node() do
// not show it, and it asks nothing of the seller's readiness.
func TestAgentConnectionEndpointHidden(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	own := env.Post("/v1/webhooks", acc.Key, map[string]any{"url": "https://seller.example.com/hook"}).JSON(t)["id"].(string)
	id := createAgentConnection(t, env, acc.Key, "Platform")["id"].(string)
	var wh string
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(), `SELECT id FROM webhook_endpoints WHERE agent_connection_id = $1`, id).Scan(&wh))

	list := env.Get("/v1/webhooks", acc.Key).JSON(t)["data"].([]any)
	require.Len(t, list, 1)
	require.Equal(t, own, list[0].(map[string]any)["id"])
	requireAgentProblem(t, env.Get("/v1/webhooks/"+wh, acc.Key), 404, "not_found", "")
	requireAgentProblem(t, env.Get("/v1/webhooks/"+wh+"/events", acc.Key), 404, "not_found", "")
	requireAgentProblem(t, env.Do(testkit.Request{Method: "PUT", Path: "/v1/webhooks/" + wh, Key: acc.Key, Body: map[string]any{"status": "disabled"}}), 404, "not_found", "")
	requireAgentProblem(t, env.Post("/v1/webhooks/"+wh+"/test", acc.Key, nil), 404, "not_found", "")
	requireAgentProblem(t, env.Do(testkit.Request{Method: "DELETE", Path: "/v1/webhooks/" + wh, Key: acc.Key}), 404, "not_found", "")
	g := gql(t, env, acc.Key, `query($id: ID!) { node(id: $id) { id } viewer { webhooks { edges { node { id } } } } }`, map[string]any{"id": wh})
	require.Empty(t, g.Errors)
	require.JSONEq(t, fmt.Sprintf(`{"node": null, "viewer": {"webhooks": {"edges": [{"node": {"id": %q}}]}}}`, own), string(g.Data))

	// Turned off by the dispatcher after failures, and failing: neither
	// webhook_disabled nor webhook_failing points the seller at it, and it
	// is no order.paid subscriber for configure_fulfillment.
	_, err := env.Server.DB.Pool.Exec(context.Background(), `UPDATE webhook_endpoints SET status = 'disabled',
		disabled_reason = 'consecutive_failures', warned_at = now() WHERE id = $1`, wh)
	require.NoError(t, err)
	_, err = env.Server.DB.Pool.Exec(context.Background(), `DELETE FROM webhook_endpoints WHERE id = $1`, own)
	require.NoError(t, err)
	readiness := fmt.Sprint(env.Get("/v1/account", acc.Key).JSON(t)["readiness"])
	require.NotContains(t, readiness, "webhook_disabled")
	require.NotContains(t, readiness, "webhook_failing")
	_, err = env.Server.DB.Pool.Exec(context.Background(), `UPDATE webhook_endpoints SET status = 'enabled', disabled_reason = NULL WHERE id = $1`, wh)
	require.NoError(t, err)
	draft := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Draft " + testkit.Unique(), "price": 900}).JSON(t)
	require.Contains(t, fmt.Sprint(draft["readiness"]), "configure_fulfillment")

	// PATCH status active turns an endpoint the dispatcher turned off back on.
	_, err = env.Server.DB.Pool.Exec(context.Background(), `UPDATE webhook_endpoints SET status = 'disabled',
		disabled_reason = 'consecutive_failures', consecutive_failures = 3 WHERE id = $1`, wh)
	require.NoError(t, err)
	p := env.Do(testkit.Request{Method: "PATCH", Path: "/v1/agent-connections/" + id, Key: acc.Key, Body: map[string]any{"status": "active"}})
	require.Equal(t, 200, p.Status, "%s", p.Body)
	var status string
	var failures int
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(), `SELECT status, consecutive_failures FROM webhook_endpoints WHERE id = $1`, wh).
		Scan(&status, &failures))
	require.Equal(t, "enabled", status)
	require.Zero(t, failures)
}

// Disabling or deleting a connection through one process refuses its token
// on the other's very next call; enabling accepts it again. last_used_at
// is written by a call. (The loop calls the use cases REST calls, on
// process a: 50 rounds through /v1 would exceed the group's 60 a minute;
// the first round goes through /v1.)
func TestAgentConnectionTokenRefusedAtOnce(t *testing.T) {
	a, b := twoProcesses(t)
	acc := a.NewAccount()
	ctx := context.Background()
	seller := resolvers.WithPrincipal(ctx, resolvers.Principal{AccountID: acc.ID, Scope: resolvers.ScopeFull})
	authErr := func(err error) string {
		t.Helper()
		require.Error(t, err)
		p := problem.From(err)
		require.Equal(t, problem.AuthenticationError, p.Code, "%v", err)
		return p.Detail
	}
	setStatus := func(i int, id string, status model.AgentConnectionStatus) {
		t.Helper()
		if i == 0 {
			r := a.Do(testkit.Request{Method: "PATCH", Path: "/v1/agent-connections/" + id, Key: acc.Key, Body: map[string]any{"status": status}})
			require.Equal(t, 200, r.Status, "%s", r.Body)
			return
		}
		_, err := a.Server.Resolver.UpdateAgentConnection(seller, id, model.UpdateAgentConnectionInput{Status: &status})
		require.NoError(t, err)
	}
	for i := range 50 {
		var id, token string
		if i == 0 {
			c := createAgentConnection(t, a, acc.Key, "Platform 0")
			id, token = c["id"].(string), c["token"].(string)
		} else {
			c, err := a.Server.Resolver.CreateAgentConnection(seller, model.CreateAgentConnectionInput{Name: fmt.Sprintf("Platform %d", i), WebhookURL: agentWebhook})
			require.NoError(t, err)
			id, token = c.ID, c.Token
		}
		for _, e := range []*testkit.Env{a, b, a, b} {
			p, err := e.Server.Resolver.AuthenticateAgentConnection(ctx, token)
			require.NoError(t, err, "iteration %d", i)
			require.Equal(t, resolvers.AgentPrincipal{ConnectionID: id, AccountID: acc.ID}, p)
		}
		if i == 0 {
			got := a.Get("/v1/agent-connections/"+id, acc.Key).JSON(t)
			require.NotNil(t, got["last_used_at"], "a call records its use")
		}
		setStatus(i, id, model.AgentConnectionStatusDisabled)
		_, err := b.Server.Resolver.AuthenticateAgentConnection(ctx, token)
		require.Contains(t, authErr(err), "disabled", "iteration %d: the disabled token was accepted by the other process", i)

		setStatus(i, id, model.AgentConnectionStatusActive)
		_, err = b.Server.Resolver.AuthenticateAgentConnection(ctx, token)
		require.NoError(t, err, "iteration %d: enabled again", i)

		if i == 0 {
			require.Equal(t, 204, a.Do(testkit.Request{Method: "DELETE", Path: "/v1/agent-connections/" + id, Key: acc.Key}).Status)
		} else {
			_, err := a.Server.Resolver.DeleteAgentConnection(seller, id)
			require.NoError(t, err)
		}
		_, err = b.Server.Resolver.AuthenticateAgentConnection(ctx, token)
		require.Contains(t, authErr(err), "deleted", "iteration %d: the deleted token was accepted by the other process", i)
	}

	// Malformed and unknown tokens; an API key is no agent token.
	_, err := b.Server.Resolver.AuthenticateAgentConnection(ctx, "acp_short")
	require.Contains(t, authErr(err), "malformed")
	_, err = b.Server.Resolver.AuthenticateAgentConnection(ctx, acc.Key)
	require.Contains(t, authErr(err), "malformed")
	_, err = b.Server.Resolver.AuthenticateAgentConnection(ctx, "acp_"+strings.Repeat("A", 40))
	require.Contains(t, authErr(err), "not valid")

	// The account deleted: its tokens fail.
	c := createAgentConnection(t, a, acc.Key, "Last")
	require.Equal(t, 204, a.Do(testkit.Request{Method: "DELETE", Path: "/v1/account", Key: acc.Key}).Status)
	_, err = b.Server.Resolver.AuthenticateAgentConnection(ctx, c["token"].(string))
	authErr(err)
}

// offer_to_agents is suggested to an operational account with a published
// listing and no connection, executes as given, and goes once a connection
// exists (and comes back when it is deleted).
func TestOfferToAgentsReadiness(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	has := func() bool {
		t.Helper()
		return strings.Contains(fmt.Sprint(env.Get("/v1/account", acc.Key).JSON(t)["readiness"]), "offer_to_agents")
	}
	require.False(t, has(), "not operational yet")
	connectSandbox(t, env, acc.Key)
	require.False(t, has(), "nothing published yet")
	publishedListing(t, env, acc.Key, map[string]any{"title": "Guide " + testkit.Unique(), "price": 1200})
	ar := env.Get("/v1/account", acc.Key).JSON(t)["readiness"].(map[string]any)
	require.Equal(t, true, ar["operational"])
	a := actionByCode(t, ar, "offer_to_agents")
	require.Equal(t, "suggested", a["priority"])
	require.Equal(t, "api", a["kind"])
	res := a["resolve"].(map[string]any)
	require.Equal(t, "POST", res["method"])
	require.Equal(t, "/v1/agent-connections", res["endpoint"])

	// As given (the example URL stands for the platform's).
	r := env.Do(testkit.Request{Method: "POST", Path: res["endpoint"].(string), Key: acc.Key, Body: res["params"]})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	require.False(t, has(), "a connection exists")
	id := r.JSON(t)["id"].(string)
	env.Do(testkit.Request{Method: "PATCH", Path: "/v1/agent-connections/" + id, Key: acc.Key, Body: map[string]any{"status": "disabled"}})
	require.False(t, has(), "a disabled connection is the seller's choice: not offered again")
	require.Equal(t, 204, env.Do(testkit.Request{Method: "DELETE", Path: "/v1/agent-connections/" + id, Key: acc.Key}).Status)
	require.True(t, has(), "offered again once deleted")

	// Its GraphQL form executes as given too.
	g := a["resolve"].(map[string]any)["graphql"].(map[string]any)
	out := gql(t, env, acc.Key, g["query"].(string), g["variables"].(map[string]any))
	require.Empty(t, out.Errors)
	var data struct {
		CreateAgentConnection map[string]any `json:"createAgentConnection"`
	}
	require.NoError(t, json.Unmarshal(out.Data, &data))
	require.Regexp(t, agentTokenRE, data.CreateAgentConnection["token"])
	require.False(t, has())
}

// GraphQL: create (token and secret once), viewer.agentConnections, the
// connection's deliveries (its endpoint's delivery log), update, delete.
func TestAgentConnectionsGraphQL(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	out := gql(t, env, acc.Key, `mutation($input: CreateAgentConnectionInput!) {
		createAgentConnection(input: $input) { object id name webhookUrl status createdAt lastUsedAt token webhookSecret } }`,
		map[string]any{"input": map[string]any{"name": "Assistant", "webhookUrl": agentWebhook}})
	require.Empty(t, out.Errors)
	var created struct {
		C map[string]any `json:"createAgentConnection"`
	}
	require.NoError(t, json.Unmarshal(out.Data, &created))
	require.Equal(t, "ACTIVE", created.C["status"])
	require.Regexp(t, agentTokenRE, created.C["token"])
	require.Regexp(t, `^whsec_`, created.C["webhookSecret"])
	id := created.C["id"].(string)

	out = gql(t, env, acc.Key, `mutation { createAgentConnection(input: {name: "", webhookUrl: "ftp://x"}) { id } }`, nil)
	require.Len(t, out.Errors, 1)
	ext := out.Errors[0]["extensions"].(map[string]any)
	require.Equal(t, "validation_error", ext["code"])
	require.Equal(t, "name", ext["param"])

	// A delivery record of the connection's endpoint is in its log.
	var wh string
	ctx := context.Background()
	require.NoError(t, env.Server.DB.Pool.QueryRow(ctx, `SELECT id FROM webhook_endpoints WHERE agent_connection_id = $1`, id).Scan(&wh))
	evt := "evt_01jdx0v3k7q8r9s0t1u2v3w4x5"
	_, err := env.Server.DB.Pool.Exec(ctx, `INSERT INTO events (id, account_id, type, data) VALUES ($1, $2, 'order.paid', '{}')`, evt, acc.ID)
	require.NoError(t, err)
	_, err = env.Server.DB.Pool.Exec(ctx, `INSERT INTO webhook_deliveries (endpoint_id, event_id, account_id, type, status, attempts,
		last_status_code, last_error, next_attempt_at) VALUES ($1, $2, $3, 'order.paid', 'pending', 1, 500, 'HTTP 500', now() + interval '1 hour')`,
		wh, evt, acc.ID)
	require.NoError(t, err)

	out = gql(t, env, acc.Key, `{ viewer { agentConnections(first: 10) { edges { cursor node { id name webhookUrl status lastUsedAt
		deliveries(first: 5) { edges { node { id webhookId type status attempts lastStatusCode lastError } } } } }
		pageInfo { hasNextPage } } } }`, nil)
	require.Empty(t, out.Errors)
	require.JSONEq(t, fmt.Sprintf(`{"viewer": {"agentConnections": {"edges": [{"cursor": %q, "node": {"id": %q, "name": "Assistant",
		"webhookUrl": %q, "status": "ACTIVE", "lastUsedAt": null, "deliveries": {"edges": [{"node": {"id": %q, "webhookId": %q,
		"type": "ORDER_PAID", "status": "PENDING", "attempts": 1, "lastStatusCode": 500, "lastError": "HTTP 500"}}]}}}],
		"pageInfo": {"hasNextPage": false}}}}`,
		mustCursor(t, out.Data), id, agentWebhook, evt, wh), string(out.Data))

	out = gql(t, env, acc.Key, `mutation($id: ID!) { updateAgentConnection(id: $id, input: {status: DISABLED, name: "Off"}) { id name status } }`,
		map[string]any{"id": id})
	require.Empty(t, out.Errors)
	require.JSONEq(t, fmt.Sprintf(`{"updateAgentConnection": {"id": %q, "name": "Off", "status": "DISABLED"}}`, id), string(out.Data))
	out = gql(t, env, acc.Key, `query($id: ID!) { agentConnection(id: $id) { status } node(id: $id) { ... on AgentConnection { name } } }`,
		map[string]any{"id": id})
	require.JSONEq(t, `{"agentConnection": {"status": "DISABLED"}, "node": {"name": "Off"}}`, string(out.Data))
	_, err = env.Server.Resolver.AuthenticateAgentConnection(ctx, created.C["token"].(string))
	require.Error(t, err)

	out = gql(t, env, acc.Key, `mutation($id: ID!) { deleteAgentConnection(id: $id) }`, map[string]any{"id": id})
	require.JSONEq(t, `{"deleteAgentConnection": true}`, string(out.Data))
	var status string
	require.NoError(t, env.Server.DB.Pool.QueryRow(ctx, `SELECT status FROM webhook_deliveries WHERE endpoint_id = $1`, wh).Scan(&status))
	require.Equal(t, "canceled", status, "a deleted connection's pending deliveries are canceled")
	out = gql(t, env, acc.Key, `mutation($id: ID!) { deleteAgentConnection(id: $id) }`, map[string]any{"id": id})
	require.Equal(t, "not_found", out.Errors[0]["extensions"].(map[string]any)["code"])
}

func mustCursor(t *testing.T, data json.RawMessage) string {
	t.Helper()
	var v struct {
		Viewer struct {
			AgentConnections struct {
				Edges []struct {
					Cursor string `json:"cursor"`
				} `json:"edges"`
			} `json:"agentConnections"`
		} `json:"viewer"`
	}
	require.NoError(t, json.Unmarshal(data, &v))
	require.Len(t, v.Viewer.AgentConnections.Edges, 1)
	return v.Viewer.AgentConnections.Edges[0].Cursor
}
