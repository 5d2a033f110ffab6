// Package budget_test is the resource budget of every request (CONTRACT §1
// "Bounded input", issue 20): a `commerce serve` process, built and run as
// operators run it (GOGC as the service sets it), is sent hostile inputs on
// every route of the route table, /graphql (JSON, anonymous and with a key,
// and multipart) and /mcp, and measured from outside through /proc: the
// CPU time (utime+stime) each request costs and the peak RSS (VmHWM, reset
// with clear_refs before each request) above the RSS the process had idle
// after a warm-up. Each request must be answered, with a problem document
// where it is refused, within 2 s of CPU and 64 MB above idle; then again
// with 16 requests at once.
package budget_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/rest"
	"commerce/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

const (
	// cpuBudget and rssBudget are CONTRACT §1's bounds of one request (and,
	// for RSS, of a burst of concurrent ones).
	cpuBudget = 2 * time.Second
	rssBudget = 64 << 20
	// concurrent is the size of a burst.
	concurrent = 16
	// killRSS and killCPU are the watchdog's: a request past either has
	// failed already, and the process is killed (and restarted) before it
	// takes the machine with it.
	killRSS = 1 << 30
	killCPU = 15 * time.Second
	// maxBody is the JSON body limit of REST, /graphql and processor events.
	maxBody = 1 << 20
)

// ---------------------------------------------------------------------------
// The service.

type service struct {
	t    *testing.T
	bin  string
	env  []string
	base string
	dir  string
	// svc is the `commerce serve` process started last; the watchdog may
	// have killed it.
	svc    *testkit.Process
	client *http.Client
	// idle is the RSS after the warm-up, in bytes.
	idle int64
	// restarts counts the times the watchdog killed the process.
	restarts int
	// warmed are the targets a restart warms up again.
	warmed []target
}

func (s *service) start() {
	s.client = &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 2 * concurrent}}
	s.svc = testkit.StartProcess(s.t, s.bin, s.env, filepath.Join(s.dir, "service.log"), s.base, 60*time.Second, "serve")
}

// running reports whether the process started last has not ended (the
// watchdog kills it when a request goes past the kill limits).
func (s *service) running() bool {
	exited, _ := s.svc.Exited()
	return !exited
}

func (s *service) stop() {
	if s.svc != nil {
		_ = s.svc.Stop(syscall.SIGTERM, 15*time.Second)
	}
}

func (s *service) dumpLog() {
	if s.svc != nil {
		s.t.Logf("service log (end):\n%s", s.svc.LogTail(8000))
	}
}

// rssNow is the resident set of process pid now, from statm (cheap enough
// for the watchdog to poll).
func rssNow(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/statm", pid))
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, fmt.Errorf("short statm: %q", b)
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize()), err
}

// sample is what one request, or one burst, cost the process.
type sample struct {
	cpu    time.Duration
	growth int64 // peak RSS above idle, bytes
	own    int64 // peak RSS above the RSS when the request started, bytes
	killed string
}

// measure runs do and returns the process's CPU time and peak RSS over it.
// A watchdog kills the process when it goes past killRSS above idle or
// killCPU; the service is then restarted (and warmed up again) by the
// caller.
func (s *service) measure(do func()) sample {
	t := s.t
	svc := s.svc
	pid := svc.Pid()
	cpu0, err := testkit.ProcessCPU(pid)
	require.NoError(t, err)
	require.NoError(t, testkit.ResetPeakRSS(pid))
	rss0, err := rssNow(pid)
	require.NoError(t, err)
	var (
		killed atomic.Value
		atKill sample
	)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-svc.Done():
				killed.Store("the process exited")
				return
			case <-tick.C:
			}
			rss, err1 := rssNow(pid)
			cpu, err2 := testkit.ProcessCPU(pid)
			if err1 != nil || err2 != nil {
				continue
			}
			var why string
			switch {
			case rss-s.idle > killRSS:
				why = fmt.Sprintf("killed: RSS %d MB above idle after %s of CPU", (rss-s.idle)>>20, (cpu - cpu0).Round(10*time.Millisecond))
			case cpu-cpu0 > killCPU:
				why = fmt.Sprintf("killed: %s of CPU, RSS %d MB above idle", (cpu - cpu0).Round(10*time.Millisecond), (rss-s.idle)>>20)
			}
			if why != "" {
				atKill = sample{cpu: cpu - cpu0, growth: rss - s.idle, own: rss - rss0}
				killed.Store(why)
				_ = svc.Cmd.Process.Kill()
				return
			}
		}
	})
	do()
	close(done)
	wg.Wait()
	if why, ok := killed.Load().(string); ok {
		<-svc.Done()
		atKill.killed = why
		return atKill
	}
	cpu1, err := testkit.ProcessCPU(pid)
	require.NoError(t, err)
	hwm, err := testkit.ProcessPeakRSS(pid)
	require.NoError(t, err)
	return sample{cpu: cpu1 - cpu0, growth: max(hwm-s.idle, 0), own: max(hwm-rss0, 0)}
}

// ---------------------------------------------------------------------------
// Targets: every route of the route table, /graphql and /mcp.

type kind int

const (
	kindREST kind = iota
	kindGraphQL
	kindGraphQLMultipart
	kindMCP
)

type target struct {
	name         string // as the table shows it
	method, path string // the path with well-formed ids
	kind         kind
	key          string // "" sends none
	// fresh gives a new key for each request, for a route that ends its
	// caller (self-revoke, deleting the account).
	fresh func() string
	// readsJSON: the route decodes a JSON body (found by the probe).
	readsJSON bool
}

// listingID is a well-formed id no listing has: GraphQL and MCP hostile
// variables go to updateListing(id, input: {metadata}), which coerces them
// before it looks the listing up.
var listingID = db.NewID("lst")

const graphQLDocument = `mutation($v: Map) { updateListing(id: "%s", input: {metadata: $v}) { id } }`

// ---------------------------------------------------------------------------
// Inputs.

// input is one hostile request shape.
type input struct {
	name string
	// deep: JSON nested deeper than 32 levels, which every JSON endpoint
	// refuses with 400 invalid_request.
	deep bool
	// value is a hostile JSON value: a REST body itself when deep, else
	// the metadata of a listing ({"metadata": value}); the $v of the
	// GraphQL document; update_listing's input.metadata over MCP.
	value []byte
	// raw is a whole body, sent as it is.
	raw []byte
	// parts is a multipart body of this many parts.
	parts int
	// headers adds this many headers to a benign request.
	headers int
	// query is a query string added to a benign request.
	query string
}

func (in input) jsonBody() bool { return in.value != nil || in.raw != nil }

func deepArrays(n int) []byte {
	return append(bytes.Repeat([]byte("["), n), bytes.Repeat([]byte("]"), n)...)
}

func deepObjects(n int) []byte {
	b := bytes.Repeat([]byte(`{"a":`), n)
	b = append(b, '0')
	return append(b, bytes.Repeat([]byte("}"), n)...)
}

func manyKeys(n int) []byte {
	const digits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	var b bytes.Buffer
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('"')
		for v := i; ; v /= len(digits) {
			b.WriteByte(digits[v%len(digits)])
			if v < len(digits) {
				break
			}
		}
		b.WriteString(`":0`)
	}
	b.WriteByte('}')
	return b.Bytes()
}

func longArray(n int) []byte {
	b := bytes.Repeat([]byte("0,"), n)
	b[len(b)-1] = ']'
	return append([]byte(`{"a":[`), append(b, '}')...)
}

// multibyteString is {"note": "€€€…"}, sized so the largest envelope (an
// MCP call) stays within maxBody.
func multibyteString() []byte {
	const envelope = 400
	n := (maxBody - envelope) / len("€")
	return []byte(`{"note":"` + strings.Repeat("€", n) + `"}`)
}

func longQuery(size int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteByte('&')
		}
		fmt.Fprintf(&b, "k%d=v", i)
	}
	return b.String()
}

func inputs() []input {
	return []input{
		{name: "arrays 33 deep", deep: true, value: deepArrays(33)},
		{name: "arrays 1,000 deep", deep: true, value: deepArrays(1000)},
		{name: "arrays 100,000 deep", deep: true, value: deepArrays(100_000)},
		{name: "objects 33 deep", deep: true, value: deepObjects(33)},
		{name: "objects 1,000 deep", deep: true, value: deepObjects(1000)},
		{name: "objects 100,000 deep", deep: true, value: deepObjects(100_000)},
		{name: "1 MiB of [", deep: true, raw: bytes.Repeat([]byte("["), maxBody)},
		{name: "object of 100,000 keys", value: manyKeys(100_000)},
		{name: "array of 100,000 elements", value: longArray(100_000)},
		{name: "1 MiB string of €", value: multibyteString()},
		{name: "multipart of 10,000 parts", parts: 10_000},
		{name: "1,000 headers", headers: 1000},
		{name: "query string of 60 KB", query: longQuery(60_000)},
	}
}

// ---------------------------------------------------------------------------
// Requests.

// benign is a well-formed body for the target.
func benign(tg target) ([]byte, string) {
	switch tg.kind {
	case kindGraphQL:
		return []byte(`{"query":"{ ping { ok } }"}`), "application/json"
	case kindGraphQLMultipart:
		return multipartBody([]byte(`{"query":"{ ping { ok } }"}`), 0)
	case kindMCP:
		return []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ping","arguments":{}}}`), "application/json"
	}
	if tg.method == http.MethodGet {
		return nil, ""
	}
	return []byte(`{}`), "application/json"
}

// multipartBody is a GraphQL multipart request: operations, an empty map,
// then filler parts named purpose (the part POST /v1/files reads) up to
// parts in all.
func multipartBody(operations []byte, parts int) ([]byte, string) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	w, _ := mw.CreateFormField("operations")
	_, _ = w.Write(operations)
	w, _ = mw.CreateFormField("map")
	_, _ = w.Write([]byte(`{}`))
	for i := 2; i < parts; i++ {
		w, _ = mw.CreateFormField("purpose")
		_, _ = w.Write([]byte("x"))
	}
	_ = mw.Close()
	return b.Bytes(), mw.FormDataContentType()
}

func graphQLBody(value []byte) []byte {
	doc, _ := json.Marshal(fmt.Sprintf(graphQLDocument, listingID))
	return fmt.Appendf(nil, `{"query":%s,"variables":{"v":%s}}`, doc, value)
}

// body is the hostile body of in for tg.
func body(tg target, in input) ([]byte, string) {
	switch {
	case in.raw != nil:
		if tg.kind == kindGraphQLMultipart {
			return multipartBody(in.raw, 0)
		}
		return in.raw, "application/json"
	case in.value != nil:
		switch tg.kind {
		case kindGraphQL:
			return graphQLBody(in.value), "application/json"
		case kindGraphQLMultipart:
			return multipartBody(graphQLBody(in.value), 0)
		case kindMCP:
			return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"update_listing","arguments":{"id":%q,"input":{"metadata":%s}}}}`,
				listingID, in.value), "application/json"
		}
		if in.deep {
			return in.value, "application/json"
		}
		return fmt.Appendf(nil, `{"metadata":%s}`, in.value), "application/json"
	case in.parts > 0:
		return multipartBody([]byte(`{"query":"{ ping { ok } }"}`), in.parts)
	}
	return benign(tg)
}

func (s *service) request(tg target, in input) *http.Request {
	b, ct := body(tg, in)
	u := s.base + tg.path
	if in.query != "" {
		u += "?" + in.query
	}
	var r io.Reader
	if b != nil {
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(tg.method, u, r)
	require.NoError(s.t, err)
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	key := tg.key
	if tg.fresh != nil {
		key = tg.fresh()
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if tg.kind == kindMCP {
		req.Header.Set("Accept", "application/json, text/event-stream")
	}
	for i := range in.headers {
		req.Header.Set(fmt.Sprintf("X-Budget-%04d", i), "hostile-header-value")
	}
	return req
}

// answer is what came back.
type answer struct {
	status int
	code   string // the problem's (or GraphQL error's) code; "jsonrpc" for a JSON-RPC error
	err    error  // no answer: a connection error
	wall   time.Duration
	why    string // why the answer is not a refusal in the expected form ("" if it is)
}

func (s *service) send(req *http.Request, tg target) answer {
	start := time.Now()
	resp, err := s.client.Do(req)
	if err != nil {
		return answer{err: err, wall: time.Since(start)}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	a := answer{status: resp.StatusCode, wall: time.Since(start), err: err}
	if err != nil || resp.StatusCode < 400 && tg.kind == kindREST {
		return a
	}
	a.code, a.why = refusal(tg, resp, b)
	return a
}

// refusal reads the error an answer carries: a problem document (REST, and
// any endpoint's HTTP-level refusals), a GraphQL error with
// extensions.code, a JSON-RPC error or a tool result with isError (MCP).
func refusal(tg target, resp *http.Response, b []byte) (code, why string) {
	ct := resp.Header.Get("Content-Type")
	if strings.HasPrefix(ct, "application/problem+json") {
		var p struct {
			Code   string `json:"code"`
			Status int    `json:"status"`
			Type   string `json:"type"`
		}
		if err := json.Unmarshal(b, &p); err != nil || p.Code == "" || p.Type == "" || p.Status != resp.StatusCode {
			return "", fmt.Sprintf("a malformed problem document: %.200s", b)
		}
		return p.Code, ""
	}
	switch tg.kind {
	case kindGraphQL, kindGraphQLMultipart:
		var g struct {
			Errors []struct {
				Extensions struct {
					Code string `json:"code"`
				} `json:"extensions"`
			} `json:"errors"`
		}
		if err := json.Unmarshal(b, &g); err == nil && len(g.Errors) > 0 && g.Errors[0].Extensions.Code != "" {
			return g.Errors[0].Extensions.Code, ""
		}
		if resp.StatusCode < 400 {
			return "", ""
		}
		return "", fmt.Sprintf("not a GraphQL error with extensions.code (%s): %.200s", ct, b)
	case kindMCP:
		var m struct {
			Error *struct {
				Code int `json:"code"`
			} `json:"error"`
			Result *struct {
				IsError bool `json:"isError"`
			} `json:"result"`
		}
		if err := json.Unmarshal(b, &m); err == nil {
			switch {
			case m.Error != nil:
				return "jsonrpc " + strconv.Itoa(m.Error.Code), ""
			case m.Result != nil && m.Result.IsError:
				return "tool error", ""
			}
		}
		if resp.StatusCode < 400 {
			return "", ""
		}
		return "", fmt.Sprintf("not a JSON-RPC error (%s): %.200s", ct, b)
	}
	return "", fmt.Sprintf("not a problem document (%s): %.200s", ct, b)
}

// verdict says what is wrong with an answer to in on tg ("" when nothing).
func verdict(tg target, in input, a answer) string {
	switch {
	case a.err != nil:
		return "no answer: " + a.err.Error()
	case a.status >= 500:
		return fmt.Sprintf("%d %s", a.status, a.code)
	case a.why != "":
		return fmt.Sprintf("%d: %s", a.status, a.why)
	}
	jsonEndpoint := tg.readsJSON || tg.kind != kindREST
	if in.deep && jsonEndpoint {
		// CONTRACT §1: 400 invalid_request before any other work.
		if a.status != http.StatusBadRequest || a.code != "invalid_request" {
			return fmt.Sprintf("%d %s, want 400 invalid_request", a.status, a.code)
		}
	}
	if in.jsonBody() && jsonEndpoint && a.status < 400 && a.code == "" {
		return fmt.Sprintf("%d without an error", a.status)
	}
	return ""
}

// ---------------------------------------------------------------------------
// The test.

// row is one line of the measurements.
type row struct {
	input, target string
	status        int
	code          string
	s             sample
	wall          time.Duration
	fail          string
}

func TestResourceBudget(t *testing.T) {
	s := setup(t)
	targets := s.targets()
	ins := inputs()
	var rows []row
	fail := func(r row) {
		t.Errorf("%s → %s: %s", r.input, r.target, r.fail)
	}

	// One at a time: every input on every target.
	started := time.Now()
	for _, in := range ins {
		for _, tg := range targets {
			r := s.one(tg, in)
			rows = append(rows, r)
			if r.fail != "" {
				fail(r)
			}
		}
	}
	t.Logf("%d requests one at a time in %s (%d restarts after the watchdog)", len(rows), time.Since(started).Round(time.Millisecond), s.restarts)
	logTable(t, "one at a time", rows)

	// Bursts: each input on 16 JSON endpoints at once.
	var json []target
	for _, tg := range targets {
		if (tg.readsJSON || tg.kind != kindREST) && tg.fresh == nil {
			json = append(json, tg)
		}
	}
	require.GreaterOrEqual(t, len(json), concurrent)
	started = time.Now()
	var bursts []row
	for i, in := range ins {
		set := make([]target, concurrent)
		for j := range set {
			set[j] = json[(i*concurrent+j)%len(json)]
		}
		r := s.burst(set, in)
		bursts = append(bursts, r)
		if r.fail != "" {
			fail(r)
		}
	}
	t.Logf("%d bursts of %d in %s", len(bursts), concurrent, time.Since(started).Round(time.Millisecond))
	logTable(t, "16 at once", bursts)
}

// one sends in to tg and judges the answer and its cost.
func (s *service) one(tg target, in input) row {
	if !s.running() {
		s.restart()
	}
	req := s.request(tg, in)
	var a answer
	smp := s.measure(func() { a = s.send(req, tg) })
	r := row{input: in.name, target: tg.name, status: a.status, code: a.code, s: smp, wall: a.wall}
	r.fail = judge(smp, 1)
	if r.fail == "" {
		r.fail = verdict(tg, in, a)
	}
	return r
}

// burst sends in to every target of set at once.
func (s *service) burst(set []target, in input) row {
	if !s.running() {
		s.restart()
	}
	reqs := make([]*http.Request, len(set))
	for i, tg := range set {
		reqs[i] = s.request(tg, in)
	}
	answers := make([]answer, len(set))
	smp := s.measure(func() {
		var wg sync.WaitGroup
		for i := range set {
			wg.Go(func() { answers[i] = s.send(reqs[i], set[i]) })
		}
		wg.Wait()
	})
	r := row{input: in.name, target: fmt.Sprintf("%d endpoints", len(set)), s: smp}
	r.fail = judge(smp, len(set))
	codes := map[string]int{}
	for i, a := range answers {
		r.wall = max(r.wall, a.wall)
		codes[fmt.Sprintf("%d %s", a.status, a.code)]++
		if v := verdict(set[i], in, a); v != "" && r.fail == "" {
			r.fail = set[i].name + ": " + v
		}
	}
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range codes {
			if !yield(k) {
				return
			}
		}
	})
	r.code = strings.Join(keys, ", ")
	return r
}

// judge compares a sample with the budget of n requests: 2 s of CPU each,
// 64 MB of RSS above idle in all.
func judge(smp sample, n int) string {
	switch {
	case smp.killed != "":
		return smp.killed
	case smp.cpu > time.Duration(n)*cpuBudget:
		return fmt.Sprintf("%s of CPU, budget %s", smp.cpu, time.Duration(n)*cpuBudget)
	case smp.growth > rssBudget:
		return fmt.Sprintf("RSS %.1f MB above idle, budget 64 MB", float64(smp.growth)/(1<<20))
	}
	return ""
}

// logTable prints, per input, the worst CPU and RSS and the failures.
func logTable(t *testing.T, title string, rows []row) {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n  %-26s %4s %8s %10s %10s %9s  %s\n", title, "input", "n", "max CPU", "RSS > idle", "RSS > start", "max wall", "worst (by RSS above idle) · failures")
	var order []string
	byInput := map[string][]row{}
	for _, r := range rows {
		if _, ok := byInput[r.input]; !ok {
			order = append(order, r.input)
		}
		byInput[r.input] = append(byInput[r.input], r)
	}
	for _, name := range order {
		rs := byInput[name]
		var cpu, wall time.Duration
		var own int64
		worst := rs[0]
		failed := 0
		for _, r := range rs {
			cpu = max(cpu, r.s.cpu)
			wall = max(wall, r.wall)
			own = max(own, r.s.own)
			if r.s.growth > worst.s.growth {
				worst = r
			}
			if r.fail != "" {
				failed++
			}
		}
		answer := worst.code
		if worst.status != 0 {
			answer = fmt.Sprintf("%d %s", worst.status, worst.code)
		}
		fmt.Fprintf(&b, "  %-26s %4d %8s %8.1fMB %9.1fMB %9s  %s (%s)", name, len(rs), cpu, float64(worst.s.growth)/(1<<20),
			float64(own)/(1<<20), wall.Round(time.Millisecond), worst.target, answer)
		if failed > 0 {
			fmt.Fprintf(&b, " · %d failed", failed)
		}
		b.WriteByte('\n')
	}
	t.Log("\n" + b.String())
}

// ---------------------------------------------------------------------------
// Setup.

func setup(t *testing.T) *service {
	dir := t.TempDir()
	bin := testkit.BuildCommerce(t)

	addr := testkit.FreeAddr(t)
	s := &service{t: t, bin: bin, dir: dir, base: "http://" + addr}
	s.env = append(os.Environ(),
		"DATABASE_URL="+testkit.DatabaseURL, "REDIS_URL="+testkit.RedisURL,
		"LISTEN_ADDR="+addr, "BASE_URL="+s.base,
		// The limits would refuse the hundreds of requests of one key
		// before their bodies are read.
		"RATE_LIMIT_SCALE=1000000",
		"FILE_STORAGE_URL=file://"+filepath.Join(dir, "files"), "ALLOW_PRIVATE_TARGETS=true",
		"LOG_LEVEL=error", "LOG_FORMAT=json", "PROCESSOR=sandbox", "SMTP_URL=", "PPROF_ADDR=")
	s.start()
	t.Cleanup(func() {
		if t.Failed() {
			s.dumpLog()
		}
		s.stop()
	})
	return s
}

// account creates an account with the CLI and returns its key.
func (s *service) account() string {
	return testkit.CLIAccount(s.t, s.bin, s.env, "budget-"+testkit.Unique()+"@example.com")
}

// targets lists every route of rest.Routes (ids well-formed; a route that
// ends its caller gets a fresh key or account per request), /graphql and
// /mcp, and finds the REST routes that read a JSON body.
func (s *service) targets() []target {
	t := s.t
	key := s.account()
	// Accounts for DELETE /v1/account, made ahead (the CLI takes a while).
	accounts := make(chan string, 64)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range (len(inputs()) + 4) / 4 {
				accounts <- s.account()
			}
		})
	}
	wg.Wait()
	newKey := func() string {
		req, err := http.NewRequest(http.MethodPost, s.base+"/v1/api-keys", strings.NewReader(`{"name":"budget"}`))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		resp, err := s.client.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var out struct {
			Key string `json:"key"`
		}
		require.Equal(t, http.StatusCreated, resp.StatusCode, "%s", b)
		require.NoError(t, json.Unmarshal(b, &out))
		return out.Key
	}

	var out []target
	for _, rt := range rest.Routes {
		path := rt.Path
		for param, prefix := range rest.PathIDPrefixes(rt.Path) {
			path = strings.Replace(path, "{"+param+"}", db.NewID(prefix), 1)
		}
		tg := target{name: rt.Method + " " + rt.Path, method: rt.Method, path: path, kind: kindREST}
		if rt.Access == rest.Key {
			tg.key = key
		}
		switch {
		case rt.Method == http.MethodDelete && rt.Path == "/v1/account":
			tg.fresh = func() string {
				select {
				case k := <-accounts:
					return k
				default:
					return s.account()
				}
			}
		case rt.Path == "/v1/api-keys/self-revoke":
			tg.fresh = newKey
		}
		out = append(out, tg)
	}
	out = append(out,
		target{name: "POST /graphql (key)", method: http.MethodPost, path: "/graphql", kind: kindGraphQL, key: key},
		target{name: "POST /graphql (anonymous)", method: http.MethodPost, path: "/graphql", kind: kindGraphQL},
		target{name: "POST /graphql (multipart)", method: http.MethodPost, path: "/graphql", kind: kindGraphQLMultipart, key: key},
		target{name: "POST /mcp", method: http.MethodPost, path: "/mcp", kind: kindMCP, key: key},
	)

	// The probe: a REST route that answers an unknown field with 422
	// naming it decodes JSON bodies. Every target is called twice with a
	// well-formed request as a warm-up.
	for i := range out {
		tg := &out[i]
		if tg.kind != kindREST || tg.method == http.MethodGet {
			continue
		}
		req, err := http.NewRequest(tg.method, s.base+tg.path, strings.NewReader(`{"zz_probe":1}`))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		k := tg.key
		if tg.fresh != nil {
			k = tg.fresh()
		}
		if k != "" {
			req.Header.Set("Authorization", "Bearer "+k)
		}
		resp, err := s.client.Do(req)
		require.NoError(t, err)
		var p struct {
			Param string `json:"param"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&p)
		resp.Body.Close()
		tg.readsJSON = resp.StatusCode == http.StatusUnprocessableEntity && p.Param == "zz_probe"
	}
	s.warm(out)
	var reads []string
	for _, tg := range out {
		if tg.readsJSON {
			reads = append(reads, tg.name)
		}
	}
	t.Logf("%d targets; REST routes that read JSON: %s", len(out), strings.Join(reads, ", "))
	return out
}

// warm calls every target twice with a benign request, then takes the idle
// RSS.
func (s *service) warm(targets []target) {
	for range 2 {
		for _, tg := range targets {
			if tg.fresh != nil {
				continue
			}
			resp, err := s.client.Do(s.request(tg, input{}))
			require.NoError(s.t, err, tg.name)
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}
	time.Sleep(200 * time.Millisecond)
	rss, err := testkit.ProcessRSS(s.svc.Pid())
	require.NoError(s.t, err)
	s.idle = rss
	s.t.Logf("idle RSS after the warm-up: %.1f MB", float64(rss)/(1<<20))
	s.warmed = targets
}

func (s *service) restart() {
	s.restarts++
	s.start()
	s.warm(s.warmed)
}
