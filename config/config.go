// Package config reads the service's configuration from the environment
// (CONTRACT §13). An invalid value is an error naming the variable.
package config

import (
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"commerce/alerts"
	"commerce/licensing"
	"commerce/logging"
	"commerce/membership"
)

// Development defaults: the local services that `make run` starts.
const (
	DefaultDatabaseURL = "postgres://postgres@127.0.0.1:55432/commerce?sslmode=disable"
	DefaultRedisURL    = "redis://127.0.0.1:56379/0"
)

// DefaultCheckoutExpiry is how long an unpaid checkout lives (CONTRACT §13).
const DefaultCheckoutExpiry = 30 * time.Minute

// DefaultWebhookRetrySchedule is the delay before each of the 7 retries.
var DefaultWebhookRetrySchedule = []time.Duration{
	5 * time.Second, 30 * time.Second, 2 * time.Minute, 10 * time.Minute,
	30 * time.Minute, 2 * time.Hour, 6 * time.Hour,
}

// Config is the whole configuration of a process.
type Config struct {
	ListenAddr           string
	BaseURL              string
	ConsoleURL           string
	DatabaseURL          string
	DatabaseDirectURL    string // no pooler in transaction mode: LISTEN, River (DATABASE_DIRECT_URL, default DATABASE_URL)
	RedisURL             string
	Processor            string // "sandbox" or "stripe"
	StripeSecretKey      string
	StripeWebhookSecret  string
	StripeAPIBase        string
	SMTPURL              string
	MailFrom             string
	FileStorageURL       string
	AllowPrivateTargets  bool
	ExtraCAFile          string
	WebhookRetrySchedule []time.Duration
	// WebhookSecretsKey encrypts webhook signing secrets at rest (32 bytes,
	// base64 in WEBHOOK_SECRETS_KEY). Empty: the service generates one and
	// keeps it in the database (development).
	WebhookSecretsKey string
	LogLevel          slog.Level
	LogFormat         string // "json" or "text"
	TrustedProxies    []netip.Prefix
	// RateLimitScale multiplies every rate limit (benchmarks; default 1).
	RateLimitScale int
	// PprofAddr, when set, serves net/http/pprof on a listener of its own
	// (keep it on loopback: profiles reveal internals).
	PprofAddr string
	// MetricsAddr, when set, serves /metrics on a listener of its own, and
	// the service's listener does not (METRICS_ADDR, host:port; CONTRACT
	// §24). A worker process has /metrics only there.
	MetricsAddr string
	// CheckoutExpiry is how long an unpaid checkout lives before its order
	// is canceled (CHECKOUT_EXPIRY, default 30m, 1s..24h).
	CheckoutExpiry time.Duration
	// LicenseTokenTTL is how long a license token is valid offline
	// (LICENSE_TOKEN_TTL, default 14 days, 1m..365d).
	LicenseTokenTTL time.Duration
	// WebhookAlertAfter is how long a webhook endpoint fails (no 2xx, at
	// least five failed attempts) before its seller is warned
	// (WEBHOOK_ALERT_AFTER, default 1h, 1s..168h; CONTRACT §22).
	WebhookAlertAfter time.Duration
	// MembershipRetrySchedule is when a failed membership renewal is tried
	// again, after its due date (MEMBERSHIP_RETRY_SCHEDULE, default
	// 1d,3d,5d,7d; CONTRACT §26).
	MembershipRetrySchedule membership.Schedule
}

// FromEnv reads the configuration from the process environment.
func FromEnv() (Config, error) { return Load(os.Getenv) }

// Load reads the configuration through getenv; the first invalid variable is
// reported by name.
func Load(getenv func(string) string) (Config, error) {
	c := Config{
		ListenAddr:          or(getenv("LISTEN_ADDR"), ":8080"),
		BaseURL:             strings.TrimRight(or(getenv("BASE_URL"), "http://localhost:8080"), "/"),
		DatabaseURL:         or(getenv("DATABASE_URL"), DefaultDatabaseURL),
		RedisURL:            or(getenv("REDIS_URL"), DefaultRedisURL),
		StripeSecretKey:     getenv("STRIPE_SECRET_KEY"),
		StripeWebhookSecret: getenv("STRIPE_WEBHOOK_SECRET"),
		StripeAPIBase:       getenv("STRIPE_API_BASE"),
		SMTPURL:             getenv("SMTP_URL"),
		MailFrom:            getenv("MAIL_FROM"),
		FileStorageURL:      or(getenv("FILE_STORAGE_URL"), "file://./.data/files"),
		ExtraCAFile:         getenv("EXTRA_CA_FILE"),
	}
	bad := func(name, why string) (Config, error) {
		return Config{}, fmt.Errorf("invalid configuration: %s %s", name, why)
	}

	if _, _, err := net.SplitHostPort(c.ListenAddr); err != nil {
		return bad("LISTEN_ADDR", "must be host:port, such as :8080")
	}
	if !isHTTPURL(c.BaseURL) {
		return bad("BASE_URL", "must be an absolute http(s) URL")
	}
	c.ConsoleURL = strings.TrimRight(or(getenv("CONSOLE_URL"), c.BaseURL+"/console"), "/")
	if !isHTTPURL(c.ConsoleURL) {
		return bad("CONSOLE_URL", "must be an absolute http(s) URL")
	}
	if u, err := url.Parse(c.DatabaseURL); err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return bad("DATABASE_URL", "must be a postgres:// URL")
	}
	c.DatabaseDirectURL = or(getenv("DATABASE_DIRECT_URL"), c.DatabaseURL)
	if u, err := url.Parse(c.DatabaseDirectURL); err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return bad("DATABASE_DIRECT_URL", "must be a postgres:// URL")
	}
	if u, err := url.Parse(c.RedisURL); err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") {
		return bad("REDIS_URL", "must be a redis:// or rediss:// URL")
	}

	switch p := getenv("PROCESSOR"); p {
	case "":
		c.Processor = "sandbox"
		if c.StripeSecretKey != "" {
			c.Processor = "stripe"
		}
	case "sandbox", "stripe":
		c.Processor = p
	default:
		return bad("PROCESSOR", `must be "sandbox" or "stripe"`)
	}
	if c.Processor == "stripe" {
		if !strings.HasPrefix(c.StripeSecretKey, "sk_") && !strings.HasPrefix(c.StripeSecretKey, "rk_") {
			return bad("STRIPE_SECRET_KEY", "must be set to a Stripe secret key (sk_…) when PROCESSOR is stripe")
		}
		if !strings.HasPrefix(c.StripeWebhookSecret, "whsec_") {
			return bad("STRIPE_WEBHOOK_SECRET", "must be set to the webhook endpoint's signing secret (whsec_…) when PROCESSOR is stripe")
		}
	}
	if c.StripeAPIBase != "" && !isHTTPURL(c.StripeAPIBase) {
		return bad("STRIPE_API_BASE", "must be an absolute http(s) URL")
	}
	if c.SMTPURL != "" {
		u, err := url.Parse(c.SMTPURL)
		if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps" && u.Scheme != "smtp+starttls") || u.Host == "" {
			return bad("SMTP_URL", "must be smtp://, smtps:// or smtp+starttls://user:pass@host:port")
		}
	}
	if c.MailFrom == "" {
		u, _ := url.Parse(c.BaseURL)
		c.MailFrom = fmt.Sprintf("commerce <no-reply@%s>", u.Hostname())
	}
	if u, err := url.Parse(c.FileStorageURL); err != nil || u.Scheme == "" {
		return bad("FILE_STORAGE_URL", "must be a blob URL such as file:///var/lib/commerce, s3://bucket or gs://bucket")
	}
	if v := getenv("ALLOW_PRIVATE_TARGETS"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return bad("ALLOW_PRIVATE_TARGETS", "must be true or false")
		}
		c.AllowPrivateTargets = b
	}
	if c.ExtraCAFile != "" {
		if _, err := os.Stat(c.ExtraCAFile); err != nil {
			return bad("EXTRA_CA_FILE", "must name a readable PEM file")
		}
	}
	c.WebhookSecretsKey = getenv("WEBHOOK_SECRETS_KEY")
	c.WebhookRetrySchedule = DefaultWebhookRetrySchedule
	if v := getenv("WEBHOOK_RETRY_SCHEDULE"); v != "" {
		var sched []time.Duration
		for _, part := range strings.Split(v, ",") {
			d, err := time.ParseDuration(strings.TrimSpace(part))
			if err != nil || d <= 0 {
				return bad("WEBHOOK_RETRY_SCHEDULE", "must be comma-separated positive durations such as 5s,30s,2m")
			}
			sched = append(sched, d)
		}
		c.WebhookRetrySchedule = sched
	}
	if v := getenv("LOG_LEVEL"); v != "" {
		if err := c.LogLevel.UnmarshalText([]byte(v)); err != nil {
			return bad("LOG_LEVEL", "must be debug, info, warn or error")
		}
	}
	switch v := getenv("LOG_FORMAT"); v {
	case "":
		c.LogFormat = "json"
		if term.IsTerminal(int(os.Stderr.Fd())) {
			c.LogFormat = "text"
		}
	case "json", "text":
		c.LogFormat = v
	default:
		return bad("LOG_FORMAT", `must be "json" or "text"`)
	}
	if c.PprofAddr = getenv("PPROF_ADDR"); c.PprofAddr != "" {
		if _, _, err := net.SplitHostPort(c.PprofAddr); err != nil {
			return bad("PPROF_ADDR", "must be host:port, such as 127.0.0.1:6060")
		}
	}
	if c.MetricsAddr = getenv("METRICS_ADDR"); c.MetricsAddr != "" {
		if _, _, err := net.SplitHostPort(c.MetricsAddr); err != nil {
			return bad("METRICS_ADDR", "must be host:port, such as :9464 or 127.0.0.1:9464")
		}
	}
	c.CheckoutExpiry = DefaultCheckoutExpiry
	if v := getenv("CHECKOUT_EXPIRY"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Second || d > 24*time.Hour {
			return bad("CHECKOUT_EXPIRY", "must be a duration from 1s to 24h, such as 30m")
		}
		c.CheckoutExpiry = d
	}
	c.LicenseTokenTTL = licensing.DefaultTokenTTL
	if v := getenv("LICENSE_TOKEN_TTL"); v != "" {
		d, err := parseDays(strings.TrimSpace(v))
		if err != nil || d < time.Minute || d > 365*24*time.Hour {
			return bad("LICENSE_TOKEN_TTL", "must be a duration from 1m to 365d, such as 14d or 36h")
		}
		c.LicenseTokenTTL = d
	}
	c.WebhookAlertAfter = alerts.DefaultAfter
	if v := strings.TrimSpace(getenv("WEBHOOK_ALERT_AFTER")); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Second || d > 7*24*time.Hour {
			return bad("WEBHOOK_ALERT_AFTER", "must be a duration from 1s to 168h, such as 1h")
		}
		c.WebhookAlertAfter = d
	}
	sched := membership.DefaultSchedule
	if v := strings.TrimSpace(getenv("MEMBERSHIP_RETRY_SCHEDULE")); v == "none" {
		sched = ""
	} else if v != "" {
		sched = v
	}
	if s, err := membership.ParseSchedule(sched); err != nil {
		return bad("MEMBERSHIP_RETRY_SCHEDULE", "must be increasing offsets after the due date such as 1d,3d,5d,7d (units s, m, h, d; at most 10, none beyond 60d; none: no retry): "+err.Error())
	} else {
		c.MembershipRetrySchedule = s
	}
	c.RateLimitScale = 1
	if v := getenv("RATE_LIMIT_SCALE"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return bad("RATE_LIMIT_SCALE", "must be a positive integer")
		}
		c.RateLimitScale = n
	}
	if v := getenv("TRUSTED_PROXIES"); v != "" {
		for _, part := range strings.Split(v, ",") {
			part = strings.TrimSpace(part)
			p, err := netip.ParsePrefix(part)
			if err != nil {
				a, aerr := netip.ParseAddr(part)
				if aerr != nil {
					return bad("TRUSTED_PROXIES", "must be comma-separated CIDRs such as 10.0.0.0/8")
				}
				p = netip.PrefixFrom(a, a.BitLen())
			}
			c.TrustedProxies = append(c.TrustedProxies, p.Masked())
		}
	}
	return c, nil
}

// Logger builds the process logger from the configuration.
func (c Config) Logger() *slog.Logger {
	opts := &slog.HandlerOptions{Level: c.LogLevel}
	if c.LogFormat == "text" {
		return logging.Wrap(slog.New(slog.NewTextHandler(os.Stderr, opts)))
	}
	return logging.Wrap(slog.New(slog.NewJSONHandler(os.Stderr, opts)))
}

// parseDays reads a Go duration, or a whole number of days written "14d".
func parseDays(v string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(v, "d"); ok {
		days, err := strconv.Atoi(n)
		if err != nil || days < 0 || days > 100000 {
			return 0, fmt.Errorf("not a number of days: %q", v)
		}
		return time.Duration(days) * 24 * time.Hour, nil
	}
	return time.ParseDuration(v)
}

func or(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

func isHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}
