package db_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/testkit"
)

// A transaction's context ending while fn runs a statement through tx.River
// (a River insert; the job's own connection) stops that statement, and
// nothing else touches the connection meanwhile: database/sql's own
// rollback on a cancelled context would close it from another goroutine
// (a data race under -race, and a job failing at shutdown). The pool goes
// on working.
func TestInTxCancelledDuringRiverStatement(t *testing.T) {
	t.Parallel()
	d := open(t, testkit.DatabaseURL)
	for i := 0; i < 5; i++ {
		ctx, cancel := context.WithCancel(context.Background())
		err := d.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
			time.AfterFunc(30*time.Millisecond, cancel)
			_, err := tx.River.Exec(ctx, "SELECT pg_sleep(2)")
			return err
		})
		cancel()
		require.Error(t, err)
	}
	var one int
	require.NoError(t, d.Pool.QueryRow(context.Background(), "SELECT 1").Scan(&one))
	require.Equal(t, 1, one)
}
