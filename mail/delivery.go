package mail

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"commerce/db"
	"commerce/logging"
)

// Time limits of a delivery attempt, nested inside one another, and the
// claim that covers them (crash recovery).
//
// A dispatcher claims a message for claimFor before it sends it. The claim
// is what keeps two processes from sending one message at once, so it must
// outlast everything an attempt can do before its outcome is written: the
// SMTP session (attemptTimeout, which cancels the session's context) and
// the outcome's write (finishTimeout). When the process dies instead, the
// message waits for its claim to expire: claimFor is also the longest a
// crash delays a message, and the crash drill wants every email out within
// 20 s of a restart.
//
// So the claim is short, 10 s (the webhooks' is 15 s: an HTTP request of
// 10 s; an SMTP submission of a message of a few kilobytes takes well under
// a second on a working relay): 5 s for connecting and for each SMTP reply
// (smtpTimeout), 7 s for the whole session (dial, TLS, AUTH, MAIL, RCPT,
// DATA), 3 s to write the outcome. A relay slower than that fails the
// attempt as transient and the message is retried with backoff (if the
// relay accepted it after all, the retry is the same message under the
// same Message-ID). A dispatcher wakes every PollInterval (1 s) for
// expired claims, so a message of a killed process goes out at most
// claimFor + PollInterval after it was claimed: within about 11 s of the
// crash, however long the restart takes.
const (
	// smtpTimeout bounds connecting to the SMTP server and each command.
	smtpTimeout = 5 * time.Second
	// attemptTimeout bounds one attempt's SMTP session.
	attemptTimeout = 7 * time.Second
	// finishTimeout is what writing an attempt's outcome may take.
	finishTimeout = 3 * time.Second
	// claimFor is how long a claim on a message lasts.
	claimFor = attemptTimeout + finishTimeout
)

// retryDelay is the wait before attempt n+1 after attempt n (n ≥ 1) failed
// transiently: n⁴ seconds (1 s, 16 s, 81 s, … about 78 minutes in all over
// maxAttempts), the schedule the River job of earlier versions had.
func retryDelay(n int) time.Duration {
	n = max(n, 1)
	return time.Duration(n*n*n*n) * time.Second
}

// outcome is what an attempt makes of its message: sent (or logged), a
// retry scheduled, or failed for good.
type outcome struct {
	id     string
	claim  time.Time // the claim the attempt ran under
	status string
	err    *string
	next   *time.Time // the retry, when status is pending
}

// attemptOutcome is the rule: a 5xx reply (or an unsendable message) fails
// the message; any other error schedules a retry with backoff until the
// message has had maxAttempts attempts, then fails it.
func attemptOutcome(m *Message, logged bool, err error, now time.Time) outcome {
	o := outcome{id: m.ID, claim: *m.ClaimedUntil}
	switch {
	case err == nil && logged:
		o.status = StatusLogged
	case err == nil:
		o.status = StatusSent
	default:
		s := err.Error()
		if len(s) > 2000 {
			s = s[:2000]
		}
		o.err = &s
		if permanent(err) || m.Attempts >= maxAttempts {
			o.status = StatusFailed
			break
		}
		next := now.Add(retryDelay(m.Attempts))
		o.status, o.next = StatusPending, &next
	}
	return o
}

// querier is a pool or a connection.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// claimQuery claims due messages: $1 the most, $2 due by (NULL: now), $3
// only these ids (NULL: any), $4 the claim's length in seconds, $5 the
// Message-ID domain for messages stored without a Message-ID (by an
// earlier version). Each claim counts an attempt. Candidates locked by
// another dispatcher's claim under way are skipped, and the UPDATE checks
// the claim again on the row it writes.
const claimQuery = `
WITH pick AS (
  SELECT id FROM mail_messages
  WHERE status = 'pending' AND next_attempt_at <= coalesce($2::timestamptz, now())
    AND (claimed_until IS NULL OR claimed_until <= now())
    AND ($3::text[] IS NULL OR id = ANY($3::text[]))
  ORDER BY next_attempt_at
  LIMIT $1
  FOR UPDATE SKIP LOCKED)
UPDATE mail_messages m SET attempts = m.attempts + 1, claimed_until = now() + make_interval(secs => $4),
  message_id = coalesce(m.message_id, m.id || '@' || $5::text)
FROM pick
WHERE m.id = pick.id AND m.status = 'pending' AND (m.claimed_until IS NULL OR m.claimed_until <= now())
RETURNING m.id, m.template, m.to_address, m.subject, m.text_body, m.html_body, m.attempts, m.created_at, m.claimed_until, m.message_id, m.traceparent`

// claim claims up to limit due messages in one statement.
func claim(ctx context.Context, q querier, limit int, asOf *time.Time, ids []string, domain string) ([]Message, error) {
	rows, err := q.Query(ctx, claimQuery, limit, asOf, ids, claimFor.Seconds(), domain)
	if err != nil {
		return nil, fmt.Errorf("claim mail: %w", err)
	}
	msgs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Message, error) {
		m := Message{Status: StatusPending}
		err := row.Scan(&m.ID, &m.Template, &m.To, &m.Subject, &m.Text, &m.HTML, &m.Attempts, &m.CreatedAt, &m.ClaimedUntil, &m.MessageID, &m.Traceparent)
		return m, err
	})
	if err != nil {
		return nil, fmt.Errorf("claim mail: %w", err)
	}
	return msgs, nil
}

// recordQuery writes a batch of outcomes ($1…$5, one element per
// attempt). A message still pending takes its outcome when the attempt's
// claim is still the message's (after it expired another process may have
// claimed the message again: that attempt's outcome counts), except that a
// message sent is recorded sent whatever the claim: it went out.
const recordQuery = `
UPDATE mail_messages m SET status = o.status, last_error = o.err,
  next_attempt_at = coalesce(o.next_at, m.next_attempt_at), claimed_until = NULL,
  sent_at = CASE WHEN o.status IN ('sent', 'logged') THEN now() ELSE m.sent_at END
FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::text[], $5::timestamptz[]) AS o(id, claim, status, err, next_at)
WHERE m.id = o.id AND m.status = 'pending' AND (m.claimed_until = o.claim OR o.status IN ('sent', 'logged'))`

// record writes a batch of outcomes in one statement.
func record(ctx context.Context, q querier, out []outcome) error {
	n := len(out)
	ids, statuses := make([]string, n), make([]string, n)
	claims := make([]time.Time, n)
	errs := make([]*string, n)
	nexts := make([]*time.Time, n)
	for i, o := range out {
		ids[i], claims[i], statuses[i], errs[i], nexts[i] = o.id, o.claim, o.status, o.err, o.next
	}
	if _, err := q.Exec(ctx, recordQuery, ids, claims, statuses, errs, nexts); err != nil {
		return fmt.Errorf("record mail attempts: %w", err)
	}
	return nil
}

// release ends a claim without an attempt (the process stopping canceled
// it before the SMTP server accepted the message), so that another
// dispatcher need not wait for the claim to expire; the attempt it counted
// is given back.
func release(ctx context.Context, q querier, m *Message) error {
	_, err := q.Exec(ctx, `UPDATE mail_messages SET claimed_until = NULL, attempts = attempts - 1
		WHERE id = $1 AND status = 'pending' AND claimed_until = $2`, m.ID, *m.ClaimedUntil)
	if err != nil {
		return fmt.Errorf("release mail claim: %w", err)
	}
	return nil
}

// attempt sends one claimed message (or logs it without SMTP) within
// attemptTimeout and returns its outcome; ok is false when ctx was
// canceled before the message went out (the claim is to be released).
func (s *Sender) attempt(ctx context.Context, m *Message) (o outcome, ok bool) {
	if s.host == "" {
		// Never the subject or the text: they carry passcodes, links and
		// license keys (CONTRACT §24). The message is kept in the
		// database, and the sandbox's mailbox shows it.
		s.log.InfoContext(ctx, "mail kept, not sent (SMTP_URL is not set)", "message_id", m.ID,
			"template", m.Template, "to", logging.MaskEmail(m.To))
		return attemptOutcome(m, true, nil, time.Now()), true
	}
	actx, cancel := context.WithTimeout(ctx, attemptTimeout)
	err := s.send(actx, m)
	cancel()
	switch {
	case err == nil:
		s.log.InfoContext(ctx, "mail sent", "message_id", m.ID, "template", m.Template, "attempt", m.Attempts)
	case ctx.Err() != nil:
		return outcome{}, false
	case permanent(err):
		s.log.WarnContext(ctx, "mail rejected", "message_id", m.ID, "template", m.Template, "error", err)
	default:
		s.log.WarnContext(ctx, "mail delivery failed", "message_id", m.ID, "template", m.Template,
			"attempt", m.Attempts, "max_attempts", maxAttempts, "error", err)
	}
	return attemptOutcome(m, false, err, time.Now()), true
}

// DeliverDue claims the messages due by asOf (at most limit), sends them
// and records the outcomes before it returns: one round of the dispatcher,
// for tests and tools. It returns how many messages it attempted.
func (s *Sender) DeliverDue(ctx context.Context, d *db.DB, asOf time.Time, limit int) (int, error) {
	return s.deliverRound(ctx, d, &asOf, nil, limit)
}

// deliverRound is one round over the due messages (ids: only these).
func (s *Sender) deliverRound(ctx context.Context, d *db.DB, asOf *time.Time, ids []string, limit int) (int, error) {
	msgs, err := claim(ctx, d.Pool, limit, asOf, ids, s.idDomain)
	if err != nil || len(msgs) == 0 {
		return 0, err
	}
	out := make([]outcome, 0, len(msgs))
	var mu sync.Mutex
	var wg sync.WaitGroup
	var canceled []*Message
	for i := range msgs {
		m := &msgs[i]
		wg.Go(func() {
			o, ok := s.attempt(ctx, m)
			mu.Lock()
			defer mu.Unlock()
			if ok {
				out = append(out, o)
			} else {
				canceled = append(canceled, m)
			}
		})
	}
	wg.Wait()
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finishTimeout)
	defer cancel()
	var errs []error
	for _, m := range canceled {
		errs = append(errs, release(wctx, d.Pool, m))
	}
	if len(out) > 0 {
		errs = append(errs, record(wctx, d.Pool, out))
	}
	return len(msgs), errors.Join(errs...)
}
