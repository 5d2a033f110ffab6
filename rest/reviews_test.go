package rest_test

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

// postReview posts the download page's review form.
func postReview(t *testing.T, env *testkit.Env, link string, form url.Values) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest("POST", env.URL+link+"/review", strings.NewReader(form.Encode()))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", env.URL)
	resp, err := noRedirect(env).Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Location"), string(body)
}

func reviewsOf(t *testing.T, env *testkit.Env, key, listingID string) map[string]any {
	t.Helper()
	r := env.Get("/v1/listings/"+listingID, key)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	return r.JSON(t)["reviews"].(map[string]any)
}

// A review posted from the download page shows on the product page and the
// listing with the right average; refused reviews store nothing (422 on the
// page); once per order; a refund or a lost dispute hides the order's
// review; GET /v1/listings/{id}/reviews pages through all of them; node()
// resolves a rev_ id.
func TestReviewsFromDownloadPage(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers())
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Reviewed Guide " + testkit.Unique(), "price": 900,
		"deliverables": []any{map[string]any{"type": "text", "value": "content"}}})
	slug, lid := l["slug"].(string), l["id"].(string)

	require.Equal(t, map[string]any{"count": 0.0, "average_rating": nil, "items": []any{}}, reviewsOf(t, env, acc.Key, lid))
	page := env.Get("/p/"+slug, "")
	require.Contains(t, string(page.Body), "has no reviews yet")

	ann := "ann.smith-" + testkit.Unique() + "@example.com"
	annOrder, _ := buy(t, env, slug, url.Values{"email": {ann}}, "paid")
	annLink := mailLinkTo(t, env, ann)
	dl := env.Get(annLink, "")
	require.Contains(t, string(dl.Body), `action="`+annLink+`/review"`)

	// Refused: nothing stored, 422 on the page.
	for _, form := range []url.Values{
		{"rating": {"0"}},
		{"rating": {"6"}},
		{"rating": {"four"}},
		{"text": {"no rating"}},
		{"rating": {"4"}, "text": {strings.Repeat("x", 2001)}},
	} {
		status, _, body := postReview(t, env, annLink, form)
		require.Equal(t, 422, status, "%v", form)
		require.Contains(t, body, `class="error"`, "%v", form)
	}
	require.Equal(t, 0.0, reviewsOf(t, env, acc.Key, lid)["count"])

	status, loc, body := postReview(t, env, annLink, url.Values{"rating": {"4"}, "text": {"Clear and <useful>"}})
	require.Equal(t, 303, status, body)
	require.Equal(t, annLink+"#review", loc)
	dl = env.Get(annLink, "")
	require.Contains(t, string(dl.Body), "Your review")
	require.NotContains(t, string(dl.Body), `/review"`, "the form is gone once reviewed")
	// Once per order.
	status, _, body = postReview(t, env, annLink, url.Values{"rating": {"1"}})
	require.Equal(t, 422, status)
	require.Contains(t, body, "already reviewed")

	rs := reviewsOf(t, env, acc.Key, lid)
	require.Equal(t, 1.0, rs["count"])
	require.Equal(t, 4.0, rs["average_rating"])
	items := rs["items"].([]any)
	require.Len(t, items, 1)
	rev := items[0].(map[string]any)
	require.Equal(t, "review", rev["object"])
	require.Regexp(t, `^rev_[0-9a-z]{26}$`, rev["id"])
	require.Equal(t, "a…", rev["buyer_name"])
	require.Equal(t, "Clear and <useful>", rev["text"])
	require.Equal(t, 4.0, rev["rating"])

	// The product page shows the average and the review (escaped).
	page = env.Get("/p/"+slug, "")
	require.Contains(t, string(page.Body), "4.0 out of 5")
	require.Contains(t, string(page.Body), "Clear and &lt;useful&gt;")
	require.Contains(t, string(page.Body), "a…")

	// A second buyer: the average has one decimal.
	bob := uniqueEmail("bob")
	bobOrder, _ := buy(t, env, slug, url.Values{"email": {bob}}, "paid")
	bobLink := mailLinkTo(t, env, bob)
	status, _, _ = postReview(t, env, bobLink, url.Values{"rating": {"5"}})
	require.Equal(t, 303, status)
	rs = reviewsOf(t, env, acc.Key, lid)
	require.Equal(t, 2.0, rs["count"])
	require.Equal(t, 4.5, rs["average_rating"])
	require.Nil(t, rs["items"].([]any)[0].(map[string]any)["text"], "newest first; no text is null")
	require.Contains(t, string(env.Get("/p/"+slug, "").Body), "4.5 out of 5")

	// GraphQL: the same reviews, node() for a rev_ id, and the connection.
	res := gql(t, env, acc.Key, `query($id: ID!, $rev: ID!) {
		listing(id: $id) { reviews { count averageRating items { id buyerName } } allReviews(first: 1) { edges { node { id rating } } pageInfo { hasNextPage endCursor } } }
		node(id: $rev) { ... on Review { id rating text } } }`, map[string]any{"id": lid, "rev": rev["id"]})
	require.Empty(t, res.Errors)
	require.Contains(t, string(res.Data), `"count":2,"averageRating":4.5`)
	require.Contains(t, string(res.Data), `"node":{"id":"`+rev["id"].(string)+`","rating":4,"text":"Clear and \u003cuseful\u003e"}`)
	require.Contains(t, string(res.Data), `"hasNextPage":true`)

	// REST paging.
	r := env.Get("/v1/listings/"+lid+"/reviews?limit=1", acc.Key)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	p1 := r.JSON(t)
	require.Equal(t, true, p1["has_more"])
	require.Len(t, p1["data"], 1)
	p2 := env.Get("/v1/listings/"+lid+"/reviews?limit=1&cursor="+p1["next_cursor"].(string), acc.Key).JSON(t)
	require.Equal(t, false, p2["has_more"])
	require.Equal(t, rev["id"], p2["data"].([]any)[0].(map[string]any)["id"])
	requireProblem(t, env, env.Get("/v1/listings/"+lid+"/reviews?cursor=nope", acc.Key), 422, "validation_error")
	other := env.NewAccount()
	requireProblem(t, env, env.Get("/v1/listings/"+lid+"/reviews", other.Key), 404, "not_found")
	res = gql(t, env, other.Key, `query($rev: ID!) { node(id: $rev) { id } }`, map[string]any{"rev": rev["id"]})
	require.JSONEq(t, `{"node":null}`, string(res.Data), "another account's review is null")

	// A refund hides Ann's review; a lost dispute hides Bob's.
	require.Equal(t, 200, env.Post("/v1/orders/"+annOrder+"/refund", acc.Key, nil).Status)
	rs = reviewsOf(t, env, acc.Key, lid)
	require.Equal(t, 1.0, rs["count"])
	require.Equal(t, 5.0, rs["average_rating"])
	require.NotContains(t, string(env.Get("/p/"+slug, "").Body), "Clear and")
	for _, o := range []string{"open", "lost"} {
		sandboxDispute(t, env, bobOrder, o)
	}
	require.Equal(t, map[string]any{"count": 0.0, "average_rating": nil, "items": []any{}}, reviewsOf(t, env, acc.Key, lid))
	require.Empty(t, env.Get("/v1/listings/"+lid+"/reviews", acc.Key).JSON(t)["data"])
	res = gql(t, env, acc.Key, `query($rev: ID!) { node(id: $rev) { id } }`, map[string]any{"rev": rev["id"]})
	require.JSONEq(t, `{"node":null}`, string(res.Data))
	// The revoked link cannot review.
	status, _, _ = postReview(t, env, bobLink, url.Values{"rating": {"5"}})
	require.Equal(t, 410, status)

	// An order that is paid but not fulfilled (external) cannot be reviewed:
	// it has no download page; a cross-site post is refused.
	status, _, _ = postReview(t, env, "/d/"+strings.Repeat("A", 43), url.Values{"rating": {"5"}})
	require.Equal(t, 404, status)
	req, _ := http.NewRequest("POST", env.URL+bobLink+"/review", strings.NewReader("rating=5"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "https://evil.example")
	resp, err := noRedirect(env).Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 403, resp.StatusCode)
}

// Concurrent reviews of one listing: count and average are those of every
// review stored, and a buyer posting twice at once stores one.
func TestReviewsConcurrent(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers())
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Busy " + testkit.Unique(), "price": 300,
		"deliverables": []any{map[string]any{"type": "text", "value": "c"}}})
	const n = 10
	links := make([]string, n)
	for i := range links {
		email := uniqueEmail(fmt.Sprintf("c%d", i))
		buy(t, env, l["slug"].(string), url.Values{"email": {email}}, "paid")
		links[i] = mailLinkTo(t, env, email)
	}
	var wg sync.WaitGroup
	sum := 0
	for i, link := range links {
		rating := i%5 + 1
		sum += rating
		for range 2 { // each buyer twice at once
			wg.Add(1)
			go func() {
				defer wg.Done()
				form := url.Values{"rating": {fmt.Sprint(rating)}}
				req, _ := http.NewRequest("POST", env.URL+link+"/review", strings.NewReader(form.Encode()))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				resp, err := noRedirect(env).Do(req)
				if err == nil {
					resp.Body.Close()
				}
			}()
		}
	}
	wg.Wait()
	rs := reviewsOf(t, env, acc.Key, l["id"].(string))
	require.Equal(t, float64(n), rs["count"])
	avg := float64(sum) / n
	require.InDelta(t, avg, rs["average_rating"], 0.05)
	require.Len(t, rs["items"], 10)
}
