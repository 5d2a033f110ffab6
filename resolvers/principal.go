package resolvers

import (
	"context"

	"commerce/problem"
)

// Scopes of an API key.
const (
	ScopeFull     = "full"
	ScopeReadOnly = "read_only"
)

// Principal is the authenticated caller: an API key and its account, or a
// developer console session (SessionID set, KeyID empty) acting with the
// full scope on its account.
type Principal struct {
	AccountID string
	KeyID     string
	// SessionID is the console session (cs_…) when the commerce_session
	// cookie authenticated the request.
	SessionID string
	Scope     string
}

// Credential is the id of what authenticated the caller: the API key's id,
// or the console session's.
func (p Principal) Credential() string {
	if p.KeyID == "" && p.SessionID != "" {
		return p.SessionID
	}
	return p.KeyID
}

// Subject is the caller's rate-limit subject: "key:<key id>", or
// "session:<session id>" for a console session.
func (p Principal) Subject() string {
	if p.KeyID == "" && p.SessionID != "" {
		return "session:" + p.SessionID
	}
	return "key:" + p.KeyID
}

// CanWrite reports whether the key may change things.
func (p Principal) CanWrite() bool { return p.Scope == ScopeFull }

type principalKey struct{}

// WithPrincipal returns ctx carrying the authenticated caller.
func WithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the caller of ctx, if authenticated.
func PrincipalFrom(ctx context.Context) (Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(Principal)
	return p, ok
}

// caller returns the authenticated caller or authentication_error.
func caller(ctx context.Context) (Principal, error) {
	p, ok := PrincipalFrom(ctx)
	if !ok {
		return Principal{}, problem.New(problem.AuthenticationError, "This operation needs an API key: send Authorization: Bearer svc_…")
	}
	return p, nil
}

// writer returns the caller when its key may change things: authentication_error
// without a key, permission_denied for a read_only key.
func writer(ctx context.Context) (Principal, error) {
	p, err := caller(ctx)
	if err != nil {
		return p, err
	}
	if !p.CanWrite() {
		return p, ReadOnlyProblem()
	}
	return p, nil
}

// ReadOnlyProblem is the permission_denied returned to a read_only key on a mutating call.
func ReadOnlyProblem() *problem.Problem {
	return problem.New(problem.PermissionDenied, "This API key is read_only; use a key with the full scope to change things.").
		With("required_scope", ScopeFull)
}

type clientIPKey struct{}

// WithClientIP records the request's client IP (the socket peer, or the
// X-Forwarded-For entry a trusted proxy gave) for the use cases that limit
// by it.
func WithClientIP(ctx context.Context, ip string) context.Context {
	return context.WithValue(ctx, clientIPKey{}, ip)
}

// ClientIPFrom returns the client IP WithClientIP recorded ("" if none).
func ClientIPFrom(ctx context.Context) string {
	s, _ := ctx.Value(clientIPKey{}).(string)
	return s
}
