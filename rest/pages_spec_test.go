package rest_test

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/stretchr/testify/require"

	"commerce/rest"
	"commerce/testkit"
)

// Every GET route answers HEAD with the GET's status and no body: the test
// walks the router (pages, REST's route table, everything registered) and
// checks each REST GET route of the table is among them.
func TestHeadOnEveryGetRoute(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	routes, ok := env.Server.Handler().(chi.Routes)
	require.True(t, ok, "the server's handler is its chi router")
	param := regexp.MustCompile(`\{[^}]+\}`)
	seen := map[string]bool{}
	err := chi.Walk(routes, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		if method != http.MethodGet {
			return nil
		}
		seen[route] = true
		path := strings.ReplaceAll(param.ReplaceAllString(route, "x"), "*", "x")
		for _, key := range []string{"", acc.Key} {
			get := env.Do(testkit.Request{Method: "GET", Path: path, Key: key, NoCheck: true})
			head := env.Do(testkit.Request{Method: "HEAD", Path: path, Key: key, NoCheck: true})
			require.NotEqual(t, 405, head.Status, "HEAD %s", route)
			require.Equal(t, get.Status, head.Status, "HEAD %s (key %v) answers as GET does", route, key != "")
			require.Empty(t, head.Body, "HEAD %s has no body", route)
			if get.Header.Get("Content-Type") != "" {
				require.Equal(t, get.Header.Get("Content-Type"), head.Header.Get("Content-Type"), "HEAD %s", route)
			}
		}
		return nil
	})
	require.NoError(t, err)
	for _, rt := range rest.Routes {
		if rt.Method == http.MethodGet {
			require.True(t, seen[rt.Path], "%s is served", rt.Path)
		}
	}
	for _, p := range []string{"/p/{slug}", "/p/{slug}/thank-you", "/s/{slug}", "/d/{token}", "/d/{token}/{deliverable_id}", "/errors/{code}"} {
		require.True(t, seen[p], "%s is served", p)
	}
}

// The thank-you page's analytics tag is configured with the listing's UTM
// values (defaults filling the null ones); a HEAD does not use up the
// purchase event. A failed or canceled sandbox payment returns the buyer to
// the product page with a notice.
func TestThankYouUTMAndCheckoutNotices(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers())
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	require.Equal(t, 200, env.Do(testkit.Request{Method: "PUT", Path: "/v1/account", Key: acc.Key,
		Body: map[string]any{"ga_measurement_id": "G-UTM1234567", "display_name": "Utm Shop"}}).Status)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Tagged " + testkit.Unique(), "price": 1500,
		"utm_source": "newsletter", "utm_campaign": "spring-sale"})
	slug := l["slug"].(string)

	orderID, thanks := buy(t, env, slug, url.Values{"email": {uniqueEmail("utm")}}, "paid")
	path := strings.TrimPrefix(thanks, env.URL)
	require.Equal(t, 200, env.Do(testkit.Request{Method: "HEAD", Path: path}).Status)
	page := string(env.Get(path, "").Body)
	require.Contains(t, page, `campaign_source: "newsletter", campaign_medium: "product_page", campaign_name: "spring-sale"`)
	require.Contains(t, page, `gtag('event', 'purchase', {transaction_id: "`+orderID+`"`, "the HEAD did not use it up")
	require.Contains(t, page, "Utm Shop will deliver")

	// Failed and canceled payments come back to the product page with a notice.
	for outcome, notice := range map[string]string{
		"failed":   "Your payment did not go through",
		"canceled": "Your checkout was canceled",
	} {
		_, back := buy(t, env, slug, url.Values{"email": {uniqueEmail(outcome)}}, outcome)
		require.Equal(t, env.URL+"/p/"+slug+"?checkout="+outcome, back)
		resp, err := http.Get(back)
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.Equal(t, 200, resp.StatusCode)
		require.Contains(t, string(body), notice)
	}
	require.NotContains(t, string(env.Get("/p/"+slug, "").Body), `role="status"`, "no notice without a checkout outcome")
}
