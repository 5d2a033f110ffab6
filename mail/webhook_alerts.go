package mail

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// The seller alerts for a failing webhook endpoint (CONTRACT §22).
const (
	TemplateWebhookWarning   = "webhook_warning"
	TemplateWebhookDisabled  = "webhook_disabled"
	TemplateWebhookRecovered = "webhook_recovered"
)

// WebhookAlertData fills the three webhook alert emails.
type WebhookAlertData struct {
	// StoreName is the seller's display name ("" reads "your store").
	StoreName   string
	EndpointID  string
	EndpointURL string
	// FailingSince is the first failed attempt after the last 2xx.
	FailingSince time.Time
	// LastFailure is the last attempt's error as the API shows it
	// ("HTTP 500", "connection refused").
	LastFailure string
	// Undelivered counts the events not delivered during this failure:
	// those waiting for a retry and those whose attempts are spent.
	Undelivered int
	// DisableAt is when the endpoint will be disabled if it keeps failing
	// (nil: more events must fail first); warning only.
	DisableAt *time.Time
	// RetrySpan is how long one delivery is retried.
	RetrySpan time.Duration
	// At is when the email's news happened: the warning, the disabling,
	// the success.
	At time.Time
	// ConsoleURL is the console's webhooks screen; APIURL the API's base
	// URL (the service's BASE_URL).
	ConsoleURL string
	APIURL     string
}

// Store is the store's name, or "your store".
func (d WebhookAlertData) Store() string {
	if d.StoreName == "" {
		return "your store"
	}
	return d.StoreName
}

// Since, DisableAtText and AtText are the times as people read them:
// "November 30, 2026 09:00 UTC".
func (d WebhookAlertData) Since() string { return mailTime(d.FailingSince) }

// DisableAtText is DisableAt written out ("" when unknown).
func (d WebhookAlertData) DisableAtText() string {
	if d.DisableAt == nil {
		return ""
	}
	return mailTime(*d.DisableAt)
}

// AtText is At written out.
func (d WebhookAlertData) AtText() string { return mailTime(d.At) }

// UndeliveredText is "1 event" or "7 events".
func (d WebhookAlertData) UndeliveredText() string {
	if d.Undelivered == 1 {
		return "1 event"
	}
	return fmt.Sprintf("%d events", d.Undelivered)
}

// RetrySpanText is the retry span in hours and minutes: "8 hours 42 minutes".
func (d WebhookAlertData) RetrySpanText() string { return spanText(d.RetrySpan) }

// EnableBody is the REST body that re-enables the endpoint.
func (d WebhookAlertData) EnableBody() string { return `{"status": "enabled"}` }

// EnableGraphQL and TestGraphQL are the GraphQL operations that re-enable
// and test the endpoint.
func (d WebhookAlertData) EnableGraphQL() string {
	return fmt.Sprintf(`mutation { updateWebhook(id: %q, input: {status: ENABLED}) { id status } }`, d.EndpointID)
}

// TestGraphQL is the operation that sends the endpoint a test event.
func (d WebhookAlertData) TestGraphQL() string {
	return fmt.Sprintf(`mutation { testWebhook(id: %q) { statusCode error } }`, d.EndpointID)
}

// WebhookCalls are the three ways of one call: the console's button on
// its webhooks screen (URL), the REST request and the GraphQL operation.
type WebhookCalls struct {
	URL, Button, REST, GraphQL string
}

// TestCalls send the endpoint a test event.
func (d WebhookAlertData) TestCalls() WebhookCalls {
	return WebhookCalls{URL: d.ConsoleURL, Button: "Send test event",
		REST: "POST " + d.APIURL + "/v1/webhooks/" + d.EndpointID + "/test", GraphQL: d.TestGraphQL()}
}

// EnableCalls enable the endpoint again.
func (d WebhookAlertData) EnableCalls() WebhookCalls {
	return WebhookCalls{URL: d.ConsoleURL, Button: "Enable",
		REST: "PUT " + d.APIURL + "/v1/webhooks/" + d.EndpointID + " with " + d.EnableBody(), GraphQL: d.EnableGraphQL()}
}

// WebhookWarning warns a seller that an endpoint has been failing.
func WebhookWarning(to string, d WebhookAlertData) (Message, error) {
	return webhookAlert(TemplateWebhookWarning, to, d)
}

// WebhookDisabled tells a seller that an endpoint was disabled after
// consecutive failures.
func WebhookDisabled(to string, d WebhookAlertData) (Message, error) {
	return webhookAlert(TemplateWebhookDisabled, to, d)
}

// WebhookRecovered tells a seller that a warned endpoint accepted an event.
func WebhookRecovered(to string, d WebhookAlertData) (Message, error) {
	return webhookAlert(TemplateWebhookRecovered, to, d)
}

func webhookAlert(name, to string, d WebhookAlertData) (Message, error) {
	if d.EndpointID == "" || d.EndpointURL == "" {
		return Message{}, errors.New("mail: webhook alert without its endpoint")
	}
	return render(name, to, d)
}

// mailTime writes a time for an email: "November 30, 2026 09:00 UTC".
func mailTime(t time.Time) string { return t.UTC().Format("January 2, 2006 15:04") + " UTC" }

// spanText writes a duration in whole hours and minutes: "8 hours 42
// minutes", "30 minutes", "1 hour"; under a minute, in seconds.
func spanText(d time.Duration) string {
	if d < time.Minute {
		return plural(int(d/time.Second), "second")
	}
	h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
	var parts []string
	if h > 0 {
		parts = append(parts, plural(h, "hour"))
	}
	if m > 0 {
		parts = append(parts, plural(m, "minute"))
	}
	return strings.Join(parts, " ")
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}
