package mail

import (
	"context"
	"time"

	"github.com/riverqueue/river"
)

// SendArgs is the River job that delivered one stored message before the
// Dispatcher took messages straight from the table. Nothing inserts it any
// more; jobs an earlier version enqueued (or still enqueues, during a
// rolling deploy) complete without sending: their messages are pending
// records, due at once, which the dispatchers deliver.
type SendArgs struct {
	MessageID string `json:"message_id"`
}

// Kind names the job.
func (SendArgs) Kind() string { return "mail_send" }

// SendWorker completes the mail_send jobs of earlier versions.
type SendWorker struct {
	river.WorkerDefaults[SendArgs]
}

// Register adds the worker to River's workers (jobs.Options.AddWorkers).
func (w *SendWorker) Register(workers *river.Workers) { river.AddWorker(workers, w) }

// Timeout bounds one job: it does nothing.
func (w *SendWorker) Timeout(*river.Job[SendArgs]) time.Duration { return 5 * time.Second }

// Work does nothing: the message is the dispatchers'.
func (w *SendWorker) Work(context.Context, *river.Job[SendArgs]) error { return nil }
