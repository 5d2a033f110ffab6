package webhooks

import "time"

// DefaultSchedule is the default retry schedule (CONTRACT §12): the delays
// before the 2nd to the 8th attempt. WEBHOOK_RETRY_SCHEDULE replaces it.
var DefaultSchedule = []time.Duration{5 * time.Second, 30 * time.Second, 2 * time.Minute, 10 * time.Minute, 30 * time.Minute, 2 * time.Hour, 6 * time.Hour}

// NextDelay says how long to wait before attempt number attemptsSoFar+1,
// given that attemptsSoFar attempts have been made (the first attempt is 1)
// and the last of them had outcome a. The delay is schedule[attemptsSoFar-1],
// or a.RetryAfter when that is larger and a's status was 429 or 503 (capped
// at MaxRetryAfter). ok is false when there is nothing more to do: a was a
// success, the failure is permanent (410 Gone), or the retries are spent
// (attemptsSoFar > len(schedule)). With no attempt made yet the first is
// due at once (0, true). The result is deterministic: no jitter.
func NextDelay(schedule []time.Duration, attemptsSoFar int, a Attempt) (time.Duration, bool) {
	switch {
	case a.Success() || a.Permanent():
		return 0, false
	case attemptsSoFar < 1:
		return 0, true
	case attemptsSoFar > len(schedule):
		return 0, false
	}
	d := schedule[attemptsSoFar-1]
	if a.Err == nil && (a.StatusCode == 429 || a.StatusCode == 503) && a.RetryAfter > d {
		d = min(a.RetryAfter, MaxRetryAfter)
	}
	return d, true
}
