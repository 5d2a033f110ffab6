// Package db owns the PostgreSQL side of the service: the connection pool
// shared by bun and River, row structs, queries more than one resolver needs,
// the embedded migrations and the one transaction helper.
package db

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/multitracer"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
)

// DB is the service's database handle: bun for queries, and the pgx pool it
// runs on, which River shares.
type DB struct {
	*bun.DB
	Pool *pgxpool.Pool
	// RiverPool is the pool River's client does its own work on (fetching,
	// completing, electing, its notifier's LISTEN): a pool of the direct
	// URL, or Pool itself when the direct URL is the same. Jobs inserted
	// by InsertTx go in the request's transaction, on Pool.
	RiverPool *pgxpool.Pool

	queries  *queryCounter
	listener *Listener
	process  *processState
	// unnamed: the pool's statements are not prepared and kept (a
	// pooler's URL, or the URL's own default_query_exec_mode).
	unnamed bool
	// planned holds each PlannedQuery's function (*plannedState), behind
	// a pooler.
	planned sync.Map
}

// queryCounter counts the statements sent on the pool's connections (bun's
// and River's included): tests prove query budgets with it.
type queryCounter struct {
	n, prepares atomic.Int64
	// watch, when set, sees the SQL of every counted statement (tests).
	watch atomic.Pointer[func(sql string)]
}

func (c *queryCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	if ctx.Value(untracedKey{}) == nil {
		c.n.Add(1)
		if w := c.watch.Load(); w != nil {
			(*w)(d.SQL)
		}
	}
	return ctx
}

// untracedKey marks the statements Queries does not count: the process's
// own upkeep (Heartbeat), which would otherwise land inside a test's
// measured request now and then.
type untracedKey struct{}

func untraced(ctx context.Context) context.Context {
	return context.WithValue(ctx, untracedKey{}, true)
}

func (c *queryCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func (c *queryCounter) TracePrepareStart(ctx context.Context, _ *pgx.Conn, _ pgx.TracePrepareStartData) context.Context {
	if ctx.Value(untracedKey{}) == nil {
		c.prepares.Add(1)
	}
	return ctx
}

func (c *queryCounter) TracePrepareEnd(context.Context, *pgx.Conn, pgx.TracePrepareEndData) {}

// Queries is how many statements the pool has sent since it opened.
func (d *DB) Queries() int64 { return d.queries.n.Load() }

// WatchStatements calls fn with the SQL of every statement counted by
// Queries until stop is called (tests: which query a path took). fn must
// be safe for concurrent use.
func (d *DB) WatchStatements(fn func(sql string)) (stop func()) {
	d.queries.watch.Store(&fn)
	return func() { d.queries.watch.Store(nil) }
}

// Prepares is how many statements the pool has prepared since it opened.
func (d *DB) Prepares() int64 { return d.queries.prepares.Load() }

// defaultMaxConns sizes the pool when DATABASE_URL does not
// (pool_max_conns=N). River's workers take a few.
const defaultMaxConns = 20

// defaultRiverMaxConns sizes River's pool of the direct URL when that URL
// does not (its producer, completer, elector and maintenance; its
// connections open when used, so a process that only inserts jobs opens
// none).
const defaultRiverMaxConns = 10

// Open connects to PostgreSQL at url and checks that it answers; the
// process listens (DB.Listen) and River works on url too.
func Open(ctx context.Context, url string, opts ...Option) (*DB, error) {
	return OpenDirect(ctx, url, url, opts...)
}

// Option adjusts how OpenDirect builds the pools.
type Option func(*options)

type options struct{ tracer pgx.QueryTracer }

// WithTracer adds t to both pools' connections (tracing: an OpenTelemetry
// tracer for pgx), beside the statement counter. Without it the pools'
// connections carry the counter alone.
func WithTracer(t pgx.QueryTracer) Option { return func(o *options) { o.tracer = t } }

// OpenDirect is Open for a url that goes through a pooler in transaction
// mode (PgBouncer) when directURL differs: what needs a session of its own,
// the listening connection and River's client, uses directURL
// (DATABASE_DIRECT_URL), and url's pool prepares no named statement (pgx's
// cache_describe mode, unless url sets default_query_exec_mode).
func OpenDirect(ctx context.Context, url, directURL string, opts ...Option) (*DB, error) {
	var o options
	for _, fn := range opts {
		fn(&o)
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("parse DATABASE_URL: %w", err)
	}
	dcfg, err := pgxpool.ParseConfig(directURL)
	if err != nil {
		return nil, fmt.Errorf("parse DATABASE_DIRECT_URL: %w", err)
	}
	if !strings.Contains(url, "pool_max_conns") {
		cfg.MaxConns = defaultMaxConns
	}
	if directURL != url && !strings.Contains(url, "default_query_exec_mode") {
		// Behind a pooler in transaction mode, which has no named
		// prepared statements (PgBouncer 1.18): pgx's statements are
		// unnamed, their descriptions cached (one round trip, as a
		// cached prepared statement takes). The URL's own choice wins.
		cfg.ConnConfig.DefaultQueryExecMode = pgx.QueryExecModeCacheDescribe
	}
	cfg.MaxConnIdleTime = 5 * time.Minute
	counter := &queryCounter{}
	cfg.ConnConfig.Tracer = counter
	if o.tracer != nil {
		cfg.ConnConfig.Tracer = multitracer.New(counter, o.tracer)
		dcfg.ConnConfig.Tracer = o.tracer
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open pool: %w", err)
	}
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := pool.Ping(pctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	d := &DB{Pool: pool, RiverPool: pool, queries: counter, listener: newListener(dcfg.ConnConfig),
		unnamed: cfg.ConnConfig.DefaultQueryExecMode != pgx.QueryExecModeCacheStatement}
	if directURL != url {
		if !strings.Contains(directURL, "pool_max_conns") {
			dcfg.MaxConns = defaultRiverMaxConns
		}
		dcfg.MaxConnIdleTime = 5 * time.Minute
		// Lazily connected: a process that only inserts jobs never uses it.
		if d.RiverPool, err = pgxpool.NewWithConfig(ctx, dcfg); err != nil {
			pool.Close()
			return nil, fmt.Errorf("open direct pool: %w", err)
		}
	}
	sqldb := sql.OpenDB(simpleConnector{stdlib.GetPoolConnector(pool)})
	d.DB = bun.NewDB(sqldb, pgdialect.New())
	d.process = newProcessState()
	return d, nil
}

// simpleConnector hands database/sql (bun) connections of the pool whose
// queries go in the simple protocol. bun interpolates its arguments, so
// almost every bun query is a text of its own: in the extended protocol,
// pgx's statement cache would prepare each (a round trip more, and a
// server-side statement evicting the cached ones). pgx's own queries on
// the pool keep the cache.
type simpleConnector struct{ driver.Connector }

func (c simpleConnector) Connect(ctx context.Context) (driver.Conn, error) {
	dc, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	sc, ok := dc.(*stdlib.Conn)
	if !ok {
		_ = dc.Close()
		return nil, fmt.Errorf("unexpected driver connection %T", dc)
	}
	return simpleConn{sc}, nil
}

// simpleConn is a stdlib connection whose QueryContext asks pgx for the
// simple protocol (pgx reads a QueryExecMode among the leading arguments).
type simpleConn struct{ *stdlib.Conn }

func (c simpleConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	all := make([]driver.NamedValue, 0, len(args)+1)
	all = append(all, driver.NamedValue{Ordinal: 1, Value: pgx.QueryExecModeSimpleProtocol})
	for _, a := range args {
		a.Ordinal++
		all = append(all, a)
	}
	return c.Conn.QueryContext(ctx, query, all)
}

// Close stops listening and closes bun's handle and the pools.
func (d *DB) Close() {
	d.listener.close()
	_ = d.DB.Close()
	if d.RiverPool != d.Pool {
		d.RiverPool.Close()
	}
	d.Pool.Close()
}

// Tx is one PostgreSQL transaction seen by bun (the embedded bun.Tx) and by
// River (River, to pass to Client.InsertTx). Both run on the same connection,
// so rows and jobs commit or roll back together.
type Tx struct {
	bun.Tx
	River pgx.Tx
}

// InTx runs fn in a transaction. It commits when fn returns nil and rolls back
// otherwise (or when fn panics, re-panicking afterwards). This is the only
// place that knows how bun and River share a transaction: database/sql owns
// it, and River gets the very pgx connection it runs on, wrapped so that
// River's own Begin becomes a savepoint.
func (d *DB) InTx(ctx context.Context, fn func(ctx context.Context, tx Tx) error) (err error) {
	conn, err := d.DB.Conn(ctx)
	if err != nil {
		return fmt.Errorf("acquire connection: %w", err)
	}
	defer conn.Close()
	// Not ctx itself: database/sql would roll back from a goroutine of its
	// own when ctx ends, on the connection that fn's River statements may be
	// using at that moment (pinnedTx bypasses database/sql's lock). fn's
	// statements still stop with ctx; the rollback then happens here.
	btx, err := conn.BeginTx(context.WithoutCancel(ctx), nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	var pc *pgx.Conn
	if err := conn.Raw(func(dc any) error {
		c, ok := dc.(simpleConn)
		if !ok {
			return fmt.Errorf("unexpected driver connection %T", dc)
		}
		pc = c.Conn.Conn()
		return nil
	}); err != nil {
		_ = btx.Rollback()
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			_ = btx.Rollback()
			panic(r)
		}
	}()
	if err := fn(ctx, Tx{Tx: btx, River: &pinnedTx{conn: pc}}); err != nil {
		if rbErr := btx.Rollback(); rbErr != nil && !errors.Is(rbErr, sql.ErrTxDone) {
			return errors.Join(err, fmt.Errorf("rollback: %w", rbErr))
		}
		return err
	}
	if err := btx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// InTxRetry is InTx for a transaction that PostgreSQL may abort to break
// a deadlock (40P01) or a serialization conflict (40001): it runs fn again,
// up to txAttempts times in all, after a short random pause. fn must have no
// effect outside the transaction (no processor call, no mail, no change to
// a value it does not build again), because it may run more than once. The
// processor's events are applied this way: two events of one order, or a
// refund beside a renewal, lock the same rows in different orders.
func (d *DB) InTxRetry(ctx context.Context, fn func(ctx context.Context, tx Tx) error) error {
	for attempt := 1; ; attempt++ {
		err := d.InTx(ctx, fn)
		if err == nil || attempt == txAttempts || !Retryable(err) {
			return err
		}
		pause := time.Duration(5+rand.IntN(20*attempt)) * time.Millisecond
		select {
		case <-ctx.Done():
			return err
		case <-time.After(pause):
		}
	}
}

// txAttempts bounds InTxRetry's runs of one transaction.
const txAttempts = 4

// Retryable says whether err is PostgreSQL aborting a transaction that
// would succeed if run again: deadlock_detected or serialization_failure.
func Retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40P01" || pe.Code == "40001")
}

type pgxTx = pgx.Tx

var errNoRows = sql.ErrNoRows
