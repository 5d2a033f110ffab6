package rest_test

import (
	"context"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

func countKeys(t *testing.T, env *testkit.Env, accountID, name string) int {
	t.Helper()
	var n int
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(),
		"SELECT count(*) FROM api_keys WHERE account_id = $1 AND name = $2", accountID, name).Scan(&n))
	return n
}

// 20 concurrent POSTs with one Idempotency-Key execute the operation exactly
// once; the others replay the same bytes or are told it is in progress.
func TestIdempotencyConcurrent(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	req := testkit.Request{Method: "POST", Path: "/v1/api-keys", Key: acc.Key, Body: `{"name":"once"}`,
		Header: map[string]string{"Idempotency-Key": "create-once-1"}}

	var (
		wg        sync.WaitGroup
		mu        sync.Mutex
		responses []*testkit.Response
	)
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := env.Do(req)
			mu.Lock()
			responses = append(responses, r)
			mu.Unlock()
		}()
	}
	wg.Wait()
	require.Equal(t, 1, countKeys(t, env, acc.ID, "once"), "executed exactly once")

	var original []byte
	fresh, replayed, inFlight := 0, 0, 0
	for _, r := range responses {
		switch {
		case r.Status == 201 && r.Header.Get("Idempotent-Replayed") == "":
			fresh++
			original = r.Body
		case r.Status == 201:
			replayed++
		case r.Status == 409:
			inFlight++
			require.Equal(t, "idempotency_request_in_progress", r.JSON(t)["code"])
		default:
			t.Fatalf("unexpected %d: %s", r.Status, r.Body)
		}
	}
	require.Equal(t, 1, fresh)
	require.Equal(t, 20, fresh+replayed+inFlight)

	// After it finished, a retry replays byte for byte.
	r := env.Do(req)
	require.Equal(t, 201, r.Status)
	require.Equal(t, "true", r.Header.Get("Idempotent-Replayed"))
	require.Equal(t, string(original), string(r.Body))
	for _, rr := range responses {
		if rr.Status == 201 {
			require.Equal(t, string(original), string(rr.Body))
		}
	}
	require.Equal(t, 1, countKeys(t, env, acc.ID, "once"))
}

func TestIdempotencyKeyReuseWithAnotherBody(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	h := map[string]string{"Idempotency-Key": "k-reuse"}
	require.Equal(t, 201, env.Do(testkit.Request{Method: "POST", Path: "/v1/api-keys", Key: acc.Key, Body: `{"name":"a"}`, Header: h}).Status)
	r := env.Do(testkit.Request{Method: "POST", Path: "/v1/api-keys", Key: acc.Key, Body: `{"name":"b"}`, Header: h})
	requireProblem(t, env, r, 422, "idempotency_key_reuse")
	require.Equal(t, 0, countKeys(t, env, acc.ID, "b"))

	// Keys are scoped by account: another account may use the same key.
	other := env.NewAccount()
	require.Equal(t, 201, env.Do(testkit.Request{Method: "POST", Path: "/v1/api-keys", Key: other.Key, Body: `{"name":"b"}`, Header: h}).Status)
}

// 4xx results are stored and replayed too.
func TestIdempotencyReplaysClientErrors(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	req := testkit.Request{Method: "POST", Path: "/v1/api-keys", Key: acc.Key, Body: `{"name":""}`,
		Header: map[string]string{"Idempotency-Key": "bad-1"}}
	first := env.Do(req)
	require.Equal(t, 422, first.Status)
	second := env.Do(req)
	require.Equal(t, 422, second.Status)
	require.Equal(t, "true", second.Header.Get("Idempotent-Replayed"))
	require.Equal(t, string(first.Body), string(second.Body))
	require.Equal(t, "application/problem+json", second.Header.Get("Content-Type"))
}

// Expired keys are deleted by the periodic job's worker, and an expired key
// may be used again.
func TestIdempotencyExpiry(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	ctx := context.Background()
	req := testkit.Request{Method: "POST", Path: "/v1/api-keys", Key: acc.Key, Body: `{"name":"exp"}`,
		Header: map[string]string{"Idempotency-Key": "exp-1"}}
	require.Equal(t, 201, env.Do(req).Status)
	_, err := env.Server.DB.Pool.Exec(ctx, "UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE scope = $1", acc.ID)
	require.NoError(t, err)

	r := env.Do(req)
	require.Equal(t, http.StatusCreated, r.Status)
	require.Empty(t, r.Header.Get("Idempotent-Replayed"), "an expired key executes again")
	require.Equal(t, 2, countKeys(t, env, acc.ID, "exp"))

	_, err = env.Server.DB.Pool.Exec(ctx, "UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE scope = $1", acc.ID)
	require.NoError(t, err)
	n, err := env.Server.DB.DeleteExpiredIdempotencyKeys(ctx, 100)
	require.NoError(t, err)
	require.GreaterOrEqual(t, n, int64(1))
	var left int
	require.NoError(t, env.Server.DB.Pool.QueryRow(ctx, "SELECT count(*) FROM idempotency_keys WHERE scope = $1", acc.ID).Scan(&left))
	require.Zero(t, left)
}
