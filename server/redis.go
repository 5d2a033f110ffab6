package server

import (
	"fmt"
	"net/url"
	"time"

	"github.com/redis/go-redis/v9"
)

// OpenRedis connects to REDIS_URL. A URL with addr= parameters names a
// Redis Cluster, go-redis's cluster URL: the URL's host and each addr are
// seed nodes (redis://h1:7000?addr=h2:7000&addr=h3:7000), and the client
// follows the cluster's slots and failovers. Any other URL is one node.
// Every key the service uses carries a hash tag ({…}), so each script's and
// pipeline's keys of one subject share a slot (ratelimit's tests prove it
// on a three-master cluster).
//
// Both clients use short timeouts (Redis being slow must not hold a request:
// the limits fail open), one retry, and RESP2 (the service uses no push
// notifications, and under RESP3 the client looks for pending pushes around
// every command, about 7 % of an authenticated GET's CPU).
func OpenRedis(rawURL string) (redis.UniversalClient, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("parse REDIS_URL: %w", err)
	}
	if u.Query().Has("addr") {
		// A cluster has no database numbers: a path of /0 means none.
		if u.Path == "/0" || u.Path == "/" {
			u.Path = ""
		}
		opts, err := redis.ParseClusterURL(u.String())
		if err != nil {
			return nil, fmt.Errorf("parse REDIS_URL (a cluster): %w", err)
		}
		opts.DialTimeout, opts.ReadTimeout, opts.WriteTimeout = redisTimeout, redisTimeout, redisTimeout
		opts.MaxRetries, opts.PoolSize, opts.Protocol = 1, redisPoolSize, 2
		// A node that refuses connections fails the command at once: one
		// dial, no dial retries, and one redirect (a moved slot) instead of
		// three. go-redis's defaults (5 dials 100 ms apart, 3 redirects, each
		// reloading the slots from every node) held a request 3.4 s with the
		// cluster down; the limits fail open, so they should fail fast.
		opts.DialerRetries, opts.MaxRedirects = 1, 1
		return redis.NewClusterClient(opts), nil
	}
	opts, err := redis.ParseURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("parse REDIS_URL: %w", err)
	}
	opts.DialTimeout, opts.ReadTimeout, opts.WriteTimeout = redisTimeout, redisTimeout, redisTimeout
	opts.MaxRetries, opts.PoolSize, opts.Protocol = 1, redisPoolSize, 2
	opts.DialerRetries = 1 // as the cluster's: a refused dial fails at once
	return redis.NewClient(opts), nil
}

const (
	// redisTimeout bounds dialing, reading and writing one command.
	redisTimeout = 500 * time.Millisecond
	// redisPoolSize is the connections per node.
	redisPoolSize = 64
)
