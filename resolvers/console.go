package resolvers

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"commerce/db"
	"commerce/graph/model"
	"commerce/problem"
)

// Console sessions (CONTRACT §15): the developer console signs in with a
// verified bootstrap session (the email passcode of StartBootstrap and
// VerifyBootstrap) and is then authenticated by the commerce_session cookie,
// acting with the full scope on its account. Only a SHA-256 of the cookie's
// token is stored. Sessions are not kept in memory: every request reads its
// session's row (one indexed query), so a sign-out or an account deletion
// holds at once on every process, with no revocation marker.
//
// The use cases stay transport-neutral: they hand the token to the
// SessionSink the transport installed (WithSessionSink), and the transport
// turns it into a cookie.
const (
	// ConsoleSessionLife is how long a console session lasts.
	ConsoleSessionLife = 30 * 24 * time.Hour
	// sessionTokenBytes of crypto/rand make a token (43 base64url characters).
	sessionTokenBytes = 32
)

// SessionSink receives the console session a use case opened or ended;
// the GraphQL handler installs one that sets or clears the cookie.
type SessionSink interface {
	// SessionOpened is called with the new session's token (the cookie's value).
	SessionOpened(token string, expiresAt time.Time)
	// SessionEnded is called when the request's session was revoked.
	SessionEnded()
}

type sessionSinkKey struct{}

// WithSessionSink returns ctx carrying the transport's session sink.
func WithSessionSink(ctx context.Context, s SessionSink) context.Context {
	return context.WithValue(ctx, sessionSinkKey{}, s)
}

func sessionSinkFrom(ctx context.Context) SessionSink {
	s, _ := ctx.Value(sessionSinkKey{}).(SessionSink)
	return s
}

func newSessionToken() string {
	b := make([]byte, sessionTokenBytes)
	_, _ = rand.Read(b) // crypto/rand does not fail on supported platforms
	return base64.RawURLEncoding.EncodeToString(b)
}

func wellFormedSessionToken(t string) bool {
	if len(t) != base64.RawURLEncoding.EncodedLen(sessionTokenBytes) {
		return false
	}
	_, err := base64.RawURLEncoding.DecodeString(t)
	return err == nil
}

// SignIn turns a verified bootstrap session (verified, or completed by
// CompleteBootstrap at sign-up) into a console session of its account,
// lasting ConsoleSessionLife; a bootstrap session signs in once. The token
// goes to the request's SessionSink. Errors: validation_error (session_id),
// invalid_session (unknown, expired, not verified, already used, or its
// account deleted), permission_denied (no transport that can keep a session:
// only POST /graphql from the service's own origin can).
func (r *Resolver) SignIn(ctx context.Context, in model.SignInInput) (*model.ConsoleSession, error) {
	sink := sessionSinkFrom(ctx)
	if sink == nil {
		return nil, problem.New(problem.PermissionDenied,
			"signIn is the developer console's: call it with POST /graphql from the service's own origin, which keeps the session in the commerce_session cookie.")
	}
	if in.SessionID == "" {
		return nil, problem.Validation("session_id", "session_id is required: the verified bootstrap session (bss_…)")
	}
	token := newSessionToken()
	h := sha256.Sum256([]byte(token))
	now := r.Now()
	cs := &db.ConsoleSession{ID: db.NewID("cs"), TokenHash: h[:], ExpiresAt: now.Add(ConsoleSessionLife).UTC().Truncate(time.Second)}
	err := r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		s, err := r.lockSession(ctx, tx, in.SessionID)
		if err != nil {
			return err
		}
		if (s.Status != sessionVerified && s.Status != sessionCompleted) || s.AccountID == nil {
			return problem.New(problem.InvalidSession, "The bootstrap session is not verified: check the emailed passcode with verifyBootstrap first.")
		}
		used, err := tx.NewSelect().Model((*db.ConsoleSession)(nil)).Where("bootstrap_session_id = ?", s.ID).Exists(ctx)
		if err != nil {
			return err
		}
		if used {
			return problem.New(problem.InvalidSession, "The bootstrap session was already used to sign in; start again with startBootstrap.")
		}
		live, err := tx.NewSelect().Model((*db.Account)(nil)).Where("id = ?", *s.AccountID).Where("deleted_at IS NULL").Exists(ctx)
		if err != nil {
			return err
		}
		if !live {
			return errInvalidSession
		}
		cs.AccountID, cs.BootstrapSessionID = *s.AccountID, s.ID
		if _, err := tx.NewInsert().Model(cs).Exec(ctx); err != nil {
			if db.IsUniqueViolation(err, "console_sessions_bootstrap_key") {
				return problem.New(problem.InvalidSession, "The bootstrap session was already used to sign in; start again with startBootstrap.")
			}
			return fmt.Errorf("insert console session: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	a, ex, err := r.loadAccount(ctx, cs.AccountID)
	if err != nil {
		return nil, err
	}
	sink.SessionOpened(token, cs.ExpiresAt)
	return &model.ConsoleSession{ExpiresAt: cs.ExpiresAt, Account: r.toAccountModel(a, ex)}, nil
}

// sessionAuthQuery finds a console session by its token's hash, with its
// live account.
const sessionAuthQuery = `
SELECT s.id, s.account_id, s.expires_at, s.revoked_at
FROM console_sessions s
JOIN accounts a ON a.id = s.account_id AND a.deleted_at IS NULL
WHERE s.token_hash = $1`

// AuthenticateSession resolves a commerce_session cookie's token to its
// caller: the session, acting with the full scope on its account. It reads
// the database every time (no cache), so a revocation is seen at once.
// Errors: authentication_error when the token is malformed, unknown,
// revoked (signed out), expired, or its account deleted.
func (r *Resolver) AuthenticateSession(ctx context.Context, token string) (Principal, error) {
	if !wellFormedSessionToken(token) {
		return Principal{}, problem.New(problem.AuthenticationError, "The console session cookie is malformed; sign in again.")
	}
	h := sha256.Sum256([]byte(token))
	p := Principal{Scope: ScopeFull}
	var (
		expiresAt time.Time
		revokedAt *time.Time
	)
	err := r.DB.Pool.QueryRow(ctx, sessionAuthQuery, h[:]).Scan(&p.SessionID, &p.AccountID, &expiresAt, &revokedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return Principal{}, problem.New(problem.AuthenticationError, "The console session is not valid; sign in again.")
	}
	if err != nil {
		return Principal{}, fmt.Errorf("console session: %w", err)
	}
	if revokedAt != nil {
		return Principal{}, problem.New(problem.AuthenticationError, "The console session was signed out; sign in again.")
	}
	if !r.stillValid(expiresAt) {
		return Principal{}, problem.New(problem.AuthenticationError, "The console session has expired; sign in again.")
	}
	return p, nil
}

// SignOut revokes the console session of the request at once (every
// process refuses it from its next request) and tells the SessionSink, which
// clears the cookie. Errors: authentication_error (no session), invalid_request
// (the request is authenticated by an API key, not a console session).
func (r *Resolver) SignOut(ctx context.Context) (bool, error) {
	p, err := caller(ctx)
	if err != nil {
		return false, err
	}
	if p.SessionID == "" {
		return false, problem.New(problem.InvalidRequest,
			"signOut ends a console session; this request is authenticated by an API key (revoke it with selfRevokeApiKey).")
	}
	if err := r.endSession(ctx, p); err != nil {
		return false, err
	}
	return true, nil
}

// endSession revokes p's console session and tells the SessionSink.
func (r *Resolver) endSession(ctx context.Context, p Principal) error {
	if _, err := r.DB.NewUpdate().Model((*db.ConsoleSession)(nil)).Set("revoked_at = now()").
		Where("id = ?", p.SessionID).Where("revoked_at IS NULL").Exec(ctx); err != nil {
		return fmt.Errorf("revoke console session: %w", err)
	}
	if sink := sessionSinkFrom(ctx); sink != nil {
		sink.SessionEnded()
	}
	return nil
}

// SignIn is the console's `signIn` mutation.
func (x mutationResolver) SignIn(ctx context.Context, input model.SignInInput) (*model.ConsoleSession, error) {
	return x.Resolver.SignIn(ctx, input)
}

// SignOut is the console's `signOut` mutation.
func (x mutationResolver) SignOut(ctx context.Context) (*bool, error) {
	return done(x.Resolver.SignOut(ctx))
}
