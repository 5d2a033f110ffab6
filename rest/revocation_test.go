package rest_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/config"
	"commerce/graph/model"
	"commerce/resolvers"
	"commerce/testkit"
)

// call makes one request straight to an Env (no OpenAPI validation: these
// loops are about timing) and returns its status.
func call(t *testing.T, e *testkit.Env, method, path, key, body string) int {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.URL+path, rd)
	require.NoError(t, err)
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, res.Body)
	_ = res.Body.Close()
	return res.StatusCode
}

// twoProcesses starts two services on one database and one Redis (the same
// key prefix), as two processes behind a load balancer: each has its own
// authentication cache, and they share nothing in memory.
func twoProcesses(t *testing.T) (a, b *testkit.Env) {
	prefix := testkit.NewRedisPrefix()
	a = testkit.New(t, testkit.WithRedisPrefix(prefix))
	b = testkit.New(t, testkit.WithRedisPrefix(prefix))
	require.NotSame(t, a.Server.Resolver, b.Server.Resolver)
	for _, e := range []*testkit.Env{a, b} {
		require.Eventually(t, e.Server.Resolver.AuthCacheServing, 5*time.Second, 10*time.Millisecond)
	}
	return a, b
}

func newKey(t *testing.T, e *testkit.Env, accountID string) *model.CreatedAPIKey {
	t.Helper()
	ctx := resolvers.WithPrincipal(context.Background(), resolvers.Principal{AccountID: accountID, Scope: resolvers.ScopeFull})
	k, err := e.Server.Resolver.CreateAPIKey(ctx, model.CreateAPIKeyInput{Name: "revocation " + testkit.Unique()})
	require.NoError(t, err)
	return k
}

// A key revoked through one process is refused by the other on its very
// next request, although the other had it in memory: 1,000 times in a row,
// revoked by DELETE /v1/api-keys/{id} or by self-revoke, and checked on a
// limited route (the markers ride in the rate limit's round trip), on an
// unlimited one (self-revoke) and on /graphql.
func TestRevocationReachesEveryProcess(t *testing.T) {
	a, b := twoProcesses(t)
	acc := a.NewAccount()
	var manager *model.CreatedAPIKey
	for i := range 1000 {
		if i%50 == 0 { // DELETE counts in the default group of the manager key
			manager = newKey(t, a, acc.ID)
		}
		k := newKey(t, a, acc.ID)
		// Warm both caches: the second request on each is served from memory.
		for _, e := range []*testkit.Env{a, b, a, b} {
			require.Equal(t, 200, call(t, e, "GET", "/v1/api-keys", k.Key, ""), "iteration %d: warm-up", i)
		}
		if i%2 == 0 {
			require.Equal(t, 204, call(t, a, "POST", "/v1/api-keys/self-revoke", k.Key, ""), "iteration %d: self-revoke", i)
		} else {
			require.Equal(t, 204, call(t, a, "DELETE", "/v1/api-keys/"+k.ID, manager.Key, ""), "iteration %d: delete", i)
		}
		var status int
		switch i % 10 {
		case 3:
			status = call(t, b, "POST", "/graphql", k.Key, `{"query":"{ viewer { id } }"}`)
		case 7:
			status = call(t, b, "POST", "/v1/api-keys/self-revoke", k.Key, "")
		default:
			status = call(t, b, "GET", "/v1/api-keys", k.Key, "")
		}
		require.Equal(t, 401, status, "iteration %d: the revoked key was accepted by the other process", i)
	}
}

// A deleted account's keys are refused by the other process on their next
// request: the one that deleted it and another one.
func TestAccountDeletionReachesEveryProcess(t *testing.T) {
	a, b := twoProcesses(t)
	for i := range 200 {
		acc := a.NewAccount()
		other := newKey(t, a, acc.ID)
		for _, e := range []*testkit.Env{a, b, a, b} {
			require.Equal(t, 200, call(t, e, "GET", "/v1/account", acc.Key, ""), "iteration %d: warm-up", i)
			require.Equal(t, 200, call(t, e, "GET", "/v1/api-keys", other.Key, ""), "iteration %d: warm-up", i)
		}
		require.Equal(t, 204, call(t, a, "DELETE", "/v1/account", acc.Key, ""), "iteration %d: delete", i)
		require.Equal(t, 401, call(t, b, "GET", "/v1/api-keys", other.Key, ""), "iteration %d: other key", i)
		require.Equal(t, 401, call(t, b, "GET", "/v1/account", acc.Key, ""), "iteration %d: deleting key", i)
	}
}

// With Redis unreachable, a process cannot read the markers: it checks keys
// it has in memory against PostgreSQL instead, so revocation stays
// immediate (and rate limits fail open, as before).
func TestRevocationWithoutRedis(t *testing.T) {
	a := testkit.New(t)
	c := testkit.New(t, testkit.WithConfig(func(cfg *config.Config) {
		cfg.RedisURL = "redis://127.0.0.1:1/0" // nothing listens there
	}))
	require.Eventually(t, c.Server.Resolver.AuthCacheServing, 5*time.Second, 10*time.Millisecond)
	acc := a.NewAccount()
	for i := range 200 {
		k := newKey(t, a, acc.ID)
		for range 2 {
			require.Equal(t, 200, call(t, c, "GET", "/v1/api-keys", k.Key, ""), "iteration %d: warm-up", i)
		}
		require.Equal(t, 204, call(t, a, "POST", "/v1/api-keys/self-revoke", k.Key, ""), fmt.Sprintf("iteration %d", i))
		require.Equal(t, 401, call(t, c, "GET", "/v1/api-keys", k.Key, ""), "iteration %d: accepted without Redis", i)
	}
}

// Two processes on a Redis Cluster of three masters (REDIS_URL in
// go-redis's cluster form): a key revoked through one is refused by the
// other on its next request, the rate limit and the GraphQL budget answer
// their headers; then the whole cluster stops, and a key revoked after that
// is still refused (the database is the record) while the limits fail open.
func TestRevocationOnRedisCluster(t *testing.T) {
	cluster := testkit.RedisCluster(t)
	prefix := testkit.NewRedisPrefix()
	onCluster := testkit.WithConfig(func(cfg *config.Config) { cfg.RedisURL = cluster.URL })
	a := testkit.New(t, testkit.WithRedisPrefix(prefix), onCluster)
	b := testkit.New(t, testkit.WithRedisPrefix(prefix), onCluster)
	for _, e := range []*testkit.Env{a, b} {
		require.Eventually(t, e.Server.Resolver.AuthCacheServing, 5*time.Second, 10*time.Millisecond)
	}
	acc := a.NewAccount()
	r := b.Get("/v1/account", acc.Key)
	require.Equal(t, 200, r.Status)
	remaining := r.Header.Get("RateLimit-Remaining")
	require.NotEmpty(t, remaining, "the limit is answered from the cluster")
	r = b.Get("/v1/account", acc.Key)
	require.NotEqual(t, remaining, r.Header.Get("RateLimit-Remaining"), "and charged there")
	g := b.Do(testkit.Request{Method: "POST", Path: "/graphql", Key: acc.Key, Body: map[string]any{"query": "{ viewer { id } }"}})
	require.Equal(t, 200, g.Status, "%s", g.Body)
	budget := g.Header.Get("RateLimit-Remaining")
	require.NotEmpty(t, budget, "the budget is answered from the cluster")
	g = b.Do(testkit.Request{Method: "POST", Path: "/graphql", Key: acc.Key, Body: map[string]any{"query": "{ viewer { id } }"}})
	require.NotEqual(t, budget, g.Header.Get("RateLimit-Remaining"), "and spent there")

	for i := range 100 {
		k := newKey(t, a, acc.ID)
		for _, e := range []*testkit.Env{a, b, a, b} {
			require.Equal(t, 200, call(t, e, "GET", "/v1/api-keys", k.Key, ""), "iteration %d: warm-up", i)
		}
		require.Equal(t, 204, call(t, a, "POST", "/v1/api-keys/self-revoke", k.Key, ""), "iteration %d", i)
		require.Equal(t, 401, call(t, b, "GET", "/v1/api-keys", k.Key, ""), "iteration %d: accepted by the other process", i)
	}

	cluster.Stop()
	for i := range 20 {
		k := newKey(t, a, acc.ID)
		for range 2 {
			require.Equal(t, 200, call(t, b, "GET", "/v1/api-keys", k.Key, ""), "iteration %d: warm-up, limits open", i)
		}
		require.Equal(t, 204, call(t, a, "POST", "/v1/api-keys/self-revoke", k.Key, ""), "iteration %d", i)
		require.Equal(t, 401, call(t, b, "GET", "/v1/api-keys", k.Key, ""), "iteration %d: accepted with the cluster down", i)
	}
}
