package budget_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

// exportOrders is the size of the export of issue 26's acceptance, and
// exportRSSBudget the RSS growth it may cost the service.
const (
	exportOrders    = 100_000
	exportRSSBudget = 20 << 20
)

// The CSV export of 100,000 orders streams (issue 26, CONTRACT §23): a
// `commerce serve` process sends every row, and its resident set grows by
// less than 20 MB over the idle process (VmHWM, reset before the export).
func TestExportStreamsInBoundedMemory(t *testing.T) {
	s := setup(t)
	key := s.account()
	ctx := context.Background()

	req := func(method, path string, body string) *http.Response {
		t.Helper()
		r, err := http.NewRequest(method, s.base+path, strings.NewReader(body))
		require.NoError(t, err)
		r.Header.Set("Authorization", "Bearer "+key)
		if body != "" {
			r.Header.Set("Content-Type", "application/json")
		}
		resp, err := s.client.Do(r)
		require.NoError(t, err)
		return resp
	}
	decode := func(resp *http.Response) map[string]any {
		t.Helper()
		defer resp.Body.Close()
		var m map[string]any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&m))
		return m
	}
	account := decode(req("GET", "/v1/account", ""))["id"].(string)
	listing := decode(req("POST", "/v1/listings", `{"title":"Export guide","price":2900}`))["id"].(string)

	// 100,000 paid orders in one statement (ids sort as they were made).
	conn, err := pgx.Connect(ctx, testkit.DatabaseURL)
	require.NoError(t, err)
	defer conn.Close(ctx)
	start := time.Now()
	_, err = conn.Exec(ctx, `
INSERT INTO orders (id, account_id, listing_id, listing_slug, buyer_email, subtotal, amount, currency, platform_fee, net_amount,
  content_type, status, payment_status, listing_snapshot, seller_snapshot, has_deliverables, view_token, created_at, paid_at)
SELECT 'ord_01' || lpad(to_hex(g), 24, '0'), $1, $2, 'export-guide', 'buyer' || g || '@example.com', 2900, 2900, 'USD', 435, 2465,
  'webhook', 'paid', 'paid', '{"title":"Export guide, \"the\" one"}', '{}', false, 'v' || g || $1,
  now() - interval '1 second' * ($3 - g), now() - interval '1 second' * ($3 - g)
FROM generate_series(1, $3) AS g`, account, listing, exportOrders)
	require.NoError(t, err)
	t.Logf("seeded %d orders in %s", exportOrders, time.Since(start).Round(time.Millisecond))

	// A warm-up export (the code paths, the pools), then the measured one.
	resp := req("GET", "/v1/orders/export?created_after="+time.Now().Add(-100*time.Second).UTC().Format(time.RFC3339), "")
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.NoError(t, drain(resp))
	time.Sleep(200 * time.Millisecond)
	pid := s.svc.Pid()
	idle, err := testkit.ProcessRSS(pid)
	require.NoError(t, err)
	require.NoError(t, testkit.ResetPeakRSS(pid))

	start = time.Now()
	resp = req("GET", "/v1/orders/export", "")
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, "text/csv; charset=utf-8", resp.Header.Get("Content-Type"))
	sc := bufio.NewScanner(resp.Body)
	lines := 0
	for sc.Scan() {
		lines++
	}
	require.NoError(t, sc.Err())
	resp.Body.Close()
	took := time.Since(start)
	peak, err := testkit.ProcessPeakRSS(pid)
	require.NoError(t, err)
	require.Equal(t, exportOrders+1, lines, "the header and every order")
	growth := peak - idle
	t.Logf("export of %d orders: %s, RSS idle %.1f MB, peak %.1f MB, growth %.1f MB (budget %d MB)",
		exportOrders, took.Round(time.Millisecond), float64(idle)/(1<<20), float64(peak)/(1<<20), float64(growth)/(1<<20), exportRSSBudget>>20)
	require.Less(t, growth, int64(exportRSSBudget), "the export streams: RSS must not grow with the row count")
}

func drain(resp *http.Response) error {
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
	}
	return sc.Err()
}
