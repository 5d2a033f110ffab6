package db

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// pinnedTx presents a connection that is inside a transaction opened by
// database/sql as a pgx.Tx, so River's InsertTx writes on that transaction.
// Begin opens a savepoint; Commit and Rollback of the outermost level are
// refused because InTx owns the transaction.
type pinnedTx struct {
	conn  *pgx.Conn
	depth int // 0: the outer transaction; >0: a savepoint
}

var errOwned = errors.New("db: the transaction is owned by db.InTx; return from the callback instead")

func (t *pinnedTx) Begin(ctx context.Context) (pgx.Tx, error) {
	n := t.depth + 1
	if _, err := t.conn.Exec(ctx, fmt.Sprintf("SAVEPOINT sp_%d", n)); err != nil {
		return nil, err
	}
	return &pinnedTx{conn: t.conn, depth: n}, nil
}

func (t *pinnedTx) Commit(ctx context.Context) error {
	if t.depth == 0 {
		return errOwned
	}
	_, err := t.conn.Exec(ctx, fmt.Sprintf("RELEASE SAVEPOINT sp_%d", t.depth))
	return err
}

func (t *pinnedTx) Rollback(ctx context.Context) error {
	if t.depth == 0 {
		return errOwned
	}
	_, err := t.conn.Exec(ctx, fmt.Sprintf("ROLLBACK TO SAVEPOINT sp_%d", t.depth))
	return err
}

func (t *pinnedTx) CopyFrom(ctx context.Context, tableName pgx.Identifier, columnNames []string, rowSrc pgx.CopyFromSource) (int64, error) {
	return t.conn.CopyFrom(ctx, tableName, columnNames, rowSrc)
}

func (t *pinnedTx) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	return t.conn.SendBatch(ctx, b)
}

func (t *pinnedTx) LargeObjects() pgx.LargeObjects { return pgx.LargeObjects{} }

func (t *pinnedTx) Prepare(ctx context.Context, name, sql string) (*pgconn.StatementDescription, error) {
	return t.conn.Prepare(ctx, name, sql)
}

func (t *pinnedTx) Exec(ctx context.Context, sql string, arguments ...any) (pgconn.CommandTag, error) {
	return t.conn.Exec(ctx, sql, arguments...)
}

func (t *pinnedTx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	return t.conn.Query(ctx, sql, args...)
}

func (t *pinnedTx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return t.conn.QueryRow(ctx, sql, args...)
}

func (t *pinnedTx) Conn() *pgx.Conn { return t.conn }
