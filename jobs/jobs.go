// Package jobs runs the service's background work on River, in the same
// PostgreSQL as everything else: the client, its workers and periodic jobs,
// and job metrics. Domain packages add their workers through Register.
package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"

	"commerce/db"
	"commerce/storage"
)

// Client is the River client type of the service.
type Client = river.Client[pgx.Tx]

// Time limits of the jobs (crash recovery). A job a dead process left
// `running` is made retryable by River's rescuer once it has been running
// for RescueStuckJobsAfter; that must exceed the longest time any job can
// legitimately run, so every worker's Timeout (and what it does after its
// context ends) stays below it (TestTimeoutsBelowRescue). The rescuer runs
// on the leader every 30 s, and a dead leader's lease lasts 15 s, so a job
// left by a crash runs again at most about a minute after the crash.
const (
	// RescueStuckJobsAfter is how long a job may run before it is
	// considered abandoned by its process.
	RescueStuckJobsAfter = 30 * time.Second
	// DefaultJobTimeout bounds a job whose worker sets no Timeout.
	DefaultJobTimeout = 20 * time.Second
	// BlobsTimeout bounds one delete_blobs job (a few storage deletes;
	// what is left retries).
	BlobsTimeout = 20 * time.Second
	// CleanupTimeout bounds one round of a periodic cleanup; an
	// unfinished round continues on its retry or next period.
	CleanupTimeout = 20 * time.Second
)

// Options configure New.
type Options struct {
	// Work starts workers; without it the client only inserts jobs.
	Work bool
	// Workers is the number of concurrent jobs in the default queue.
	Workers int
	// FetchCooldown and FetchPollInterval tune job pickup latency.
	FetchCooldown     time.Duration
	FetchPollInterval time.Duration
	// AddWorkers registers the domain packages' workers (mail, webhooks, …).
	AddWorkers []func(*river.Workers)
	// Storage is the file store the blob jobs delete from.
	Storage *storage.Store
	// Middleware wraps every insert and every job's work (tracing:
	// otelriver's middleware; none when tracing is off).
	Middleware []rivertype.Middleware
}

// New builds the River client on DB.RiverPool, with every worker
// registered. Periodic work is not River's (its periodic jobs run only on
// the elected leader): see RunPeriodic.
func New(d *db.DB, log *slog.Logger, opts Options) (*Client, error) {
	workers := river.NewWorkers()
	river.AddWorker(workers, &idempotencyCleanupWorker{db: d})
	river.AddWorker(workers, &deleteBlobsWorker{store: opts.Storage})
	river.AddWorker(workers, &uploadCleanupWorker{db: d, store: opts.Storage})
	for _, add := range opts.AddWorkers {
		add(workers)
	}

	cfg := &river.Config{
		// The process's id in service_processes: RunLiveness rescues the
		// jobs of a client whose process stopped beating.
		ID:                   d.TakeProcessID(),
		Logger:               log.With("component", "river"),
		Workers:              workers,
		FetchCooldown:        opts.FetchCooldown,
		FetchPollInterval:    opts.FetchPollInterval,
		JobTimeout:           DefaultJobTimeout,
		RescueStuckJobsAfter: RescueStuckJobsAfter,
		Middleware:           opts.Middleware,
	}
	if opts.Work {
		n := opts.Workers
		if n <= 0 {
			n = 50
		}
		cfg.Queues = map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: n}}
	}
	// River works on the direct URL's pool (its notifier LISTENs, and the
	// elector and producer poll there); InsertTx writes on the caller's
	// transaction, whichever pool it came from.
	client, err := river.NewClient(riverpgxv5.New(d.RiverPool), cfg)
	if err != nil {
		return nil, fmt.Errorf("river client: %w", err)
	}
	return client, nil
}

// Observe counts finished jobs by kind and outcome from the client's events
// until ctx ends, and logs each failed attempt (River logs them at info):
// a warning when the job will run again, an error when it is discarded.
func Observe(ctx context.Context, client *Client, reg prometheus.Registerer, log *slog.Logger) {
	finished := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "commerce_jobs_finished_total", Help: "Background jobs finished, by kind and outcome.",
	}, []string{"kind", "outcome"})
	duration := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "commerce_job_duration_seconds", Help: "Background job run time, by kind.",
	}, []string{"kind"})
	reg.MustRegister(finished, duration)
	events, cancel := client.Subscribe(river.EventKindJobCompleted, river.EventKindJobFailed, river.EventKindJobCancelled)
	go func() {
		defer cancel()
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-events:
				if !ok {
					return
				}
				finished.WithLabelValues(ev.Job.Kind, string(ev.Kind)).Inc()
				if ev.Kind == river.EventKindJobFailed {
					logFailure(ctx, log, ev.Job)
				}
				if ev.JobStats != nil {
					duration.WithLabelValues(ev.Job.Kind).Observe(ev.JobStats.RunDuration.Seconds())
				}
			}
		}
	}()
}

// IdempotencyCleanupArgs is the periodic job that deletes expired idempotency keys.
type IdempotencyCleanupArgs struct{}

// Kind names the job.
func (IdempotencyCleanupArgs) Kind() string { return "idempotency_cleanup" }

type idempotencyCleanupWorker struct {
	river.WorkerDefaults[IdempotencyCleanupArgs]
	db *db.DB
}

// Timeout bounds one round (CleanupTimeout).
func (w *idempotencyCleanupWorker) Timeout(*river.Job[IdempotencyCleanupArgs]) time.Duration {
	return CleanupTimeout
}

// Timeout bounds one round (CleanupTimeout).
func (w *uploadCleanupWorker) Timeout(*river.Job[UploadCleanupArgs]) time.Duration {
	return CleanupTimeout
}

// Timeout bounds one job's deletes (BlobsTimeout).
func (w *deleteBlobsWorker) Timeout(*river.Job[DeleteBlobsArgs]) time.Duration { return BlobsTimeout }

func (w *idempotencyCleanupWorker) Work(ctx context.Context, job *river.Job[IdempotencyCleanupArgs]) error {
	for {
		n, err := w.db.DeleteExpiredIdempotencyKeys(ctx, 5000)
		if err != nil {
			return fmt.Errorf("delete expired idempotency keys: %w", err)
		}
		if n < 5000 {
			return nil
		}
	}
}

// logFailure logs a job's failed attempt with its last error.
func logFailure(ctx context.Context, log *slog.Logger, job *rivertype.JobRow) {
	msg, level := "job failed; it will run again", slog.LevelWarn
	if job.State == rivertype.JobStateDiscarded {
		msg, level = "job failed for the last time; discarded", slog.LevelError
	}
	var last string
	if n := len(job.Errors); n > 0 {
		last = job.Errors[n-1].Error
	}
	log.Log(ctx, level, msg, "kind", job.Kind, "job_id", job.ID, "attempt", job.Attempt, "error", last)
}

// Start starts the client's workers. The end of ctx does not stop them:
// River would cancel every running job's context at once (a mail half
// sent, a refund applied and then retried, a job left "running" until the
// rescuer finds it). Stop drains them instead.
func Start(ctx context.Context, client *Client) error {
	return client.Start(context.WithoutCancel(ctx))
}

// Stop stops fetching jobs and lets running ones finish until ctx ends;
// then it cancels those still running and waits for River to record them
// (they run again later, on this process or another), for at most
// hardStopWait.
func Stop(ctx context.Context, client *Client) error {
	err := client.Stop(ctx)
	if err == nil || ctx.Err() == nil {
		return err
	}
	hard, cancel := context.WithTimeout(context.WithoutCancel(ctx), hardStopWait)
	defer cancel()
	return errors.Join(err, client.StopAndCancel(hard))
}

// hardStopWait bounds how long Stop waits for cancelled jobs to return.
const hardStopWait = 5 * time.Second

// CompleteTx marks job completed inside tx, so that the job's work and its
// completion commit together. A job whose work is not idempotent (one that
// mails a fresh sign-in link, say) uses it: River records a job's outcome
// after Work returns, so a process killed between the work's commit and
// that record leaves the job `running`, and River's rescuer runs it again
// (a second email). Completed in the work's transaction, it is never run
// again; if the transaction fails, neither is recorded. Outside a River
// worker (a test or a tool calling Work) there is no job row to complete,
// and it does nothing.
func CompleteTx[T river.JobArgs](ctx context.Context, tx db.Tx, job *river.Job[T]) error {
	if _, err := river.ClientFromContextSafely[pgx.Tx](ctx); err != nil {
		return nil
	}
	if _, err := river.JobCompleteTx[*riverpgxv5.Driver](ctx, tx.River, job); err != nil {
		return fmt.Errorf("complete job %d in its transaction: %w", job.ID, err)
	}
	return nil
}
