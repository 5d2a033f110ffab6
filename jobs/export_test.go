package jobs

import (
	"time"

	"github.com/riverqueue/river"
)

// WorkerTimeouts are the Timeouts of the package's own workers, by kind.
func WorkerTimeouts() map[string]time.Duration {
	return map[string]time.Duration{
		IdempotencyCleanupArgs{}.Kind(): (&idempotencyCleanupWorker{}).Timeout(&river.Job[IdempotencyCleanupArgs]{}),
		UploadCleanupArgs{}.Kind():      (&uploadCleanupWorker{}).Timeout(&river.Job[UploadCleanupArgs]{}),
		DeleteBlobsArgs{}.Kind():        (&deleteBlobsWorker{}).Timeout(&river.Job[DeleteBlobsArgs]{}),
	}
}
