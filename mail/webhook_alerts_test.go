package mail_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/mail"
	"commerce/testkit"
)

func alertData() mail.WebhookAlertData {
	since := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	disable := since.Add(8*time.Hour + 42*time.Minute)
	return mail.WebhookAlertData{
		StoreName: "Plant <Prints>", EndpointID: "wh_123", EndpointURL: "https://hooks.example.com/in?a=1&b=2",
		FailingSince: since, LastFailure: "HTTP 500", Undelivered: 7, DisableAt: &disable,
		RetrySpan: 8*time.Hour + 42*time.Minute + 35*time.Second, At: since.Add(time.Hour),
		ConsoleURL: "https://console.example.com/webhooks", APIURL: "https://api.example.com",
	}
}

// both asserts that the text and the HTML part each say s (the HTML as
// html/template escapes it).
func both(t *testing.T, m mail.Message, text, html string) {
	t.Helper()
	require.Contains(t, m.Text, text)
	require.Contains(t, m.HTML, html)
}

// The warning says, in both parts: the store, the URL, since when it
// fails, the last error, the undelivered events, when it will be disabled,
// how to test it and how to re-enable it in the console, over REST and
// over GraphQL, and how to stop these emails.
func TestWebhookWarningTemplate(t *testing.T) {
	t.Parallel()
	m, err := mail.WebhookWarning("seller@example.com", alertData())
	require.NoError(t, err)
	require.Equal(t, mail.TemplateWebhookWarning, m.Template)
	require.Equal(t, "seller@example.com", m.To)
	require.Equal(t, "Plant <Prints>: your webhook endpoint is failing", m.Subject)
	both(t, m, "Plant <Prints>", "Plant &lt;Prints&gt;")
	both(t, m, "https://hooks.example.com/in?a=1&b=2", "https://hooks.example.com/in?a=1&amp;b=2")
	both(t, m, "November 30, 2026 09:00 UTC", "November 30, 2026 09:00 UTC")
	both(t, m, "HTTP 500", "HTTP 500")
	both(t, m, "7 events", "7 events")
	both(t, m, "November 30, 2026 17:42 UTC", "November 30, 2026 17:42 UTC")
	both(t, m, "8 hours 42 minutes", "8 hours 42 minutes")
	both(t, m, "https://console.example.com/webhooks", `href="https://console.example.com/webhooks"`)
	both(t, m, "POST https://api.example.com/v1/webhooks/wh_123/test", "POST https://api.example.com/v1/webhooks/wh_123/test")
	both(t, m, `PUT https://api.example.com/v1/webhooks/wh_123 with {"status": "enabled"}`,
		`PUT https://api.example.com/v1/webhooks/wh_123 with {&#34;status&#34;: &#34;enabled&#34;}`)
	both(t, m, `updateWebhook(id: "wh_123", input: {status: ENABLED})`, `updateWebhook(id: &#34;wh_123&#34;, input: {status: ENABLED})`)
	both(t, m, `testWebhook(id: "wh_123")`, `testWebhook(id: &#34;wh_123&#34;)`)
	both(t, m, `PUT https://api.example.com/v1/account with {"notify_webhooks": false}`,
		`PUT https://api.example.com/v1/account with {"notify_webhooks": false}`)
	require.NotContains(t, m.HTML, "<Prints>")
	require.Contains(t, m.HTML, `style="`, "inline-styled")

	// Without an estimate (too few deliveries pending) it says what
	// disables the endpoint instead.
	d := alertData()
	d.DisableAt = nil
	m, err = mail.WebhookWarning("seller@example.com", d)
	require.NoError(t, err)
	both(t, m, "three deliveries in a row", "three deliveries in a row")
	require.NotContains(t, m.Text, "17:42")

	// One event is one event; no store name reads "your store".
	d.Undelivered, d.StoreName = 1, ""
	m, err = mail.WebhookWarning("seller@example.com", d)
	require.NoError(t, err)
	both(t, m, "Undelivered:   1 event\n", ">1 event</td>")
	require.Equal(t, "Your webhook endpoint is failing", m.Subject)
}

func TestWebhookDisabledTemplate(t *testing.T) {
	t.Parallel()
	m, err := mail.WebhookDisabled("seller@example.com", alertData())
	require.NoError(t, err)
	require.Equal(t, mail.TemplateWebhookDisabled, m.Template)
	require.Equal(t, "Plant <Prints>: your webhook endpoint was disabled", m.Subject)
	both(t, m, "https://hooks.example.com/in?a=1&b=2", "https://hooks.example.com/in?a=1&amp;b=2")
	both(t, m, "three deliveries in a row", "three deliveries in a row")
	both(t, m, "HTTP 500", "HTTP 500")
	both(t, m, "7 events", "7 events")
	both(t, m, "November 30, 2026 10:00 UTC", "November 30, 2026 10:00 UTC") // disabled at
	both(t, m, `PUT https://api.example.com/v1/webhooks/wh_123 with {"status": "enabled"}`,
		`PUT https://api.example.com/v1/webhooks/wh_123 with {&#34;status&#34;: &#34;enabled&#34;}`)
	both(t, m, `updateWebhook(id: "wh_123", input: {status: ENABLED})`, `updateWebhook(id: &#34;wh_123&#34;, input: {status: ENABLED})`)
	both(t, m, "https://console.example.com/webhooks", `href="https://console.example.com/webhooks"`)
}

func TestWebhookRecoveredTemplate(t *testing.T) {
	t.Parallel()
	m, err := mail.WebhookRecovered("seller@example.com", alertData())
	require.NoError(t, err)
	require.Equal(t, mail.TemplateWebhookRecovered, m.Template)
	require.Equal(t, "Plant <Prints>: your webhook endpoint works again", m.Subject)
	both(t, m, "https://hooks.example.com/in?a=1&b=2", "https://hooks.example.com/in?a=1&amp;b=2")
	both(t, m, "November 30, 2026 09:00 UTC", "November 30, 2026 09:00 UTC") // failing since
	both(t, m, "November 30, 2026 10:00 UTC", "November 30, 2026 10:00 UTC") // accepted again
	both(t, m, "7 events", "7 events")
	require.NotContains(t, m.Text, "/v1/webhooks/wh_123", "nothing to re-enable or test")

	// Every event of the time delivered: it says so.
	d := alertData()
	d.Undelivered = 0
	m, err = mail.WebhookRecovered("seller@example.com", d)
	require.NoError(t, err)
	both(t, m, "Every event of that time has been delivered.", "Every event of that time has been delivered.")
}

// Sent through SMTP, an alert is multipart/alternative: the text part and
// the HTML part each carry it.
func TestWebhookAlertMultipart(t *testing.T) {
	d := openDB(t)
	srv := testkit.StartSMTP(t, testkit.SMTPOptions{Mode: testkit.SMTPPlain})
	s := newSender(t, mail.Config{SMTPURL: srv.URL("smtp", "")}, nil)
	m, err := mail.WebhookWarning(recipient(), alertData())
	require.NoError(t, err)
	id := send(t, outbox(d, s), m)
	require.NoError(t, s.Deliver(context.Background(), d, id))
	msgs := srv.Messages()
	require.NotEmpty(t, msgs)
	got := parseMail(t, msgs[len(msgs)-1].Data)
	require.Equal(t, m.Subject, got.Subject)
	require.Contains(t, got.Text, "POST https://api.example.com/v1/webhooks/wh_123/test")
	require.Contains(t, got.HTML, "Plant &lt;Prints&gt;")
	require.True(t, strings.Contains(got.HTML, "<table"), "the HTML part is HTML")
}
