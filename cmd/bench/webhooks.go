package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

const (
	// webhookBuyers is how many buyers pay concurrently (at most
	// -concurrency).
	webhookBuyers = 64
	// webhookOrders is the live phase's paid orders (× 2 endpoints).
	webhookOrders = 10_000
	// webhookBacklogOrders caps the held phase's orders, and
	// webhookHoldFor its time: the service's webhook client gives up on a
	// held request after 10 s.
	webhookBacklogOrders = 10_000
	webhookHoldFor       = 5 * time.Second
	// webhookFailOrders is the failure phase's paid orders.
	webhookFailOrders = 2_000
	// webhookFailRate is the share of attempts the receiver fails in the
	// failure phase.
	webhookFailRate = 0.20
	// webhookLiveRate and webhookMaxP99 are the live phase's targets:
	// deliveries per second, and the latency that shows no backlog.
	webhookLiveRate = 1000
	webhookMaxP99   = 100 * time.Millisecond
	// webhookWait bounds the wait for a phase's deliveries.
	webhookWait = 60 * time.Second
)

// The receiver's modes.
const (
	recvOK   int32 = iota // answer 200
	recvFail              // answer 500 to webhookFailRate of the attempts
	recvHold              // hold every request until release, then 200
)

// webhookPaths are the two endpoints' paths on the receiver.
var webhookPaths = []string{"/a", "/b"}

// hit is what the receiver saw of one event at one endpoint.
type hit struct {
	path, listing, order string
	first                time.Time // the first attempt's arrival (handler start)
	okAt                 time.Time // the first 2xx answer
	attempts, ok         int
}

// receiver is the loopback webhook receiver.
type receiver struct {
	srv     *http.Server
	url     string
	mode    atomic.Int32
	mu      sync.Mutex
	release chan struct{} // closed: held requests are answered
	once    sync.Once
	hits    map[string]*hit
}

func startReceiver() (*receiver, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	rc := &receiver{url: "http://" + ln.Addr().String(), release: make(chan struct{}), hits: map[string]*hit{}}
	rc.srv = &http.Server{Handler: rc, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = rc.srv.Serve(ln) }()
	return rc, nil
}

// ServeHTTP records the request's webhook-id and arrival, then answers as
// the mode says.
func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	now := time.Now()
	id := r.Header.Get("webhook-id")
	var ev struct {
		ListingID string `json:"listing_id"`
		OrderID   string `json:"order_id"`
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	_ = json.Unmarshal(body, &ev)
	status := http.StatusOK
	switch rc.mode.Load() {
	case recvFail:
		if rand.Float64() < webhookFailRate {
			status = http.StatusInternalServerError
		}
	case recvHold:
		select {
		case <-rc.release:
		case <-r.Context().Done():
			return
		}
	}
	answered := time.Now()
	rc.mu.Lock()
	key := r.URL.Path + " " + id
	h := rc.hits[key]
	if h == nil {
		h = &hit{path: r.URL.Path, listing: ev.ListingID, order: ev.OrderID, first: now}
		rc.hits[key] = h
	}
	h.attempts++
	if status < 300 {
		h.ok++
		if h.ok == 1 {
			h.okAt = answered
		}
	}
	rc.mu.Unlock()
	w.WriteHeader(status)
}

// open answers the held requests and holds no more.
func (rc *receiver) open() { rc.once.Do(func() { close(rc.release) }) }

// of returns copies of the hits of listing.
func (rc *receiver) of(listing string) []hit {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	var out []hit
	for _, h := range rc.hits {
		if h.listing == listing {
			out = append(out, *h)
		}
	}
	return out
}

// delivered counts the hits of listing answered 2xx.
func (rc *receiver) delivered(listing string) int {
	n := 0
	for _, h := range rc.of(listing) {
		if h.ok > 0 {
			n++
		}
	}
	return n
}

// waitDelivered waits until want hits of listing were answered 2xx.
func (rc *receiver) waitDelivered(ctx context.Context, listing string, want int) error {
	deadline := time.Now().Add(webhookWait)
	for {
		n := rc.delivered(listing)
		if n >= want {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d of %d deliveries received after %v", n, want, webhookWait)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// webhookRun is what the webhooks scenario shares with its check.
type webhookRun struct {
	rc        *receiver
	endpoints []string // ids, in the order of webhookPaths
}

// setupWebhooks makes the account operational, starts the receiver and
// creates the two endpoints (order.paid only).
func setupWebhooks(ctx context.Context, e *env) (opFactory, func(), error) {
	if err := ensureOperational(ctx, e.cfg); err != nil {
		return nil, nil, err
	}
	rc, err := startReceiver()
	if err != nil {
		return nil, nil, fmt.Errorf("receiver: %w", err)
	}
	run := &webhookRun{rc: rc}
	cleanup := func() {
		cctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		for _, id := range run.endpoints {
			_ = sendJSON(cctx, http.MethodDelete, e.cfg.endpoint("/v1/webhooks/"+id), e.cfg.key, nil, http.StatusOK, nil)
		}
		rc.open()
		_ = rc.srv.Shutdown(cctx)
	}
	for _, p := range webhookPaths {
		var ep struct {
			ID string `json:"id"`
		}
		err := sendJSON(ctx, http.MethodPost, e.cfg.endpoint("/v1/webhooks"), e.cfg.key, map[string]any{
			"url": rc.url + p, "events": []string{"order.paid"},
		}, http.StatusCreated, &ep)
		if err == nil && ep.ID == "" {
			err = errors.New("POST /v1/webhooks: no id")
		}
		if err != nil {
			cleanup()
			return nil, nil, fmt.Errorf("create the endpoint: %w (is ALLOW_PRIVATE_TARGETS=true?)", err)
		}
		run.endpoints = append(run.endpoints, ep.ID)
	}
	e.webhooks = run
	return nil, cleanup, nil
}

// externalListing creates and publishes a listing without deliverables:
// its paid orders stay paid (order.paid, nothing fulfilled).
func externalListing(ctx context.Context, cfg config, title string) (id, slug string, err error) {
	var l struct {
		ID   string `json:"id"`
		Slug string `json:"slug"`
	}
	if err := sendJSON(ctx, http.MethodPost, cfg.endpoint("/v1/listings"), cfg.key, map[string]any{
		"title": title, "price": purchasePrice,
	}, http.StatusCreated, &l); err != nil {
		return "", "", fmt.Errorf("create the listing: %w", err)
	}
	if err := sendJSON(ctx, http.MethodPost, cfg.endpoint("/v1/listings/"+l.ID+"/publish"), cfg.key, nil, http.StatusOK, nil); err != nil {
		return "", "", fmt.Errorf("publish the listing: %w", err)
	}
	return l.ID, l.Slug, nil
}

// buyResult is what buy did.
type buyResult struct {
	paid      map[string]time.Time // order id → when the payment's 303 came back
	errors    int
	errorKind map[string]int
	elapsed   time.Duration
}

// buy pays for n orders of the listing slug (or fewer, when until passes
// first) with buyers concurrent buyers, each a new buyer on its own
// connection, as purchase does.
func buy(ctx context.Context, cfg config, buyers int, slug, tag string, n int, until time.Time) buyResult {
	origin := strings.TrimRight(cfg.url, "/")
	checkoutURL := origin + "/p/" + slug + "/checkout"
	res := buyResult{paid: make(map[string]time.Time, n), errorKind: map[string]int{}}
	var mu sync.Mutex
	var next atomic.Int64
	start := time.Now()
	var wg sync.WaitGroup
	for range buyers {
		wg.Go(func() {
			tr := newTransport(1)
			defer tr.CloseIdleConnections()
			client := &http.Client{Transport: tr, Timeout: requestTimeout,
				CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			for ctx.Err() == nil {
				i := next.Add(1)
				if i > int64(n) || (!until.IsZero() && time.Now().After(until)) {
					return
				}
				order, at, err := buyOne(ctx, client, checkoutURL, origin, "hook-"+tag+"-"+strconv.FormatInt(i, 10)+"@example.com")
				mu.Lock()
				if err != nil {
					res.errors++
					if msg := err.Error(); len(res.errorKind) < maxErrorKinds || res.errorKind[msg] > 0 {
						res.errorKind[msg]++
					}
				} else {
					res.paid[order] = at
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	res.elapsed = time.Since(start)
	return res
}

// buyOne checks out as email and pays; it returns the order and when the
// payment's response came back (the payment is committed before it).
func buyOne(ctx context.Context, client *http.Client, checkoutURL, origin, email string) (string, time.Time, error) {
	checkout, err := postForm(ctx, client, checkoutURL, origin, url.Values{"email": {email}})
	if err != nil {
		return "", time.Time{}, fmt.Errorf("checkout: %w", err)
	}
	if !strings.HasPrefix(checkout.Path, "/sandbox/checkout/") {
		return "", time.Time{}, fmt.Errorf("checkout: redirected to %s, want the sandbox checkout", checkout)
	}
	thanks, err := postForm(ctx, client, checkout.String(), origin, url.Values{"outcome": {"paid"}})
	at := time.Now()
	if err != nil {
		return "", time.Time{}, fmt.Errorf("pay: %w", err)
	}
	order := thanks.Query().Get("order")
	if !strings.HasSuffix(thanks.Path, "/thank-you") || order == "" {
		return "", time.Time{}, fmt.Errorf("pay: redirected to %s, want the thank-you page", thanks)
	}
	return order, at, nil
}

// info is a verdict that only informs.
func info(name, format string, args ...any) verdict {
	return verdict{name: name, state: "INFO", detail: fmt.Sprintf(format, args...)}
}

// runWebhooks runs the live phase (latencies: payment response → the
// receiver's first byte, every delivery) and the held phase (throughput:
// the drain of a backlog of River jobs the service enqueued).
func runWebhooks(ctx context.Context, e *env, r *result) (loadStats, error) {
	run := e.webhooks
	rc := run.rc
	tag := strconv.FormatInt(time.Now().UnixNano(), 36)
	var stats loadStats
	stats.errorKind = map[string]int{}
	addErrors := func(b buyResult) {
		stats.errors += b.errors
		for k, v := range b.errorKind {
			stats.errorKind[k] += v
		}
	}

	// Live: every delivery's latency from its payment's response.
	liveID, liveSlug, err := externalListing(ctx, e.cfg, "Bench webhooks live "+tag)
	if err != nil {
		return stats, err
	}
	rc.mode.Store(recvOK)
	fmt.Fprintf(os.Stderr, "bench: webhooks: live phase, %d orders\n", webhookOrders)
	live := buy(ctx, e.cfg, r.workers, liveSlug, tag+"-live", webhookOrders, time.Time{})
	addErrors(live)
	if len(live.paid) == 0 {
		return stats, fmt.Errorf("no order paid (%d errors)", live.errors)
	}
	want := 2 * len(live.paid)
	if err := rc.waitDelivered(ctx, liveID, want); err != nil {
		return stats, fmt.Errorf("live phase: %w", err)
	}
	hits := rc.of(liveID)
	var firstAt, lastAt time.Time
	negative := 0
	for _, h := range hits {
		paidAt, ok := live.paid[h.order]
		if !ok || h.ok == 0 {
			continue
		}
		lat := h.first.Sub(paidAt)
		if lat < 0 {
			negative++ // arrived before the 303 was read: counted as 0
			lat = 0
		}
		stats.latencies = append(stats.latencies, lat)
		if firstAt.IsZero() || h.first.Before(firstAt) {
			firstAt = h.first
		}
		if h.first.After(lastAt) {
			lastAt = h.first
		}
	}
	// Backlog: the latencies of the last tenth of the payments against the
	// first tenth's (a growing backlog makes the last ones wait longest).
	var payTimes []time.Time
	for _, at := range live.paid {
		payTimes = append(payTimes, at)
	}
	slices.SortFunc(payTimes, func(a, b time.Time) int { return a.Compare(b) })
	var early, late []time.Duration
	if n := len(payTimes); n >= 10 {
		firstCut, lastCut := payTimes[n/10], payTimes[n-n/10-1]
		for _, h := range hits {
			paidAt, ok := live.paid[h.order]
			if !ok || h.ok == 0 {
				continue
			}
			lat := max(h.first.Sub(paidAt), 0)
			switch {
			case paidAt.Before(firstCut):
				early = append(early, lat)
			case paidAt.After(lastCut):
				late = append(late, lat)
			}
		}
	}
	slices.Sort(early)
	slices.Sort(late)
	slices.Sort(stats.latencies)
	liveRate := float64(len(stats.latencies)) / lastAt.Sub(firstAt).Seconds()
	orderRate := float64(len(live.paid)) / live.elapsed.Seconds()
	r.checks = append(r.checks,
		info("live phase", "%d orders paid in %v (%.0f orders/s, %d buyers), %d deliveries at %.0f deliveries/s (first to last delivery), %d before the payment's response",
			len(live.paid), live.elapsed.Round(time.Millisecond), orderRate, r.workers, len(stats.latencies), liveRate, negative),
		verdict{name: "live rate", state: passFail(liveRate >= webhookLiveRate),
			detail: fmt.Sprintf("%.0f deliveries/s, want >= %d (the purchases made %.0f orders/s × 2 endpoints)", liveRate, webhookLiveRate, orderRate)},
		verdict{name: "no growing backlog", state: passFail(len(late) > 0 && percentile(late, 0.99) <= webhookMaxP99),
			detail: fmt.Sprintf("the last tenth of the payments: p50 %s ms, p99 %s ms (the first tenth: p50 %s ms, p99 %s ms), want p99 <= %s ms",
				ms(percentile(late, 0.5)), ms(percentile(late, 0.99)), ms(percentile(early, 0.5)), ms(percentile(early, 0.99)), ms(webhookMaxP99))})

	// Held: the receiver holds every request, so that the service's jobs
	// pile up in River, then answers them all: the drain rate.
	heldID, heldSlug, err := externalListing(ctx, e.cfg, "Bench webhooks backlog "+tag)
	if err != nil {
		return stats, err
	}
	rc.mode.Store(recvHold)
	fmt.Fprintf(os.Stderr, "bench: webhooks: backlog phase, %v of orders with the receiver holding\n", webhookHoldFor)
	held := buy(ctx, e.cfg, r.workers, heldSlug, tag+"-held", webhookBacklogOrders, time.Now().Add(webhookHoldFor))
	addErrors(held)
	held0 := rc.delivered(heldID) // 0: nothing answered yet
	released := time.Now()
	rc.mode.Store(recvOK)
	rc.open()
	wantHeld := 2 * len(held.paid)
	if err := rc.waitDelivered(ctx, heldID, wantHeld); err != nil {
		return stats, fmt.Errorf("backlog phase: %w", err)
	}
	var drainEnd time.Time
	retried := 0
	for _, h := range rc.of(heldID) {
		if h.okAt.After(drainEnd) {
			drainEnd = h.okAt
		}
		if h.attempts > 1 {
			retried++
		}
	}
	drain := drainEnd.Sub(released)
	r.checks = append(r.checks,
		info("backlog phase", "%d orders paid in %v with the receiver holding (%d answered meanwhile), %d deliveries drained in %v after release (%d needed more than 1 attempt)",
			len(held.paid), held.elapsed.Round(time.Millisecond), held0, wantHeld, drain.Round(time.Millisecond), retried))
	// The row's rate is the drain's; its latencies are the live phase's.
	stats.elapsed, stats.rate = drain, float64(wantHeld)/drain.Seconds()
	return stats, nil
}

// checkWebhooks runs the failure phase (the receiver fails 20 % of the
// attempts at random) and reconciles what the receiver saw with the
// delivery records.
func checkWebhooks(ctx context.Context, e *env, r *result) verdict {
	v := verdict{name: "reconciliation (20% failing)"}
	run := e.webhooks
	if run == nil {
		v.state, v.detail = "SKIP", "no webhooks run"
		return v
	}
	rc := run.rc
	tag := strconv.FormatInt(time.Now().UnixNano(), 36)
	listingID, slug, err := externalListing(ctx, e.cfg, "Bench webhooks failing "+tag)
	if err != nil {
		v.state, v.detail = "FAIL", err.Error()
		return v
	}
	rc.mode.Store(recvFail)
	defer rc.mode.Store(recvOK)
	fmt.Fprintf(os.Stderr, "bench: webhooks: failure phase, %d orders, receiver failing %.0f%%\n", webhookFailOrders, 100*webhookFailRate)
	b := buy(ctx, e.cfg, r.workers, slug, tag+"-fail", webhookFailOrders, time.Time{})

	conn, err := pgx.Connect(ctx, e.cfg.databaseURL)
	if err != nil {
		v.state, v.detail = "FAIL", "connect: "+err.Error()
		return v
	}
	defer conn.Close(ctx)
	// Wait until every record of the batch is final, or the timeout.
	deadline := time.Now().Add(webhookWait)
	var pending int64
	for {
		err = conn.QueryRow(ctx, `SELECT count(*) FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
			WHERE e.listing_id = $1 AND e.type = 'order.paid' AND d.status = 'pending'`, listingID).Scan(&pending)
		if err != nil || pending == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		v.state, v.detail = "FAIL", "query: "+err.Error()
		return v
	}
	time.Sleep(100 * time.Millisecond) // the last answers' bookkeeping

	var events int64
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM events WHERE listing_id = $1 AND type = 'order.paid'`,
		listingID).Scan(&events); err != nil {
		v.state, v.detail = "FAIL", "query: "+err.Error()
		return v
	}
	rows, err := conn.Query(ctx, `SELECT d.endpoint_id, d.event_id, d.status FROM webhook_deliveries d
		JOIN events e ON e.id = d.event_id WHERE e.listing_id = $1 AND e.type = 'order.paid'`, listingID)
	if err != nil {
		v.state, v.detail = "FAIL", "query: "+err.Error()
		return v
	}
	byStatus := map[string]int{}
	delivered := map[string]bool{} // path + " " + event id
	for rows.Next() {
		var ep, ev, status string
		if err := rows.Scan(&ep, &ev, &status); err != nil {
			v.state, v.detail = "FAIL", "scan: "+err.Error()
			return v
		}
		byStatus[status]++
		if status == "delivered" {
			if i := slices.Index(run.endpoints, ep); i >= 0 {
				delivered[webhookPaths[i]+" "+ev] = true
			}
		}
	}
	if err := rows.Err(); err != nil {
		v.state, v.detail = "FAIL", "query: "+err.Error()
		return v
	}

	// Per endpoint: distinct webhook-ids answered 2xx against delivered
	// records.
	received := map[string]int{}
	dup, extra, attempts := 0, 0, 0
	for _, h := range rc.of(listingID) {
		attempts += h.attempts
		if h.ok == 0 {
			continue
		}
		received[h.path]++
		if h.ok > 1 {
			dup++
		}
	}
	rc.mu.Lock()
	for key, h := range rc.hits {
		if h.listing == listingID && h.ok > 0 && !delivered[key] {
			extra++
		}
	}
	missing := 0
	for key := range delivered {
		if h := rc.hits[key]; h == nil || h.ok == 0 {
			missing++
		}
	}
	rc.mu.Unlock()

	published := int(events) * len(run.endpoints)
	final := byStatus["delivered"] + byStatus["failed"] + byStatus["pending"]
	var per []string
	ok := true
	for i, p := range webhookPaths {
		n := 0
		for key := range delivered {
			if strings.HasPrefix(key, p+" ") {
				n++
			}
		}
		per = append(per, fmt.Sprintf("%s: %d ids with 2xx / %d delivered", run.endpoints[i], received[p], n))
		ok = ok && received[p] == n
	}
	v.detail = fmt.Sprintf("%d orders paid (%d errors), %d events; published %d = delivered %d + failed %d + pending %d (%d canceled); %s; %d attempts received, missing %d, unrecorded 2xx %d, duplicate 2xx %d",
		len(b.paid), b.errors, events, published, byStatus["delivered"], byStatus["failed"], byStatus["pending"],
		byStatus["canceled"], strings.Join(per, ", "), attempts, missing, extra, dup)
	v.state = passFail(ok && int(events) == len(b.paid) && published == final && byStatus["pending"] == 0 &&
		missing == 0 && extra == 0 && dup == 0 && b.errors == 0)
	return v
}
