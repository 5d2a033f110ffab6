package rest_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

// A flow that makes every kind of secret (CONTRACT §24) — a console
// sign-in's passcode and session, API keys, a webhook secret, a license
// key, a download link's grant, a buyer's and a seller's email — logged at
// debug level as JSON, and then the log searched for each: none is there,
// and the emails appear only masked (j***@example.com). The service is
// built with the test's logger, as cmd/commerce builds it with its own:
// the masking is the service's, whatever handler it is given.
func TestLogsCarryNoSecret(t *testing.T) {
	t.Parallel()
	var out testkit.LockedBuffer
	env := testkit.New(t, testkit.WithWorkers(), testkit.WithLogger(slog.New(slog.NewJSONHandler(&out, &slog.HandlerOptions{Level: slog.LevelDebug}))))

	secrets := map[string]string{}
	// The console: a passcode by email, then a session.
	seller := uniqueEmail("seller")
	sid := verifiedBootstrap(t, env, seller)
	secrets["console session"] = consoleSignIn(t, env, sid)
	secrets["seller email"] = seller

	acc := env.NewAccount()
	secrets["api key"] = acc.Key
	r := env.Post("/v1/api-keys", acc.Key, map[string]any{"name": "ci", "scope": "read_only"})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	secrets["second api key"] = r.JSON(t)["key"].(string)
	// A refused key is not logged either.
	bad := "svc_" + strings.Repeat("Z", 40)
	require.Equal(t, 401, env.Get("/v1/listings", bad).Status)
	secrets["refused key"] = bad

	r = env.Post("/v1/webhooks", acc.Key, map[string]any{"url": env.URL + "/nowhere", "events": []string{"order.paid"}})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	secrets["webhook secret"] = r.JSON(t)["secret"].(string)

	connectSandbox(t, env, acc.Key)
	l := licensedListing(t, env, acc.Key, map[string]any{"activation_limit": 3, "key_prefix": "LOG"})
	buyer := uniqueEmail("buyer")
	secrets["buyer email"] = buyer
	orderID, _ := buy(t, env, l["slug"].(string), url.Values{"email": {buyer}}, "paid")
	keys := fulfilledLicenseKeys(t, env, orderID)
	require.Len(t, keys, 1)
	secrets["license key"] = keys[0].(map[string]any)["key"].(string)
	link := mailLinkTo(t, env, buyer)
	require.Equal(t, 200, env.Get(link, "").Status)
	u, err := url.Parse(link)
	require.NoError(t, err)
	secrets["download link"] = u.Path[strings.LastIndex(u.Path, "/")+1:]
	r = env.Post("/v1/licenses/validate", "", map[string]any{"key": secrets["license key"]})
	require.Less(t, r.Status, 500, "%s", r.Body)

	// The download email's line: this package's services share one
	// database, so another test's worker may send it (and log it in its own
	// log). When this service's dispatcher handles it, the address is in
	// the line masked (mail/TestNoSMTPLogs holds that line alone).
	at := strings.IndexByte(buyer, '@')
	masked := buyer[:1] + "***" + buyer[at:]
	mailed := func() bool {
		var status string
		require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(),
			`SELECT status FROM mail_messages WHERE to_address = $1 AND template = 'download_link'`, buyer).Scan(&status))
		return status != "pending"
	}
	require.Eventually(t, mailed, 20*time.Second, 50*time.Millisecond, "the download email handled")
	if strings.Contains(out.String(), `"template":"download_link"`) {
		require.Contains(t, out.String(), masked, "the masked address")
	}
	logs := out.String()
	lines := strings.Split(strings.TrimSpace(logs), "\n")
	require.Greater(t, len(lines), 20, "the flow is logged")
	var requests int
	for _, line := range lines {
		var entry map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &entry), "a JSON line: %s", line)
		if entry["msg"] == "request" {
			requests++
			for _, k := range []string{"method", "route", "status", "duration_ms", "correlation_id"} {
				require.Contains(t, entry, k, "%s", line)
			}
		}
	}
	require.Greater(t, requests, 10, "one line per request")
	for what, s := range secrets {
		require.NotEmpty(t, s, what)
		require.NotContains(t, logs, s, "%s is in the log", what)
	}
}
