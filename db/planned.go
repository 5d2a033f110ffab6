package db

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// PlannedQuery is a read that costs PostgreSQL far more to plan than to
// run: one row built from many correlated subqueries (the listing read
// plans in about 5 ms and runs in 0.1). Straight to PostgreSQL, pgx
// prepares it once per connection and the plan is kept. Behind a pooler in
// transaction mode without prepared statements (PgBouncer before 1.21)
// every statement is unnamed and PostgreSQL would plan it on every call;
// there DB.QueryRowPlanned runs it as a PL/pgSQL function instead, because
// PL/pgSQL keeps its statements' plans for the session and a pooler's
// server connections outlive its clients' transactions.
//
// Name (lower case letters and underscores) starts the function's name, so
// traces, logs and pg_stat_statements say which read a call is. SQL is the
// query, $1… its parameters. Declare each one once, at package level: the
// process installs its function on first use.
type PlannedQuery struct {
	Name string
	SQL  string
}

// plannedRetry is how long a process runs a query as plain SQL after its
// function could not be installed before it tries again.
const plannedRetry = time.Minute

// plannedState is one query's function in this process: the statement
// that calls it once installed, or when installing last failed.
type plannedState struct {
	call     atomic.Pointer[string]
	mu       sync.Mutex // installing
	failedAt time.Time
}

// QueryRowPlanned is Pool.QueryRow of q with args: the query itself when
// the pool prepares its statements, and behind a pooler the call of q's
// function, installed on first use. If the function cannot be installed
// (the role may not create functions, say) the query runs as it is, more
// slowly, and the failure is logged. If the function is gone (dropped, or
// no longer matching its columns' types after a migration), this read
// runs the query itself and the next one installs the function again.
func (d *DB) QueryRowPlanned(ctx context.Context, q *PlannedQuery, args ...any) pgx.Row {
	if !d.unnamed {
		return d.Pool.QueryRow(ctx, q.SQL, args...)
	}
	if s, call := d.plannedCall(ctx, q); call != "" {
		return plannedRow{Row: d.Pool.QueryRow(ctx, call, args...), d: d, state: s, ctx: ctx, q: q, args: args}
	}
	return d.Pool.QueryRow(ctx, q.SQL, args...)
}

// plannedRow is the row of a function's call.
type plannedRow struct {
	pgx.Row
	d     *DB
	state *plannedState
	ctx   context.Context
	q     *PlannedQuery
	args  []any
}

// Scan is the call's Scan; when the function is gone, the query's.
func (r plannedRow) Scan(dest ...any) error {
	err := r.Row.Scan(dest...)
	var pe *pgconn.PgError
	// undefined_function, datatype_mismatch
	if !errors.As(err, &pe) || (pe.Code != "42883" && pe.Code != "42804") {
		return err
	}
	r.state.call.Store(nil)
	slog.Warn("db: a planned query's function is gone; it is made again", "error", err)
	return r.d.Pool.QueryRow(r.ctx, r.q.SQL, r.args...).Scan(dest...)
}

// plannedCall is q's state in this process and the statement calling q's
// function, "" while it cannot be installed. Once installed, a load; the
// first calls wait for the install.
func (d *DB) plannedCall(ctx context.Context, q *PlannedQuery) (*plannedState, string) {
	v, ok := d.planned.Load(q)
	if !ok {
		v, _ = d.planned.LoadOrStore(q, &plannedState{})
	}
	s := v.(*plannedState)
	if call := s.call.Load(); call != nil {
		return s, *call
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if call := s.call.Load(); call != nil {
		return s, *call
	}
	if !s.failedAt.IsZero() && time.Since(s.failedAt) < plannedRetry {
		return s, ""
	}
	call, err := d.installPlanned(ctx, q)
	if err != nil {
		// A request that gave up leaves the install to the next one.
		if ctx.Err() == nil {
			s.failedAt = time.Now()
			slog.Warn("db: a planned query runs as plain SQL, planned on every call", "error", err)
		}
		return s, ""
	}
	s.call.Store(&call)
	return s, call
}

// plannedName is what a PlannedQuery's Name may be: with "planned_" and
// the hash, within PostgreSQL's 63 bytes of an identifier.
var plannedName = regexp.MustCompile(`^[a-z_]{1,30}$`)

// plannedTag quotes the functions' bodies.
const plannedTag = "$planned$"

// installPlanned creates q's function unless it exists and returns the
// statement that calls it. The function's name is a hash of the query, its
// parameters' types and its columns' types, so a changed query or a
// migration that changes a column's type gets a function of its own, and
// each build of the service calls the one its query describes (a rolling
// deploy runs two). Functions no build calls any more stay, a few
// kilobytes each.
func (d *DB) installPlanned(ctx context.Context, q *PlannedQuery) (string, error) {
	if strings.Contains(q.SQL, plannedTag) {
		return "", fmt.Errorf("planned query contains %s", plannedTag)
	}
	if !plannedName.MatchString(q.Name) {
		return "", fmt.Errorf("planned query's name %q is not lower case letters and underscores (at most 30)", q.Name)
	}
	var call string
	err := pgx.BeginFunc(ctx, d.Pool, func(tx pgx.Tx) error {
		// Describe (parse and analyse, no plan) the query, unnamed.
		sd, err := tx.Conn().PgConn().Prepare(ctx, "", q.SQL, nil)
		if err != nil {
			return fmt.Errorf("describe planned query: %w", err)
		}
		oids := make([]uint32, 0, len(sd.ParamOIDs)+len(sd.Fields))
		mods := make([]int32, 0, cap(oids))
		for _, p := range sd.ParamOIDs {
			oids, mods = append(oids, p), append(mods, -1)
		}
		for _, f := range sd.Fields {
			oids, mods = append(oids, f.DataTypeOID), append(mods, f.TypeModifier)
		}
		var types []string
		if err := tx.QueryRow(ctx, `SELECT coalesce(array_agg(format_type(t, nullif(m, -1)) ORDER BY n), '{}')
			FROM unnest($1::oid[], $2::int[]) WITH ORDINALITY AS u(t, m, n)`, oids, mods).Scan(&types); err != nil {
			return fmt.Errorf("planned query's types: %w", err)
		}
		params, columns := types[:len(sd.ParamOIDs)], types[len(sd.ParamOIDs):]
		sum := sha256.Sum256([]byte(q.SQL + "\x00" + strings.Join(params, ",") + "\x00" + strings.Join(columns, ",")))
		name := "planned_" + q.Name + "_" + hex.EncodeToString(sum[:10])
		placeholders := make([]string, len(params))
		for i := range params {
			placeholders[i] = fmt.Sprintf("$%d", i+1)
		}
		call = "SELECT * FROM " + name + "(" + strings.Join(placeholders, ", ") + ")"

		exists := func() (bool, error) {
			var ok bool
			err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_proc
				WHERE proname = $1 AND pronamespace = current_schema()::regnamespace)`, name).Scan(&ok)
			return ok, err
		}
		if ok, err := exists(); err != nil || ok {
			return err
		}
		// Two processes starting together: one creates, the other sees it.
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext($1))`, name); err != nil {
			return err
		}
		if ok, err := exists(); err != nil || ok {
			return err
		}
		cols := make([]string, len(columns))
		for i, c := range columns {
			cols[i] = fmt.Sprintf("c%d %s", i+1, c)
		}
		// use_column: the result columns (c1…) are variables too; a
		// column of the query's tables by the same name wins.
		ddl := "CREATE FUNCTION " + name + "(" + strings.Join(params, ", ") + ") RETURNS TABLE (" +
			strings.Join(cols, ", ") + ") LANGUAGE plpgsql STABLE AS " + plannedTag +
			"\n#variable_conflict use_column\nBEGIN\nRETURN QUERY " + q.SQL + "\n;\nEND\n" + plannedTag
		if _, err := tx.Exec(ctx, ddl); err != nil {
			return fmt.Errorf("create planned query's function: %w", err)
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("install planned query: %w", err)
	}
	return call, nil
}
