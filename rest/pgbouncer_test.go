package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/config"
	"commerce/server"
	"commerce/testkit"
)

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

// Every LISTEN of a process (event hub, webhook and mail dispatchers, auth
// cache, River's notifier) runs on connections of DATABASE_DIRECT_URL,
// none on DATABASE_URL's pool; the process's own channels share one.
func TestListenersUseTheDirectURL(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tag := testkit.Unique()
	env := map[string]string{
		"DATABASE_URL":        withParam(t, testkit.DatabaseURL, "application_name", "pooled-"+tag),
		"DATABASE_DIRECT_URL": withParam(t, testkit.DatabaseURL, "application_name", "direct-"+tag),
		"REDIS_URL":           testkit.RedisURL, "LOG_FORMAT": "text", "LOG_LEVEL": "error",
		"PROCESSOR": "sandbox", "FILE_STORAGE_URL": "file://" + t.TempDir(),
	}
	cfg, err := config.Load(func(k string) string { return env[k] })
	require.NoError(t, err)
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

// The service behind PgBouncer in transaction mode (testkit.PgBouncer: two
// server connections shared by every transaction), DATABASE_DIRECT_URL to
// PostgreSQL: a purchase is paid, fulfilled, delivered by webhook and
// its download email sent; a subscription receives its events; a refund's job runs; a
// revoked key is refused at once.
func TestThroughPgBouncer(t *testing.T) {
	t.Parallel()
	bouncer := testkit.PgBouncer(t, testkit.DatabaseURL)
	env := testkit.New(t, testkit.WithWorkers(), testkit.WithConfig(func(c *config.Config) {
		c.DatabaseURL, c.DatabaseDirectURL = bouncer, testkit.DatabaseURL
	}))
	ctx := context.Background()
	// Really through the pooler: its port, not PostgreSQL's.
	bu, err := url.Parse(bouncer)
	require.NoError(t, err)
	require.Equal(t, bu.Port(), fmt.Sprint(env.Server.DB.Pool.Config().ConnConfig.Port))
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)

	var mu sync.Mutex
	var hooks []string // type:order id
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var ev struct {
			Type    string `json:"type"`
			OrderID string `json:"order_id"`
		}
		_ = json.NewDecoder(r.Body).Decode(&ev)
		mu.Lock()
		hooks = append(hooks, ev.Type+":"+ev.OrderID)
		mu.Unlock()
	}))
	t.Cleanup(rc.Close)
	require.Equal(t, 201, env.Post("/v1/webhooks", acc.Key, map[string]any{"url": rc.URL, "events": []string{"order.paid"}}).Status)

	// A subscription from a known position, so it sees every event after it.
	e0 := insertEvent(t, env.Server.DB.Pool, acc.ID, "order.paid")
	ws := connectWS(t, env.URL, acc.Key)
	ws.subscribe("s", map[string]any{"after": e0})

	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Bounced " + testkit.Unique(), "price": 1500,
		"deliverables": []any{map[string]any{"type": "text", "value": "thank you"}}})
	// The listing and account reads, each a dozen subqueries, run as
	// their functions (a plan kept per server connection, where unnamed
	// statements would be planned on every call) and read the same.
	var plannedMu sync.Mutex
	planned := map[string]int{}
	stop := env.Server.DB.WatchStatements(func(sql string) {
		for _, name := range []string{"listing_read", "account_read"} {
			if strings.HasPrefix(sql, "SELECT * FROM planned_"+name+"_") {
				plannedMu.Lock()
				planned[name]++
				plannedMu.Unlock()
			}
		}
	})
	lr := env.Get("/v1/listings/"+l["id"].(string), acc.Key)
	require.Equal(t, 200, lr.Status, "%s", lr.Body)
	lj := lr.JSON(t)
	require.Equal(t, []any{l["title"], 1500.0, "published"}, []any{lj["title"], lj["price"], lj["status"]})
	require.Equal(t, "thank you", lj["deliverables"].([]any)[0].(map[string]any)["value"])
	require.Equal(t, acc.ID, env.Get("/v1/account", acc.Key).JSON(t)["id"])
	requireProblem(t, env, env.Get("/v1/listings/lst_01JNOSUCHLISTING0000000000", acc.Key), 404, "not_found")
	gr := gql(t, env, acc.Key, `query($id: ID!) { listing(id: $id) { title deliverables { value } } }`, map[string]any{"id": l["id"]})
	require.Empty(t, gr.Errors)
	require.JSONEq(t, fmt.Sprintf(`{"listing": {"title": %q, "deliverables": [{"value": "thank you"}]}}`, l["title"]), string(gr.Data))
	stop()
	require.GreaterOrEqual(t, planned["listing_read"], 2, "REST and GraphQL")
	require.GreaterOrEqual(t, planned["account_read"], 1)

	buyer := uniqueEmail("bounced")
	orderID, _ := buy(t, env, l["slug"].(string), url.Values{"email": {buyer}}, "paid")
	require.Equal(t, "fulfilled", env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)["status"])

	// The subscription receives the order's events.
	var got []string
	for _, ev := range ws.events("s", 2, 10*time.Second) {
		got = append(got, ev.Type)
	}
	require.Equal(t, []string{"ORDER_PAID", "ORDER_FULFILLED"}, got)
	// The webhook is delivered, the download email sent.
	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return slices.Contains(hooks, "order.paid:"+orderID)
	}, 10*time.Second, 20*time.Millisecond)
	// (The package's other services share the database: any of their
	// mail dispatchers may send it.)
	require.Eventually(t, func() bool {
		var sent bool
		require.NoError(t, env.Server.DB.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM mail_messages
			WHERE to_address = $1 AND template = 'download_link' AND sent_at IS NOT NULL)`, buyer).Scan(&sent))
		return sent
	}, 10*time.Second, 20*time.Millisecond)

	// A refund's confirmation is a River job inserted in the request's
	// transaction (through the pooler) and worked on the direct pool.
	require.Equal(t, 200, env.Post("/v1/orders/"+orderID+"/refund", acc.Key, nil).Status)
	require.Eventually(t, func() bool {
		return env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)["payment_status"] == "refunded"
	}, 10*time.Second, 50*time.Millisecond)

	// A key used (and so cached), revoked: refused on its next request.
	require.True(t, env.Server.Resolver.AuthCacheServing())
	r := env.Post("/v1/api-keys", acc.Key, map[string]any{"name": "bounced"})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	key, id := r.JSON(t)["key"].(string), r.JSON(t)["id"].(string)
	require.Equal(t, 200, env.Get("/v1/api-keys", key).Status)
	require.Equal(t, 204, env.Do(testkit.Request{Method: "DELETE", Path: "/v1/api-keys/" + id, Key: acc.Key}).Status)
	requireProblem(t, env, env.Get("/v1/api-keys", key), 401, "authentication_error")
	// A revocation by another process (here: SQL) reaches the cache through
	// the direct listener's notification.
	r = env.Post("/v1/api-keys", acc.Key, map[string]any{"name": "bounced-sql"})
	key, id = r.JSON(t)["key"].(string), r.JSON(t)["id"].(string)
	require.Equal(t, 200, env.Get("/v1/api-keys", key).Status)
	_, err = env.Server.DB.Pool.Exec(ctx, `UPDATE api_keys SET revoked_at = now() WHERE id = $1`, id)
	require.NoError(t, err)
	require.Eventually(t, func() bool { return env.Get("/v1/api-keys", key).Status == 401 }, 5*time.Second, 20*time.Millisecond)
}
