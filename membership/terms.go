package membership

import (
	"fmt"
	"time"

	"commerce/problem"
)

// Listing billings (CONTRACT §26): the listing field billing.
const (
	BillingOneTime    = "one_time"
	BillingMembership = "membership"
)

// PricingPayWhatYouWant is the listing pricing a membership refuses (the
// value of pricing.PayWhatYouWant, written here so that this package
// needs no price rules).
const PricingPayWhatYouWant = "pay_what_you_want"

// Terms are a listing's billing settings as they will be stored: its
// billing, the interval and trial of a membership, and what of the rest of
// the listing a membership cannot be sold with.
type Terms struct {
	// Billing is BillingOneTime or BillingMembership.
	Billing string
	// Interval is Month or Year; "" when none is set.
	Interval string
	// TrialDays is the free trial, 0..MaxTrialDays.
	TrialDays int
	// Pricing is the listing's pricing ("fixed", "pay_what_you_want").
	Pricing string
	// LicenseExpires: the listing's license sets expires_after_days.
	LicenseExpires bool
}

// Check adds to f every refusal of t (CONTRACT §26), each at the field the
// API names: billing one of the two; a membership needs an interval
// (interval), refuses pay what you want (pricing: a membership charges its
// price every period, so a price the buyer names once cannot be one; and
// pricing is the only way to a price of 0, which a membership cannot have
// either) and a license whose keys expire after some days
// (license.expires_after_days: a membership's key lasts while the
// membership does); a trial is 0..90 days and only a membership's; a
// one-time listing has no interval.
func (t Terms) Check(f *problem.Fields) {
	switch t.Billing {
	case BillingMembership:
		switch {
		case t.Interval == "":
			f.Add("interval", "A membership needs an interval: month or year (what the price is charged for).")
		case !ValidInterval(t.Interval):
			f.Add("interval", "interval must be month or year.")
		}
		if t.Pricing == PricingPayWhatYouWant {
			f.Add("pricing", "A membership charges its price every period, so it cannot be pay what you want: use fixed pricing.")
		}
		if t.LicenseExpires {
			f.Add("license.expires_after_days", "A membership's license key lasts as long as the membership: leave expires_after_days out.")
		}
		if t.TrialDays < 0 || t.TrialDays > MaxTrialDays {
			f.Add("trial_days", fmt.Sprintf("trial_days must be 0 to %d.", MaxTrialDays))
		}
	case BillingOneTime:
		if t.Interval != "" {
			f.Add("interval", "Only a membership has an interval: set billing to membership, or leave interval out.")
		}
		if t.TrialDays != 0 {
			f.Add("trial_days", "Only a membership has a free trial: set billing to membership, or leave trial_days out.")
		}
	default:
		f.Add("billing", `billing must be "one_time" or "membership".`)
	}
}

// TrialEnd is when a trial of days begun at start ends.
func TrialEnd(start time.Time, days int) time.Time { return start.AddDate(0, 0, days) }

// CycleEnd is when period cycle (1: the first order's) of a membership
// billed by interval from anchor ends. Without a trial the anchor is the
// first payment and period n ends n intervals after it; with one, the
// anchor is the trial's end, which is where the first period (the trial)
// ends, and period n ends n−1 intervals after it (PeriodEndAt).
func CycleEnd(anchor time.Time, interval string, trial bool, cycle int) time.Time {
	n := cycle
	if trial {
		n--
	}
	if n < 1 {
		return anchor
	}
	return PeriodEndAt(anchor, interval, n)
}

// DueAt is when the attempt after failed failed attempts of a renewal due
// at due is made: due itself first, then the schedule's retries; false
// when failed attempts are all the schedule allows.
func (s Schedule) DueAt(due time.Time, failed int) (time.Time, bool) {
	if failed == 0 {
		return due, true
	}
	return s.NextAttempt(due, failed)
}
