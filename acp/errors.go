package acp

import (
	"errors"
	"net/http"
	"strconv"

	"commerce/problem"
)

// Error is ACP's flat error object (schema.agentic_checkout.json, Error):
// every refusal under /acp, on the wire and as an MCP tool's
// structuredContent. Never a problem document (CONTRACT §2).
type Error struct {
	Type              string   `json:"type"`
	Code              string   `json:"code"`
	Message           string   `json:"message"`
	Param             string   `json:"param,omitempty"`
	SupportedVersions []string `json:"supported_versions,omitempty"`

	status int
	header http.Header
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Status is the HTTP status the error is answered with.
func (e *Error) Status() int { return e.status }

func invalid(status int, code, msg string) *Error {
	return &Error{Type: "invalid_request", Code: code, Message: msg, status: status}
}

func (e *Error) at(param string) *Error { e.Param = param; return e }

func (e *Error) retryAfter(seconds int) *Error {
	if e.header == nil {
		e.header = http.Header{}
	}
	e.header.Set("Retry-After", strconv.Itoa(max(seconds, 1)))
	return e
}

// The errors of the protocol itself.
var (
	errUnauthorized = func() *Error {
		return invalid(http.StatusUnauthorized, "unauthorized",
			"Send the agent connection's token as Authorization: Bearer acp_…; the seller creates it in the console or with POST /v1/agent-connections.")
	}
	errKeyRequired = func() *Error {
		return invalid(http.StatusBadRequest, "idempotency_key_required", "Idempotency-Key header is required on all POST requests.")
	}
	errKeyInvalid = func() *Error {
		return invalid(http.StatusBadRequest, "invalid", "Idempotency-Key must be 1 to 255 printable ASCII characters.").at("Idempotency-Key")
	}
	errConflict = func() *Error {
		return invalid(http.StatusUnprocessableEntity, "idempotency_conflict", "Idempotency-Key has already been used with a different request body.")
	}
	errInFlight = func() *Error {
		return invalid(http.StatusConflict, "idempotency_in_flight", "A request with this Idempotency-Key is currently being processed; retry after Retry-After seconds.").retryAfter(1)
	}
	errProcessing = func() *Error {
		return &Error{Type: "processing_error", Code: "processing_error", Message: "An unexpected error occurred; retry the request with the same Idempotency-Key.", status: http.StatusInternalServerError}
	}
)

func errMissingVersion() *Error {
	e := invalid(http.StatusBadRequest, "missing_api_version", "Send the API-Version header (supported: "+Version+").")
	e.SupportedVersions = SupportedVersions
	return e
}

func errUnsupportedVersion(v string) *Error {
	e := invalid(http.StatusBadRequest, "unsupported_api_version", "API-Version "+strconv.Quote(v)+" is not supported (supported: "+Version+").")
	e.SupportedVersions = SupportedVersions
	return e
}

// fromErr maps a use case's error to ACP's error object. Typed problems
// keep their meaning; anything else is a 500 processing_error (5xx are
// never stored against an idempotency key).
//
//   - authentication_error: 401 unauthorized
//   - validation_error, invalid_request: 400 invalid_request, code
//     "invalid", with the problem's param (a JSONPath such as $.buyer.email)
//   - not_found: 404 code not_found
//   - rate_limited: 429 code rate_limited with Retry-After
//   - a state refusal (invalid_transition, conflict, method_not_allowed):
//     its own status, the code the use case names in the problem's
//     extension "acp_code" (else the problem's code); on cancel, 405 (a
//     second cancel, CONTRACT §25).
func fromErr(err error, op *operation) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	p := problem.From(err)
	if p == nil {
		return errProcessing()
	}
	code := string(p.Code)
	if c, ok := p.Ext["acp_code"].(string); ok && c != "" {
		code = c
	}
	switch p.Code {
	case problem.AuthenticationError:
		return errUnauthorized()
	case problem.ValidationError, problem.InvalidRequest:
		if _, ok := p.Ext["acp_code"]; !ok {
			code = "invalid"
		}
		return invalid(http.StatusBadRequest, code, p.Detail).at(p.Param)
	case problem.NotFound:
		return invalid(http.StatusNotFound, "not_found", p.Detail).at(p.Param)
	case problem.RateLimited:
		e := invalid(http.StatusTooManyRequests, "rate_limited", p.Detail)
		secs := 1
		if v, ok := p.Ext["retry_after"].(int); ok {
			secs = v
		}
		return e.retryAfter(secs)
	case problem.InvalidTransition, problem.Conflict, problem.MethodNotAllowed:
		status := p.Status()
		if op != nil && op.name == opCancel {
			status = http.StatusMethodNotAllowed
		}
		return invalid(status, code, p.Detail).at(p.Param)
	}
	if s := p.Status(); s >= 400 && s < 500 {
		return invalid(s, code, p.Detail).at(p.Param)
	}
	if p.Status() == http.StatusServiceUnavailable {
		return &Error{Type: "service_unavailable", Code: "service_unavailable", Message: p.Detail, status: http.StatusServiceUnavailable}
	}
	return errProcessing()
}
