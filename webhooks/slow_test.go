package webhooks_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

// One endpoint whose receiver takes 5 s to answer does not hold up
// another's deliveries: the slow one's attempts past its cap wait in the
// table, not in a worker, and the fast one's go out at once.
//
// Not parallel: the deliveries must be this test's service's alone.
func TestSlowEndpointDoesNotDelayOthers(t *testing.T) {
	env := testkit.New(t, testkit.WithWorkers(), fastRetries)
	acc, slug := seller(t, env)

	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		select {
		case <-time.After(5 * time.Second):
		case <-release:
		case <-r.Context().Done():
		}
	}))
	var mu sync.Mutex
	arrived := map[string]time.Time{} // order id → the fast receiver's first byte
	fast := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		at := time.Now()
		var ev struct {
			OrderID string `json:"order_id"`
		}
		body, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(body, &ev)
		mu.Lock()
		if _, ok := arrived[ev.OrderID]; !ok {
			arrived[ev.OrderID] = at
		}
		mu.Unlock()
	}))
	t.Cleanup(func() { close(release); slow.Close(); fast.Close() })
	slowID, _ := createEndpoint(t, env, acc.Key, slow.URL, "order.paid")
	createEndpoint(t, env, acc.Key, fast.URL, "order.paid")
	// What the slow endpoint has not taken yet is canceled, not left
	// pending for the next test's dispatcher.
	t.Cleanup(func() { env.Do(testkit.Request{Method: "DELETE", Path: "/v1/webhooks/" + slowID, Key: acc.Key}) })

	// More orders than any worker pool of the old design (50).
	const orders = 150
	paid := map[string]time.Time{}
	for range orders {
		id := paidOrder(t, env, slug)
		paid[id] = time.Now()
	}
	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(arrived) == orders
	}, 30*time.Second, 20*time.Millisecond, "every order delivered to the fast endpoint")
	mu.Lock()
	var lat []time.Duration
	for id, at := range arrived {
		lat = append(lat, max(at.Sub(paid[id]), 0))
	}
	mu.Unlock()
	slices.Sort(lat)
	p50, p99 := lat[len(lat)/2], lat[len(lat)*99/100]
	t.Logf("fast endpoint: payment → first byte p50 %v, p99 %v, max %v", p50, p99, lat[len(lat)-1])
	require.Less(t, p99, time.Second, "the slow endpoint delays the fast one")
}
