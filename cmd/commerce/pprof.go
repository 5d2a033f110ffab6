package main

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/pprof"
	"time"
)

// startPprof serves the runtime profiles on addr until ctx ends. It has a
// mux of its own, so nothing of it reaches the public listener.
func startPprof(ctx context.Context, addr string, log *slog.Logger) {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	hs := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		log.Info("pprof listening", "addr", addr)
		if err := hs.ListenAndServe(); err != nil && err != http.ErrServerClosed {
			log.Error("pprof listener failed", "addr", addr, "error", err)
		}
	}()
	context.AfterFunc(ctx, func() { _ = hs.Close() })
}
