package resolvers

import (
	"context"
	"errors"
	"fmt"

	"commerce/db"
	"commerce/graph/model"
	"commerce/problem"
	"commerce/requestlog"
)

// The seller's request log (issue 29 item 5; package requestlog): the
// recent requests of the account's API keys.

// statusClasses maps the GraphQL status classes to the store's.
var statusClasses = map[model.RequestStatusClass]requestlog.StatusClass{
	model.RequestStatusClassSucceeded:   requestlog.Succeeded,
	model.RequestStatusClassClientError: requestlog.ClientError,
	model.RequestStatusClassServerError: requestlog.ServerError,
}

// RequestLog lists the caller's account's recent API requests, newest
// first: first (1..100, default 20) after the cursor after, only those of
// the key apiKey and of the status class status when given. Another
// account's key filters to nothing: the log read is the caller's account's
// alone. Errors: authentication_error, validation_error (first, after,
// apiKey).
func (r *Resolver) RequestLog(ctx context.Context, first *int, after, apiKey *string, status *model.RequestStatusClass) (*model.APIRequestConnection, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	q := requestlog.Query{Limit: defaultLimit}
	if first != nil {
		if *first < 1 || *first > maxLimit {
			return nil, problem.Validation("first", "first must be between 1 and 100")
		}
		q.Limit = *first
	}
	if after != nil {
		q.After = *after
	}
	if apiKey != nil {
		if !db.ValidID("key", *apiKey) {
			return nil, problem.Validation("apiKey", "apiKey must be an API key id (key_…)")
		}
		q.KeyID = *apiKey
	}
	if status != nil {
		c, ok := statusClasses[*status]
		if !ok {
			return nil, problem.Validation("status", "status must be SUCCEEDED, CLIENT_ERROR or SERVER_ERROR")
		}
		q.Status = c
	}
	out := &model.APIRequestConnection{Edges: []*model.APIRequestEdge{}, PageInfo: &model.PageInfo{HasPreviousPage: q.After != ""}}
	if r.Requests == nil {
		return out, nil
	}
	entries, more, err := r.Requests.List(ctx, p.AccountID, q)
	if errors.Is(err, requestlog.ErrCursor) {
		return nil, problem.Validation("after", "after is not a cursor this service issued; pass pageInfo.endCursor of a previous page")
	}
	if err != nil {
		return nil, fmt.Errorf("request log: %w", err)
	}
	for _, e := range entries {
		out.Edges = append(out.Edges, &model.APIRequestEdge{Cursor: e.Cursor, Node: toAPIRequestModel(e.Entry)})
	}
	out.PageInfo.HasNextPage = more
	if n := len(out.Edges); n > 0 {
		out.PageInfo.StartCursor, out.PageInfo.EndCursor = &out.Edges[0].Cursor, &out.Edges[n-1].Cursor
	}
	return out, nil
}

// toAPIRequestModel is an entry of the log as the API shows it.
func toAPIRequestModel(e requestlog.Entry) *model.APIRequest {
	m := &model.APIRequest{Object: "api_request", APIKeyID: e.KeyID, Method: e.Method, Path: e.Path, Status: e.Status,
		CorrelationID: e.CorrelationID, CreatedAt: e.Time.UTC(), DurationMs: int(e.Duration.Milliseconds())}
	if e.Operation != "" {
		op := e.Operation
		m.Operation = &op
	}
	return m
}

// RequestLog is viewer.requestLog.
func (x accountResolver) RequestLog(ctx context.Context, obj *model.Account, first *int, after *string, apiKey *string, status *model.RequestStatusClass) (*model.APIRequestConnection, error) {
	return x.Resolver.RequestLog(ctx, first, after, apiKey, status)
}
