package rest

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"time"

	"commerce/problem"
	"commerce/ratelimit"
	"commerce/resolvers"
)

// RateLimit applies a group of the rate-limit table, scoped to the API key,
// or to the client IP when the request is unauthenticated. Every limited
// response carries RateLimit-Limit, -Remaining and -Reset; a refusal is 429
// rate_limited with Retry-After. When Redis fails the request is allowed
// (fail open) and the error logged and counted.
//
// An authenticated GET (a read: no route of the table changes anything on
// GET) is not kept waiting for Redis: its handler runs while the check is
// in flight, into a buffer, and the buffer is sent only once the check has
// allowed the request (and confirmed the key); a refusal discards it.
func (a *API) RateLimit(group string) func(http.Handler) http.Handler {
	return a.rateLimit(group, true)
}

// rateLimit is RateLimit; without overlap (a streamed response, which a
// buffer would hold whole) the check is made before the handler runs.
func (a *API) rateLimit(group string, overlap bool) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if _, authed := resolvers.PrincipalFrom(r.Context()); authed && r.Method == http.MethodGet && overlap {
				a.overlapped(w, r, group, next)
				return
			}
			res, err := a.Charge(r.Context(), group, Subject(r.Context()))
			if res != nil {
				SetLimitHeaders(w, res)
				resolvers.ReportLimit(r.Context(), *res)
			}
			if err != nil {
				a.Problems.Write(w, r, err)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// overlapped runs the check of group and the handler at once (RateLimit).
func (a *API) overlapped(w http.ResponseWriter, r *http.Request, group string, next http.Handler) {
	type charged struct {
		res *ratelimit.Result
		err error
	}
	ctx := r.Context()
	done := make(chan charged, 1)
	go func() {
		res, err := a.Charge(ctx, group, Subject(ctx))
		done <- charged{res, err}
	}()
	buf := &bufferedResponse{header: http.Header{}}
	next.ServeHTTP(buf, r.WithContext(context.WithValue(ctx, chargeSettlesKey{}, true)))
	c := <-done
	if c.res != nil {
		SetLimitHeaders(w, c.res)
	}
	if c.err != nil {
		a.Problems.Write(w, r, c.err)
		return
	}
	h := w.Header()
	for k, v := range buf.header {
		h[k] = v
	}
	if buf.status == 0 {
		buf.status = http.StatusOK
	}
	w.WriteHeader(buf.status)
	_, _ = w.Write(buf.body.Bytes())
}

// chargeSettlesKey marks a request whose key the overlapping charge
// confirms (ConfirmKey leaves it to the charge).
type chargeSettlesKey struct{}

func chargeSettles(ctx context.Context) bool {
	v, _ := ctx.Value(chargeSettlesKey{}).(bool)
	return v
}

// bufferedResponse holds a handler's response until its check allows it.
type bufferedResponse struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedResponse) Header() http.Header { return b.header }

func (b *bufferedResponse) WriteHeader(status int) {
	if b.status == 0 {
		b.status = status
	}
}

func (b *bufferedResponse) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}

// SetLimitHeaders sends the RateLimit-* headers of res.
func SetLimitHeaders(w http.ResponseWriter, res *ratelimit.Result) {
	h := w.Header()
	h.Set("RateLimit-Limit", strconv.Itoa(res.Limit))
	h.Set("RateLimit-Remaining", strconv.Itoa(res.Remaining))
	h.Set("RateLimit-Reset", strconv.Itoa(ceilSeconds(res.Reset)))
}

// Subject is the rate-limit subject of ctx's caller: "key:<key id>" when a
// key authenticated the request, "session:<session id>" when a console
// session did, else "ip:<client ip>".
func Subject(ctx context.Context) string {
	if p, ok := resolvers.PrincipalFrom(ctx); ok {
		return p.Subject()
	}
	return IPSubject(ctx)
}

// IPSubject is the rate-limit subject of ctx's client IP (public routes
// count per IP even when a key is sent).
func IPSubject(ctx context.Context) string { return "ip:" + ClientIP(ctx) }

// Charge counts one request of subject in group, as every rate-limited
// route and GraphQL field does. It returns the check's result, or nil when
// Redis could not be asked: the request is then allowed (fail open), and the
// error logged and counted. A refusal is a rate_limited problem with
// retry_after (whole seconds, at least 1), counted by group.
//
// A request whose key was served from the authentication cache and not yet
// confirmed (keyCheck) also reads the key's revocation markers in the same
// Redis round trip; a revoked key gets authentication_error, whatever the
// limit says.
func (a *API) Charge(ctx context.Context, group, subject string) (*ratelimit.Result, error) {
	if kc := pendingKey(ctx); kc != nil {
		if g, ok := ratelimit.Lookup(group); ok {
			kc.mu.Lock()
			if !kc.done {
				kr, err := a.Limiter.CheckKey(ctx, g, subject, kc.p.AccountID, kc.p.KeyID)
				kc.err = a.Resolver.SettleKey(ctx, kc.p, kr.Revoked, kr.MarkerErr)
				kc.done = true
				kc.mu.Unlock()
				if kc.err != nil {
					return nil, kc.err
				}
				return a.charged(ctx, group, kr.Result, err)
			}
			kc.mu.Unlock()
		}
		if err := kc.confirm(ctx, a.Resolver); err != nil {
			return nil, err
		}
	}
	res, err := a.Limiter.Allow(ctx, group, subject)
	return a.charged(ctx, group, res, err)
}

// limitCheckFailed logs a limit check that failed: an error, or at debug
// level when the caller hung up first (the check was canceled with the
// request, and nothing is wrong with Redis).
func (a *API) limitCheckFailed(ctx context.Context, msg string, args ...any) {
	level := slog.LevelError
	if ctx.Err() != nil {
		level = slog.LevelDebug
	}
	a.Problems.Log.Log(ctx, level, msg, args...)
}

// charged turns a check's outcome into Charge's.
func (a *API) charged(ctx context.Context, group string, res ratelimit.Result, err error) (*ratelimit.Result, error) {
	if err != nil {
		a.Metrics.limitErrors.Inc()
		if !errors.Is(err, ratelimit.ErrUnavailable) { // logged once per outage window, not per request
			a.limitCheckFailed(ctx, "rate limit check failed; allowing requests",
				"group", group, "error", err, "correlation_id", CorrelationID(ctx))
		}
		return nil, nil
	}
	if !res.Allowed {
		a.Metrics.rejections.WithLabelValues(group).Inc()
		retry := ceilSeconds(res.RetryAfter)
		return &res, problem.Newf(problem.RateLimited,
			"Too many requests in the %s group: at most %d per window. Retry in %d s.", group, res.Limit, retry).
			With("retry_after", retry)
	}
	return &res, nil
}

// ceilSeconds rounds up to whole seconds, at least 1.
func ceilSeconds(d time.Duration) int {
	s := int(math.Ceil(d.Seconds()))
	if s < 1 {
		return 1
	}
	return s
}
