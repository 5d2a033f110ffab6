package drill_test

// The leader-kill drill (`make drill-leader`, issue 28 item 5): a front
// `commerce serve --no-worker` takes the purchases, two working processes
// (`commerce serve`, which work jobs, mail and webhooks) fulfil them, and
// the one that leads River (river_leader) is killed with SIGKILL in the
// middle of 200 purchases while unpaid checkouts keep expiring (a 2 s
// CHECKOUT_EXPIRY: the expiry sweep runs every second). It measures the
// time from the kill until the periodic work runs again (a sweep completed
// by the survivor, and how late expired checkouts are canceled), until
// River elects a new leader, and until every download email and webhook is
// out, and counts duplicates: download emails by buyer and by Message-ID,
// webhook posts by event id, order.canceled events by order, library
// sign-in links mailed for the 40 requests made around the kill (River
// jobs that mail), and jobs run again by River's rescuer. It fails when periodic work resumes more than
// 10 s after the kill, when a buyer gets two different download emails, or
// when anything went out twice that was not in flight at the kill, when a
// sign-in request got two links, or when the emails and sign-in links the
// kill delayed take more than 20 s (the mail claims and the worker
// heartbeats last 10 s).

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

const (
	// leaderPeriodicLimit is how soon after the kill periodic work must
	// run again (the goal).
	leaderPeriodicLimit = 10 * time.Second
	// leaderDrainLimit bounds the wait for every email and webhook after
	// the kill.
	leaderDrainLimit = 60 * time.Second
	// leaderCheckoutExpiry is the drill's CHECKOUT_EXPIRY: the sweep runs
	// every second.
	leaderCheckoutExpiry = 2 * time.Second
	// leaderMailLimit is how soon after the kill the emails it delayed
	// must be out.
	leaderMailLimit = 20 * time.Second
	// signInLimit bounds the wait for the sign-in links of jobs the kill
	// left running (River's rescue).
	signInLimit = 100 * time.Second
)

func TestKillLeader(t *testing.T) {
	if os.Getenv("COMMERCE_DRILL") == "" {
		t.Skip("the leader-kill drill runs in `make drill-leader` (COMMERCE_DRILL=1)")
	}
	ctx := context.Background()
	dir := t.TempDir()
	bin := testkit.BuildCommerce(t)
	pool, err := pgxpool.New(ctx, testkit.DatabaseURL)
	require.NoError(t, err)
	defer pool.Close()

	front := "http://" + testkit.FreeAddr(t)
	rc := &receiver{got: map[string]map[string]int{}}
	sink := testkit.StartSMTP(t, testkit.SMTPOptions{DataDelay: receiverDelay})
	// d talks to the front; the workers are started beside it.
	d := &drill{t: t, bin: bin, dir: dir, base: front,
		env: serviceEnv(dir, front, "", sink, "CHECKOUT_EXPIRY="+leaderCheckoutExpiry.String())}
	start := func(name, base string, args ...string) *testkit.Process {
		e := append(append([]string(nil), d.env...), "LISTEN_ADDR="+strings.TrimPrefix(base, "http://"))
		return testkit.StartProcess(t, bin, e, filepath.Join(dir, name+".log"), base, 30*time.Second, args...)
	}
	d.key = testkit.CLIAccount(t, bin, d.env, "leader-"+testkit.Unique()+"@example.com")

	// The front serves; worker A starts alone and is elected (a leader a
	// previous drill killed may hold the lease for up to 15 s more); then
	// worker B.
	fp := start("front", front, "serve", "--no-worker")
	defer func() { _ = fp.Stop(syscall.SIGTERM, 20*time.Second) }()
	var dbStart time.Time
	require.NoError(t, pool.QueryRow(ctx, "SELECT now()").Scan(&dbStart))
	a := start("worker-a", "http://"+testkit.FreeAddr(t), "serve")
	defer func() { _ = a.Stop(syscall.SIGTERM, 20*time.Second) }()
	leaderA := waitLeader(ctx, t, pool, dbStart, "", 40*time.Second)
	b := start("worker-b", "http://"+testkit.FreeAddr(t), "serve")
	defer func() { _ = b.Stop(syscall.SIGTERM, 20*time.Second) }()
	defer func() {
		if t.Failed() {
			for _, p := range []*testkit.Process{fp, a, b} {
				t.Logf("%s (end):\n%s", p.LogPath, p.LogTail(4000))
			}
		}
	}()
	t.Logf("River's leader: %s (worker A, pid %d); worker B pid %d", leaderA, a.Pid(), b.Pid())

	d.operational()
	endpoints := d.subscribers(rc, "leader drill")
	l := d.publish("Leader drill", nil)

	// Unpaid checkouts, one every 200 ms until the end: each expires 2 s
	// later and the sweep (every second) cancels it.
	tag := testkit.Unique()
	stopAbandon := make(chan struct{})
	var abandoned atomic.Int64
	var abandoning sync.WaitGroup
	abandoning.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stopAbandon:
				return
			case <-time.After(200 * time.Millisecond):
			}
			email := fmt.Sprintf("abandon-%d-%s@example.com", i, tag)
			if _, err := testkit.PostForm(front+"/p/"+l.Slug+"/checkout", front, url.Values{"email": {email}}); err == nil {
				abandoned.Add(1)
			}
		}
	})

	// 200 purchases by 8 buyers at a time; the 100th completed kills
	// worker A, River's leader. The front stays up: no purchase is cut,
	// the kill only takes away a fulfilling process.
	var (
		completed, failed, reserved, next atomic.Int64
		lastDone                          atomic.Int64 // when the last purchase completed
		killOnce                          sync.Once
		killedAt                          time.Time
		killed                            = make(chan struct{})
		stuck                             map[string]int
	)
	kill := func() {
		var leader string
		require.NoError(t, pool.QueryRow(ctx, "SELECT leader_id FROM river_leader").Scan(&leader))
		require.Equal(t, leaderA, leader, "worker A still leads")
		killedAt = time.Now()
		_ = a.Stop(syscall.SIGKILL, time.Second)
		stuck = inFlight(ctx, t, pool, leaderA)
		close(killed)
	}
	// Buyers of purchases 81 to 120 ask for a library sign-in link right
	// after paying: River jobs that mail, some running when A dies.
	var signInMu sync.Mutex
	var signIns []string
	askSignIn := func(email string) {
		req, err := http.NewRequest("POST", front+"/library/sign-in", strings.NewReader(url.Values{"email": {email}}.Encode()))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", front)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Logf("library sign-in request failed: %v", err)
			return
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Logf("library sign-in request: HTTP %d", resp.StatusCode)
			return
		}
		signInMu.Lock()
		signIns = append(signIns, strings.ToLower(email))
		signInMu.Unlock()
	}
	buy := func() error {
		n := next.Add(1)
		email := fmt.Sprintf("buyer-%d-%s@example.com", n, testkit.Unique())
		co, err := testkit.PostForm(front+"/p/"+l.Slug+"/checkout", front, url.Values{"email": {email}})
		if err != nil {
			return err
		}
		thanks, err := testkit.PostForm(co.String(), front, url.Values{"outcome": {"paid"}})
		if err != nil {
			return err
		}
		if !strings.HasSuffix(thanks.Path, "/thank-you") {
			return fmt.Errorf("paid: redirected to %s", thanks)
		}
		if n > killAfter-20 && n <= killAfter+20 {
			askSignIn(email)
		}
		return nil
	}
	began := time.Now()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for reserved.Add(1) <= purchases && time.Since(began) < 3*time.Minute {
				if err := buy(); err != nil {
					reserved.Add(-1)
					if failed.Add(1) <= 3 {
						t.Logf("purchase failed (tried again): %v", err)
					}
					time.Sleep(100 * time.Millisecond)
					continue
				}
				switch completed.Add(1) {
				case killAfter:
					killOnce.Do(kill)
				case purchases:
					lastDone.Store(time.Now().UnixNano())
				}
			}
		})
	}

	// From the kill: River's new leader, the first sweep that runs, and
	// the backlog: the download emails of the orders paid before the kill
	// and the webhooks of the events recorded before it, all out (sent,
	// delivered), among them those worker A had in flight.
	<-killed
	var newLeader string
	// signInLinks counts the sign-in requests with one link mailed, and
	// with more.
	signInLinks := func() (one, more int) {
		signInMu.Lock()
		emails := append([]string(nil), signIns...)
		signInMu.Unlock()
		require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE n = 1), count(*) FILTER (WHERE n > 1) FROM (
			SELECT e, (SELECT count(*) FROM mail_messages m WHERE lower(m.to_address) = e AND m.template = 'library_sign_in') AS n
			FROM unnest($1::text[]) AS e) x`, emails).Scan(&one, &more))
		return one, more
	}
	var elected, swept, backlogMail, backlogHooks, mailOut, hooksOut, signInsDone time.Duration
	for elected == 0 || swept == 0 || backlogMail == 0 || backlogHooks == 0 || mailOut == 0 || hooksOut == 0 || signInsDone == 0 {
		if time.Since(killedAt) > leaderDrainLimit {
			break
		}
		since := time.Since(killedAt)
		if elected == 0 {
			err := pool.QueryRow(ctx, "SELECT leader_id FROM river_leader").Scan(&newLeader)
			if err == nil && newLeader != leaderA {
				elected = since
			} else if err != nil && err != pgx.ErrNoRows {
				require.NoError(t, err)
			}
		}
		if swept == 0 {
			var at *time.Time
			require.NoError(t, pool.QueryRow(ctx, `SELECT min(finalized_at) FROM river_job
				WHERE kind = 'checkout_expiry_sweep' AND state = 'completed' AND attempted_at > $1`, killedAt).Scan(&at))
			if at != nil {
				swept = at.Sub(killedAt)
			}
		}
		mailLeft := func(before time.Time) int {
			var n int
			require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM orders o WHERE o.listing_id = $1 AND o.paid_at < $2
				AND NOT EXISTS (SELECT 1 FROM mail_messages m WHERE m.to_address = o.buyer_email AND m.template = 'download_link'
					AND m.status = 'sent')`, l.ID, before).Scan(&n))
			return n
		}
		hooksLeft := func(before time.Time) int {
			var n int
			require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM webhook_deliveries d JOIN events v ON v.id = d.event_id
				WHERE v.listing_id = $1 AND v.created_at < $2 AND d.status <> 'delivered'`, l.ID, before).Scan(&n))
			return n
		}
		if backlogMail == 0 && mailLeft(killedAt) == 0 {
			backlogMail = since
		}
		if backlogHooks == 0 && hooksLeft(killedAt) == 0 {
			backlogHooks = since
		}
		if done := lastDone.Load(); done != 0 {
			// Once the last purchase is in: all of them.
			if mailOut == 0 && mailLeft(time.Now()) == 0 {
				mailOut = since
			}
			if hooksOut == 0 && hooksLeft(time.Now()) == 0 {
				hooksOut = since
			}
			if one, more := signInLinks(); signInsDone == 0 && one+more == len(signIns) {
				signInsDone = since
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	wg.Wait()
	require.Equal(t, int64(purchases), completed.Load(), "purchases completed")
	lastPurchase := time.Unix(0, lastDone.Load()).Sub(killedAt)
	t.Logf("%d purchases completed in %s (%d attempts failed and were tried again), worker A killed after %d",
		completed.Load(), time.Unix(0, lastDone.Load()).Sub(began).Round(time.Millisecond), failed.Load(), killAfter)
	t.Logf("at the kill, in flight on worker A: %v", stuck)

	// Everything out: one download email per buyer, every event to every
	// endpoint; and every checkout that expired a second ago canceled.
	var allOut time.Duration
	var mailProblem, hookProblem, expiryProblem string
	var orders, events int
	for {
		mailProblem, hookProblem, orders, events = check(ctx, t, pool, l.ID, endpoints, rc, sink)
		var pending int
		require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM orders WHERE listing_id = $1 AND status = 'pending'
			AND checkout_expires_at < now() - interval '2 seconds'`, l.ID).Scan(&pending))
		expiryProblem = ""
		if pending > 0 {
			expiryProblem = fmt.Sprintf("%d expired checkouts still pending", pending)
		}
		if mailProblem == "" && hookProblem == "" && expiryProblem == "" {
			allOut = time.Since(killedAt)
			break
		}
		if time.Since(killedAt) > leaderDrainLimit {
			logJobs(ctx, t, pool)
			t.Fatalf("%s after the kill: %s%s%s", leaderDrainLimit, mailProblem, hookProblem, expiryProblem)
		}
		time.Sleep(250 * time.Millisecond)
	}
	close(stopAbandon)
	abandoning.Wait()

	// How late the sweep canceled expired checkouts: all of them, and those
	// that expired from 1 s before the kill to 10 s after it (the pause).
	var canceled int
	var lateAllS, lateKillS float64
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*),
			coalesce(extract(epoch FROM max(canceled_at - checkout_expires_at)), 0)::float8,
			coalesce(extract(epoch FROM max(canceled_at - checkout_expires_at) FILTER (
				WHERE checkout_expires_at BETWEEN $2::timestamptz - interval '1 second' AND $2::timestamptz + interval '10 seconds')), 0)::float8
		FROM orders WHERE listing_id = $1 AND status = 'canceled' AND checkout_expires_at IS NOT NULL`, l.ID, killedAt).
		Scan(&canceled, &lateAllS, &lateKillS))
	lateAll, lateKill := time.Duration(lateAllS*float64(time.Second)), time.Duration(lateKillS*float64(time.Second))

	// Duplicates: order.canceled events by order, jobs the rescuer ran
	// again, download emails handed to SMTP again (same Message-ID),
	// webhook posts by event id.
	var doubleCanceled int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM (SELECT order_id FROM events
		WHERE listing_id = $1 AND type = 'order.canceled' GROUP BY order_id HAVING count(*) > 1) d`, l.ID).Scan(&doubleCanceled))
	rescued := map[string]int{}
	var rows pgx.Rows
	_, resent := mailbox(t, sink, "Your download")
	// The sign-in jobs A was running wait for River's rescuer (30 s after
	// they started, at its next pass every 30 s on the new leader): how
	// long, at most signInLimit.
	signInOut, signInTwice := signInLinks()
	for signInsDone == 0 && time.Since(killedAt) < signInLimit {
		time.Sleep(250 * time.Millisecond)
		if signInOut, signInTwice = signInLinks(); signInOut+signInTwice == len(signIns) {
			signInsDone = time.Since(killedAt)
		}
	}
	rows, err = pool.Query(ctx, `SELECT kind, count(*) FROM river_job WHERE created_at > $1 AND attempt > 1
		AND errors::text LIKE '%Stuck job rescued%' GROUP BY kind`, dbStart)
	require.NoError(t, err)
	for rows.Next() {
		var k string
		var n int
		require.NoError(t, rows.Scan(&k, &n))
		rescued[k] = n
	}
	rows.Close()

	t.Logf("FIGURES (from the kill of River's leader): first checkout sweep completed by the survivor %s; new River leader %s (%s); "+
		"expired checkouts canceled at most %s late around the kill (%s over the run, %d canceled of %d abandoned); "+
		"emails of the orders paid before the kill all sent %s, webhooks of the events before it all delivered %s; "+
		"last purchase %s, then every download email sent %s, every webhook delivered %s, all checked (SMTP sink, receiver) %s; %d paid orders, %d events × %d endpoints; "+
		"duplicates: %d buyers with two download emails, %d emails handed to SMTP again under their Message-ID (%d in flight at the kill), "+
		"%d webhook posts repeated (%d in flight at the kill), %d orders canceled twice, jobs rescued and run again %v; "+
		"library sign-in requests around the kill %d: one link mailed for %d, two for %d, all mailed %s after the kill (0: not within %s)",
		swept.Round(time.Millisecond), elected.Round(time.Millisecond), newLeader, lateKill.Round(time.Millisecond),
		lateAll.Round(time.Millisecond), canceled, abandoned.Load(), backlogMail.Round(time.Millisecond),
		backlogHooks.Round(time.Millisecond), lastPurchase.Round(time.Millisecond), mailOut.Round(time.Millisecond), hooksOut.Round(time.Millisecond),
		allOut.Round(time.Millisecond), orders, events, len(endpoints), 0, resent, stuck["mail"],
		rc.duplicates(), stuck["webhook_delivery"], doubleCanceled, rescued, len(signIns), signInOut, signInTwice,
		signInsDone.Round(time.Millisecond), signInLimit)

	require.NotZero(t, swept, "no checkout sweep completed within 40 s of the kill")
	require.LessOrEqual(t, swept, leaderPeriodicLimit, "periodic work resumed after the kill")
	require.LessOrEqual(t, lateKill, leaderPeriodicLimit, "checkouts expiring at the kill canceled late")
	require.Positive(t, canceled)
	require.NotZero(t, backlogMail, "the download emails of the orders paid before the kill not all sent %s after it", leaderDrainLimit)
	require.NotZero(t, backlogHooks, "the webhooks of the events before the kill not all delivered %s after it", leaderDrainLimit)
	require.GreaterOrEqual(t, orders, purchases)
	require.Zero(t, doubleCanceled, "orders canceled twice")
	require.Zero(t, signInTwice, "buyers mailed two sign-in links for one request")
	require.NotZero(t, signInsDone, "sign-in requests without a link %s after the kill", signInLimit)
	// What the killed process was doing goes out within seconds: its
	// emails' claims and its jobs' heartbeat both last 10 s.
	require.LessOrEqual(t, backlogMail, leaderMailLimit, "the emails of the orders paid before the kill")
	require.LessOrEqual(t, signInsDone, leaderMailLimit, "the sign-in links asked for around the kill")
	// Only what was in flight at the kill went out again, under its own
	// Message-ID (check: one Message-ID per buyer) or event id.
	require.LessOrEqual(t, resent, stuck["mail"])
	require.LessOrEqual(t, rc.duplicates(), stuck["webhook_delivery"])
}

// waitLeader waits until River's leader was elected at or after since and
// is not notID, and returns its id.
func waitLeader(ctx context.Context, t *testing.T, pool *pgxpool.Pool, since time.Time, notID string, limit time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		var id string
		err := pool.QueryRow(ctx, "SELECT leader_id FROM river_leader WHERE elected_at >= $1 AND leader_id <> $2", since, notID).Scan(&id)
		if err == nil {
			return id
		}
		require.ErrorIs(t, err, pgx.ErrNoRows)
		require.True(t, time.Now().Before(deadline), "no River leader elected within %s", limit)
		time.Sleep(100 * time.Millisecond)
	}
}
