package alerts_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/alerts"
)

var t0 = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)

func at(d time.Duration) *time.Time { t := t0.Add(d); return &t }

// The warning: no 2xx for the whole wait and at least five failed attempts
// in it; once per 24 hours while the endpoint keeps failing.
func TestWarn(t *testing.T) {
	t.Parallel()
	const after = time.Hour
	for name, tc := range map[string]struct {
		s    alerts.State
		now  time.Duration // since t0
		want bool
	}{
		"not failing":                        {alerts.State{}, 2 * time.Hour, false},
		"failing, not for long enough":       {alerts.State{FailingSince: at(0), FailedAttempts: 9}, 59 * time.Minute, false},
		"failing for exactly the wait":       {alerts.State{FailingSince: at(0), FailedAttempts: 5}, time.Hour, true},
		"long enough, four failures":         {alerts.State{FailingSince: at(0), FailedAttempts: 4}, 3 * time.Hour, false},
		"long enough, five failures":         {alerts.State{FailingSince: at(0), FailedAttempts: 5}, 3 * time.Hour, true},
		"warned an hour ago":                 {alerts.State{FailingSince: at(0), FailedAttempts: 20, WarnedAt: at(time.Hour)}, 2 * time.Hour, false},
		"warned 23h59m ago":                  {alerts.State{FailingSince: at(0), FailedAttempts: 20, WarnedAt: at(time.Hour)}, 25*time.Hour - time.Minute, false},
		"warned 24 hours ago, still failing": {alerts.State{FailingSince: at(0), FailedAttempts: 20, WarnedAt: at(time.Hour)}, 25 * time.Hour, true},
		"clock behind the failure":           {alerts.State{FailingSince: at(time.Hour), FailedAttempts: 5}, 0, false},
	} {
		got := alerts.Warn(tc.s, t0.Add(tc.now), after)
		require.Equal(t, tc.want, got, name)
	}
	// The wait is the configuration's: a minute's wait warns after a minute.
	require.True(t, alerts.Warn(alerts.State{FailingSince: at(0), FailedAttempts: 5}, t0.Add(time.Minute), time.Minute))
}

// When the endpoint is disabled if every pending delivery keeps failing:
// when the deliveries still needed to reach three permanent failures in a
// row have spent their retries.
func TestDisableAt(t *testing.T) {
	t.Parallel()
	schedule := []time.Duration{5 * time.Second, 30 * time.Second, 2 * time.Minute, 10 * time.Minute, 30 * time.Minute, 2 * time.Hour, 6 * time.Hour}
	var all time.Duration
	for _, d := range schedule {
		all += d
	}
	p := func(attempts int, next time.Duration) alerts.Pending {
		return alerts.Pending{Attempts: attempts, NextAttemptAt: t0.Add(next)}
	}
	for name, tc := range map[string]struct {
		failures int
		pending  []alerts.Pending
		want     time.Duration
		ok       bool
	}{
		"nothing pending":                    {0, nil, 0, false},
		"two pending, three needed":          {0, []alerts.Pending{p(0, 0), p(1, 0)}, 0, false},
		"one needed, its last attempt next":  {2, []alerts.Pending{p(7, time.Hour)}, time.Hour, true},
		"one needed, first attempt due now":  {2, []alerts.Pending{p(0, 0)}, all, true},
		"one needed, after its 5th attempt":  {2, []alerts.Pending{p(5, time.Minute)}, time.Minute + 2*time.Hour + 6*time.Hour, true},
		"three needed: the third to end":     {0, []alerts.Pending{p(7, 3*time.Hour), p(7, time.Hour), p(0, 0), p(7, 2*time.Hour)}, 3 * time.Hour, true},
		"two needed of one failure so far":   {1, []alerts.Pending{p(6, 0), p(7, 10*time.Minute)}, 6 * time.Hour, true},
		"already at the limit (disabled)":    {3, []alerts.Pending{p(0, 0)}, 0, false},
		"attempts beyond the schedule count": {2, []alerts.Pending{p(9, time.Minute)}, time.Minute, true},
	} {
		got, ok := alerts.DisableAt(schedule, tc.failures, tc.pending)
		require.Equal(t, tc.ok, ok, name)
		if ok {
			require.Equal(t, t0.Add(tc.want), got, name)
		}
	}
}

// A retry span as people read it.
func TestRetrySpan(t *testing.T) {
	t.Parallel()
	schedule := []time.Duration{5 * time.Second, 30 * time.Second, 2 * time.Minute, 10 * time.Minute, 30 * time.Minute, 2 * time.Hour, 6 * time.Hour}
	require.Equal(t, 8*time.Hour+42*time.Minute+35*time.Second, alerts.RetrySpan(schedule))
	require.Equal(t, time.Duration(0), alerts.RetrySpan(nil))
}
