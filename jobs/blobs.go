package jobs

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"commerce/db"
	"commerce/storage"
)

// DeleteBlobsArgs deletes stored content once the transaction that stopped
// referencing it has committed (a listing deleted, deliverables replaced, an
// upload attached and copied to its permanent key). Inserted in that
// transaction, it runs only if the transaction commits, and retries until
// storage answers.
type DeleteBlobsArgs struct {
	Keys []string `json:"keys"`
}

// Kind names the job.
func (DeleteBlobsArgs) Kind() string { return "delete_blobs" }

// InsertOpts retries for a day.
func (DeleteBlobsArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{MaxAttempts: 25} }

type deleteBlobsWorker struct {
	river.WorkerDefaults[DeleteBlobsArgs]
	store *storage.Store
}

// Work deletes the valid keys. An invalid key (storage.ValidateKey: empty,
// absolute or relative) is never handed to the store, where the empty key
// names the file store's own directory; once the valid keys are gone, the
// job is cancelled naming it, since no retry could succeed.
func (w *deleteBlobsWorker) Work(ctx context.Context, job *river.Job[DeleteBlobsArgs]) error {
	var invalid []error
	for _, k := range job.Args.Keys {
		if err := storage.ValidateKey(k); err != nil {
			invalid = append(invalid, err)
			continue
		}
		if err := w.store.Delete(ctx, k); err != nil {
			return fmt.Errorf("delete %s: %w", k, err)
		}
	}
	if len(invalid) > 0 {
		return river.JobCancel(errors.Join(invalid...))
	}
	return nil
}

// UploadCleanupArgs is the periodic job that deletes expired, unused uploads
// (their rows and their content).
type UploadCleanupArgs struct{}

// Kind names the job.
func (UploadCleanupArgs) Kind() string { return "upload_cleanup" }

type uploadCleanupWorker struct {
	river.WorkerDefaults[UploadCleanupArgs]
	db    *db.DB
	store *storage.Store
}

// uploadCleanupBatch bounds one round of the cleanup.
const uploadCleanupBatch = 500

func (w *uploadCleanupWorker) Work(ctx context.Context, job *river.Job[UploadCleanupArgs]) error {
	for {
		var files []db.File
		err := w.db.NewSelect().Model(&files).Column("token", "storage_key").
			Where("used_at IS NULL").Where("expires_at < now()").
			OrderExpr("expires_at").Limit(uploadCleanupBatch).Scan(ctx)
		if err != nil {
			return fmt.Errorf("find expired uploads: %w", err)
		}
		for _, f := range files {
			if err := w.store.Delete(ctx, f.StorageKey); err != nil {
				return fmt.Errorf("delete upload %s: %w", f.Token, err)
			}
			// Only while still unused: a token attached meanwhile keeps its row.
			if _, err := w.db.NewDelete().Model((*db.File)(nil)).Where("token = ?", f.Token).
				Where("used_at IS NULL").Exec(ctx); err != nil {
				return fmt.Errorf("delete upload row %s: %w", f.Token, err)
			}
		}
		if len(files) < uploadCleanupBatch {
			return nil
		}
	}
}

// uploadCleanupEvery is how often expired uploads are looked for.
const uploadCleanupEvery = 15 * time.Minute
