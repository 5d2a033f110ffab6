package mcp_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

// The generated create_checkout tool runs createCheckout: a checkout of a
// pay-what-you-want listing at the buyer's amount (the processor's
// checkout and the pending order), the free path at 0, and the same
// refusals as the API.
func TestCreateCheckoutTool(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	onb := env.Post("/v1/account/processor/connect", acc.Key, nil)
	require.Equal(t, http.StatusOK, onb.Status, string(onb.Body))
	c := *env.HTTP.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.PostForm(onb.JSON(t)["url"].(string), url.Values{"currency": {"usd"}})
	require.NoError(t, err)
	resp.Body.Close()
	r := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Agent sale " + testkit.Unique(), "price": 0,
		"pricing": "pay_what_you_want", "deliverables": []any{map[string]any{"type": "text", "value": "hi"}}})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	id := r.JSON(t)["id"].(string)
	require.Equal(t, http.StatusOK, env.Post("/v1/listings/"+id+"/publish", acc.Key, nil).Status)
	cs := connect(t, env, acc.Key)

	res, out := call(t, cs, "create_checkout", map[string]any{"input": map[string]any{"listingId": id, "amount": 1500,
		"buyerEmail": "agent-buyer@example.com"}})
	require.False(t, res.IsError, "%v", out)
	co := out["createCheckout"].(map[string]any)
	require.Equal(t, "checkout", co["object"])
	require.EqualValues(t, 1500, co["amount"])
	require.Equal(t, "USD", co["currency"])
	require.True(t, strings.HasPrefix(co["url"].(string), env.URL+"/sandbox/checkout/"), co["url"])
	require.NotNil(t, co["expiresAt"])

	res, out = call(t, cs, "create_checkout", map[string]any{"input": map[string]any{"listingId": id, "amount": 0,
		"buyerEmail": "agent-buyer@example.com"}})
	require.False(t, res.IsError, "%v", out)
	co = out["createCheckout"].(map[string]any)
	require.EqualValues(t, 0, co["amount"])
	require.Nil(t, co["expiresAt"])
	require.Contains(t, co["url"], "/thank-you?order="+co["orderId"].(string))
	d := graphQL(t, env, acc.Key, `{ order(id: "`+co["orderId"].(string)+`") { status paymentStatus paymentIntentId platformFee } }`)
	require.Equal(t, map[string]any{"status": "FULFILLED", "paymentStatus": "PAID", "paymentIntentId": nil, "platformFee": 0.0}, d["order"])

	res, out = call(t, cs, "create_checkout", map[string]any{"input": map[string]any{"listingId": id, "amount": 10}})
	e := toolError(t, res, out)
	require.Equal(t, "validation_error", e["code"])
	require.Equal(t, "amount", e["param"])
}
