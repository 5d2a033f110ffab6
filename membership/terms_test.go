package membership

import (
	"testing"
	"time"

	"commerce/problem"
)

func TestTermsCheck(t *testing.T) {
	cases := []struct {
		name  string
		terms Terms
		want  []string // the params refused, in order
	}{
		{"one-time", Terms{Billing: BillingOneTime, Pricing: "fixed"}, nil},
		{"one-time pay what you want", Terms{Billing: BillingOneTime, Pricing: PricingPayWhatYouWant}, nil},
		{"one-time with an interval", Terms{Billing: BillingOneTime, Interval: Month}, []string{"interval"}},
		{"one-time with a trial", Terms{Billing: BillingOneTime, TrialDays: 7}, []string{"trial_days"}},
		{"monthly", Terms{Billing: BillingMembership, Interval: Month, Pricing: "fixed"}, nil},
		{"yearly with the longest trial", Terms{Billing: BillingMembership, Interval: Year, TrialDays: 90}, nil},
		{"no interval", Terms{Billing: BillingMembership}, []string{"interval"}},
		{"a weekly interval", Terms{Billing: BillingMembership, Interval: "week"}, []string{"interval"}},
		{"pay what you want", Terms{Billing: BillingMembership, Interval: Month, Pricing: PricingPayWhatYouWant}, []string{"pricing"}},
		{"an expiring license", Terms{Billing: BillingMembership, Interval: Month, LicenseExpires: true}, []string{"license.expires_after_days"}},
		{"a trial too long", Terms{Billing: BillingMembership, Interval: Month, TrialDays: 91}, []string{"trial_days"}},
		{"a negative trial", Terms{Billing: BillingMembership, Interval: Month, TrialDays: -1}, []string{"trial_days"}},
		{"everything wrong", Terms{Billing: BillingMembership, Pricing: PricingPayWhatYouWant, TrialDays: 100},
			[]string{"interval", "pricing", "trial_days"}},
		{"an unknown billing", Terms{Billing: "weekly"}, []string{"billing"}},
	}
	for _, c := range cases {
		var f problem.Fields
		c.terms.Check(&f)
		var got []string
		if p := problem.From(f.Err()); p != nil {
			for _, e := range p.Errors {
				got = append(got, e.Param)
			}
		}
		if len(got) != len(c.want) {
			t.Errorf("%s: refused %v, want %v", c.name, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s: refused %v, want %v", c.name, got, c.want)
			}
		}
	}
}

func TestCycleEnd(t *testing.T) {
	jan31 := time.Date(2027, 1, 31, 9, 30, 0, 0, time.UTC)
	cases := []struct {
		interval string
		trial    bool
		cycle    int
		want     time.Time
	}{
		// Without a trial the anchor is the first payment.
		{Month, false, 1, time.Date(2027, 2, 28, 9, 30, 0, 0, time.UTC)},
		{Month, false, 2, time.Date(2027, 3, 31, 9, 30, 0, 0, time.UTC)},
		{Month, false, 13, time.Date(2028, 2, 29, 9, 30, 0, 0, time.UTC)},
		{Year, false, 1, time.Date(2028, 1, 31, 9, 30, 0, 0, time.UTC)},
		// With one the anchor is the trial's end: the first period ends there.
		{Month, true, 1, jan31},
		{Month, true, 2, time.Date(2027, 2, 28, 9, 30, 0, 0, time.UTC)},
		{Year, true, 3, time.Date(2029, 1, 31, 9, 30, 0, 0, time.UTC)},
	}
	for _, c := range cases {
		if got := CycleEnd(jan31, c.interval, c.trial, c.cycle); !got.Equal(c.want) {
			t.Errorf("CycleEnd(%s, trial %v, cycle %d) = %s, want %s", c.interval, c.trial, c.cycle, got, c.want)
		}
	}
	if got := TrialEnd(jan31, 14); !got.Equal(time.Date(2027, 2, 14, 9, 30, 0, 0, time.UTC)) {
		t.Errorf("TrialEnd = %s", got)
	}
}

func TestDueAt(t *testing.T) {
	due := time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC)
	s, err := ParseSchedule(DefaultSchedule)
	if err != nil {
		t.Fatal(err)
	}
	want := []time.Time{due, due.AddDate(0, 0, 1), due.AddDate(0, 0, 3), due.AddDate(0, 0, 5), due.AddDate(0, 0, 7)}
	for failed, w := range want {
		got, ok := s.DueAt(due, failed)
		if !ok || !got.Equal(w) {
			t.Errorf("DueAt(%d) = %s %v, want %s", failed, got, ok, w)
		}
	}
	if _, ok := s.DueAt(due, 5); ok {
		t.Error("five failed attempts: no attempt left")
	}
	if _, ok := (Schedule{}).DueAt(due, 1); ok {
		t.Error("no retries: one attempt only")
	}
}
