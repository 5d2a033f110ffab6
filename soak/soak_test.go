// Package soak_test is the soak (`make soak`): `commerce serve` (with its
// workers) as a separate process under a steady mix of traffic for
// SOAK_DURATION (a Go duration, default 10m) — REST reads and writes,
// purchases through the HTML checkout with the sandbox processor, webhook
// deliveries to two endpoints, GraphQL and MCP reads and a mutation, one
// long-lived graphql-ws subscription, and a few hostile requests. Every
// few seconds it samples the process's RSS and open file descriptors
// (/proc), its goroutines (/metrics), its PostgreSQL and Redis connections
// and the backlog of River, the webhook records and the mail outbox. It
// fails when any traffic gets an unexpected answer, or when a resource
// grows without bound: after a warm-up, the mean of the last third of the
// samples above the mean of the first third by more than the metric's
// tolerance (measure_test.go). It prints every metric's first and last
// values.
//
// It takes SOAK_DURATION plus about a minute, so `make test` skips it (it
// runs when COMMERCE_SOAK=1).
package soak_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

const (
	// appName is the service's PostgreSQL application_name, by which its
	// connections are counted.
	appName = "commerce-soak"
	// samplerName names the soak's own Redis connection, which is not
	// counted.
	samplerName = "soak-sampler"
	// defaultDuration is SOAK_DURATION's default.
	defaultDuration = 10 * time.Minute
	// drainLimit is how long the backlogs may take to empty once the
	// traffic stops.
	drainLimit = 90 * time.Second
)

// soakDuration reads SOAK_DURATION.
func soakDuration(t *testing.T) time.Duration {
	v := os.Getenv("SOAK_DURATION")
	if v == "" {
		return defaultDuration
	}
	d, err := time.ParseDuration(v)
	require.NoError(t, err, "SOAK_DURATION must be a Go duration such as 2m or 30m")
	require.GreaterOrEqual(t, d, 30*time.Second, "SOAK_DURATION: at least 30s, to have samples after the warm-up")
	return d
}

// sampleInterval spaces the samples: every 5 s, up to every 10 s for
// runs over 20 minutes (about 120 samples or more).
func sampleInterval(d time.Duration) time.Duration {
	return min(10*time.Second, max(5*time.Second, d/120))
}

func TestSoak(t *testing.T) {
	if os.Getenv("COMMERCE_SOAK") == "" {
		t.Skip("the soak runs in `make soak` (COMMERCE_SOAK=1, SOAK_DURATION)")
	}
	duration := soakDuration(t)
	if dl, ok := t.Deadline(); ok && time.Until(dl) < duration+5*time.Minute {
		t.Fatalf("go test's -timeout leaves %s, less than SOAK_DURATION (%s) plus 5 minutes: raise SOAK_TIMEOUT", time.Until(dl).Round(time.Second), duration)
	}
	ctx := context.Background()
	dir := t.TempDir()
	bin := testkit.BuildCommerce(t)

	addr, pprofAddr := testkit.FreeAddr(t), testkit.FreeAddr(t)
	base := "http://" + addr
	rc := newReceiver()
	hook := httptest.NewServer(rc)
	defer hook.Close()
	dbURL, err := url.Parse(testkit.DatabaseURL)
	require.NoError(t, err)
	q := dbURL.Query()
	q.Set("application_name", appName)
	dbURL.RawQuery = q.Encode()
	env := append(os.Environ(),
		"DATABASE_URL="+dbURL.String(), "REDIS_URL="+testkit.RedisURL,
		"LISTEN_ADDR="+addr, "BASE_URL="+base, "RATE_LIMIT_SCALE=1000000",
		"FILE_STORAGE_URL=file://"+filepath.Join(dir, "files"), "ALLOW_PRIVATE_TARGETS=true",
		"WEBHOOK_RETRY_SCHEDULE=1s,1s,1s,1s,1s,1s,1s", "LOG_LEVEL=warn", "LOG_FORMAT=json",
		"PROCESSOR=sandbox", "SMTP_URL=", "PPROF_ADDR="+pprofAddr)

	key := testkit.CLIAccount(t, bin, env, "soak-"+testkit.Unique()+"@example.com")

	pool, err := pgxpool.New(ctx, testkit.DatabaseURL+"&application_name="+samplerName+"&pool_max_conns=2")
	require.NoError(t, err)
	defer pool.Close()
	ropts, err := redis.ParseURL(testkit.RedisURL)
	require.NoError(t, err)
	ropts.ClientName, ropts.PoolSize = samplerName, 1
	rdb := redis.NewClient(ropts)
	defer rdb.Close()

	svc := testkit.StartProcess(t, bin, env, filepath.Join(dir, "service.log"), base, 30*time.Second, "serve")
	stopped := false
	defer func() {
		if !stopped {
			_ = svc.Stop(syscall.SIGKILL, time.Second)
		}
		if t.Failed() {
			t.Logf("service log (end):\n%s", svc.LogTail(8000))
		}
	}()

	s := newSoak(t, base, key)
	s.setup(hook.URL)
	sub := s.subscribe(ctx)
	defer sub.close()

	sm := &sampler{pid: svc.Pid(), base: base, pprof: pprofAddr, pool: pool, rdb: rdb, client: s.client}
	interval := sampleInterval(duration)
	t.Logf("soak: %s of traffic against pid %d, a sample every %s (warm-up %s)", duration, svc.Pid(), interval, warmup(duration))

	// The first sample: the service set up, before the traffic.
	start := time.Now()
	sm.take(ctx, 0)
	runCtx, stop := context.WithTimeout(ctx, duration)
	defer stop()
	var wg sync.WaitGroup
	s.run(runCtx, &wg)
	tick := time.NewTicker(interval)
	var lastNote time.Duration // a progress line a minute
	shownErrors := 0           // unexpected answers logged so far
	// The goroutines by stack at the end of the warm-up and of the traffic:
	// which stacks grew, should the count grow.
	var warmStacks, endStacks map[string]int
	var stackErr error
	for done := false; !done; {
		select {
		case <-tick.C:
			if exited, err := svc.Exited(); exited {
				stop()
				wg.Wait()
				t.Fatalf("the service exited during the soak: %v", err)
			}
			sm.take(ctx, time.Since(start))
			if warmStacks == nil && time.Since(start) >= warmup(duration) {
				warmStacks, stackErr = sm.goroutineStacks()
			}
			if at := time.Since(start); at-lastNote >= time.Minute-interval/2 {
				lastNote = at
				t.Logf("%s: %s; %d requests, %d unexpected", at.Round(time.Second), sm.latest(), s.traffic.requests(), s.traffic.errorCount())
				// The unexpected answers as they come (the first 20), so
				// a long run says what went wrong before it ends.
				if first := s.traffic.firstErrors(); len(first) > shownErrors {
					t.Logf("unexpected:\n%s", strings.Join(first[shownErrors:], "\n"))
					shownErrors = len(first)
				}
			}
		case <-runCtx.Done():
			done = true
		}
	}
	tick.Stop()
	wg.Wait()
	// The last sample: the moment the traffic ends.
	sm.take(ctx, time.Since(start))
	elapsed := time.Since(start)
	if stackErr == nil {
		endStacks, stackErr = sm.goroutineStacks()
	}

	// Once the traffic stops, every backlog empties.
	drained, drainErr := sm.drain(ctx, drainLimit)
	after := sm.sample(ctx, time.Since(start))
	sub.close()
	s.traffic.noteSubscription(sub)

	t.Log(s.traffic.report(elapsed, rc))
	results := judge(sm.samples, warmup(duration))
	t.Log(report(sm.samples, after, results, warmup(duration)))
	if stackErr != nil {
		t.Errorf("goroutine profile: %v", stackErr)
	} else if warmStacks != nil {
		t.Logf("goroutine stacks grown from the warm-up's end to the traffic's end:\n%s", stackGrowth(warmStacks, endStacks))
	}
	if drainErr != nil {
		t.Errorf("after the traffic: %v", drainErr)
	} else {
		t.Logf("backlogs empty %s after the traffic stopped", drained.Round(100*time.Millisecond))
	}

	// A clean shutdown, too.
	stopped = true
	require.NoError(t, svc.Stop(syscall.SIGTERM, 20*time.Second), "SIGTERM: the service should exit cleanly")

	if n := s.traffic.errorCount(); n > 0 {
		t.Errorf("%d requests got an unexpected answer; the first:\n%s", n, strings.Join(s.traffic.firstErrors(), "\n"))
	}
	if sub.events.Load() == 0 {
		t.Errorf("the subscription received no event")
	}
	for _, p := range []string{"/a", "/b"} {
		if rc.count(p) == 0 {
			t.Errorf("webhook endpoint %s received nothing", p)
		}
	}
	if len(sm.errs) > 0 {
		t.Errorf("%d samples could not be read: %s", len(sm.errs), strings.Join(sm.errs, "; "))
	}
	for _, r := range results {
		if !r.ok {
			t.Errorf("%s grows: %s", r.name, r.why)
		}
	}
}

// receiver is the webhook subscribers' server: it counts the posts each
// endpoint (path) received.
type receiver struct {
	mu  sync.Mutex
	got map[string]int
}

func newReceiver() *receiver { return &receiver{got: map[string]int{}} }

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var buf [4096]byte
	for {
		if _, err := r.Body.Read(buf[:]); err != nil {
			break
		}
	}
	rc.mu.Lock()
	rc.got[r.URL.Path]++
	rc.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

func (rc *receiver) count(path string) int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.got[path]
}

func (rc *receiver) String() string {
	return fmt.Sprintf("webhook posts received: /a %d, /b %d", rc.count("/a"), rc.count("/b"))
}
