// Package resolvers is the application core: every use case of the service,
// written once and called by the GraphQL schema, the REST facade, the HTML
// pages and the operator commands alike. Resolvers authorize by the caller's
// account, validate input, and return API models or *problem.Problem errors.
package resolvers

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"commerce/analytics"
	"commerce/db"
	"commerce/graph"
	"commerce/jobs"
	"commerce/mail"
	"commerce/membership"
	"commerce/netguard"
	"commerce/processor"
	"commerce/ratelimit"
	"commerce/requestlog"
	"commerce/storage"
	"commerce/telemetry"
	"commerce/webhooks"
)

// Resolver holds the dependencies of every use case.
type Resolver struct {
	DB *db.DB
	// ExportPageSize is how many rows a CSV export reads per query; zero is
	// ExportPageSize (tests make it small to cross pages).
	ExportPageSize int
	Log            *slog.Logger
	BaseURL        string
	ConsoleURL     string
	// Processor is the payment processor (Stripe or the sandbox).
	Processor processor.Processor
	// Limiter enforces the rate limits that depend on a request's content
	// (bootstrap passcodes per email); route limits are REST middleware.
	Limiter *ratelimit.Limiter
	// LimitRefused, when set, is told the group of every refusal of the
	// limits checked here (bootstrap passcodes, event subscription slots),
	// for commerce_ratelimit_rejections_total.
	LimitRefused func(group string)
	// Mail stores outgoing email (the outbox).
	Mail Mailer
	// SandboxMail serves the kept mail at /sandbox/mail (no SMTP_URL; only
	// under the sandbox processor).
	SandboxMail bool
	// SitemapURLs is the most URLs in one sitemap (0: the protocol's
	// 50,000); tests lower it to see the sitemap index.
	SitemapURLs int
	// Storage holds uploads, covers, avatars and deliverable files.
	Storage *storage.Store
	// Jobs inserts background jobs inside transactions.
	Jobs *jobs.Client
	// HTTP is the SSRF-safe client for user-given URLs (netguard).
	HTTP *http.Client
	// AllowPrivateTargets lets user-given URLs be http and reach private
	// addresses (ALLOW_PRIVATE_TARGETS).
	AllowPrivateTargets bool
	// DNS resolves the hosts of webhook URLs for the address policy
	// (netguard.CheckHost); nil is net.DefaultResolver. Tests replace it
	// together with HTTP and WebhookHTTP (netguard.Options.Resolver).
	DNS netguard.Resolver
	// Secrets seals webhook signing secrets at rest.
	Secrets *webhooks.SecretBox
	// RetrySchedule is the delay before each webhook retry.
	RetrySchedule []time.Duration
	// WebhookAlertAfter is how long an endpoint fails before its seller is
	// warned (WEBHOOK_ALERT_AFTER); zero is alerts.DefaultAfter, an hour.
	WebhookAlertAfter time.Duration
	// MembershipRetrySchedule is when a failed membership renewal is tried
	// again (MEMBERSHIP_RETRY_SCHEDULE); nil is membership.DefaultSchedule.
	MembershipRetrySchedule membership.Schedule
	// WebhookHTTP posts webhooks: SSRF-safe, no redirects, 10 s.
	WebhookHTTP *http.Client
	// Tracing is OpenTelemetry's; nil is off (tracing.go).
	Tracing *telemetry.Tracing
	// CheckoutExpiry is how long an unpaid checkout lives before its order
	// is canceled (CHECKOUT_EXPIRY); zero is the default, 30 minutes.
	CheckoutExpiry time.Duration
	// LicenseTokenTTL is how long a license token is valid
	// (LICENSE_TOKEN_TTL); zero is licensing.DefaultTokenTTL, 14 days.
	LicenseTokenTTL time.Duration
	// LicenseKeysRefresh is how often the license signing keys are read
	// again; zero is DefaultLicenseKeysRefresh. Tests shorten it.
	LicenseKeysRefresh time.Duration
	// Requests is the seller's request log (requestlog.go).
	Requests *requestlog.Store
	// Version is the running version, reported by ping.
	Version string
	// Now is the clock; tests may replace it.
	Now func() time.Time

	auth *authCache
	// events wakes the live event subscriptions (events_stream.go).
	events *eventHub
	// licenseKeys caches the license signing keys (licensing.go).
	licenseKeys *licenseKeys
	// views counts product-page views (views.go).
	views *analytics.Counter
}

// Mailer stores a message inside tx for the mail dispatchers to deliver
// once tx commits.
type Mailer interface {
	Send(ctx context.Context, tx db.Tx, m mail.Message) (string, error)
}

// New returns a Resolver with deps' dependencies.
func New(deps Resolver) *Resolver {
	r := deps
	if r.Now == nil {
		r.Now = time.Now
	}
	r.auth = newAuthCache()
	r.events = newEventHub()
	r.licenseKeys = &licenseKeys{}
	r.views = analytics.NewCounter(analytics.CounterOptions{Flush: r.writeViews, Now: func() time.Time { return r.Now() }})
	return &r
}

// Root is the GraphQL resolver root over r. (A separate type: the root's
// Listing() would clash with the Listing use case on Resolver.)
func (r *Resolver) Root() graph.ResolverRoot { return root{r} }

type root struct{ r *Resolver }

var (
	_ graph.ResolverRoot     = root{}
	_ graph.QueryResolver    = queryResolver{}
	_ graph.MutationResolver = mutationResolver{}
	_ graph.AccountResolver  = accountResolver{}
	_ graph.ListingResolver  = listingResolver{}
)

func (x root) Query() graph.QueryResolver       { return queryResolver{x.r} }
func (x root) Mutation() graph.MutationResolver { return mutationResolver{x.r} }
func (x root) Account() graph.AccountResolver   { return accountResolver{x.r} }
func (x root) Listing() graph.ListingResolver   { return listingResolver{x.r} }

// The GraphQL roots are the Resolver itself: every field's method is the
// same method REST calls.
type (
	queryResolver    struct{ *Resolver }
	mutationResolver struct{ *Resolver }
	accountResolver  struct{ *Resolver }
	listingResolver  struct{ *Resolver }
)

type timeT = time.Time
