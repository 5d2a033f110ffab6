package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// startMetrics serves /metrics (METRICS_ADDR, CONTRACT §24) on a listener
// of its own until ctx ends: what scrapes it need not reach the service's
// listener, and a worker process, which has none, is scraped there.
func startMetrics(ctx context.Context, addr string, h http.Handler, log *slog.Logger) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on METRICS_ADDR %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", h)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, WriteTimeout: 30 * time.Second}
	go func() {
		log.Info("metrics listening", "addr", ln.Addr().String())
		if err := hs.Serve(ln); err != nil && err != http.ErrServerClosed {
			log.Error("metrics listener failed", "addr", addr, "error", err)
		}
	}()
	context.AfterFunc(ctx, func() { _ = hs.Close() })
	return nil
}
