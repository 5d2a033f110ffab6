package main

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"commerce/ratelimit"
)

// baselineLimitedName is the scenario the authenticated reads are held to.
const baselineLimitedName = "baseline-limited"

// rateLimitScale is the RATE_LIMIT_SCALE scripts/bench.sh starts the
// service with: every limit is checked, none refuses.
const rateLimitScale = 1_000_000

// limitedGroup is the rate-limit group of GET /v1/account and
// GET /v1/api-keys (rest/routes.go).
const limitedGroup = "default"

// setupBaselineLimited is the baseline plus the Redis round trip an
// authenticated GET of the service makes for a key served from its
// authentication cache: the ratelimit package's CheckKey (the window script
// and the revocation markers' EXISTS, pipelined: one round trip) on a Redis
// client set up as the service's, for one subject shared by every worker
// (as the bench's one API key is), with the service's rate-limit scale (so
// the window's sorted set holds a minute of requests, as the service's
// does). As rest/ratelimit.go does for a read, the check runs while the
// handler's SELECT does and the response waits for both. What this scenario
// does not do is what the service may still shave: routing, logging,
// metrics, the authentication cache's lookup and the JSON of a real model.
func setupBaselineLimited(ctx context.Context, e *env) (opFactory, func(), error) {
	e.limited = &ratelimitRun{}
	rdb, err := newServiceRedis(ctx, e.cfg, e.limited)
	if err != nil {
		return nil, nil, err
	}
	pool, err := openBaselinePool(ctx, e.cfg.databaseURL, e.cfg.concurrency)
	if err != nil {
		_ = rdb.Close()
		return nil, nil, err
	}
	if err := seedBaseline(ctx, pool); err != nil {
		pool.Close()
		_ = rdb.Close()
		return nil, nil, err
	}
	g, ok := ratelimit.Lookup(limitedGroup)
	if !ok {
		pool.Close()
		_ = rdb.Close()
		return nil, nil, fmt.Errorf("rate-limit group %q not in the table", limitedGroup)
	}
	// The run's own prefix keeps its keys (they expire after a minute)
	// apart from the service's.
	lim := ratelimit.New(rdb, "bench:"+strconv.FormatInt(time.Now().UnixNano(), 36)+":", ratelimit.Scale(rateLimitScale))
	accountID, keyID := randomUUID(), randomUUID()
	h := limitedHandler(pool, lim, g, "key:"+keyID, accountID, keyID, e.limited)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		pool.Close()
		_ = rdb.Close()
		return nil, nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()

	newOp, closeConns := httpOps(http.MethodGet, "http://"+ln.Addr().String()+"/", "", e.cfg.concurrency)
	cleanup := func() {
		closeConns()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		_, _ = pool.Exec(sctx, "DROP TABLE IF EXISTS bench_baseline")
		pool.Close()
		_ = rdb.Close()
	}
	return newOp, cleanup, nil
}

// limitedHandler is baselineHandler with the service's check of a cached
// key in flight during the SELECT: a check that refuses, finds a marker or
// cannot reach Redis fails the request (the service would fail open; a
// benchmark that skipped the round trip would measure nothing).
func limitedHandler(pool *pgxpool.Pool, lim *ratelimit.Limiter, g ratelimit.Group,
	subject, accountID, keyID string, run *ratelimitRun,
) http.Handler {
	type checked struct {
		kc  ratelimit.KeyCheck
		err error
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		done := make(chan checked, 1)
		go func() {
			run.checks.Add(1)
			kc, err := lim.CheckKey(ctx, g, subject, accountID, keyID)
			done <- checked{kc, err}
		}()
		row := baselineRow{ID: 1 + rand.IntN(baselineRows)}
		err := pool.QueryRow(ctx, "SELECT v FROM bench_baseline WHERE id = $1", row.ID).Scan(&row.V)
		c := <-done
		switch {
		case err != nil:
		case c.err != nil:
			err = c.err
		case c.kc.MarkerErr != nil:
			err = c.kc.MarkerErr
		case c.kc.Revoked:
			err = errors.New("revocation marker found")
		case !c.kc.Allowed:
			err = errRefused
		}
		if err != nil {
			status := http.StatusInternalServerError
			if errors.Is(err, context.Canceled) {
				status = http.StatusServiceUnavailable
			}
			http.Error(w, err.Error(), status)
			return
		}
		// The headers every limited response carries (rest.SetLimitHeaders).
		hd := w.Header()
		hd.Set("RateLimit-Limit", strconv.Itoa(c.kc.Limit))
		hd.Set("RateLimit-Remaining", strconv.Itoa(c.kc.Remaining))
		hd.Set("RateLimit-Reset", strconv.Itoa(max(1, int((c.kc.Reset+time.Second-1)/time.Second))))
		writeBaselineRow(w, row)
	})
}

// randomUUID is a random version-4 UUID in its text form, as the service's
// account and key ids are.
func randomUUID() string {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], rand.Uint64())
	binary.BigEndian.PutUint64(b[8:], rand.Uint64())
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// checkBaselineLimited: one Redis round trip per request, as the service's
// authenticated GET makes.
func checkBaselineLimited(_ context.Context, e *env, _ *result) verdict {
	return roundTrips(e.limited, "round trips per request")
}
