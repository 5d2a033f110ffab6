package resolvers

import (
	"context"

	"github.com/vikstrous/dataloadgen"

	"commerce/graph/model"
)

// GraphQL-only glue: field resolvers and their dataloaders. Each delegates
// to a use case REST calls too.

type loadersKey struct{}

// loaders are the per-request GraphQL dataloaders.
type loaders struct {
	deliverables *dataloadgen.Loader[string, []*model.Deliverable]
}

// WithLoaders gives a GraphQL request its dataloaders: the deliverables of
// every listing a query touches are fetched in one query per batch.
func (r *Resolver) WithLoaders(ctx context.Context) context.Context {
	fetch := func(ctx context.Context, ids []string) ([][]*model.Deliverable, []error) {
		out, err := r.DeliverablesByListing(ctx, ids)
		if err != nil {
			return nil, []error{err}
		}
		return out, nil
	}
	return context.WithValue(ctx, loadersKey{}, &loaders{deliverables: dataloadgen.NewLoader(fetch)})
}

// Deliverables of a listing: already loaded (single listing), or through the
// request's dataloader.
func (x listingResolver) Deliverables(ctx context.Context, obj *model.Listing) ([]*model.Deliverable, error) {
	if obj.Deliverables != nil {
		return obj.Deliverables, nil
	}
	if l, ok := ctx.Value(loadersKey{}).(*loaders); ok {
		return l.deliverables.Load(ctx, obj.ID)
	}
	out, err := x.DeliverablesByListing(ctx, []string{obj.ID})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// Listings is viewer.listings.
func (x accountResolver) Listings(ctx context.Context, obj *model.Account, first *int, after *string, status *string) (*model.ListingConnection, error) {
	return x.ListingsConnection(ctx, first, after, status)
}

// SetDeliverables is the GraphQL form of PUT /v1/listings/{id}/deliverables.
func (x mutationResolver) SetDeliverables(ctx context.Context, listingID string, deliverables []*model.DeliverableInput) (*model.Listing, error) {
	return x.Resolver.SetDeliverables(ctx, listingID, model.SetDeliverablesInput{Deliverables: deliverables})
}

// AddDeliverable is the GraphQL form of POST /v1/listings/{id}/deliverables.
func (x mutationResolver) AddDeliverable(ctx context.Context, listingID string, input model.DeliverableInput) (*model.Deliverable, error) {
	return x.Resolver.AddDeliverable(ctx, listingID, input)
}
