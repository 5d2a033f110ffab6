package acp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"commerce/db"
	"commerce/resolvers"
)

// Version is the ACP version served; SupportedVersions all of them, oldest
// first (rfc.discovery.md §4.2).
const Version = "2026-04-17"

// SupportedVersions lists the API-Version values accepted.
var SupportedVersions = []string{Version}

// call is one operation as a transport received it: REST and MCP both run
// calls through exec, so that both apply the same idempotency rules.
type call struct {
	op      *operation
	p       resolvers.AgentPrincipal
	id      string
	body    []byte
	idemKey string
}

// outcome is an operation's answer: the status and JSON body REST sends,
// which MCP turns into a tool result.
type outcome struct {
	status   int
	body     []byte
	header   http.Header
	replayed bool
}

func (o outcome) ok() bool { return o.status < 400 }

func errOutcome(e *Error) outcome {
	b, _ := json.Marshal(e)
	return outcome{status: e.status, body: b, header: e.header}
}

// exec runs a call. A mutating call needs an Idempotency-Key (ACP §6):
// scoped to the connection and the REST path, its first 2xx/4xx answer is
// kept 24 hours and replayed for the same body (semantically equal JSON),
// the key with another body is 422 idempotency_conflict, while the first
// runs 409 idempotency_in_flight with Retry-After; a 5xx is never kept.
func (h *Handler) exec(ctx context.Context, c call) outcome {
	if !c.op.mutating {
		return h.perform(ctx, c)
	}
	if c.idemKey == "" {
		return errOutcome(errKeyRequired())
	}
	if !validKey(c.idemKey) {
		return errOutcome(errKeyInvalid())
	}
	scope := "acp:" + c.p.ConnectionID + ":" + c.op.method + " " + c.op.path(c.id)
	return h.idempotent(ctx, scope, c.idemKey, c.body, func() outcome { return h.perform(ctx, c) })
}

// idempotent runs do under ACP's idempotency rules for (scope, key).
func (h *Handler) idempotent(ctx context.Context, scope, key string, body []byte, do func() outcome) outcome {
	fp := fingerprint(body)
	claim := time.Now()
	state, stored, err := h.DB.ClaimIdempotencyKey(ctx, scope, key, fp, claim)
	if err != nil {
		h.release(context.WithoutCancel(ctx), scope, key, claim)
		h.Log.ErrorContext(ctx, "acp: claim idempotency key", "error", err)
		return errOutcome(errProcessing())
	}
	switch state {
	case db.IdemReplay:
		hdr := http.Header{}
		for k, v := range stored.Headers {
			hdr.Set(k, v)
		}
		return outcome{status: stored.Status, body: stored.Body, header: hdr, replayed: true}
	case db.IdemMismatch:
		return errOutcome(errConflict())
	case db.IdemInFlight:
		return errOutcome(errInFlight())
	}
	finished := false
	var out outcome
	defer func() {
		ctx := context.WithoutCancel(ctx)
		if !finished || out.status >= 500 {
			h.release(ctx, scope, key, claim)
			return
		}
		resp := db.StoredResponse{Status: out.status, Body: out.body, Headers: map[string]string{"Content-Type": "application/json"}}
		for k := range out.header {
			resp.Headers[k] = out.header.Get(k)
		}
		if err := h.DB.FinishIdempotencyKey(ctx, scope, key, resp); err != nil {
			h.Log.ErrorContext(ctx, "acp: store idempotent response", "error", err)
		}
	}()
	out = do()
	finished = true
	return out
}

func (h *Handler) release(ctx context.Context, scope, key string, claim time.Time) {
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := h.DB.ReleaseIdempotencyKey(rctx, scope, key, claim); err != nil {
		h.Log.ErrorContext(ctx, "acp: release idempotency key", "error", err)
	}
}

// perform runs the use case and encodes the session.
func (h *Handler) perform(ctx context.Context, c call) outcome {
	s, err := c.op.run(ctx, h.Backend, c.p, c.id, c.body)
	if err != nil {
		e := fromErr(err, c.op)
		if e.status >= 500 {
			h.Log.ErrorContext(ctx, "acp: operation failed", "operation", string(c.op.name), "error", err)
		}
		return errOutcome(e)
	}
	b, err := json.Marshal(sessionJSON(s, h.BaseURL+"/docs/acp"))
	if err != nil {
		h.Log.ErrorContext(ctx, "acp: encode session", "error", err)
		return errOutcome(errProcessing())
	}
	return outcome{status: c.op.status, body: b}
}

// fingerprint is the SHA-256 of the body's canonical JSON: members sorted,
// numbers in one form, insignificant space dropped (ACP §6.2: key order and
// 1.0 vs 1 do not make a different request; null vs absent and array
// order do). A body that is not JSON is fingerprinted as its bytes.
func fingerprint(body []byte) []byte {
	h := sha256.New()
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return h.Sum(nil)
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		h.Write([]byte("raw\n"))
		h.Write(body)
		return h.Sum(nil)
	}
	canon, err := json.Marshal(canonical(v))
	if err != nil {
		h.Write(body)
		return h.Sum(nil)
	}
	h.Write(canon)
	return h.Sum(nil)
}

// canonical rewrites numbers to one form (maps are marshaled with sorted
// keys already).
func canonical(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = canonical(x)
		}
		return t
	case []any:
		for i, x := range t {
			t[i] = canonical(x)
		}
		return t
	case json.Number:
		if f, err := strconv.ParseFloat(string(t), 64); err == nil {
			return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
		}
		return t
	}
	return v
}

func validKey(k string) bool {
	if len(k) < 1 || len(k) > 255 {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < 0x20 || k[i] > 0x7e {
			return false
		}
	}
	return true
}
