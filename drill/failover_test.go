package drill_test

// The failover drill (`make drill-failover`): PostgreSQL's primary failed
// over to its synchronous standby by pg_auto_failover (scripts/failover.sh)
// in the middle of a purchase stream, twice: `pg_autoctl perform failover`,
// then kill -9 of the new primary's keeper and PostgreSQL. `commerce serve`
// runs all along on a multi-host DATABASE_URL
// (target_session_attrs=read-write). Each time it checks that the service writes
// again within failoverLimit of the promotion, that every LISTEN is back on
// the new primary (an event committed after the failover reaches a GraphQL
// subscription on its notification, not the listener-down poll), that
// every checkout a buyer completed is exactly one paid order, and that
// every webhook event and every download email went out once.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

const (
	// failoverPurchases is the least a phase's stream makes; it goes on
	// until writes have gone through for 2 s after the promotion (at most
	// maxPurchases).
	failoverPurchases = 160
	maxPurchases      = 2000
	failoverAfter     = 60 // completed purchases before the failover
	// failoverLimit is how soon after the promotion a write must succeed.
	failoverLimit = 30 * time.Second
	// failoverDrain is how long after the stream every webhook and email
	// may take to go out.
	failoverDrain = 30 * time.Second
	// latencyProbes purchases after the failover measure how soon the
	// subscription sees their order.paid event.
	latencyProbes = 10
	// notifiedWithin: at least latencyQuorum of the probes' events must
	// arrive within it. A subscriber woken only by the listener-down poll
	// (every second) sees an event after a uniform 0-1 s: 8 of 10 within
	// 300 ms would happen by chance about twice in a thousand runs.
	notifiedWithin = 300 * time.Millisecond
	latencyQuorum  = 8
	// drillApp is the service's application_name on its connections, to
	// find its LISTENs in pg_stat_activity.
	drillApp = "commerce-failover-drill"
)

// listenChannels are the channels `commerce serve` LISTENs on, all on its one
// listening connection: the event hub, the webhook dispatcher, the mail
// dispatcher and the auth cache.
var listenChannels = []string{"commerce_events", "webhook_deliveries", "mail_messages", "commerce_auth_invalidate"}

// pgNode is one data node of the pg_auto_failover pair.
type pgNode struct {
	name string
	port string
}

// writeAttempt is one write request of the stream: when it started and
// ended, and whether it succeeded.
type writeAttempt struct {
	start, end time.Time
	ok         bool
	what       string
}

type writeLog struct {
	mu sync.Mutex
	a  []writeAttempt
}

func (l *writeLog) add(w writeAttempt) {
	l.mu.Lock()
	l.a = append(l.a, w)
	l.mu.Unlock()
}

func TestFailover(t *testing.T) {
	if os.Getenv("COMMERCE_DRILL") == "" {
		t.Skip("the failover drill runs in `make drill-failover` (COMMERCE_DRILL=1)")
	}
	cluster := os.Getenv("COMMERCE_FAILOVER_DIR")
	require.NotEmpty(t, cluster, "COMMERCE_FAILOVER_DIR must name the pg_auto_failover cluster (scripts/failover.sh): run `make drill-failover`")
	ctx := context.Background()
	dir := t.TempDir()
	bin := testkit.BuildCommerce(t)

	dbURL, err := url.Parse(testkit.DatabaseURL)
	require.NoError(t, err)
	require.Contains(t, dbURL.Host, ",", "DATABASE_URL must name both nodes: %s", testkit.DatabaseURL)
	dbName := strings.TrimPrefix(dbURL.Path, "/")
	var nodes []pgNode
	for _, name := range []string{"node1", "node2"} {
		b, err := os.ReadFile(filepath.Join(cluster, name+".port"))
		require.NoError(t, err)
		nodes = append(nodes, pgNode{name: name, port: strings.TrimSpace(string(b))})
	}
	nodeURL := func(n pgNode) string {
		return "postgres://postgres@127.0.0.1:" + n.port + "/" + dbName + "?sslmode=disable&connect_timeout=2"
	}
	// nodeState is what node n answers as: "primary" (writable), "standby",
	// "read-only" (out of recovery but refusing writes) or "down".
	nodeState := func(n pgNode) string {
		cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		c, err := pgx.Connect(cctx, nodeURL(n))
		if err != nil {
			return "down"
		}
		defer c.Close(context.Background())
		var recovery bool
		var readOnly string
		if err := c.QueryRow(cctx, "SELECT pg_is_in_recovery(), current_setting('transaction_read_only')").Scan(&recovery, &readOnly); err != nil {
			return "down"
		}
		switch {
		case recovery:
			return "standby"
		case readOnly == "on":
			return "read-only"
		}
		return "primary"
	}
	writable := func(n pgNode) bool { return nodeState(n) == "primary" }
	var primary, standby pgNode
	switch {
	case writable(nodes[0]):
		primary, standby = nodes[0], nodes[1]
	case writable(nodes[1]):
		primary, standby = nodes[1], nodes[0]
	default:
		t.Fatal("neither node answers as a primary")
	}
	t.Logf("primary %s (127.0.0.1:%s), synchronous standby %s (127.0.0.1:%s)", primary.name, primary.port, standby.name, standby.port)
	var syncNames string
	require.NoError(t, pgxQueryRow(ctx, nodeURL(primary), "SHOW synchronous_standby_names", &syncNames))
	require.NotEmpty(t, syncNames, "the primary must replicate synchronously")
	var syncCommit string
	require.NoError(t, pgxQueryRow(ctx, nodeURL(primary), "SHOW synchronous_commit", &syncCommit))
	require.Contains(t, []string{"on", "remote_apply", "remote_write"}, syncCommit)
	t.Logf("synchronous_standby_names = %q, synchronous_commit = %s", syncNames, syncCommit)

	addr := testkit.FreeAddr(t)
	d := &drill{t: t, bin: bin, dir: dir, base: "http://" + addr}
	rc := &receiver{got: map[string]map[string]int{}}
	sink := testkit.StartSMTP(t, testkit.SMTPOptions{DataDelay: receiverDelay})
	d.env = serviceEnv(dir, d.base, testkit.DatabaseURL+"&application_name="+drillApp, sink, "LISTEN_ADDR="+addr)
	d.key = testkit.CLIAccount(t, bin, d.env, "failover-"+testkit.Unique()+"@example.com")

	// The test's own pool follows the primary as the service's does.
	pool, err := pgxpool.New(ctx, testkit.DatabaseURL)
	require.NoError(t, err)
	defer pool.Close()

	d.start()
	defer func() { _ = d.svc.Stop(syscall.SIGTERM, 20*time.Second) }()
	defer func() {
		if t.Failed() {
			d.dumpLog()
		}
	}()

	d.operational()
	endpoints := d.subscribers(rc, "failover")
	// A GraphQL subscription to the account's events, open across the
	// failover (resumed with `after` if the server ends it).
	sub := subscribeEvents(t, d.base, d.key)
	defer sub.close()

	// runPhase fails the primary over (mode "switchover": pg_autoctl
	// perform failover; "kill": kill -9 of the primary's keeper and
	// PostgreSQL) during a purchase stream of a listing of its own, and
	// checks what the service did.
	runPhase := func(mode string, primary, standby pgNode) {
		t.Logf("=== %s: primary %s, standby %s", mode, primary.name, standby.name)
		l := d.publish("Failover", nil)

		// The purchase stream: 8 buyers at a time through the checkout API and
		// the sandbox's checkout page. A buyer retries what fails as an
		// integration and a browser would: the checkout POST with its
		// Idempotency-Key, the payment form as it is (the sandbox's payment
		// event has an id of its own, so a payment applied twice is one).
		writes := &writeLog{}
		statuses := map[string]int{} // what failed attempts got
		var statusMu sync.Mutex
		failedWith := func(what string, err error) {
			statusMu.Lock()
			defer statusMu.Unlock()
			s := err.Error()
			if i := strings.Index(s, ":"); i > 0 && strings.HasPrefix(s, "HTTP ") {
				s = s[:i]
			} else if len(s) > 60 {
				s = s[:60]
			}
			statuses[what+" "+s]++
		}
		// retry runs one write until it succeeds, for at most a minute.
		retry := func(what string, f func() error) error {
			deadline := time.Now().Add(time.Minute)
			var first error
			for {
				start := time.Now()
				err := f()
				writes.add(writeAttempt{start: start, end: time.Now(), ok: err == nil, what: what})
				if err == nil {
					return nil
				}
				failedWith(what, err)
				if first == nil {
					first = fmt.Errorf("%s: %w", start.Format("15:04:05.000"), err)
				}
				if time.Now().After(deadline) {
					return fmt.Errorf("%s: still failing after a minute: %w (first failure at %v)", what, err, first)
				}
				time.Sleep(200 * time.Millisecond)
			}
		}
		type sale struct{ email, orderID string }
		var (
			salesMu sync.Mutex
			sales   []sale
		)
		buy := func(n int64) error {
			email := fmt.Sprintf("fo-buyer-%d-%s@example.com", n, testkit.Unique())
			idem := "failover-" + testkit.Unique()
			var co struct {
				URL     string `json:"url"`
				OrderID string `json:"order_id"`
			}
			err := retry("checkout", func() error {
				return postJSON(d.base+"/v1/checkouts", d.key, idem,
					map[string]any{"listing_id": l.ID, "buyer_email": email}, http.StatusCreated, &co)
			})
			if err != nil {
				return err
			}
			err = retry("pay", func() error {
				thanks, err := testkit.PostForm(co.URL, d.base, url.Values{"outcome": {"paid"}})
				if err != nil {
					return err
				}
				if !strings.HasSuffix(thanks.Path, "/thank-you") {
					return fmt.Errorf("paid: redirected to %s", thanks)
				}
				return nil
			})
			if err != nil {
				return err
			}
			salesMu.Lock()
			sales = append(sales, sale{email: email, orderID: co.OrderID})
			salesMu.Unlock()
			return nil
		}

		var (
			completed, next atomic.Int64
			failoverOnce    sync.Once
			failoverStart   time.Time
			promotedAt      time.Time
			promotedNs      atomic.Int64 // promotedAt, for the buyers
			failoverOut     []byte
			failoverErr     error
			failoverTook    time.Duration
			failoverDone    = make(chan struct{})
			traceDone       = make(chan struct{})
			timeline        []string
		)
		startFailover := func() {
			failoverStart = time.Now()
			go func() {
				defer close(failoverDone)
				cmd := exec.Command("../scripts/failover.sh", "failover", cluster)
				if mode == "kill" {
					cmd = exec.Command("../scripts/failover.sh", "kill", cluster, primary.name)
				}
				failoverOut, failoverErr = cmd.CombinedOutput()
				failoverTook = time.Since(failoverStart)
			}()
			// The promotion (the standby answers as a writable primary), and
			// the nodes' states until the failover is over.
			go func() {
				defer close(traceDone)
				last := ""
				for time.Since(failoverStart) < 2*time.Minute {
					a, b := nodeState(nodes[0]), nodeState(nodes[1])
					now := time.Now()
					if st := a + "/" + b; st != last {
						last = st
						timeline = append(timeline, fmt.Sprintf("+%s %s=%s %s=%s", now.Sub(failoverStart).Round(10*time.Millisecond), nodes[0].name, a, nodes[1].name, b))
					}
					if promotedAt.IsZero() && map[string]string{nodes[0].name: a, nodes[1].name: b}[standby.name] == "primary" {
						promotedAt = now
						promotedNs.Store(now.UnixNano())
					}
					select {
					case <-failoverDone:
						if !promotedAt.IsZero() {
							return
						}
					default:
					}
					time.Sleep(50 * time.Millisecond)
				}
			}()
		}
		streamStart := time.Now()
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for range 8 {
			wg.Go(func() {
				for {
					// At least failoverPurchases, and on until the
					// service has taken writes for 2 s after the promotion.
					if completed.Load() >= failoverPurchases {
						p := promotedNs.Load()
						if (p != 0 && time.Since(time.Unix(0, p)) > 2*time.Second) || next.Load() >= maxPurchases {
							return
						}
					}
					n := next.Add(1)
					if err := buy(n); err != nil {
						errs <- err
						return
					}
					if completed.Add(1) == failoverAfter {
						failoverOnce.Do(startFailover)
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Errorf("a buyer gave up: %v", err)
		}
		t.Logf("failed write attempts by answer: %v; the subscription received %d events", statuses, sub.count.Load())
		<-failoverDone
		<-traceDone
		t.Logf("the nodes during the failover: %s", strings.Join(timeline, ", "))
		require.NoError(t, failoverErr, "scripts/failover.sh failover: %s", failoverOut)
		require.False(t, promotedAt.IsZero(), "the standby %s never answered as a primary", standby.name)
		require.True(t, writable(standby), "the standby %s is not the primary after the failover", standby.name)
		t.Logf("%d purchases completed in %s; failover started after %d; standby promoted %s after the failover started (the %s command returned after %s)",
			completed.Load(), time.Since(streamStart).Round(time.Millisecond), failoverAfter,
			promotedAt.Sub(failoverStart).Round(time.Millisecond), mode, failoverTook.Round(time.Millisecond))

		// Time to answer again: the first write after the last failed one (or,
		// with no failure, the first write started after the promotion).
		var lastFail, firstFail, answered time.Time
		failedWrites := 0
		writes.mu.Lock()
		attempts := slices.Clone(writes.a)
		writes.mu.Unlock()
		slices.SortFunc(attempts, func(a, b writeAttempt) int { return a.end.Compare(b.end) })
		for _, a := range attempts {
			if !a.ok && a.start.After(failoverStart.Add(-time.Second)) {
				failedWrites++
				if firstFail.IsZero() {
					firstFail = a.end
				}
				lastFail = a.end
			}
		}
		after := promotedAt
		if !lastFail.IsZero() && lastFail.After(after) {
			after = lastFail
		}
		for _, a := range attempts {
			if a.ok && a.start.After(after) {
				answered = a.end
				break
			}
		}
		// Writes by the second (from the failover's start) they ended in:
		// successes/failures.
		perSecond := map[int][2]int{}
		lastSec := 0
		for _, a := range attempts {
			sec := int(a.end.Sub(failoverStart).Seconds())
			if sec < -2 {
				continue
			}
			c := perSecond[sec]
			if a.ok {
				c[0]++
			} else {
				c[1]++
			}
			perSecond[sec] = c
			lastSec = max(lastSec, sec)
		}
		var secs []string
		for sec := -2; sec <= lastSec; sec++ {
			c := perSecond[sec]
			secs = append(secs, fmt.Sprintf("%d:%d/%d", sec, c[0], c[1]))
		}
		t.Logf("writes ended per second from the failover's start (ok/failed): %s", strings.Join(secs, " "))
		if answered.IsZero() {
			// Still check what was lost before failing.
			t.Errorf("no write succeeded after the promotion")
			answered = time.Now()
		}
		t.Logf("writes answered again %s after the failover started, %s after the promotion; %d write attempts failed (%s between the first and the last): %v",
			answered.Sub(failoverStart).Round(time.Millisecond), answered.Sub(promotedAt).Round(time.Millisecond),
			failedWrites, lastFail.Sub(firstFail).Round(time.Millisecond), statuses)
		if answered.Sub(promotedAt) >= failoverLimit {
			t.Errorf("the service must write again within %s of the promotion", failoverLimit)
		}

		// Every LISTEN is back, on the new primary: the service's sessions
		// there, started after the promotion, whose last statement is the
		// LISTEN they wait on.
		listening := map[string]int{}
		require.Eventually(t, func() bool {
			c, err := pgx.Connect(ctx, nodeURL(standby))
			if err != nil {
				return false
			}
			defer c.Close(context.Background())
			rows, err := c.Query(ctx, `SELECT query FROM pg_stat_activity
			WHERE application_name = $1 AND datname = $2 AND backend_start > $3 AND query ILIKE 'LISTEN %'`,
				drillApp, dbName, promotedAt.Add(-time.Second))
			if err != nil {
				return false
			}
			clear(listening)
			for rows.Next() {
				var q string
				if rows.Scan(&q) != nil {
					continue
				}
				// One listening connection per process LISTENs on every
				// channel in one multi-statement query (db/listen.go).
				for _, st := range strings.Split(q, ";") {
					st = strings.TrimSpace(st)
					if len(st) > len("LISTEN ") && strings.EqualFold(st[:len("LISTEN ")], "LISTEN ") {
						listening[strings.Trim(strings.TrimSpace(st[len("LISTEN "):]), `"`)]++
					}
				}
			}
			rows.Close()
			for _, ch := range listenChannels {
				if listening[ch] == 0 {
					return false
				}
			}
			return true
		}, 15*time.Second, 250*time.Millisecond, "LISTEN sessions of the service on the new primary")
		t.Logf("LISTEN sessions of the service on the new primary: %v", listening)

		// An event committed after the failover reaches the subscription on
		// its notification: latencyProbes purchases one after another, each
		// order.paid event timed from the payment's answer.
		var lat []time.Duration
		for i := range latencyProbes {
			sub.drain()
			require.NoError(t, buy(int64(failoverPurchases+1+i)))
			paidAt := time.Now()
			got := sub.waitType("ORDER_PAID", 5*time.Second)
			if got.IsZero() {
				var n, last int64
				_ = pool.QueryRow(ctx, `SELECT count(*), coalesce(max(seq), 0) FROM events WHERE listing_id = $1`, l.ID).Scan(&n, &last)
				t.Fatalf("probe %d: no order.paid event on the subscription within 5 s (subscription: %v; %d events received, resumed %d times; the log holds %d events, last seq %d)",
					i, sub.err(), sub.count.Load(), sub.resumes.Load(), n, last)
			}
			lat = append(lat, max(0, got.Sub(paidAt)))
			time.Sleep(time.Duration(50+37*i%150) * time.Millisecond)
		}
		slices.Sort(lat)
		within := 0
		for _, x := range lat {
			if x <= notifiedWithin {
				within++
			}
		}
		t.Logf("subscription after the failover: order.paid seen %v after the payment's answer (median %s; %d of %d within %s); the subscription was resumed %d times",
			roundAll(lat), lat[len(lat)/2].Round(time.Millisecond), within, len(lat), notifiedWithin, sub.resumes.Load())
		require.GreaterOrEqual(t, within, latencyQuorum, "events after the failover must reach the subscription on their notification, not the poll")

		// No paid order lost or doubled: each completed checkout is exactly one
		// paid order, and there are no other orders.
		salesMu.Lock()
		done := slices.Clone(sales)
		salesMu.Unlock()
		lost, doubled := 0, 0
		for _, s := range done {
			var paid int
			require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM orders WHERE listing_id = $1 AND buyer_email = $2 AND paid_at IS NOT NULL`,
				l.ID, s.email).Scan(&paid))
			switch {
			case paid == 0:
				lost++
				t.Errorf("buyer %s completed checkout %s, but no paid order is left", s.email, s.orderID)
			case paid > 1:
				doubled++
				t.Errorf("buyer %s has %d paid orders", s.email, paid)
			}
		}
		// A checkout whose commit reached the standby while its answer was
		// lost with the old primary (the request failed, its key was
		// released, the retry made another) leaves a pending order nobody
		// pays: it expires like any abandoned checkout.
		var ordersAll, paidAll, pending int
		require.NoError(t, pool.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE paid_at IS NOT NULL),
				count(*) FILTER (WHERE status = 'pending' AND paid_at IS NULL)
			FROM orders WHERE listing_id = $1`, l.ID).Scan(&ordersAll, &paidAll, &pending))
		t.Logf("%d checkouts completed: %d paid orders; lost %d, doubled %d; %d orders left pending by a checkout whose answer was lost",
			len(done), paidAll, lost, doubled, pending)
		require.Equal(t, len(done), paidAll, "paid orders")
		require.Equal(t, ordersAll, paidAll+pending, "orders neither paid nor pending")

		// Every webhook event and every download email out, once.
		var mailProblem, hookProblem string
		var orders, events int
		drainStart := time.Now()
		for {
			mailProblem, hookProblem, orders, events = check(ctx, t, pool, l.ID, endpoints, rc, sink)
			if mailProblem == "" && hookProblem == "" {
				break
			}
			if time.Since(drainStart) > failoverDrain {
				logJobs(ctx, t, pool)
				t.Fatalf("%s after the stream: %s %s", failoverDrain, mailProblem, hookProblem)
			}
			time.Sleep(250 * time.Millisecond)
		}
		_, resent := mailbox(t, sink, "Your download")
		t.Logf("all out %s after the stream: %d paid orders, %d events × %d endpoints delivered, %d download emails (one Message-ID each); %d webhook posts repeated, %d messages handed to SMTP again",
			time.Since(drainStart).Round(time.Millisecond), orders, events, len(endpoints), orders, rc.duplicates(), resent)
		require.Zero(t, rc.duplicates(), "webhook posts repeated")
		require.Zero(t, resent, "emails handed to SMTP again")
		require.NoError(t, sub.err(), "the subscription")
		t.Logf("FIGURES (%s): promoted %s after the failover started; writes answered again %s after the start, %s after the promotion; orders lost %d, doubled %d; webhooks %d posted once each (%d repeats); emails %d sent once each (%d repeats); subscription median %s", mode,
			promotedAt.Sub(failoverStart).Round(time.Millisecond), answered.Sub(failoverStart).Round(time.Millisecond),
			answered.Sub(promotedAt).Round(time.Millisecond), lost, doubled, events*len(endpoints), rc.duplicates(), orders, resent,
			lat[len(lat)/2].Round(time.Millisecond))
	}

	runPhase("switchover", primary, standby)
	// The old primary follows the new one as its synchronous standby
	// again; then the new primary is killed.
	primary, standby = standby, primary
	waitPair(t, cluster)
	require.NoError(t, pgxQueryRow(ctx, nodeURL(primary), "SHOW synchronous_standby_names", &syncNames))
	require.NotEmpty(t, syncNames, "the new primary must replicate synchronously before the kill")
	t.Logf("%s is primary, %s its synchronous standby again (synchronous_standby_names = %q)", primary.name, standby.name, syncNames)
	runPhase("kill", primary, standby)
}

// waitPair waits (at most a minute) until the monitor reports one node
// primary and the other secondary.
func waitPair(t *testing.T, cluster string) {
	t.Helper()
	pm, err := os.ReadFile(filepath.Join(cluster, "monitor.port"))
	require.NoError(t, err)
	monitor := "postgres://autoctl_node@127.0.0.1:" + strings.TrimSpace(string(pm)) + "/pg_auto_failover?sslmode=disable"
	var states string
	var err2 error
	require.Eventually(t, func() bool {
		err2 = pgxQueryRow(context.Background(), monitor,
			`SELECT string_agg(current_group_state::text, '/' ORDER BY current_group_state::text) FROM pgautofailover.current_state('default')`, &states)
		return err2 == nil && states == "primary/secondary"
	}, time.Minute, 250*time.Millisecond, "the monitor's states: %s (%v)", states, err2)
}

func roundAll(ds []time.Duration) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Round(time.Millisecond).String()
	}
	return out
}

func pgxQueryRow(ctx context.Context, u, sql string, dest ...any) error {
	c, err := pgx.Connect(ctx, u)
	if err != nil {
		return err
	}
	defer c.Close(context.Background())
	return c.QueryRow(ctx, sql).Scan(dest...)
}

// postJSON posts body to u with the API key and Idempotency-Key idem and
// decodes the answer into out; any status but want is an error.
func postJSON(u, key, idem string, body any, want int, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequest(http.MethodPost, u, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", idem)
	resp, err := apiClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	rb, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode != want {
		return fmt.Errorf("HTTP %d: %.200s", resp.StatusCode, rb)
	}
	return json.Unmarshal(rb, out)
}

var apiClient = &http.Client{Timeout: 15 * time.Second}

// eventSub is a graphql-transport-ws subscription to the account's
// events; when the server ends it, it is resumed after the last event
// received, as the schema tells a client to.
type eventSub struct {
	t      *testing.T
	base   string
	key    string
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
	// got carries each event's type and arrival time.
	got     chan subEvent
	resumes atomic.Int64
	count   atomic.Int64

	mu      sync.Mutex
	lastID  string
	failure error
}

type subEvent struct {
	typ string
	at  time.Time
}

func subscribeEvents(t *testing.T, base, key string) *eventSub {
	ctx, cancel := context.WithCancel(context.Background())
	s := &eventSub{t: t, base: base, key: key, ctx: ctx, cancel: cancel, done: make(chan struct{}), got: make(chan subEvent, 10000)}
	ready := make(chan error, 1)
	go s.run(ready)
	require.NoError(t, <-ready, "open the events subscription")
	return s
}

func (s *eventSub) run(ready chan error) {
	defer close(s.done)
	first := true
	for s.ctx.Err() == nil {
		err := s.once(func() {
			if first {
				first = false
				ready <- nil
			}
		})
		if s.ctx.Err() != nil {
			return
		}
		if first {
			ready <- err
			return
		}
		s.resumes.Add(1)
		s.mu.Lock()
		if s.resumes.Load() > 20 {
			s.failure = fmt.Errorf("resumed 20 times; last: %w", err)
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
		time.Sleep(500 * time.Millisecond)
	}
}

// once runs one subscription until it ends, calling started once it is
// acknowledged.
func (s *eventSub) once(started func()) error {
	dctx, dcancel := context.WithTimeout(s.ctx, 10*time.Second)
	defer dcancel()
	conn, _, err := websocket.Dial(dctx, "ws"+strings.TrimPrefix(s.base, "http")+"/graphql",
		&websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	if err != nil {
		return err
	}
	defer conn.Close(websocket.StatusNormalClosure, "")
	conn.SetReadLimit(1 << 20)
	write := func(v any) error {
		b, _ := json.Marshal(v)
		wctx, wcancel := context.WithTimeout(s.ctx, 5*time.Second)
		defer wcancel()
		return conn.Write(wctx, websocket.MessageText, b)
	}
	if err := write(map[string]any{"type": "connection_init", "payload": map[string]any{"authorization": "Bearer " + s.key}}); err != nil {
		return err
	}
	_, b, err := conn.Read(dctx)
	if err != nil {
		return err
	}
	if !bytes.Contains(b, []byte(`"connection_ack"`)) {
		return fmt.Errorf("no connection_ack: %.200s", b)
	}
	s.mu.Lock()
	vars := map[string]any{}
	if s.lastID != "" {
		vars["after"] = s.lastID
	}
	s.mu.Unlock()
	if err := write(map[string]any{"id": "1", "type": "subscribe", "payload": map[string]any{
		"query": `subscription($after: ID) { events(after: $after) { id type } }`, "variables": vars}}); err != nil {
		return err
	}
	started()
	for {
		_, b, err := conn.Read(s.ctx)
		if err != nil {
			return err
		}
		at := time.Now()
		var m struct {
			Type    string `json:"type"`
			Payload struct {
				Data struct {
					Events struct {
						ID   string `json:"id"`
						Type string `json:"type"`
					} `json:"events"`
				} `json:"data"`
				Errors json.RawMessage `json:"errors"`
			} `json:"payload"`
		}
		if err := json.Unmarshal(b, &m); err != nil {
			return fmt.Errorf("undecodable message %.200s", b)
		}
		switch m.Type {
		case "ping":
			_ = write(map[string]any{"type": "pong"})
		case "pong":
		case "next":
			if len(m.Payload.Errors) > 0 {
				return fmt.Errorf("subscription error: %s", m.Payload.Errors)
			}
			s.mu.Lock()
			s.lastID = m.Payload.Data.Events.ID
			s.mu.Unlock()
			s.count.Add(1)
			s.got <- subEvent{typ: m.Payload.Data.Events.Type, at: at}
		default:
			return fmt.Errorf("%s message: %.300s", m.Type, b)
		}
	}
}

// drain forgets the events received so far.
func (s *eventSub) drain() {
	for {
		select {
		case <-s.got:
		default:
			return
		}
	}
}

// waitType returns when the next event of type typ arrived (zero after
// timeout).
func (s *eventSub) waitType(typ string, timeout time.Duration) time.Time {
	deadline := time.After(timeout)
	for {
		select {
		case e := <-s.got:
			if e.typ == typ {
				return e.at
			}
		case <-deadline:
			return time.Time{}
		}
	}
}

func (s *eventSub) err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failure
}

func (s *eventSub) close() {
	s.cancel()
	<-s.done
}
