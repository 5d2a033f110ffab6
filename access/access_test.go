package access

import (
	"errors"
	"testing"
	"time"

	"commerce/problem"
)

func ptr(n int) *int { return &n }

func tp(t time.Time) *time.Time { return &t }

func TestSettingsCheck(t *testing.T) {
	for _, c := range []struct {
		s      Settings
		params []string
	}{
		{Settings{}, nil},
		{Settings{DownloadLimit: ptr(1)}, nil},
		{Settings{DownloadLimit: ptr(100), AccessDays: ptr(3650)}, nil},
		{Settings{AccessDays: ptr(1)}, nil},
		{Settings{DownloadLimit: ptr(0)}, []string{"access.download_limit"}},
		{Settings{DownloadLimit: ptr(101)}, []string{"access.download_limit"}},
		{Settings{DownloadLimit: ptr(-1), AccessDays: ptr(0)}, []string{"access.download_limit", "access.access_days"}},
		{Settings{AccessDays: ptr(3651)}, []string{"access.access_days"}},
	} {
		var f problem.Fields
		c.s.Check(&f)
		var got []string
		if p := problem.From(f.Err()); p != nil {
			for _, e := range p.Errors {
				got = append(got, e.Param)
			}
		}
		if len(got) != len(c.params) {
			t.Errorf("%+v: refused %v, want %v", c.s, got, c.params)
			continue
		}
		for i := range got {
			if got[i] != c.params[i] {
				t.Errorf("%+v: refused %v, want %v", c.s, got, c.params)
			}
		}
	}
}

func TestSettingsNone(t *testing.T) {
	if !(Settings{}).None() || (Settings{AccessDays: ptr(2)}).None() || (Settings{DownloadLimit: ptr(2)}).None() {
		t.Fatal("None is true exactly when neither member is set")
	}
}

func TestCheckExtendDays(t *testing.T) {
	for _, c := range []struct {
		days *int
		ok   bool
	}{{nil, true}, {ptr(1), true}, {ptr(3650), true}, {ptr(0), false}, {ptr(3651), false}, {ptr(-5), false}} {
		var f problem.Fields
		CheckExtendDays(&f, c.days)
		if f.Empty() != c.ok {
			t.Errorf("CheckExtendDays(%v): ok %v, want %v", c.days, f.Empty(), c.ok)
		}
		if p := problem.From(f.Err()); p != nil && p.Param != "extend_days" {
			t.Errorf("param %q, want extend_days", p.Param)
		}
	}
}

func TestExpiry(t *testing.T) {
	paid := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	moved := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name  string
		paid  *time.Time
		days  *int
		moved *time.Time
		want  *time.Time
	}{
		{"no days", &paid, nil, nil, nil},
		{"unpaid", nil, ptr(3), nil, nil},
		{"days after payment", &paid, ptr(3), nil, tp(paid.Add(72 * time.Hour))},
		{"a reset's wins", &paid, ptr(3), &moved, &moved},
		{"a reset's even without days", &paid, nil, &moved, &moved},
	} {
		got := Expiry(c.paid, c.days, c.moved)
		if (got == nil) != (c.want == nil) || (got != nil && !got.Equal(*c.want)) {
			t.Errorf("%s: Expiry = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestStateOf(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	later, earlier := now.Add(time.Hour), now.Add(-time.Hour)
	for _, c := range []struct {
		name      string
		limit     *int
		count     int
		expires   *time.Time
		reason    Reason
		remaining *int
	}{
		{"unlimited", nil, 40, nil, Open, nil},
		{"some left", ptr(3), 1, nil, Open, ptr(2)},
		{"last one left", ptr(3), 2, &later, Open, ptr(1)},
		{"at the limit", ptr(3), 3, &later, LimitReached, ptr(0)},
		{"past the limit (a lowered count never shows below 0)", ptr(3), 5, nil, LimitReached, ptr(0)},
		{"ended", ptr(3), 0, &earlier, Ended, ptr(3)},
		{"ends at this instant", nil, 0, &now, Ended, nil},
		{"ended and at the limit: the end is said", ptr(1), 1, &earlier, Ended, ptr(0)},
	} {
		s := StateOf(c.limit, c.count, c.expires, now)
		if s.Reason != c.reason {
			t.Errorf("%s: reason %v, want %v", c.name, s.Reason, c.reason)
		}
		if (s.Remaining == nil) != (c.remaining == nil) || (s.Remaining != nil && *s.Remaining != *c.remaining) {
			t.Errorf("%s: remaining %v, want %v", c.name, s.Remaining, c.remaining)
		}
	}
}

func TestStateMessage(t *testing.T) {
	ended := time.Date(2027, 1, 2, 23, 30, 0, 0, time.UTC)
	for _, c := range []struct {
		s     State
		store string
		want  string
	}{
		{State{Reason: LimitReached, Limit: ptr(3), Count: 3}, "Ada's Shop",
			"You have downloaded this file 3 times, the most the seller allows. Ask Ada's Shop to reset your downloads."},
		{State{Reason: LimitReached, Limit: ptr(1), Count: 1}, "",
			"You have downloaded this file once, the most the seller allows. Ask the seller to reset your downloads."},
		{State{Reason: Ended, ExpiresAt: &ended}, "Ada's Shop",
			"Access to this file ended on January 2, 2027. Ask Ada's Shop to extend it."},
		{State{Reason: Open}, "x", ""},
	} {
		if got := c.s.Message(c.store); got != c.want {
			t.Errorf("Message = %q, want %q", got, c.want)
		}
	}
}

func TestContinues(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	recent, old := now.Add(-9*time.Minute), now.Add(-10*time.Minute-time.Second)
	for _, c := range []struct {
		rng  string
		last *time.Time
		want bool
	}{
		{"bytes=100-", &recent, true},
		{"bytes=100-199", &recent, true},
		{"bytes=0-", &recent, false},
		{"bytes=0-99", &recent, false},
		{"", &recent, false},
		{"bytes=100-", nil, false},
		{"bytes=100-", &old, false},
		{"bytes=-500", &recent, false},
		{"bytes=abc-", &recent, false},
		{"bytes=100-,200-", &recent, true},
		{"items=100-", &recent, false},
		{"bytes=99999999999999999999999-", &recent, false},
	} {
		if got := Continues(c.rng, c.last, now); got != c.want {
			t.Errorf("Continues(%q, %v) = %v, want %v", c.rng, c.last, got, c.want)
		}
	}
}

func TestErrClosed(t *testing.T) {
	err := error(&ClosedError{State: State{Reason: LimitReached, Limit: ptr(2), Count: 2}, Store: "S"})
	var ce *ClosedError
	if !errors.As(err, &ce) || ce.Error() != ce.State.Message("S") {
		t.Fatalf("ClosedError: %v", err)
	}
}
