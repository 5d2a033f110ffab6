package main

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"maps"
	"os"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// printHeader prints the machine and the load's settings.
func printHeader(w io.Writer, cfg config) {
	fmt.Fprintf(w, "commerce bench  %s\n", time.Now().Format(time.RFC3339))
	fmt.Fprintf(w, "machine: %d CPUs (%s), %s/%s, %s, GOMAXPROCS %d\n",
		runtime.NumCPU(), cpuModel(), runtime.GOOS, runtime.GOARCH, runtime.Version(), runtime.GOMAXPROCS(0))
	fmt.Fprintf(w, "load:    closed loop, %d workers with a connection each; warm-up %v, then %v measured per scenario\n\n",
		cfg.concurrency, cfg.warmup, cfg.duration)
}

// cpuModel is the first "model name" of /proc/cpuinfo, or "unknown CPU".
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

// printReport prints the table, then each verdict and error in detail.
func printReport(w io.Writer, results []*result, done outcomes) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "scenario\tthroughput\tp50 ms\tp95 ms\tp99 ms\terrors\tRSS MB\tx baseline\ttarget\tresult")
	for _, r := range results {
		fmt.Fprintln(tw, row(r, done))
	}
	_ = tw.Flush()

	fmt.Fprintln(w)
	for _, r := range results {
		printDetails(w, r, done)
	}
	fmt.Fprintln(w, "RSS: the service's peak VmRSS (sampled every 100 ms) for scenarios against it;")
	fmt.Fprintln(w, "     for in-process scenarios, bench's own growth (+) over the scenario.")
	fmt.Fprintln(w, "Latencies and throughput count successful operations only; errors are listed apart.")
}

// row is r's table line (tab-separated).
func row(r *result, done outcomes) string {
	sc := r.sc
	base := done.baseline()
	if r.ok+r.errors == 0 {
		return fmt.Sprintf("%s\t-\t-\t-\t-\t-\t-\t-\t%s\tBROKEN", sc.name, sc.targets())
	}
	ratio := "-" // only between like operations: a check is not a request
	if base != nil && base.rate > 0 && base.sc.unit == sc.unit {
		ratio = fmt.Sprintf("%.2f", r.rate/base.rate)
	}
	rss := "-"
	switch {
	case r.rssGrowth:
		rss = fmt.Sprintf("%+.1f (bench)", float64(r.rss)/1024)
	case r.rss > 0:
		rss = fmt.Sprintf("%.1f", float64(r.rss)/1024)
	}
	verdict := "BROKEN"
	if r.broken == nil {
		verdict = overall(r, done)
	}
	return fmt.Sprintf("%s\t%.0f %s/s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s",
		sc.name, r.rate, sc.unit, ms(r.p50), ms(r.p95), ms(r.p99), r.errors, rss, ratio, sc.targets(), verdict)
}

// overall is the result column: PASS, FAIL(which), or "-" without targets.
func overall(r *result, done outcomes) string {
	var failed, passed []string
	for _, v := range r.sc.target.verdicts(r, done) {
		switch v.state {
		case "FAIL":
			failed = append(failed, v.name)
		case "PASS":
			passed = append(passed, v.name)
		}
	}
	switch {
	case len(failed) > 0:
		return "FAIL (" + strings.Join(failed, ", ") + ")"
	case len(passed) > 0:
		return "PASS"
	}
	return "-"
}

// printDetails prints what the scenario measured, each verdict and the
// errors seen.
func printDetails(w io.Writer, r *result, done outcomes) {
	fmt.Fprintf(w, "%s: %s\n", r.sc.name, r.sc.what)
	if r.sc.concurrency > 0 {
		fmt.Fprintf(w, "  %d workers\n", r.workers)
	}
	if r.broken != nil {
		fmt.Fprintf(w, "  BROKEN: %v\n", r.broken)
	}
	if r.broken == nil {
		if r.sc.opBytes > 0 {
			fmt.Fprintf(w, "  data rate: %.1f MB/s (%.2f %s/s of %.1f MB)\n", r.rate*float64(r.sc.opBytes)/(1<<20),
				r.rate, r.sc.unit, float64(r.sc.opBytes)/(1<<20))
		}
		for _, v := range r.sc.target.verdicts(r, done) {
			fmt.Fprintf(w, "  %-4s %s: %s\n", v.state, v.name, v.detail)
		}
	}
	kinds := slices.SortedFunc(maps.Keys(r.errorKind), func(a, b string) int {
		return cmp.Or(cmp.Compare(r.errorKind[b], r.errorKind[a]), cmp.Compare(a, b))
	})
	for i, msg := range kinds {
		if i == maxErrorKinds {
			fmt.Fprintf(w, "  (%d more kinds of error)\n", len(kinds)-i)
			break
		}
		fmt.Fprintf(w, "  error x%d: %s\n", r.errorKind[msg], msg)
	}
}

// ms formats d in milliseconds with 2 decimals.
func ms(d time.Duration) string {
	return fmt.Sprintf("%.2f", float64(d)/float64(time.Millisecond))
}
