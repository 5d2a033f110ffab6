package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// The GraphQL scenarios read what their REST twins read, through /graphql.

// graphQLListingQuery is listing-get's read: the full listing with its three
// deliverables and readiness.
const graphQLListingQuery = `query($id: ID!) { listing(id: $id) {
  object id title description price currency slug status url checkoutUrl coverUrl coverBlur fulfillment externalDelivery
  deliverables { object id type value file { name size contentType } createdAt }
  checkoutSchema { key label kind required options } utmSource utmMedium utmCampaign metadata
  reviews { count averageRating } readiness { sellable next actions { code kind priority message resolve { method endpoint url params } } }
  createdAt updatedAt publishedAt } }`

// graphQLListingsQuery is listings-first's read: a page of 100 with 12
// fields and pageInfo.
const graphQLListingsQuery = `query($n: Int) { viewer { listings(first: $n) {
  edges { cursor node { id title price currency slug status url checkoutUrl fulfillment createdAt updatedAt publishedAt } }
  pageInfo { hasNextPage endCursor hasPreviousPage startCursor } } } }`

// graphQLReadinessQuery is the whole readiness graph an agent reads: the
// account's readiness and stats, 100 listings and 100 orders with theirs.
const graphQLReadinessQuery = `{ viewer {
  id readiness { operational next actions { code kind priority message resolve { method endpoint url params } } }
  stats { totalRevenue totalOrders totalListings }
  listings(first: 100) { edges { node { id title status slug url fulfillment
    readiness { sellable next actions { code kind priority message resolve { method endpoint url params } } } } }
    pageInfo { hasNextPage endCursor } }
  orders(first: 100) { edges { node { id status contentType listingId
    readiness { next actions { code kind priority message resolve { method endpoint url params } } } } }
    pageInfo { hasNextPage endCursor } } } }`

func setupGraphQLListing(ctx context.Context, e *env) (opFactory, func(), error) {
	s, err := e.seedListings(ctx)
	if err != nil {
		return nil, nil, err
	}
	var d struct {
		Listing struct {
			ID           string
			Deliverables []json.RawMessage
		}
	}
	vars := map[string]any{"id": s.getID}
	if err := graphQL(ctx, e, graphQLListingQuery, vars, &d); err != nil {
		return nil, nil, err
	}
	if d.Listing.ID != s.getID || len(d.Listing.Deliverables) != 3 {
		return nil, nil, fmt.Errorf("graphql listing: %q with %d deliverables, want %q with 3", d.Listing.ID, len(d.Listing.Deliverables), s.getID)
	}
	return graphQLScenario(e, graphQLListingQuery, vars)
}

func setupGraphQLListings(ctx context.Context, e *env) (opFactory, func(), error) {
	if _, err := e.seedListings(ctx); err != nil {
		return nil, nil, err
	}
	var d struct {
		Viewer struct {
			Listings struct {
				Edges    []json.RawMessage
				PageInfo struct{ HasNextPage bool }
			}
		}
	}
	vars := map[string]any{"n": listingsPage}
	if err := graphQL(ctx, e, graphQLListingsQuery, vars, &d); err != nil {
		return nil, nil, err
	}
	if l := d.Viewer.Listings; len(l.Edges) != listingsPage || !l.PageInfo.HasNextPage {
		return nil, nil, fmt.Errorf("graphql listings: %d edges, hasNextPage %t; want %d and more", len(l.Edges), l.PageInfo.HasNextPage, listingsPage)
	}
	return graphQLScenario(e, graphQLListingsQuery, vars)
}

func setupGraphQLReadiness(ctx context.Context, e *env) (opFactory, func(), error) {
	if _, err := e.seedListings(ctx); err != nil {
		return nil, nil, err
	}
	var d struct {
		Viewer struct {
			Listings struct{ Edges []json.RawMessage }
		}
	}
	if err := graphQL(ctx, e, graphQLReadinessQuery, nil, &d); err != nil {
		return nil, nil, err
	}
	if len(d.Viewer.Listings.Edges) != 100 {
		return nil, nil, fmt.Errorf("graphql readiness: %d listings, want 100", len(d.Viewer.Listings.Edges))
	}
	return graphQLScenario(e, graphQLReadinessQuery, nil)
}

// graphQL runs one operation in a setup and decodes its data into v; any
// GraphQL error is an error.
func graphQL(ctx context.Context, e *env, query string, vars map[string]any, v any) error {
	var out struct {
		Data   json.RawMessage
		Errors []json.RawMessage
	}
	if err := sendJSON(ctx, http.MethodPost, e.cfg.endpoint("/graphql"), e.cfg.key,
		map[string]any{"query": query, "variables": vars}, http.StatusOK, &out); err != nil {
		return err
	}
	if len(out.Errors) > 0 {
		return fmt.Errorf("graphql: %s", out.Errors[0])
	}
	return json.Unmarshal(out.Data, v)
}

// graphQLScenario posts the operation over and over; an answer carrying
// errors is an error (gqlgen writes errors before data).
func graphQLScenario(e *env, query string, vars map[string]any) (opFactory, func(), error) {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return nil, nil, err
	}
	url, key := e.cfg.endpoint("/graphql"), e.cfg.key
	var transports []*http.Transport
	newOp := func(int) op {
		tr := newTransport(e.cfg.concurrency)
		transports = append(transports, tr)
		client := &http.Client{Transport: tr, Timeout: requestTimeout}
		return func(ctx context.Context) error {
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
			if err != nil {
				return err
			}
			req.Header.Set("Authorization", "Bearer "+key)
			req.Header.Set("Content-Type", "application/json")
			resp, err := client.Do(req)
			if err != nil {
				return err
			}
			defer resp.Body.Close()
			var head [10]byte
			n, _ := io.ReadFull(resp.Body, head[:])
			if _, err := io.Copy(io.Discard, resp.Body); err != nil {
				return fmt.Errorf("read response: %w", err)
			}
			if resp.StatusCode != http.StatusOK {
				return fmt.Errorf("HTTP %d", resp.StatusCode)
			}
			if bytes.HasPrefix(head[:n], []byte(`{"errors"`)) {
				return fmt.Errorf("graphql errors")
			}
			return nil
		}
	}
	cleanup := func() {
		for _, tr := range transports {
			tr.CloseIdleConnections()
		}
	}
	return newOp, cleanup, nil
}
