package jobs_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/jobs"
	"commerce/storage"
	"commerce/testkit"
)

// The upload cleanup job deletes expired unused uploads (row and content)
// and keeps live and attached ones; the blob deletion job deletes keys.
func TestUploadCleanupAndBlobDeletion(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers())
	acc := env.NewAccount()
	ctx := context.Background()
	store := env.Server.Resolver.Storage
	pdf := []byte("%PDF-1.4\n%%EOF\n")
	rule, _ := storage.RuleFor(storage.PurposeDeliverable)
	put := func(token, expires string, used bool) {
		key := "uploads/" + token
		_, err := store.PutUpload(ctx, key, bytes.NewReader(pdf), "application/pdf", "a.pdf", rule)
		require.NoError(t, err)
		_, err = env.Server.DB.Pool.Exec(ctx, `INSERT INTO files (token, account_id, purpose, filename, size, content_type, storage_key, expires_at, used_at)
			VALUES ($1, $2, 'deliverable', 'a.pdf', 15, 'application/pdf', $3, now() + $4::interval, CASE WHEN $5 THEN now() END)`,
			token, acc.ID, key, expires, used)
		require.NoError(t, err)
	}
	suffix := testkit.Unique()
	put("file_expired"+suffix, "-1 minute", false)
	put("file_live"+suffix, "1 hour", false)
	put("file_used"+suffix, "-1 minute", true)

	_, err := env.Server.Jobs.Insert(ctx, jobs.UploadCleanupArgs{}, nil)
	require.NoError(t, err)
	exists := func(token string) bool {
		ok, err := store.Exists(ctx, "uploads/"+token)
		require.NoError(t, err)
		return ok
	}
	// The job deletes the content, then the row: both are waited for.
	rows := func() int {
		var n int
		require.NoError(t, env.Server.DB.Pool.QueryRow(ctx, "SELECT count(*) FROM files WHERE token LIKE $1", "%"+suffix).Scan(&n))
		return n
	}
	require.Eventually(t, func() bool { return !exists("file_expired"+suffix) && rows() == 2 }, 10*time.Second, 50*time.Millisecond,
		"the expired unused upload and its row are gone")
	require.Equal(t, 2, rows(), "the others stay")
	require.True(t, exists("file_live"+suffix))
	require.True(t, exists("file_used"+suffix))

	_, err = env.Server.Jobs.Insert(ctx, jobs.DeleteBlobsArgs{Keys: []string{"uploads/file_live" + suffix, "uploads/missing"}}, nil)
	require.NoError(t, err)
	require.Eventually(t, func() bool { return !exists("file_live" + suffix) }, 10*time.Second, 50*time.Millisecond)
}

// A blob deletion job never hands an invalid key to the store (the empty
// key is the file store's own directory): it deletes the valid keys, then
// is cancelled, since no retry could succeed.
func TestBlobDeletionRefusesInvalidKeys(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers())
	ctx := context.Background()
	store := env.Server.Resolver.Storage
	rule, _ := storage.RuleFor(storage.PurposeDeliverable)
	key := "uploads/file_valid" + testkit.Unique()
	_, err := store.PutUpload(ctx, key, bytes.NewReader([]byte("%PDF-1.4\n%%EOF\n")), "application/pdf", "a.pdf", rule)
	require.NoError(t, err)

	res, err := env.Server.Jobs.Insert(ctx, jobs.DeleteBlobsArgs{Keys: []string{"", key, "../outside", "/etc/hostname"}}, nil)
	require.NoError(t, err)
	var state string
	require.Eventually(t, func() bool {
		require.NoError(t, env.Server.DB.Pool.QueryRow(ctx, "SELECT state FROM river_job WHERE id = $1", res.Job.ID).Scan(&state))
		return state != "available" && state != "running"
	}, 10*time.Second, 50*time.Millisecond)
	require.Equal(t, "cancelled", state)
	ok, err := store.Exists(ctx, key)
	require.NoError(t, err)
	require.False(t, ok, "the valid key is deleted")
}
