// Package drill_test is the crash-recovery drill (`make drill`): a
// `commerce serve` process killed with SIGKILL in the middle of 200
// purchases, restarted, and checked within 20 s of the restart: every
// webhook event delivered to every subscriber, and every buyer's download
// email accepted by a real SMTP server (an in-process sink on 127.0.0.1),
// exactly once per buyer: one Message-ID per buyer, however many times a
// message in flight at the kill was handed to the server again. It takes
// about half a minute, so `make test` skips it (it runs when
// COMMERCE_DRILL=1).
package drill_test

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	netmail "net/mail"
	"net/url"
	"os"
	"path/filepath"
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

func TestMain(m *testing.M) { testkit.Main(m) }

const (
	purchases = 200
	killAfter = 100 // completed purchases before the kill
	// recoveryLimit is the time from the restart by which everything must
	// have gone out.
	recoveryLimit = 20 * time.Second
	// receiverDelay keeps deliveries (webhook posts and SMTP sessions) in
	// flight when the process dies.
	receiverDelay = 300 * time.Millisecond
)

type drill struct {
	t    *testing.T
	bin  string
	env  []string
	base string
	dir  string
	key  string
	// svc is the `commerce serve` process started last.
	svc *testkit.Process
}

func (d *drill) start() {
	d.svc = testkit.StartProcess(d.t, d.bin, d.env, filepath.Join(d.dir, "service.log"), d.base, 30*time.Second, "serve")
}

func (d *drill) dumpLog() {
	if d.svc != nil {
		d.t.Logf("service log (end):\n%s", d.svc.LogTail(8000))
	}
}

// api calls the REST API with the drill's key.
func (d *drill) api(method, path string, body any, want int, out any) {
	testkit.CallAPI(d.t, http.DefaultClient, d.base, d.key, method, path, body, want, out)
}

// receiver records the event ids each endpoint (path) received.
type receiver struct {
	mu  sync.Mutex
	got map[string]map[string]int // path → event id → times
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	id := r.Header.Get("webhook-id")
	time.Sleep(receiverDelay)
	rc.mu.Lock()
	if rc.got[r.URL.Path] == nil {
		rc.got[r.URL.Path] = map[string]int{}
	}
	rc.got[r.URL.Path][id]++
	rc.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

func (rc *receiver) times(path, id string) int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.got[path][id]
}

func (rc *receiver) duplicates() int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	n := 0
	for _, ids := range rc.got {
		for _, c := range ids {
			n += c - 1
		}
	}
	return n
}

func TestKillDuringPurchases(t *testing.T) {
	if os.Getenv("COMMERCE_DRILL") == "" {
		t.Skip("the kill -9 drill runs in `make drill` (COMMERCE_DRILL=1)")
	}
	ctx := context.Background()
	dir := t.TempDir()
	bin := testkit.BuildCommerce(t)

	addr := testkit.FreeAddr(t)
	d := &drill{t: t, bin: bin, dir: dir, base: "http://" + addr}
	rc := &receiver{got: map[string]map[string]int{}}
	sink := testkit.StartSMTP(t, testkit.SMTPOptions{DataDelay: receiverDelay})
	d.env = serviceEnv(dir, d.base, "", sink, "LISTEN_ADDR="+addr)

	d.key = testkit.CLIAccount(t, bin, d.env, "drill-"+testkit.Unique()+"@example.com")

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

	// An operational seller (sandbox, USD), two subscribers, a managed
	// listing with a text deliverable (a download email per buyer).
	d.operational()
	endpoints := d.subscribers(rc, "drill")
	l := d.publish("Drill", nil)

	// 200 purchases by 8 buyers at a time; the 100th completed one kills
	// the process, which is restarted at once. A purchase cut by the kill
	// is tried again as a new buyer.
	var (
		completed, failed atomic.Int64
		reserved          atomic.Int64 // purchases started or done: exactly 200 complete
		next              atomic.Int64
		killOnce          sync.Once
		restarted         = make(chan time.Time, 1)
		stuck             map[string]int
	)
	kill := func() {
		exited, err := d.svc.Exited()
		require.False(t, exited, "the service exited before the kill: %v", err)
		_ = d.svc.Stop(syscall.SIGKILL, time.Second)
		stuck = inFlight(ctx, t, pool, "")
		d.start()
		restarted <- time.Now()
	}
	var killedAt atomic.Int64
	origin := d.base
	buy := func() error {
		email := fmt.Sprintf("buyer-%d-%s@example.com", next.Add(1), testkit.Unique())
		co, err := testkit.PostForm(d.base+"/p/"+l.Slug+"/checkout", origin, url.Values{"email": {email}})
		if err != nil {
			return err
		}
		thanks, err := testkit.PostForm(co.String(), origin, url.Values{"outcome": {"paid"}})
		if err != nil {
			return err
		}
		if !strings.HasSuffix(thanks.Path, "/thank-you") {
			return fmt.Errorf("paid: redirected to %s", thanks)
		}
		return nil
	}
	start := time.Now()
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for reserved.Add(1) <= purchases && time.Since(start) < 3*time.Minute {
				if err := buy(); err != nil {
					reserved.Add(-1)
					failed.Add(1)
					time.Sleep(100 * time.Millisecond)
					continue
				}
				if completed.Add(1) == killAfter {
					killOnce.Do(func() { killedAt.Store(time.Now().UnixNano()); kill() })
				}
			}
		}()
	}
	wg.Wait()
	require.Equal(t, int64(purchases), completed.Load(), "purchases completed")
	restartedAt := <-restarted
	t.Logf("%d purchases completed (%d attempts cut by the kill) in %s; killed after %d; down for %s",
		completed.Load(), failed.Load(), time.Since(start).Round(time.Millisecond), killAfter,
		restartedAt.Sub(time.Unix(0, killedAt.Load())).Round(time.Millisecond))
	t.Logf("jobs left running by the killed process: %v", stuck)

	// Within 20 s of the restart: every event of every paid order delivered
	// to both endpoints (record delivered, received at least once), and one
	// download email per buyer, recorded as sent and received by the SMTP
	// server under one Message-ID.
	var mailProblem, hookProblem string
	var orders, events int
	var mailOut time.Duration // when every download email had gone out
	for {
		mailProblem, hookProblem, orders, events = check(ctx, t, pool, l.ID, endpoints, rc, sink)
		if mailProblem == "" && mailOut == 0 {
			mailOut = time.Since(restartedAt)
		}
		if mailProblem == "" && hookProblem == "" {
			break
		}
		if time.Since(restartedAt) > recoveryLimit {
			logJobs(ctx, t, pool)
			t.Fatalf("%s after the restart: %s", recoveryLimit, cmp.Or(mailProblem, hookProblem))
		}
		time.Sleep(250 * time.Millisecond)
	}
	recovered := time.Since(restartedAt)
	_, resent := mailbox(t, sink, "Your download")
	t.Logf("recovered %s after the restart (download emails all out after %s): %d paid orders, %d events × %d endpoints delivered, %d download emails (one Message-ID each); %d duplicate webhook posts (at least once), %d messages handed to SMTP again under their Message-ID",
		recovered.Round(time.Millisecond), mailOut.Round(time.Millisecond), orders, events, len(endpoints), orders, rc.duplicates(), resent)
	require.GreaterOrEqual(t, orders, purchases)
	// Only what was in flight at the kill went out twice: a record marked
	// delivered (a message marked sent) is not posted (sent) again.
	require.LessOrEqual(t, rc.duplicates(), stuck["webhook_delivery"])
	require.LessOrEqual(t, resent, stuck["mail"])
}

// check returns what is still missing of the mail and of the webhooks (""
// when nothing), the number of paid orders and of their events.
func check(ctx context.Context, t *testing.T, pool *pgxpool.Pool, listingID string, endpoints map[string]string, rc *receiver, sink *testkit.SMTPServer) (string, string, int, int) {
	// Mail: one download email per buyer of a paid order, gone out, and
	// received by the SMTP server under exactly one Message-ID.
	received, _ := mailbox(t, sink, "Your download")
	rows, err := pool.Query(ctx, `SELECT o.id, o.buyer_email,
			count(m.id) FILTER (WHERE m.status IN ('sent', 'logged') AND m.sent_at IS NOT NULL), count(m.id)
		FROM orders o LEFT JOIN mail_messages m ON m.to_address = o.buyer_email AND m.template = $2
		WHERE o.listing_id = $1 AND o.paid_at IS NOT NULL GROUP BY o.id, o.buyer_email`, listingID, mail.TemplateDownloadLink)
	require.NoError(t, err)
	orders := 0
	var problem string
	for rows.Next() {
		var id, email string
		var sent, all int
		require.NoError(t, rows.Scan(&id, &email, &sent, &all))
		orders++
		if problem == "" && (sent != 1 || all != 1) {
			problem = fmt.Sprintf("order %s: %d download emails stored, %d gone out, want 1", id, all, sent)
		}
		if ids := received[strings.ToLower(email)]; problem == "" && len(ids) != 1 {
			problem = fmt.Sprintf("order %s: %d download emails received by SMTP (Message-IDs %v), want 1", id, len(ids), keysOf(ids))
		}
	}
	require.NoError(t, rows.Err())
	rows.Close()
	mailProblem, problem := problem, ""

	// Webhooks: every event of the listing's orders, to every endpoint.
	type rec struct{ event, typ, endpoint, status string }
	var recs []rec
	rows, err = pool.Query(ctx, `SELECT v.id, v.type, e.id, coalesce(d.status, 'missing')
		FROM events v CROSS JOIN unnest($2::text[]) AS e(id)
		LEFT JOIN webhook_deliveries d ON d.event_id = v.id AND d.endpoint_id = e.id
		WHERE v.listing_id = $1`, listingID, keysOf(endpoints))
	require.NoError(t, err)
	paid := 0
	for rows.Next() {
		var r rec
		require.NoError(t, rows.Scan(&r.event, &r.typ, &r.endpoint, &r.status))
		recs = append(recs, r)
		if r.typ == "order.paid" {
			paid++
		}
	}
	require.NoError(t, rows.Err())
	rows.Close()
	for _, r := range recs {
		if problem != "" {
			break
		}
		switch {
		case r.status != "delivered":
			problem = fmt.Sprintf("event %s (%s) to %s: record %s", r.event, r.typ, r.endpoint, r.status)
		case rc.times(endpoints[r.endpoint], r.event) == 0:
			problem = fmt.Sprintf("event %s (%s) to %s: delivered but never received", r.event, r.typ, r.endpoint)
		}
	}
	if problem == "" && paid/len(endpoints) != orders {
		problem = fmt.Sprintf("%d order.paid events for %d paid orders", paid/len(endpoints), orders)
	}
	return mailProblem, problem, orders, len(recs) / len(endpoints)
}

// mailbox returns, by recipient (lowercased), the Message-IDs of the
// emails whose subject starts with subjectPrefix that the SMTP server accepted and how often each, and how many
// acceptances repeated a Message-ID already accepted.
func mailbox(t *testing.T, sink *testkit.SMTPServer, subjectPrefix string) (map[string]map[string]int, int) {
	out := map[string]map[string]int{}
	repeats := 0
	for _, m := range sink.Messages() {
		msg, err := netmail.ReadMessage(bytes.NewReader(m.Data))
		require.NoError(t, err)
		subject, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
		require.NoError(t, err)
		if !strings.HasPrefix(subject, subjectPrefix) {
			continue
		}
		id := msg.Header.Get("Message-Id")
		require.NotEmpty(t, id)
		for _, to := range m.To {
			to = strings.ToLower(to)
			if out[to] == nil {
				out[to] = map[string]int{}
			}
			if out[to][id]++; out[to][id] > 1 {
				repeats++
			}
		}
	}
	return out, repeats
}

func keysOf[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func logJobs(ctx context.Context, t *testing.T, pool *pgxpool.Pool) {
	rows, err := pool.Query(ctx, "SELECT kind, state::text, count(*) FROM river_job GROUP BY 1, 2 ORDER BY 1, 2")
	if err != nil {
		t.Log(err)
		return
	}
	defer rows.Close()
	for rows.Next() {
		var k, s string
		var n int
		if err := rows.Scan(&k, &s, &n); err == nil {
			t.Logf("river_job %s %s: %d", k, s, n)
		}
	}
}
