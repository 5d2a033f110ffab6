package main

import (
	"context"
	"slices"
)

// Request-path scenarios run a second time against a service whose
// DATABASE_URL goes through PgBouncer in transaction mode
// (-pgbouncer-url, started by scripts/bench.sh with scripts/pgbouncer.sh;
// its DATABASE_DIRECT_URL is PostgreSQL): each twin, named
// <scenario>-pgbouncer, follows its scenario in the table, and its target
// is a share of that scenario's throughput in the same run.

// pgbouncerSuffix names a twin.
const pgbouncerSuffix = "-pgbouncer"

// pgbouncerTwins are the scenarios run through PgBouncer too.
var pgbouncerTwins = []string{"listing-get", "graphql-listing", ordersFirstName, "purchase"}

// pgbouncerMinRatio is the twin's throughput target: at least this share
// of the direct scenario's. Measured 0.34-0.77 on 2 shared cores, the
// cost mostly pgx's cache_describe mode (every query planned again), which
// PgBouncer 1.18 requires (docs/decisions.md, "PgBouncer in transaction
// mode"); listing-get misses it.
const pgbouncerMinRatio = 0.5

func init() {
	for _, name := range pgbouncerTwins {
		i := slices.IndexFunc(scenarios, func(sc scenario) bool { return sc.name == name })
		twin := scenarios[i]
		twin.name = name + pgbouncerSuffix
		twin.what = "as " + name + ", the service's DATABASE_URL through PgBouncer (transaction mode)"
		twin.needs |= needPgBouncer
		twin.pgbouncer = true
		twin.target = target{minRatioOf: pgbouncerMinRatio, ratioOf: name}
		scenarios = slices.Insert(scenarios, i+1, twin)
	}
}

// runThroughPgBouncer runs sc against the service behind PgBouncer: the
// configuration's service URL and pid are that service's meanwhile.
func runThroughPgBouncer(ctx context.Context, e *env, sc *scenario) *result {
	saved := e.cfg
	e.cfg.url, e.cfg.pid = e.cfg.pgbouncerURL, e.cfg.pgbouncerPID
	defer func() { e.cfg = saved }()
	return runScenario(ctx, e, sc)
}
