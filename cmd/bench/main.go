// Command bench is the load benchmark behind `make bench` (scripts/bench.sh).
//
// It runs a table of scenarios one after the other. Each is a closed loop:
// -concurrency workers, each with its own keep-alive connection (or client),
// issue operations back to back for -warmup (not recorded) and then for
// -duration (recorded). It prints one table row per scenario: throughput,
// latency percentiles, errors, peak RSS, the ratio to the baseline and
// PASS/FAIL per target and per check (what a scenario verifies after its
// load, such as purchase's reconciliation of its orders in the database).
//
//	bench -url http://127.0.0.1:18080 -key svc_… -pid 1234 \
//	      -database-url postgres://… -redis-url redis://… [-only baseline,ratelimit]
//
// Targets are reported, not asserted: the exit status is 0 even when one
// fails. It is 1 when something broke (a scenario could not be set up, its
// first request failed, every request failed, the service process died) and
// 2 for bad flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"
)

// config is what the flags say.
type config struct {
	url         string // the service's base URL
	key         string // an API key of the service
	pid         int    // the service's process id, for its RSS (0: not reported)
	databaseURL string
	redisURL    string
	duration    time.Duration // measured time per scenario
	warmup      time.Duration // unrecorded time before it
	concurrency int
	only        []string      // scenario names to run; empty: all
	coldStart   time.Duration // the service's cold start, measured by scripts/bench.sh (0: not reported)
	// pgbouncerURL and pgbouncerPID are a second service's, whose
	// DATABASE_URL goes through PgBouncer (the -pgbouncer twins).
	pgbouncerURL string
	pgbouncerPID int
}

func main() {
	cfg, err := parseFlags(os.Args[1:], os.Stderr)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "bench:", err)
		}
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if !run(ctx, cfg, os.Stdout, os.Stderr) {
		os.Exit(1)
	}
}

// parseFlags reads the command line; DATABASE_URL and REDIS_URL are the
// defaults of -database-url and -redis-url.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	var cfg config
	var only string
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.url, "url", "", "base URL of the service, e.g. http://127.0.0.1:18080")
	fs.StringVar(&cfg.key, "key", "", "API key for the service's authenticated endpoints")
	fs.IntVar(&cfg.pid, "pid", 0, "process id of the service, to sample its RSS (0: not reported)")
	fs.StringVar(&cfg.databaseURL, "database-url", os.Getenv("DATABASE_URL"), "PostgreSQL for the baseline (default $DATABASE_URL)")
	fs.StringVar(&cfg.redisURL, "redis-url", os.Getenv("REDIS_URL"), "Redis for the rate limiter (default $REDIS_URL)")
	fs.DurationVar(&cfg.duration, "duration", 10*time.Second, "measured time per scenario")
	fs.DurationVar(&cfg.warmup, "warmup", 2*time.Second, "unrecorded warm-up before each scenario")
	fs.IntVar(&cfg.concurrency, "concurrency", 32, "concurrent workers (closed loop)")
	fs.DurationVar(&cfg.coldStart, "cold-start", 0, "the service's cold start (exec to the first 200 of /readyz), for the startup scenario")
	fs.StringVar(&cfg.pgbouncerURL, "pgbouncer-url", "", "base URL of the same service with DATABASE_URL through PgBouncer (the -pgbouncer scenarios; unset: skipped unless named in -only)")
	fs.IntVar(&cfg.pgbouncerPID, "pgbouncer-pid", 0, "process id of that service, to sample its RSS")
	fs.StringVar(&only, "only", "", "comma-separated scenarios to run (default all: "+strings.Join(scenarioNames(), ",")+")")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if cfg.duration <= 0 || cfg.warmup < 0 || cfg.concurrency < 1 {
		return cfg, errors.New("-duration and -concurrency must be positive, -warmup not negative")
	}
	for name := range strings.SplitSeq(only, ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		if !slices.Contains(scenarioNames(), name) {
			return cfg, fmt.Errorf("-only: unknown scenario %q (have %s)", name, strings.Join(scenarioNames(), ", "))
		}
		cfg.only = append(cfg.only, name)
	}
	for _, sc := range cfg.selected() {
		if err := sc.needs.check(cfg); err != nil {
			return cfg, fmt.Errorf("scenario %s: %w (or leave it out with -only)", sc.name, err)
		}
	}
	return cfg, nil
}

// selected returns the scenarios to run, in table order.
func (c config) selected() []*scenario {
	var out []*scenario
	for i := range scenarios {
		if len(c.only) == 0 && scenarios[i].pgbouncer && c.pgbouncerURL == "" {
			continue
		}
		if len(c.only) == 0 || slices.Contains(c.only, scenarios[i].name) {
			out = append(out, &scenarios[i])
		}
	}
	return out
}

// run runs the selected scenarios and prints the report on stdout (progress
// on stderr). It reports whether nothing broke.
func run(ctx context.Context, cfg config, stdout, stderr io.Writer) bool {
	printHeader(stdout, cfg)
	e := &env{cfg: cfg, measured: outcomes{}}
	var results []*result
	for _, sc := range cfg.selected() {
		if ctx.Err() != nil {
			break
		}
		fmt.Fprintf(stderr, "bench: %s (%s): warm-up %v, measuring %v, %d workers\n",
			sc.name, sc.what, cfg.warmup, cfg.duration, sc.workers(cfg))
		run := runScenario
		if sc.pgbouncer {
			run = runThroughPgBouncer
		}
		r := run(ctx, e, sc)
		if r.broken != nil {
			fmt.Fprintf(stderr, "bench: %s broke: %v\n", sc.name, r.broken)
		} else {
			e.measured[sc.name] = r
		}
		results = append(results, r)
	}
	printReport(stdout, results, e.measured)
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "bench: interrupted")
		return false
	}
	for _, r := range results {
		if r.broken != nil {
			return false
		}
	}
	return true
}
