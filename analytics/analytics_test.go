package analytics_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/analytics"
)

func date(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestParseRange(t *testing.T) {
	t.Parallel()
	today := time.Date(2026, 11, 26, 23, 59, 59, 0, time.UTC)
	cases := []struct {
		name               string
		from, to, interval string
		want               analytics.Range
		param              string
	}{
		{name: "defaults: 30 days ending today", want: analytics.Range{From: date("2026-10-28"), To: date("2026-11-26"), Interval: analytics.Day}},
		{name: "to alone", to: "2026-02-01", want: analytics.Range{From: date("2026-01-03"), To: date("2026-02-01"), Interval: analytics.Day}},
		{name: "from alone", from: "2026-11-01", interval: "month", want: analytics.Range{From: date("2026-11-01"), To: date("2026-11-26"), Interval: analytics.Month}},
		{name: "one day", from: "2026-03-05", to: "2026-03-05", interval: "week", want: analytics.Range{From: date("2026-03-05"), To: date("2026-03-05"), Interval: analytics.Week}},
		{name: "from after to", from: "2026-03-06", to: "2026-03-05", param: "from"},
		{name: "400 days", from: "2025-01-01", to: "2026-02-04", want: analytics.Range{From: date("2025-01-01"), To: date("2026-02-04"), Interval: analytics.Day}},
		{name: "401 days", from: "2025-01-01", to: "2026-02-05", param: "from"},
		{name: "401 months", from: "1993-01-01", to: "2026-05-01", interval: "month", param: "from"},
		{name: "400 months", from: "1993-01-31", to: "2026-04-01", interval: "month", want: analytics.Range{From: date("1993-01-31"), To: date("2026-04-01"), Interval: analytics.Month}},
		{name: "not a date", from: "2026-13-01", param: "from"},
		{name: "a timestamp", to: "2026-11-01T00:00:00Z", param: "to"},
		{name: "too long", from: "2026-11-01-2026-11-01-2026-11-01", param: "from"},
		{name: "bad interval", interval: "hour", param: "interval"},
		{name: "uppercase interval", interval: "DAY", param: "interval"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r, err := analytics.ParseRange(c.from, c.to, c.interval, today)
			if c.param != "" {
				var fe *analytics.FieldError
				require.ErrorAs(t, err, &fe)
				require.Equal(t, c.param, fe.Param)
				require.NotEmpty(t, fe.Detail)
				return
			}
			require.NoError(t, err)
			require.Equal(t, c.want, r)
		})
	}
}

func TestBuckets(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		r      analytics.Range
		starts []string
		end    string
	}{
		{name: "days", r: analytics.Range{From: date("2026-02-27"), To: date("2026-03-01"), Interval: analytics.Day},
			starts: []string{"2026-02-27", "2026-02-28", "2026-03-01"}, end: "2026-03-02"},
		// 2026-01-01 is a Thursday: its ISO week starts on Monday 2025-12-29.
		{name: "ISO weeks across a year", r: analytics.Range{From: date("2025-12-31"), To: date("2026-01-12"), Interval: analytics.Week},
			starts: []string{"2025-12-29", "2026-01-05", "2026-01-12"}, end: "2026-01-19"},
		{name: "a Sunday ends its week", r: analytics.Range{From: date("2026-01-04"), To: date("2026-01-04"), Interval: analytics.Week},
			starts: []string{"2025-12-29"}, end: "2026-01-05"},
		{name: "months", r: analytics.Range{From: date("2025-11-30"), To: date("2026-02-01"), Interval: analytics.Month},
			starts: []string{"2025-11-01", "2025-12-01", "2026-01-01", "2026-02-01"}, end: "2026-03-01"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, b := range c.r.Buckets() {
				got = append(got, b.Format(time.DateOnly))
			}
			require.Equal(t, c.starts, got)
			require.Equal(t, c.r.Buckets()[0], c.r.Start())
			require.Equal(t, c.end, c.r.End().Format(time.DateOnly))
			for _, b := range c.r.Buckets() {
				require.Equal(t, b, analytics.Truncate(b.Add(24*time.Hour-time.Nanosecond), c.r.Interval))
			}
		})
	}
}

func TestTruncate(t *testing.T) {
	t.Parallel()
	edge := time.Date(2026, 3, 1, 23, 59, 59, 999e6, time.UTC)
	require.Equal(t, date("2026-03-01"), analytics.Truncate(edge, analytics.Day))
	require.Equal(t, date("2026-03-02"), analytics.Truncate(edge.Add(time.Millisecond), analytics.Day))
	require.Equal(t, date("2026-02-23"), analytics.Truncate(edge, analytics.Week)) // Sunday
	require.Equal(t, date("2026-03-02"), analytics.Truncate(edge.Add(time.Millisecond), analytics.Week))
	require.Equal(t, date("2026-03-01"), analytics.Truncate(edge, analytics.Month))
	// Another zone's wall clock does not move the UTC bucket.
	ny := time.FixedZone("EST", -5*3600)
	require.Equal(t, date("2026-03-02"), analytics.Truncate(time.Date(2026, 3, 1, 19, 30, 0, 0, ny), analytics.Day))
}

func TestConversionRate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		orders, views int64
		want          string
	}{
		{0, 10, "0.0000"},
		{1, 3, "0.3333"},
		{2, 3, "0.6667"},
		{1, 8, "0.1250"},
		{1, 20000, "0.0001"}, // 0.00005: half up
		{1, 20001, "0.0000"}, // just under half
		{1, 1, "1.0000"},
		{3, 2, "1.5000"}, // more orders than views (checkouts through the API)
		{31, 1000, "0.0310"},
		{9_000_000_000, 9_000_000_001, "1.0000"},
	}
	for _, c := range cases {
		got := analytics.ConversionRate(c.orders, c.views)
		require.NotNil(t, got, "%d/%d", c.orders, c.views)
		require.Equal(t, c.want, *got, "%d/%d", c.orders, c.views)
	}
	require.Nil(t, analytics.ConversionRate(5, 0))
}
