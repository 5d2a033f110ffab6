package rest_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

// The store page shows the avatar, name, bio and the published listings
// (title, price, cover, link), newest first, 24 a page; never a draft or a
// paused listing.
func TestStorePageListsPublishedListings(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	slug := "store-" + strings.ToLower(testkit.Unique())
	avatar := uploadToken(t, env, acc.Key, "avatar", "me.png", pngBytes)
	r := env.Do(testkit.Request{Method: "PUT", Path: "/v1/store", Key: acc.Key,
		Body: map[string]any{"display_name": "Ada's Patterns", "bio": "Knitting since 1990", "slug": slug, "avatar": avatar}})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	avatarURL := r.JSON(t)["avatar_url"].(string)

	// An empty store says so with its name, not a fixed sentence.
	page := env.Get("/s/"+slug, "")
	require.Equal(t, 200, page.Status)
	require.Contains(t, string(page.Body), "Ada&#39;s Patterns has no products for sale")

	cover := uploadToken(t, env, acc.Key, "cover", "cover.png", pngBytes)
	first := publishedListing(t, env, acc.Key, map[string]any{"title": "Cabled Hat", "price": 1250, "cover": cover})
	draft := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Secret Draft", "price": 100})
	require.Equal(t, 201, draft.Status)
	paused := publishedListing(t, env, acc.Key, map[string]any{"title": "Paused Scarf", "price": 300})
	require.Equal(t, 200, env.Do(testkit.Request{Method: "PUT", Path: "/v1/listings/" + paused["id"].(string), Key: acc.Key,
		Body: map[string]any{"status": "paused"}}).Status)
	for i := range 25 {
		publishedListing(t, env, acc.Key, map[string]any{"title": fmt.Sprintf("Pattern %02d", i), "price": 500 + i})
	}

	page = env.Get("/s/"+strings.ToUpper(slug), "")
	require.Equal(t, 200, page.Status)
	body := string(page.Body)
	require.Contains(t, body, `src="`+avatarURL+`"`)
	require.Contains(t, body, "Ada&#39;s Patterns")
	require.Contains(t, body, "Knitting since 1990")
	require.NotContains(t, body, "Secret Draft")
	require.NotContains(t, body, "Paused Scarf")
	require.NotContains(t, body, "no products")
	shown := regexp.MustCompile(`<strong>([^<]+)</strong>`).FindAllStringSubmatch(body, -1)
	require.Len(t, shown, 24, "24 a page")
	require.Equal(t, "Pattern 24", shown[0][1], "newest first")
	require.Equal(t, "Pattern 01", shown[23][1])
	require.Contains(t, body, `href="`+env.URL+`/p/`)
	require.Contains(t, body, "$5.24")
	next := regexp.MustCompile(`href="([^"]+)" rel="next"`).FindStringSubmatch(body)
	require.NotNil(t, next, body)

	page = env.Get(strings.TrimPrefix(strings.ReplaceAll(next[1], "&amp;", "&"), env.URL), "")
	require.Equal(t, 200, page.Status)
	body = string(page.Body)
	shown = regexp.MustCompile(`<strong>([^<]+)</strong>`).FindAllStringSubmatch(body, -1)
	require.Len(t, shown, 2)
	require.Equal(t, "Pattern 00", shown[0][1])
	require.Equal(t, "Cabled Hat", shown[1][1])
	require.Contains(t, body, `href="`+env.URL+`/p/`+first["slug"].(string)+`"`)
	require.Contains(t, body, `src="`+env.URL+`/media/`, "the cover")
	require.Contains(t, body, "$12.50")
	require.NotContains(t, body, `rel="next"`)

	require.Equal(t, 404, env.Get("/s/"+slug+"?after=nonsense", "").Status)
	require.Equal(t, 200, env.Do(testkit.Request{Method: "HEAD", Path: "/s/" + slug}).Status)
}

// The profile lives on the account: PUT /v1/account takes display_name, bio
// and avatar with the store's rules, the account shows avatar_url, the store
// resource and page show the same values; GraphQL's updateAccount too; one
// validation for the name everywhere; DELETE /v1/account clears them.
func TestAccountProfile(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers())
	acc := env.NewAccount()
	put := func(body any) *testkit.Response {
		return env.Do(testkit.Request{Method: "PUT", Path: "/v1/account", Key: acc.Key, Body: body})
	}
	avatar := uploadToken(t, env, acc.Key, "avatar", "me.png", pngBytes)
	r := put(map[string]any{"display_name": "  Bea  ", "bio": "Maker of things", "avatar": avatar})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	a := r.JSON(t)
	require.Equal(t, "Bea", a["display_name"])
	require.Equal(t, "Maker of things", a["bio"])
	avatarURL, _ := a["avatar_url"].(string)
	require.True(t, strings.HasPrefix(avatarURL, env.URL+"/media/"), avatarURL)
	img := env.Get(strings.TrimPrefix(avatarURL, env.URL), "")
	require.Equal(t, 200, img.Status)
	require.Equal(t, pngBytes, img.Body)

	st := env.Get("/v1/store", acc.Key).JSON(t)
	require.Equal(t, "Bea", st["display_name"])
	require.Equal(t, "Maker of things", st["bio"])
	require.Equal(t, avatarURL, st["avatar_url"])

	// The same rules as the store's, with the same messages.
	for _, tc := range []struct {
		body  map[string]any
		param string
	}{
		{map[string]any{"display_name": "   "}, "display_name"},
		{map[string]any{"display_name": strings.Repeat("n", 81)}, "display_name"},
		{map[string]any{"bio": strings.Repeat("b", 501)}, "bio"},
		{map[string]any{"avatar": "file_nope"}, "avatar"},
	} {
		pa := requireProblem(t, env, put(tc.body), 422, "validation_error")
		ps := requireProblem(t, env, env.Do(testkit.Request{Method: "PUT", Path: "/v1/store", Key: acc.Key, Body: tc.body}), 422, "validation_error")
		require.Equal(t, tc.param, pa["param"], "%v", tc.body)
		require.Equal(t, pa["errors"], ps["errors"], "one validation: %v", tc.body)
	}
	// Bootstrap's step 3 uses the same rule (it fails on the session only
	// after the fields pass).
	pb := requireProblem(t, env, env.Post("/v1/bootstrap/store", "", map[string]any{"session_id": "bss_x", "display_name": "   "}), 422, "validation_error")
	require.Equal(t, "display_name must be 1 to 80 characters", pb["detail"])

	// GraphQL's updateAccount changes the same profile.
	res := gql(t, env, acc.Key, `mutation { updateAccount(input: {bio: "New bio", avatar: null}) { bio avatarUrl displayName } }`, nil)
	require.Empty(t, res.Errors)
	require.JSONEq(t, `{"updateAccount":{"bio":"New bio","avatarUrl":null,"displayName":"Bea"}}`, string(res.Data))
	st = env.Get("/v1/store", acc.Key).JSON(t)
	require.Equal(t, "New bio", st["bio"])
	require.Nil(t, st["avatar_url"])
	require.Eventually(t, func() bool { return env.Get(strings.TrimPrefix(avatarURL, env.URL), "").Status == 404 },
		10*time.Second, 100*time.Millisecond, "the old avatar is deleted")

	// Deleting the account clears the profile.
	avatar = uploadToken(t, env, acc.Key, "avatar", "again.png", pngBytes)
	avatarURL = put(map[string]any{"avatar": avatar}).JSON(t)["avatar_url"].(string)
	require.Equal(t, 204, env.Do(testkit.Request{Method: "DELETE", Path: "/v1/account", Key: acc.Key}).Status)
	var name, bio, key *string
	require.NoError(t, env.Server.DB.Pool.QueryRow(t.Context(), `SELECT display_name, bio, avatar_key FROM accounts WHERE id = $1`, acc.ID).
		Scan(&name, &bio, &key))
	require.Nil(t, name)
	require.Nil(t, bio)
	require.Nil(t, key)
	require.Eventually(t, func() bool { return env.Get(strings.TrimPrefix(avatarURL, env.URL), "").Status == 404 },
		10*time.Second, 100*time.Millisecond, "the avatar is deleted from storage")
}

// While the account is unpaid its product pages answer 410 (CONTRACT §16),
// so its store page lists none of them; a paid renewal brings them back.
func TestStorePageOfAnUnpaidAccount(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	slug := "unpaid-" + strings.ToLower(testkit.Unique())
	require.Equal(t, 200, env.Do(testkit.Request{Method: "PUT", Path: "/v1/store", Key: acc.Key,
		Body: map[string]any{"display_name": "Lapsed Seller", "slug": slug}}).Status)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Woven Basket", "price": 900})
	setBilling := func(status string) {
		_, err := env.Server.DB.Pool.Exec(t.Context(), "UPDATE accounts SET billing_status = $1 WHERE id = $2", status, acc.ID)
		require.NoError(t, err)
	}

	setBilling("unpaid")
	require.Equal(t, 410, env.Get("/p/"+l["slug"].(string), "").Status)
	body := string(env.Get("/s/"+slug, "").Body)
	require.NotContains(t, body, "Woven Basket", "no link to a page that answers 410")
	require.Contains(t, body, "Lapsed Seller has no products for sale")

	setBilling("active")
	require.Contains(t, string(env.Get("/s/"+slug, "").Body), "Woven Basket")
}
