package metrics

import (
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"
)

// DBPool is a pgxpool to report, under the label pool=Name.
type DBPool struct {
	Name string
	Pool *pgxpool.Pool
}

// dbPools reports pgxpool's Stat() of each pool at scrape time.
type dbPools struct {
	pools                                  []DBPool
	acquired, idle, total, max             *prometheus.Desc
	acquires, waits, waitSeconds, canceled *prometheus.Desc
}

// NewDBPools is the collector of the PostgreSQL pools' statistics
// (commerce_db_pool_*, labelled pool), read when scraped.
func NewDBPools(pools ...DBPool) prometheus.Collector {
	d := func(name, help string) *prometheus.Desc {
		return prometheus.NewDesc("commerce_db_pool_"+name, help, []string{"pool"}, nil)
	}
	return &dbPools{
		pools:       pools,
		acquired:    d("acquired_connections", "Connections of the PostgreSQL pool in use."),
		idle:        d("idle_connections", "Idle connections of the PostgreSQL pool."),
		total:       d("total_connections", "Connections of the PostgreSQL pool: in use, idle and being opened."),
		max:         d("max_connections", "Most connections the PostgreSQL pool opens."),
		acquires:    d("acquires_total", "Connections acquired from the PostgreSQL pool."),
		waits:       d("acquire_waits_total", "Acquires that waited for a connection because the PostgreSQL pool had none idle."),
		waitSeconds: d("acquire_wait_seconds_total", "Time acquires spent waiting for a connection of the PostgreSQL pool."),
		canceled:    d("canceled_acquires_total", "Acquires given up (their context ended) before a connection was free."),
	}
}

func (c *dbPools) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.acquired, c.idle, c.total, c.max, c.acquires, c.waits, c.waitSeconds, c.canceled} {
		ch <- d
	}
}

func (c *dbPools) Collect(ch chan<- prometheus.Metric) {
	for _, p := range c.pools {
		s := p.Pool.Stat()
		g := func(d *prometheus.Desc, v float64) {
			ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, p.Name)
		}
		n := func(d *prometheus.Desc, v float64) {
			ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v, p.Name)
		}
		g(c.acquired, float64(s.AcquiredConns()))
		g(c.idle, float64(s.IdleConns()))
		g(c.total, float64(s.TotalConns()))
		g(c.max, float64(s.MaxConns()))
		n(c.acquires, float64(s.AcquireCount()))
		n(c.waits, float64(s.EmptyAcquireCount()))
		n(c.waitSeconds, s.EmptyAcquireWaitTime().Seconds())
		n(c.canceled, float64(s.CanceledAcquireCount()))
	}
}

// redisPool reports go-redis's PoolStats at scrape time.
type redisPool struct {
	client                                            redis.UniversalClient
	size, pipelineSize                                int
	conns, idle, max, pending                         *prometheus.Desc
	hits, misses, timeouts, waits, waitSeconds, stale *prometheus.Desc
}

// NewRedisPool is the collector of the Redis client's pool statistics
// (commerce_redis_pool_*), read when scraped, labelled pool: "main", the
// pool of single commands (size connections per node), and "pipeline",
// go-redis's dedicated pool of pipelines (pipelineSize per node), which
// carries the rate limits' scripts and spills to the main pool when full.
// A cluster client's figures add up its nodes' pools.
func NewRedisPool(client redis.UniversalClient, size, pipelineSize int) prometheus.Collector {
	d := func(name, help string) *prometheus.Desc {
		return prometheus.NewDesc("commerce_redis_pool_"+name, help, []string{"pool"}, nil)
	}
	return &redisPool{
		client: client, size: size, pipelineSize: pipelineSize,
		conns:       d("connections", "Connections of the Redis pool, in use and idle."),
		idle:        d("idle_connections", "Idle connections of the Redis pool."),
		max:         d("max_connections", "Most connections the Redis pool opens (per node of a cluster)."),
		pending:     d("pending_requests", "Commands waiting for a connection of the Redis pool."),
		hits:        d("hits_total", "Commands that found an idle connection in the Redis pool."),
		misses:      d("misses_total", "Commands that found no idle connection in the Redis pool (one was opened, or waited for)."),
		timeouts:    d("timeouts_total", "Commands that gave up waiting for a connection of the Redis pool."),
		waits:       d("waits_total", "Commands that waited for a connection of the Redis pool."),
		waitSeconds: d("wait_seconds_total", "Time commands spent waiting for a connection of the Redis pool."),
		stale:       d("stale_connections_total", "Connections the Redis pool closed as stale (idle too long, or broken)."),
	}
}

func (c *redisPool) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.conns, c.idle, c.max, c.pending, c.hits, c.misses, c.timeouts, c.waits, c.waitSeconds, c.stale} {
		ch <- d
	}
}

func (c *redisPool) Collect(ch chan<- prometheus.Metric) {
	s := c.client.PoolStats()
	c.collect(ch, "main", (*redis.PoolStats)(s), c.size)
	if s.PipelineStats != nil {
		c.collect(ch, "pipeline", (*redis.PoolStats)(s.PipelineStats), c.pipelineSize)
	}
}

func (c *redisPool) collect(ch chan<- prometheus.Metric, pool string, s *redis.PoolStats, size int) {
	g := func(d *prometheus.Desc, v float64) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, pool)
	}
	n := func(d *prometheus.Desc, v float64) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v, pool)
	}
	g(c.conns, float64(s.TotalConns))
	g(c.idle, float64(s.IdleConns))
	g(c.max, float64(size))
	g(c.pending, float64(s.PendingRequests))
	n(c.hits, float64(s.Hits))
	n(c.misses, float64(s.Misses))
	n(c.timeouts, float64(s.Timeouts))
	n(c.waits, float64(s.WaitCount))
	n(c.waitSeconds, float64(s.WaitDurationNs)/1e9)
	n(c.stale, float64(s.StaleConns))
}
