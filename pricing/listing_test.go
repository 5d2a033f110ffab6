package pricing

import (
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/problem"
)

func p64(v int64) *int64 { return &v }

// A listing's price settings (CONTRACT §19): a fixed price is 1 to
// 99,999,999 and takes no bounds; a pay-what-you-want price is the
// minimum (0: free allowed), and its suggested price and maximum lie
// between it and 99,999,999 in that order. With a currency, every
// non-zero amount a buyer could be asked for meets its minimum charge
// (USD $0.50, JPY ¥50).
func TestCheckListing(t *testing.T) {
	t.Parallel()
	pwyw := func(price int64, suggested, maximum *int64) ListingPrice {
		return ListingPrice{Pricing: PayWhatYouWant, Price: price, Suggested: suggested, Maximum: maximum}
	}
	for _, tc := range []struct {
		name string
		lp   ListingPrice
		code string
	}{
		{"fixed", ListingPrice{Pricing: Fixed, Price: 2900}, "usd"},
		{"fixed, no currency yet", ListingPrice{Pricing: Fixed, Price: 10}, ""},
		{"fixed at the maximum", ListingPrice{Pricing: Fixed, Price: MaxAmount}, "usd"},
		{"pay what you want, free", pwyw(0, nil, nil), "usd"},
		{"pay what you want, free with a suggestion", pwyw(0, p64(500), nil), "usd"},
		{"pay what you want, a suggestion of 0", pwyw(0, p64(0), nil), "usd"},
		{"pay what you want, a minimum", pwyw(500, p64(1200), p64(5000)), "usd"},
		{"pay what you want, all equal", pwyw(500, p64(500), p64(500)), "usd"},
		{"pay what you want, yen", pwyw(50, p64(1500), p64(10_000)), "jpy"},
		{"pay what you want, no currency yet", pwyw(10, nil, p64(20)), ""},
	} {
		require.NoError(t, CheckListing(tc.lp, tc.code), tc.name)
	}
	for _, tc := range []struct {
		name          string
		lp            ListingPrice
		code          string
		param, detail string
	}{
		{"fixed 0", ListingPrice{Pricing: Fixed, Price: 0}, "usd", "price", "positive"},
		{"fixed 0, no currency", ListingPrice{Pricing: Fixed, Price: 0}, "", "price", "positive"},
		{"fixed above the maximum", ListingPrice{Pricing: Fixed, Price: MaxAmount + 1}, "usd", "price", "99999999"},
		{"fixed below the USD minimum", ListingPrice{Pricing: Fixed, Price: 49}, "usd", "price", "$0.50"},
		{"fixed below the JPY minimum", ListingPrice{Pricing: Fixed, Price: 49}, "jpy", "price", "¥50"},
		{"fixed with a suggestion", ListingPrice{Pricing: Fixed, Price: 500, Suggested: p64(700)}, "usd", "suggested_price", "pay_what_you_want"},
		{"fixed with a maximum", ListingPrice{Pricing: Fixed, Price: 500, Maximum: p64(700)}, "usd", "maximum_price", "pay_what_you_want"},
		{"unknown pricing", ListingPrice{Pricing: "auction", Price: 500}, "usd", "pricing", "fixed"},
		{"negative minimum", pwyw(-1, nil, nil), "usd", "price", "0"},
		{"minimum above the maximum amount", pwyw(MaxAmount+1, nil, nil), "usd", "price", "99999999"},
		{"minimum below the USD minimum", pwyw(49, nil, nil), "usd", "price", "$0.50"},
		{"minimum below the JPY minimum", pwyw(10, nil, nil), "jpy", "price", "¥50"},
		{"suggestion below the minimum", pwyw(500, p64(499), nil), "usd", "suggested_price", "at least price"},
		{"suggestion above the maximum", pwyw(500, p64(6000), p64(5000)), "usd", "suggested_price", "at most maximum_price ($50.00)"},
		{"suggestion above the maximum, no currency yet", pwyw(500, p64(6000), p64(5000)), "", "suggested_price", "at most maximum_price (5000 in the smallest currency unit)"},
		{"suggestion below the minimum, in yen", pwyw(500, p64(499), nil), "jpy", "suggested_price", "at least price (¥500, the minimum)"},
		{"suggestion below the currency minimum", pwyw(0, p64(30), nil), "usd", "suggested_price", "$0.50"},
		{"maximum below the minimum", pwyw(500, nil, p64(400)), "usd", "maximum_price", "at least price ($5.00, the minimum)"},
		{"maximum 0", pwyw(0, nil, p64(0)), "usd", "maximum_price", "1 to 99999999"},
		{"maximum above the maximum amount", pwyw(0, nil, p64(MaxAmount+1)), "usd", "maximum_price", "1 to 99999999"},
		{"maximum below the currency minimum", pwyw(0, nil, p64(40)), "jpy", "maximum_price", "¥50"},
	} {
		requireProblem(t, CheckListing(tc.lp, tc.code), tc.param, tc.detail)
	}

	// Every failed field is listed.
	p := problem.From(CheckListing(ListingPrice{Pricing: Fixed, Price: 0, Suggested: p64(1), Maximum: p64(2)}, "usd"))
	require.NotNil(t, p)
	var params []string
	for _, e := range p.Errors {
		params = append(params, e.Param)
	}
	require.Equal(t, []string{"price", "suggested_price", "maximum_price"}, params)
}

// The bounds a buyer's amount must meet: a pay-what-you-want listing's
// minimum and maximum (99,999,999 when it has none); a fixed listing has
// none.
func TestListingBounds(t *testing.T) {
	t.Parallel()
	require.Nil(t, ListingPrice{Pricing: Fixed, Price: 500}.Bounds())
	require.Equal(t, &Bounds{Minimum: 0, Maximum: MaxAmount}, ListingPrice{Pricing: PayWhatYouWant}.Bounds())
	require.Equal(t, &Bounds{Minimum: 500, Maximum: 5000},
		ListingPrice{Pricing: PayWhatYouWant, Price: 500, Suggested: p64(700), Maximum: p64(5000)}.Bounds())
	require.True(t, ListingPrice{Pricing: PayWhatYouWant}.PayWhatYouWant())
	require.False(t, ListingPrice{Pricing: Fixed}.PayWhatYouWant())
}
