package rest_test

import (
	"bytes"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

// A body a little over the 1 MiB limit is refused with a problem document
// the client reads: the service reads as much as it would have kept before
// it answers, so the connection is not reset under the client's write.
func TestBodyJustOverTheLimitIsAnswered(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acct := env.NewAccount()
	body := append(append([]byte(`{"title":"`), bytes.Repeat([]byte("x"), 1<<20)...), `"}`...)
	for i := range 20 {
		req, err := http.NewRequest(http.MethodPost, env.URL+"/v1/listings", bytes.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+acct.Key)
		// A connection of its own each time, as a client that sends one
		// large request would.
		resp, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}).Do(req)
		require.NoError(t, err, "request %d", i)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.Equal(t, 400, resp.StatusCode, "%s", b)
		require.Contains(t, string(b), "larger than 1 MB")
	}
}
