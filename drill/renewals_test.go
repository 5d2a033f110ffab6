package drill_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"commerce/mail"
	"commerce/testkit"
)

const (
	// memberships is how many memberships fall due at once.
	memberships = 200
	// killAtCharges is how many renewal charges the sweep has made when
	// the process is killed.
	killAtCharges = 60
	// renewalRecoveryLimit is the time from the restart by which every
	// membership must be renewed and every receipt out: the lease of a
	// step cut by the kill (20 s) and a sweep interval (5 s), with room.
	renewalRecoveryLimit = 60 * time.Second
)

// TestKillDuringRenewals is the renewal drill (CONTRACT §26: each renewal
// step exactly once across processes and restarts): 200 memberships fall
// due at once, `commerce serve` is killed with SIGKILL while its sweep is
// charging them, and restarted. Every membership must end renewed exactly
// once: one paid cycle-2 order each, one sandbox charge per attempt key
// (no double charge, none skipped), one membership.renewed each, and one
// receipt per buyer, sent and received by the SMTP server under one
// Message-ID.
func TestKillDuringRenewals(t *testing.T) {
	if os.Getenv("COMMERCE_DRILL") == "" {
		t.Skip("the kill -9 drill runs in `make drill` (COMMERCE_DRILL=1)")
	}
	ctx := context.Background()
	dir := t.TempDir()
	bin := testkit.BuildCommerce(t)
	addr := testkit.FreeAddr(t)
	d := &drill{t: t, bin: bin, dir: dir, base: "http://" + addr}
	sink := testkit.StartSMTP(t, testkit.SMTPOptions{DataDelay: 50 * time.Millisecond})
	d.env = serviceEnv(dir, d.base, "", sink, "LISTEN_ADDR="+addr)
	d.key = testkit.CLIAccount(t, bin, d.env, "renewals-"+testkit.Unique()+"@example.com")

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

	// An operational seller and a monthly membership listing.
	d.operational()
	l := d.publish("Renewals", map[string]any{"price": 900, "billing": "membership", "interval": "month",
		"deliverables": []any{map[string]any{"type": "text", "value": "The archive."}}})

	// 200 memberships bought through the product page and the sandbox
	// checkout, 8 buyers at a time.
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, memberships)
	for range 8 {
		wg.Go(func() {
			for next.Add(1) <= memberships {
				email := fmt.Sprintf("member-%d-%s@example.com", next.Load(), testkit.Unique())
				co, err := testkit.PostForm(d.base+"/p/"+l.Slug+"/checkout", d.base, url.Values{"email": {email}})
				if err == nil {
					_, err = testkit.PostForm(co.String(), d.base, url.Values{"outcome": {"paid"}})
				}
				if err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	var n int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM memberships WHERE listing_id = $1 AND status = 'active'`, l.ID).Scan(&n))
	require.Equal(t, memberships, n)

	// All due now: the period that began a month ago is over. The sweep
	// takes them at its next run; the process dies once it has charged
	// killAtCharges of them, and is started again at once.
	start := time.Now()
	_, err = pool.Exec(ctx, `UPDATE memberships SET billing_anchor = now() - interval '1 month', current_period_start = now() - interval '1 month',
		current_period_end = now() - interval '1 second', next_action_at = now() - interval '1 second' WHERE listing_id = $1`, l.ID)
	require.NoError(t, err)
	// Polled without pause (the database holds only this drill's charges),
	// so that the kill often lands between a charge and its outcome.
	charges := func() int {
		var c int
		require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM sandbox_charges`).Scan(&c))
		return c
	}
	for charges() < killAtCharges {
		require.Less(t, time.Since(start), 30*time.Second, "the sweep did not charge the due memberships")
	}
	_ = d.svc.Stop(syscall.SIGKILL, time.Second)
	killedAt := time.Now()
	var charged, renewed, leased, chargedNotApplied int
	require.NoError(t, pool.QueryRow(ctx, `SELECT
			(SELECT count(*) FROM sandbox_charges c JOIN memberships m ON m.id = c.membership_id WHERE m.listing_id = $1),
			count(*) FILTER (WHERE cycle = 2),
			count(*) FILTER (WHERE renewal_order_id IS NOT NULL),
			count(*) FILTER (WHERE renewal_order_id IS NOT NULL AND EXISTS (SELECT 1 FROM sandbox_charges c WHERE c.order_id = renewal_order_id))
		FROM memberships WHERE listing_id = $1`, l.ID).Scan(&charged, &renewed, &leased, &chargedNotApplied))
	d.start()
	restartedAt := time.Now()
	t.Logf("killed after %s of sweeping: %d charged, %d renewed, %d steps under way (%d charged, outcome not applied); restarted after %s",
		killedAt.Sub(start).Round(time.Millisecond), charged, renewed, leased, chargedNotApplied, restartedAt.Sub(killedAt).Round(time.Millisecond))
	require.Less(t, renewed, memberships, "killed during the sweep, not after it")

	// Within the limit of the restart: every membership renewed exactly
	// once and every receipt out, once.
	var problem string
	for {
		if problem = renewalProblem(ctx, t, pool, l.ID, sink); problem == "" {
			break
		}
		if time.Since(restartedAt) > renewalRecoveryLimit {
			logJobs(ctx, t, pool)
			t.Fatalf("%s after the restart: %s", renewalRecoveryLimit, problem)
		}
		time.Sleep(250 * time.Millisecond)
	}
	_, resent := mailbox(t, sink, "Receipt: ")
	t.Logf("recovered %s after the restart: %d memberships renewed once each, %d charges, %d receipts (one Message-ID each, %d handed to SMTP again)",
		time.Since(restartedAt).Round(time.Millisecond), memberships, memberships, memberships, resent)
}

// renewalProblem says what is still wrong with the renewals of the
// listing's memberships ("" when nothing).
func renewalProblem(ctx context.Context, t *testing.T, pool *pgxpool.Pool, listingID string, sink *testkit.SMTPServer) string {
	rows, err := pool.Query(ctx, `SELECT m.id, m.buyer_email, m.status, m.cycle, m.orders_count,
			(SELECT count(*) FROM orders o WHERE o.membership_id = m.id AND o.membership_cycle = 2),
			(SELECT count(*) FROM orders o WHERE o.membership_id = m.id AND o.membership_cycle = 2 AND o.status = 'fulfilled'),
			(SELECT count(*) FROM sandbox_charges c WHERE c.membership_id = m.id),
			(SELECT count(*) FROM sandbox_charges c WHERE c.membership_id = m.id AND c.idempotency_key LIKE '%\_1'),
			(SELECT count(*) FROM events e WHERE e.type = 'membership.renewed' AND e.data->>'id' = m.id),
			(SELECT count(*) FROM mail_messages x WHERE x.to_address = m.buyer_email AND x.template = $2),
			(SELECT count(*) FROM mail_messages x WHERE x.to_address = m.buyer_email AND x.template = $2 AND x.status = 'sent')
		FROM memberships m WHERE m.listing_id = $1 ORDER BY m.id`, listingID, mail.TemplateMembershipReceipt)
	require.NoError(t, err)
	defer rows.Close()
	got, _ := mailbox(t, sink, "Receipt: ")
	seen := 0
	for rows.Next() {
		var id, email, status string
		var cycle, count, orders, paid, charges, firstKey, events, stored, sent int
		require.NoError(t, rows.Scan(&id, &email, &status, &cycle, &count, &orders, &paid, &charges, &firstKey, &events, &stored, &sent))
		seen++
		switch {
		case status != "active" || cycle != 2 || count != 2:
			return fmt.Sprintf("membership %s: %s, cycle %d, %d paid orders; want active, cycle 2, 2", id, status, cycle, count)
		case orders != 1 || paid != 1:
			return fmt.Sprintf("membership %s: %d cycle-2 orders (%d fulfilled), want exactly 1", id, orders, paid)
		case charges != 1 || firstKey != 1:
			return fmt.Sprintf("membership %s: %d charges (%d of the first attempt), want exactly 1", id, charges, firstKey)
		case events != 1:
			return fmt.Sprintf("membership %s: %d membership.renewed events, want 1", id, events)
		case stored != 1 || sent != 1:
			return fmt.Sprintf("membership %s: %d receipts stored, %d sent, want 1", id, stored, sent)
		case len(got[strings.ToLower(email)]) != 1:
			return fmt.Sprintf("membership %s: %d receipts received by SMTP (Message-IDs %v), want 1", id, len(got[strings.ToLower(email)]),
				keysOf(got[strings.ToLower(email)]))
		}
	}
	require.NoError(t, rows.Err())
	if seen != memberships {
		return fmt.Sprintf("%d memberships, want %d", seen, memberships)
	}
	return ""
}
