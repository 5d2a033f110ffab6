package model

import "time"

// AnalyticsInterval: the width of an analytics bucket (CONTRACT §23).
type AnalyticsInterval string

// The values of AnalyticsInterval (analytics.Interval's strings).
const (
	AnalyticsIntervalDay   AnalyticsInterval = "day"   // UTC days.
	AnalyticsIntervalWeek  AnalyticsInterval = "week"  // ISO weeks (Monday to Sunday, UTC).
	AnalyticsIntervalMonth AnalyticsInterval = "month" // UTC calendar months.
)

// Valid reports whether v is one of the values of AnalyticsInterval.
func (v AnalyticsInterval) Valid() bool {
	switch v {
	case AnalyticsIntervalDay, AnalyticsIntervalWeek, AnalyticsIntervalMonth:
		return true
	}
	return false
}

// Analytics is an account's sales over a range of UTC dates
// (GET /v1/analytics, viewer.analytics; CONTRACT §23).
type Analytics struct {
	Object   string             `json:"object"`
	Currency *string            `json:"currency"`
	Interval AnalyticsInterval  `json:"interval"`
	From     string             `json:"from"`
	To       string             `json:"to"`
	Totals   *AnalyticsTotals   `json:"totals"`
	Series   []*AnalyticsBucket `json:"series"`

	// Query is what the series counted, for Analytics.topListings.
	Query AnalyticsQuery `json:"-"`
}

// AnalyticsQuery is the account, time range [Start, End) and listing an
// Analytics counted.
type AnalyticsQuery struct {
	AccountID  string
	Start, End time.Time
	ListingID  string // "" for every listing
}

// AnalyticsBucket is one bucket of a sales series.
type AnalyticsBucket struct {
	Start     string `json:"start"`
	Revenue   int64  `json:"revenue"`
	Orders    int    `json:"orders"`
	Refunds   int    `json:"refunds"`
	Views     int    `json:"views"`
	Checkouts int    `json:"checkouts"`
}

// AnalyticsTotals are the sums of a series, the conversion rate and the
// recurring revenue now (CONTRACT §23, §26).
type AnalyticsTotals struct {
	Revenue           int64   `json:"revenue"`
	Orders            int     `json:"orders"`
	Refunds           int     `json:"refunds"`
	Views             int     `json:"views"`
	Checkouts         int     `json:"checkouts"`
	ConversionRate    *string `json:"conversion_rate"`
	Mrr               int64   `json:"mrr"`
	ActiveMemberships int     `json:"active_memberships"`
}

// ListingAnalytics is one listing's sales over an analytics range
// (GraphQL only: Analytics.topListings).
type ListingAnalytics struct {
	ListingID      string  `json:"listing_id"`
	Title          string  `json:"title"`
	Revenue        int64   `json:"revenue"`
	Orders         int     `json:"orders"`
	Views          int     `json:"views"`
	Checkouts      int     `json:"checkouts"`
	ConversionRate *string `json:"conversion_rate"`
}
