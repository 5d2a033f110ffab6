package ratelimit

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

//go:embed window.lua
var windowLua string

var windowScript = redis.NewScript(windowLua)

// Result is the outcome of one check.
type Result struct {
	Allowed bool
	// Limit is the limit of the binding rule (the one closest to refusing).
	Limit int
	// Remaining is how many more requests the binding rule allows now.
	Remaining int
	// Reset is the time until the binding rule's oldest request leaves its window.
	Reset time.Duration
	// RetryAfter is, when refused, the time until a request would be allowed.
	RetryAfter time.Duration
}

// Limiter checks requests against rolling windows kept in Redis.
type Limiter struct {
	client redis.UniversalClient
	prefix string
	scale  int
	seq    atomic.Uint64
	node   string
	// downUntil (unix ns) short-circuits checks for a moment after Redis
	// failed, so that requests fail open at once instead of each waiting
	// for a dial timeout.
	downUntil atomic.Int64
}

// ErrUnavailable is returned (wrapped) while checks are skipped because
// Redis failed a moment ago; the request is allowed.
var ErrUnavailable = errors.New("ratelimit: redis unavailable, failing open")

// backoff is how long checks are skipped after a Redis failure.
const backoff = time.Second

// Option configures a Limiter.
type Option func(*Limiter)

// Scale multiplies every limit by n (benchmarks run with a large n so the
// check is paid but never refuses).
func Scale(n int) Option {
	return func(l *Limiter) {
		if n > 0 {
			l.scale = n
		}
	}
}

// New returns a Limiter on client; prefix namespaces its keys.
func New(client redis.UniversalClient, prefix string, opts ...Option) *Limiter {
	var b [6]byte
	_, _ = rand.Read(b[:])
	l := &Limiter{client: client, prefix: prefix, scale: 1, node: hex.EncodeToString(b[:])}
	for _, o := range opts {
		o(l)
	}
	return l
}

// Allow records one request of subject in the named group of Groups and
// reports whether it is allowed. A refused request is not recorded, so it
// does not extend the window. When Redis fails, Allow returns an allowing
// Result together with the error: callers fail open and report the error.
// An unknown group is an error (and allowed likewise).
func (l *Limiter) Allow(ctx context.Context, group, subject string) (Result, error) {
	g, ok := Groups[group]
	if !ok {
		return Result{Allowed: true}, fmt.Errorf("ratelimit: unknown group %q", group)
	}
	return l.Check(ctx, g, subject)
}

// Check is Allow for an ad-hoc group that need not be in the table. The
// group's Name scopes its keys. A group without rules, or with a rule whose
// Limit is below 1 or whose Window is below a millisecond, is an error
// (allowed, like every error).
func (l *Limiter) Check(ctx context.Context, g Group, subject string) (Result, error) {
	keys, args, err := l.prepare(g, subject)
	if err != nil {
		return Result{Allowed: true}, err
	}
	if time.Now().UnixNano() < l.downUntil.Load() {
		return Result{Allowed: true}, ErrUnavailable
	}
	res, err := windowScript.Run(ctx, l.client, keys, args...).Int64Slice()
	return l.result(ctx, g, res, err)
}

// prepare returns the keys and arguments of the window script for one
// request of subject in g, or an error when g is not a valid group.
func (l *Limiter) prepare(g Group, subject string) ([]string, []any, error) {
	if len(g.Rules) == 0 {
		return nil, nil, fmt.Errorf("ratelimit: group %q has no rules", g.Name)
	}
	for _, r := range g.Rules {
		if r.Limit < 1 || r.Window < time.Millisecond {
			return nil, nil, fmt.Errorf("ratelimit: group %q: invalid rule %d per %v", g.Name, r.Limit, r.Window)
		}
	}
	keys := make([]string, len(g.Rules))
	args := make([]any, 1, 1+2*len(g.Rules))
	// The member only has to be unique: this process's id and a counter.
	args[0] = l.node + ":" + strconv.FormatUint(l.seq.Add(1), 36)
	for i, r := range g.Rules {
		// The hash tag keeps every rule of one subject in one Redis Cluster slot.
		keys[i] = l.prefix + "rl:{" + g.Name + ":" + subject + "}:" + strconv.Itoa(i)
		args = append(args, r.Limit*l.scale, r.Window.Milliseconds())
	}
	return keys, args, nil
}

// result turns the window script's reply (or error) into a Result; an
// error allows the request.
func (l *Limiter) result(ctx context.Context, g Group, res []int64, err error) (Result, error) {
	if err != nil {
		l.failed(ctx, err)
		return Result{Allowed: true}, fmt.Errorf("ratelimit: %w", err)
	}
	if len(res) != 5 || res[1] < 1 || int(res[1]) > len(g.Rules) {
		return Result{Allowed: true}, fmt.Errorf("ratelimit: unexpected reply %v", res)
	}
	return Result{
		Allowed:    res[0] == 1,
		Limit:      g.Rules[res[1]-1].Limit * l.scale,
		Remaining:  int(res[2]),
		Reset:      time.Duration(res[3]) * time.Millisecond,
		RetryAfter: time.Duration(res[4]) * time.Millisecond,
	}, nil
}

// failed starts the back-off after err, but only when Redis itself failed:
// not when it answered with an error, nor when the caller's context ended (a
// client hanging up must not switch limiting off for everyone).
func (l *Limiter) failed(ctx context.Context, err error) {
	if !isScriptError(err) && ctx.Err() == nil {
		l.downUntil.Store(time.Now().Add(backoff).UnixNano())
	}
}

// isScriptError reports whether Redis answered with an error (the server is
// up), as opposed to a connection failure or timeout.
func isScriptError(err error) bool {
	var re redis.Error
	return errors.As(err, &re)
}

// Ping reports whether Redis answers.
func (l *Limiter) Ping(ctx context.Context) error { return l.client.Ping(ctx).Err() }

//go:embed budget.lua
var budgetLua string

var budgetScript = redis.NewScript(budgetLua)

// Spend consumes cost units of subject's budget name: a rolling window in
// which each spend counts its cost, at most rule.Limit units per
// rule.Window (both scaled like every limit). A spend that does not fit is
// refused and not recorded; RetryAfter is then the time until it would fit.
// One Redis round trip. Errors are handled as in Check (allowed, with the
// error). A cost of 0 (or below) only reads the budget; a cost above the
// limit never fits.
func (l *Limiter) Spend(ctx context.Context, name, subject string, cost int, rule Rule) (Result, error) {
	r := l.Run(ctx, Batch{Spend: &Spending{Name: name, Subject: subject, Cost: cost, Rule: rule}})
	return r.Spend, r.SpendErr
}
