package resolvers

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"commerce/db"
	"commerce/dispatch"
	"commerce/telemetry"
	"commerce/webhooks"
)

// Webhook delivery at rate (issue 15). The delivery records are the queue:
// a dispatcher in every working process claims due records in batches
// (one statement for many records), posts each on a goroutine through one
// keep-alive connection pool, and writes the outcomes in batches (one
// statement for many outcomes, the endpoints' failure counts included).
// It wakes on NOTIFY webhook_deliveries, sent by the transaction that
// writes the records when it commits, on the earliest retry it scheduled,
// and every PollInterval for what other processes left (expired claims).
// A per-endpoint cap on attempts under way keeps one slow receiver from
// taking every slot: its records wait in the table, not in a worker.

// Dispatcher defaults.
const (
	// DispatchMaxInFlight bounds the attempts under way in one process.
	DispatchMaxInFlight = 1024
	// DispatchPerEndpoint bounds one endpoint's attempts under way in one
	// process (and so its connections).
	DispatchPerEndpoint = 64
	// DispatchBatch is the most records one claim takes.
	DispatchBatch = 256
	// DispatchPollInterval is how often the dispatcher looks for due
	// records without being woken.
	DispatchPollInterval = time.Second
	// webhookClaim is how long a claim lasts: the 10 s request and the
	// bookkeeping. A record claimed by a process that died is taken up
	// again once its claim has expired.
	webhookClaim = WebhookJobTimeout
	// notifyChannel is the channel of the wake-ups.
	notifyChannel = "webhook_deliveries"
)

// WebhookDispatcher delivers due webhook records: a dispatch.Loop whose
// claims respect a per-endpoint cap and whose claims and writes go through
// connections of its own.
type WebhookDispatcher struct {
	R *Resolver
	// MaxInFlight, PerEndpoint, Batch and PollInterval default to the
	// Dispatch constants.
	MaxInFlight, PerEndpoint, Batch int
	PollInterval                    time.Duration

	loop *dispatch.Loop[claimedDelivery, deliveryOutcome]

	mu       sync.Mutex
	inflight map[string]int  // endpoint → attempts under way
	blocked  map[string]bool // endpoints that had more due than room at the last claim

	// claimConn and writeConn are the claim loop's and the writer's own
	// connections, outside the pool: purchases queueing for the pool (on
	// the seller's stats row) must not hold up the deliveries.
	claimConn, writeConn dedicatedConn
}

// claimedDelivery is a record claimed for one attempt, with its endpoint
// and event.
type claimedDelivery struct {
	d  db.WebhookDelivery
	ep db.WebhookEndpoint
	ev db.Event
	// agentConn is the endpoint's agent connection (an ACP agent
	// platform's endpoint, CONTRACT §25: ACP's body, Merchant-Signature);
	// nil for a seller's endpoint.
	agentConn *string
}

// deliveryOutcome is an attempt's result, to be written.
type deliveryOutcome struct {
	d      *db.WebhookDelivery
	status string // delivered, pending (a retry scheduled), failed
	code   *int32
	errTxt *string
	next   *time.Time
}

// querier is a pool or a connection.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// dedicatedConn is a connection taken from the pool for good (one user at
// a time), taken again after it broke.
type dedicatedConn struct {
	db *db.DB
	c  *pgx.Conn
}

func (d *dedicatedConn) get(ctx context.Context) (*pgx.Conn, error) {
	if d.c != nil && !d.c.IsClosed() {
		return d.c, nil
	}
	pc, err := d.db.Pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	d.c = pc.Hijack()
	return d.c, nil
}

func (d *dedicatedConn) close() {
	if d.c != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = d.c.Close(ctx)
		d.c = nil
	}
}

// Start runs the dispatcher until Stop.
func (w *WebhookDispatcher) Start(ctx context.Context) {
	if w.MaxInFlight <= 0 {
		w.MaxInFlight = DispatchMaxInFlight
	}
	if w.PerEndpoint <= 0 {
		w.PerEndpoint = DispatchPerEndpoint
	}
	if w.Batch <= 0 {
		w.Batch = DispatchBatch
	}
	if w.PollInterval <= 0 {
		w.PollInterval = DispatchPollInterval
	}
	w.inflight = map[string]int{}
	w.blocked = map[string]bool{}
	w.claimConn.db, w.writeConn.db = w.R.DB, w.R.DB
	w.loop = &dispatch.Loop[claimedDelivery, deliveryOutcome]{
		MaxInFlight:  w.MaxInFlight,
		Batch:        w.Batch,
		PollInterval: w.PollInterval,
		WriteTimeout: 10 * time.Second,
		Log:          w.R.Log,
		ClaimFailed:  "claim webhook deliveries",
		RecordFailed: "record webhook attempts", // the claims expire: the records are posted again
		Listen:       w.listen,
		Claim:        w.claim,
		Send:         w.send,
		Freed:        w.freed,
		Record:       w.record,
		NextAttempt:  func(o deliveryOutcome) *time.Time { return o.next },
	}
	w.loop.Start(ctx)
}

// Stop stops claiming, lets the attempts under way finish until ctx ends,
// then cancels them (their claims are released: another run posts them)
// and writes the outcomes.
func (w *WebhookDispatcher) Stop(ctx context.Context) {
	if w.loop == nil {
		return
	}
	w.loop.Stop(ctx)
	w.claimConn.close()
	w.writeConn.close()
}

// StopAndCancel stops at once, canceling the attempts under way.
func (w *WebhookDispatcher) StopAndCancel(ctx context.Context) {
	if w.loop != nil {
		w.loop.Cancel()
	}
	w.Stop(ctx)
}

// listen turns notifications on the channel into claims until ctx ends,
// on the process's listening connection (db.DB.Listen, which reconnects).
func (w *WebhookDispatcher) listen(ctx context.Context, want func()) {
	db.Listen(ctx, w.R.DB, notifyChannel, want, w.R.Log)
}

// claim claims up to limit due records, each endpoint no more than its
// room, and counts them as under way for their endpoints.
func (w *WebhookDispatcher) claim(ctx context.Context, limit int) ([]claimedDelivery, error) {
	w.mu.Lock()
	ids := make([]string, 0, len(w.inflight))
	rooms := make([]int32, 0, len(w.inflight))
	for id, n := range w.inflight {
		ids = append(ids, id)
		rooms = append(rooms, int32(w.PerEndpoint-n))
	}
	w.mu.Unlock()
	conn, err := w.claimConn.get(ctx)
	if err != nil {
		return nil, err
	}
	claimed, err := w.R.claimDeliveries(ctx, conn, limit, ids, rooms, w.PerEndpoint, nil)
	if err != nil {
		return nil, err
	}
	got := map[string]int{}
	for _, c := range claimed {
		got[c.d.EndpointID]++
	}
	w.mu.Lock()
	for id, n := range got {
		w.inflight[id] += n
		// It filled its room: more may be due.
		w.blocked[id] = w.inflight[id] >= w.PerEndpoint
	}
	for i, id := range ids {
		if rooms[i] > 0 && got[id] == 0 {
			delete(w.blocked, id)
		}
	}
	w.mu.Unlock()
	return claimed, nil
}

// send makes one attempt and returns its outcome, for the writer; an
// attempt canceled (the process stopping) releases its claim instead.
func (w *WebhookDispatcher) send(ctx context.Context, c *claimedDelivery) (deliveryOutcome, bool) {
	r := w.R
	secret, err := r.Secrets.Open(c.ep.SecretCiphertext)
	if err != nil {
		r.Log.ErrorContext(ctx, "open endpoint secret", "endpoint_id", c.ep.ID, "error", err)
		r.releaseDeliveryClaim(ctx, &c.d, *c.d.ClaimedUntil)
		return deliveryOutcome{}, false
	}
	at := r.deliverWebhook(ctx, c, secret)
	if ctx.Err() != nil && !at.Success() {
		r.releaseDeliveryClaim(ctx, &c.d, *c.d.ClaimedUntil)
		return deliveryOutcome{}, false
	}
	return r.attemptOutcome(&c.d, at), true
}

// deliverWebhook posts one claimed record: an attempt, with its span when
// tracing is on (a client span, linked to the span that recorded the
// event; the POST's own span from the traced client below it).
func (r *Resolver) deliverWebhook(ctx context.Context, c *claimedDelivery, secret string) webhooks.Attempt {
	if c.agentConn != nil {
		return r.deliverAgentWebhook(ctx, c, secret)
	}
	if !r.Tracing.On() {
		return webhooks.Deliver(ctx, r.WebhookHTTP, c.ep.URL, secret, c.ev.ID, eventBody(&c.ev), r.Now())
	}
	ctx, sp, end := r.span(ctx, "webhook.deliver "+c.ev.Type, trace.WithSpanKind(trace.SpanKindClient),
		telemetry.LinkTo(c.ev.Traceparent), trace.WithAttributes(
			attribute.String("webhook.event_type", c.ev.Type), attribute.String("webhook.event_id", c.ev.ID),
			attribute.String("webhook.endpoint_id", c.ep.ID), attribute.Int("webhook.attempt", c.d.Attempts+1)))
	at := webhooks.Deliver(ctx, r.WebhookHTTP, c.ep.URL, secret, c.ev.ID, eventBody(&c.ev), r.Now())
	err := at.Err
	if at.StatusCode != 0 {
		sp.SetAttributes(attribute.Int("http.response.status_code", at.StatusCode))
		if !at.Success() {
			err = fmt.Errorf("the endpoint answered %d", at.StatusCode)
		}
	}
	end(err)
	return at
}

// freed frees an attempt's slot on its endpoint and asks for a claim when
// room came back where more was due (or the loop asks for one already).
func (w *WebhookDispatcher) freed(c *claimedDelivery, claiming bool) bool {
	endpointID := c.d.EndpointID
	w.mu.Lock()
	defer w.mu.Unlock()
	n := w.inflight[endpointID] - 1
	if n <= 0 {
		delete(w.inflight, endpointID)
	} else {
		w.inflight[endpointID] = n
	}
	// Claim again once a quarter of the room is back, not per attempt.
	again := (w.blocked[endpointID] && n <= w.PerEndpoint*3/4) || claiming
	if again {
		w.blocked[endpointID] = false
	}
	return again
}

// record writes a batch of outcomes on the writer's connection.
func (w *WebhookDispatcher) record(ctx context.Context, batch []deliveryOutcome) error {
	conn, err := w.writeConn.get(ctx)
	if err != nil {
		return err
	}
	return w.R.recordOutcomes(ctx, conn, batch)
}

// DeliverDue claims the records due by asOf (at most limit), posts them
// and records the outcomes before it returns; it is one round of the
// dispatcher, for tests and tools: 2 statements whatever the number of
// records (the claim and the outcomes).
func (r *Resolver) DeliverDue(ctx context.Context, asOf time.Time, limit int) (int, error) {
	claimed, err := r.claimDeliveries(ctx, r.DB.Pool, limit, nil, nil, DispatchPerEndpoint, &asOf)
	if err != nil || len(claimed) == 0 {
		return 0, err
	}
	out := make([]deliveryOutcome, len(claimed))
	var wg sync.WaitGroup
	for i := range claimed {
		c := &claimed[i]
		wg.Go(func() {
			secret, err := r.Secrets.Open(c.ep.SecretCiphertext)
			if err != nil {
				out[i] = r.attemptOutcome(&c.d, webhooks.Attempt{Err: err})
				return
			}
			out[i] = r.attemptOutcome(&c.d, r.deliverWebhook(ctx, c, secret))
		})
	}
	wg.Wait()
	return len(claimed), r.recordOutcomes(ctx, r.DB.Pool, out)
}

// claimDeliveryBatchQuery: $1 the most records, $2/$3 endpoints and the
// room each has left (others have $4), $5 due by (NULL: now), $6 the
// claim's length in seconds. The candidates are the 4 × $1 records due
// first among the endpoints with room, of which each endpoint gets at most
// its room. Candidates are not locked (locking 4 × $1 rows on the table's
// hot last pages slowed the purchases' inserts and the claim itself): the
// UPDATE checks the claim again on the row it writes, so of two processes
// claiming the same record, the second finds it claimed and leaves it.
const claimDeliveryBatchQuery = `
WITH room AS (SELECT * FROM unnest($2::text[], $3::int[]) AS r(endpoint_id, room)),
cand AS (
  SELECT d.endpoint_id, d.event_id, d.next_attempt_at, d.seq
  FROM webhook_deliveries d
  JOIN webhook_endpoints e ON e.id = d.endpoint_id
  WHERE d.status = 'pending' AND d.next_attempt_at <= coalesce($5::timestamptz, now())
    AND (d.claimed_until IS NULL OR d.claimed_until <= now())
    AND e.deleted_at IS NULL AND (e.status = 'enabled' OR d.manual)
    AND NOT EXISTS (SELECT 1 FROM room WHERE room.endpoint_id = d.endpoint_id AND room.room <= 0)
  ORDER BY d.next_attempt_at
  LIMIT 4 * $1),
pick AS (
  SELECT c.endpoint_id, c.event_id FROM (
    SELECT cand.*, row_number() OVER (PARTITION BY cand.endpoint_id ORDER BY cand.next_attempt_at, cand.seq) AS n FROM cand) c
  LEFT JOIN room r ON r.endpoint_id = c.endpoint_id
  WHERE c.n <= coalesce(r.room, $4)
  ORDER BY c.next_attempt_at, c.seq
  LIMIT $1),
d AS (
  UPDATE webhook_deliveries w SET claimed_until = now() + make_interval(secs => $6)
  FROM pick WHERE w.endpoint_id = pick.endpoint_id AND w.event_id = pick.event_id
    AND w.status = 'pending' AND (w.claimed_until IS NULL OR w.claimed_until <= now())
  RETURNING w.endpoint_id, w.event_id, w.claimed_until, w.status, w.attempts, w.generation)
SELECT d.claimed_until, d.status, d.attempts, d.generation,
       e.id, e.url, e.secret_ciphertext, e.agent_connection_id,
       v.id, v.type, v.listing_id, v.order_id, v.data, v.created_at, v.traceparent
FROM d
JOIN webhook_endpoints e ON e.id = d.endpoint_id
JOIN events v ON v.id = d.event_id`

// claimDeliveries claims up to limit due records in one statement.
func (r *Resolver) claimDeliveries(ctx context.Context, q querier, limit int, ids []string, rooms []int32, perEndpoint int, asOf *time.Time) ([]claimedDelivery, error) {
	if ids == nil {
		ids, rooms = []string{}, []int32{}
	}
	rows, err := q.Query(ctx, claimDeliveryBatchQuery, limit, ids, rooms, perEndpoint, asOf, webhookClaim.Seconds())
	if err != nil {
		return nil, fmt.Errorf("claim deliveries: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (claimedDelivery, error) {
		var c claimedDelivery
		err := row.Scan(&c.d.ClaimedUntil, &c.d.Status, &c.d.Attempts, &c.d.Generation,
			&c.ep.ID, &c.ep.URL, &c.ep.SecretCiphertext, &c.agentConn,
			&c.ev.ID, &c.ev.Type, &c.ev.ListingID, &c.ev.OrderID, &c.ev.Data, &c.ev.CreatedAt, &c.ev.Traceparent)
		c.d.EndpointID, c.d.EventID = c.ep.ID, c.ev.ID
		return c, err
	})
	if err != nil {
		return nil, fmt.Errorf("claim deliveries: %w", err)
	}
	return out, nil
}

// attemptOutcome is what an attempt makes of its record: delivered, a
// retry scheduled, or failed for good.
func (r *Resolver) attemptOutcome(d *db.WebhookDelivery, at webhooks.Attempt) deliveryOutcome {
	o := deliveryOutcome{d: d}
	if at.StatusCode != 0 {
		c := int32(at.StatusCode)
		o.code = &c
	}
	if at.Success() {
		o.status = "delivered"
		return o
	}
	e := at.ErrorText()
	o.errTxt = &e
	if delay, ok := webhooks.NextDelay(r.RetrySchedule, d.Attempts+1, at); ok {
		next := r.Now().UTC().Add(delay)
		o.status, o.next = "pending", &next
		return o
	}
	o.status = "failed"
	return o
}

// recordOutcomesQuery writes a batch of outcomes ($1…$8, one element per
// attempt, in the order they ended; $9 now): each record still pending in
// its generation (a redispatch meanwhile voids the attempt) takes its
// outcome; per endpoint, a delivery resets the consecutive failures and
// every permanent failure after the batch's last delivery adds one; the
// third disables the endpoint (alerts.DisableAfter).
//
// The same UPDATE keeps the alert state (CONTRACT §22, webhook_alerts.go):
// every failed attempt after the batch's last delivery (nf) counts in
// failed_attempts, the first sets failing_since, the last sets
// last_failure; a delivery clears them and warned_at. It marks the email
// a transition owes in alert_due: 'disabled' when it disables the
// endpoint, 'recovered' when a delivery follows a warning. The endpoint's
// row is written only when an attempt failed or a delivery ends a failure
// (or consecutive failures): a healthy endpoint's deliveries write nothing
// to it. Every SET reads the row as the UPDATE finds it (PostgreSQL
// re-reads a row another transaction changed meanwhile), so processes
// recording at once add up.
const recordOutcomesQuery = `
WITH o AS (
  SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::text[], $6::int[], $7::text[], $8::timestamptz[])
    AS o(endpoint_id, event_id, generation, ord, status, code, err, next_at)),
u AS (
  UPDATE webhook_deliveries d SET status = o.status, attempts = d.attempts + 1, last_status_code = o.code,
    last_error = o.err, next_attempt_at = o.next_at, claimed_until = NULL,
    delivered_at = CASE WHEN o.status = 'delivered' THEN $9 ELSE d.delivered_at END,
    failed_at = CASE WHEN o.status = 'failed' THEN $9 ELSE d.failed_at END
  FROM o
  WHERE d.endpoint_id = o.endpoint_id AND d.event_id = o.event_id AND d.status = 'pending' AND d.generation = o.generation
  RETURNING o.endpoint_id, o.ord, o.status, o.err),
f AS (SELECT endpoint_id, max(ord) FILTER (WHERE status = 'delivered') AS last_ok FROM u GROUP BY endpoint_id),
g AS (
  SELECT f.endpoint_id, f.last_ok IS NOT NULL AS reset,
         count(*) FILTER (WHERE u.status = 'failed' AND u.ord > coalesce(f.last_ok, -1))::int AS k,
         count(*) FILTER (WHERE u.status <> 'delivered' AND u.ord > coalesce(f.last_ok, -1))::int AS nf,
         (array_agg(u.err ORDER BY u.ord DESC) FILTER (WHERE u.status <> 'delivered'))[1] AS last_err
  FROM f JOIN u ON u.endpoint_id = f.endpoint_id GROUP BY f.endpoint_id, f.last_ok),
e AS (
  UPDATE webhook_endpoints e SET
    consecutive_failures = CASE WHEN g.reset THEN 0 ELSE e.consecutive_failures END + g.k,
    status = CASE WHEN (CASE WHEN g.reset THEN 0 ELSE e.consecutive_failures END + g.k) >= 3 THEN 'disabled' ELSE e.status END,
    disabled_reason = CASE WHEN (CASE WHEN g.reset THEN 0 ELSE e.consecutive_failures END + g.k) >= 3 AND e.status = 'enabled'
      THEN 'consecutive_failures' ELSE e.disabled_reason END,
    updated_at = CASE WHEN g.k > 0 THEN now() ELSE e.updated_at END,
    failing_since = CASE WHEN g.nf = 0 THEN NULL WHEN g.reset THEN $9 ELSE coalesce(e.failing_since, $9) END,
    failed_attempts = CASE WHEN g.reset THEN 0 ELSE e.failed_attempts END + g.nf,
    last_failure = CASE WHEN g.nf = 0 THEN NULL ELSE g.last_err END,
    warned_at = CASE WHEN g.reset OR (CASE WHEN g.reset THEN 0 ELSE e.consecutive_failures END + g.k) >= 3 THEN NULL ELSE e.warned_at END,
    alert_due = CASE
      WHEN (CASE WHEN g.reset THEN 0 ELSE e.consecutive_failures END + g.k) >= 3 AND e.status = 'enabled' THEN 'disabled'
      WHEN g.reset AND e.warned_at IS NOT NULL AND e.status = 'enabled' THEN 'recovered'
      ELSE e.alert_due END,
    alert_since = CASE
      WHEN (CASE WHEN g.reset THEN 0 ELSE e.consecutive_failures END + g.k) >= 3 AND e.status = 'enabled'
        THEN CASE WHEN g.reset THEN $9 ELSE coalesce(e.failing_since, $9) END
      WHEN g.reset AND e.warned_at IS NOT NULL AND e.status = 'enabled' THEN e.failing_since
      ELSE e.alert_since END,
    alert_at = CASE
      WHEN (CASE WHEN g.reset THEN 0 ELSE e.consecutive_failures END + g.k) >= 3 AND e.status = 'enabled'
        OR g.reset AND e.warned_at IS NOT NULL AND e.status = 'enabled' THEN $9
      ELSE e.alert_at END
  FROM g
  WHERE e.id = g.endpoint_id
    AND (g.nf > 0 OR (g.reset AND (e.consecutive_failures <> 0 OR e.failing_since IS NOT NULL OR e.warned_at IS NOT NULL)))
  RETURNING e.id)
SELECT (SELECT count(*) FROM u), (SELECT count(*) FROM e)`

// recordOutcomes writes a batch of attempts' outcomes in one statement.
func (r *Resolver) recordOutcomes(ctx context.Context, q querier, out []deliveryOutcome) error {
	n := len(out)
	var (
		eps, evs, statuses = make([]string, n), make([]string, n), make([]string, n)
		gens, ords         = make([]int32, n), make([]int32, n)
		codes              = make([]*int32, n)
		errs               = make([]*string, n)
		nexts              = make([]*time.Time, n)
	)
	for i, o := range out {
		eps[i], evs[i], statuses[i] = o.d.EndpointID, o.d.EventID, o.status
		gens[i], ords[i] = int32(o.d.Generation), int32(i)
		codes[i], errs[i], nexts[i] = o.code, o.errTxt, o.next
	}
	var rec, eps2 int
	err := q.QueryRow(ctx, recordOutcomesQuery, eps, evs, gens, ords, statuses, codes, errs, nexts, r.Now().UTC()).Scan(&rec, &eps2)
	if err != nil {
		return fmt.Errorf("record webhook attempts: %w", err)
	}
	return nil
}
