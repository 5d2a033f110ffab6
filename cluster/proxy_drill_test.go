package cluster_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

// The proxy drill: a POST in flight when its serving process is killed
// with SIGKILL gets 502 from nginx (which never resends a POST it sent);
// the client's retry with the same Idempotency-Key then succeeds on
// another process and creates exactly one resource. It kills a process, so
// it runs last (the file's name sorts after cluster_*_test.go).
//
// To hold the POST in flight, the test takes a lock on the listings table
// that the creation waits for (after the service claimed the key); the
// waiting backend's application_name names the process (scripts/cluster.sh
// gives each its own).
func TestKillDuringPost(t *testing.T) {
	c := setup(t)
	ctx := context.Background()
	key, _ := c.signUp(t, "drill-"+testkit.Unique()+"@example.com")
	pool, err := pgxpool.New(ctx, c.databaseURL)
	require.NoError(t, err)
	defer pool.Close()

	tx, err := pool.Begin(ctx)
	require.NoError(t, err)
	defer func() { _ = tx.Rollback(ctx) }()
	_, err = tx.Exec(ctx, "LOCK TABLE listings IN SHARE MODE") // reads go on; inserts wait
	require.NoError(t, err)

	title := "Proxy drill " + testkit.Unique()
	body := map[string]any{"title": title, "price": 900}
	idem := map[string]string{"Idempotency-Key": "drill-" + testkit.Unique()}
	type answer struct {
		status int
		body   []byte
	}
	first := make(chan answer, 1)
	go func() {
		st, _, b := c.call(t, "POST", "/v1/listings", key, body, idem)
		first <- answer{st, b}
	}()

	// The process whose insert waits for the lock.
	var app string
	require.Eventually(t, func() bool {
		err := pool.QueryRow(ctx, `SELECT application_name FROM pg_stat_activity
			WHERE wait_event_type = 'Lock' AND application_name LIKE 'commerce-serve-%' LIMIT 1`).Scan(&app)
		return err == nil
	}, 20*time.Second, 20*time.Millisecond, "the POST reaches the database and waits for the lock")
	var victim *process
	for i := range c.servers {
		if app == "commerce-"+c.servers[i].name {
			victim = &c.servers[i]
		}
	}
	require.NotNil(t, victim, "the waiting backend's application_name %q names a serving process", app)
	t.Logf("POST /v1/listings in flight on %s (pid %d): kill -9", victim.name, victim.pid)
	require.NoError(t, syscall.Kill(victim.pid, syscall.SIGKILL))

	var a answer
	select {
	case a = <-first:
	case <-time.After(30 * time.Second):
		t.Fatal("no answer from nginx within 30 s of the kill")
	}
	require.Equal(t, http.StatusBadGateway, a.status, "nginx answers 502 for the POST whose process died (it does not resend it): %s", a.body)
	require.NoError(t, tx.Rollback(ctx))

	// nginx passes requests to the processes that live: a request that
	// could not connect is given to the next one.
	for range 4 {
		c.api(t, key, "GET", "/v1/listings", nil, 200, nil)
	}

	// The client retries with the same key (after a 409
	// idempotency_request_in_progress, a little later) and gets its
	// listing, once.
	retried := time.Now()
	var created struct {
		ID    string `json:"id"`
		Title string `json:"title"`
	}
	tries := 0
	for {
		tries++
		st, _, b := c.call(t, "POST", "/v1/listings", key, body, idem)
		if st == http.StatusCreated {
			require.NoError(t, json.Unmarshal(b, &created))
			break
		}
		require.Equal(t, http.StatusConflict, st, "the retry: %s", b)
		require.Contains(t, string(b), "idempotency_request_in_progress")
		require.Less(t, time.Since(retried), 30*time.Second, "the retry still refused 30 s after the kill: %s", b)
		time.Sleep(time.Second)
	}
	t.Logf("the retry succeeded %s after the kill (%d tries)", time.Since(retried).Round(100*time.Millisecond), tries)
	require.Equal(t, title, created.Title)
	// A second retry replays the same answer.
	st, h, b := c.call(t, "POST", "/v1/listings", key, body, idem)
	require.Equal(t, http.StatusCreated, st, "%s", b)
	require.Equal(t, "true", h.Get("Idempotent-Replayed"))
	require.Contains(t, string(b), created.ID)

	var list struct {
		Data []struct {
			ID    string `json:"id"`
			Title string `json:"title"`
		} `json:"data"`
	}
	c.api(t, key, "GET", "/v1/listings?limit=100", nil, 200, &list)
	n := 0
	for _, l := range list.Data {
		if strings.EqualFold(l.Title, title) {
			n++
			require.Equal(t, created.ID, l.ID)
		}
	}
	require.Equal(t, 1, n, "exactly one listing from the POST and its retries")
}
