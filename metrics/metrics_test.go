package metrics_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"commerce/config"
	"commerce/jobs"
	"commerce/metrics"
	"commerce/processor/sandbox"
	"commerce/testkit"
)

// The package has a database of its own: the backlogs it reads are this
// package's tests' alone.
func TestMain(m *testing.M) { testkit.Main(m) }

// metricName matches the service's metric names in the alerts and the
// dashboard.
var metricName = regexp.MustCompile(`\b(?:commerce|go|process)_[a-z0-9_]+\b`)

// scrape is the service's /metrics, parsed.
type scrape map[string]*dto.MetricFamily

func scrapeOf(t *testing.T, env *testkit.Env) scrape {
	t.Helper()
	resp, err := http.Get(env.URL + "/metrics")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	require.NoError(t, err)
	return fams
}

// value is the value of the series of name whose labels include labels
// (name=value pairs); ok false when there is none. A histogram's value is
// its count.
func (s scrape) value(name string, labels ...string) (float64, bool) {
	f := s[name]
	if f == nil {
		return 0, false
	}
next:
	for _, m := range f.GetMetric() {
		for i := 0; i+1 < len(labels); i += 2 {
			found := false
			for _, l := range m.GetLabel() {
				if l.GetName() == labels[i] && l.GetValue() == labels[i+1] {
					found = true
				}
			}
			if !found {
				continue next
			}
		}
		switch {
		case m.Gauge != nil:
			return m.GetGauge().GetValue(), true
		case m.Counter != nil:
			return m.GetCounter().GetValue(), true
		case m.Histogram != nil:
			return float64(m.GetHistogram().GetSampleCount()), true
		}
	}
	return 0, false
}

// get is value that must exist.
func (s scrape) get(t *testing.T, name string, labels ...string) float64 {
	t.Helper()
	v, ok := s.value(name, labels...)
	require.True(t, ok, "no %s%v on /metrics", name, labels)
	return v
}

// sum adds up a histogram's observed values.
func (s scrape) sum(t *testing.T, name string, labels ...string) float64 {
	t.Helper()
	f := s[name]
	require.NotNil(t, f, "no %s on /metrics", name)
	for _, m := range f.GetMetric() {
		ok := true
		for i := 0; i+1 < len(labels); i += 2 {
			found := false
			for _, l := range m.GetLabel() {
				found = found || (l.GetName() == labels[i] && l.GetValue() == labels[i+1])
			}
			ok = ok && found
		}
		if ok && m.Histogram != nil {
			return m.GetHistogram().GetSampleSum()
		}
	}
	t.Fatalf("no %s%v on /metrics", name, labels)
	return 0
}

// eventually polls /metrics until cond holds of a scrape (the backlogs
// are read at most every metrics.QueueCacheFor).
func eventually(t *testing.T, env *testkit.Env, within time.Duration, what string, cond func(s scrape) bool) scrape {
	t.Helper()
	var last scrape
	deadline := time.Now().Add(within)
	for {
		last = scrapeOf(t, env)
		if cond(last) {
			return last
		}
		if time.Now().After(deadline) {
			var b strings.Builder
			for name, f := range last {
				if strings.HasPrefix(name, "commerce_") && !strings.HasPrefix(name, "commerce_http") {
					fmt.Fprintf(&b, "%s %v\n", name, f.GetMetric())
				}
			}
			t.Fatalf("%s: not within %s; the last scrape:\n%s", what, within, b.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// The names of CONTRACT §24 and of docs/operations.md's table: each is on
// a serving process's /metrics by the end of a purchase (the job metrics,
// commerce_jobs_finished_total and commerce_job_duration_seconds, are a
// working process's).
var contractNames = []string{
	"commerce_http_requests_total", "commerce_http_request_duration_seconds",
	"commerce_db_pool_acquired_connections", "commerce_db_pool_idle_connections", "commerce_db_pool_total_connections",
	"commerce_db_pool_max_connections", "commerce_db_pool_acquires_total", "commerce_db_pool_acquire_waits_total",
	"commerce_db_pool_acquire_wait_seconds_total", "commerce_db_pool_canceled_acquires_total",
	"commerce_redis_pool_connections", "commerce_redis_pool_idle_connections", "commerce_redis_pool_max_connections",
	"commerce_redis_pool_pending_requests", "commerce_redis_pool_hits_total", "commerce_redis_pool_misses_total",
	"commerce_redis_pool_timeouts_total", "commerce_redis_pool_waits_total", "commerce_redis_pool_wait_seconds_total",
	"commerce_redis_pool_stale_connections_total",
	"commerce_jobs_queued", "commerce_jobs_oldest_available_age_seconds",
	"commerce_webhook_deliveries_pending", "commerce_webhook_oldest_pending_age_seconds",
	"commerce_emails_pending", "commerce_emails_oldest_pending_age_seconds",
	"commerce_graphql_operation_duration_seconds", "commerce_graphql_operation_cost", "commerce_graphql_subscriptions_active",
	"commerce_ratelimit_rejections_total", "commerce_ratelimit_errors_total", "commerce_dependency_up",
	"commerce_request_log_dropped_total",
	"go_goroutines", "go_memstats_heap_inuse_bytes", "process_resident_memory_bytes", "process_cpu_seconds_total",
}

// Every metric of CONTRACT §24 is on /metrics and moves during a sandbox
// purchase: a serving process that works no jobs (so the backlogs stay
// until a worker starts) sees the buyer's email and the order.paid webhook
// pending and getting older, the refund's job scheduled, a job available
// and waiting; its PostgreSQL pool, held full by the test, makes a request
// wait, and its Redis pool a command; GraphQL operations are timed and costed by name, a
// subscription is counted while it lives, a spent cost budget is counted
// as a refusal; then a worker process starts and every backlog drains.
// (Not parallel: the backlogs it reads are the package database's.)
func TestMetricsDuringPurchase(t *testing.T) {
	var delivered atomic.Int64
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		delivered.Add(1)
	}))
	t.Cleanup(receiver.Close)

	// A small request pool (4 connections) the test can fill, and River's
	// pool apart from it (DATABASE_DIRECT_URL differs): pool="main" and
	// pool="river".
	u, err := url.Parse(testkit.DatabaseURL)
	require.NoError(t, err)
	q := u.Query()
	q.Set("pool_max_conns", "4")
	u.RawQuery = q.Encode()
	env := testkit.New(t, testkit.WithConfig(func(c *config.Config) {
		c.DatabaseURL, c.DatabaseDirectURL = u.String(), testkit.DatabaseURL
	}))
	start := scrapeOf(t, env)
	for _, pool := range []string{"main", "river"} {
		require.Greater(t, start.get(t, "commerce_db_pool_max_connections", "pool", pool), 0.0, pool)
	}
	require.Equal(t, 4.0, start.get(t, "commerce_db_pool_max_connections", "pool", "main"))
	require.Equal(t, 64.0, start.get(t, "commerce_redis_pool_max_connections", "pool", "main"))
	require.Equal(t, 0.0, start.get(t, "commerce_emails_pending"))
	require.Equal(t, 0.0, start.get(t, "commerce_webhook_deliveries_pending"))
	require.Equal(t, 0.0, start.get(t, "commerce_graphql_subscriptions_active"))
	require.Equal(t, 1.0, start.get(t, "commerce_dependency_up", "dependency", "postgres"))
	require.Equal(t, 1.0, start.get(t, "commerce_dependency_up", "dependency", "redis"))

	// A seller, a webhook endpoint, a listing; a buyer pays.
	acc := env.NewAccount()
	env.ConnectSandbox(acc.Key, "usd")
	r := env.Post("/v1/webhooks", acc.Key, map[string]any{"url": receiver.URL, "events": []string{"order.paid", "order.refunded"}})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	r = env.Post("/v1/listings", acc.Key, map[string]any{"title": "Metrics " + testkit.Unique(), "price": 500,
		"deliverables": []any{map[string]any{"type": "text", "value": "thanks"}}})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	r = env.Post("/v1/listings/"+r.JSON(t)["id"].(string)+"/publish", acc.Key, nil)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	orderID := buy(t, env, r.JSON(t)["slug"].(string), "buyer-"+testkit.Unique()+"@example.com")
	require.Equal(t, "fulfilled", env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)["status"])

	// GraphQL, named and anonymous.
	gql(t, env, acc.Key, `query MetricsOrder($id: ID!) { order(id: $id) { id status listing { id } } }`, map[string]any{"id": orderID}, 200)
	gql(t, env, acc.Key, `{ viewer { id } }`, nil, 200)
	// The refund's confirmation is a River job, scheduled a second ahead;
	// a clean-up job waits for a worker.
	require.Equal(t, 200, env.Post("/v1/orders/"+orderID+"/refund", acc.Key, nil).Status)
	_, err = env.Server.Jobs.Insert(context.Background(), jobs.IdempotencyCleanupArgs{}, nil)
	require.NoError(t, err)

	pending := eventually(t, env, 15*time.Second, "the backlogs of a process that works no jobs", func(s scrape) bool {
		refund, _ := s.value("commerce_jobs_queued", "kind", "sandbox_refund_confirm", "state", "scheduled")
		cleanup, _ := s.value("commerce_jobs_queued", "kind", "idempotency_cleanup", "state", "available")
		return refund == 1 && cleanup == 1 && s.get(t, "commerce_jobs_oldest_available_age_seconds") > 0 &&
			s.get(t, "commerce_emails_pending") >= 1 && s.get(t, "commerce_emails_oldest_pending_age_seconds") > 0 &&
			s.get(t, "commerce_webhook_deliveries_pending") >= 1 && s.get(t, "commerce_webhook_oldest_pending_age_seconds") > 0
	})
	require.Greater(t, pending.get(t, "commerce_http_requests_total", "route", "/p/{slug}/checkout", "method", "POST", "status", "303"), 0.0)
	require.Greater(t, pending.get(t, "commerce_http_request_duration_seconds", "route", "/v1/orders/{id}/refund"), 0.0)
	require.Equal(t, 1.0, pending.get(t, "commerce_graphql_operation_duration_seconds", "operation", "MetricsOrder"))
	require.Equal(t, 1.0, pending.get(t, "commerce_graphql_operation_duration_seconds", "operation", "anonymous"))
	require.Equal(t, 1.0, pending.get(t, "commerce_graphql_operation_cost", "operation", "anonymous"))
	require.Equal(t, 1.0, pending.sum(t, "commerce_graphql_operation_cost", "operation", "anonymous"), "viewer costs 1")
	require.Equal(t, 2.0, pending.sum(t, "commerce_graphql_operation_cost", "operation", "MetricsOrder"), "order 1 + listing 1")
	require.Greater(t, pending.get(t, "commerce_redis_pool_hits_total", "pool", "pipeline"), start.get(t, "commerce_redis_pool_hits_total", "pool", "pipeline"),
		"the rate limits' pipelines")
	require.Equal(t, 10.0, start.get(t, "commerce_redis_pool_max_connections", "pool", "pipeline"))
	require.Greater(t, pending.get(t, "commerce_db_pool_acquires_total", "pool", "main"), start.get(t, "commerce_db_pool_acquires_total", "pool", "main"))

	t.Run("pools", func(t *testing.T) { fullPools(t, env, acc.Key, orderID) })
	t.Run("subscription", func(t *testing.T) { subscription(t, env, acc.Key) })
	t.Run("cost budget refused", func(t *testing.T) { spendBudget(t, env) })
	t.Run("resolvers' limits refused", func(t *testing.T) { resolverLimits(t, env) })

	// A worker process starts: the jobs run, the email and the webhooks go
	// out, every backlog drains (the job series read 0, not vanish).
	worker := testkit.New(t, testkit.WithWorkers())
	end := eventually(t, env, 45*time.Second, "the backlogs drained by a worker", func(s scrape) bool {
		refund, _ := s.value("commerce_jobs_queued", "kind", "sandbox_refund_confirm", "state", "scheduled")
		cleanup, ok := s.value("commerce_jobs_queued", "kind", "idempotency_cleanup", "state", "available")
		return ok && refund == 0 && cleanup == 0 && s.get(t, "commerce_emails_pending") == 0 &&
			s.get(t, "commerce_webhook_deliveries_pending") == 0 && s.get(t, "commerce_webhook_oldest_pending_age_seconds") == 0 &&
			s.get(t, "commerce_emails_oldest_pending_age_seconds") == 0 && delivered.Load() >= 2
	})
	for _, name := range contractNames {
		_, ok := end[name]
		require.True(t, ok, "no %s on /metrics", name)
	}
	// The job metrics are the working process's. River reports a finished
	// job to its subscribers after the completion is written, so the queue
	// reads 0 a moment before the counter moves.
	finished := eventually(t, worker, 15*time.Second, "the worker's finished jobs counted", func(s scrape) bool {
		refund, _ := s.value("commerce_jobs_finished_total", "kind", "sandbox_refund_confirm", "outcome", "job_completed")
		cleanup, _ := s.value("commerce_job_duration_seconds", "kind", "idempotency_cleanup")
		return refund > 0 && cleanup > 0
	})
	require.Greater(t, finished.get(t, "commerce_jobs_finished_total", "kind", "sandbox_refund_confirm", "outcome", "job_completed"), 0.0)
	require.Greater(t, finished.get(t, "commerce_job_duration_seconds", "kind", "idempotency_cleanup"), 0.0)

	// Every metric the alerts and the dashboard name is one of these.
	for _, file := range []string{"../deploy/prometheus/alerts.yml", "../deploy/grafana/commerce.json"} {
		b, err := os.ReadFile(file)
		require.NoError(t, err)
		names := metricName.FindAllString(string(b), -1)
		require.NotEmpty(t, names, file)
		for _, name := range names {
			base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(name, "_bucket"), "_sum"), "_count")
			_, ok := end[name]
			_, okBase := end[base]
			_, okWorker := finished[base]
			require.True(t, ok || okBase || okWorker, "%s names %s, which the service does not expose", file, name)
		}
	}
}

// fullPools fills the request pool and the Redis pool while a request
// runs: it waits for each, and the waits are counted.
func fullPools(t *testing.T, env *testkit.Env, key, orderID string) {
	ctx := context.Background()
	before := scrapeOf(t, env) // the backlogs read now serve the next scrape too
	// Every connection of the pool: bun's (database/sql keeps up to two
	// acquired while idle), then the rest.
	pool := env.Server.DB.Pool
	var held []interface{ Release() }
	for range 2 {
		c, err := env.Server.DB.DB.Conn(ctx)
		require.NoError(t, err)
		held = append(held, releaser(func() { _ = c.Close() }))
	}
	for pool.Stat().AcquiredConns() < pool.Stat().MaxConns() {
		actx, cancel := context.WithTimeout(ctx, 5*time.Second)
		c, err := pool.Acquire(actx)
		cancel()
		require.NoError(t, err)
		held = append(held, c)
	}
	full := scrapeOf(t, env)
	require.Equal(t, 4.0, full.get(t, "commerce_db_pool_acquired_connections", "pool", "main"))
	require.Equal(t, 0.0, full.get(t, "commerce_db_pool_idle_connections", "pool", "main"))
	done := getAsync(env, key, "/v1/orders/"+orderID)
	time.Sleep(300 * time.Millisecond)
	for _, c := range held {
		c.Release()
	}
	require.Equal(t, 200, <-done)
	after := scrapeOf(t, env)
	require.Greater(t, after.get(t, "commerce_db_pool_acquire_waits_total", "pool", "main"), before.get(t, "commerce_db_pool_acquire_waits_total", "pool", "main"))
	require.GreaterOrEqual(t, after.get(t, "commerce_db_pool_acquire_wait_seconds_total", "pool", "main")-
		before.get(t, "commerce_db_pool_acquire_wait_seconds_total", "pool", "main"), 0.2)

	// Redis: every connection of the main pool taken by a dedicated Conn,
	// a command waits for one. (The requests' rate limits are pipelines,
	// on go-redis's pipeline pool, which spills to the main pool when full.)
	client, ok := env.Server.Redis.(*redis.Client)
	require.True(t, ok)
	var conns []*redis.Conn
	for range 64 {
		c := client.Conn()
		require.NoError(t, c.Ping(ctx).Err())
		conns = append(conns, c)
	}
	full = scrapeOf(t, env)
	require.Equal(t, 64.0, full.get(t, "commerce_redis_pool_connections", "pool", "main"))
	require.Equal(t, 0.0, full.get(t, "commerce_redis_pool_idle_connections", "pool", "main"))
	waited := make(chan error, 1)
	go func() { waited <- client.Ping(ctx).Err() }()
	time.Sleep(300 * time.Millisecond)
	for _, c := range conns {
		require.NoError(t, c.Close())
	}
	require.NoError(t, <-waited)
	after = scrapeOf(t, env)
	require.Greater(t, after.get(t, "commerce_redis_pool_waits_total", "pool", "main"), before.get(t, "commerce_redis_pool_waits_total", "pool", "main"))
	require.GreaterOrEqual(t, after.get(t, "commerce_redis_pool_wait_seconds_total", "pool", "main")-
		before.get(t, "commerce_redis_pool_wait_seconds_total", "pool", "main"), 0.2)
}

// releaser is a func as a Release method.
type releaser func()

func (r releaser) Release() { r() }

// subscription counts a live event subscription, and no longer once its
// client is gone.
func subscription(t *testing.T, env *testkit.Env, key string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(env.URL, "http")+"/graphql",
		&websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	require.NoError(t, err)
	defer conn.CloseNow()
	send := func(m any) {
		b, _ := json.Marshal(m)
		require.NoError(t, conn.Write(ctx, websocket.MessageText, b))
	}
	send(map[string]any{"type": "connection_init", "payload": map[string]any{"authorization": "Bearer " + key}})
	_, ack, err := conn.Read(ctx)
	require.NoError(t, err)
	require.Contains(t, string(ack), "connection_ack")
	send(map[string]any{"id": "1", "type": "subscribe", "payload": map[string]any{"query": "subscription { events { id } }"}})
	eventually(t, env, 5*time.Second, "one subscription active", func(s scrape) bool {
		return s.get(t, "commerce_graphql_subscriptions_active") == 1
	})
	require.NoError(t, conn.Close(websocket.StatusNormalClosure, ""))
	eventually(t, env, 5*time.Second, "no subscription active", func(s scrape) bool {
		return s.get(t, "commerce_graphql_subscriptions_active") == 0
	})
}

// spendBudget spends a key's GraphQL cost budget: the refusal is counted
// under the group graphql_cost.
func spendBudget(t *testing.T, env *testkit.Env) {
	before, _ := scrapeOf(t, env).value("commerce_ratelimit_rejections_total", "group", "graphql_cost")
	acc := env.NewAccount()
	// About 1,800 per operation: the 12th of a minute is refused.
	q := `query Spend { viewer { ` +
		`a: listings(first: 100) { edges { node { readiness { __typename } deliverables { __typename } checkoutSchema { __typename } } } } ` +
		`b: listings(first: 100) { edges { node { readiness { __typename } deliverables { __typename } checkoutSchema { __typename } } } } ` +
		`c: listings(first: 100) { edges { node { readiness { __typename } deliverables { __typename } checkoutSchema { __typename } } } } } }`
	refused := false
	for i := 0; i < 20 && !refused; i++ {
		refused = gql(t, env, acc.Key, q, nil, 0) == 429
	}
	require.True(t, refused, "the budget was never spent")
	after := scrapeOf(t, env).get(t, "commerce_ratelimit_rejections_total", "group", "graphql_cost")
	require.Equal(t, before+1, after)
	require.GreaterOrEqual(t, scrapeOf(t, env).get(t, "commerce_graphql_operation_cost", "operation", "Spend"), 10.0)
}

// resolverLimits runs into the limits the resolvers check themselves (not
// a route's): passcodes per email, subscriptions per key. Each refusal is
// counted under its group.
func resolverLimits(t *testing.T, env *testkit.Env) {
	before := scrapeOf(t, env)
	email := "limits-" + testkit.Unique() + "@example.com"
	status := 0
	for i := 0; i < 10 && status != 429; i++ {
		status = env.Post("/v1/bootstrap", "", map[string]any{"email": email}).Status
	}
	require.Equal(t, 429, status)

	key := env.NewAccount().Key
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(env.URL, "http")+"/graphql",
		&websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	require.NoError(t, err)
	defer conn.CloseNow()
	send := func(m any) {
		b, _ := json.Marshal(m)
		require.NoError(t, conn.Write(ctx, websocket.MessageText, b))
	}
	send(map[string]any{"type": "connection_init", "payload": map[string]any{"authorization": "Bearer " + key}})
	_, ack, err := conn.Read(ctx)
	require.NoError(t, err)
	require.Contains(t, string(ack), "connection_ack")
	for i := range 11 { // one more than MaxSubscriptionsPerKey
		send(map[string]any{"id": fmt.Sprint(i), "type": "subscribe", "payload": map[string]any{"query": "subscription { events { id } }"}})
	}
	for {
		_, msg, err := conn.Read(ctx)
		require.NoError(t, err, "no refusal")
		if strings.Contains(string(msg), "rate_limited") {
			break
		}
	}
	after := scrapeOf(t, env)
	for _, group := range []string{"bootstrap_email", "event_subscriptions"} {
		was, _ := before.value("commerce_ratelimit_rejections_total", "group", group)
		require.Equal(t, was+1, after.get(t, "commerce_ratelimit_rejections_total", "group", group), group)
	}
}

// gql posts an operation and returns the status (want, when not 0, is
// required).
func gql(t *testing.T, env *testkit.Env, key, query string, vars map[string]any, want int) int {
	t.Helper()
	r := env.Do(testkit.Request{Method: "POST", Path: "/graphql", Key: key, Body: map[string]any{"query": query, "variables": vars}})
	if want != 0 {
		require.Equal(t, want, r.Status, "%s", r.Body)
		require.NotContains(t, string(r.Body), `"errors"`)
	}
	return r.Status
}

// getAsync GETs path with key on a goroutine; the status arrives on the channel.
func getAsync(env *testkit.Env, key, path string) <-chan int {
	out := make(chan int, 1)
	go func() {
		req, _ := http.NewRequest("GET", env.URL+path, nil)
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			out <- 0
			return
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		out <- resp.StatusCode
	}()
	return out
}

// buy goes through the product page's form and the sandbox's payment page,
// paying; it returns the order id.
func buy(t *testing.T, env *testkit.Env, slug, email string) string {
	t.Helper()
	c := env.NoRedirect()
	page, err := c.Get(env.URL + "/p/" + slug)
	require.NoError(t, err)
	page.Body.Close()
	require.Equal(t, 200, page.StatusCode)
	req, err := http.NewRequest("POST", env.URL+"/p/"+slug+"/checkout", strings.NewReader(url.Values{"email": {email}}.Encode()))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", env.URL)
	resp, err := c.Do(req)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, 303, resp.StatusCode, "%s", body)
	checkout := resp.Header.Get("Location")
	sid := checkout[strings.LastIndex(checkout, "/")+1:]
	orderID, ok := sandbox.SessionOrderID(sid)
	require.True(t, ok, checkout)
	resp, err = c.PostForm(checkout, url.Values{"outcome": {"paid"}})
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 303, resp.StatusCode)
	return orderID
}

// However many scrapes arrive at once, the backlogs are read by one
// statement per metrics.QueueCacheFor.
func TestQueueBacklogsReadOncePerInterval(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	var reads atomic.Int64
	stop := env.Server.DB.WatchStatements(func(sql string) {
		if strings.Contains(sql, "job_oldest") {
			reads.Add(1)
		}
	})
	defer stop()
	start := time.Now()
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() { scrapeOf(t, env) })
	}
	wg.Wait()
	if time.Since(start) < metrics.QueueCacheFor {
		require.Equal(t, int64(1), reads.Load())
	}
	require.LessOrEqual(t, reads.Load(), int64(2))
}

// commerce_dependency_up says which of /readyz's checks fails: here Redis,
// which does not answer.
func TestDependencyUp(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithConfig(func(c *config.Config) { c.RedisURL = "redis://127.0.0.1:1/0" }))
	s := scrapeOf(t, env)
	require.Equal(t, 1.0, s.get(t, "commerce_dependency_up", "dependency", "postgres"))
	require.Equal(t, 0.0, s.get(t, "commerce_dependency_up", "dependency", "redis"))
	require.Equal(t, 503, env.Get("/readyz", "").Status)
}
