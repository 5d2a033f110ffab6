package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/graph/model"
	"commerce/testkit"
)

func TestAPIKeysLifecycle(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()

	r := env.Post("/v1/api-keys", acc.Key, map[string]any{"name": "ci", "scope": "read_only"})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	var created model.CreatedAPIKey
	r.Decode(t, &created)
	require.Regexp(t, `^svc_[0-9A-Za-z]{40}$`, created.Key)
	require.Equal(t, created.Key[:12], created.Prefix)
	require.Equal(t, model.APIKeyScopeReadOnly, created.Scope)
	require.Equal(t, "api_key", created.Object)
	require.Regexp(t, `^key_[0-9a-z]{26}$`, created.ID)
	require.WithinDuration(t, time.Now(), created.CreatedAt, time.Minute)

	// Only a hash is stored.
	var stored []byte
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(), "SELECT key_hash FROM api_keys WHERE id = $1", created.ID).Scan(&stored))
	require.Len(t, stored, 32)
	require.NotContains(t, string(stored), created.Key[4:])

	r = env.Get("/v1/api-keys", acc.Key)
	require.Equal(t, 200, r.Status)
	var list model.APIKeyList
	r.Decode(t, &list)
	require.Len(t, list.Data, 2)
	require.Equal(t, created.ID, list.Data[0].ID, "newest first")
	require.Equal(t, created.CreatedAt, list.Data[0].CreatedAt)
	require.NotContains(t, string(r.Body), created.Key, "the secret is never listed")

	// The new read_only key works for GET, not for anything else.
	require.Equal(t, 200, env.Get("/v1/api-keys", created.Key).Status)
	rp := env.Post("/v1/api-keys", created.Key, map[string]any{"name": "nope"})
	p := requireProblem(t, env, rp, 403, "permission_denied")
	require.Equal(t, "full", p["required_scope"])
	rp = env.Do(testkit.Request{Method: "DELETE", Path: "/v1/api-keys/" + created.ID, Key: created.Key})
	requireProblem(t, env, rp, 403, "permission_denied")

	// Revoked: refused on its very next request.
	r = env.Do(testkit.Request{Method: "DELETE", Path: "/v1/api-keys/" + created.ID, Key: acc.Key})
	require.Equal(t, 204, r.Status)
	requireProblem(t, env, env.Get("/v1/api-keys", created.Key), 401, "authentication_error")
	requireProblem(t, env, env.Do(testkit.Request{Method: "DELETE", Path: "/v1/api-keys/" + created.ID, Key: acc.Key}), 404, "not_found")
}

func TestAPIKeyOfAnotherAccountIsNotFound(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	a, b := env.NewAccount(), env.NewAccount()
	r := env.Post("/v1/api-keys", b.Key, map[string]any{"name": "b's"})
	require.Equal(t, 201, r.Status)
	id := r.JSON(t)["id"].(string)
	requireProblem(t, env, env.Do(testkit.Request{Method: "DELETE", Path: "/v1/api-keys/" + id, Key: a.Key}), 404, "not_found")
	var list model.APIKeyList
	env.Get("/v1/api-keys", a.Key).Decode(t, &list)
	for _, k := range list.Data {
		require.NotEqual(t, id, k.ID)
	}
	require.Equal(t, 200, env.Get("/v1/api-keys", b.Key).Status, "b's key still works")
}

func TestSelfRevoke(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	r := env.Post("/v1/api-keys/self-revoke", acc.Key, nil)
	require.Equal(t, 204, r.Status, "%s", r.Body)
	requireProblem(t, env, env.Get("/v1/api-keys", acc.Key), 401, "authentication_error")
}

func TestExpiredKeyIsRefused(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	expires := time.Now().Add(2 * time.Second).Truncate(time.Second).Add(time.Second)
	r := env.Post("/v1/api-keys", acc.Key, map[string]any{"name": "short", "expires_at": expires.UTC().Format(time.RFC3339)})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	k := r.JSON(t)
	require.Equal(t, 200, env.Get("/v1/api-keys", k["key"].(string)).Status)
	// Expiry is checked on every request, also for a key served from the
	// authentication cache.
	time.Sleep(time.Until(expires))
	p := requireProblem(t, env, env.Get("/v1/api-keys", k["key"].(string)), 401, "authentication_error")
	require.Contains(t, p["detail"], "expired")
}

func TestLastUsedAtIsWrittenAtMostOnceAMinute(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	ctx := context.Background()
	lastUsed := func() *time.Time {
		var ts *time.Time
		require.NoError(t, env.Server.DB.Pool.QueryRow(ctx, "SELECT last_used_at FROM api_keys WHERE account_id = $1", acc.ID).Scan(&ts))
		return ts
	}
	require.Nil(t, lastUsed())
	env.Get("/v1/api-keys", acc.Key)
	require.Eventually(t, func() bool { return lastUsed() != nil }, 5*time.Second, 20*time.Millisecond)
	first := *lastUsed()
	for i := 0; i < 5; i++ {
		env.Get("/v1/api-keys", acc.Key)
	}
	time.Sleep(200 * time.Millisecond)
	require.Equal(t, first, *lastUsed(), "no write within the minute")

	// A minute later, the next request writes again. (Setting scope to
	// itself fires the invalidation trigger, as the authentication cache's
	// one-minute TTL would have by then.)
	_, err := env.Server.DB.Pool.Exec(ctx, "UPDATE api_keys SET last_used_at = now() - interval '61 seconds', scope = scope WHERE account_id = $1", acc.ID)
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		env.Get("/v1/api-keys", acc.Key)
		return time.Since(*lastUsed()) < 30*time.Second
	}, 5*time.Second, 20*time.Millisecond)
}

func TestAPIKeysPagination(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	for i := 0; i < 4; i++ {
		require.Equal(t, 201, env.Post("/v1/api-keys", acc.Key, map[string]any{"name": fmt.Sprint("k", i)}).Status)
	}
	var seen []string
	path := "/v1/api-keys?limit=2"
	for pages := 0; ; pages++ {
		require.Less(t, pages, 5)
		var page model.APIKeyList
		r := env.Get(path, acc.Key)
		require.Equal(t, http.StatusOK, r.Status)
		r.Decode(t, &page)
		for _, k := range page.Data {
			seen = append(seen, k.ID)
		}
		if !page.HasMore {
			require.Nil(t, page.NextCursor)
			break
		}
		path = "/v1/api-keys?limit=2&cursor=" + *page.NextCursor
	}
	require.Len(t, seen, 5)
	for i := 1; i < len(seen); i++ {
		require.Greater(t, seen[i-1], seen[i], "strictly newest first, no repeats")
	}
}
