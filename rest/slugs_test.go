package rest_test

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

// Slugs derived from a name are claimed race-free: stores bootstrapped at
// the same moment with the same display name, and listings created at the
// same moment with the same title, all succeed, each with its own slug
// (before, the losers of the race got a 500, or a 422 about a slug they
// never sent).
func TestConcurrentSlugClaims(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	const n = 6
	name := "Twin Store " + testkit.Unique()
	sessions := make([]string, n)
	for i := range sessions {
		sessions[i] = verifiedBootstrap(t, env, uniqueEmail("twin"))
	}
	statuses, slugs := make([]int, n), make([]string, n)
	var wg sync.WaitGroup
	for i, sid := range sessions {
		wg.Go(func() {
			r := env.Post("/v1/bootstrap/store", "", map[string]any{"session_id": sid, "display_name": name})
			statuses[i] = r.Status
			if r.Status == 200 {
				slugs[i], _ = r.JSON(t)["slug"].(string)
			}
		})
	}
	wg.Wait()
	for i := range statuses {
		require.Equal(t, 200, statuses[i], "bootstrap %d of %d", i+1, n)
	}
	require.Len(t, distinct(slugs), n, "%v", slugs)

	acc := env.NewAccount()
	title := "Twin Listing " + testkit.Unique()
	for i := range n {
		wg.Go(func() {
			r := env.Post("/v1/listings", acc.Key, map[string]any{"title": title, "price": 500})
			statuses[i], slugs[i] = r.Status, ""
			if r.Status == 201 {
				slugs[i], _ = r.JSON(t)["slug"].(string)
			}
		})
	}
	wg.Wait()
	for i := range statuses {
		require.Equal(t, 201, statuses[i], "listing %d of %d", i+1, n)
	}
	require.Len(t, distinct(slugs), n, "%v", slugs)
}

func distinct(s []string) map[string]bool {
	out := map[string]bool{}
	for _, v := range s {
		out[v] = true
	}
	return out
}
