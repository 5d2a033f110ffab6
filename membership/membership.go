// Package membership holds the rules of memberships (CONTRACT §26) that
// need no database: the states and the one transition table every status
// change goes through, the billing periods, the retry schedule of a
// failed renewal, who keeps access, and a membership's monthly value for
// MRR. The resolvers (resolvers/memberships*.go) read a membership, ask
// this package what happens next, and write it with its consequences in
// one transaction.
package membership

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Status is a membership's status.
type Status string

// The statuses (CONTRACT §26).
const (
	Trialing Status = "trialing"
	Active   Status = "active"
	PastDue  Status = "past_due"
	Canceled Status = "canceled"
	Ended    Status = "ended"
)

// Valid reports whether s is one of the statuses.
func (s Status) Valid() bool {
	switch s {
	case Trialing, Active, PastDue, Canceled, Ended:
		return true
	}
	return false
}

// Event is what happens to a membership.
type Event string

// The events of the transition table.
const (
	// RenewalPaid: a renewal (or its retry) was paid.
	RenewalPaid Event = "renewal_paid"
	// RenewalFailed: a renewal attempt failed and another is scheduled.
	RenewalFailed Event = "renewal_failed"
	// FinalFailure: the last attempt of the schedule failed.
	FinalFailure Event = "final_failure"
	// Cancel: cancel at the period's end (the buyer or the seller).
	Cancel Event = "cancel"
	// CancelNow: cancel at once.
	CancelNow Event = "cancel_now"
	// Resume: undo a cancel before the period ends.
	Resume Event = "resume"
	// PeriodEnd: the period of a canceled membership is over.
	PeriodEnd Event = "period_end"
	// Refunded: the latest order was refunded.
	Refunded Event = "refunded"
	// DisputeLost: a dispute on the latest order was lost.
	DisputeLost Event = "dispute_lost"
)

// EndedReason says why a membership ended.
type EndedReason string

// The ended reasons (CONTRACT §26).
const (
	ReasonCanceled      EndedReason = "canceled"
	ReasonPaymentFailed EndedReason = "payment_failed"
	ReasonRefunded      EndedReason = "refunded"
	ReasonDisputeLost   EndedReason = "dispute_lost"
)

// ErrInvalidTransition: the event cannot happen in the membership's
// status (the API's 409 invalid_transition).
var ErrInvalidTransition = errors.New("membership: invalid transition")

// Facts are what a transition needs to know besides the status.
type Facts struct {
	// InTrial: the trial has not ended yet (trial_end after now); a resumed
	// membership goes back to trialing then.
	InTrial bool
	// PeriodOver: current_period_end is not after now; a canceled
	// membership can no longer be resumed.
	PeriodOver bool
}

// Transition is what an event does: the new status, and for an end its
// reason. Same reports a no-op (a cancel repeated, a resume of a
// membership that was not canceled): nothing to write, no event to emit.
type Transition struct {
	To     Status
	Reason EndedReason
	Same   bool
}

// Next is the transition table: the status ev moves a membership in from
// to, given facts. Errors: ErrInvalidTransition (anything on an ended
// membership but a repeated end, a resume after the period, a renewal of a
// canceled one).
func Next(from Status, ev Event, f Facts) (Transition, error) {
	if from == Ended {
		return Transition{}, fmt.Errorf("%w: the membership has ended", ErrInvalidTransition)
	}
	switch ev {
	case RenewalPaid:
		if from == Canceled {
			return Transition{}, fmt.Errorf("%w: a canceled membership is not renewed", ErrInvalidTransition)
		}
		return Transition{To: Active}, nil
	case RenewalFailed:
		if from == Canceled {
			return Transition{}, fmt.Errorf("%w: a canceled membership is not renewed", ErrInvalidTransition)
		}
		return Transition{To: PastDue, Same: from == PastDue}, nil
	case FinalFailure:
		if from != PastDue && from != Active && from != Trialing {
			return Transition{}, fmt.Errorf("%w: only a renewal being retried fails for good", ErrInvalidTransition)
		}
		return Transition{To: Ended, Reason: ReasonPaymentFailed}, nil
	case Cancel:
		switch from {
		case Canceled:
			return Transition{To: Canceled, Same: true}, nil
		case PastDue:
			// The period a past-due membership is in has ended already
			// (its renewal is what failed): canceling ends it now.
			return Transition{To: Ended, Reason: ReasonCanceled}, nil
		}
		return Transition{To: Canceled}, nil
	case CancelNow:
		return Transition{To: Ended, Reason: ReasonCanceled}, nil
	case Resume:
		switch {
		case from != Canceled:
			return Transition{To: from, Same: true}, nil
		case f.PeriodOver:
			return Transition{}, fmt.Errorf("%w: the period has ended; buy the membership again", ErrInvalidTransition)
		case f.InTrial:
			return Transition{To: Trialing}, nil
		}
		return Transition{To: Active}, nil
	case PeriodEnd:
		if from != Canceled {
			return Transition{To: from, Same: true}, nil
		}
		return Transition{To: Ended, Reason: ReasonCanceled}, nil
	case Refunded:
		return Transition{To: Ended, Reason: ReasonRefunded}, nil
	case DisputeLost:
		return Transition{To: Ended, Reason: ReasonDisputeLost}, nil
	}
	return Transition{}, fmt.Errorf("%w: unknown event %q", ErrInvalidTransition, ev)
}

// HasAccess reports whether a membership in status s, whose period ends at
// periodEnd, keeps its buyer's access at now: while trialing, active or
// past due, and canceled until the period's end; never once ended.
func HasAccess(s Status, periodEnd, now time.Time) bool {
	switch s {
	case Trialing, Active, PastDue:
		return true
	case Canceled:
		return now.Before(periodEnd)
	}
	return false
}

// Intervals (CONTRACT §26).
const (
	Month = "month"
	Year  = "year"
)

// ValidInterval reports whether iv is month or year.
func ValidInterval(iv string) bool { return iv == Month || iv == Year }

// MaxTrialDays bounds a listing's trial_days.
const MaxTrialDays = 90

// PeriodEndAt is the end of the n-th period (n ≥ 1) of a membership billed
// by interval from anchor: anchor plus n months or years, on the anchor's
// day of the month, or the month's last day when it has fewer days (a
// membership begun on 31 January renews on 28 or 29 February, then on 31
// March), at the anchor's time of day.
func PeriodEndAt(anchor time.Time, interval string, n int) time.Time {
	months := n
	if interval == Year {
		months = 12 * n
	}
	y, m, d := anchor.Date()
	first := time.Date(y, m+time.Month(months), 1, anchor.Hour(), anchor.Minute(), anchor.Second(), anchor.Nanosecond(), anchor.Location())
	last := first.AddDate(0, 1, -1).Day()
	return first.AddDate(0, 0, min(d, last)-1)
}

// DefaultSchedule is MEMBERSHIP_RETRY_SCHEDULE's default.
const DefaultSchedule = "1d,3d,5d,7d"

// Schedule is when a failed renewal is tried again, each an offset from
// its due date, increasing: with the attempt at the due date, len+1
// attempts in all.
type Schedule []time.Duration

// Limits of a schedule.
const (
	maxRetries     = 10
	maxRetryOffset = 60 * 24 * time.Hour
)

// ParseSchedule parses MEMBERSHIP_RETRY_SCHEDULE: comma-separated offsets
// after the due date, each a number and a unit (s, m, h or d: "1d",
// "12h", "30s"), strictly increasing, at most 10 of them, none beyond 60
// days. An empty string is no retry at all (one attempt).
func ParseSchedule(s string) (Schedule, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Schedule{}, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) > maxRetries {
		return nil, fmt.Errorf("at most %d retries, not %d", maxRetries, len(parts))
	}
	out := make(Schedule, 0, len(parts))
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if len(p) < 2 {
			return nil, fmt.Errorf("%q is not an offset such as 1d, 12h, 30m or 45s", p)
		}
		n, err := strconv.Atoi(p[:len(p)-1])
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("%q is not an offset such as 1d, 12h, 30m or 45s", p)
		}
		var unit time.Duration
		switch p[len(p)-1] {
		case 's':
			unit = time.Second
		case 'm':
			unit = time.Minute
		case 'h':
			unit = time.Hour
		case 'd':
			unit = 24 * time.Hour
		default:
			return nil, fmt.Errorf("%q has no unit s, m, h or d", p)
		}
		if n > int(maxRetryOffset/unit) {
			return nil, fmt.Errorf("%q is beyond 60 days", p)
		}
		d := time.Duration(n) * unit
		if len(out) > 0 && d <= out[len(out)-1] {
			return nil, fmt.Errorf("%q does not come after %s: offsets increase", p, out[len(out)-1])
		}
		out = append(out, d)
	}
	return out, nil
}

// Attempts is how many attempts a renewal gets: the one at the due date
// and one per retry.
func (s Schedule) Attempts() int { return len(s) + 1 }

// NextAttempt is when the attempt after failed attempt number failed (1:
// the one at the due date) is made, and false when that was the last.
func (s Schedule) NextAttempt(due time.Time, failed int) (time.Time, bool) {
	if failed < 1 || failed > len(s) {
		return time.Time{}, false
	}
	return due.Add(s[failed-1]), true
}

// MRR is the monthly recurring revenue of memberships charging monthly
// the sum monthly and yearly the sum yearly: the yearly ones divided by
// 12, rounded half up once on the total (so twelve yearly memberships of
// 100 count 100, not twelve roundings of 8.33).
func MRR(monthly, yearly int64) int64 {
	return monthly + (yearly+6)/12
}
