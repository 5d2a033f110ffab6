package analytics

import (
	"fmt"
	"strconv"
	"time"
)

// Interval is the width of a bucket; its values are the strings REST takes.
type Interval string

// The intervals of CONTRACT §23.
const (
	Day   Interval = "day"   // UTC days.
	Week  Interval = "week"  // ISO weeks: Monday to Sunday, UTC.
	Month Interval = "month" // UTC calendar months.
)

// MaxBuckets bounds a series: more buckets is a validation error on from.
const MaxBuckets = 400

// DefaultDays is the length of the default range, ending today.
const DefaultDays = 30

// FieldError is a refused parameter: Param names it as REST does.
type FieldError struct {
	Param  string
	Detail string
}

func (e *FieldError) Error() string { return e.Param + ": " + e.Detail }

// Range is a parsed request: From and To are UTC dates (midnight),
// inclusive.
type Range struct {
	From     time.Time
	To       time.Time
	Interval Interval
}

// ParseRange reads from, to (YYYY-MM-DD, UTC, inclusive; "" for the
// default) and interval ("" for day) as CONTRACT §23 says: to defaults to
// now's UTC date and from to to minus 29 days. Errors (*FieldError): a
// malformed date (param from or to), an unknown interval (param
// interval), from after to or more than MaxBuckets buckets (param from).
func ParseRange(from, to, interval string, now time.Time) (Range, error) {
	r := Range{Interval: Day}
	switch Interval(interval) {
	case "":
	case Day, Week, Month:
		r.Interval = Interval(interval)
	default:
		return Range{}, &FieldError{"interval", "interval must be day, week or month."}
	}
	var err error
	if to == "" {
		r.To = Truncate(now, Day)
	} else if r.To, err = parseDate("to", to); err != nil {
		return Range{}, err
	}
	if from == "" {
		r.From = r.To.AddDate(0, 0, -(DefaultDays - 1))
	} else if r.From, err = parseDate("from", from); err != nil {
		return Range{}, err
	}
	if r.From.After(r.To) {
		return Range{}, &FieldError{"from", fmt.Sprintf("from (%s) is after to (%s): give a from on or before to.",
			r.From.Format(time.DateOnly), r.To.Format(time.DateOnly))}
	}
	if n := r.count(); n > MaxBuckets {
		return Range{}, &FieldError{"from", fmt.Sprintf("The range has %d %s buckets, more than %d: give a later from, or a wider interval.",
			n, r.Interval, MaxBuckets)}
	}
	return r, nil
}

// parseDate reads a YYYY-MM-DD date, bounded before it is parsed.
func parseDate(param, s string) (time.Time, error) {
	if len(s) == len(time.DateOnly) {
		if t, err := time.Parse(time.DateOnly, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, &FieldError{param, param + " must be a date YYYY-MM-DD (UTC), such as 2026-11-01."}
}

// count is how many buckets the range has, computed without walking them.
func (r Range) count() int {
	a, b := Truncate(r.From, r.Interval), Truncate(r.To, r.Interval)
	switch r.Interval {
	case Month:
		return (b.Year()-a.Year())*12 + int(b.Month()-a.Month()) + 1
	case Week:
		return int(b.Sub(a)/(7*24*time.Hour)) + 1
	default:
		return int(b.Sub(a)/(24*time.Hour)) + 1
	}
}

// Start is the first bucket's start: the period boundary containing From.
func (r Range) Start() time.Time { return Truncate(r.From, r.Interval) }

// End is the end (exclusive) of the last bucket: the period after the
// one containing To. Buckets are whole periods, so the range counts
// [Start, End).
func (r Range) End() time.Time { return Next(Truncate(r.To, r.Interval), r.Interval) }

// Buckets are the starts of every bucket, oldest first.
func (r Range) Buckets() []time.Time {
	out := make([]time.Time, 0, r.count())
	for b, end := r.Start(), r.End(); b.Before(end); b = Next(b, r.Interval) {
		out = append(out, b)
	}
	return out
}

// Truncate is the start (UTC midnight) of the bucket containing t.
func Truncate(t time.Time, iv Interval) time.Time {
	t = t.UTC()
	d := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	switch iv {
	case Week:
		// ISO weeks start on Monday (time.Weekday: Sunday is 0).
		return d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
	case Month:
		return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
	}
	return d
}

// Next is the start of the bucket after the one starting at b.
func Next(b time.Time, iv Interval) time.Time {
	switch iv {
	case Week:
		return b.AddDate(0, 0, 7)
	case Month:
		return b.AddDate(0, 1, 0)
	}
	return b.AddDate(0, 0, 1)
}

// ConversionRate is orders ÷ views as a decimal string with 4 places,
// rounded half up, in integer arithmetic; nil without views.
func ConversionRate(orders, views int64) *string {
	if views <= 0 || orders < 0 {
		return nil
	}
	// round(orders/views × 10⁴) half up = ⌊(2·10⁴·orders + views) / (2·views)⌋.
	q := (20000*orders + views) / (2 * views)
	s := strconv.FormatInt(q/10000, 10) + "." + fmt.Sprintf("%04d", q%10000)
	return &s
}
