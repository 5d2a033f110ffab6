package resolvers

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/uptrace/bun"
	"github.com/vikstrous/dataloadgen"

	"commerce/db"
	"commerce/graph"
	"commerce/graph/model"
	"commerce/problem"
)

// GraphQL-only glue: field resolvers and their dataloaders. Each delegates
// to a use case REST calls too.

type loadersKey struct{}

// loaders are the per-request GraphQL dataloaders.
type loaders struct {
	deliverables *dataloadgen.Loader[string, []*model.Deliverable]
	listings     *dataloadgen.Loader[string, *model.Listing]
	customers    *dataloadgen.Loader[string, *model.Customer]
	reviews      *dataloadgen.Loader[string, *model.Reviews]
}

// batch adapts a batch function to dataloadgen's.
func batch[V any](fn func(context.Context, []string) ([]V, error)) func(context.Context, []string) ([]V, []error) {
	return func(ctx context.Context, ids []string) ([]V, []error) {
		out, err := fn(ctx, ids)
		if err != nil {
			return nil, []error{err}
		}
		return out, nil
	}
}

// WithLoaders gives a GraphQL request its dataloaders: the deliverables of
// every listing a query touches are fetched in one query per batch.
func (r *Resolver) WithLoaders(ctx context.Context) context.Context {
	return context.WithValue(ctx, loadersKey{}, &loaders{
		deliverables: dataloadgen.NewLoader(batch(r.DeliverablesByListing)),
		listings:     dataloadgen.NewLoader(batch(r.ListingsByID)),
		customers:    dataloadgen.NewLoader(batch(r.CustomersByID)),
		reviews:      dataloadgen.NewLoader(batch(r.ReviewsByListing)),
	})
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

// Reviews of a listing: already loaded (single listing), or through the
// request's dataloader.
func (x listingResolver) Reviews(ctx context.Context, obj *model.Listing) (*model.Reviews, error) {
	if obj.Reviews != nil {
		return obj.Reviews, nil
	}
	if l, ok := ctx.Value(loadersKey{}).(*loaders); ok {
		return l.reviews.Load(ctx, obj.ID)
	}
	out, err := x.ReviewsByListing(ctx, []string{obj.ID})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// AllReviews pages through a listing's reviews (GET /v1/listings/{id}/reviews).
func (x listingResolver) AllReviews(ctx context.Context, obj *model.Listing, first *int, after *string) (*model.ReviewConnection, error) {
	return x.ReviewsConnection(ctx, obj.ID, first, after)
}

// Listings is viewer.listings: the page reads the columns its nodes'
// selection is made of, and the seller's facts (an account read) only when
// the nodes select their readiness.
func (x accountResolver) Listings(ctx context.Context, obj *model.Account, first *int, after *string, status *model.ListingStatus, query *string) (*model.ListingConnection, error) {
	columns, facts := FullColumns, true
	if fields, ok := nodeFields(ctx, "ListingConnection", "ListingEdge", []string{"Listing", "Node"}); ok {
		switch {
		case onlyIn(fields, summaryListingFields):
			columns = SummaryColumns
		case onlyIn(fields, leanListingFields):
			columns = LeanColumns
		}
		facts = fields["readiness"]
	}
	return x.ListingsConnection(ctx, first, after, status, query, columns, facts)
}

// leanListingFields are the Listing fields made of none of the columns a
// lean page leaves out (the description, the checkout schema, the
// metadata): a connection whose nodes select only these reads the lean
// page. Every other field reads the full one, so a field added to the
// schema is served right until it is classified here
// (TestLeanListingFieldsClassifyTheSchema).
var leanListingFields = map[string]bool{
	"__typename": true, "object": true, "id": true, "title": true, "price": true, "pricing": true, "suggestedPrice": true,
	"maximumPrice": true, "currency": true, "slug": true, "status": true, "url": true, "checkoutUrl": true,
	"coverUrl": true, "coverBlur": true, "fulfillment": true, "externalDelivery": true, "deliverables": true,
	"utmSource": true, "utmMedium": true, "utmCampaign": true, "license": true, "access": true, "billing": true,
	"interval": true, "trialDays": true, "readiness": true, "reviews": true, "allReviews": true, "createdAt": true, "updatedAt": true, "publishedAt": true,
}

// summaryListingFields are the Listing fields made of the summary page's
// columns (a REST list item's and updated_at) or loaded by the listing's
// id (deliverables, reviews): a connection whose nodes select only these
// reads the summary page. A subset of leanListingFields
// (TestLeanListingFieldsClassifyTheSchema).
var summaryListingFields = map[string]bool{
	"__typename": true, "object": true, "id": true, "title": true, "price": true, "pricing": true, "currency": true,
	"slug": true, "status": true, "url": true, "checkoutUrl": true, "fulfillment": true, "deliverables": true,
	"reviews": true, "allReviews": true, "createdAt": true, "updatedAt": true, "publishedAt": true,
}

// accountRowlessFields are the Account fields not made of the account's
// row: its id and the connections and figures that read their own tables.
// A viewer whose selection holds only these is not read.
var accountRowlessFields = map[string]bool{
	"__typename": true, "object": true, "id": true, "analytics": true, "apiKeys": true, "discounts": true,
	"licenseKeys": true, "listings": true, "membershipStats": true, "memberships": true, "orders": true,
	"customers": true, "webhooks": true, "events": true,
}

// Viewer is Query.viewer: the caller's account, read only when the
// selection holds a field made of its row (a page of listings or orders
// alone costs no account read; the key's authentication has found the
// account).
func (x queryResolver) Viewer(ctx context.Context) (*model.Account, error) {
	if fields, ok := selectedFields(ctx, []string{"Account", "Node"}); ok && onlyIn(fields, accountRowlessFields) {
		p, err := caller(ctx)
		if err != nil {
			return nil, err
		}
		return &model.Account{Object: "account", ID: p.AccountID}, nil
	}
	return x.Resolver.Viewer(ctx)
}

// selectedFields are the names of the fields that the field being resolved
// selects on an object satisfying types (fragments expanded, @skip and
// @include applied). Outside an operation ok is false.
func selectedFields(ctx context.Context, types []string) (map[string]bool, bool) {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || fc.Field.Field == nil || !graphql.HasOperationContext(ctx) {
		return nil, false
	}
	oc := graphql.GetOperationContext(ctx)
	out := map[string]bool{}
	for _, f := range graphql.CollectFields(oc, fc.Field.Selections, types) {
		out[f.Name] = true
	}
	return out, true
}

// nodeFields are the names of the fields that the connection field being
// resolved selects on its edges' nodes (fragments expanded, @skip and
// @include applied). Outside an operation ok is false.
func nodeFields(ctx context.Context, connection, edge string, node []string) (map[string]bool, bool) {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || fc.Field.Field == nil || !graphql.HasOperationContext(ctx) {
		return nil, false
	}
	oc := graphql.GetOperationContext(ctx)
	out := map[string]bool{}
	for _, e := range graphql.CollectFields(oc, fc.Field.Selections, []string{connection}) {
		if e.Name != "edges" {
			continue
		}
		for _, n := range graphql.CollectFields(oc, e.Selections, []string{edge}) {
			if n.Name != "node" {
				continue
			}
			for _, f := range graphql.CollectFields(oc, n.Selections, node) {
				out[f.Name] = true
			}
		}
	}
	return out, true
}

// onlyIn reports whether every name in fields is in allowed.
func onlyIn(fields, allowed map[string]bool) bool {
	for name := range fields {
		if !allowed[name] {
			return false
		}
	}
	return true
}

// SetDeliverables is the GraphQL form of PUT /v1/listings/{id}/deliverables.
func (x mutationResolver) SetDeliverables(ctx context.Context, listingID string, deliverables []*model.DeliverableInput) (*model.Listing, error) {
	return x.Resolver.SetDeliverables(ctx, listingID, model.SetDeliverablesInput{Deliverables: deliverables})
}

// AddDeliverable is the GraphQL form of POST /v1/listings/{id}/deliverables.
func (x mutationResolver) AddDeliverable(ctx context.Context, listingID string, input model.DeliverableInput) (*model.Deliverable, error) {
	return x.Resolver.AddDeliverable(ctx, listingID, input)
}

var _ graph.OrderResolver = orderResolver{}

func (x root) Order() graph.OrderResolver { return orderResolver{x.r} }

type orderResolver struct{ *Resolver }

// Orders is viewer.orders.
func (x accountResolver) Orders(ctx context.Context, obj *model.Account, first *int, after *string, status *model.OrderStatus,
	listing *string, buyerEmail *string, query *string, createdAfter *time.Time, createdBefore *time.Time) (*model.OrderConnection, error) {
	return x.OrdersConnection(ctx, first, after, model.OrderFilter{Status: status, ListingID: listing, BuyerEmail: buyerEmail,
		Query: query, CreatedAfter: createdAfter, CreatedBefore: createdBefore})
}

// Customers is viewer.customers.
func (x accountResolver) Customers(ctx context.Context, obj *model.Account, first *int, after *string, email *string, query *string,
	createdAfter *time.Time, createdBefore *time.Time) (*model.CustomerConnection, error) {
	list, err := x.Resolver.Customers(ctx, first, after, model.CustomerFilter{Email: email, Query: query,
		CreatedAfter: createdAfter, CreatedBefore: createdBefore})
	if err != nil {
		return nil, err
	}
	edges, pi := connection(list.Data, func(c *model.Customer) string { return idCursor(c.ID) },
		func(cur string, c *model.Customer) *model.CustomerEdge {
			return &model.CustomerEdge{Cursor: cur, Node: c}
		}, after, list.HasMore)
	return &model.CustomerConnection{Edges: edges, PageInfo: pi}, nil
}

// FulfillOrder is the GraphQL form of POST /v1/orders/{id}/fulfill.
func (x mutationResolver) FulfillOrder(ctx context.Context, id string, input *model.FulfillInput) (*model.Order, error) {
	if input == nil {
		input = &model.FulfillInput{}
	}
	return x.Resolver.FulfillOrder(ctx, id, *input)
}

// Listing of an order; null once deleted.
func (x orderResolver) Listing(ctx context.Context, obj *model.Order) (*model.Listing, error) {
	return x.loadListing(ctx, obj.ListingID)
}

// Customer of an order.
func (x orderResolver) Customer(ctx context.Context, obj *model.Order) (*model.Customer, error) {
	if obj.CustomerID == nil {
		return nil, nil
	}
	return x.loadCustomer(ctx, *obj.CustomerID)
}

// loadListing is one of the caller's live listings through the request's
// dataloader (nil once deleted), or alone without one.
func (r *Resolver) loadListing(ctx context.Context, id string) (*model.Listing, error) {
	if l, ok := ctx.Value(loadersKey{}).(*loaders); ok {
		return l.listings.Load(ctx, id)
	}
	m, err := r.ListingsByID(ctx, []string{id})
	if err != nil {
		return nil, err
	}
	return m[0], nil
}

// loadCustomer is one of the caller's customers through the request's
// dataloader, or alone without one.
func (r *Resolver) loadCustomer(ctx context.Context, id string) (*model.Customer, error) {
	if l, ok := ctx.Value(loadersKey{}).(*loaders); ok {
		return l.customers.Load(ctx, id)
	}
	m, err := r.CustomersByID(ctx, []string{id})
	if err != nil {
		return nil, err
	}
	return m[0], nil
}

// ListingsByID loads the caller's live listings by id, in order (nil for
// one that is gone), with their readiness, in two queries.
func (r *Resolver) ListingsByID(ctx context.Context, ids []string) ([]*model.Listing, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	var rows []*db.Listing
	if err := r.DB.NewSelect().Model(&rows).Where("id IN (?)", bun.List(ids)).Where("account_id = ?", p.AccountID).
		Where("deleted_at IS NULL").Scan(ctx); err != nil {
		return nil, err
	}
	facts, err := r.sellerFacts(ctx, p.AccountID)
	if err != nil {
		return nil, err
	}
	byID := map[string]*model.Listing{}
	for _, l := range rows {
		m := r.toLazyListingModel(l, facts)
		m.Deliverables = nil // resolved by the deliverables dataloader
		byID[l.ID] = m
	}
	out := make([]*model.Listing, len(ids))
	for i, id := range ids {
		out[i] = byID[id]
	}
	return out, nil
}

// CustomersByID loads the caller's customers by id, in order.
func (r *Resolver) CustomersByID(ctx context.Context, ids []string) ([]*model.Customer, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	var rows []*db.Customer
	if err := r.DB.NewSelect().Model(&rows).Where("id IN (?)", bun.List(ids)).Where("account_id = ?", p.AccountID).Scan(ctx); err != nil {
		return nil, err
	}
	byID := map[string]*model.Customer{}
	for _, c := range rows {
		byID[c.ID] = toCustomerModel(c)
	}
	out := make([]*model.Customer, len(ids))
	for i, id := range ids {
		out[i] = byID[id]
	}
	return out, nil
}

var (
	_ graph.EventResolver           = eventResolver{}
	_ graph.WebhookEndpointResolver = webhookEndpointResolver{}
)

func (x root) Event() graph.EventResolver { return eventResolver{x.r} }

func (x root) WebhookEndpoint() graph.WebhookEndpointResolver { return webhookEndpointResolver{x.r} }

type (
	eventResolver           struct{ *Resolver }
	webhookEndpointResolver struct{ *Resolver }
)

// Data is the event's order snapshot as a JSON object.
func (eventResolver) Data(_ context.Context, obj *model.Event) (map[string]any, error) {
	return jsonObject(obj.Data)
}

// ListingSnapshot is the listing as it was when the order was made.
func (orderResolver) ListingSnapshot(_ context.Context, obj *model.Order) (map[string]any, error) {
	return jsonObject(obj.ListingSnapshot)
}

// SellerSnapshot is the seller as they were when the order was made.
func (orderResolver) SellerSnapshot(_ context.Context, obj *model.Order) (map[string]any, error) {
	return jsonObject(obj.SellerSnapshot)
}

// jsonObject decodes a stored JSON object; null or empty is an empty object.
func jsonObject(raw json.RawMessage) (map[string]any, error) {
	m := map[string]any{}
	if len(raw) == 0 {
		return m, nil
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("decode stored JSON: %w", err)
	}
	if m == nil {
		m = map[string]any{}
	}
	return m, nil
}

// Deliveries is webhook(id).deliveries.
func (x webhookEndpointResolver) Deliveries(ctx context.Context, obj *model.WebhookEndpoint, first *int, after *string, delivered *bool) (*model.WebhookEventConnection, error) {
	list, err := x.WebhookEvents(ctx, obj.ID, delivered, first, after)
	if err != nil {
		return nil, err
	}
	edges, pi := connection(list.Data, func(d *model.WebhookEvent) string { return idCursor(d.ID) },
		func(cur string, d *model.WebhookEvent) *model.WebhookEventEdge {
			return &model.WebhookEventEdge{Cursor: cur, Node: d}
		}, after, list.HasMore)
	return &model.WebhookEventConnection{Edges: edges, PageInfo: pi}, nil
}

// Webhooks is viewer.webhooks.
func (x accountResolver) Webhooks(ctx context.Context, obj *model.Account, first *int, after *string) (*model.WebhookEndpointConnection, error) {
	list, err := x.Resolver.Webhooks(ctx, first, after)
	if err != nil {
		return nil, err
	}
	edges, pi := connection(list.Data, func(e *model.WebhookEndpoint) string { return idCursor(e.ID) },
		func(cur string, e *model.WebhookEndpoint) *model.WebhookEndpointEdge {
			return &model.WebhookEndpointEdge{Cursor: cur, Node: e}
		}, after, list.HasMore)
	return &model.WebhookEndpointConnection{Edges: edges, PageInfo: pi}, nil
}

// Events is viewer.events: the event log, oldest first, after an event id,
// or the newest events (last).
func (x accountResolver) Events(ctx context.Context, obj *model.Account, first *int, after *string, last *int, typ *model.EventType, listingID *string, orderID *string) (*model.EventConnection, error) {
	if last != nil {
		if first != nil || after != nil {
			return nil, problem.Validation("last", "last gives the newest events; it does not combine with first or after")
		}
		list, err := x.Resolver.LatestEvents(ctx, last, (*string)(typ), listingID, orderID)
		if err != nil {
			return nil, renameParam(err, map[string]string{"limit": "last"})
		}
		edges := make([]*model.EventEdge, len(list.Data))
		pi := &model.PageInfo{HasPreviousPage: list.HasMore}
		for i, e := range list.Data {
			edges[i] = &model.EventEdge{Cursor: e.ID, Node: e}
		}
		if len(edges) > 0 {
			pi.StartCursor, pi.EndCursor = &edges[0].Cursor, &edges[len(edges)-1].Cursor
		}
		return &model.EventConnection{Edges: edges, PageInfo: pi}, nil
	}
	list, err := x.Resolver.Events(ctx, after, first, (*string)(typ), listingID, orderID)
	if err != nil {
		return nil, renameParam(err, map[string]string{"limit": "first"})
	}
	// The event log's cursor is the event id itself (after takes an id).
	edges, pi := connection(list.Data, func(e *model.Event) string { return e.ID },
		func(cur string, e *model.Event) *model.EventEdge { return &model.EventEdge{Cursor: cur, Node: e} }, after, list.HasMore)
	return &model.EventConnection{Edges: edges, PageInfo: pi}, nil
}

// APIKeys is viewer.apiKeys: the same page as GET /v1/api-keys, as a
// connection.
func (x accountResolver) APIKeys(ctx context.Context, obj *model.Account, first *int, after *string) (*model.APIKeyConnection, error) {
	list, err := x.Resolver.APIKeys(ctx, first, after)
	if err != nil {
		return nil, renameParam(err, map[string]string{"limit": "first", "cursor": "after"})
	}
	edges, pi := connection(list.Data, func(k *model.APIKey) string { return idCursor(k.ID) },
		func(cur string, k *model.APIKey) *model.APIKeyEdge { return &model.APIKeyEdge{Cursor: cur, Node: k} }, after, list.HasMore)
	return &model.APIKeyConnection{Edges: edges, PageInfo: pi}, nil
}

// SelfRevokeAPIKey is the GraphQL form of POST /v1/api-keys/self-revoke.
func (x mutationResolver) SelfRevokeAPIKey(ctx context.Context) (*bool, error) {
	if err := x.SelfRevoke(ctx); err != nil {
		return nil, err
	}
	return done(true, nil)
}

// Root fields are nullable, so that a field refused alone (a rate limit,
// a not_found) leaves the other fields' data in place; the mutations that
// answer true do so through done.

// DeleteAPIKey is the GraphQL form of DELETE /v1/api-keys/{id}.
func (x mutationResolver) DeleteAPIKey(ctx context.Context, id string) (*bool, error) {
	return done(x.Resolver.DeleteAPIKey(ctx, id))
}

// DeleteAccount is the GraphQL form of DELETE /v1/account.
func (x mutationResolver) DeleteAccount(ctx context.Context) (*bool, error) {
	return done(x.Resolver.DeleteAccount(ctx))
}

// DeleteListing is the GraphQL form of DELETE /v1/listings/{id}.
func (x mutationResolver) DeleteListing(ctx context.Context, id string) (*bool, error) {
	return done(x.Resolver.DeleteListing(ctx, id))
}

// RemoveDeliverable is the GraphQL form of DELETE /v1/listings/{id}/deliverables/{deliverable_id}.
func (x mutationResolver) RemoveDeliverable(ctx context.Context, listingID, deliverableID string) (*bool, error) {
	return done(x.Resolver.RemoveDeliverable(ctx, listingID, deliverableID))
}

// DeleteWebhook is the GraphQL form of DELETE /v1/webhooks/{id}.
func (x mutationResolver) DeleteWebhook(ctx context.Context, id string) (*bool, error) {
	return done(x.Resolver.DeleteWebhook(ctx, id))
}

// DeleteDiscount is the GraphQL form of DELETE /v1/discounts/{id}.
func (x mutationResolver) DeleteDiscount(ctx context.Context, id string) (*bool, error) {
	return done(x.Resolver.DeleteDiscount(ctx, id))
}

// Discounts is viewer.discounts: the same page as GET /v1/discounts, as a
// connection.
func (x accountResolver) Discounts(ctx context.Context, obj *model.Account, first *int, after *string, status *model.DiscountStatus, listing *string) (*model.DiscountConnection, error) {
	return x.DiscountsConnection(ctx, first, after, model.DiscountFilter{Status: status, ListingID: listing})
}

// DeleteLicenseActivation is the GraphQL form of DELETE
// /v1/license-keys/{id}/activations/{activation_id}.
func (x mutationResolver) DeleteLicenseActivation(ctx context.Context, licenseKeyID, activationID string) (*bool, error) {
	return done(x.Resolver.DeleteLicenseActivation(ctx, licenseKeyID, activationID))
}

// LicenseKeys is viewer.licenseKeys: the same page as GET
// /v1/license-keys, as a connection.
func (x accountResolver) LicenseKeys(ctx context.Context, obj *model.Account, first *int, after *string, listing, order *string,
	status *model.LicenseKeyStatus, key, email *string) (*model.LicenseKeyConnection, error) {
	return x.LicenseKeysConnection(ctx, first, after, model.LicenseKeyFilter{ListingID: listing, OrderID: order, Status: status, Key: key, Email: email})
}

// done is a use case's boolean answer as a nullable GraphQL Boolean.
func done(ok bool, err error) (*bool, error) {
	if err != nil {
		return nil, err
	}
	return &ok, nil
}

// StartBootstrap is the GraphQL form of POST /v1/bootstrap.
func (x mutationResolver) StartBootstrap(ctx context.Context, input model.BootstrapInput) (*model.BootstrapSession, error) {
	return x.Resolver.StartBootstrap(ctx, input, ClientIPFrom(ctx))
}
