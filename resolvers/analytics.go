package resolvers

import (
	"context"
	"errors"

	"commerce/graph"
	"commerce/graph/model"
)

// TODO(analytics): the analytics helper replaces this file (CONTRACT §23).

var _ graph.AnalyticsResolver = analyticsResolver{}

type analyticsResolver struct{ *Resolver }

func (x root) Analytics() graph.AnalyticsResolver { return analyticsResolver{x.r} }

// Analytics is viewer.analytics.
func (x accountResolver) Analytics(ctx context.Context, obj *model.Account, from, to *string, interval *model.AnalyticsInterval, listingID *string) (*model.Analytics, error) {
	return nil, errors.New("analytics: not built yet")
}

// TopListings is Analytics.topListings.
func (x analyticsResolver) TopListings(ctx context.Context, obj *model.Analytics, first *int) ([]*model.ListingAnalytics, error) {
	return nil, errors.New("analytics: not built yet")
}
