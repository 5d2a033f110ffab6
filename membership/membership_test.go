package membership

import (
	"errors"
	"testing"
	"time"
)

func TestNext(t *testing.T) {
	live := Facts{}
	trial := Facts{InTrial: true}
	over := Facts{PeriodOver: true}
	cases := []struct {
		from Status
		ev   Event
		f    Facts
		want Transition
		err  bool
	}{
		{Trialing, RenewalPaid, live, Transition{To: Active}, false},
		{Active, RenewalPaid, live, Transition{To: Active}, false},
		{PastDue, RenewalPaid, live, Transition{To: Active}, false},
		{Canceled, RenewalPaid, live, Transition{}, true},
		{Trialing, RenewalFailed, live, Transition{To: PastDue}, false},
		{Active, RenewalFailed, live, Transition{To: PastDue}, false},
		{PastDue, RenewalFailed, live, Transition{To: PastDue, Same: true}, false},
		{Canceled, RenewalFailed, live, Transition{}, true},
		{PastDue, FinalFailure, live, Transition{To: Ended, Reason: ReasonPaymentFailed}, false},
		{Active, FinalFailure, live, Transition{To: Ended, Reason: ReasonPaymentFailed}, false},
		{Canceled, FinalFailure, live, Transition{}, true},
		{Trialing, Cancel, live, Transition{To: Canceled}, false},
		{Active, Cancel, live, Transition{To: Canceled}, false},
		{Canceled, Cancel, live, Transition{To: Canceled, Same: true}, false},
		{PastDue, Cancel, live, Transition{To: Ended, Reason: ReasonCanceled}, false},
		{Active, CancelNow, live, Transition{To: Ended, Reason: ReasonCanceled}, false},
		{Canceled, CancelNow, live, Transition{To: Ended, Reason: ReasonCanceled}, false},
		{PastDue, CancelNow, live, Transition{To: Ended, Reason: ReasonCanceled}, false},
		{Canceled, Resume, live, Transition{To: Active}, false},
		{Canceled, Resume, trial, Transition{To: Trialing}, false},
		{Canceled, Resume, over, Transition{}, true},
		{Active, Resume, live, Transition{To: Active, Same: true}, false},
		{Canceled, PeriodEnd, live, Transition{To: Ended, Reason: ReasonCanceled}, false},
		{Active, PeriodEnd, live, Transition{To: Active, Same: true}, false},
		{Active, Refunded, live, Transition{To: Ended, Reason: ReasonRefunded}, false},
		{Canceled, Refunded, live, Transition{To: Ended, Reason: ReasonRefunded}, false},
		{PastDue, DisputeLost, live, Transition{To: Ended, Reason: ReasonDisputeLost}, false},
		{Ended, Resume, live, Transition{}, true},
		{Ended, Cancel, live, Transition{}, true},
		{Ended, RenewalPaid, live, Transition{}, true},
		{Ended, Refunded, live, Transition{}, true},
		{Active, Event("bogus"), live, Transition{}, true},
	}
	for _, c := range cases {
		got, err := Next(c.from, c.ev, c.f)
		if c.err {
			if !errors.Is(err, ErrInvalidTransition) {
				t.Errorf("%s + %s: err %v, want ErrInvalidTransition", c.from, c.ev, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s + %s (%+v) = %+v, %v; want %+v", c.from, c.ev, c.f, got, err, c.want)
		}
	}
}

func TestHasAccess(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	later, earlier := now.Add(time.Hour), now.Add(-time.Hour)
	cases := []struct {
		s   Status
		end time.Time
		ok  bool
	}{
		{Trialing, later, true}, {Active, later, true}, {PastDue, earlier, true},
		{Canceled, later, true}, {Canceled, now, false}, {Canceled, earlier, false}, {Ended, later, false},
	}
	for _, c := range cases {
		if got := HasAccess(c.s, c.end, now); got != c.ok {
			t.Errorf("HasAccess(%s, %s) = %v", c.s, c.end, got)
		}
	}
}

func TestPeriodEnd(t *testing.T) {
	at := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 9, 30, 0, 0, time.UTC) }
	cases := []struct {
		anchor   time.Time
		interval string
		n        int
		want     time.Time
	}{
		{at(2026, 1, 15), Month, 1, at(2026, 2, 15)},
		{at(2026, 1, 31), Month, 1, at(2026, 2, 28)},
		{at(2026, 1, 31), Month, 2, at(2026, 3, 31)},
		{at(2028, 1, 31), Month, 1, at(2028, 2, 29)},
		{at(2026, 12, 31), Month, 2, at(2027, 2, 28)},
		{at(2026, 5, 31), Month, 13, at(2027, 6, 30)},
		{at(2028, 2, 29), Year, 1, at(2029, 2, 28)},
		{at(2028, 2, 29), Year, 4, at(2032, 2, 29)},
		{at(2026, 3, 10), Year, 1, at(2027, 3, 10)},
	}
	for _, c := range cases {
		if got := PeriodEndAt(c.anchor, c.interval, c.n); !got.Equal(c.want) {
			t.Errorf("PeriodEndAt(%s, %s, %d) = %s, want %s", c.anchor, c.interval, c.n, got, c.want)
		}
	}
}

func TestParseSchedule(t *testing.T) {
	day := 24 * time.Hour
	s, err := ParseSchedule(DefaultSchedule)
	if err != nil || len(s) != 4 || s[0] != day || s[3] != 7*day || s.Attempts() != 5 {
		t.Fatalf("default: %v, %v", s, err)
	}
	due := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	if at, ok := s.NextAttempt(due, 1); !ok || !at.Equal(due.Add(day)) {
		t.Errorf("after the first failure: %s %v", at, ok)
	}
	if at, ok := s.NextAttempt(due, 4); !ok || !at.Equal(due.Add(7*day)) {
		t.Errorf("after the fourth failure: %s %v", at, ok)
	}
	if _, ok := s.NextAttempt(due, 5); ok {
		t.Error("the fifth failure is the last")
	}
	if s, err := ParseSchedule(" 30s, 2m ,1h"); err != nil || len(s) != 3 || s[2] != time.Hour {
		t.Errorf("mixed units: %v %v", s, err)
	}
	if s, err := ParseSchedule(""); err != nil || s.Attempts() != 1 {
		t.Errorf("empty: %v %v", s, err)
	}
	for _, bad := range []string{"1d,1d", "3d,1d", "1w", "d", "0d", "-1d", "61d", "1d,", "1,2,3,4,5,6,7,8,9,10,11", "99999999999999999999d"} {
		if _, err := ParseSchedule(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestMRR(t *testing.T) {
	cases := []struct{ monthly, yearly, want int64 }{
		{0, 0, 0}, {900, 0, 900}, {0, 12000, 1000}, {900, 9900, 1725}, {0, 6, 1}, {0, 5, 0}, {0, 100 * 12, 100},
	}
	for _, c := range cases {
		if got := MRR(c.monthly, c.yearly); got != c.want {
			t.Errorf("MRR(%d, %d) = %d, want %d", c.monthly, c.yearly, got, c.want)
		}
	}
}
