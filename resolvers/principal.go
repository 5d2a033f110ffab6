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

// Principal is the authenticated caller: an API key and its account.
type Principal struct {
	AccountID string
	KeyID     string
	Scope     string
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
