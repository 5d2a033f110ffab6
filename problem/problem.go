// Package problem is the service's error vocabulary: one typed problem with a
// code from the contract, and the single table that maps a code to its HTTP
// status and title. REST renders a Problem as RFC 9457 problem+json; GraphQL
// renders the same code under extensions.
package problem

import (
	"errors"
	"fmt"
	"net/http"
	"sort"
)

// Code is a machine-readable error code clients branch on.
type Code string

// The codes of the spec and the contract.
const (
	InvalidRequest               Code = "invalid_request"
	AuthenticationError          Code = "authentication_error"
	PermissionDenied             Code = "permission_denied"
	NotFound                     Code = "not_found"
	MethodNotAllowed             Code = "method_not_allowed"
	NotInDraft                   Code = "not_in_draft"
	PublishFailed                Code = "publish_failed"
	InvalidTransition            Code = "invalid_transition"
	Conflict                     Code = "conflict"
	IdempotencyRequestInProgress Code = "idempotency_request_in_progress"
	FileTooLarge                 Code = "file_too_large"
	RefundNotAllowed             Code = "refund_not_allowed"
	MissingPaymentIntent         Code = "missing_payment_intent"
	MissingProcessorConnection   Code = "missing_processor_connection"
	ValidationError              Code = "validation_error"
	IdempotencyKeyReuse          Code = "idempotency_key_reuse"
	RateLimited                  Code = "rate_limited"
	InvalidSession               Code = "invalid_session"
	InvalidPasscode              Code = "invalid_passcode"
	ActivationLimitReached       Code = "activation_limit_reached"
	LicenseInactive              Code = "license_inactive"
	InternalError                Code = "internal_error"
)

type codeInfo struct {
	status int
	title  string
	about  string
}

// table is the one code → status/title mapping of the service.
var table = map[Code]codeInfo{
	InvalidRequest:               {http.StatusBadRequest, "Invalid request", "The request is malformed: its JSON, body, query or a header could not be read."},
	InvalidSession:               {http.StatusBadRequest, "Invalid session", "The bootstrap session is unknown, expired, already used, or not verified yet."},
	InvalidPasscode:              {http.StatusBadRequest, "Invalid passcode", "The passcode does not match; attempts_remaining says how many tries are left."},
	AuthenticationError:          {http.StatusUnauthorized, "Authentication required", "The API key is missing, malformed, expired, revoked or unknown. Send Authorization: Bearer svc_…"},
	PermissionDenied:             {http.StatusForbidden, "Permission denied", "The API key's scope does not allow this call (a read_only key may only use GET)."},
	NotFound:                     {http.StatusNotFound, "Not found", "The resource or route does not exist, or belongs to another account."},
	MethodNotAllowed:             {http.StatusMethodNotAllowed, "Method not allowed", "The route exists but does not accept this HTTP method; the Allow header lists the ones it does."},
	NotInDraft:                   {http.StatusConflict, "Listing not in draft", "The change is only allowed while the listing is a draft."},
	PublishFailed:                {http.StatusConflict, "Publish failed", "The listing cannot be published yet; actions lists what to do first."},
	InvalidTransition:            {http.StatusConflict, "Invalid transition", "The order is not in a status that allows this operation."},
	Conflict:                     {http.StatusConflict, "Conflict", "A constraint would be violated, such as the maximum number of deliverables."},
	IdempotencyRequestInProgress: {http.StatusConflict, "Idempotent request in progress", "Another request with this Idempotency-Key is still being processed; retry shortly."},
	ActivationLimitReached:       {http.StatusConflict, "Activation limit reached", "The license key is active on as many devices as it allows; current_count and max_count say how many, and manage_url is where the buyer deactivates one."},
	LicenseInactive:              {http.StatusConflict, "License inactive", "The license key is disabled, revoked or expired (current_status says which), so it cannot be activated."},
	FileTooLarge:                 {http.StatusRequestEntityTooLarge, "File too large", "The upload exceeds the limit for its purpose; max_bytes gives the limit."},
	RefundNotAllowed:             {http.StatusUnprocessableEntity, "Refund not allowed", "The order cannot be refunded in its current status."},
	MissingPaymentIntent:         {http.StatusUnprocessableEntity, "Missing payment", "The order has no payment to refund."},
	MissingProcessorConnection:   {http.StatusUnprocessableEntity, "Processor not connected", "The seller's payment processor account is disconnected."},
	ValidationError:              {http.StatusUnprocessableEntity, "Validation failed", "A field failed validation; param names it and errors lists every failed field."},
	IdempotencyKeyReuse:          {http.StatusUnprocessableEntity, "Idempotency key reused", "The Idempotency-Key was already used with a different request."},
	RateLimited:                  {http.StatusTooManyRequests, "Too many requests", "The rate limit for this group was reached; retry after retry_after seconds."},
	InternalError:                {http.StatusInternalServerError, "Internal error", "Something unexpected went wrong on our side. The correlation id identifies it in our logs."},
}

// Status returns the HTTP status of a code (500 for an unknown code).
func (c Code) Status() int {
	if i, ok := table[c]; ok {
		return i.status
	}
	return http.StatusInternalServerError
}

// Title returns the fixed label of a code.
func (c Code) Title() string {
	if i, ok := table[c]; ok {
		return i.title
	}
	return table[InternalError].title
}

// About returns a one-paragraph human explanation of a code.
func (c Code) About() string { return table[c].about }

// Known reports whether c is a code of the vocabulary.
func (c Code) Known() bool { _, ok := table[c]; return ok }

// Codes returns every known code, sorted.
func Codes() []Code {
	out := make([]Code, 0, len(table))
	for c := range table {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// FieldError is one failed field of a validation_error.
type FieldError struct {
	Param  string `json:"param"`
	Detail string `json:"detail"`
}

// Problem is a domain failure with a code from the contract. It is an error.
type Problem struct {
	Code   Code
	Detail string
	Param  string
	// Ext holds the code's extension members (current_status, retry_after, …).
	Ext map[string]any
	// Errors lists every failed field of a validation_error.
	Errors []FieldError
	// Header carries response headers the problem implies (Retry-After, Allow).
	Header http.Header
}

func (p *Problem) Error() string {
	if p.Param != "" {
		return fmt.Sprintf("%s: %s (%s)", p.Code, p.Detail, p.Param)
	}
	return fmt.Sprintf("%s: %s", p.Code, p.Detail)
}

// Status is the HTTP status of the problem's code.
func (p *Problem) Status() int { return p.Code.Status() }

// With adds an extension member and returns p.
func (p *Problem) With(key string, value any) *Problem {
	if p.Ext == nil {
		p.Ext = map[string]any{}
	}
	p.Ext[key] = value
	return p
}

// New returns a problem with a code and a detail.
func New(code Code, detail string) *Problem { return &Problem{Code: code, Detail: detail} }

// Newf is New with a format.
func Newf(code Code, format string, args ...any) *Problem {
	return &Problem{Code: code, Detail: fmt.Sprintf(format, args...)}
}

// Validation returns a validation_error naming one field.
func Validation(param, detail string) *Problem {
	return &Problem{Code: ValidationError, Param: param, Detail: detail,
		Errors: []FieldError{{Param: param, Detail: detail}}}
}

// NotFoundf returns a not_found problem.
func NotFoundf(format string, args ...any) *Problem { return Newf(NotFound, format, args...) }

// Internal is the problem shown for anything unexpected; it never carries internals.
func Internal() *Problem {
	return New(InternalError, "An unexpected error occurred. Quote the correlation id when you contact support.")
}

// From returns the Problem in err's chain, or nil when err is not a domain failure.
func From(err error) *Problem {
	var p *Problem
	if errors.As(err, &p) {
		return p
	}
	return nil
}

// Fields accumulates field errors and produces one validation_error listing all of them.
type Fields struct{ list []FieldError }

// Add records a failed field.
func (f *Fields) Add(param, detail string) { f.list = append(f.list, FieldError{param, detail}) }

// Addf records a failed field with a formatted detail.
func (f *Fields) Addf(param, format string, args ...any) { f.Add(param, fmt.Sprintf(format, args...)) }

// Empty reports whether no field failed.
func (f *Fields) Empty() bool { return len(f.list) == 0 }

// Err returns nil when no field failed, else a validation_error whose param
// names the first failed field and whose errors list all of them.
func (f *Fields) Err() error {
	if len(f.list) == 0 {
		return nil
	}
	first := f.list[0]
	detail := first.Detail
	if len(f.list) > 1 {
		detail = fmt.Sprintf("%s (and %d more invalid fields)", first.Detail, len(f.list)-1)
	}
	return &Problem{Code: ValidationError, Param: first.Param, Detail: detail, Errors: append([]FieldError(nil), f.list...)}
}
