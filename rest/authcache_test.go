package rest_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

// Not parallel: it switches the invalidation triggers off for a moment.
func TestAuthCacheInvalidation(t *testing.T) {
	env := testkit.New(t)
	acc := env.NewAccount()
	other := env.NewAccount()
	ctx := context.Background()
	exec := func(sql string, args ...any) {
		t.Helper()
		_, err := env.Server.DB.Pool.Exec(ctx, sql, args...)
		require.NoError(t, err)
	}
	require.Eventually(t, env.Server.Resolver.AuthCacheServing, 5*time.Second, 10*time.Millisecond)

	// A verified key is served from memory: with the triggers off, a change
	// made behind the service's back goes unnoticed. This proves the cache
	// is used, and so that the triggers below are what keeps it correct.
	require.Equal(t, 200, env.Get("/v1/api-keys", acc.Key).Status)
	exec("ALTER TABLE api_keys DISABLE TRIGGER api_keys_auth_invalidate")
	exec("UPDATE api_keys SET revoked_at = now() WHERE account_id = $1", acc.ID)
	exec("ALTER TABLE api_keys ENABLE TRIGGER api_keys_auth_invalidate")
	require.Equal(t, 200, env.Get("/v1/api-keys", acc.Key).Status, "served from the cache")

	// Another instance (or an operator) revoking a key: the trigger's
	// notification reaches this instance, which refuses the key.
	exec("UPDATE api_keys SET revoked_at = now() WHERE account_id = $1", acc.ID)
	require.Eventually(t, func() bool { return env.Get("/v1/api-keys", acc.Key).Status == 401 }, 2*time.Second, 5*time.Millisecond)

	// Deleting the account drops its keys too.
	require.Equal(t, 200, env.Get("/v1/api-keys", other.Key).Status)
	exec("UPDATE accounts SET deleted_at = now() WHERE id = $1", other.ID)
	require.Eventually(t, func() bool { return env.Get("/v1/api-keys", other.Key).Status == 401 }, 2*time.Second, 5*time.Millisecond)
}
