package resolvers

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"commerce/alerts"
	"commerce/db"
	"commerce/jobs"
	"commerce/mail"
)

// Seller alerts for failing webhook endpoints (CONTRACT §22). The rules
// are package alerts'; this file keeps their state and sends the emails.
//
// Where the state lives and why:
//
//   - The dispatcher's outcome statement (recordOutcomesQuery) keeps an
//     endpoint's failure in progress on its row: failing_since,
//     failed_attempts, last_failure. It is the statement that already
//     counts consecutive failures and disables, in one UPDATE per endpoint
//     that PostgreSQL re-evaluates on the row's latest version, so two
//     processes recording at once add up exactly. It writes the row only
//     when an attempt failed, or when a success ends a failure: a healthy
//     endpoint's success path writes nothing more than before, and a round
//     is still two statements.
//   - The same UPDATE marks the emails its transitions owe: alert_due
//     'disabled' when it disables the endpoint, 'recovered' when the first
//     success follows a warning (and clears warned_at, which re-arms the
//     warning).
//   - The warning depends on time passing, not on an attempt (a delivery's
//     retries are hours apart, so none may happen at the hour), so a
//     periodic job (webhook_alerts, every WEBHOOK_ALERT_AFTER/10 between 1 s
//     and a minute) looks for endpoints due a warning or owing an email.
//     Each endpoint is handled in a transaction of its own that locks its
//     row, asks alerts.Warn, sets warned_at or clears alert_due, and stores
//     the email in the outbox: the email exists exactly when the state
//     change committed, and a second job (another process) waits for the
//     lock, then finds nothing due. One row lock per transaction: no
//     deadlock with the dispatcher's UPDATE.
//
// warned_at is set whether or not the seller wants the emails
// (notify_webhooks): it is also what readiness's webhook_failing reads.

// WebhookAlertsArgs is the periodic job that sends the webhook alerts.
type WebhookAlertsArgs struct{}

// Kind names the job.
func (WebhookAlertsArgs) Kind() string { return "webhook_alerts" }

// WebhookAlertsWorker runs CheckWebhookAlerts.
type WebhookAlertsWorker struct {
	river.WorkerDefaults[WebhookAlertsArgs]
	R *Resolver
}

// Timeout bounds one run, below jobs.RescueStuckJobsAfter.
func (w *WebhookAlertsWorker) Timeout(*river.Job[WebhookAlertsArgs]) time.Duration {
	return time.Minute
}

// Work sends the alerts that are due.
func (w *WebhookAlertsWorker) Work(ctx context.Context, _ *river.Job[WebhookAlertsArgs]) error {
	return w.R.CheckWebhookAlerts(ctx)
}

// WebhookAlertsPeriodic runs the alert job every tenth of after
// (WEBHOOK_ALERT_AFTER), between a second and a minute: a warning goes out
// at most that late.
func WebhookAlertsPeriodic(after time.Duration) jobs.Periodic {
	if after <= 0 {
		after = alerts.DefaultAfter
	}
	every := min(max(after/10, time.Second), time.Minute)
	return jobs.Periodic{Name: WebhookAlertsArgs{}.Kind(), Every: every,
		Job: func() (river.JobArgs, *river.InsertOpts) { return WebhookAlertsArgs{}, nil }}
}

func (r *Resolver) webhookAlertAfter() time.Duration {
	if r.WebhookAlertAfter > 0 {
		return r.WebhookAlertAfter
	}
	return alerts.DefaultAfter
}

// alertCandidatesQuery finds the endpoints that may be due a warning or
// owe an email ($1 failing since at most, $2 the fewest failures, $3
// warned at most at): a filter through the partial index, not the rule,
// which alertEndpoint applies under the row's lock.
const alertCandidatesQuery = `
SELECT id FROM webhook_endpoints
WHERE (failing_since IS NOT NULL OR alert_due IS NOT NULL) AND agent_connection_id IS NULL
  AND (alert_due IS NOT NULL OR (status = 'enabled' AND deleted_at IS NULL AND failing_since <= $1
       AND failed_attempts >= $2 AND (warned_at IS NULL OR warned_at <= $3)))
ORDER BY failing_since NULLS FIRST
LIMIT 1000`

// CheckWebhookAlerts sends the webhook alerts due by the resolver's clock:
// the warnings, and the disabled and recovered emails the dispatcher's
// transitions owe. Each endpoint is handled once however many processes
// run it at the same time.
func (r *Resolver) CheckWebhookAlerts(ctx context.Context) error {
	now := r.Now().UTC()
	rows, err := r.DB.Pool.Query(ctx, alertCandidatesQuery, now.Add(-r.webhookAlertAfter()), alerts.MinFailures, now.Add(-alerts.RepeatAfter))
	if err != nil {
		return fmt.Errorf("webhook alerts: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return fmt.Errorf("webhook alerts: %w", err)
	}
	var errs []error
	for _, id := range ids {
		if err := r.alertEndpoint(ctx, id, now); err != nil {
			errs = append(errs, fmt.Errorf("webhook alerts: endpoint %s: %w", id, err))
		}
	}
	return errors.Join(errs...)
}

// alertRow is an endpoint's alert state with its seller, locked.
type alertRow struct {
	accountID, url, status string
	deleted                bool
	consecutive            int
	state                  alerts.State
	lastFailure            *string
	due                    *string
	dueSince, dueAt        *time.Time
	email                  string
	notify                 bool
	storeName              *string
}

// alertEndpoint applies the rules to one endpoint under its row's lock and
// stores the emails they call for in the same transaction.
func (r *Resolver) alertEndpoint(ctx context.Context, id string, now time.Time) error {
	return r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		var e alertRow
		err := tx.River.QueryRow(ctx, `
			SELECT e.account_id, e.url, e.status, e.deleted_at IS NOT NULL, e.consecutive_failures,
			       e.failing_since, e.failed_attempts, e.warned_at, e.last_failure, e.alert_due, e.alert_since, e.alert_at,
			       a.email, a.notify_webhooks AND a.deleted_at IS NULL, a.display_name
			FROM webhook_endpoints e JOIN accounts a ON a.id = e.account_id
			WHERE e.id = $1 FOR UPDATE OF e`, id).Scan(&e.accountID, &e.url, &e.status, &e.deleted, &e.consecutive,
			&e.state.FailingSince, &e.state.FailedAttempts, &e.state.WarnedAt, &e.lastFailure, &e.due, &e.dueSince, &e.dueAt,
			&e.email, &e.notify, &e.storeName)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		warn := e.status == "enabled" && !e.deleted && alerts.Warn(e.state, now, r.webhookAlertAfter())
		if e.due == nil && !warn {
			return nil
		}
		if _, err := tx.River.Exec(ctx, `UPDATE webhook_endpoints SET alert_due = NULL, alert_since = NULL, alert_at = NULL,
			warned_at = CASE WHEN $2 THEN $3 ELSE warned_at END WHERE id = $1`, id, warn, now); err != nil {
			return err
		}
		if !e.notify {
			return nil
		}
		if e.due != nil {
			if err := r.sendDueAlert(ctx, tx, id, &e); err != nil {
				return err
			}
		}
		if warn {
			return r.sendWarning(ctx, tx, id, &e, now)
		}
		return nil
	})
}

// alertData is what every alert email of endpoint id says, with the
// failure that began at since.
func (r *Resolver) alertData(ctx context.Context, tx db.Tx, id string, e *alertRow, since time.Time) (mail.WebhookAlertData, error) {
	d := mail.WebhookAlertData{StoreName: deref(e.storeName, ""), EndpointID: id, EndpointURL: e.url, FailingSince: since,
		LastFailure: deref(e.lastFailure, "unknown"), RetrySpan: alerts.RetrySpan(r.RetrySchedule),
		ConsoleURL: r.ConsoleURL + "/webhooks", APIURL: r.BaseURL}
	// The events of this failure not delivered: waiting for a retry, or
	// failed for good since it began.
	err := tx.River.QueryRow(ctx, `SELECT count(*) FROM webhook_deliveries
		WHERE endpoint_id = $1 AND (status = 'pending' OR status = 'failed' AND failed_at >= $2)`, id, since).Scan(&d.Undelivered)
	return d, err
}

// sendDueAlert stores the disabled or recovered email the endpoint owes.
func (r *Resolver) sendDueAlert(ctx context.Context, tx db.Tx, id string, e *alertRow) error {
	since, at := r.Now().UTC(), r.Now().UTC()
	if e.dueSince != nil {
		since = *e.dueSince
	}
	if e.dueAt != nil {
		at = *e.dueAt
	}
	d, err := r.alertData(ctx, tx, id, e, since)
	if err != nil {
		return err
	}
	d.At = at
	var msg mail.Message
	switch *e.due {
	case "disabled":
		msg, err = mail.WebhookDisabled(e.email, d)
	case "recovered":
		msg, err = mail.WebhookRecovered(e.email, d)
	default:
		return fmt.Errorf("unknown alert %q", *e.due)
	}
	if err != nil {
		return err
	}
	_, err = r.Mail.Send(ctx, tx, msg)
	return err
}

// sendWarning stores the warning, with when the endpoint will be disabled
// if the deliveries pending keep failing.
func (r *Resolver) sendWarning(ctx context.Context, tx db.Tx, id string, e *alertRow, now time.Time) error {
	d, err := r.alertData(ctx, tx, id, e, *e.state.FailingSince)
	if err != nil {
		return err
	}
	d.At = now
	rows, err := tx.River.Query(ctx, `SELECT attempts, next_attempt_at FROM webhook_deliveries
		WHERE endpoint_id = $1 AND status = 'pending' AND next_attempt_at IS NOT NULL
		ORDER BY next_attempt_at LIMIT 200`, id)
	if err != nil {
		return err
	}
	pending, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (alerts.Pending, error) {
		var p alerts.Pending
		err := row.Scan(&p.Attempts, &p.NextAttemptAt)
		return p, err
	})
	if err != nil {
		return err
	}
	if at, ok := alerts.DisableAt(r.RetrySchedule, e.consecutive, pending); ok {
		d.DisableAt = &at
	}
	msg, err := mail.WebhookWarning(e.email, d)
	if err != nil {
		return err
	}
	_, err = r.Mail.Send(ctx, tx, msg)
	return err
}

// endpointSucceeded ends an endpoint's failure after a 2xx outside the
// dispatcher (a test event): the state the dispatcher's success would
// clear, and "recovered" owed when it had been warned.
func (r *Resolver) endpointSucceeded(ctx context.Context, id string) error {
	_, err := r.DB.Pool.Exec(ctx, `UPDATE webhook_endpoints SET
			alert_due = CASE WHEN warned_at IS NOT NULL AND status = 'enabled' THEN 'recovered' ELSE alert_due END,
			alert_since = CASE WHEN warned_at IS NOT NULL AND status = 'enabled' THEN failing_since ELSE alert_since END,
			alert_at = CASE WHEN warned_at IS NOT NULL AND status = 'enabled' THEN $2 ELSE alert_at END,
			failing_since = NULL, failed_attempts = 0, last_failure = NULL, warned_at = NULL
		WHERE id = $1 AND (failing_since IS NOT NULL OR warned_at IS NOT NULL)`, id, r.Now().UTC())
	return err
}
