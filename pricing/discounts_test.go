package pricing

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/problem"
)

func i64(v int64) *int64 { return &v }

func at(s string) *time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return &t
}

func TestValidCode(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"abc", "SUMMER-25", "launch_2026", "a-b", strings.Repeat("Z", 40), "123"} {
		require.True(t, ValidCode(ok), ok)
	}
	for _, bad := range []string{"", "ab", strings.Repeat("Z", 41), "with space", "émoji", "a.b", "50%", "a/b", "abc\n", "ab\x00c"} {
		require.False(t, ValidCode(bad), bad)
	}
	require.Equal(t, "summer-25", CodeKey("SUMMER-25"))
	require.Equal(t, CodeKey("Launch"), CodeKey("lAUNCH"))
}

// The status is computed from the fields and the time, in this precedence:
// disabled, expired, exhausted, scheduled, active.
func TestDiscountStatus(t *testing.T) {
	t.Parallel()
	now := *at("2026-12-01T12:00:00Z")
	for _, tc := range []struct {
		name  string
		terms DiscountTerms
		want  string
	}{
		{"no limits", DiscountTerms{}, DiscountActive},
		{"started", DiscountTerms{StartsAt: at("2026-12-01T12:00:00Z")}, DiscountActive},
		{"starts later", DiscountTerms{StartsAt: at("2026-12-01T12:00:01Z")}, DiscountScheduled},
		{"expires later", DiscountTerms{ExpiresAt: at("2026-12-01T12:00:01Z")}, DiscountActive},
		{"expires now", DiscountTerms{ExpiresAt: at("2026-12-01T12:00:00Z")}, DiscountExpired},
		{"expired", DiscountTerms{StartsAt: at("2026-11-01T00:00:00Z"), ExpiresAt: at("2026-11-30T00:00:00Z")}, DiscountExpired},
		{"below the limit", DiscountTerms{MaxRedemptions: i64(10), RedemptionsCount: 9}, DiscountActive},
		{"reservations do not exhaust", DiscountTerms{MaxRedemptions: i64(10), RedemptionsCount: 9, ReservedCount: 1}, DiscountActive},
		{"exhausted", DiscountTerms{MaxRedemptions: i64(10), RedemptionsCount: 10}, DiscountExhausted},
		{"disabled", DiscountTerms{Disabled: true}, DiscountDisabled},
		{"disabled wins over expired", DiscountTerms{Disabled: true, ExpiresAt: at("2026-01-01T00:00:00Z")}, DiscountDisabled},
		{"expired wins over exhausted", DiscountTerms{ExpiresAt: at("2026-01-01T00:00:00Z"), MaxRedemptions: i64(1), RedemptionsCount: 1}, DiscountExpired},
		{"exhausted wins over scheduled", DiscountTerms{StartsAt: at("2027-01-01T00:00:00Z"), MaxRedemptions: i64(1), RedemptionsCount: 1}, DiscountExhausted},
	} {
		require.Equal(t, tc.want, tc.terms.Status(now), tc.name)
	}
}

func fieldErrors(err error) map[string]string {
	out := map[string]string{}
	if p := problem.From(err); p != nil {
		for _, e := range p.Errors {
			out[e.Param] = e.Detail
		}
	}
	return out
}

func TestCheckDiscountTerms(t *testing.T) {
	t.Parallel()
	now := *at("2026-12-01T12:00:00Z")
	pct := func(p int64) DiscountTerms { return DiscountTerms{Type: DiscountPercentage, PercentOff: i64(p)} }
	fixed := func(a int64) DiscountTerms { return DiscountTerms{Type: DiscountFixed, AmountOff: i64(a)} }
	for _, ok := range []DiscountTerms{
		pct(1), pct(100), fixed(1), fixed(MaxAmount),
		{Type: DiscountPercentage, PercentOff: i64(10), StartsAt: at("2026-12-02T00:00:00Z"), ExpiresAt: at("2026-12-03T00:00:00Z"),
			MaxRedemptions: i64(1), MaxPerCustomer: i64(1), MinimumAmount: i64(1)},
		{Type: DiscountFixed, AmountOff: i64(500), MinimumAmount: i64(MaxAmount), MaxRedemptions: i64(1_000_000)},
	} {
		var f problem.Fields
		ok.Check(&f)
		require.NoError(t, f.Err(), "%+v", ok)
	}
	for _, tc := range []struct {
		name  string
		terms DiscountTerms
		want  map[string]string // param → part of the detail
	}{
		{"no type", DiscountTerms{}, map[string]string{"type": "percentage or fixed"}},
		{"unknown type", DiscountTerms{Type: "bogo"}, map[string]string{"type": "percentage or fixed"}},
		{"percentage without percent_off", DiscountTerms{Type: DiscountPercentage}, map[string]string{"percent_off": "1 to 100"}},
		{"percent_off 0", pct(0), map[string]string{"percent_off": "1 to 100"}},
		{"percent_off 101", pct(101), map[string]string{"percent_off": "1 to 100"}},
		{"percentage with amount_off", DiscountTerms{Type: DiscountPercentage, PercentOff: i64(10), AmountOff: i64(5)},
			map[string]string{"amount_off": "percentage"}},
		{"fixed without amount_off", DiscountTerms{Type: DiscountFixed}, map[string]string{"amount_off": "99,999,999"}},
		{"amount_off 0", fixed(0), map[string]string{"amount_off": "99,999,999"}},
		{"amount_off too large", fixed(MaxAmount + 1), map[string]string{"amount_off": "99,999,999"}},
		{"fixed with percent_off", DiscountTerms{Type: DiscountFixed, AmountOff: i64(500), PercentOff: i64(10)},
			map[string]string{"percent_off": "fixed"}},
		{"expires before it starts", DiscountTerms{Type: DiscountFixed, AmountOff: i64(5), StartsAt: at("2026-12-02T00:00:00Z"),
			ExpiresAt: at("2026-12-02T00:00:00Z")}, map[string]string{"expires_at": "after starts_at"}},
		{"limits below 1", DiscountTerms{Type: DiscountFixed, AmountOff: i64(5), MaxRedemptions: i64(0), MaxPerCustomer: i64(0), MinimumAmount: i64(0)},
			map[string]string{"max_redemptions": "at least 1", "max_redemptions_per_customer": "at least 1", "minimum_amount": "99,999,999"}},
		{"limits too large", DiscountTerms{Type: DiscountFixed, AmountOff: i64(5), MaxRedemptions: i64(MaxRedemptions + 1),
			MaxPerCustomer: i64(MaxRedemptions + 1), MinimumAmount: i64(MaxAmount + 1)},
			map[string]string{"max_redemptions": "at most", "max_redemptions_per_customer": "at most", "minimum_amount": "99,999,999"}},
	} {
		var f problem.Fields
		tc.terms.Check(&f)
		got := fieldErrors(f.Err())
		require.Len(t, got, len(tc.want), "%s: %v", tc.name, got)
		for param, part := range tc.want {
			require.Contains(t, got, param, tc.name)
			require.Contains(t, got[param], part, tc.name)
		}
	}

	// A new expires_at is in the future.
	var f problem.Fields
	CheckNewExpiry(&f, at("2026-12-01T12:00:01Z"), now)
	CheckNewExpiry(&f, nil, now)
	require.NoError(t, f.Err())
	CheckNewExpiry(&f, at("2026-12-01T12:00:00Z"), now)
	require.Contains(t, fieldErrors(f.Err())["expires_at"], "future")
}

// The buyer's refusals, each a sentence at param discount_code, checked in
// the order a buyer can act on: the code itself, its dates, its limit,
// then this purchase.
func TestDiscountApplies(t *testing.T) {
	t.Parallel()
	now := *at("2026-12-01T12:00:00Z")
	base := DiscountTerms{Type: DiscountPercentage, PercentOff: i64(10)}
	with := func(fn func(*DiscountTerms)) DiscountTerms { d := base; fn(&d); return d }
	buy := Purchase{ListingID: "lst_a", Subtotal: 2900, Currency: "usd", CustomerUses: 0}
	require.NoError(t, base.Applies(buy, now))
	require.NoError(t, with(func(d *DiscountTerms) { d.ListingIDs = []string{"lst_b", "lst_a"} }).Applies(buy, now))
	require.NoError(t, with(func(d *DiscountTerms) { d.MinimumAmount = i64(2900) }).Applies(buy, now))
	require.NoError(t, with(func(d *DiscountTerms) { d.MaxPerCustomer = i64(2) }).Applies(Purchase{ListingID: "lst_a", Subtotal: 2900, CustomerUses: 1}, now))
	require.NoError(t, with(func(d *DiscountTerms) { d.MaxPerCustomer = i64(1) }).Applies(Purchase{ListingID: "lst_a", Subtotal: 2900, CustomerUses: -1}, now),
		"no email yet: the per-customer cap is checked when it is known")
	require.NoError(t, with(func(d *DiscountTerms) { d.MinimumAmount = i64(5000) }).Applies(Purchase{ListingID: "lst_a", SubtotalUnknown: true}, now),
		"no amount named yet: the minimum is checked when it is")

	for _, tc := range []struct {
		name   string
		terms  DiscountTerms
		buy    Purchase
		detail string
	}{
		{"disabled", with(func(d *DiscountTerms) { d.Disabled = true }), buy, "This code has been disabled."},
		{"not yet valid", with(func(d *DiscountTerms) { d.StartsAt = at("2026-12-24T18:30:00Z") }), buy,
			"This code is not valid yet: it starts on 2026-12-24 at 18:30 UTC."},
		{"expired", with(func(d *DiscountTerms) { d.ExpiresAt = at("2026-12-01T12:00:00Z") }), buy, "This code has expired."},
		{"used up", with(func(d *DiscountTerms) { d.MaxRedemptions = i64(3); d.RedemptionsCount = 2; d.ReservedCount = 1 }), buy,
			"This code has been used up."},
		{"not for this listing", with(func(d *DiscountTerms) { d.ListingIDs = []string{"lst_b"} }), buy,
			"This code does not apply to this product."},
		{"below its minimum", with(func(d *DiscountTerms) { d.MinimumAmount = i64(5000) }), buy,
			"This code needs an order of at least $50.00."},
		{"your limit reached", with(func(d *DiscountTerms) { d.MaxPerCustomer = i64(1) }), Purchase{ListingID: "lst_a", Subtotal: 2900, Currency: "usd", CustomerUses: 1},
			"You have already used this code as many times as it allows."},
		{"disabled before expired", with(func(d *DiscountTerms) { d.Disabled = true; d.ExpiresAt = at("2026-01-01T00:00:00Z") }), buy,
			"This code has been disabled."},
	} {
		err := tc.terms.Applies(tc.buy, now)
		p := problem.From(err)
		require.NotNil(t, p, tc.name)
		require.Equal(t, problem.ValidationError, p.Code, tc.name)
		require.Equal(t, "discount_code", p.Param, tc.name)
		require.Equal(t, tc.detail, p.Detail, tc.name)
	}
	// The refusals reserving can give, and not found, have their sentences too.
	require.Equal(t, "This code has been used up.", ErrCodeUsedUp().Detail)
	require.Equal(t, "This code has been disabled.", ErrCodeDisabled().Detail)
	require.Equal(t, "You have already used this code as many times as it allows.", ErrCodeLimitReached().Detail)
	require.Equal(t, "discount_code", ErrCodeNotFound().Param)
	require.Equal(t, "This code does not exist; check its spelling.", ErrCodeNotFound().Detail)
}
