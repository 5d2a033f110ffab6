package mail

import (
	"context"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/uptrace/bun"

	"commerce/db"
	"commerce/jobs"
)

// Retention of message bodies that carry secrets (issue 14, "data kept no
// longer than needed"):
//
//   - Passcode and download-link messages hold a one-time code or a download
//     URL in their bodies (the passcode also in its subject). Seven days after
//     delivery (sent_at: accepted by SMTP, or logged without SMTP) the bodies
//     are emptied and the passcode subject loses its code; the row stays with
//     its metadata (template, recipient, status, attempts, timestamps) for
//     support and the sandbox mailbox. A message that failed for good is
//     purged seven days after it was created.
//   - A pending message is never purged: its body is still to be sent.
//   - Seller order alerts carry no secret and are kept.
//   - PurgeArgs runs hourly (PurgePeriodicJob) and on start; each run is one
//     UPDATE, idempotent, so two processes running it at once is harmless.
const (
	// Retention is how long a delivered secret-bearing body is kept.
	Retention = 7 * 24 * time.Hour
	// purgeEvery is how often the purge job runs.
	purgeEvery = time.Hour
)

// purgedTemplates are the templates whose bodies hold secrets.
var purgedTemplates = []string{TemplatePasscode, TemplateDownloadLink}

// PurgeArgs is the periodic job that empties old secret-bearing bodies.
type PurgeArgs struct{}

// Kind names the job.
func (PurgeArgs) Kind() string { return "mail_purge" }

// PurgeWorker runs PurgeArgs.
type PurgeWorker struct {
	river.WorkerDefaults[PurgeArgs]
	DB *db.DB
	// Now is the clock; nil is time.Now.
	Now func() time.Time
}

// Register adds the purge worker to workers.
func (w *PurgeWorker) Register(workers *river.Workers) { river.AddWorker(workers, w) }

// Timeout bounds one run.
func (w *PurgeWorker) Timeout(*river.Job[PurgeArgs]) time.Duration { return time.Minute }

// Work purges the bodies delivered more than Retention ago.
func (w *PurgeWorker) Work(ctx context.Context, _ *river.Job[PurgeArgs]) error {
	now := time.Now
	if w.Now != nil {
		now = w.Now
	}
	_, err := Purge(ctx, w.DB, now().Add(-Retention))
	return err
}

// Purge empties the bodies of the secret-bearing messages delivered (or
// failed) before cutoff and returns how many it purged.
func Purge(ctx context.Context, d *db.DB, cutoff time.Time) (int64, error) {
	res, err := d.NewUpdate().Model((*Message)(nil)).
		Set("text_body = ''").
		Set("html_body = ''").
		Set("subject = CASE WHEN template = ? THEN 'Your passcode' ELSE subject END", TemplatePasscode).
		Where("template IN (?)", bun.List(purgedTemplates)).
		Where("(status IN (?) AND sent_at < ?) OR (status = ? AND created_at < ?)",
			bun.List([]string{StatusSent, StatusLogged}), cutoff, StatusFailed, cutoff).
		Where("(text_body <> '' OR html_body <> '')").
		Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("mail: purge bodies: %w", err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}

// PurgePeriodic enqueues PurgeArgs every purgeEvery (jobs.RunPeriodic).
func PurgePeriodic() jobs.Periodic {
	return jobs.Periodic{Name: PurgeArgs{}.Kind(), Every: purgeEvery,
		Job: func() (river.JobArgs, *river.InsertOpts) { return PurgeArgs{}, nil }}
}
