package rest_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/processor/sandbox"
	"commerce/testkit"
)

// The thank-you page and the download email show what was paid and, when a
// discount code was applied, the price before it, the code and what it took
// off (CONTRACT §19): a buyer sees the same three numbers the order holds.
// Without a code they show only what was paid.
func TestReceiptShowsWhatWasPaidAndTheDiscount(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers())
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Receipt " + testkit.Unique(), "price": 2900,
		"deliverables": []any{map[string]any{"type": "text", "value": "thanks"}}})
	slug := l["slug"].(string)
	ctx := context.Background()

	// With a 25 % code (the order written as the pipeline writes it: the
	// discount resource applies codes at checkout).
	buyer := uniqueEmail("receipt")
	id := startCheckout(t, env, slug, url.Values{"email": {buyer}})
	_, err := env.Server.DB.Pool.Exec(ctx, `UPDATE orders SET discount_id = 'dsc_receipt', discount_code = 'LAUNCH25',
		discount_amount = 725, amount = 2175, platform_fee = 326, net_amount = 1849 WHERE id = $1`, id)
	require.NoError(t, err)
	require.NoError(t, env.Server.Resolver.ApplyProcessorEvent(ctx, sandbox.PaymentSucceeded(id, 2175, "usd")))

	var token, text, html string
	require.NoError(t, env.Server.DB.Pool.QueryRow(ctx, `SELECT view_token FROM orders WHERE id = $1`, id).Scan(&token))
	page := env.Get("/p/"+slug+"/thank-you?order="+id+"&token="+token, "")
	require.Equal(t, 200, page.Status)
	body := string(page.Body)
	require.Contains(t, body, "<s>$29.00</s>")
	require.Contains(t, body, "LAUNCH25")
	require.Contains(t, body, "−$7.25")
	require.Contains(t, body, "$21.75")

	require.Eventually(t, func() bool {
		return env.Server.DB.Pool.QueryRow(ctx, `SELECT text_body, html_body FROM mail_messages WHERE to_address = $1
			AND template = 'download_link'`, buyer).Scan(&text, &html) == nil
	}, 10e9, 50e6)
	for _, b := range []string{text, html} {
		require.Contains(t, b, "$29.00")
		require.Contains(t, b, "LAUNCH25")
		require.Contains(t, b, "−$7.25")
		require.Contains(t, b, "$21.75")
	}

	// Without a code: only what was paid.
	plain := uniqueEmail("receipt-plain")
	id = startCheckout(t, env, slug, url.Values{"email": {plain}})
	require.NoError(t, env.Server.Resolver.ApplyProcessorEvent(ctx, sandbox.PaymentSucceeded(id, 2900, "usd")))
	require.NoError(t, env.Server.DB.Pool.QueryRow(ctx, `SELECT view_token FROM orders WHERE id = $1`, id).Scan(&token))
	body = string(env.Get("/p/"+slug+"/thank-you?order="+id+"&token="+token, "").Body)
	require.Contains(t, body, "$29.00")
	require.NotContains(t, body, "<s>")
	require.NotContains(t, body, "Discount")
	require.Eventually(t, func() bool {
		return env.Server.DB.Pool.QueryRow(ctx, `SELECT text_body FROM mail_messages WHERE to_address = $1
			AND template = 'download_link'`, plain).Scan(&text) == nil
	}, 10e9, 50e6)
	require.Contains(t, text, "Paid: $29.00")
	require.False(t, strings.Contains(text, "Discount"), text)
}
