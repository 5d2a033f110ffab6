package server

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/redis/go-redis/v9"

	"commerce/db"
	"commerce/metrics"
)

// registerMetrics registers the collectors of the pools and queues
// (CONTRACT §24): the request path's PostgreSQL pool (pool="main") and
// River's (pool="river") when DATABASE_DIRECT_URL gives it a pool of its
// own, the Redis pools (OpenRedis leaves go-redis's pipeline pool at its
// default size), and the backlogs of jobs, webhook deliveries and
// emails, and whether PostgreSQL and Redis answer (the checks of /readyz).
// Each reads its figures when scraped.
func registerMetrics(reg prometheus.Registerer, d *db.DB, rdb redis.UniversalClient, log *slog.Logger) {
	pools := []metrics.DBPool{{Name: "main", Pool: d.Pool}}
	if d.RiverPool != d.Pool {
		pools = append(pools, metrics.DBPool{Name: "river", Pool: d.RiverPool})
	}
	reg.MustRegister(metrics.NewDBPools(pools...), metrics.NewRedisPool(rdb, redisPoolSize, redis.DefaultPipelinePoolSize), metrics.NewQueues(d.Pool, log),
		metrics.NewReadiness(metrics.Dependency{Name: "postgres", Ping: d.Pool.Ping},
			metrics.Dependency{Name: "redis", Ping: func(ctx context.Context) error { return rdb.Ping(ctx).Err() }}))
}

// MetricsHandler serves the registry in Prometheus's text format: on
// /metrics of the service's handler, or on METRICS_ADDR's listener alone
// when that is set (cmd/commerce).
func (s *Server) MetricsHandler() http.Handler {
	return promhttp.HandlerFor(s.Registry, promhttp.HandlerOpts{})
}
