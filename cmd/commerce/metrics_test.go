package main

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// With METRICS_ADDR set, /metrics answers there and not on the service's
// listener, for serve and for a worker, which has no other listener.
// (Not parallel: it sets the environment and signals the process.)
func TestMetricsAddr(t *testing.T) {
	addr := setEnv(t)
	require.NoError(t, run([]string{"migrate", "up"}, &bytes.Buffer{}))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	metricsAddr := ln.Addr().String()
	require.NoError(t, ln.Close())
	t.Setenv("METRICS_ADDR", metricsAddr)

	get := func(u string) (int, string) {
		resp, err := http.Get(u)
		if err != nil {
			return 0, ""
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, cmd := range []string{"serve", "worker"} {
		done := make(chan error, 1)
		go func() { done <- run([]string{cmd}, &bytes.Buffer{}) }()
		require.Eventually(t, func() bool { code, _ := get("http://" + metricsAddr + "/metrics"); return code == 200 },
			15*time.Second, 50*time.Millisecond, cmd)
		code, body := get("http://" + metricsAddr + "/metrics")
		require.Equal(t, 200, code, cmd)
		for _, name := range []string{"commerce_db_pool_max_connections", "commerce_redis_pool_connections", "commerce_jobs_oldest_available_age_seconds", "go_goroutines"} {
			require.Contains(t, body, "\n"+name, cmd)
		}
		if cmd == "serve" {
			code, _ := get("http://" + addr + "/readyz")
			require.Equal(t, 200, code)
			code, _ = get("http://" + addr + "/metrics")
			require.Equal(t, 404, code, "not on the service's listener")
		}
		require.NoError(t, syscall.Kill(syscall.Getpid(), syscall.SIGTERM))
		select {
		case err := <-done:
			require.NoError(t, err, cmd)
		case <-time.After(15 * time.Second):
			t.Fatalf("%s did not stop after SIGTERM", cmd)
		}
	}
	t.Setenv("METRICS_ADDR", "9464")
	require.ErrorContains(t, run([]string{"serve"}, &bytes.Buffer{}), "METRICS_ADDR")
}
