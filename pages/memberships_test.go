package pages_test

import (
	"net/http"
	"net/url"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"
)

// Memberships on the buyer's pages (CONTRACT §26): the product page shows
// the price per period and the trial, and what the button starts; a
// discount code says it takes the first period only; the store page's
// cards show the price per period.

// The product page of a monthly membership without a trial, of a yearly
// one with a trial, and of a one-time listing beside them; the store
// page's cards.
func TestMembershipProductAndStorePages(t *testing.T) {
	t.Parallel()
	env := pagesEnv(t)
	s := newSeller(t, env, "Night Owls")
	monthly := membershipListing(t, env, s.Key, 900, "month", 0, map[string]any{"title": "Owl letters"})
	yearly := membershipListing(t, env, s.Key, 9000, "year", 7, map[string]any{"title": "Owl archive"})
	once := publish(t, env, s.Key, map[string]any{"title": "Owl poster", "price": 1200,
		"deliverables": []map[string]any{{"type": "text", "value": "poster"}}})

	p := page(t, env, "/p/"+monthly["slug"].(string), "")
	dump(t, "product-monthly", p)
	words := text(p)
	require.Contains(t, words, "$9 a month USD")
	require.Contains(t, p, `<button type="submit" aria-describedby="membership-renews">Subscribe for $9 a month</button>`)
	require.Contains(t, words, "Renews every month until you cancel; cancel any time from your library.")
	require.NotContains(t, words, "free trial")
	require.NotContains(t, words, "Nothing is charged today")
	requireAccessible(t, p)

	p = page(t, env, "/p/"+yearly["slug"].(string), "")
	dump(t, "product-trial", p)
	words = text(p)
	require.Contains(t, words, "$90 a year USD")
	require.Contains(t, words, "7-day free trial, then $90 a year")
	require.Contains(t, p, `>Start your free trial</button>`)
	require.Contains(t, words, "Nothing is charged today. Renews every year until you cancel")
	requireAccessible(t, p)

	// A one-time listing reads as before.
	p = page(t, env, "/p/"+once["slug"].(string), "")
	require.Contains(t, p, `<button type="submit">Buy for $12.00</button>`)
	require.NotContains(t, text(p), "Renews")

	// The store page's cards.
	p = page(t, env, "/s/"+s.Slug, "")
	dump(t, "store", p)
	words = text(p)
	require.Contains(t, words, "Owl letters $9 a month")
	require.Contains(t, words, "Owl archive $90 a year · 7-day free trial")
	require.Contains(t, words, "Owl poster $12.00")
}

// A discount code takes the first paid period only: the page says what
// the first period costs and what every period after it does, through
// the Apply button and a share link alike.
func TestMembershipProductPageWithACode(t *testing.T) {
	t.Parallel()
	env := pagesEnv(t)
	s := newSeller(t, env, "Code Club")
	monthly := membershipListing(t, env, s.Key, 900, "month", 0, nil)
	trial := membershipListing(t, env, s.Key, 900, "month", 14, nil)
	r := env.Post("/v1/discounts", s.Key, map[string]any{"code": "OWL-25", "type": "percentage", "percent_off": 25})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)

	// The share link.
	p := page(t, env, "/p/"+monthly["slug"].(string)+"?code=owl-25", "")
	dump(t, "product-code", p)
	words := text(p)
	require.Contains(t, words, "$9 a month USD $6.75 for the first month, then $9 a month")
	require.Contains(t, words, "Code OWL-25 applied: $9.00 $6.75 (−$2.25) for the first month, then $9 a month.")
	require.Contains(t, p, `>Subscribe for $6.75 for the first month</button>`)
	requireAccessible(t, p)

	// The Apply button, on a listing with a trial: the code takes the first
	// paid period, the one after the trial.
	resp, p := send(t, env, "POST", "/p/"+trial["slug"].(string)+"/checkout", "",
		url.Values{"email": {uniqueEmail("code")}, "discount_code": {"OWL-25"}, "apply": {"1"}})
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", p)
	words = text(p)
	require.Contains(t, words, "14-day free trial, then $6.75 for the first month, then $9 a month")
	require.Contains(t, p, `>Start your free trial</button>`)

	// Removing the code shows the plain terms again.
	resp, p = send(t, env, "POST", "/p/"+monthly["slug"].(string)+"/checkout", "",
		url.Values{"discount_code": {""}, "apply": {"1"}})
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", p)
	require.Contains(t, p, `>Subscribe for $9 a month</button>`)
	require.NotContains(t, text(p), "first month")
}

var (
	inputIDs    = regexp.MustCompile(`<(?:input|select|textarea)\b[^>]*\bid="([^"]+)"`)
	hiddenInput = regexp.MustCompile(`type="(?:hidden|radio)"`)
	describedBy = regexp.MustCompile(`aria-describedby="([^"]+)"`)
)

// requireAccessible checks what a page must hold for people using
// assistive technology: a language, a title, one h1, a label for every
// visible field, and every aria-describedby pointing at an element.
func requireAccessible(t *testing.T, html string) {
	t.Helper()
	require.Contains(t, html, `<html lang="en">`)
	require.Regexp(t, `<title>[^<]+</title>`, html)
	require.Equal(t, 1, len(regexp.MustCompile(`<h1[ >]`).FindAllString(html, -1)), "one h1")
	for _, m := range inputIDs.FindAllStringSubmatch(html, -1) {
		tag := m[0]
		if hiddenInput.MatchString(tag) {
			continue
		}
		require.Contains(t, html, `<label for="`+m[1]+`"`, "a label for #%s", m[1])
	}
	for _, m := range describedBy.FindAllStringSubmatch(html, -1) {
		require.Contains(t, html, `id="`+m[1]+`"`, "aria-describedby=%q points at nothing", m[1])
	}
	// Buttons say what they do.
	for _, b := range regexp.MustCompile(`(?s)<button[^>]*>(.*?)</button>`).FindAllStringSubmatch(html, -1) {
		require.NotEmpty(t, text(b[1]), "a button without words: %s", b[0])
	}
}
