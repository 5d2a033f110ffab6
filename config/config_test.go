package config_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/config"
	"commerce/membership"
)

func load(env map[string]string) (config.Config, error) {
	return config.Load(func(k string) string { return env[k] })
}

func TestDefaults(t *testing.T) {
	t.Parallel()
	c, err := load(map[string]string{"LOG_FORMAT": "json"})
	require.NoError(t, err)
	require.Equal(t, ":8080", c.ListenAddr)
	require.Equal(t, "http://localhost:8080", c.BaseURL)
	require.Equal(t, "http://localhost:8080/console", c.ConsoleURL)
	require.Equal(t, "sandbox", c.Processor)
	require.Equal(t, config.DefaultDatabaseURL, c.DatabaseDirectURL)
	require.Equal(t, "commerce <no-reply@localhost>", c.MailFrom)
	require.Equal(t, config.DefaultWebhookRetrySchedule, c.WebhookRetrySchedule)
	require.False(t, c.AllowPrivateTargets)

	c, err = load(map[string]string{"STRIPE_SECRET_KEY": "sk_test_123", "STRIPE_WEBHOOK_SECRET": "whsec_test", "WEBHOOK_RETRY_SCHEDULE": "1s, 2s", "TRUSTED_PROXIES": "10.0.0.0/8,127.0.0.1"})
	require.NoError(t, err)
	require.Equal(t, "stripe", c.Processor)
	require.Equal(t, []time.Duration{time.Second, 2 * time.Second}, c.WebhookRetrySchedule)
	require.Len(t, c.TrustedProxies, 2)

	c, err = load(map[string]string{"DATABASE_URL": "postgres://bouncer:6432/commerce", "DATABASE_DIRECT_URL": "postgres://primary:5432/commerce"})
	require.NoError(t, err)
	require.Equal(t, "postgres://bouncer:6432/commerce", c.DatabaseURL)
	require.Equal(t, "postgres://primary:5432/commerce", c.DatabaseDirectURL)
}

// An invalid value stops start-up with a message naming the variable.
func TestInvalidValuesNameTheVariable(t *testing.T) {
	t.Parallel()
	for name, value := range map[string]string{
		"LISTEN_ADDR":            "8080",
		"BASE_URL":               "localhost",
		"CONSOLE_URL":            "ftp://x",
		"DATABASE_URL":           "mysql://x",
		"DATABASE_DIRECT_URL":    "mysql://x",
		"REDIS_URL":              "http://x",
		"PROCESSOR":              "paypal",
		"SMTP_URL":               "http://mail",
		"ALLOW_PRIVATE_TARGETS":  "maybe",
		"EXTRA_CA_FILE":          "/does/not/exist.pem",
		"WEBHOOK_RETRY_SCHEDULE": "5s,soon",
		"LOG_LEVEL":              "loud",
		"LOG_FORMAT":             "xml",
		"TRUSTED_PROXIES":        "10.0.0.0/33",
		"STRIPE_API_BASE":        "not a url",
		"RATE_LIMIT_SCALE":       "0",
		"PPROF_ADDR":             "6060",
		"METRICS_ADDR":           "9464",
		"LICENSE_TOKEN_TTL":      "fortnight",
		"WEBHOOK_ALERT_AFTER":    "soon",
	} {
		_, err := load(map[string]string{name: value})
		require.ErrorContains(t, err, name, "value %q", value)
	}
	_, err := load(map[string]string{"PROCESSOR": "stripe"})
	require.ErrorContains(t, err, "STRIPE_SECRET_KEY")
	_, err = load(map[string]string{"PROCESSOR": "stripe", "STRIPE_SECRET_KEY": "sk_test_1"})
	require.ErrorContains(t, err, "STRIPE_WEBHOOK_SECRET")
}

// LICENSE_TOKEN_TTL: a Go duration or a number of days ("14d"), from one
// minute to 365 days; 14 days when unset.
func TestLicenseTokenTTL(t *testing.T) {
	t.Parallel()
	c, err := load(map[string]string{})
	require.NoError(t, err)
	require.Equal(t, 14*24*time.Hour, c.LicenseTokenTTL)
	for value, want := range map[string]time.Duration{
		"14d": 14 * 24 * time.Hour, "1d": 24 * time.Hour, "365d": 365 * 24 * time.Hour, "36h": 36 * time.Hour,
		"1m": time.Minute, "2h30m": 150 * time.Minute, " 7d ": 7 * 24 * time.Hour,
	} {
		c, err := load(map[string]string{"LICENSE_TOKEN_TTL": value})
		require.NoError(t, err, value)
		require.Equal(t, want, c.LicenseTokenTTL, value)
	}
	for _, value := range []string{"0", "0d", "59s", "-1h", "366d", "8761h", "d", "1.5d", "14 days", "1e3d", "99999999999999999999d"} {
		_, err := load(map[string]string{"LICENSE_TOKEN_TTL": value})
		require.ErrorContains(t, err, "LICENSE_TOKEN_TTL", value)
		require.ErrorContains(t, err, "from 1m to 365d", value)
	}
}

// WEBHOOK_ALERT_AFTER: how long an endpoint fails before its seller is
// warned, a Go duration from 1s to 7 days; an hour when unset.
func TestWebhookAlertAfter(t *testing.T) {
	t.Parallel()
	c, err := load(map[string]string{})
	require.NoError(t, err)
	require.Equal(t, time.Hour, c.WebhookAlertAfter)
	for value, want := range map[string]time.Duration{"1h": time.Hour, "30m": 30 * time.Minute, "1s": time.Second, "168h": 7 * 24 * time.Hour, " 2h ": 2 * time.Hour} {
		c, err := load(map[string]string{"WEBHOOK_ALERT_AFTER": value})
		require.NoError(t, err, value)
		require.Equal(t, want, c.WebhookAlertAfter, value)
	}
	for _, value := range []string{"0", "0s", "500ms", "-1h", "169h", "1d", "an hour"} {
		_, err := load(map[string]string{"WEBHOOK_ALERT_AFTER": value})
		require.ErrorContains(t, err, "WEBHOOK_ALERT_AFTER", value)
		require.ErrorContains(t, err, "from 1s to 168h", value)
	}
}

// MEMBERSHIP_RETRY_SCHEDULE: increasing offsets after a renewal's due date;
// 1d,3d,5d,7d when unset, none for no retry.
func TestMembershipRetrySchedule(t *testing.T) {
	t.Parallel()
	day := 24 * time.Hour
	c, err := load(map[string]string{})
	require.NoError(t, err)
	require.Equal(t, membership.Schedule{day, 3 * day, 5 * day, 7 * day}, c.MembershipRetrySchedule)
	c, err = load(map[string]string{"MEMBERSHIP_RETRY_SCHEDULE": "30s,2m"})
	require.NoError(t, err)
	require.Equal(t, membership.Schedule{30 * time.Second, 2 * time.Minute}, c.MembershipRetrySchedule)
	c, err = load(map[string]string{"MEMBERSHIP_RETRY_SCHEDULE": "none"})
	require.NoError(t, err)
	require.Equal(t, 1, c.MembershipRetrySchedule.Attempts())
	for _, value := range []string{"3d,1d", "1w", "61d", "soon"} {
		_, err := load(map[string]string{"MEMBERSHIP_RETRY_SCHEDULE": value})
		require.ErrorContains(t, err, "MEMBERSHIP_RETRY_SCHEDULE", value)
	}
}
