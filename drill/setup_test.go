package drill_test

import (
	"context"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

// serviceEnv is the environment every drill runs `commerce` with: the
// test's PostgreSQL and Redis (databaseURL overrides DATABASE_URL when not
// empty), the sandbox processor, mail to sink, files under dir, private
// webhook targets allowed, limits out of the way, quick webhook retries and
// warnings only; extra comes last and wins.
func serviceEnv(dir, base, databaseURL string, sink *testkit.SMTPServer, extra ...string) []string {
	if databaseURL == "" {
		databaseURL = testkit.DatabaseURL
	}
	env := append(os.Environ(),
		"DATABASE_URL="+databaseURL, "REDIS_URL="+testkit.RedisURL,
		"BASE_URL="+base, "RATE_LIMIT_SCALE=1000000",
		"FILE_STORAGE_URL=file://"+filepath.Join(dir, "files"), "ALLOW_PRIVATE_TARGETS=true",
		"WEBHOOK_RETRY_SCHEDULE=1s,1s,1s,1s,1s,1s,1s", "LOG_LEVEL=warn", "LOG_FORMAT=json",
		"PROCESSOR=sandbox", "SMTP_URL="+sink.URL("smtp", ""))
	return append(env, extra...)
}

// operational makes the drill's seller operational: the sandbox connected,
// in USD.
func (d *drill) operational() {
	var onb struct {
		URL string `json:"url"`
	}
	d.api("POST", "/v1/account/processor/connect", nil, 200, &onb)
	_, err := testkit.PostForm(onb.URL, "", url.Values{"currency": {"usd"}})
	require.NoError(d.t, err)
}

// subscribers starts rc behind a test server and adds two webhook
// endpoints to it, at /a and /b; it returns endpoint id → path.
func (d *drill) subscribers(rc *receiver, name string) map[string]string {
	hook := httptest.NewServer(rc)
	d.t.Cleanup(hook.Close)
	endpoints := map[string]string{}
	for _, p := range []string{"/a", "/b"} {
		var e struct {
			ID string `json:"id"`
		}
		d.api("POST", "/v1/webhooks", map[string]any{"url": hook.URL + p, "name": name + " " + p}, 201, &e)
		endpoints[e.ID] = p
	}
	return endpoints
}

type listing struct {
	ID   string `json:"id"`
	Slug string `json:"slug"`
}

// publish creates and publishes a listing for 15.00 with a text
// deliverable (a download email per buyer); fields override the body's.
func (d *drill) publish(title string, fields map[string]any) listing {
	body := map[string]any{"title": title + " " + testkit.Unique(), "price": 1500,
		"deliverables": []any{map[string]any{"type": "text", "value": "What the buyer gets."}}}
	for k, v := range fields {
		body[k] = v
	}
	var l listing
	d.api("POST", "/v1/listings", body, 201, &l)
	d.api("POST", "/v1/listings/"+l.ID+"/publish", nil, 200, nil)
	return l
}

// inFlight counts what was in flight at a kill: River jobs running (by
// kind; on the process whose River client id is worker, when not empty),
// webhook records and mail claimed by a dispatcher (posted or sent,
// perhaps answered, their outcome not yet written).
func inFlight(ctx context.Context, t *testing.T, pool *pgxpool.Pool, worker string) map[string]int {
	q, args := "SELECT kind, count(*) FROM river_job WHERE state = 'running' GROUP BY kind", []any(nil)
	if worker != "" {
		q, args = `SELECT kind, count(*) FROM river_job
			WHERE state = 'running' AND attempted_by[array_length(attempted_by, 1)] = $1 GROUP BY kind`, []any{worker}
	}
	stuck := map[string]int{}
	rows, err := pool.Query(ctx, q, args...)
	require.NoError(t, err)
	for rows.Next() {
		var k string
		var n int
		require.NoError(t, rows.Scan(&k, &n))
		stuck[k] = n
	}
	require.NoError(t, rows.Err())
	var n int
	require.NoError(t, pool.QueryRow(ctx, "SELECT count(*) FROM webhook_deliveries WHERE claimed_until > now()").Scan(&n))
	stuck["webhook_delivery"] = n
	require.NoError(t, pool.QueryRow(ctx, "SELECT count(*) FROM mail_messages WHERE status = 'pending' AND claimed_until > now()").Scan(&n))
	stuck["mail"] = n
	return stuck
}
