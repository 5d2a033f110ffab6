package rest

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"commerce/db"
	"commerce/requestlog"
)

// RequestLog records every request an API key made (the route's
// authentication named the key: REST /v1, POST /graphql, /mcp) in the
// seller's request log, once the response is written. A request of the
// console's session, an anonymous one and one whose key was refused are
// not recorded. Recording does no I/O (requestlog.Store.Record). It must
// run inside AccessLog, whose request info it reads.
func RequestLog(store *requestlog.Store) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if store == nil {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			ww, ok := w.(middleware.WrapResponseWriter)
			if !ok {
				ww = middleware.NewWrapResponseWriter(w, r.ProtoMajor)
			}
			next.ServeHTTP(ww, r)
			ri := infoFrom(r.Context())
			if ri == nil || ri.keyID == "" {
				return
			}
			status := ww.Status()
			if status == 0 {
				status = http.StatusOK
			}
			store.Record(ri.accountID, requestlog.Entry{
				Time: start, KeyID: ri.keyID, Method: r.Method, Path: loggedPath(r), Operation: ri.operation,
				Status: status, CorrelationID: CorrelationID(r.Context()), Duration: time.Since(start),
			})
		})
	}
}

// NoteOperation names what a request ran, for the request log: the GraphQL
// operation or the MCP tool. The first note stands (an MCP tool's GraphQL
// operation does not replace the tool).
func NoteOperation(ctx context.Context, operation string) {
	if ri := infoFrom(ctx); ri != nil && ri.operation == "" {
		ri.operation = operation
	}
}

// loggedPath is the path the request log shows: the request's own path (no
// query string), like Stripe's log, except that a path parameter that is
// not a well-formed id of the service (which could be anything a client
// typed, a secret included) shows as its route's placeholder ({id}).
func loggedPath(r *http.Request) string {
	rc := chi.RouteContext(r.Context())
	if rc == nil {
		return r.URL.Path
	}
	pattern := rc.RoutePattern()
	if pattern == "" || strings.Contains(pattern, "*") {
		return pattern
	}
	if !strings.Contains(pattern, "{") {
		return pattern
	}
	out := pattern
	for i, k := range rc.URLParams.Keys {
		if i >= len(rc.URLParams.Values) || k == "*" {
			continue
		}
		if v := rc.URLParams.Values[i]; isID(v) {
			out = strings.Replace(out, "{"+k+"}", v, 1)
		}
	}
	return out
}

// isID reports whether s is a prefixed id of the service (acc_…, ord_…).
func isID(s string) bool {
	prefix, _, ok := strings.Cut(s, "_")
	return ok && prefix != "" && len(prefix) <= 8 && strings.ToLower(prefix) == prefix && db.ValidID(prefix, s)
}
