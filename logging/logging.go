// Package logging is what every log line of the service goes through
// (CONTRACT §24): a slog.Handler that keeps secrets and buyers' addresses
// out of the log whatever handler writes it, and joins each line logged
// within a trace's span to it (trace_id, span_id).
//
//   - An email address anywhere in a message or a string value (errors
//     included) is masked to its first character: j***@example.com.
//   - Strings of the forms of the service's own secrets, an API key
//     (svc_ and 40 characters) and a webhook secret (whsec_ and base64),
//     are replaced by their first twelve characters and "…": the form the
//     API shows as a key's prefix.
//
// Secrets without a recognisable form (passcodes, grant and view tokens,
// license keys, session tokens) are never handed to a logger: the mail
// dispatcher logs a message's id, template and masked recipient, never its
// subject or text. rest/TestLogsCarryNoSecret runs a flow that makes every
// one of them and searches the log.
package logging

import (
	"context"
	"log/slog"
	"regexp"
	"strings"

	"go.opentelemetry.io/otel/trace"
)

// Wrap returns log with its handler wrapped by Handler (log as it is when
// it already is).
func Wrap(log *slog.Logger) *slog.Logger {
	if _, ok := log.Handler().(*handler); ok {
		return log
	}
	return slog.New(Handler(log.Handler()))
}

// Handler wraps h so that what it writes carries no address or secret.
func Handler(h slog.Handler) slog.Handler { return &handler{next: h} }

type handler struct{ next slog.Handler }

func (h *handler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h *handler) Handle(ctx context.Context, r slog.Record) error {
	// The span the line was logged in, when tracing is on (CONTRACT §24):
	// a line joins its trace.
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		r.AddAttrs(slog.String("trace_id", sc.TraceID().String()), slog.String("span_id", sc.SpanID().String()))
	}
	dirty := needsCleaning(r.Message)
	if !dirty {
		r.Attrs(func(a slog.Attr) bool {
			dirty = attrNeedsCleaning(a)
			return !dirty
		})
	}
	if !dirty {
		return h.next.Handle(ctx, r)
	}
	out := slog.NewRecord(r.Time, r.Level, Clean(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(cleanAttr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h *handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		clean[i] = cleanAttr(a)
	}
	return &handler{next: h.next.WithAttrs(clean)}
}

func (h *handler) WithGroup(name string) slog.Handler {
	return &handler{next: h.next.WithGroup(name)}
}

// needsCleaning is the cheap test run on every string: an '@' or a
// secret's prefix.
func needsCleaning(s string) bool {
	return strings.IndexByte(s, '@') >= 0 || strings.Contains(s, "svc_") || strings.Contains(s, "whsec_")
}

func attrNeedsCleaning(a slog.Attr) bool {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return needsCleaning(v.String())
	case slog.KindGroup:
		for _, g := range v.Group() {
			if attrNeedsCleaning(g) {
				return true
			}
		}
		return false
	case slog.KindAny:
		if err, ok := v.Any().(error); ok {
			return needsCleaning(err.Error())
		}
		if s, ok := v.Any().(interface{ String() string }); ok {
			return needsCleaning(s.String())
		}
	}
	return false
}

func cleanAttr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, Clean(v.String()))
	case slog.KindGroup:
		g := v.Group()
		out := make([]any, len(g))
		for i := range g {
			out[i] = cleanAttr(g[i])
		}
		return slog.Group(a.Key, out...)
	case slog.KindAny:
		if err, ok := v.Any().(error); ok && needsCleaning(err.Error()) {
			return slog.String(a.Key, Clean(err.Error()))
		}
		if s, ok := v.Any().(interface{ String() string }); ok && needsCleaning(s.String()) {
			return slog.String(a.Key, Clean(s.String()))
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}

var (
	emailPattern  = regexp.MustCompile(`[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(\.[A-Za-z0-9\-]+)+`)
	secretPattern = regexp.MustCompile(`svc_[0-9A-Za-z]{40}|whsec_[A-Za-z0-9+/=_\-]{8,}`)
)

// Clean is s with its email addresses masked and its secrets cut to their
// first twelve characters.
func Clean(s string) string {
	if !needsCleaning(s) {
		return s
	}
	s = secretPattern.ReplaceAllStringFunc(s, func(m string) string { return m[:12] + "…" })
	return emailPattern.ReplaceAllStringFunc(s, MaskEmail)
}

// MaskEmail is an address as logs show it: the first character of its
// local part, "***", and its domain (j***@example.com).
func MaskEmail(addr string) string {
	at := strings.LastIndexByte(addr, '@')
	if at <= 0 {
		return addr
	}
	return addr[:1] + "***" + addr[at:]
}
