package resolvers

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"time"

	"commerce/db"
	"commerce/emailpolicy"
	"commerce/graph/model"
	"commerce/mail"
	"commerce/problem"
	"commerce/ratelimit"
)

// The bootstrap flow (spec "Bootstrap", CONTRACT §6): an email one-time
// passcode creates or finds the account, then the store, with a new API key.
const (
	passcodeLife      = 10 * time.Minute
	sessionLife       = 30 * time.Minute
	maxWrongPasscodes = 5
)

// Bootstrap session states.
const (
	sessionPending   = "pending"
	sessionVerified  = "verified"
	sessionCompleted = "completed"
	sessionDead      = "dead"
)

// passcodeHash binds a passcode to its session: equal codes of two sessions
// hash differently.
func passcodeHash(sessionID, code string) []byte {
	h := sha256.Sum256([]byte(sessionID + ":" + code))
	return h[:]
}

// newPasscode is 6 uniformly random digits.
func newPasscode() string {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return fmt.Sprintf("%06d", n.Int64())
}

// rateLimitProblem is the 429 of a refused check.
func rateLimitProblem(res ratelimit.Result, what string) *problem.Problem {
	retry := int(math.Ceil(res.RetryAfter.Seconds()))
	if retry < 1 {
		retry = 1
	}
	return problem.Newf(problem.RateLimited, "%s Retry in %d s.", what, retry).With("retry_after", retry)
}

// StartBootstrap is step 1: it emails a passcode to a new session.
// Errors: validation_error (email: malformed, disposable or blocked domain),
// rate_limited (5 passcodes per email and 20 per client IP an hour).
func (r *Resolver) StartBootstrap(ctx context.Context, in model.BootstrapInput, clientIP string) (*model.BootstrapSession, error) {
	email, err := NormalizeEmail(in.Email)
	if err != nil {
		return nil, err
	}
	domain := email[strings.LastIndexByte(email, '@')+1:]
	switch emailpolicy.Check(domain) {
	case emailpolicy.Disposable:
		return nil, problem.Validation("email", "Disposable email addresses cannot open an account; use a permanent address.")
	case emailpolicy.Blocked:
		return nil, problem.Validation("email", "Email addresses at this domain cannot open an account.")
	}
	if err := r.limit(ctx, "bootstrap_ip", "ip:"+clientIP, "Too many passcodes requested from this address."); err != nil {
		return nil, err
	}
	if err := r.limit(ctx, "bootstrap_email", "email:"+strings.ToLower(email), "Too many passcodes requested for this email address."); err != nil {
		return nil, err
	}
	now := r.Now()
	code := newPasscode()
	s := &db.BootstrapSession{ID: db.NewID("bss"), Email: email, ClientIP: clientIP,
		PasscodeExpiresAt: now.Add(passcodeLife), ExpiresAt: now.Add(sessionLife), Status: sessionPending}
	s.PasscodeHash = passcodeHash(s.ID, code)
	msg, err := mail.Passcode(email, code, passcodeLife)
	if err != nil {
		return nil, err
	}
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		if _, err := tx.NewInsert().Model(s).Exec(ctx); err != nil {
			return fmt.Errorf("insert bootstrap session: %w", err)
		}
		_, err := r.Mail.Send(ctx, tx, msg)
		return err
	})
	if err != nil {
		return nil, err
	}
	return toSessionModel(s), nil
}

// limit checks a rate-limit group for a subject; a Redis failure allows the
// request (fail open, as the route limits do) and is logged.
func (r *Resolver) limit(ctx context.Context, group, subject, what string) error {
	if r.Limiter == nil {
		return nil
	}
	res, err := r.Limiter.Allow(ctx, group, subject)
	if err != nil {
		if !errors.Is(err, ratelimit.ErrUnavailable) {
			r.Log.ErrorContext(ctx, "rate limit check failed; allowing", "group", group, "error", err)
		}
		return nil
	}
	reportLimit(ctx, res)
	if !res.Allowed {
		r.limitRefused(group)
		return rateLimitProblem(res, what)
	}
	return nil
}

// limitRefused counts a refusal of group (LimitRefused).
func (r *Resolver) limitRefused(group string) {
	if r.LimitRefused != nil {
		r.LimitRefused(group)
	}
}

func toSessionModel(s *db.BootstrapSession) *model.BootstrapSession {
	m := &model.BootstrapSession{Object: "bootstrap_session", SessionID: s.ID, Email: s.Email,
		Status: model.BootstrapStatus(s.Status), ExpiresAt: s.ExpiresAt.UTC()}
	if s.Status == sessionVerified || s.Status == sessionCompleted {
		m.AccountID = s.AccountID
		created := s.AccountCreated
		m.AccountCreated = &created
	}
	return m
}

var errInvalidSession = problem.New(problem.InvalidSession,
	"The bootstrap session is unknown, expired or already used; start again with POST /v1/bootstrap.")

// lockSession loads a session for update. Errors: invalid_session when it is
// unknown or expired.
func (r *Resolver) lockSession(ctx context.Context, tx db.Tx, id string) (*db.BootstrapSession, error) {
	if !db.ValidID("bss", id) {
		return nil, errInvalidSession
	}
	s := new(db.BootstrapSession)
	err := tx.NewSelect().Model(s).Where("id = ?", id).For("UPDATE").Scan(ctx)
	if err := db.NotFound(err); errors.Is(err, db.ErrNotFound) {
		return nil, errInvalidSession
	} else if err != nil {
		return nil, err
	}
	if !r.stillValid(s.ExpiresAt) {
		return nil, errInvalidSession
	}
	return s, nil
}

// VerifyBootstrap is step 2: a correct passcode verifies the session and
// creates the account when the email is new. Errors: validation_error
// (session_id, code), invalid_session, invalid_passcode (attempts_remaining),
// rate_limited (the session died after 5 wrong passcodes).
func (r *Resolver) VerifyBootstrap(ctx context.Context, in model.BootstrapVerifyInput) (*model.BootstrapSession, error) {
	var f problem.Fields
	if in.SessionID == "" {
		f.Add("session_id", "session_id is required")
	}
	code := strings.TrimSpace(in.Code)
	if len(code) != 6 || strings.Trim(code, "0123456789") != "" {
		f.Add("code", "code must be the 6 digits of the emailed passcode")
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	var (
		out   *model.BootstrapSession
		wrong *problem.Problem // committed, then returned
	)
	err := r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		s, err := r.lockSession(ctx, tx, in.SessionID)
		if err != nil {
			return err
		}
		switch {
		case s.Status == sessionDead || s.FailedAttempts >= maxWrongPasscodes:
			retry := int(math.Ceil(s.ExpiresAt.Sub(r.Now()).Seconds()))
			return problem.Newf(problem.RateLimited, "Too many wrong passcodes: this session is closed. Start again with POST /v1/bootstrap.").
				With("retry_after", max(retry, 1))
		case s.Status != sessionPending:
			return errInvalidSession
		case !r.stillValid(s.PasscodeExpiresAt):
			return problem.New(problem.InvalidSession, "The passcode has expired; request a new one with POST /v1/bootstrap.")
		}
		if subtle.ConstantTimeCompare(passcodeHash(s.ID, code), s.PasscodeHash) != 1 {
			s.FailedAttempts++
			q := tx.NewUpdate().Model(s).Column("failed_attempts", "status").WherePK()
			if s.FailedAttempts >= maxWrongPasscodes {
				s.Status = sessionDead
			}
			if _, err := q.Exec(ctx); err != nil {
				return err
			}
			wrong = problem.New(problem.InvalidPasscode, "The passcode is wrong.").
				With("attempts_remaining", maxWrongPasscodes-s.FailedAttempts)
			wrong.Param = "code"
			return nil
		}
		acc, err := db.AccountByEmail(ctx, tx, s.Email)
		switch {
		case errors.Is(err, db.ErrNotFound):
			acc = &db.Account{ID: db.NewID("acc"), Email: s.Email, Plan: "free", BillingStatus: "active", NotifyOrders: true, NotifyWebhooks: true}
			if _, err := tx.NewInsert().Model(acc).Returning("*").Exec(ctx); err != nil {
				return fmt.Errorf("insert account: %w", err)
			}
			s.AccountCreated = true
		case err != nil:
			return err
		}
		now := r.Now()
		s.AccountID, s.Status, s.VerifiedAt = &acc.ID, sessionVerified, &now
		if _, err := tx.NewUpdate().Model(s).Column("account_id", "account_created", "status", "verified_at").WherePK().Exec(ctx); err != nil {
			return err
		}
		out = toSessionModel(s)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if wrong != nil {
		return nil, wrong
	}
	return out, nil
}

// CompleteBootstrap is step 3: on a verified session it creates the store of
// a new account (or returns the existing store unchanged) and issues a new
// API key, shown once. A session completes once. Errors: validation_error
// (display_name, slug), invalid_session.
func (r *Resolver) CompleteBootstrap(ctx context.Context, in model.BootstrapStoreInput) (*model.BootstrappedStore, error) {
	var f problem.Fields
	name := displayNameOf(&f, "display_name", in.DisplayName)
	var wantSlug string
	if in.Slug != nil {
		wantSlug = slugOf(&f, *in.Slug)
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	var out *model.BootstrappedStore
	err := r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		s, err := r.lockSession(ctx, tx, in.SessionID)
		if err != nil {
			return err
		}
		if s.Status != sessionVerified || s.AccountID == nil {
			return problem.New(problem.InvalidSession, "The bootstrap session is not verified, or was already completed.")
		}
		acc := new(db.Account)
		if err := tx.NewSelect().Model(acc).Where("id = ?", *s.AccountID).Where("deleted_at IS NULL").For("UPDATE").Scan(ctx); err != nil {
			if errors.Is(db.NotFound(err), db.ErrNotFound) {
				return errInvalidSession
			}
			return err
		}
		if acc.Slug == nil { // no store yet: create it
			slug, err := claimSlug(ctx, tx, "accounts", acc.ID, wantSlug, name, "store")
			if err != nil {
				return err
			}
			acc.Slug, acc.DisplayName = &slug, &name
			if _, err := tx.NewUpdate().Model(acc).Column("slug", "display_name").Set("updated_at = now()").WherePK().Exec(ctx); err != nil {
				return err
			}
		}
		key, err := r.insertKey(ctx, tx, acc.ID, model.CreateAPIKeyInput{Name: "bootstrap"})
		if err != nil {
			return err
		}
		now := r.Now()
		s.Status, s.CompletedAt = sessionCompleted, &now
		if _, err := tx.NewUpdate().Model(s).Column("status", "completed_at").WherePK().Exec(ctx); err != nil {
			return err
		}
		out = &model.BootstrappedStore{Store: *r.toStoreModel(acc, accountExtras{}), APIKey: key.Key}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// The readiness of a just-created store is the account's: read it whole.
	if st, err := r.storeOf(ctx, out.ID); err == nil {
		out.Store = *st
	}
	return out, nil
}

func (r *Resolver) storeOf(ctx context.Context, accountID string) (*model.Store, error) {
	a, ex, err := r.loadAccount(ctx, accountID)
	if err != nil {
		return nil, err
	}
	return r.toStoreModel(a, ex), nil
}
