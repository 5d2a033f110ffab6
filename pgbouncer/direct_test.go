package pgbouncer_test

import (
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/config"
	"commerce/server"
	"commerce/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// withParam returns u with the query parameter name set to value.
func withParam(t *testing.T, u, name, value string) string {
	t.Helper()
	p, err := url.Parse(u)
	require.NoError(t, err)
	q := p.Query()
	q.Set(name, value)
	p.RawQuery = q.Encode()
	return p.String()
}

// configWith is testkit.Config with the variables of env set.
func configWith(t *testing.T, env map[string]string) config.Config {
	t.Helper()
	base := map[string]string{
		"DATABASE_URL": testkit.DatabaseURL, "REDIS_URL": testkit.RedisURL, "LOG_FORMAT": "text",
		"LOG_LEVEL": "error", "PROCESSOR": "sandbox", "ALLOW_PRIVATE_TARGETS": "true",
		"FILE_STORAGE_URL": "file://" + testkit.StorageDir,
	}
	for k, v := range env {
		base[k] = v
	}
	cfg, err := config.Load(func(k string) string { return base[k] })
	require.NoError(t, err)
	return cfg
}

// Every LISTEN of a process (event hub, webhook and mail dispatchers, auth
// cache, River's notifier) runs on connections of DATABASE_DIRECT_URL,
// none on DATABASE_URL's pool; the process's own channels share one.
func TestListenersUseTheDirectURL(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tag := testkit.Unique()
	cfg := configWith(t, map[string]string{
		"DATABASE_URL":        withParam(t, testkit.DatabaseURL, "application_name", "pooled-"+tag),
		"DATABASE_DIRECT_URL": withParam(t, testkit.DatabaseURL, "application_name", "direct-"+tag),
	})
	srv, err := server.New(ctx, cfg, testkit.Logger(), server.Options{Work: true, RateLimitPrefix: "t" + tag + ":"})
	require.NoError(t, err)
	require.NoError(t, srv.Start(ctx))
	t.Cleanup(func() { srv.Close(ctx) })
	require.Eventually(t, srv.Resolver.AuthCacheServing, 10*time.Second, 10*time.Millisecond)

	// Backends of this server by application name that last ran a
	// LISTEN: River's own (its notifier's channels are river_…) or the
	// process's listener's.
	listening := func(app string, river bool) (n int) {
		err := srv.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND application_name = $1 AND query LIKE 'LISTEN %'
			  AND (query LIKE '%river%') = $2`, app, river).Scan(&n)
		require.NoError(t, err)
		return n
	}
	// River's notifier starts listening shortly after Start.
	require.Eventually(t, func() bool { return listening("direct-"+tag, true) == 1 }, 10*time.Second, 50*time.Millisecond)
	// The event hub, the auth cache and both dispatchers share one connection.
	require.Equal(t, 1, listening("direct-"+tag, false))
	require.Zero(t, listening("pooled-"+tag, false)+listening("pooled-"+tag, true))
}
