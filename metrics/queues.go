package metrics

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
)

const (
	// QueueCacheFor is how long one reading of the backlogs serves the
	// scrapes that follow it: however many scrapers ask, the database
	// answers the statement at most once per QueueCacheFor per process.
	QueueCacheFor = 5 * time.Second
	// queueTimeout bounds the statement (a scrape does not hang on a slow
	// database; the backlogs are left out of that scrape).
	queueTimeout = 2 * time.Second
	// CountCap bounds each count the statement makes: a backlog larger
	// than this reads as CountCap (the alerts fire far below it).
	CountCap = 100000
	// maxJobSeries bounds the (kind, state) series of commerce_jobs_queued.
	maxJobSeries = 200
)

// queueQuery reads every backlog in one statement ($1: CountCap, $2:
// maxJobSeries), one row each: the oldest available River job's wait
// (job_oldest: the first of each queue and priority, 1 to 4, in the order of
// River's fetching index, as a min over the state would scan every
// available job; the queues River knows and "default", which has no row
// before a worker ever ran); the webhook deliveries pending to enabled
// endpoints (or retried by hand: what the dispatcher will send) and how
// long the most overdue due one has been due (webhooks); the same for the
// outbox (mail); then the count of River's live jobs per kind and state
// (job). Each count reads at most $1 rows, each age one row off an index
// (river_job's (state, queue, priority, scheduled_at) and the partial "due"
// indexes of webhook_deliveries and mail_messages). Measured with 150,000
// pending deliveries (half to a disabled endpoint), 100,000 pending emails
// and 75,000 live jobs: 0.11 to 0.25 s on a shared 2-core machine, the
// deliveries' count most of it; with small backlogs, about a millisecond.
const queueQuery = `
SELECT 'job_oldest', '', '', 0::bigint,
  (SELECT extract(epoch FROM now() - min(o.scheduled_at))::float8
   FROM (SELECT name FROM (SELECT name FROM river_queue LIMIT 100) rq UNION SELECT 'default') q
   CROSS JOIN generate_series(1, 4) p(priority)
   CROSS JOIN LATERAL (SELECT scheduled_at FROM river_job
     WHERE state = 'available' AND queue = q.name AND priority = p.priority
     ORDER BY scheduled_at LIMIT 1) o)
UNION ALL
SELECT 'webhooks', '', '',
  (SELECT count(*) FROM (SELECT 1 FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
     WHERE d.status = 'pending' AND e.deleted_at IS NULL AND (e.status = 'enabled' OR d.manual) LIMIT $1) w),
  (SELECT extract(epoch FROM now() - d.next_attempt_at)::float8
     FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
     WHERE d.status = 'pending' AND d.next_attempt_at <= now()
       AND e.deleted_at IS NULL AND (e.status = 'enabled' OR d.manual)
     ORDER BY d.next_attempt_at LIMIT 1)
UNION ALL
SELECT 'mail', '', '',
  (SELECT count(*) FROM (SELECT 1 FROM mail_messages WHERE status = 'pending' LIMIT $1) m),
  (SELECT extract(epoch FROM now() - next_attempt_at)::float8 FROM mail_messages
     WHERE status = 'pending' AND next_attempt_at <= now() ORDER BY next_attempt_at LIMIT 1)
UNION ALL
(SELECT 'job', kind, state::text, count(*), NULL::float8
 FROM (SELECT kind, state FROM river_job
       WHERE state IN ('available', 'scheduled', 'retryable', 'running') LIMIT $1) j
 GROUP BY kind, state LIMIT $2)`

// jobKey is one series of commerce_jobs_queued.
type jobKey struct{ kind, state string }

// backlog is one reading of the queues.
type backlog struct {
	jobs                    map[jobKey]float64
	oldestJob               float64
	webhooks, oldestWebhook float64
	emails, oldestEmail     float64
}

// Queues reports the backlogs of River's jobs, the webhook dispatcher and
// the mail outbox: commerce_jobs_queued{kind,state},
// commerce_jobs_oldest_available_age_seconds,
// commerce_webhook_deliveries_pending,
// commerce_webhook_oldest_pending_age_seconds, commerce_emails_pending and
// commerce_emails_oldest_pending_age_seconds. They are the database's,
// the same on every process (alert on their max across processes).
type Queues struct {
	pool *pgxpool.Pool
	log  *slog.Logger

	jobs, oldestJob, webhooks, oldestWebhook, emails, oldestEmail *prometheus.Desc

	// mu is held while a reading is made: scrapes that arrive meanwhile
	// wait for it and report it.
	mu   sync.Mutex
	at   time.Time // when last read (successfully or not)
	last *backlog  // nil: the last reading failed
	// seen are the job series reported before: one whose jobs are all gone
	// reads 0 rather than vanishing (at most maxJobSeries).
	seen map[jobKey]struct{}
}

// NewQueues is the collector of the backlogs, read from pool.
func NewQueues(pool *pgxpool.Pool, log *slog.Logger) *Queues {
	return &Queues{
		pool: pool, log: log, seen: map[jobKey]struct{}{},
		jobs: prometheus.NewDesc("commerce_jobs_queued",
			"River jobs not finished, by kind and state (available, scheduled, retryable, running).", []string{"kind", "state"}, nil),
		oldestJob: prometheus.NewDesc("commerce_jobs_oldest_available_age_seconds",
			"How long the oldest available River job has waited for a worker (0: none waits).", nil, nil),
		webhooks: prometheus.NewDesc("commerce_webhook_deliveries_pending",
			"Webhook deliveries pending to enabled endpoints: due, under way, or waiting for a retry.", nil, nil),
		oldestWebhook: prometheus.NewDesc("commerce_webhook_oldest_pending_age_seconds",
			"How long the most overdue pending webhook delivery has been due (0: none is due).", nil, nil),
		emails: prometheus.NewDesc("commerce_emails_pending",
			"Emails in the outbox not yet sent: due, under way, or waiting for a retry.", nil, nil),
		oldestEmail: prometheus.NewDesc("commerce_emails_oldest_pending_age_seconds",
			"How long the most overdue pending email has been due (0: none is due).", nil, nil),
	}
}

func (q *Queues) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{q.jobs, q.oldestJob, q.webhooks, q.oldestWebhook, q.emails, q.oldestEmail} {
		ch <- d
	}
}

// Collect reports the latest reading, made now when it is older than
// QueueCacheFor. When the reading fails the backlogs are left out (and the
// failure logged), never reported stale.
func (q *Queues) Collect(ch chan<- prometheus.Metric) {
	q.mu.Lock()
	if time.Since(q.at) >= QueueCacheFor {
		ctx, cancel := context.WithTimeout(context.Background(), queueTimeout)
		b, err := q.read(ctx)
		cancel()
		q.at, q.last = time.Now(), b
		if err != nil {
			q.log.Warn("metrics: reading the queues' backlogs failed; left out of this scrape", "error", err)
		}
	}
	b := q.last
	var zero []jobKey
	if b != nil {
		for k := range b.jobs {
			if _, ok := q.seen[k]; !ok && len(q.seen) < maxJobSeries {
				q.seen[k] = struct{}{}
			}
		}
		for k := range q.seen {
			if _, ok := b.jobs[k]; !ok {
				zero = append(zero, k)
			}
		}
	}
	q.mu.Unlock()
	if b == nil {
		return
	}
	g := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	for k, n := range b.jobs {
		g(q.jobs, n, k.kind, k.state)
	}
	for _, k := range zero {
		g(q.jobs, 0, k.kind, k.state)
	}
	g(q.oldestJob, b.oldestJob)
	g(q.webhooks, b.webhooks)
	g(q.oldestWebhook, b.oldestWebhook)
	g(q.emails, b.emails)
	g(q.oldestEmail, b.oldestEmail)
}

// read runs queueQuery.
func (q *Queues) read(ctx context.Context) (*backlog, error) {
	rows, err := q.pool.Query(ctx, queueQuery, CountCap, maxJobSeries)
	if err != nil {
		return nil, fmt.Errorf("read the backlogs: %w", err)
	}
	b := &backlog{jobs: map[jobKey]float64{}}
	var what, kind, state string
	var n int64
	var age *float64
	_, err = pgx.ForEachRow(rows, []any{&what, &kind, &state, &n, &age}, func() error {
		a := 0.0
		if age != nil && *age > 0 {
			a = *age
		}
		switch what {
		case "job":
			if len(b.jobs) < maxJobSeries {
				b.jobs[jobKey{kind, state}] = float64(n)
			}
		case "job_oldest":
			b.oldestJob = a
		case "webhooks":
			b.webhooks, b.oldestWebhook = float64(n), a
		case "mail":
			b.emails, b.oldestEmail = float64(n), a
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the backlogs: %w", err)
	}
	return b, nil
}
