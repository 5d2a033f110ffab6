package soak_test

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

// What is measured, and what counts as growing without bound.
//
// The first fifth of the run is warm-up (pools fill, the heap finds its
// size, the tables and their indexes grow their first pages). Of the
// samples after it, the mean of the last third is compared with the mean
// of the first third: a metric grows without bound when the later mean
// exceeds max(first × (1 + pct) + abs, floor). Means of thirds, not single
// samples, so that a garbage-collection cycle or a burst of purchases does
// not decide; a leak proportional to the traffic moves the means apart in
// proportion to the run's length. Connection counts must also stay within
// their pools (cap, checked on every sample). A least-squares slope over
// the same samples is printed, per 10 minutes, for the reader; it decides
// nothing (one early step, such as a pool filling, tilts it).
type metric struct {
	name string
	// bytes: values are bytes, printed in MB.
	bytes bool
	// judged: the growth rule applies; otherwise the metric is only shown.
	judged          bool
	pct, abs, floor float64
	// cap, when positive, bounds every sample.
	cap float64
}

// The service's pools: db.defaultMaxConns (20) for PostgreSQL, plus the
// connection each LISTEN holds at most; the Redis client's PoolSize (64).
const (
	pgPoolCap    = 20 + 2
	redisPoolCap = 64
)

var metrics = []metric{
	{name: "RSS", bytes: true, judged: true, pct: 0.25, abs: 16 << 20},
	{name: "heap in use", bytes: true},
	{name: "goroutines", judged: true, pct: 0.20, abs: 10},
	{name: "OS threads"},
	{name: "open fds", judged: true, pct: 0.20, abs: 10},
	{name: "PostgreSQL conns", judged: true, pct: 0.50, abs: 4, cap: pgPoolCap},
	{name: "Redis conns", judged: true, pct: 0.50, abs: 4, cap: redisPoolCap},
	{name: "River backlog", judged: true, pct: 0.50, floor: 20},
	{name: "webhook backlog", judged: true, pct: 0.50, floor: 20},
	{name: "mail backlog", judged: true, pct: 0.50, floor: 20},
}

// The indexes of metrics, in order.
const (
	mRSS = iota
	mHeap
	mGoroutines
	mThreads
	mFDs
	mPGConns
	mRedisConns
	mRiver
	mWebhooks
	mMail
)

type sample struct {
	at time.Duration
	v  []float64
}

// warmup is the part of a run of duration d whose samples are not judged.
func warmup(d time.Duration) time.Duration { return d / 5 }

// sampler measures the service process and what it holds.
type sampler struct {
	pid  int
	base string
	// pprof is the service's PPROF_ADDR.
	pprof   string
	pool    *pgxpool.Pool
	rdb     *redis.Client
	client  *http.Client
	samples []sample
	// errs are the samples that could not be read.
	errs []string
}

func (sm *sampler) take(ctx context.Context, at time.Duration) {
	sm.samples = append(sm.samples, sm.sample(ctx, at))
}

// sample reads every metric once; what cannot be read is NaN and noted.
func (sm *sampler) sample(ctx context.Context, at time.Duration) sample {
	s := sample{at: at, v: make([]float64, len(metrics))}
	fail := func(i int, err error) {
		s.v[i] = math.NaN()
		if len(sm.errs) < 20 {
			sm.errs = append(sm.errs, fmt.Sprintf("%s at %s: %v", metrics[i].name, at.Round(time.Second), err))
		}
	}
	if rss, err := testkit.ProcessRSS(sm.pid); err != nil {
		fail(mRSS, err)
	} else {
		s.v[mRSS] = float64(rss)
	}
	if fds, err := testkit.ProcessFDs(sm.pid); err != nil {
		fail(mFDs, err)
	} else {
		s.v[mFDs] = float64(fds)
	}
	if th, err := testkit.ProcessThreads(sm.pid); err != nil {
		fail(mThreads, err)
	} else {
		s.v[mThreads] = float64(th)
	}
	if prom, err := sm.scrape(); err != nil {
		fail(mGoroutines, err)
		fail(mHeap, err)
	} else {
		s.v[mGoroutines], s.v[mHeap] = prom["go_goroutines"], prom["go_memstats_heap_inuse_bytes"]
	}
	qctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	var pg, river, hooks, mail int64
	if err := sm.pool.QueryRow(qctx, `SELECT
		(SELECT count(*) FROM pg_stat_activity WHERE application_name = $1),
		(SELECT count(*) FROM river_job WHERE state IN ('available', 'running', 'retryable', 'pending')
			OR (state = 'scheduled' AND scheduled_at <= now())),
		(SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'),
		(SELECT count(*) FROM mail_messages WHERE status = 'pending')`, appName).Scan(&pg, &river, &hooks, &mail); err != nil {
		for _, i := range []int{mPGConns, mRiver, mWebhooks, mMail} {
			fail(i, err)
		}
	} else {
		s.v[mPGConns], s.v[mRiver], s.v[mWebhooks], s.v[mMail] = float64(pg), float64(river), float64(hooks), float64(mail)
	}
	if list, err := sm.rdb.ClientList(qctx).Result(); err != nil {
		fail(mRedisConns, err)
	} else {
		n := 0
		for _, line := range strings.Split(strings.TrimSpace(list), "\n") {
			if line != "" && !strings.Contains(line, " name="+samplerName+" ") {
				n++
			}
		}
		s.v[mRedisConns] = float64(n)
	}
	return s
}

// latest is the last sample, in one line.
func (sm *sampler) latest() string {
	s := sm.samples[len(sm.samples)-1]
	parts := make([]string, len(metrics))
	for i, m := range metrics {
		parts[i] = m.name + " " + m.format(s.v[i])
	}
	return strings.Join(parts, ", ")
}

// goroutineStacks reads the service's goroutines from its pprof listener
// (PPROF_ADDR), counted by stack: the functions of the stack, innermost
// first, separated by " < ".
func (sm *sampler) goroutineStacks() (map[string]int, error) {
	resp, err := sm.client.Get("http://" + sm.pprof + "/debug/pprof/goroutine?debug=1")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("goroutine profile: HTTP %d", resp.StatusCode)
	}
	out := map[string]int{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	var frames []string
	flush := func() {
		if n > 0 {
			out[strings.Join(frames, " < ")] += n
		}
		n, frames = 0, nil
	}
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			flush()
		case strings.HasPrefix(line, "#"):
			// "#	0x4a1b2c	net/http.(*conn).serve+0x5d	/usr/…/server.go:2102"
			if f := strings.Split(line, "	"); len(f) >= 3 {
				fn, _, _ := strings.Cut(f[2], "+0x")
				frames = append(frames, fn)
			}
		default:
			if c, _, ok := strings.Cut(line, " @ "); ok {
				flush()
				n, _ = strconv.Atoi(c)
			}
		}
	}
	flush()
	return out, sc.Err()
}

// stackGrowth lists the goroutine stacks more numerous in after than in
// before, most grown first (at most 8), each by its outermost frames
// outside the runtime.
func stackGrowth(before, after map[string]int) string {
	type grown struct {
		stack string
		from  int
		to    int
	}
	var gs []grown
	for k, n := range after {
		if n > before[k] {
			gs = append(gs, grown{k, before[k], n})
		}
	}
	if len(gs) == 0 {
		return "no goroutine stack grew"
	}
	slices.SortFunc(gs, func(a, b grown) int { return cmp.Or((b.to-b.from)-(a.to-a.from), strings.Compare(a.stack, b.stack)) })
	var b strings.Builder
	for i, g := range gs {
		if i == 8 {
			fmt.Fprintf(&b, "… and %d more stacks\n", len(gs)-i)
			break
		}
		var frames []string
		for _, f := range strings.Split(g.stack, " < ") {
			if !strings.HasPrefix(f, "runtime.") && !strings.HasPrefix(f, "internal/") && !strings.HasPrefix(f, "sync.") {
				frames = append(frames, f)
			}
		}
		if len(frames) > 4 {
			frames = frames[:4]
		}
		fmt.Fprintf(&b, "%d → %d  %s\n", g.from, g.to, strings.Join(frames, " < "))
	}
	return b.String()
}

// scrape reads the service's /metrics (Prometheus text) into name → value
// for the unlabelled series.
func (sm *sampler) scrape() (map[string]float64, error) {
	resp, err := sm.client.Get(sm.base + "/metrics")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET /metrics: HTTP %d", resp.StatusCode)
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		name, val, ok := strings.Cut(sc.Text(), " ")
		if !ok || strings.HasPrefix(name, "#") || strings.Contains(name, "{") {
			continue
		}
		if f, err := strconv.ParseFloat(val, 64); err == nil {
			out[name] = f
		}
	}
	if _, ok := out["go_goroutines"]; !ok {
		return nil, errors.New("/metrics has no go_goroutines")
	}
	return out, sc.Err()
}

// drain waits until River, the webhook records and the mail outbox have
// nothing left to do, and says how long that took.
func (sm *sampler) drain(ctx context.Context, limit time.Duration) (time.Duration, error) {
	start := time.Now()
	for {
		s := sm.sample(ctx, 0)
		if s.v[mRiver] == 0 && s.v[mWebhooks] == 0 && s.v[mMail] == 0 {
			return time.Since(start), nil
		}
		if time.Since(start) > limit {
			return 0, fmt.Errorf("%s after the traffic stopped, still %v River jobs, %v webhook deliveries and %v emails to do",
				limit, s.v[mRiver], s.v[mWebhooks], s.v[mMail])
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// result is one metric's verdict.
type result struct {
	name                               string
	judged, ok                         bool
	why                                string
	firstMean, lastMean, allowed, peak float64
	// slope is the least-squares trend per 10 minutes.
	slope float64
}

// judge applies each metric's rule to the samples taken after warm-up.
func judge(samples []sample, warm time.Duration) []result {
	var post []sample
	for _, s := range samples {
		if s.at >= warm {
			post = append(post, s)
		}
	}
	out := make([]result, len(metrics))
	for i, m := range metrics {
		r := result{name: m.name, ok: true, judged: m.judged}
		for _, s := range samples {
			r.peak = max(r.peak, s.v[i])
		}
		k := len(post) / 3
		if k < 2 {
			r.ok, r.why = !m.judged, fmt.Sprintf("only %d samples after the warm-up, too few to judge", len(post))
			out[i] = r
			continue
		}
		r.firstMean, r.lastMean = mean(post[:k], i), mean(post[len(post)-k:], i)
		r.slope = slope(post, i) * 10
		r.allowed = max(r.firstMean*(1+m.pct)+m.abs, m.floor)
		if !m.judged {
			out[i] = r
			continue
		}
		switch {
		case math.IsNaN(r.firstMean) || math.IsNaN(r.lastMean):
			r.ok, r.why = false, "samples missing"
		case r.lastMean > r.allowed:
			r.ok, r.why = false, fmt.Sprintf("last third's mean %s > %s allowed (first third's mean %s)",
				m.format(r.lastMean), m.format(r.allowed), m.format(r.firstMean))
		case m.cap > 0 && r.peak > m.cap:
			r.ok, r.why = false, fmt.Sprintf("peak %s over the pool's %s", m.format(r.peak), m.format(m.cap))
		}
		out[i] = r
	}
	return out
}

func mean(ss []sample, i int) float64 {
	sum := 0.0
	for _, s := range ss {
		sum += s.v[i]
	}
	return sum / float64(len(ss))
}

// slope is the least-squares slope of metric i per minute.
func slope(ss []sample, i int) float64 {
	var n, sx, sy, sxx, sxy float64
	for _, s := range ss {
		x, y := s.at.Minutes(), s.v[i]
		if math.IsNaN(y) {
			continue
		}
		n++
		sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
	}
	d := n*sxx - sx*sx
	if n < 2 || d == 0 {
		return 0
	}
	return (n*sxy - sx*sy) / d
}

func (m metric) format(v float64) string {
	switch {
	case math.IsNaN(v):
		return "?"
	case m.bytes:
		return fmt.Sprintf("%.1f MB", v/(1<<20))
	case v == math.Trunc(v):
		return strconv.FormatFloat(v, 'f', 0, 64)
	default:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
}

// report is the resource table: each metric's first sample (the service
// set up, before the traffic), its last (the traffic's end), its peak, the
// value once the backlogs drained, the judged means and the verdict.
func report(samples []sample, after sample, results []result, warm time.Duration) string {
	var b strings.Builder
	last := samples[len(samples)-1]
	fmt.Fprintf(&b, "resources: %d samples over %s, judged after %s of warm-up\n", len(samples), last.at.Round(time.Second), warm)
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "metric\tfirst\tlast\tpeak\tdrained\tmean 1st third\tmean last third\tallowed\tslope /10 min\tresult\t")
	for i, m := range metrics {
		r := results[i]
		verdict, allowed := "ok", m.format(r.allowed)
		if m.cap > 0 {
			allowed += " (pool " + m.format(m.cap) + ")"
		}
		switch {
		case !m.judged:
			verdict, allowed = "shown", "-"
		case !r.ok:
			verdict = "GROWS"
		}
		sl := m.format(math.Abs(r.slope))
		if r.slope < 0 && strings.Trim(sl, "0. MB") != "" {
			sl = "-" + sl
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", m.name, m.format(samples[0].v[i]), m.format(last.v[i]),
			m.format(r.peak), m.format(after.v[i]), m.format(r.firstMean), m.format(r.lastMean), allowed, sl, verdict)
	}
	_ = w.Flush()
	return b.String()
}

// The criterion itself: flat and noisy series pass, leaks fail.
func TestGrowthCriteria(t *testing.T) {
	t.Parallel()
	series := func(n int, f func(i int) float64) []sample {
		ss := make([]sample, n)
		for i := range ss {
			ss[i] = sample{at: time.Duration(i) * 10 * time.Second, v: make([]float64, len(metrics))}
			for j := range metrics {
				ss[i].v[j] = 5
			}
			ss[i].v[mRSS] = 80 << 20
			ss[i].v[mGoroutines] = f(i)
		}
		return ss
	}
	const n = 180 // 30 minutes of samples every 10 s
	warm := 6 * time.Minute
	for name, tc := range map[string]struct {
		f  func(i int) float64
		ok bool
	}{
		"flat":                       {func(int) float64 { return 60 }, true},
		"noisy":                      {func(i int) float64 { return 60 + float64(i%7*3) }, true},
		"a step during warm-up":      {func(i int) float64 { return 40 + 30*float64(min(i, 20))/20 }, true},
		"one goroutine per sample":   {func(i int) float64 { return 60 + float64(i) }, false},
		"a late burst, then back":    {func(i int) float64 { return 60 + float64(i%60/59*200) }, true},
		"a step up in the last half": {func(i int) float64 { return 60 + float64(i/120*40) }, false},
	} {
		res := judge(series(n, tc.f), warm)
		require.Equal(t, tc.ok, res[mGoroutines].ok, "%s: %+v", name, res[mGoroutines])
		require.True(t, res[mRSS].ok, "%s: RSS", name)
	}

	// The backlog's floor: small queues come and go.
	ss := series(n, func(int) float64 { return 60 })
	for i := range ss {
		ss[i].v[mRiver] = float64(i % 15)
	}
	require.True(t, judge(ss, warm)[mRiver].ok)
	for i := range ss {
		ss[i].v[mRiver] = float64(i)
	}
	require.False(t, judge(ss, warm)[mRiver].ok, "a queue that only grows")

	// Connections beyond the pool fail even when flat afterwards.
	ss = series(n, func(int) float64 { return 60 })
	ss[100].v[mPGConns] = pgPoolCap + 1
	require.False(t, judge(ss, warm)[mPGConns].ok)

	// Too few samples after the warm-up is a failure, not a pass.
	require.False(t, judge(series(5, func(int) float64 { return 60 }), 0)[mGoroutines].ok)
}
