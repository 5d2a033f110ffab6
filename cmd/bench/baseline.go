package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// baselineRows is how many rows bench_baseline holds.
const baselineRows = 1000

// setupBaseline starts, inside bench, a minimal net/http server on
// 127.0.0.1 whose one handler runs one primary-key SELECT through a pgx pool
// (on the service's database, table bench_baseline) and writes a small JSON
// body: what a request costs without any of the service's work.
func setupBaseline(ctx context.Context, e *env) (opFactory, func(), error) {
	pool, err := openBaselinePool(ctx, e.cfg.databaseURL, e.cfg.concurrency)
	if err != nil {
		return nil, nil, err
	}
	if err := seedBaseline(ctx, pool); err != nil {
		pool.Close()
		return nil, nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		pool.Close()
		return nil, nil, err
	}
	srv := &http.Server{Handler: baselineHandler(pool), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()

	newOp, closeConns := httpOps(http.MethodGet, "http://"+ln.Addr().String()+"/", "", e.cfg.concurrency)
	cleanup := func() {
		closeConns()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		_, _ = pool.Exec(sctx, "DROP TABLE IF EXISTS bench_baseline")
		pool.Close()
	}
	return newOp, cleanup, nil
}

// openBaselinePool opens a pgx pool with a connection per worker.
func openBaselinePool(ctx context.Context, url string, conns int) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("parse database URL: %w", err)
	}
	cfg.MaxConns = int32(min(conns, 1<<20))
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	return pool, nil
}

// seedBaseline creates bench_baseline with baselineRows rows.
func seedBaseline(ctx context.Context, pool *pgxpool.Pool) error {
	_, err := pool.Exec(ctx, `CREATE TABLE IF NOT EXISTS bench_baseline (id int PRIMARY KEY, v text NOT NULL)`)
	if err == nil {
		_, err = pool.Exec(ctx, `INSERT INTO bench_baseline (id, v)
			SELECT i, md5(i::text) FROM generate_series(1, $1) AS i ON CONFLICT (id) DO NOTHING`, baselineRows)
	}
	if err == nil {
		_, err = pool.Exec(ctx, `ANALYZE bench_baseline`)
	}
	if err != nil {
		return fmt.Errorf("create bench_baseline: %w", err)
	}
	return nil
}

// baselineRow is the baseline's response body.
type baselineRow struct {
	ID int    `json:"id"`
	V  string `json:"v"`
}

// baselineHandler answers every request with a random row of bench_baseline.
func baselineHandler(pool *pgxpool.Pool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		row := baselineRow{ID: 1 + rand.IntN(baselineRows)}
		err := pool.QueryRow(r.Context(), "SELECT v FROM bench_baseline WHERE id = $1", row.ID).Scan(&row.V)
		if err != nil {
			status := http.StatusInternalServerError
			if errors.Is(err, context.Canceled) {
				status = http.StatusServiceUnavailable
			}
			http.Error(w, err.Error(), status)
			return
		}
		writeBaselineRow(w, row)
	})
}

// writeBaselineRow writes row as the baseline's JSON body.
func writeBaselineRow(w http.ResponseWriter, row baselineRow) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(row)
}
