package resolvers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/riverqueue/river"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"commerce/db"
	"commerce/graph/model"
	"commerce/netguard"
	"commerce/problem"
	"commerce/webhooks"
)

// Outbound webhooks (CONTRACT §12): endpoints, one delivery record and one
// River job per event and subscribed endpoint, written in the transaction
// that records the event; the worker signs, posts, and schedules retries.

// OrderEventTypes are the six order events: what an endpoint created
// without events receives (CONTRACT §12).
var OrderEventTypes = []string{EventOrderPaid, EventOrderFulfilled, EventOrderRefunded, EventOrderDisputed, EventOrderDisputeClosed, EventOrderCanceled}

// EventTypes are every event type of the log, each subscribable: the order
// events, then the license key events (CONTRACT §20) and the membership
// events (§26), which reach only the endpoints that list them.
var EventTypes = append(append(slices.Clone(OrderEventTypes), EventLicenseKeyActivated, EventLicenseKeyDeactivated),
	MembershipEventTypes...)

// maxEndpoints bounds an account's webhook endpoints.
const maxEndpoints = 16

// DeliverArgs is the River job that delivered one event to one endpoint
// before the dispatcher (WebhookDispatcher) took the records straight from
// the table. Jobs an earlier version enqueued complete without posting:
// their records are the dispatcher's.
type DeliverArgs struct {
	EndpointID string `json:"endpoint_id"`
	EventID    string `json:"event_id"`
	Manual     bool   `json:"manual,omitempty"`
	Generation int    `json:"generation"`
}

// Kind names the job.
func (DeliverArgs) Kind() string { return "webhook_delivery" }

// dispatch (re)sets delivery records to pending, due now, in one
// statement that wakes the dispatchers when tx commits; manual records are
// delivered whatever the endpoint's status.
func (r *Resolver) dispatch(ctx context.Context, tx db.Tx, accountID, eventID, typ string, endpointIDs []string, manual bool) error {
	if len(endpointIDs) == 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `WITH ins AS (
			INSERT INTO webhook_deliveries (endpoint_id, event_id, account_id, type, next_attempt_at, manual)
			SELECT id, ?, ?, ?, now(), ? FROM unnest(?::text[]) AS ids(id)
			ON CONFLICT (endpoint_id, event_id) DO UPDATE SET status = 'pending', attempts = 0, last_status_code = NULL,
				last_error = NULL, next_attempt_at = now(), delivered_at = NULL, failed_at = NULL, claimed_until = NULL,
				generation = webhook_deliveries.generation + 1, manual = EXCLUDED.manual
			RETURNING 1)
		SELECT pg_notify('`+notifyChannel+`', '') FROM ins`, eventID, accountID, typ, manual, pgArray(endpointIDs)); err != nil {
		return fmt.Errorf("record delivery: %w", err)
	}
	return nil
}

// WebhookWorker completes the webhook_delivery jobs of earlier versions:
// the dispatcher posts their records.
type WebhookWorker struct {
	river.WorkerDefaults[DeliverArgs]
	R *Resolver
}

// WebhookJobTimeout bounds one delivery attempt with its bookkeeping: the
// 10 s request (webhooks.Timeout) and 5 s more. It is how long a
// dispatcher's claim on a record lasts; a record claimed by a process that
// died is posted again once the claim has expired.
const WebhookJobTimeout = webhooks.Timeout + 5*time.Second

// Timeout leaves room for the 10 s request and the bookkeeping.
func (w *WebhookWorker) Timeout(*river.Job[DeliverArgs]) time.Duration { return WebhookJobTimeout }

// Work does nothing: the record is the dispatcher's.
func (w *WebhookWorker) Work(context.Context, *river.Job[DeliverArgs]) error { return nil }

// releaseDeliveryClaim ends this run's claim on a record when the run ends
// without recording an attempt (its context canceled as the process stops,
// the database unreachable), so that the job's retry, here or in another
// process, need not wait for the claim to expire.
func (r *Resolver) releaseDeliveryClaim(ctx context.Context, d *db.WebhookDelivery, claim time.Time) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if _, err := r.DB.Pool.Exec(ctx, `UPDATE webhook_deliveries SET claimed_until = NULL
		WHERE endpoint_id = $1 AND event_id = $2 AND generation = $3 AND claimed_until = $4`, d.EndpointID, d.EventID, d.Generation, claim); err != nil {
		r.Log.WarnContext(ctx, "release webhook delivery claim", "endpoint_id", d.EndpointID, "event_id", d.EventID, "error", err)
	}
}

// eventBody is the webhook body: the event as GET /v1/events shows it.
func eventBody(ev *db.Event) []byte {
	b, _ := json.Marshal(toEventModel(ev))
	return b
}

func toEventModel(ev *db.Event) *model.Event {
	return &model.Event{ID: ev.ID, Object: "event", Type: model.EventType(ev.Type), CreatedAt: ev.CreatedAt.UTC(),
		ListingID: ev.ListingID, OrderID: ev.OrderID, Data: ev.Data}
}

// validateWebhookURL: https (http only when private targets are allowed),
// and a host that does not resolve to a forbidden address unless allowed.
func (r *Resolver) validateWebhookURL(ctx context.Context, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || len(raw) > maxURLLen {
		return problem.Validation("url", "url must be an absolute https URL")
	}
	if u.Scheme != "https" && !(u.Scheme == "http" && r.AllowPrivateTargets) {
		return problem.Validation("url", "url must use https")
	}
	if r.AllowPrivateTargets {
		return nil
	}
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	// One policy with deliverables and the delivery client: any resolved
	// address forbidden refuses the URL.
	if err := netguard.CheckHost(rctx, r.DNS, u.Hostname()); err != nil {
		if errors.Is(err, netguard.ErrForbiddenAddress) {
			return problem.Validation("url", "url resolves to a private, loopback or link-local address")
		}
		return problem.Validation("url", "url's host name does not resolve")
	}
	return nil
}

func validEvents(in []model.EventType) ([]string, bool) {
	if in == nil {
		return slices.Clone(OrderEventTypes), true
	}
	out := []string{}
	for _, t := range in {
		e := string(t)
		if !slices.Contains(EventTypes, e) {
			return nil, false
		}
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out, len(out) > 0
}

func toEndpointModel(e *db.WebhookEndpoint) *model.WebhookEndpoint {
	return &model.WebhookEndpoint{Object: "webhook_endpoint", ID: e.ID, URL: e.URL, Name: e.Name, Events: eventTypes(e.Events),
		Status: model.WebhookStatus(e.Status), DisabledReason: (*model.WebhookDisabledReason)(e.DisabledReason), ConsecutiveFailures: e.ConsecutiveFailures,
		CreatedAt: e.CreatedAt.UTC(), UpdatedAt: e.UpdatedAt.UTC()}
}

// CreateWebhook adds an endpoint; its signing secret is in the result, once.
// Errors: validation_error (url, name, events), conflict (too many endpoints).
func (r *Resolver) CreateWebhook(ctx context.Context, in model.CreateWebhookInput) (*model.CreatedWebhookEndpoint, error) {
	p, err := writer(ctx)
	if err != nil {
		return nil, err
	}
	var f problem.Fields
	if err := r.validateWebhookURL(ctx, in.URL); err != nil {
		f.Add("url", problem.From(err).Detail)
	}
	if in.Name != nil && utf8.RuneCountInString(*in.Name) > 100 {
		f.Add("name", "name must be at most 100 characters")
	}
	events, ok := validEvents(in.Events)
	if !ok {
		f.Add("events", "events must be a non-empty list of: "+strings.Join(EventTypes, ", "))
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	secret := webhooks.NewSecret()
	sealed, err := r.Secrets.Seal(secret)
	if err != nil {
		return nil, err
	}
	e := &db.WebhookEndpoint{ID: db.NewID("wh"), AccountID: p.AccountID, URL: in.URL, Name: in.Name, Events: events,
		Status: "enabled", SecretCiphertext: sealed}
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		if _, err := tx.ExecContext(ctx, "SELECT 1 FROM accounts WHERE id = ? FOR UPDATE", p.AccountID); err != nil {
			return err
		}
		n, err := tx.NewSelect().Table("webhook_endpoints").Where("account_id = ?", p.AccountID).Where("deleted_at IS NULL").
			Where("agent_connection_id IS NULL").Count(ctx)
		if err != nil {
			return err
		}
		if n >= maxEndpoints {
			return problem.Newf(problem.Conflict, "An account has at most %d webhook endpoints.", maxEndpoints).
				With("current_count", n).With("max_count", maxEndpoints)
		}
		_, err = tx.NewInsert().Model(e).Returning("created_at, updated_at").Exec(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &model.CreatedWebhookEndpoint{WebhookEndpoint: *toEndpointModel(e), Secret: secret}, nil
}

// loadEndpoint finds a live endpoint of the caller, one of the seller's
// own: an agent connection's endpoint is the connection's (agent
// connections.go), not found here. Errors: not_found.
func (r *Resolver) loadEndpoint(ctx context.Context, idb bun.IDB, accountID, id string, lock bool) (*db.WebhookEndpoint, error) {
	e := new(db.WebhookEndpoint)
	q := idb.NewSelect().Model(e).Where("id = ?", id).Where("account_id = ?", accountID).Where("deleted_at IS NULL").
		Where("agent_connection_id IS NULL")
	if lock {
		q = q.For("UPDATE")
	}
	if err := db.NotFound(q.Scan(ctx)); err != nil {
		if errors.Is(err, db.ErrNotFound) {
			return nil, problem.NotFoundf("No webhook endpoint %q on this account.", id)
		}
		return nil, err
	}
	return e, nil
}

// Webhook returns one endpoint (no secret). Errors: not_found.
func (r *Resolver) Webhook(ctx context.Context, id string) (*model.WebhookEndpoint, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	e, err := r.loadEndpoint(ctx, r.DB, p.AccountID, id, false)
	if err != nil {
		return nil, err
	}
	return toEndpointModel(e), nil
}

// Webhooks lists the caller's endpoints, newest first.
func (r *Resolver) Webhooks(ctx context.Context, limit *int, cursor *string) (*model.WebhookEndpointList, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	pg, err := parsePage(limit, cursor, "wh")
	if err != nil {
		return nil, err
	}
	var rows []*db.WebhookEndpoint
	q := r.DB.NewSelect().Model(&rows).Where("account_id = ?", p.AccountID).Where("deleted_at IS NULL").
		Where("agent_connection_id IS NULL").OrderExpr("id DESC").Limit(int64(pg.limit + 1))
	if pg.after != "" {
		q = q.Where("id < ?", pg.after)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, err
	}
	rows, more, next := trim(rows, pg.limit, func(e *db.WebhookEndpoint) string { return e.ID })
	out := &model.WebhookEndpointList{Object: "list", Data: make([]*model.WebhookEndpoint, len(rows)), HasMore: more, NextCursor: next}
	for i, e := range rows {
		out.Data[i] = toEndpointModel(e)
	}
	return out, nil
}

// UpdateWebhook changes the given fields; status enabled re-enables and
// resets the failure count, disabled disables (reason manual). Errors:
// not_found, validation_error.
func (r *Resolver) UpdateWebhook(ctx context.Context, id string, in model.UpdateWebhookInput) (*model.WebhookEndpoint, error) {
	p, err := writer(ctx)
	if err != nil {
		return nil, err
	}
	var f problem.Fields
	if in.URL != nil {
		if err := r.validateWebhookURL(ctx, *in.URL); err != nil {
			f.Add("url", problem.From(err).Detail)
		}
	}
	name, nameSet := in.Name.ValueOK()
	if nameSet && name != nil && utf8.RuneCountInString(*name) > 100 {
		f.Add("name", "name must be at most 100 characters")
	}
	var events []string
	if in.Events != nil {
		var ok bool
		if events, ok = validEvents(in.Events); !ok {
			f.Add("events", "events must be a non-empty list of: "+strings.Join(EventTypes, ", "))
		}
	}
	if in.Status != nil && *in.Status != "enabled" && *in.Status != "disabled" {
		f.Add("status", `status must be "enabled" or "disabled"`)
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		e, err := r.loadEndpoint(ctx, tx, p.AccountID, id, true)
		if err != nil {
			return err
		}
		q := tx.NewUpdate().Model(e).WherePK().Set("updated_at = now()")
		if in.URL != nil {
			q = q.Set("url = ?", *in.URL)
		}
		if nameSet {
			q = q.Set("name = ?", name)
		}
		if events != nil {
			q = q.Set("events = ?", pgArray(events))
		}
		if in.Status != nil {
			if *in.Status == "enabled" {
				q = q.Set("status = 'enabled', disabled_reason = NULL, consecutive_failures = 0")
				if e.Status != "enabled" {
					// Re-enabled: its failures start afresh (CONTRACT §22).
					q = q.Set("failing_since = NULL, failed_attempts = 0, last_failure = NULL, warned_at = NULL")
				}
			} else if e.Status != "disabled" {
				q = q.Set("status = 'disabled', disabled_reason = 'manual'")
			}
		}
		_, err = q.Exec(ctx)
		if err != nil || in.Status == nil || *in.Status != "enabled" || e.Status == "enabled" {
			return err
		}
		// Re-enabled: deliveries that waited for it go out now.
		_, err = tx.ExecContext(ctx, `WITH due AS (
				UPDATE webhook_deliveries SET next_attempt_at = now() WHERE endpoint_id = ? AND status = 'pending' RETURNING 1)
			SELECT pg_notify('`+notifyChannel+`', '') FROM due`, e.ID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return r.Webhook(ctx, id)
}

func pgArray(s []string) any { return pgdialect.Array(s) }

// DeleteWebhook deletes an endpoint and cancels its pending deliveries.
// Errors: not_found.
func (r *Resolver) DeleteWebhook(ctx context.Context, id string) (bool, error) {
	p, err := writer(ctx)
	if err != nil {
		return false, err
	}
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		e, err := r.loadEndpoint(ctx, tx, p.AccountID, id, false)
		if err != nil {
			return err
		}
		// The deliveries first, then the endpoint: the order in which the
		// dispatcher's outcome statement (recordOutcomesQuery) locks them,
		// so the two never wait on each other in a circle (a deadlock).
		if _, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries SET status = 'canceled', next_attempt_at = NULL
			WHERE endpoint_id = ? AND status = 'pending'`, e.ID); err != nil {
			return err
		}
		res, err := tx.NewUpdate().Model(e).WherePK().Where("deleted_at IS NULL").
			Set("deleted_at = now(), status = 'disabled', updated_at = now()").Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return problem.NotFoundf("No webhook endpoint %q on this account.", id) // deleted meanwhile
		}
		return nil
	})
	return err == nil, err
}

func toDeliveryModel(d *db.WebhookDelivery) *model.WebhookEvent {
	return &model.WebhookEvent{Object: "webhook_event", ID: d.EventID, WebhookID: d.EndpointID, Type: model.EventType(d.Type), Status: model.WebhookDeliveryStatus(d.Status),
		Attempts: d.Attempts, LastStatusCode: d.LastStatusCode, LastError: d.LastError, NextAttemptAt: utc(d.NextAttemptAt),
		DeliveredAt: utc(d.DeliveredAt), FailedAt: utc(d.FailedAt), CreatedAt: d.CreatedAt.UTC()}
}

// WebhookEvents lists an endpoint's delivery records, newest first;
// delivered filters delivered (true) or pending and failed (false).
// Errors: not_found, validation_error.
func (r *Resolver) WebhookEvents(ctx context.Context, id string, delivered *bool, limit *int, cursor *string) (*model.WebhookEventList, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := r.loadEndpoint(ctx, r.DB, p.AccountID, id, false); err != nil {
		return nil, err
	}
	return r.endpointDeliveries(ctx, id, delivered, limit, cursor)
}

// endpointDeliveries lists the delivery records of an endpoint the caller
// was found to own, newest first (WebhookEvents, AgentConnectionDeliveries).
// Errors: validation_error (limit, cursor).
func (r *Resolver) endpointDeliveries(ctx context.Context, id string, delivered *bool, limit *int, cursor *string) (*model.WebhookEventList, error) {
	pg, err := parsePage(limit, cursor, "evt")
	if err != nil {
		return nil, err
	}
	var rows []*db.WebhookDelivery
	q := r.DB.NewSelect().Model(&rows).Column("*").ColumnExpr("seq").Where("endpoint_id = ?", id).
		Where("status <> 'canceled'").OrderExpr("seq DESC").Limit(int64(pg.limit + 1))
	if pg.after != "" {
		q = q.Where("seq < (SELECT seq FROM webhook_deliveries WHERE endpoint_id = ? AND event_id = ?)", id, pg.after)
	}
	if delivered != nil {
		if *delivered {
			q = q.Where("status = 'delivered'")
		} else {
			q = q.Where("status IN ('pending', 'failed')")
		}
	}
	if err := q.Scan(ctx); err != nil {
		return nil, err
	}
	rows, more, next := trim(rows, pg.limit, func(d *db.WebhookDelivery) string { return d.EventID })
	out := &model.WebhookEventList{Object: "list", Data: make([]*model.WebhookEvent, len(rows)), HasMore: more, NextCursor: next}
	for i, d := range rows {
		out.Data[i] = toDeliveryModel(d)
	}
	return out, nil
}

// RetryWebhookEvent clears a record's attempts and outcome and dispatches it
// at once, whatever the endpoint's status. Errors: not_found.
func (r *Resolver) RetryWebhookEvent(ctx context.Context, id, eventID string) (*model.WebhookEvent, error) {
	p, err := writer(ctx)
	if err != nil {
		return nil, err
	}
	var d db.WebhookDelivery
	fresh := new(db.WebhookDelivery)
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		if _, err := r.loadEndpoint(ctx, tx, p.AccountID, id, true); err != nil {
			return err
		}
		if err := tx.NewSelect().Model(&d).Where("endpoint_id = ?", id).Where("event_id = ?", eventID).
			Where("status <> 'canceled'").For("UPDATE").Scan(ctx); err != nil {
			if errors.Is(db.NotFound(err), db.ErrNotFound) {
				return problem.NotFoundf("No event %q for webhook endpoint %q.", eventID, id)
			}
			return err
		}
		if err := r.dispatch(ctx, tx, d.AccountID, d.EventID, d.Type, []string{id}, true); err != nil {
			return err
		}
		// The record as dispatched, read before the commit: once committed,
		// a dispatcher may post it within milliseconds.
		return tx.NewSelect().Model(fresh).Where("endpoint_id = ?", id).Where("event_id = ?", eventID).Scan(ctx)
	})
	if err != nil {
		return nil, err
	}
	return toDeliveryModel(fresh), nil
}

// TestWebhook delivers a webhook.test event synchronously and reports the
// receiver's answer; no delivery record is stored. A 2xx ends the
// endpoint's failure in progress, as a delivery does (the alert state:
// webhook_failing goes, "recovered" is sent after a warning). Errors:
// not_found.
func (r *Resolver) TestWebhook(ctx context.Context, id string) (*model.WebhookTest, error) {
	p, err := writer(ctx)
	if err != nil {
		return nil, err
	}
	e, err := r.loadEndpoint(ctx, r.DB, p.AccountID, id, false)
	if err != nil {
		return nil, err
	}
	secret, err := r.Secrets.Open(e.SecretCiphertext)
	if err != nil {
		return nil, err
	}
	evID := db.NewID("evt")
	body, _ := json.Marshal(map[string]any{"id": evID, "object": "event", "type": "webhook.test",
		"created_at": r.Now().UTC().Truncate(time.Second), "listing_id": nil, "order_id": nil,
		"data": map[string]any{"webhook_id": e.ID, "message": "A test event from commerce."}})
	at := webhooks.Deliver(ctx, r.WebhookHTTP, e.URL, secret, evID, body, r.Now())
	out := &model.WebhookTest{Object: "webhook_test", Body: at.Body, DurationMs: int(at.Duration.Milliseconds())}
	if at.StatusCode != 0 {
		c := at.StatusCode
		out.StatusCode = &c
	}
	if at.Err != nil {
		t := at.ErrorText()
		out.Error = &t
	}
	if at.Success() {
		// The receiver works again: a failure in progress ends, as a
		// delivery would end it (webhook_failing goes; CONTRACT §22).
		if err := r.endpointSucceeded(ctx, e.ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// RedeliverOrder enqueues every event of an order again to every enabled
// endpoint subscribed to its type (10 per hour per order, 100 per hour per
// key). Errors: not_found, rate_limited.
func (r *Resolver) RedeliverOrder(ctx context.Context, orderID string) (*model.Redelivery, error) {
	p, err := writer(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := r.Order(ctx, orderID); err != nil {
		return nil, err
	}
	if err := r.limit(ctx, "order_redelivery", "order:"+orderID, "Too many redeliveries of this order."); err != nil {
		return nil, err
	}
	if err := r.limit(ctx, "order_redelivery_key", p.Subject(), "Too many redeliveries with this key."); err != nil {
		return nil, err
	}
	out := &model.Redelivery{Object: "redelivery", OrderID: orderID}
	endpoints := map[string]bool{}
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		var evs []db.Event
		if err := tx.NewSelect().Model(&evs).Column("id", "type").Where("order_id = ?", orderID).
			Where("account_id = ?", p.AccountID).OrderExpr("seq").Scan(ctx); err != nil {
			return err
		}
		for _, ev := range evs {
			var ids []string
			if err := tx.NewSelect().Table("webhook_endpoints").Column("id").Where("account_id = ?", p.AccountID).
				Where("status = 'enabled'").Where("deleted_at IS NULL").Where("agent_connection_id IS NULL").
				Where("? = ANY(events)", ev.Type).Scan(ctx, &ids); err != nil {
				return err
			}
			if len(ids) == 0 {
				continue
			}
			out.Events++
			for _, id := range ids {
				endpoints[id] = true
			}
			if err := r.dispatch(ctx, tx, p.AccountID, ev.ID, ev.Type, ids, false); err != nil {
				return err
			}
		}
		return nil
	})
	out.Endpoints = len(endpoints)
	return out, err
}

// Events lists the event log oldest first, after an event id (exclusive),
// with filters. Errors: validation_error (after, limit, type).
func (r *Resolver) Events(ctx context.Context, after *string, limit *int, typ, listingID, orderID *string) (*model.EventList, error) {
	return r.eventLog(ctx, after, limit, typ, listingID, orderID, false)
}

// LatestEvents lists the newest limit events of the log (filtered as
// Events), oldest first; HasMore says whether older ones exist. Errors:
// validation_error (limit, type).
func (r *Resolver) LatestEvents(ctx context.Context, limit *int, typ, listingID, orderID *string) (*model.EventList, error) {
	return r.eventLog(ctx, nil, limit, typ, listingID, orderID, true)
}

func (r *Resolver) eventLog(ctx context.Context, after *string, limit *int, typ, listingID, orderID *string, newest bool) (*model.EventList, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	pg, err := parsePage(limit, nil, "evt")
	if err != nil {
		return nil, err
	}
	var rows []*db.Event
	q := r.DB.NewSelect().Model(&rows).Column("*").ColumnExpr("seq").Where("account_id = ?", p.AccountID).
		Limit(int64(pg.limit + 1))
	if newest {
		q = q.OrderExpr("seq DESC")
	} else {
		q = q.OrderExpr("seq")
	}
	if after != nil && *after != "" {
		var seq int64
		err := r.DB.NewSelect().Table("events").Column("seq").Where("id = ?", *after).Where("account_id = ?", p.AccountID).Scan(ctx, &seq)
		if err != nil {
			return nil, problem.Validation("after", "after must be the id of an event of this account")
		}
		q = q.Where("seq > ?", seq)
	}
	if typ != nil {
		if !slices.Contains(EventTypes, *typ) {
			return nil, problem.Validation("type", "type must be one of: "+strings.Join(EventTypes, ", "))
		}
		q = q.Where("type = ?", *typ)
	}
	if listingID != nil {
		q = q.Where("listing_id = ?", *listingID)
	}
	if orderID != nil {
		q = q.Where("order_id = ?", *orderID)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, err
	}
	more := len(rows) > pg.limit
	if more {
		rows = rows[:pg.limit]
	}
	if newest {
		slices.Reverse(rows)
	}
	out := &model.EventList{Object: "list", Data: make([]*model.Event, len(rows)), HasMore: more}
	for i, ev := range rows {
		out.Data[i] = toEventModel(ev)
	}
	if more && !newest {
		last := rows[len(rows)-1].ID
		out.NextCursor = &last
	}
	return out, nil
}

// eventTypes types stored event type names.
func eventTypes(in []string) []model.EventType {
	out := make([]model.EventType, len(in))
	for i, e := range in {
		out[i] = model.EventType(e)
	}
	return out
}
