// Package server assembles the service from its configuration: the database
// and Redis connections, River, the resolvers, and one HTTP handler holding
// the /v1 REST facade, /graphql, the HTML pages, health checks and metrics.
// The commerce binary and the tests build the service through it.
package server

import (
	"cmp"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/redis/go-redis/v9"
	"github.com/riverqueue/river"

	"commerce/config"
	"commerce/console"
	"commerce/db"
	"commerce/jobs"
	"commerce/logging"
	"commerce/mail"
	"commerce/netguard"
	"commerce/pages"
	"commerce/problem"
	"commerce/processor"
	"commerce/processor/sandbox"
	"commerce/processor/stripe"
	"commerce/ratelimit"
	"commerce/requestlog"
	"commerce/resolvers"
	"commerce/rest"
	"commerce/storage"
	"commerce/telemetry"
	"commerce/webhooks"
)

// Version is the service version reported by /v1/ping.
var Version = "dev"

// Options choose what a process runs.
type Options struct {
	// Work runs River workers (serve without --no-worker, and worker).
	Work bool
	// RateLimitPrefix namespaces rate-limit keys in Redis (tests isolate themselves with it).
	RateLimitPrefix string
	// Tracing is OpenTelemetry's (telemetry.FromEnv); nil is off, and
	// nothing is instrumented (tracing.go).
	Tracing *telemetry.Tracing
}

// Server is the assembled service.
type Server struct {
	Config   config.Config
	Log      *slog.Logger
	DB       *db.DB
	Redis    redis.UniversalClient
	Limiter  *ratelimit.Limiter
	Jobs     *jobs.Client
	Resolver *resolvers.Resolver
	Registry *prometheus.Registry
	// Webhooks delivers the webhook records when the process works.
	Webhooks *resolvers.WebhookDispatcher
	// Mail delivers the stored email when the process works.
	Mail *mail.Dispatcher
	// RequestLog is the seller's request log (requestlog), on a Redis
	// client of its own (logRedis): its flushes never share a connection
	// or a round trip with the request path's.
	RequestLog *requestlog.Store
	logRedis   redis.UniversalClient

	work    bool
	tracing *telemetry.Tracing
	handler http.Handler
	// gql is the /graphql handler, which MCP tools execute through (mcp.go).
	gql http.Handler
	// stopBackground ends the goroutines New started; background waits for them.
	stopBackground context.CancelFunc
	background     sync.WaitGroup
}

// New connects to PostgreSQL and Redis and builds the service. Redis being
// down does not stop it (rate limits fail open; /readyz reports it).
func New(ctx context.Context, cfg config.Config, log *slog.Logger, opts Options) (*Server, error) {
	log = logging.Wrap(log) // no address or secret in any line (CONTRACT §24)
	// The request path may go through PgBouncer in transaction mode;
	// LISTEN and River's client use the direct URL.
	d, err := db.OpenDirect(ctx, cfg.DatabaseURL, cmp.Or(cfg.DatabaseDirectURL, cfg.DatabaseURL), dbOptions(opts.Tracing)...)
	if err != nil {
		return nil, err
	}
	d.SetLog(log)
	rdb, err := OpenRedis(cfg.RedisURL)
	if err != nil {
		d.Close()
		return nil, err
	}
	if err := traceRedis(opts.Tracing, rdb); err != nil {
		d.Close()
		_ = rdb.Close()
		return nil, err
	}

	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	registerMetrics(reg, d, rdb, log) // the pools and queues (metrics.go)

	fail := func(err error) (*Server, error) {
		d.Close()
		_ = rdb.Close()
		return nil, err
	}
	proc, err := newProcessor(cfg, d, opts.Tracing)
	if err != nil {
		return fail(err)
	}
	store, err := storage.Open(ctx, cfg.FileStorageURL)
	if err != nil {
		return fail(err)
	}
	guard, err := netguard.NewClient(netguard.Options{AllowPrivate: cfg.AllowPrivateTargets, ExtraCAFile: cfg.ExtraCAFile, FollowRedirects: true})
	if err != nil {
		return fail(err)
	}
	hookClient, err := netguard.NewClient(netguard.Options{AllowPrivate: cfg.AllowPrivateTargets, ExtraCAFile: cfg.ExtraCAFile,
		Timeout: 10 * time.Second, FollowRedirects: false, UserAgent: "commerce-webhooks/1",
		// One keep-alive pool: every attempt under way to a host can reuse a connection.
		IdlePerHost: 2 * resolvers.DispatchPerEndpoint})
	if err != nil {
		return fail(err)
	}
	guard, hookClient = traceHTTPClient(opts.Tracing, guard), traceHTTPClient(opts.Tracing, hookClient)
	secretsKey, err := serviceSecretsKey(ctx, cfg, d, log)
	if err != nil {
		return fail(err)
	}
	secrets, err := webhooks.NewSecretBox(secretsKey)
	if err != nil {
		return fail(fmt.Errorf("WEBHOOK_SECRETS_KEY: %w", err))
	}
	store.SetLinkKey(fileLinkKey(secretsKey), cfg.BaseURL)
	mailer, err := mail.NewSender(mail.Config{SMTPURL: cfg.SMTPURL, From: cfg.MailFrom}, log)
	if err != nil {
		return fail(err)
	}
	// The resolver's River client is set once River exists: its workers
	// need the resolver.
	res := resolvers.New(resolvers.Resolver{
		DB: d, Log: log, BaseURL: cfg.BaseURL, ConsoleURL: cfg.ConsoleURL, Version: Version,
		SandboxMail: cfg.SMTPURL == "",
		Storage:     store, HTTP: guard, AllowPrivateTargets: cfg.AllowPrivateTargets, Processor: proc,
		Secrets: secrets, RetrySchedule: cfg.WebhookRetrySchedule, WebhookHTTP: hookClient,
		CheckoutExpiry: cfg.CheckoutExpiry, LicenseTokenTTL: cfg.LicenseTokenTTL,
		WebhookAlertAfter: cfg.WebhookAlertAfter, MembershipRetrySchedule: cfg.MembershipRetrySchedule,
		Tracing: opts.Tracing,
	})
	jc, err := jobs.New(d, log, jobs.Options{Work: opts.Work, Storage: store, Middleware: riverMiddleware(opts.Tracing), AddWorkers: []func(*river.Workers){
		(&mail.SendWorker{}).Register,
		(&mail.PurgeWorker{DB: d}).Register,
		func(w *river.Workers) { river.AddWorker(w, &resolvers.SandboxRefundWorker{R: res}) },
		func(w *river.Workers) { river.AddWorker(w, &resolvers.CheckoutExpiryWorker{R: res}) },
		func(w *river.Workers) { river.AddWorker(w, &resolvers.CheckoutExpirySweepWorker{R: res}) },
		func(w *river.Workers) { river.AddWorker(w, &resolvers.WebhookWorker{R: res}) },
		func(w *river.Workers) { river.AddWorker(w, &resolvers.GraceWorker{R: res}) },
		func(w *river.Workers) { river.AddWorker(w, &resolvers.WebhookAlertsWorker{R: res}) },
		func(w *river.Workers) { river.AddWorker(w, &resolvers.LibrarySignInWorker{R: res}) },
		func(w *river.Workers) { river.AddWorker(w, &resolvers.MembershipRenewalSweepWorker{R: res}) },
	}})
	if err != nil {
		return fail(err)
	}
	limiter := ratelimit.New(rdb, opts.RateLimitPrefix, ratelimit.Scale(cfg.RateLimitScale))
	res.Limiter, res.Jobs, res.Mail = limiter, jc, &mail.Outbox{DB: d, Domain: mailer.Domain()}
	logRedis, err := OpenRedis(cfg.RedisURL)
	if err != nil {
		return fail(err)
	}
	res.Requests = requestlog.New(logRedis, opts.RateLimitPrefix)
	reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "commerce_request_log_dropped_total",
		Help: "Requests the sellers' request log did not keep: its buffer was full, or Redis failed their flush."},
		func() float64 { return float64(res.Requests.Dropped()) }))
	s := &Server{
		Config:   cfg,
		Log:      log,
		DB:       d,
		Redis:    rdb,
		Limiter:  limiter,
		Jobs:     jc,
		Resolver: res,
		Registry: reg,
		Webhooks: &resolvers.WebhookDispatcher{R: res},
		Mail:     &mail.Dispatcher{DB: d, Sender: mailer, Log: log, Tracer: opts.Tracing.Tracer(tracerName)},
		work:     opts.Work,
		tracing:  opts.Tracing,

		RequestLog: res.Requests,
		logRedis:   logRedis,
	}
	s.handler = s.routes()
	bg, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s.stopBackground = cancel
	// The process's heartbeat: a retry may take over an idempotency key
	// this process claimed once it stops beating (db/processes.go).
	s.background.Go(func() { d.Heartbeat(bg, log) })
	s.background.Go(func() { s.Resolver.ListenAuthInvalidations(bg) })
	s.background.Go(func() { s.Resolver.ServeEvents(bg) })
	// Product-page views: flushed every few seconds, and once more when
	// Close stops the background (after the last request was served).
	s.background.Go(func() { s.Resolver.CountViews(bg) })
	// The request log: flushed every half second, and once more at Close.
	s.background.Go(func() {
		s.RequestLog.Run(bg, func(err error) { log.Warn("request log entries dropped", "error", err) })
	})
	if opts.Work {
		// Periodic work, claimed by whichever worker process ticks first
		// (no leader: docs/decisions.md, "Periodic work without a leader").
		periodic := append(jobs.Builtin(), mail.PurgePeriodic(), resolvers.GracePeriodic(),
			resolvers.CheckoutExpiryPeriodic(cfg.CheckoutExpiry), resolvers.WebhookAlertsPeriodic(cfg.WebhookAlertAfter),
			resolvers.MembershipRenewalPeriodic())
		s.background.Go(func() { jobs.RunPeriodic(bg, d, jc, log, periodic) })
		// The jobs of dead processes made available again (decisions: "The
		// leader-kill drill"; this process beats with d.Heartbeat above).
		s.background.Go(func() { jobs.RunLiveness(bg, d, log) })
	}
	return s, nil
}

// fileLinkKey is the key the file store's signed links are signed with
// (storage.SignedLink, CONTRACT §21): HMAC-SHA256 of a fixed label under
// the service's secrets key, so every process has it, it is never the
// sealing key itself, and rotating WEBHOOK_SECRETS_KEY only ends the links
// of the last 5 minutes.
func fileLinkKey(secretsKey []byte) []byte {
	m := hmac.New(sha256.New, secretsKey)
	m.Write([]byte("commerce file links v1"))
	return m.Sum(nil)
}

// serviceSecretsKey is the key webhook secrets are sealed with, from
// WEBHOOK_SECRETS_KEY, or, when it is unset (development, tests), a key the
// service generates once and keeps in the database (service_keys).
func serviceSecretsKey(ctx context.Context, cfg config.Config, d *db.DB, log *slog.Logger) ([]byte, error) {
	var key []byte
	if cfg.WebhookSecretsKey != "" {
		k, err := webhooks.ParseKey(cfg.WebhookSecretsKey)
		if err != nil {
			return nil, fmt.Errorf("WEBHOOK_SECRETS_KEY: %w", err)
		}
		key = k
	} else {
		fresh := make([]byte, 32)
		if _, err := rand.Read(fresh); err != nil {
			return nil, err
		}
		if _, err := d.Pool.Exec(ctx, `INSERT INTO service_keys (name, key) VALUES ('webhook_secrets', $1) ON CONFLICT (name) DO NOTHING`, fresh); err != nil {
			return nil, fmt.Errorf("webhook secrets key: %w", err)
		}
		if err := d.Pool.QueryRow(ctx, `SELECT key FROM service_keys WHERE name = 'webhook_secrets'`).Scan(&key); err != nil {
			return nil, fmt.Errorf("webhook secrets key: %w", err)
		}
		log.Debug("WEBHOOK_SECRETS_KEY is unset: webhook secrets are sealed with a key kept in the database; set it in production")
	}
	return key, nil
}

// newProcessor builds the payment processor PROCESSOR names.
// The sandbox keeps its charges of stored payment methods (memberships'
// renewals) in the service's database.
func newProcessor(cfg config.Config, d *db.DB, t *telemetry.Tracing) (processor.Processor, error) {
	if cfg.Processor == processor.Stripe {
		p, err := stripe.New(stripe.Config{SecretKey: cfg.StripeSecretKey, WebhookSecret: cfg.StripeWebhookSecret, APIBase: cfg.StripeAPIBase,
			HTTPClient: processorHTTPClient(t)})
		if err != nil {
			return nil, fmt.Errorf("PROCESSOR=stripe: %w", err)
		}
		return p, nil
	}
	p := sandbox.New(cfg.BaseURL)
	p.DB = d
	return p, nil
}

// Handler is the service's HTTP handler.
func (s *Server) Handler() http.Handler { return s.handler }

// Start runs the background workers when this process works jobs.
func (s *Server) Start(ctx context.Context) error {
	if !s.work {
		return nil
	}
	jobs.Observe(ctx, s.Jobs, s.Registry, s.Log)
	if err := jobs.Start(ctx, s.Jobs); err != nil {
		return fmt.Errorf("start workers: %w", err)
	}
	s.Webhooks.Start(ctx)
	s.Mail.Start(ctx)
	return nil
}

// Close stops the workers, letting running jobs finish until ctx ends, and
// closes the connections.
func (s *Server) Close(ctx context.Context) {
	if s.work {
		// The dispatchers drain at once, each within ctx.
		var dispatchers sync.WaitGroup
		dispatchers.Go(func() { s.Webhooks.Stop(ctx) })
		dispatchers.Go(func() { s.Mail.Stop(ctx) })
		dispatchers.Wait()
		if err := jobs.Stop(ctx, s.Jobs); err != nil {
			s.Log.Warn("workers did not stop cleanly", "error", err)
		}
	}
	s.stopBackground()
	s.background.Wait()
	_ = s.Redis.Close()
	_ = s.logRedis.Close()
	s.DB.Close()
	_ = s.Resolver.Storage.Close()
}

func (s *Server) routes() http.Handler {
	ps := rest.Problems{BaseURL: s.Config.BaseURL, Log: s.Log}
	metrics := rest.NewMetrics(s.Registry)
	s.Resolver.LimitRefused = metrics.Refused // the resolvers' own limits, counted too
	api := &rest.API{Resolver: s.Resolver, DB: s.DB, Limiter: s.Limiter, Problems: ps, Metrics: metrics, Version: Version}

	r := chi.NewRouter()
	// Tracing's span for every request, named by the matched pattern
	// (tracing.go): first, so that it holds the whole request.
	if mw := s.tracing.HTTP(routePattern); mw != nil {
		r.Use(mw)
	}
	r.Use(rest.Correlate, rest.TrustedClientIP(s.Config.TrustedProxies), rest.AccessLog(s.Log, metrics), rest.RequestLog(s.RequestLog), rest.Recover(ps))
	// Every GET route also answers HEAD (CONTRACT §10): a HEAD with no
	// route of its own is routed to the GET handler (the body is dropped).
	r.Use(middleware.GetHead)
	r.NotFound(func(w http.ResponseWriter, req *http.Request) {
		ps.Write(w, req, problem.Newf(problem.NotFound, "No route %s %s.", req.Method, req.URL.Path))
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, req *http.Request) {
		allowed := allowedMethods(r, req.URL.Path)
		p := problem.Newf(problem.MethodNotAllowed, "%s is not allowed on %s; allowed: %s.", req.Method, req.URL.Path, strings.Join(allowed, ", "))
		p.Header = http.Header{"Allow": {strings.Join(allowed, ", ")}}
		ps.Write(w, req, p)
	})

	r.Get("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"status":"ok"}` + "\n"))
	})
	r.Get("/readyz", s.readyz)
	if s.Config.MetricsAddr == "" { // else on METRICS_ADDR alone (cmd/commerce)
		r.Method(http.MethodGet, "/metrics", s.MetricsHandler())
	}
	r.Get("/errors/{code}", pages.ErrorCode)
	// The GraphQL IDE (GraphiQL, embedded; GET /graphql below) answers HEAD
	// too, and serves its scripts and style sheets itself.
	r.Head("/graphql", graphiQL().ServeHTTP)
	ideFiles := graphiQLAssets(r.NotFoundHandler())
	r.Get("/graphql/assets/*", ideFiles.ServeHTTP)
	r.Head("/graphql/assets/*", ideFiles.ServeHTTP)

	gql := graphQLHandler(s.Resolver, ps, s.Log, api.Charge, api.ChargeOperation, s.tracing.Tracer(tracerName), newGraphQLMetrics(s.Registry))
	// An API key, or else the console's session cookie (sessions.go).
	sessions := newConsoleSessions(s.Resolver, ps, s.Config.BaseURL, s.Config.ConsoleURL)
	// The CSV exports take the cookie too (the console's download link).
	api.Session = sessions.readSession
	s.gql = gql
	// GET: the IDE, or the subscriptions' websocket (graphql-ws).
	r.Get("/graphql", graphQLGet(sessions.authenticate(gql), ps, s.Config.BaseURL, s.Config.ConsoleURL))
	// Rate limits count per field, in the handler (graphql_limits.go).
	// The body limit comes before anything reads the body: nothing reads
	// more than 1 MiB of JSON.
	// Every response carries the cost budget's RateLimit-* headers
	// (graphQLResponses, first, so that refusals do too; authentication,
	// which reads only headers, before the body limit, so that a refusal
	// of the body reports the caller's budget). A key served from memory is
	// confirmed in the operation's Redis round trip (costLimit), or by
	// graphQLResponses when no operation ran.
	r.With(graphQLResponses(api.ChargeOperation, ps), api.AuthenticateDeferred(false), sessions.authenticate, graphQLSubject,
		graphQLBodyLimit(ps), api.Idempotent).Method(http.MethodPost, "/graphql", gql)

	// MCP (mcp.go) and the documents for agents (agents.go).
	r.Method(http.MethodPost, "/mcp", s.mcpHandler(api, ps))
	r.Get("/llms.txt", s.llmsTxt)
	r.Get("/graphql/schema.graphql", graphQLSchema)
	// The keys that verify license tokens offline (licensing.go).
	r.Get("/.well-known/jwks.json", s.jwks(ps))

	// The Agentic Commerce Protocol (CONTRACT §25): discovery, /acp (REST
	// and MCP), the sandbox's delegate payment (package acp).
	s.acpRoutes(r, api)
	api.Routes(r)
	site := &pages.Site{Resolver: s.Resolver, Log: s.Log, Problems: ps.Write}
	site.Routes(r)
	site.FrontRoutes(r)
	site.DocsRoutes(r)
	site.AssetRoutes(r)
	// The developer console (console.go), the front door and the API reference.
	mountConsole(r, consolePath(s.Config.ConsoleURL), console.Files, r.NotFoundHandler())
	r.Get(apidocsPath, apiReference().ServeHTTP)
	r.Head(apidocsPath, apiReference().ServeHTTP)
	docFiles := apiReferenceAssets(r.NotFoundHandler())
	r.Get(apidocsAssets+"*", docFiles.ServeHTTP)
	r.Head(apidocsAssets+"*", docFiles.ServeHTTP)
	return r
}

// allowedMethods lists the methods the router accepts on path.
func allowedMethods(r chi.Routes, path string) []string {
	var out []string
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		if r.Match(chi.NewRouteContext(), m, path) {
			out = append(out, m)
		}
	}
	return out
}

// readyz answers 200 when PostgreSQL and Redis both answer within a second,
// else 503, naming what failed.
func (s *Server) readyz(w http.ResponseWriter, req *http.Request) {
	ctx, cancel := context.WithTimeout(req.Context(), time.Second)
	defer cancel()
	status := map[string]string{"postgres": "ok", "redis": "ok"}
	code := http.StatusOK
	pgErr := make(chan error, 1)
	go func() { pgErr <- s.DB.Pool.Ping(ctx) }()
	if err := s.Redis.Ping(ctx).Err(); err != nil {
		status["redis"], code = "unavailable", http.StatusServiceUnavailable
		s.Log.Error("readiness: redis", "error", err)
	}
	if err := <-pgErr; err != nil {
		status["postgres"], code = "unavailable", http.StatusServiceUnavailable
		s.Log.Error("readiness: postgres", "error", err)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_, _ = fmt.Fprintf(w, `{"status":%q,"postgres":%q,"redis":%q}`+"\n",
		map[bool]string{true: "ready", false: "unavailable"}[code == http.StatusOK], status["postgres"], status["redis"])
}
