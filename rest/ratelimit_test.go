package rest_test

import (
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/config"
	"commerce/testkit"
)

// 121 rapid requests in one group: exactly 120 pass, the 121st is 429 with
// Retry-After, and a request 2 s later is still refused (a rolling window,
// not a refill).
func TestRateLimitRollingWindow(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	passed := 0
	var last *testkit.Response
	for i := 0; i < 121; i++ {
		last = env.Get("/v1/api-keys?limit=1", acc.Key)
		if last.Status == 200 {
			passed++
			require.Equal(t, "120", last.Header.Get("RateLimit-Limit"))
			require.Equal(t, strconv.Itoa(120-passed), last.Header.Get("RateLimit-Remaining"))
			require.NotEmpty(t, last.Header.Get("RateLimit-Reset"))
		}
	}
	require.Equal(t, 120, passed)
	p := requireProblem(t, env, last, 429, "rate_limited")
	retry, err := strconv.Atoi(last.Header.Get("Retry-After"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, retry, 1)
	require.LessOrEqual(t, retry, 60)
	require.Equal(t, float64(retry), p["retry_after"])
	require.Equal(t, "0", last.Header.Get("RateLimit-Remaining"))

	time.Sleep(2 * time.Second)
	requireProblem(t, env, env.Get("/v1/api-keys?limit=1", acc.Key), 429, "rate_limited")

	// Another key of another account has its own window.
	other := env.NewAccount()
	require.Equal(t, 200, env.Get("/v1/api-keys?limit=1", other.Key).Status)
}

// Unauthenticated routes are limited per client IP (300/min on plans and ping).
func TestPublicRateLimitPerIP(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	r := env.Get("/v1/ping", "")
	require.Equal(t, 200, r.Status)
	require.Equal(t, "300", r.Header.Get("RateLimit-Limit"))
	require.Equal(t, "299", r.Header.Get("RateLimit-Remaining"))
}

// With Redis unreachable, requests are allowed (fail open) and /readyz says so.
func TestRateLimitFailsOpenWithoutRedis(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close()) // nothing listens here now
	env := testkit.New(t, testkit.WithConfig(func(c *config.Config) { c.RedisURL = "redis://" + addr + "/0" }))
	acc := env.NewAccount()
	for i := 0; i < 3; i++ {
		r := env.Get("/v1/api-keys", acc.Key)
		require.Equal(t, 200, r.Status)
		require.Empty(t, r.Header.Get("RateLimit-Limit"))
	}
	r := env.Get("/readyz", "")
	require.Equal(t, 503, r.Status)
	require.Equal(t, "unavailable", r.JSON(t)["redis"])
	require.Equal(t, "ok", r.JSON(t)["postgres"])
	require.Equal(t, 200, env.Get("/healthz", "").Status)
}

func TestReadyz(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	r := env.Get("/readyz", "")
	require.Equal(t, 200, r.Status)
	require.Equal(t, "ready", r.JSON(t)["status"])
}
