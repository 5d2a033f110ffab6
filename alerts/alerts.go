package alerts

import (
	"slices"
	"time"
)

// The rules' constants (CONTRACT §12 and §22).
const (
	// DefaultAfter is how long an endpoint fails before its seller is
	// warned, when WEBHOOK_ALERT_AFTER is unset.
	DefaultAfter = time.Hour
	// MinFailures is the fewest failed attempts in that time that warn.
	MinFailures = 5
	// RepeatAfter is the least time between two warnings of one endpoint
	// while it keeps failing (a success ends the failure, and the next
	// failure is warned of afresh).
	RepeatAfter = 24 * time.Hour
	// DisableAfter is how many deliveries in a row failing permanently
	// disable an endpoint (the dispatcher's rule).
	DisableAfter = 3
)

// State is an endpoint's alert state: since when it has failed without a
// 2xx (nil: its last attempt succeeded, or none failed), how many attempts
// failed since then, and when its seller was last warned of this failure
// (nil: not yet).
type State struct {
	FailingSince   *time.Time
	FailedAttempts int
	WarnedAt       *time.Time
}

// Warn reports whether a warning is due at now: the endpoint has failed
// for at least after with at least MinFailures failed attempts, and no
// warning went out in the last RepeatAfter.
func Warn(s State, now time.Time, after time.Duration) bool {
	if s.FailingSince == nil || s.FailedAttempts < MinFailures || now.Before(s.FailingSince.Add(after)) {
		return false
	}
	return s.WarnedAt == nil || !now.Before(s.WarnedAt.Add(RepeatAfter))
}

// Pending is a delivery waiting for its next attempt: the attempts made so
// far and when the next is due.
type Pending struct {
	Attempts      int
	NextAttemptAt time.Time
}

// DisableAt is when the endpoint will be disabled if every attempt from
// now on fails: the moment the deliveries still needed to reach
// DisableAfter permanent failures in a row (consecutiveFailures have
// already) have each made their last attempt, on schedule (a Retry-After
// longer than the schedule only makes it later). ok is false when fewer
// deliveries are pending than needed (more events must come first) or the
// endpoint has reached the limit already.
func DisableAt(schedule []time.Duration, consecutiveFailures int, pending []Pending) (time.Time, bool) {
	need := DisableAfter - consecutiveFailures
	if need < 1 || len(pending) < need {
		return time.Time{}, false
	}
	last := make([]time.Time, len(pending))
	for i, p := range pending {
		t := p.NextAttemptAt
		// The next attempt is number Attempts+1; after a failure of number
		// n comes schedule[n-1]; the last is number len(schedule)+1.
		for n := p.Attempts + 1; n <= len(schedule); n++ {
			t = t.Add(schedule[n-1])
		}
		last[i] = t
	}
	slices.SortFunc(last, func(a, b time.Time) int { return a.Compare(b) })
	return last[need-1], true
}

// RetrySpan is how long one delivery is retried: from its first attempt to
// its last, on schedule.
func RetrySpan(schedule []time.Duration) time.Duration {
	var d time.Duration
	for _, s := range schedule {
		d += s
	}
	return d
}
