package acp

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"commerce/db"
	"commerce/problem"
	"commerce/ratelimit"
	"commerce/resolvers"
	"commerce/rest"
)

// Handler serves the Agentic Commerce Protocol (CONTRACT §25): discovery,
// the checkout sessions at /acp (REST) and /acp/mcp (MCP), and, with the
// sandbox processor, the sandbox's delegate-payment API.
type Handler struct {
	Backend Backend
	DB      *db.DB
	Log     *slog.Logger
	BaseURL string
	// Charge counts one request of subject in a rate-limit group of the
	// table (rest.API.Charge): nil result and error when Redis failed (the
	// request is allowed); a rate_limited problem when refused.
	Charge func(ctx context.Context, group, subject string) (*ratelimit.Result, error)
	// Sandbox serves the sandbox's delegate-payment endpoint (PROCESSOR=sandbox).
	Sandbox bool
	// ServiceVersion names the service in MCP's initialize.
	ServiceVersion string
}

// RateLimitGroup is the rate-limit group of every /acp request, counted
// per agent connection (CONTRACT §25: 600 a minute).
const RateLimitGroup = "acp"

// Routes mounts discovery, /acp and the sandbox's delegate payment.
func (h *Handler) Routes(r chi.Router) {
	r.Get("/.well-known/acp.json", h.discovery)
	a := chi.NewRouter()
	a.NotFound(func(w http.ResponseWriter, r *http.Request) {
		echoRequestID(w, r)
		writeErr(w, r, invalid(http.StatusNotFound, "not_found", "No ACP route "+r.Method+" "+r.URL.Path+"."))
	})
	a.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		echoRequestID(w, r)
		e := invalid(http.StatusMethodNotAllowed, "method_not_allowed", r.Method+" is not allowed on "+r.URL.Path+".")
		writeErr(w, r, e)
	})
	for _, op := range operations {
		a.Method(op.method, op.pattern, h.protocol(h.rest(op)))
	}
	a.Method(http.MethodPost, "/mcp", h.protocol(h.mcpHandler()))
	r.Mount("/acp", a)
	if h.Sandbox {
		r.Post("/sandbox/acp/agentic_commerce/delegate_payment", h.delegatePayment)
	}
}

// protocol is what every /acp request goes through before its operation:
// the Request-Id echo, the bearer token of an agent connection (checked in
// PostgreSQL on every request: a disabled connection is refused at once),
// the acp rate-limit group per connection with §4's headers.
func (h *Handler) protocol(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		echoRequestID(w, r)
		token, ok := bearer(r)
		if !ok {
			writeErr(w, r, errUnauthorized())
			return
		}
		p, err := h.Backend.AuthenticateAgentConnection(r.Context(), token)
		if err != nil {
			e := fromErr(err, nil)
			if e.status >= 500 {
				h.Log.ErrorContext(r.Context(), "acp: authenticate", "error", err)
			}
			writeErr(w, r, e)
			return
		}
		if h.Charge != nil {
			res, err := h.Charge(r.Context(), RateLimitGroup, "acn:"+p.ConnectionID)
			if res != nil {
				rest.SetLimitHeaders(w, res)
			}
			if err != nil {
				writeErr(w, r, fromErr(err, nil))
				return
			}
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), principalKey{}, p)))
	})
}

type principalKey struct{}

func principalFrom(ctx context.Context) (resolvers.AgentPrincipal, bool) {
	p, ok := ctx.Value(principalKey{}).(resolvers.AgentPrincipal)
	return p, ok
}

// rest serves one operation over HTTP: API-Version, the bounded body, the
// Idempotency-Key, then exec.
func (h *Handler) rest(op *operation) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, _ := principalFrom(r.Context())
		if e := checkVersion(r.Header.Get("API-Version"), r.Header.Values("API-Version")); e != nil {
			writeErr(w, r, e)
			return
		}
		c := call{op: op, p: p}
		if op.hasID {
			c.id = chi.URLParam(r, "id")
			if len(c.id) > maxIDLen {
				writeErr(w, r, invalid(http.StatusNotFound, "not_found", "No checkout session has this id."))
				return
			}
		}
		if op.mutating {
			key := r.Header.Get("Idempotency-Key")
			if key != "" {
				w.Header().Set("Idempotency-Key", key)
			}
			c.idemKey = key
			body, e := readBody(r)
			if e != nil {
				writeErr(w, r, e)
				return
			}
			c.body = body
		}
		writeOutcome(w, h.exec(r.Context(), c))
	})
}

// readBody reads a bounded JSON body (64 KiB, 32 levels deep).
func readBody(r *http.Request) ([]byte, *Error) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if mt, _, _ := strings.Cut(ct, ";"); !strings.EqualFold(strings.TrimSpace(mt), "application/json") {
			return nil, invalid(http.StatusUnsupportedMediaType, "unsupported_media_type", "Send the request body as Content-Type: application/json.")
		}
	}
	body, tooLarge, err := rest.ReadBody(r, maxBody)
	if err != nil {
		return nil, invalid(http.StatusBadRequest, "invalid", "The request body could not be read.")
	}
	if tooLarge {
		return nil, invalid(http.StatusRequestEntityTooLarge, "request_too_large", "The request body is larger than 64 KiB.")
	}
	if err := rest.CheckJSONDepth(body, "The request body"); err != nil {
		if p := problem.From(err); p != nil {
			return nil, invalid(http.StatusBadRequest, "invalid", p.Detail)
		}
	}
	return body, nil
}

// checkVersion is ACP's API-Version rule (rfc.agentic_checkout.md §2.1):
// missing or unsupported is 400 with supported_versions.
func checkVersion(v string, all []string) *Error {
	if len(all) == 0 || strings.TrimSpace(v) == "" {
		return errMissingVersion()
	}
	v = strings.TrimSpace(v)
	for _, s := range SupportedVersions {
		if v == s {
			return nil
		}
	}
	if len(v) > 32 {
		v = v[:32]
	}
	return errUnsupportedVersion(v)
}

func bearer(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	if token == "" || len(token) > 256 {
		return "", false
	}
	return token, true
}

// echoRequestID echoes a client's Request-Id (bounded, printable).
func echoRequestID(w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get("Request-Id")
	if id != "" && validKey(id) {
		w.Header().Set("Request-Id", id)
	}
}

func writeOutcome(w http.ResponseWriter, o outcome) {
	for k, v := range o.header {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	if o.replayed {
		w.Header().Set("Idempotent-Replayed", "true")
	}
	w.WriteHeader(o.status)
	_, _ = w.Write(o.body)
}

func writeErr(w http.ResponseWriter, _ *http.Request, e *Error) {
	writeOutcome(w, errOutcome(e))
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
