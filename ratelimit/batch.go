package ratelimit

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Batch is what one request asks of Redis in a single round trip (Run): a
// key's revocation markers, a spend from a budget, and one request in each
// of several groups, in that order.
type Batch struct {
	// AccountID and KeyID name the key whose markers are read (KeyID ""
	// reads none).
	AccountID, KeyID string
	// Spend, when not nil, spends from a budget as Spend does.
	Spend *Spending
	// Checks records one request each, as Check does, in order: two
	// checks of one group and subject count two requests.
	Checks []Checking
}

// Spending is a spend of Cost from the budget Name of Subject under Rule.
type Spending struct {
	Name, Subject string
	Cost          int
	Rule          Rule
}

// Checking is one request of Subject in Group.
type Checking struct {
	Group   Group
	Subject string
}

// BatchResult is the outcome of Run. Every error is handled as Check's
// are: the result beside it allows.
type BatchResult struct {
	// Revoked and MarkerErr are as in KeyCheck.
	Revoked   bool
	MarkerErr error
	Spend     Result
	SpendErr  error
	Checks    []Result
	CheckErrs []error
	// recorded are the requests the checks added (for Undo).
	recorded []recorded
}

// recorded is one request a check added to its rules' windows.
type recorded struct {
	keys   []string
	member string
}

// Run does all of b in one Redis round trip (a pipeline; on a Redis
// Cluster, one per node). The scripts run in b's order, but not as one
// transaction: a spend that is refused does not stop the checks (Undo
// takes their requests back).
func (l *Limiter) Run(ctx context.Context, b Batch) BatchResult {
	out := BatchResult{Spend: Result{Allowed: true}, Checks: make([]Result, len(b.Checks)), CheckErrs: make([]error, len(b.Checks))}
	for i := range out.Checks {
		out.Checks[i].Allowed = true
	}
	type check struct {
		keys []string
		args []any
		cmd  *redis.Cmd
	}
	checks := make([]check, len(b.Checks))
	for i, c := range b.Checks {
		keys, args, err := l.prepare(c.Group, c.Subject)
		if err != nil {
			out.CheckErrs[i] = err
			continue
		}
		checks[i] = check{keys: keys, args: args}
	}
	var spendKeys []string
	var spendArgs []any
	if s := b.Spend; s != nil {
		if s.Rule.Limit < 1 || s.Rule.Window < time.Millisecond {
			out.SpendErr = fmt.Errorf("ratelimit: budget %q: invalid rule %d per %v", s.Name, s.Rule.Limit, s.Rule.Window)
		} else {
			spendKeys, spendArgs = l.spendScript(s)
		}
	}
	if time.Now().UnixNano() < l.downUntil.Load() {
		if b.KeyID != "" {
			out.MarkerErr = ErrUnavailable
		}
		if spendKeys != nil {
			out.SpendErr = ErrUnavailable
		}
		for i := range checks {
			if checks[i].keys != nil {
				out.CheckErrs[i] = ErrUnavailable
			}
		}
		return out
	}

	pipe := l.client.Pipeline()
	var exists *redis.IntCmd
	if b.KeyID != "" {
		a, k := l.markerKeys(b.AccountID, b.KeyID)
		exists = pipe.Exists(ctx, a, k)
	}
	var spend *redis.Cmd
	if spendKeys != nil {
		spend = budgetScript.EvalSha(ctx, pipe, spendKeys, spendArgs...)
	}
	for i := range checks {
		if checks[i].keys != nil {
			checks[i].cmd = windowScript.EvalSha(ctx, pipe, checks[i].keys, checks[i].args...)
		}
	}
	if pipe.Len() > 0 {
		_, _ = pipe.Exec(ctx)
	}

	if exists != nil {
		if n, err := exists.Result(); err != nil {
			l.failed(ctx, err)
			out.MarkerErr = fmt.Errorf("ratelimit: read revocation marker: %w", err)
		} else {
			out.Revoked = n > 0
		}
	}
	if spend != nil {
		res, err := spend.Int64Slice()
		if err != nil && redis.HasErrorPrefix(err, "NOSCRIPT") {
			// The first use on this server: Run loads the script.
			res, err = budgetScript.Run(ctx, l.client, spendKeys, spendArgs...).Int64Slice()
		}
		out.Spend, out.SpendErr = l.spendResult(ctx, b.Spend, res, err)
	}
	for i, c := range checks {
		if c.cmd == nil {
			continue
		}
		res, err := c.cmd.Int64Slice()
		if err != nil && redis.HasErrorPrefix(err, "NOSCRIPT") {
			res, err = windowScript.Run(ctx, l.client, c.keys, c.args...).Int64Slice()
		}
		out.Checks[i], out.CheckErrs[i] = l.result(ctx, b.Checks[i].Group, res, err)
		if out.CheckErrs[i] == nil && out.Checks[i].Allowed {
			out.recorded = append(out.recorded, recorded{keys: c.keys, member: c.args[0].(string)})
		}
	}
	return out
}

// Undo takes back the requests r's checks recorded (when what they were
// for was refused after all), in one round trip.
func (l *Limiter) Undo(ctx context.Context, r BatchResult) error {
	if len(r.recorded) == 0 {
		return nil
	}
	pipe := l.client.Pipeline()
	for _, rec := range r.recorded {
		for _, k := range rec.keys {
			pipe.ZRem(ctx, k, rec.member)
		}
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return fmt.Errorf("ratelimit: undo: %w", err)
	}
	return nil
}

// spendScript returns the keys and arguments of the budget script for s.
func (l *Limiter) spendScript(s *Spending) ([]string, []any) {
	cost := max(s.Cost, 0)
	// One hash tag: both keys in one Redis Cluster slot.
	tag := l.prefix + "rb:{" + s.Name + ":" + s.Subject + "}:"
	member := l.node + ":" + strconv.FormatUint(l.seq.Add(1), 36) + ":" + strconv.Itoa(cost)
	return []string{tag + "log", tag + "sum"}, []any{member, cost, s.Rule.Limit * l.scale, s.Rule.Window.Milliseconds()}
}

// spendResult turns the budget script's reply (or error) into a Result; an
// error allows the spend.
func (l *Limiter) spendResult(ctx context.Context, s *Spending, res []int64, err error) (Result, error) {
	if err != nil {
		l.failed(ctx, err)
		return Result{Allowed: true}, fmt.Errorf("ratelimit: %w", err)
	}
	if len(res) != 4 {
		return Result{Allowed: true}, fmt.Errorf("ratelimit: unexpected reply %v", res)
	}
	return Result{
		Allowed:    res[0] == 1,
		Limit:      s.Rule.Limit * l.scale,
		Remaining:  int(res[1]),
		Reset:      time.Duration(res[2]) * time.Millisecond,
		RetryAfter: time.Duration(res[3]) * time.Millisecond,
	}, nil
}
