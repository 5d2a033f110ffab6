package logging

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/trace"
)

// Every place a string reaches a log line — the message, attributes,
// groups, errors, a logger's own attributes — is cleaned; other values
// pass as they are.
func TestHandlerMasksAddressesAndSecrets(t *testing.T) {
	var buf bytes.Buffer
	log := Wrap(slog.New(slog.NewJSONHandler(&buf, nil)))
	require.Same(t, log, Wrap(log), "wrapped once")
	key := "svc_" + strings.Repeat("a1B2", 10)
	secret := "whsec_c2VjcmV0IHNlY3JldCBzZWNyZXQ="
	log.With("owner", "ann.smith+shop@example.co.uk").Info("sent to jo@example.com",
		"error", errors.New("550 <jo@example.com>: no such user"),
		"key", key, slog.Group("endpoint", "secret", secret, "n", 3), "plain", "nothing here", "count", 7)
	line := buf.String()
	for _, s := range []string{"jo@example.com", "ann.smith+shop@example.co.uk", key, secret} {
		require.NotContains(t, line, s)
	}
	for _, s := range []string{`"msg":"sent to j***@example.com"`, `"owner":"a***@example.co.uk"`, `"error":"550 <j***@example.com>: no such user"`,
		`"key":"` + key[:12] + `…"`, `"secret":"whsec_c2Vjcm…"`, `"n":3`, `"plain":"nothing here"`, `"count":7`} {
		require.Contains(t, line, s)
	}
}

func TestMaskEmail(t *testing.T) {
	require.Equal(t, "j***@example.com", MaskEmail("jane@example.com"))
	require.Equal(t, "not an address", Clean("not an address"))
	require.Equal(t, "x***@y.io and z***@w.org", Clean("x@y.io and zed@w.org"))
}

// A line logged within a span carries its trace_id and span_id; one logged
// outside carries neither.
func TestHandlerJoinsTheTrace(t *testing.T) {
	var buf bytes.Buffer
	log := Wrap(slog.New(slog.NewJSONHandler(&buf, nil)))
	tid, _ := trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
	sid, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
	ctx := trace.ContextWithSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled}))
	log.InfoContext(ctx, "request", "status", 200)
	require.Contains(t, buf.String(), `"trace_id":"4bf92f3577b34da6a3ce929d0e0e4736","span_id":"00f067aa0ba902b7"`)
	buf.Reset()
	log.InfoContext(context.Background(), "request", "status", 200)
	require.NotContains(t, buf.String(), "trace_id")
}
