package membership

import (
	"testing"
	"time"
)

func TestPriceTag(t *testing.T) {
	cases := []struct {
		amount int64
		cur    string
		want   string
	}{
		{900, "usd", "$9"},
		{675, "USD", "$6.75"},
		{9000, "usd", "$90"},
		{150000, "usd", "$1,500"},
		{1500, "jpy", "¥1,500"},
		{1000, "chf", "CHF 10"},
		{1050, "chf", "CHF 10.50"},
		{0, "usd", "$0"},
	}
	for _, c := range cases {
		if got := PriceTag(c.amount, c.cur); got != c.want {
			t.Errorf("PriceTag(%d, %s) = %q, want %q", c.amount, c.cur, got, c.want)
		}
	}
}

func TestPerPeriod(t *testing.T) {
	if got := PerPeriod(900, "usd", Month); got != "$9 a month" {
		t.Errorf("got %q", got)
	}
	if got := PerPeriod(9000, "usd", Year); got != "$90 a year" {
		t.Errorf("got %q", got)
	}
	if got := PerPeriod(999, "eur", Month); got != "€9.99 a month" {
		t.Errorf("got %q", got)
	}
}

func ptr(v int64) *int64 { return &v }

func TestOfferWords(t *testing.T) {
	cases := []struct {
		name        string
		o           Offer
		terms, buy  string
		trial, each string
	}{
		{"monthly", Offer{Price: 900, Currency: "usd", Interval: Month},
			"$9 a month", "Subscribe for $9 a month", "", "$9 a month"},
		{"yearly", Offer{Price: 9000, Currency: "usd", Interval: Year},
			"$90 a year", "Subscribe for $90 a year", "", "$90 a year"},
		{"trial", Offer{Price: 900, Currency: "usd", Interval: Month, TrialDays: 7},
			"7-day free trial, then $9 a month", "Start your free trial", "7-day free trial", "$9 a month"},
		{"discount", Offer{Price: 900, Currency: "usd", Interval: Month, First: ptr(675)},
			"$6.75 for the first month, then $9 a month", "Subscribe for $6.75 for the first month", "", "$9 a month"},
		{"discount yearly", Offer{Price: 9000, Currency: "usd", Interval: Year, First: ptr(4500)},
			"$45 for the first year, then $90 a year", "Subscribe for $45 for the first year", "", "$90 a year"},
		{"free first month", Offer{Price: 900, Currency: "usd", Interval: Month, First: ptr(0)},
			"Free for the first month, then $9 a month", "Subscribe: the first month is free", "", "$9 a month"},
		{"trial and discount", Offer{Price: 900, Currency: "usd", Interval: Month, TrialDays: 14, First: ptr(675)},
			"14-day free trial, then $6.75 for the first month, then $9 a month", "Start your free trial", "14-day free trial", "$9 a month"},
		{"a code that takes nothing off", Offer{Price: 900, Currency: "usd", Interval: Month, First: ptr(900)},
			"$9 a month", "Subscribe for $9 a month", "", "$9 a month"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.o.Terms(); got != c.terms {
				t.Errorf("Terms() = %q, want %q", got, c.terms)
			}
			if got := c.o.BuyText(); got != c.buy {
				t.Errorf("BuyText() = %q, want %q", got, c.buy)
			}
			if got := c.o.TrialText(); got != c.trial {
				t.Errorf("TrialText() = %q, want %q", got, c.trial)
			}
			if got := c.o.EachPeriod(); got != c.each {
				t.Errorf("EachPeriod() = %q, want %q", got, c.each)
			}
		})
	}
}

func TestFirstCharge(t *testing.T) {
	start := time.Date(2026, 11, 26, 9, 30, 0, 0, time.UTC)
	cases := []struct {
		name string
		o    Offer
		now  int64
		want string
	}{
		{"trial", Offer{Price: 900, Currency: "usd", Interval: Month, TrialDays: 7}, 0,
			"Nothing today. Your card is charged $9.00 on 3 December 2026, at the end of the free trial, then $9.00 every month."},
		{"trial and discount", Offer{Price: 900, Currency: "usd", Interval: Month, TrialDays: 7, First: ptr(675)}, 0,
			"Nothing today. Your card is charged $6.75 on 3 December 2026, at the end of the free trial, then $9.00 every month."},
		{"no trial", Offer{Price: 900, Currency: "usd", Interval: Month}, 900,
			"$9.00 today, then $9.00 every month from 26 December 2026."},
		{"discount", Offer{Price: 900, Currency: "usd", Interval: Month, First: ptr(675)}, 675,
			"$6.75 today, then $9.00 every month from 26 December 2026."},
		{"yearly", Offer{Price: 9000, Currency: "usd", Interval: Year}, 9000,
			"$90.00 today, then $90.00 every year from 26 November 2027."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.o.Schedule(c.now, start); got != c.want {
				t.Errorf("Schedule() = %q, want %q", got, c.want)
			}
		})
	}
}

func TestDescribe(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	end := time.Date(2026, 12, 26, 9, 30, 0, 0, time.UTC)
	trialEnd := time.Date(2026, 12, 3, 9, 30, 0, 0, time.UTC)
	failed := time.Date(2026, 11, 25, 9, 31, 0, 0, time.UTC)
	retry := time.Date(2026, 11, 28, 9, 30, 0, 0, time.UTC)
	ended := time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)
	past := time.Date(2026, 11, 25, 9, 30, 0, 0, time.UTC)
	reason := func(r EndedReason) *EndedReason { return &r }
	base := View{Amount: 900, Price: 900, Currency: "usd", Interval: Month, PeriodEnd: end}
	with := func(f func(*View)) View { v := base; f(&v); return v }
	cases := []struct {
		name string
		v    View
		want Description
	}{
		{"active", with(func(v *View) { v.Status = Active }), Description{Status: "Active",
			Lines:  []string{"Renews on 26 December 2026 for $9.00."},
			Access: true, CanCancel: true, CanUpdatePaymentMethod: true}},
		{"active with a first-period discount", with(func(v *View) { v.Status = Active; v.Amount = 675 }), Description{Status: "Active",
			Lines:  []string{"Renews on 26 December 2026 for $6.75, then $9.00 a month."},
			Access: true, CanCancel: true, CanUpdatePaymentMethod: true}},
		{"trialing", with(func(v *View) { v.Status = Trialing; v.PeriodEnd = trialEnd; v.TrialEnd = &trialEnd }), Description{Status: "Free trial",
			Lines:  []string{"Your free trial ends on 3 December 2026.", "Renews on 3 December 2026 for $9.00."},
			Access: true, CanCancel: true, CanUpdatePaymentMethod: true}},
		{"past due", with(func(v *View) { v.Status = PastDue; v.PeriodEnd = past; v.LastFailure = &failed; v.NextAttempt = &retry }),
			Description{Status: "Payment failed",
				Lines: []string{"Your last payment failed on 25 November 2026; update your payment method.",
					"We will try again on 28 November 2026 with the payment method on file."},
				Access: true, CanCancel: true, CanUpdatePaymentMethod: true, PastDue: true}},
		{"past due, no failure date known", with(func(v *View) { v.Status = PastDue; v.PeriodEnd = past }),
			Description{Status: "Payment failed",
				Lines:  []string{"Your last payment failed on 25 November 2026; update your payment method."},
				Access: true, CanCancel: true, CanUpdatePaymentMethod: true, PastDue: true}},
		{"canceled", with(func(v *View) { v.Status = Canceled; v.CancelAtPeriodEnd = true }), Description{Status: "Canceled",
			Lines:  []string{"Ends on 26 December 2026. You keep access until then, and nothing more is charged.", "Changed your mind? Resume it before 26 December 2026."},
			Access: true, CanResume: true}},
		{"canceled, period over", with(func(v *View) { v.Status = Canceled; v.PeriodEnd = past }), Description{Status: "Ended",
			Lines: []string{"Ended on 25 November 2026: it was canceled. You no longer have access."}}},
		{"ended, canceled", with(func(v *View) { v.Status = Ended; v.EndedAt = &ended; v.EndedReason = reason(ReasonCanceled) }), Description{Status: "Ended",
			Lines: []string{"Ended on 20 November 2026: it was canceled. You no longer have access."}}},
		{"ended, payments failed", with(func(v *View) { v.Status = Ended; v.EndedAt = &ended; v.EndedReason = reason(ReasonPaymentFailed) }), Description{Status: "Ended",
			Lines: []string{"Ended on 20 November 2026: its payments failed. You no longer have access."}}},
		{"ended, refunded", with(func(v *View) { v.Status = Ended; v.EndedAt = &ended; v.EndedReason = reason(ReasonRefunded) }), Description{Status: "Ended",
			Lines: []string{"Ended on 20 November 2026: its payment was refunded. You no longer have access."}}},
		{"ended, dispute lost", with(func(v *View) { v.Status = Ended; v.EndedAt = &ended; v.EndedReason = reason(ReasonDisputeLost) }), Description{Status: "Ended",
			Lines: []string{"Ended on 20 November 2026: its payment was reversed. You no longer have access."}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Describe(c.v, now)
			if got.Status != c.want.Status || got.Access != c.want.Access || got.CanCancel != c.want.CanCancel ||
				got.CanResume != c.want.CanResume || got.CanUpdatePaymentMethod != c.want.CanUpdatePaymentMethod ||
				got.PastDue != c.want.PastDue || len(got.Lines) != len(c.want.Lines) {
				t.Fatalf("Describe() = %+v\nwant %+v", got, c.want)
			}
			for i := range got.Lines {
				if got.Lines[i] != c.want.Lines[i] {
					t.Errorf("line %d = %q, want %q", i, got.Lines[i], c.want.Lines[i])
				}
			}
		})
	}
}

func TestCancelWords(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	end := time.Date(2026, 12, 26, 9, 30, 0, 0, time.UTC)
	trialEnd := time.Date(2026, 12, 3, 9, 30, 0, 0, time.UTC)
	cases := []struct {
		name string
		v    View
		want string
	}{
		{"active", View{Status: Active, Amount: 900, Price: 900, Currency: "usd", Interval: Month, PeriodEnd: end},
			"Your membership ends on 26 December 2026, and nothing more is charged. You keep access until then, and you can resume it before that date."},
		{"trialing", View{Status: Trialing, Amount: 900, Price: 900, Currency: "usd", Interval: Month, PeriodEnd: trialEnd, TrialEnd: &trialEnd},
			"Your free trial ends on 3 December 2026, and you will not be charged. You keep access until then, and you can resume it before that date."},
		{"past due", View{Status: PastDue, Amount: 900, Price: 900, Currency: "usd", Interval: Month, PeriodEnd: now.Add(-time.Hour)},
			"Your membership ends now, and the failed payment is not tried again. You lose access at once."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := CancelWords(c.v); got != c.want {
				t.Errorf("CancelWords() = %q\nwant %q", got, c.want)
			}
		})
	}
}

func TestDate(t *testing.T) {
	if got := Date(time.Date(2026, 12, 26, 23, 30, 0, 0, time.FixedZone("x", -5*3600))); got != "27 December 2026" {
		t.Errorf("Date = %q (dates are UTC)", got)
	}
}

func TestNotice(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	end := time.Date(2026, 12, 26, 9, 30, 0, 0, time.UTC)
	trialEnd := time.Date(2026, 12, 3, 9, 30, 0, 0, time.UTC)
	retry := time.Date(2026, 11, 28, 9, 30, 0, 0, time.UTC)
	canceled := ReasonCanceled
	base := View{Amount: 900, Price: 900, Currency: "usd", Interval: Month, PeriodEnd: end}
	with := func(f func(*View)) View { v := base; f(&v); return v }
	cases := []struct {
		name, done string
		v          View
		want       string
	}{
		{"canceled", "canceled", with(func(v *View) { v.Status = Canceled; v.CancelAtPeriodEnd = true }),
			"Your membership is canceled. It ends on 26 December 2026, and nothing more is charged."},
		{"canceled while past due", "canceled", with(func(v *View) { v.Status = Ended; v.EndedAt = &now; v.EndedReason = &canceled }),
			"Your membership has ended, and nothing more is charged."},
		{"resumed", "resumed", with(func(v *View) { v.Status = Active }),
			"Your membership is resumed. Renews on 26 December 2026 for $9.00."},
		{"resumed in its trial", "resumed", with(func(v *View) { v.Status = Trialing; v.PeriodEnd = trialEnd; v.TrialEnd = &trialEnd }),
			"Your membership is resumed. Your free trial ends on 3 December 2026."},
		{"new card", "payment_method", with(func(v *View) { v.Status = Active }),
			"Your new payment method is saved: the next renewal charges it."},
		{"new card, past due", "payment_method", with(func(v *View) { v.Status = PastDue; v.NextAttempt = &retry }),
			"Your new payment method is saved: the next attempt, on 28 November 2026, charges it."},
		{"new card, past due, no date", "payment_method", with(func(v *View) { v.Status = PastDue }),
			"Your new payment method is saved: the next attempt charges it."},
		{"nothing", "whatever", with(func(v *View) { v.Status = Active }), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Notice(c.done, c.v, now); got != c.want {
				t.Errorf("Notice() = %q\nwant %q", got, c.want)
			}
		})
	}
}
