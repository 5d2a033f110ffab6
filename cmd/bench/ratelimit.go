package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"commerce/ratelimit"
)

// errRefused is a check the limiter refused: none should be.
var errRefused = errors.New("refused by the limiter")

// setupRatelimit measures the rate limiter alone against Redis: each
// operation is Allow in the "default" group for a subject never used
// before, so that nothing is refused and every check does the full work
// (trim, count, add, expire). The Redis client is set up as the service's.
func setupRatelimit(ctx context.Context, e *env) (opFactory, func(), error) {
	opts, err := redis.ParseURL(e.cfg.redisURL)
	if err != nil {
		return nil, nil, fmt.Errorf("parse Redis URL: %w", err)
	}
	opts.DialTimeout = 500 * time.Millisecond
	opts.ReadTimeout = 500 * time.Millisecond
	opts.WriteTimeout = 500 * time.Millisecond
	opts.MaxRetries = 1
	opts.PoolSize = max(64, e.cfg.concurrency)
	rdb := redis.NewClient(opts)
	if err := rdb.Ping(ctx).Err(); err != nil {
		_ = rdb.Close()
		return nil, nil, fmt.Errorf("connect to Redis: %w", err)
	}
	// The run's own prefix keeps its keys (they expire after a minute) apart.
	lim := ratelimit.New(rdb, "bench:"+strconv.FormatInt(time.Now().UnixNano(), 36)+":")
	newOp := func(worker int) op {
		subject := "w" + strconv.Itoa(worker) + ":"
		var n uint64
		return func(ctx context.Context) error {
			n++
			res, err := lim.Allow(ctx, "default", subject+strconv.FormatUint(n, 36))
			if err != nil {
				return err
			}
			if !res.Allowed {
				return errRefused
			}
			return nil
		}
	}
	return newOp, func() { _ = rdb.Close() }, nil
}
