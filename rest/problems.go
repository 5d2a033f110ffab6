package rest

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"

	"commerce/problem"
)

// Problems renders errors as RFC 9457 problem documents.
type Problems struct {
	BaseURL string
	Log     *slog.Logger
}

// Body returns the problem document of p: the six standard members, the
// code's extension members, errors for validation failures and the
// correlation id.
func (ps Problems) Body(ctx context.Context, p *problem.Problem) map[string]any {
	body := make(map[string]any, 8+len(p.Ext))
	for k, v := range p.Ext {
		body[k] = v
	}
	body["type"] = ps.BaseURL + "/errors/" + string(p.Code)
	body["title"] = p.Code.Title()
	body["status"] = p.Status()
	body["detail"] = p.Detail
	body["code"] = string(p.Code)
	if p.Param != "" {
		body["param"] = p.Param
	} else {
		body["param"] = nil
	}
	if len(p.Errors) > 0 {
		body["errors"] = p.Errors
	}
	body["correlation_id"] = CorrelationID(ctx)
	return body
}

// Write renders err. A *problem.Problem is shown as it is; anything else is
// logged with the correlation id and shown as internal_error, revealing nothing.
func (ps Problems) Write(w http.ResponseWriter, r *http.Request, err error) {
	p := problem.From(err)
	if p == nil {
		ps.Log.ErrorContext(r.Context(), "request failed", "error", err.Error(),
			"correlation_id", CorrelationID(r.Context()), "method", r.Method, "path", r.URL.Path)
		p = problem.Internal()
	}
	for k, vs := range p.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	if p.Code == problem.RateLimited {
		if ra, ok := p.Ext["retry_after"].(int); ok {
			w.Header().Set("Retry-After", strconv.Itoa(ra))
		}
	}
	b, _ := json.Marshal(ps.Body(r.Context(), p))
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(p.Status())
	_, _ = w.Write(append(b, '\n'))
}
