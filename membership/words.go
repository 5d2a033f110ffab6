package membership

import (
	"strconv"
	"strings"
	"time"

	"commerce/currency"
)

// The words buyers read about a membership (CONTRACT §26: the product page
// shows the price per period and the trial; the library shows the
// membership): what a listing offers, what the sandbox checkout charges,
// and what became of a membership with what the buyer can do about it.
// Money is written with currency.Format; a price tag ("$9 a month") drops
// a zero fraction, as shops write prices, while an amount charged keeps it
// as on a receipt ("Renews on 26 December 2026 for $9.00").

// Noun is the word of an interval: "month" or "year".
func Noun(interval string) string {
	if interval == Year {
		return "year"
	}
	return "month"
}

// PriceTag writes a price as shops write it: currency.Format without a
// zero fraction (900 usd → "$9", 675 usd → "$6.75", 1500 jpy → "¥1,500").
func PriceTag(amount int64, cur string) string {
	s := currency.Format(amount, cur)
	if c, ok := currency.Lookup(cur); ok && c.Exponent > 0 {
		if zero := "." + strings.Repeat("0", c.Exponent); strings.HasSuffix(s, zero) {
			s = strings.TrimSuffix(s, zero)
		}
	}
	return s
}

// PerPeriod is a price per period: "$9 a month", "$90 a year".
func PerPeriod(amount int64, cur, interval string) string {
	return PriceTag(amount, cur) + " a " + Noun(interval)
}

// Date writes a day as buyer pages do, in UTC: "26 December 2026".
func Date(t time.Time) string { return t.UTC().Format("2 January 2006") }

// Offer is what a membership listing offers a buyer on its product page.
type Offer struct {
	// Price is what every period costs, in minor units of Currency.
	Price    int64
	Currency string
	Interval string
	// TrialDays is the free trial (0: none).
	TrialDays int
	// First is what the first paid period costs when a discount code
	// takes something off (CONTRACT §26: codes take the first paid period
	// only); nil without a code.
	First *int64
}

// discounted: a code changes what the first paid period costs.
func (o Offer) discounted() bool { return o.First != nil && *o.First != o.Price }

// TrialText names the free trial: "7-day free trial" ("" without one).
func (o Offer) TrialText() string {
	if o.TrialDays <= 0 {
		return ""
	}
	return strconv.Itoa(o.TrialDays) + "-day free trial"
}

// EachPeriod is the price of every period: "$9 a month".
func (o Offer) EachPeriod() string { return PerPeriod(o.Price, o.Currency, o.Interval) }

// Terms is the whole offer in one phrase: "$9 a month", "7-day free
// trial, then $9 a month", "$6.75 for the first month, then $9 a month".
func (o Offer) Terms() string {
	s := o.EachPeriod()
	if o.discounted() {
		first := PriceTag(*o.First, o.Currency) + " for the first " + Noun(o.Interval)
		if *o.First == 0 {
			first = "Free for the first " + Noun(o.Interval)
		}
		s = first + ", then " + s
		if o.TrialDays > 0 {
			s = strings.ToLower(s[:1]) + s[1:]
		}
	}
	if t := o.TrialText(); t != "" {
		s = t + ", then " + s
	}
	return s
}

// BuyText is the product page's button: "Start your free trial",
// "Subscribe for $9 a month", "Subscribe for $6.75 for the first month".
func (o Offer) BuyText() string {
	switch {
	case o.TrialDays > 0:
		return "Start your free trial"
	case o.discounted() && *o.First == 0:
		return "Subscribe: the first " + Noun(o.Interval) + " is free"
	case o.discounted():
		return "Subscribe for " + PriceTag(*o.First, o.Currency) + " for the first " + Noun(o.Interval)
	}
	return "Subscribe for " + o.EachPeriod()
}

// Schedule says what a checkout of the offer started at start charges
// now (today, the first order's amount) and then: "Nothing today. Your
// card is charged $9.00 on 3 December 2026, at the end of the free trial,
// then $9.00 every month." or "$9.00 today, then $9.00 every month from 26
// December 2026."
func (o Offer) Schedule(today int64, start time.Time) string {
	money := func(v int64) string { return currency.Format(v, o.Currency) }
	every := money(o.Price) + " every " + Noun(o.Interval)
	if o.TrialDays > 0 {
		first := o.Price
		if o.First != nil {
			first = *o.First
		}
		trialEnd := start.AddDate(0, 0, o.TrialDays)
		return "Nothing today. Your card is charged " + money(first) + " on " + Date(trialEnd) +
			", at the end of the free trial, then " + every + "."
	}
	now := money(today) + " today"
	if today == 0 {
		now = "Nothing today"
	}
	return now + ", then " + every + " from " + Date(PeriodEndAt(start, o.Interval, 1)) + "."
}

// View is a membership as its buyer's pages describe it.
type View struct {
	Status Status
	// Amount is what the next period will be charged; Price what every
	// period costs without a discount.
	Amount            int64
	Price             int64
	Currency          string
	Interval          string
	PeriodEnd         time.Time
	TrialEnd          *time.Time
	CancelAtPeriodEnd bool
	EndedAt           *time.Time
	EndedReason       *EndedReason
	// LastFailure is when the latest renewal attempt failed (past due),
	// NextAttempt when the next one is made; nil when unknown or none.
	LastFailure *time.Time
	NextAttempt *time.Time
}

// Description is what the library says of a membership and what its
// buyer may do.
type Description struct {
	// Status is the status in a word or two: "Active", "Free trial",
	// "Payment failed", "Canceled", "Ended".
	Status string
	// Lines are the sentences under it.
	Lines []string
	// Access: the buyer keeps access (membership.HasAccess).
	Access bool
	// PastDue: the last payment failed (the page says so loudly).
	PastDue bool
	// The buttons the library shows.
	CanCancel              bool
	CanResume              bool
	CanUpdatePaymentMethod bool
}

// endedBecause says why a membership ended.
func endedBecause(r *EndedReason) string {
	if r == nil {
		return "it was canceled"
	}
	switch *r {
	case ReasonPaymentFailed:
		return "its payments failed"
	case ReasonRefunded:
		return "its payment was refunded"
	case ReasonDisputeLost:
		return "its payment was reversed"
	}
	return "it was canceled"
}

// renews is "Renews on 26 December 2026 for $9.00." with what follows a
// first-period discount.
func (v View) renews() string {
	s := "Renews on " + Date(v.PeriodEnd) + " for " + currency.Format(v.Amount, v.Currency)
	if v.Amount != v.Price {
		s += ", then " + currency.Format(v.Price, v.Currency) + " a " + Noun(v.Interval)
	}
	return s + "."
}

// Describe says what became of a membership at now: its status in words,
// the dates that matter (next renewal and its amount, trial end, the
// failed payment and the next try, the end), and which buttons apply. A
// canceled membership whose period is over reads as ended, whether or
// not the renewal sweep has ended it yet.
func Describe(v View, now time.Time) Description {
	d := Description{Access: HasAccess(v.Status, v.PeriodEnd, now)}
	switch {
	case v.Status == Trialing:
		d.Status = "Free trial"
		end := v.PeriodEnd
		if v.TrialEnd != nil {
			end = *v.TrialEnd
		}
		d.Lines = []string{"Your free trial ends on " + Date(end) + ".", v.renews()}
		d.CanCancel, d.CanUpdatePaymentMethod = true, true
	case v.Status == Active:
		d.Status = "Active"
		d.Lines = []string{v.renews()}
		d.CanCancel, d.CanUpdatePaymentMethod = true, true
	case v.Status == PastDue:
		d.Status, d.PastDue = "Payment failed", true
		failed := v.PeriodEnd
		if v.LastFailure != nil {
			failed = *v.LastFailure
		}
		d.Lines = []string{"Your last payment failed on " + Date(failed) + "; update your payment method."}
		if v.NextAttempt != nil {
			d.Lines = append(d.Lines, "We will try again on "+Date(*v.NextAttempt)+" with the payment method on file.")
		}
		d.CanCancel, d.CanUpdatePaymentMethod = true, true
	case v.Status == Canceled && d.Access:
		d.Status = "Canceled"
		d.Lines = []string{"Ends on " + Date(v.PeriodEnd) + ". You keep access until then, and nothing more is charged.",
			"Changed your mind? Resume it before " + Date(v.PeriodEnd) + "."}
		d.CanResume = true
	default: // ended, or canceled with its period over
		d.Status = "Ended"
		at, reason := v.PeriodEnd, v.EndedReason
		if v.EndedAt != nil {
			at = *v.EndedAt
		}
		d.Lines = []string{"Ended on " + Date(at) + ": " + endedBecause(reason) + ". You no longer have access."}
	}
	return d
}

// CancelWords is what canceling a membership does, for the
// confirmation step: at the period's end (trial or paid), or at once for
// a past-due membership, whose period is already over (Next: Cancel from
// PastDue ends it).
func CancelWords(v View) string {
	switch v.Status {
	case PastDue:
		return "Your membership ends now, and the failed payment is not tried again. You lose access at once."
	case Trialing:
		end := v.PeriodEnd
		if v.TrialEnd != nil {
			end = *v.TrialEnd
		}
		return "Your free trial ends on " + Date(end) + ", and you will not be charged. You keep access until then, and you can resume it before that date."
	}
	return "Your membership ends on " + Date(v.PeriodEnd) + ", and nothing more is charged. You keep access until then, and you can resume it before that date."
}

// The library's notices after a buyer's action on a membership.
const (
	DoneCanceled      = "canceled"
	DoneResumed       = "resumed"
	DonePaymentMethod = "payment_method"
)

// Notice is what the library says after the buyer's action done
// (DoneCanceled, DoneResumed, DonePaymentMethod) on a membership now as
// v; "" for any other done.
func Notice(done string, v View, now time.Time) string {
	d := Describe(v, now)
	switch done {
	case DoneCanceled:
		if d.Status == "Ended" {
			return "Your membership has ended, and nothing more is charged."
		}
		return "Your membership is canceled. It ends on " + Date(v.PeriodEnd) + ", and nothing more is charged."
	case DoneResumed:
		return "Your membership is resumed. " + d.Lines[0]
	case DonePaymentMethod:
		if v.Status != PastDue {
			return "Your new payment method is saved: the next renewal charges it."
		}
		if v.NextAttempt != nil {
			return "Your new payment method is saved: the next attempt, on " + Date(*v.NextAttempt) + ", charges it."
		}
		return "Your new payment method is saved: the next attempt charges it."
	}
	return ""
}
