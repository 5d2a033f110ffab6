package mail

import (
	"errors"
	"time"

	"commerce/currency"
)

// The buyer's membership emails (CONTRACT §26).
const (
	TemplateMembershipReceipt       = "membership_receipt"
	TemplateMembershipPaymentFailed = "membership_payment_failed"
	TemplateMembershipCanceled      = "membership_canceled"
	TemplateMembershipEnded         = "membership_ended"
)

// MembershipData fills the membership emails.
type MembershipData struct {
	ListingTitle string
	// StoreName is the seller's display name ("" without one).
	StoreName string
	// Interval is "month" or "year".
	Interval string
	// Amount is what was charged (receipt), could not be charged
	// (payment failed), in the currency's minor unit.
	Amount int64
	// NextAmount is what the next renewal charges.
	NextAmount int64
	// Currency is ISO 4217, any case.
	Currency string
	// PeriodStart and PeriodEnd are the period paid for (receipt), or the
	// current one: PeriodEnd is the next renewal, and when a canceled
	// membership's access ends.
	PeriodStart time.Time
	PeriodEnd   time.Time
	// NextAttemptAt is when a failed renewal is tried again (nil: never).
	NextAttemptAt *time.Time
	// DeclineMessage is the processor's reason for a decline ("" unknown).
	DeclineMessage string
	// EndedAt and EndedReason ("canceled", "payment_failed", "refunded",
	// "dispute_lost") say when and why a membership ended.
	EndedAt     time.Time
	EndedReason string
	// LibraryURL is the buyer's library, where they cancel, resume and
	// update the payment method; ProductURL the product page, to buy again.
	LibraryURL string
	ProductURL string
}

// mailDate writes a date as people read it: "December 26, 2026".
func mailDate(t time.Time) string { return t.UTC().Format("January 2, 2006") }

// Store is the store's name, or "the seller".
func (d MembershipData) Store() string {
	if d.StoreName == "" {
		return "the seller"
	}
	return d.StoreName
}

// AmountText and NextAmountText are the amounts with their currency:
// "$9.00".
func (d MembershipData) AmountText() string { return currency.Format(d.Amount, d.Currency) }

// NextAmountText is what the next renewal charges.
func (d MembershipData) NextAmountText() string { return currency.Format(d.NextAmount, d.Currency) }

// PerInterval is "a month" or "a year".
func (d MembershipData) PerInterval() string {
	if d.Interval == "year" {
		return "a year"
	}
	return "a month"
}

// PeriodText is the period: "December 26, 2026 – January 26, 2027".
func (d MembershipData) PeriodText() string {
	return mailDate(d.PeriodStart) + " – " + mailDate(d.PeriodEnd)
}

// PeriodEndText is the end of the period: the next renewal, or the end of
// a canceled membership's access.
func (d MembershipData) PeriodEndText() string { return mailDate(d.PeriodEnd) }

// NextAttemptText is when the renewal is tried again ("" never).
func (d MembershipData) NextAttemptText() string {
	if d.NextAttemptAt == nil {
		return ""
	}
	return mailDate(*d.NextAttemptAt)
}

// EndedText is when the membership ended.
func (d MembershipData) EndedText() string { return mailDate(d.EndedAt) }

// ReasonText says why the membership ended, for the buyer.
func (d MembershipData) ReasonText() string {
	switch d.EndedReason {
	case "payment_failed":
		return "its renewal could not be charged to your payment method after several tries"
	case "refunded":
		return "its payment was refunded"
	case "dispute_lost":
		return "its payment was disputed and reversed"
	}
	return "it was canceled"
}

func membershipMail(name, to string, d MembershipData) (Message, error) {
	if d.ListingTitle == "" || d.LibraryURL == "" {
		return Message{}, errors.New("mail: a membership email needs its listing and the library's URL")
	}
	return render(name, to, d)
}

// MembershipReceipt is the receipt of a renewal: what was paid, for which
// period, and the next renewal.
func MembershipReceipt(to string, d MembershipData) (Message, error) {
	return membershipMail(TemplateMembershipReceipt, to, d)
}

// MembershipPaymentFailed tells the buyer a renewal could not be charged,
// when it is tried again, and where to update the payment method.
func MembershipPaymentFailed(to string, d MembershipData) (Message, error) {
	return membershipMail(TemplateMembershipPaymentFailed, to, d)
}

// MembershipCanceled confirms a cancel: access until the period's end,
// and how to resume before then.
func MembershipCanceled(to string, d MembershipData) (Message, error) {
	return membershipMail(TemplateMembershipCanceled, to, d)
}

// MembershipEnded tells the buyer the membership ended, why, that its
// access is closed, and how to buy it again.
func MembershipEnded(to string, d MembershipData) (Message, error) {
	return membershipMail(TemplateMembershipEnded, to, d)
}
