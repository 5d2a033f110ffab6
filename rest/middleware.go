package rest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"net/netip"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"commerce/resolvers"
)

type ctxKey int

const (
	correlationKey ctxKey = iota
	requestInfoKey
)

var correlationPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,128}$`)

// CorrelationID returns the request's correlation id.
func CorrelationID(ctx context.Context) string {
	s, _ := ctx.Value(correlationKey).(string)
	return s
}

// requestInfo is filled as the request travels inward and read by the access log.
type requestInfo struct {
	accountID string
	// keyID and operation feed the seller's request log (requestlog.go).
	keyID, operation string
}

func infoFrom(ctx context.Context) *requestInfo {
	ri, _ := ctx.Value(requestInfoKey).(*requestInfo)
	return ri
}

// Correlate echoes a well-formed x-correlation-id or generates one, on every response.
func Correlate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Correlation-Id")
		if !correlationPattern.MatchString(id) {
			var b [12]byte
			_, _ = rand.Read(b[:])
			id = hex.EncodeToString(b[:])
		}
		w.Header().Set("X-Correlation-Id", id)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), correlationKey, id)))
	})
}

// ClientIP returns the request's client address (see TrustedClientIP).
func ClientIP(ctx context.Context) string { return resolvers.ClientIPFrom(ctx) }

// TrustedClientIP resolves the client address: the socket peer, or, when the
// peer is a trusted proxy, the rightmost X-Forwarded-For entry that is not one.
func TrustedClientIP(trusted []netip.Prefix) func(http.Handler) http.Handler {
	isTrusted := func(a netip.Addr) bool {
		for _, p := range trusted {
			if p.Contains(a) {
				return true
			}
		}
		return false
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ap, err := netip.ParseAddrPort(r.RemoteAddr)
			addr := ap.Addr().Unmap()
			if err == nil && len(trusted) > 0 && isTrusted(addr) {
				hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
				for i := len(hops) - 1; i >= 0; i-- {
					a, perr := netip.ParseAddr(strings.TrimSpace(hops[i]))
					if perr != nil {
						break
					}
					addr = a.Unmap()
					if !isTrusted(addr) {
						break
					}
				}
			}
			ip := addr.String()
			if err != nil {
				ip = r.RemoteAddr
			}
			next.ServeHTTP(w, r.WithContext(resolvers.WithClientIP(r.Context(), ip)))
		})
	}
}

// Recover turns a panic into 500 internal_error, logging the stack; the body
// reveals nothing.
func Recover(ps Problems) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer func() {
				rec := recover()
				if rec == nil {
					return
				}
				if err, ok := rec.(error); ok && errors.Is(err, http.ErrAbortHandler) {
					panic(rec)
				}
				ps.Log.ErrorContext(r.Context(), "panic", "panic", rec, "stack", string(debug.Stack()),
					"correlation_id", CorrelationID(r.Context()), "method", r.Method, "path", r.URL.Path)
				if ww, ok := w.(middleware.WrapResponseWriter); ok && ww.Status() != 0 {
					return // headers already sent; nothing more can be said
				}
				ps.Write(w, r, errors.New("panic"))
			}()
			next.ServeHTTP(w, r)
		})
	}
}

// NoteAccount names the account a request acts for in its access line,
// when it was authenticated after the HTTP middleware ran (a websocket's
// connection_init).
func NoteAccount(ctx context.Context, accountID string) {
	if ri := infoFrom(ctx); ri != nil {
		ri.accountID = accountID
	}
}

// AccessLog logs one line per request and records request metrics.
func AccessLog(log *slog.Logger, m *Metrics) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			ri := &requestInfo{}
			ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
			next.ServeHTTP(ww, r.WithContext(context.WithValue(r.Context(), requestInfoKey, ri)))
			d := time.Since(start)
			status := ww.Status()
			if status == 0 {
				status = http.StatusOK
			}
			route := "unmatched"
			if rc := chi.RouteContext(r.Context()); rc != nil && rc.RoutePattern() != "" {
				route = rc.RoutePattern()
			}
			m.observe(r.Method, route, status, d)
			level := slog.LevelInfo
			if status >= 500 {
				level = slog.LevelError
			}
			log.LogAttrs(r.Context(), level, "request",
				slog.String("correlation_id", CorrelationID(r.Context())),
				slog.String("method", r.Method),
				slog.String("route", route),
				slog.Int("status", status),
				slog.Float64("duration_ms", float64(d.Microseconds())/1000),
				slog.Int("bytes", ww.BytesWritten()),
				slog.String("account_id", ri.accountID),
				slog.String("client_ip", ClientIP(r.Context())),
			)
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
