// Package access holds the rules of a listing's access limits (CONTRACT
// §21) that need no database: the settings' bounds, when an order's access
// ends, how many downloads a deliverable has left, whether it is closed and
// why, and which Range requests continue a counted download. Counting
// itself is an atomic statement in resolvers/access.go.
package access

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"commerce/problem"
)

// The bounds of a listing's access settings and of a reset's extend_days.
const (
	MaxDownloadLimit = 100
	MaxAccessDays    = 3650
)

// ContinueWindow is how long after a counted download a Range request
// for a later part of the same deliverable is taken as its continuation
// (not counted again).
const ContinueWindow = 10 * time.Minute

// LinkLifetime is how long a file's signed link works; it may be used
// again within it, so a download can resume.
const LinkLifetime = 5 * time.Minute

// Settings are a listing's access limits: downloads per deliverable (nil:
// any number) and days of access after payment (nil: forever).
type Settings struct {
	DownloadLimit *int `json:"download_limit"`
	AccessDays    *int `json:"access_days"`
}

// None reports whether neither limit is set (the listing's access is null).
func (s Settings) None() bool { return s.DownloadLimit == nil && s.AccessDays == nil }

// Check adds to f, under access.<member>, every setting out of bounds:
// download_limit 1..100 or null, access_days 1..3650 or null.
func (s Settings) Check(f *problem.Fields) {
	if v := s.DownloadLimit; v != nil && (*v < 1 || *v > MaxDownloadLimit) {
		f.Add("access.download_limit", "download_limit must be 1 to 100 downloads per file (or null for any number).")
	}
	if v := s.AccessDays; v != nil && (*v < 1 || *v > MaxAccessDays) {
		f.Add("access.access_days", "access_days must be 1 to 3,650 days after payment (or null for access that never ends).")
	}
}

// CheckExtendDays adds to f a reset's extend_days out of 1..3650 (nil is
// fine: the listing's access_days apply).
func CheckExtendDays(f *problem.Fields, days *int) {
	if days != nil && (*days < 1 || *days > MaxAccessDays) {
		f.Add("extend_days", "extend_days must be 1 to 3,650 days from now (or omitted for the listing's access_days).")
	}
}

// Expiry is when an order's access ends: the time a reset moved it to
// (moved, when set), else access days × 24 hours after payment; nil when
// it never ends (no access_days) or the order is not paid.
func Expiry(paidAt *time.Time, days *int, moved *time.Time) *time.Time {
	if moved != nil {
		return moved
	}
	if paidAt == nil || days == nil {
		return nil
	}
	t := paidAt.Add(Days(*days))
	return &t
}

// Days is n days as a duration (24-hour days).
func Days(n int) time.Duration { return time.Duration(n) * 24 * time.Hour }

// Reason says whether a deliverable can be opened, or why not.
type Reason int

// The reasons: open, its downloads used up, its access ended.
const (
	Open Reason = iota
	LimitReached
	Ended
)

// State is one deliverable's access at a moment.
type State struct {
	Reason Reason
	// Limit and Count are the deliverable's download limit (nil: none)
	// and how often it was downloaded.
	Limit *int
	Count int
	// Remaining is how many downloads are left (nil: any number; never
	// below 0).
	Remaining *int
	// ExpiresAt is when the order's access ends (nil: never).
	ExpiresAt *time.Time
}

// StateOf is a deliverable's state at now, downloaded count times under
// limit, in an order whose access ends at expires. An access that ended
// is said before a limit reached: resetting the downloads alone would not
// open it.
func StateOf(limit *int, count int, expires *time.Time, now time.Time) State {
	s := State{Limit: limit, Count: count, ExpiresAt: expires}
	if limit != nil {
		s.Remaining = new(max(0, *limit-count))
	}
	switch {
	case expires != nil && !now.Before(*expires):
		s.Reason = Ended
	case limit != nil && count >= *limit:
		s.Reason = LimitReached
	}
	return s
}

// Message says to a buyer why the deliverable is closed, naming the store
// to ask ("the seller" when it has no name); "" while it is open.
func (s State) Message(store string) string {
	if store == "" {
		store = "the seller"
	}
	switch s.Reason {
	case LimitReached:
		times := "once"
		if s.Count != 1 {
			times = strconv.Itoa(s.Count) + " times"
		}
		return fmt.Sprintf("You have downloaded this file %s, the most the seller allows. Ask %s to reset your downloads.", times, store)
	case Ended:
		return fmt.Sprintf("Access to this file ended on %s. Ask %s to extend it.", s.ExpiresAt.UTC().Format("January 2, 2006"), store)
	}
	return ""
}

// ClosedError is a deliverable that cannot be opened: the page answers
// 410 with its message.
type ClosedError struct {
	State State
	Store string
}

func (e *ClosedError) Error() string { return e.State.Message(e.Store) }

// Continues reports whether a request with this Range header continues a
// download counted at last: a range from a byte past the first
// ("bytes=N-" or "bytes=N-M" with N > 0, the first range deciding) within
// ContinueWindow of it. Anything else is a new download.
func Continues(rangeHeader string, last *time.Time, now time.Time) bool {
	if last == nil || now.Sub(*last) > ContinueWindow {
		return false
	}
	spec, ok := strings.CutPrefix(rangeHeader, "bytes=")
	if !ok {
		return false
	}
	first, _, _ := strings.Cut(spec, ",")
	start, _, ok := strings.Cut(strings.TrimSpace(first), "-")
	if !ok || start == "" || len(start) > 19 {
		return false
	}
	n, err := strconv.ParseInt(start, 10, 64)
	return err == nil && n > 0
}
