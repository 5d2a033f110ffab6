package testkit

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"commerce/config"
	"commerce/docs"
	"commerce/server"
	"commerce/telemetry"
)

// Env is one running service under test.
type Env struct {
	T      testing.TB
	Server *server.Server
	HTTP   *httptest.Server
	// URL is the base URL (no trailing slash).
	URL string
}

// Option adjusts an Env before it starts.
type Option func(*envOptions)

type envOptions struct {
	work    bool
	config  func(*config.Config)
	prefix  string
	log     *slog.Logger
	tracing *telemetry.Tracing
}

// WithTracing traces the service on tp (the SDK's in-memory exporter, in
// tests of tracing).
func WithTracing(tp trace.TracerProvider) Option {
	return func(o *envOptions) { o.tracing = telemetry.New(tp) }
}

// WithWorkers runs River workers in the Env.
func WithWorkers() Option { return func(o *envOptions) { o.work = true } }

// WithLogger gives the service log instead of Logger's (to read what it
// logs: access lines are at level info).
func WithLogger(l *slog.Logger) Option { return func(o *envOptions) { o.log = l } }

// WithConfig changes the configuration before the service is built.
func WithConfig(fn func(*config.Config)) Option { return func(o *envOptions) { o.config = fn } }

// WithRedisPrefix sets the Redis key prefix (rate limits, revocation
// markers). Two Envs given the same prefix behave as two processes of one
// deployment; by default each Env has its own.
func WithRedisPrefix(p string) Option { return func(o *envOptions) { o.prefix = p } }

// NewRedisPrefix returns a fresh prefix for WithRedisPrefix.
func NewRedisPrefix() string { return "t" + randomHex(6) + ":" }

// New starts the whole service on an httptest server; it stops with the test.
func New(t testing.TB, opts ...Option) *Env {
	t.Helper()
	var o envOptions
	for _, fn := range opts {
		fn(&o)
	}
	// h is set once the service is built; ready's close publishes it to the
	// server's goroutines (a client in another process, such as the browser
	// tests' Chromium, gives the race detector no other ordering).
	var h http.Handler
	ready := make(chan struct{})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-ready; h.ServeHTTP(w, r) }))
	t.Cleanup(hs.Close)
	cfg := Config(t)
	cfg.BaseURL = hs.URL
	cfg.ConsoleURL = hs.URL + "/console"
	if o.config != nil {
		o.config(&cfg)
	}
	if o.prefix == "" {
		o.prefix = NewRedisPrefix()
	}
	if o.tracing == nil && os.Getenv("COMMERCE_TEST_TRACING") == "memory" {
		// Every Env traced, spans counted and dropped: the suite run with
		// tracing on (README, Testing).
		o.tracing = telemetry.New(sdktrace.NewTracerProvider(sdktrace.WithBatcher(&telemetry.CountingExporter{})))
		t.Cleanup(func() { _ = o.tracing.Provider.(*sdktrace.TracerProvider).Shutdown(context.Background()) })
	}
	ctx, cancel := context.WithCancel(context.Background())
	log := o.log
	if log == nil {
		log = Logger()
	}
	srv, err := server.New(ctx, cfg, log, server.Options{Work: o.work, RateLimitPrefix: o.prefix, Tracing: o.tracing})
	require.NoError(t, err)
	require.NoError(t, srv.Start(ctx))
	t.Cleanup(func() {
		hs.Close()
		cancel()
		srv.Close(context.Background())
	})
	h = srv.Handler()
	close(ready)
	// The process's listening connection is dialled in the background: until
	// it is up, keys are checked in the database on every request. Tests
	// start from the settled state a running service is in (statement
	// budgets count on it).
	require.Eventually(t, srv.Resolver.AuthCacheServing, 10*time.Second, 5*time.Millisecond,
		"the service's listening connection (DATABASE_DIRECT_URL) did not come up")
	return &Env{T: t, Server: srv, HTTP: hs, URL: hs.URL}
}

// Account is a test account with a full-scope key.
type Account struct {
	ID    string
	Email string
	Key   string
}

// NewAccount creates an account (free plan unless plan is given) with a
// full-scope API key.
func (e *Env) NewAccount(plan ...string) Account {
	e.T.Helper()
	p := "free"
	if len(plan) > 0 {
		p = plan[0]
	}
	email := "seller-" + Unique() + "@example.com"
	out, err := e.Server.Resolver.CreateAccount(context.Background(), email, p, "test", false)
	require.NoError(e.T, err)
	return Account{ID: out.Account.ID, Email: email, Key: out.Key.Key}
}

// Response is a finished HTTP exchange.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into a map.
func (r *Response) JSON(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(r.Body, &m), "body: %s", r.Body)
	return m
}

// Decode decodes the body into v.
func (r *Response) Decode(t testing.TB, v any) {
	t.Helper()
	require.NoError(t, json.Unmarshal(r.Body, v), "body: %s", r.Body)
}

// Request describes a call; Body is marshalled to JSON unless it is a string or []byte.
type Request struct {
	Method  string
	Path    string
	Key     string
	Body    any
	Header  map[string]string
	NoCheck bool // skip OpenAPI validation (deliberately malformed calls)
}

// Do performs a request and validates the response against the OpenAPI
// document when the route is in it.
func (e *Env) Do(req Request) *Response {
	e.T.Helper()
	var body io.Reader
	var raw []byte
	switch b := req.Body.(type) {
	case nil:
	case string:
		raw = []byte(b)
	case []byte:
		raw = b
	default:
		var err error
		raw, err = json.Marshal(b)
		require.NoError(e.T, err)
	}
	if raw != nil {
		body = bytes.NewReader(raw)
	}
	hr, err := http.NewRequest(req.Method, e.URL+req.Path, body)
	require.NoError(e.T, err)
	if raw != nil {
		hr.Header.Set("Content-Type", "application/json")
	}
	if req.Key != "" {
		hr.Header.Set("Authorization", "Bearer "+req.Key)
	}
	for k, v := range req.Header {
		hr.Header.Set(k, v)
	}
	resp, err := e.HTTP.Client().Do(hr)
	require.NoError(e.T, err)
	defer resp.Body.Close()
	rb, err := io.ReadAll(resp.Body)
	require.NoError(e.T, err)
	out := &Response{Status: resp.StatusCode, Header: resp.Header, Body: rb}
	require.NotEmpty(e.T, resp.Header.Get("X-Correlation-Id"), "every response carries x-correlation-id")
	if !req.NoCheck {
		if raw != nil {
			hr.Body = io.NopCloser(bytes.NewReader(raw))
		}
		ValidateResponse(e.T, hr, out)
	}
	return out
}

// Get is Do for a GET with a key.
func (e *Env) Get(path, key string) *Response {
	e.T.Helper()
	return e.Do(Request{Method: http.MethodGet, Path: path, Key: key})
}

// Post is Do for a POST with a key and a JSON body.
func (e *Env) Post(path, key string, body any) *Response {
	e.T.Helper()
	return e.Do(Request{Method: http.MethodPost, Path: path, Key: key, Body: body})
}

// NoRedirect is the env's HTTP client without following redirects (a
// 303's Location is read, not followed).
func (e *Env) NoRedirect() *http.Client {
	c := *e.HTTP.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &c
}

// ConnectSandbox makes the account of key operational through the sandbox
// processor's onboarding, in currency.
func (e *Env) ConnectSandbox(key, currency string) {
	e.T.Helper()
	onb := e.Post("/v1/account/processor/connect", key, nil)
	require.Equal(e.T, 200, onb.Status, "%s", onb.Body)
	resp, err := e.NoRedirect().PostForm(onb.JSON(e.T)["url"].(string), url.Values{"currency": {currency}})
	require.NoError(e.T, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	require.Equal(e.T, 303, resp.StatusCode)
}

var (
	specOnce   sync.Once
	specDoc    *openapi3.T
	specRouter routers.Router
	specErr    error
)

func init() {
	// Non-JSON bodies are checked for their content type only.
	for _, ct := range []string{"text/html", "application/yaml", "text/plain", "text/markdown"} {
		openapi3filter.RegisterBodyDecoder(ct, openapi3filter.FileBodyDecoder)
	}
}

// OpenAPI returns the parsed and validated OpenAPI document.
func OpenAPI(t testing.TB) (*openapi3.T, routers.Router) {
	t.Helper()
	specOnce.Do(func() {
		loader := openapi3.NewLoader()
		specDoc, specErr = loader.LoadFromData(docs.OpenAPI)
		if specErr != nil {
			return
		}
		if specErr = specDoc.Validate(context.Background()); specErr != nil {
			return
		}
		// Match requests by path alone: the test server's host is not a server of the document.
		specDoc.Servers = nil
		specRouter, specErr = gorillamux.NewRouter(specDoc)
	})
	require.NoError(t, specErr, "docs/openapi.yaml")
	return specDoc, specRouter
}

// ValidateResponse checks a response against the OpenAPI document: its
// status must be documented for the route and its body must match the schema.
// Routes the document does not have (the 404 and 405 cases) are not checked.
func ValidateResponse(t testing.TB, req *http.Request, resp *Response) {
	t.Helper()
	_, router := OpenAPI(t)
	route, params, err := router.FindRoute(req)
	if err != nil {
		return
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
		},
		Status: resp.Status,
		Header: resp.Header,
		Options: &openapi3filter.Options{
			IncludeResponseStatus: true,
			MultiError:            true,
		},
	}
	in.SetBodyBytes(resp.Body)
	err = openapi3filter.ValidateResponse(context.Background(), in)
	require.NoError(t, err, "%s %s → %d does not match docs/openapi.yaml\nbody: %s", req.Method, req.URL.Path, resp.Status, truncate(resp.Body))
}

func truncate(b []byte) string {
	s := string(b)
	if len(s) > 2000 {
		return s[:2000] + "…"
	}
	return strings.TrimSpace(s)
}
