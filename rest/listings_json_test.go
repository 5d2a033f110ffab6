package rest

import (
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/graph/model"
)

// The listing page's encoder writes what writeJSON (encoding/json) writes
// for the same page: every field set (and every string with escapes), every
// optional field unset, an empty and a nil page, a nil item, times with and
// without nanoseconds and outside UTC.
func TestListingListEncoding(t *testing.T) {
	t.Parallel()
	var full model.ListingList
	n := 0
	fillAll(t, reflect.ValueOf(&full).Elem(), &n)

	cursor := "bHN0Xz"
	usd := "usd"
	bare := &model.ListingSummary{Object: "listing", ID: "lst_01jdx0v3k7q8r9s0t1u2v3w4x5", Title: "T", Price: 0,
		Pricing: model.ListingPricingFixed, Slug: "t", Status: model.ListingStatusDraft, URL: "http://x/p/t",
		Fulfillment: model.FulfillmentExternal, CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	published := time.Date(1, 1, 1, 0, 0, 0, 123456789, time.FixedZone("Paris", 3600))
	set := &model.ListingSummary{Object: "listing", ID: "lst_x", Title: "A&B <i>\u2028", Price: -9223372036854775808,
		Pricing: "pay_what_you_want", Currency: &usd, Slug: "a-b", Status: "published", URL: "http://x/p/a-b?x=<y>",
		Fulfillment: "managed", CreatedAt: time.Date(9999, 12, 31, 23, 59, 59, 999999000, time.UTC), PublishedAt: &published}
	pages := map[string]*model.ListingList{
		"every field filled": &full,
		"unset and set":      {Object: "list", Data: []*model.ListingSummary{bare, set, bare}, HasMore: true, NextCursor: &cursor},
		"empty":              {Object: "list", Data: []*model.ListingSummary{}},
		"nil data":           {Object: "list"},
		"nil item":           {Object: "list", Data: []*model.ListingSummary{nil, bare}},
	}
	for _, s := range jsonTricky {
		pages["strings "+s] = &model.ListingList{Object: s, Data: []*model.ListingSummary{{Object: s, ID: s, Title: s,
			Pricing: model.ListingPricing(s), Currency: &s, Slug: s, Status: model.ListingStatus(s), URL: s,
			Fulfillment: model.Fulfillment(s)}}, NextCursor: &s}
	}
	requireEncodesAsWriteJSON(t, pages, appendListingList)
	require.Contains(t, pages["every field filled"].Data[0].Title, "x", "filled")
}
