package pricing

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/currency"
	"commerce/problem"
)

// Every supported currency has a minimum, and nothing else has one; the
// values are Stripe's published minimum charge amounts in minor units
// (docs.stripe.com/currencies, "Minimum and maximum charge amounts"), and
// for the five currencies its table leaves out, a round amount above
// USD 0.50.
func TestMinimumTable(t *testing.T) {
	t.Parallel()
	require.Len(t, minimums, len(currency.All))
	for _, c := range currency.All {
		m, ok := Minimum(c.Code)
		require.True(t, ok, c.Code)
		require.Positive(t, m, c.Code)
		up, ok := Minimum(strings.ToUpper(c.Code))
		require.True(t, ok)
		require.Equal(t, m, up, "any case")
	}
	for code, want := range map[string]int64{
		"usd": 50, "eur": 50, "gbp": 30, "jpy": 50, "krw": 1000, "huf": 17500, "czk": 1500, "hkd": 400,
		"mxn": 1000, "thb": 1000, "aed": 200, "dkk": 250, "nok": 300, "sek": 300, "idr": 1000000,
	} {
		got, _ := Minimum(code)
		require.Equal(t, want, got, code)
	}
	_, ok := Minimum("xxx")
	require.False(t, ok)
}

func TestPlatformFee(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		amount int64
		plan   string
		want   int64
	}{
		{2900, "free", 435},   // 15 %
		{2900, "growth", 145}, // 5 %
		{2900, "scale", 87},   // 3 %
		{10, "free", 2},       // 1.5 → 2: half up
		{3, "free", 0},        // 0.45 → 0
		{50, "scale", 2},      // 1.5 → 2
		{0, "free", 0},
		{99_999_999, "free", 15_000_000}, // 14,999,999.85 → 15,000,000
		{1000, "unknown", 0},
		{1000, "free", 150}, {1999, "free", 300}, {1, "free", 0}, {4, "free", 1}, // 0.6 → 1
		{1000, "growth", 50}, {1990, "growth", 100}, {10, "growth", 1}, // 99.5 → 100, 0.5 → 1
		{1000, "scale", 30}, {49, "scale", 1}, // 1.47 → 1
		{1500, "free", 225}, // JPY, zero-decimal: ¥1,500 → ¥225
		{333, "growth", 17}, // 16.65 → 17
		{-5, "free", 0},
	} {
		require.Equal(t, tc.want, PlatformFee(tc.amount, tc.plan), "%d on %s", tc.amount, tc.plan)
	}
	for plan, want := range map[string]string{"free": "0.15", "growth": "0.05", "scale": "0.03"} {
		got, ok := FeeRate(plan)
		require.True(t, ok)
		require.Equal(t, want, got, plan)
	}
	_, ok := FeeRate("gold")
	require.False(t, ok)
}

func TestPercentOff(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ subtotal, percent, want int64 }{
		{2900, 25, 725},
		{999, 50, 500},  // 499.5 → 500: half up
		{999, 10, 100},  // 99.9 → 100
		{1001, 10, 100}, // 100.1 → 100
		{3, 50, 2},      // 1.5 → 2
		{2900, 100, 2900},
		{99_999_999, 33, 33_000_000}, // 32,999,999.67 → 33,000,000
		{0, 25, 0},
	} {
		require.Equal(t, tc.want, PercentOff(tc.subtotal, tc.percent), "%d%% of %d", tc.percent, tc.subtotal)
	}
}

func TestFixedOff(t *testing.T) {
	t.Parallel()
	require.Equal(t, int64(500), FixedOff(2900, 500))
	require.Equal(t, int64(2900), FixedOff(2900, 5000), "never more than the subtotal")
	require.Equal(t, int64(0), FixedOff(0, 500))
}

func TestDiscountOff(t *testing.T) {
	t.Parallel()
	require.Equal(t, "25% off", Discount{PercentOff: 25}.Off("usd"))
	require.Equal(t, "$5.00 off", Discount{AmountOff: 500}.Off("usd"))
	require.Equal(t, "¥500 off", Discount{AmountOff: 500}.Off("JPY"))
}

func TestCheckChosen(t *testing.T) {
	t.Parallel()
	b := Bounds{Minimum: 500, Maximum: 10_000}
	require.NoError(t, CheckChosen(500, b, "usd"))
	require.NoError(t, CheckChosen(10_000, b, "usd"))
	requireProblem(t, CheckChosen(499, b, "usd"), "amount", "$5.00")
	requireProblem(t, CheckChosen(10_001, b, "usd"), "amount", "$100.00")
	requireProblem(t, CheckChosen(-1, b, "usd"), "amount", "")
	free := Bounds{Minimum: 0, Maximum: MaxAmount}
	require.NoError(t, CheckChosen(0, free, "usd"), "0 is free when the minimum is 0")
	requireProblem(t, CheckChosen(30, free, "usd"), "amount", "$0.50")
	require.NoError(t, CheckChosen(50, free, "usd"))
	requireProblem(t, CheckChosen(49, Bounds{Maximum: 5000}, "jpy"), "amount", "¥50")
	requireProblem(t, CheckChosen(MaxAmount+1, free, "usd"), "amount", "")
}

func TestParseMajor(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, cur string
		want    int64
	}{
		{"12.50", "usd", 1250},
		{"12.5", "usd", 1250},
		{"12", "usd", 1200},
		{" 0.50 ", "eur", 50},
		{"0", "usd", 0},
		{"1500", "jpy", 1500},
		{"999999.99", "usd", 99_999_999},
	} {
		got, err := ParseMajor(tc.in, tc.cur)
		require.NoError(t, err, tc.in)
		require.Equal(t, tc.want, got, tc.in)
	}
	for _, tc := range []struct{ in, cur string }{
		{"", "usd"}, {"12.505", "usd"}, {"15.5", "jpy"}, {"-1", "usd"}, {"+1", "usd"}, {"1,000", "usd"},
		{"1e3", "usd"}, {".5", "usd"}, {"5.", "usd"}, {"1000000.00", "usd"}, {strings.Repeat("9", 40), "usd"},
		{"12", "xxx"}, {"١٢", "usd"},
	} {
		_, err := ParseMajor(tc.in, tc.cur)
		requireProblem(t, err, "amount", "")
	}
}

func TestCheckPrice(t *testing.T) {
	t.Parallel()
	require.NoError(t, CheckPrice(50, "usd"))
	require.NoError(t, CheckPrice(50, "jpy"))
	require.NoError(t, CheckPrice(0, "usd"), "0 is the free price, not a charge")
	requireProblem(t, CheckPrice(49, "usd"), "price", "$0.50")
	requireProblem(t, CheckPrice(49, "JPY"), "price", "¥50")
	requireProblem(t, CheckPrice(100, "huf"), "price", "175.00")
	require.NoError(t, CheckPrice(10, ""), "no currency yet: checked when it is known")
}

func TestQuote(t *testing.T) {
	t.Parallel()
	pct := func(p int64) *Discount { return &Discount{ID: "dsc_1", Code: "LAUNCH", PercentOff: p} }
	fixed := func(a int64) *Discount { return &Discount{ID: "dsc_2", Code: "TENOFF", AmountOff: a} }
	for _, tc := range []struct {
		name string
		req  Request
		want Quote
	}{
		{"listing price", Request{Currency: "usd", Plan: "free", Price: 2900},
			Quote{Currency: "USD", Subtotal: 2900, Amount: 2900, PlatformFee: 435, NetAmount: 2465}},
		{"the minimum itself", Request{Currency: "USD", Plan: "growth", Price: 50},
			Quote{Currency: "USD", Subtotal: 50, Amount: 50, PlatformFee: 3, NetAmount: 47}},
		{"yen", Request{Currency: "jpy", Plan: "scale", Price: 1500},
			Quote{Currency: "JPY", Subtotal: 1500, Amount: 1500, PlatformFee: 45, NetAmount: 1455}},
		{"25 % off", Request{Currency: "usd", Plan: "free", Price: 2900, Discount: pct(25)},
			Quote{Currency: "USD", Subtotal: 2900, DiscountAmount: 725, Amount: 2175, PlatformFee: 326, NetAmount: 1849,
				Discount: &Applied{ID: "dsc_1", Code: "LAUNCH", Amount: 725}}},
		{"fixed off", Request{Currency: "eur", Plan: "free", Price: 2900, Discount: fixed(1000)},
			Quote{Currency: "EUR", Subtotal: 2900, DiscountAmount: 1000, Amount: 1900, PlatformFee: 285, NetAmount: 1615,
				Discount: &Applied{ID: "dsc_2", Code: "TENOFF", Amount: 1000}}},
		{"100 % off is free", Request{Currency: "usd", Plan: "free", Price: 2900, Discount: pct(100)},
			Quote{Currency: "USD", Subtotal: 2900, DiscountAmount: 2900, Amount: 0,
				Discount: &Applied{ID: "dsc_1", Code: "LAUNCH", Amount: 2900}}},
		{"fixed above the subtotal is free", Request{Currency: "usd", Plan: "free", Price: 900, Discount: fixed(5000)},
			Quote{Currency: "USD", Subtotal: 900, DiscountAmount: 900, Amount: 0,
				Discount: &Applied{ID: "dsc_2", Code: "TENOFF", Amount: 900}}},
		{"pay what you want", Request{Currency: "usd", Plan: "free", Price: 500, PayWhatYouWant: &Bounds{Minimum: 500, Maximum: 5000}, Chosen: 1250},
			Quote{Currency: "USD", Subtotal: 1250, Amount: 1250, PlatformFee: 188, NetAmount: 1062}},
		{"pay what you want, free", Request{Currency: "usd", Plan: "free", PayWhatYouWant: &Bounds{Maximum: MaxAmount}, Chosen: 0},
			Quote{Currency: "USD"}},
		{"pay what you want with a code", Request{Currency: "usd", Plan: "free", Price: 500, PayWhatYouWant: &Bounds{Minimum: 500, Maximum: 5000}, Chosen: 2000, Discount: pct(50)},
			Quote{Currency: "USD", Subtotal: 2000, DiscountAmount: 1000, Amount: 1000, PlatformFee: 150, NetAmount: 850,
				Discount: &Applied{ID: "dsc_1", Code: "LAUNCH", Amount: 1000}}},
	} {
		got, err := Price(tc.req)
		require.NoError(t, err, tc.name)
		require.Equal(t, tc.want, *got, tc.name)
		require.Equal(t, got.Subtotal-got.DiscountAmount, got.Amount, tc.name)
		require.Equal(t, got.Amount-got.PlatformFee, got.NetAmount, tc.name)
	}
}

func TestQuoteRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name          string
		req           Request
		param, detail string
	}{
		{"below the USD minimum", Request{Currency: "usd", Plan: "free", Price: 49}, "amount", "$0.50"},
		{"below the JPY minimum", Request{Currency: "jpy", Plan: "free", Price: 49}, "amount", "¥50"},
		{"a code brings it below", Request{Currency: "usd", Plan: "free", Price: 100, Discount: &Discount{Code: "BIG", PercentOff: 60}}, "discount_code", "$0.50"},
		{"a fixed code brings it below", Request{Currency: "jpy", Plan: "free", Price: 100, Discount: &Discount{Code: "BIG", AmountOff: 60}}, "discount_code", "¥50"},
		{"chosen below the listing's minimum", Request{Currency: "usd", Plan: "free", Price: 500, PayWhatYouWant: &Bounds{Minimum: 500, Maximum: 5000}, Chosen: 400}, "amount", "$5.00"},
		{"chosen above the maximum", Request{Currency: "usd", Plan: "free", Price: 500, PayWhatYouWant: &Bounds{Minimum: 500, Maximum: 5000}, Chosen: 5001}, "amount", "$50.00"},
		{"chosen below the currency minimum", Request{Currency: "usd", Plan: "free", PayWhatYouWant: &Bounds{Maximum: MaxAmount}, Chosen: 20}, "amount", "$0.50"},
		{"negative price", Request{Currency: "usd", Plan: "free", Price: -1}, "price", ""},
		{"price above the maximum", Request{Currency: "usd", Plan: "free", Price: MaxAmount + 1}, "price", ""},
		{"unsupported currency", Request{Currency: "xxx", Plan: "free", Price: 500}, "currency", ""},
		{"no currency", Request{Plan: "free", Price: 500}, "currency", ""},
		{"percent 0", Request{Currency: "usd", Plan: "free", Price: 500, Discount: &Discount{Code: "Z"}}, "discount_code", ""},
		{"percent above 100", Request{Currency: "usd", Plan: "free", Price: 500, Discount: &Discount{Code: "Z", PercentOff: 101}}, "discount_code", ""},
		{"both kinds", Request{Currency: "usd", Plan: "free", Price: 500, Discount: &Discount{Code: "Z", PercentOff: 10, AmountOff: 10}}, "discount_code", ""},
		{"amount off above the maximum", Request{Currency: "usd", Plan: "free", Price: 500, Discount: &Discount{Code: "Z", AmountOff: MaxAmount + 1}}, "discount_code", ""},
	} {
		q, err := Price(tc.req)
		require.Nil(t, q, tc.name)
		requireProblem(t, err, tc.param, tc.detail)
	}
}

func requireProblem(t *testing.T, err error, param, detailContains string) {
	t.Helper()
	p := problem.From(err)
	require.NotNil(t, p, "want a validation_error, got %v", err)
	require.Equal(t, problem.ValidationError, p.Code)
	require.Equal(t, param, p.Param, p.Detail)
	require.Contains(t, p.Detail, detailContains)
}

func TestReceiptOf(t *testing.T) {
	for _, c := range []struct {
		name                  string
		subtotal, off, amount int64
		code, cur             string
		want                  Receipt
	}{
		{"no code", 2900, 0, 2900, "", "usd", Receipt{Paid: "$29.00"}},
		{"a code", 2900, 725, 2175, "LAUNCH25", "usd", Receipt{Paid: "$21.75", Subtotal: "$29.00", DiscountCode: "LAUNCH25", Discount: "−$7.25"}},
		{"yen", 1000, 250, 750, "x-y", "JPY", Receipt{Paid: "¥750", Subtotal: "¥1,000", DiscountCode: "x-y", Discount: "−¥250"}},
		{"free by a code", 500, 500, 0, "ALL", "eur", Receipt{Paid: "Free", Subtotal: "€5.00", DiscountCode: "ALL", Discount: "−€5.00"}},
		{"free", 0, 0, 0, "", "usd", Receipt{Paid: "Free"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := ReceiptOf(c.subtotal, c.code, c.off, c.amount, c.cur); got != c.want {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestFeePercent(t *testing.T) {
	for plan, want := range map[string]string{"free": "15", "growth": "5", "scale": "3"} {
		got, ok := FeePercent(plan)
		require.True(t, ok, plan)
		require.Equal(t, want, got, plan)
	}
	_, ok := FeePercent("platinum")
	require.False(t, ok)
}
