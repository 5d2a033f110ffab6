package ratelimit

import (
	"context"
	_ "embed"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

//go:embed slots.lua
var slotsLua string

var slotsScript = redis.NewScript(slotsLua)

// Slot is one held place of a concurrency limit (Acquire). Its holder keeps
// it with Refresh at least once per ttl and gives it back with Release; a
// slot whose holder stops refreshing (a crashed process) is freed after ttl.
type Slot struct {
	l      *Limiter
	key    string
	member string
	limit  int
	ttl    time.Duration
	noop   bool
}

// Acquire takes one of limit concurrent slots of subject in the named
// limit, shared by every process; refused, it returns a nil Slot and false.
// When Redis fails it allows (fail open) with a Slot whose methods do
// nothing, and returns the error for the caller to report.
func (l *Limiter) Acquire(ctx context.Context, name, subject string, limit int, ttl time.Duration) (*Slot, bool, error) {
	s := &Slot{l: l, key: l.prefix + "slots:{" + name + ":" + subject + "}",
		member: l.node + ":" + strconv.FormatUint(l.seq.Add(1), 36), limit: limit * l.scale, ttl: ttl}
	if limit < 1 || ttl < time.Millisecond {
		return &Slot{noop: true}, true, fmt.Errorf("ratelimit: slots %q: invalid limit %d per %v", name, limit, ttl)
	}
	if time.Now().UnixNano() < l.downUntil.Load() {
		return &Slot{noop: true}, true, ErrUnavailable
	}
	ok, err := s.run(ctx)
	if err != nil {
		return &Slot{noop: true}, true, err
	}
	if !ok {
		return nil, false, nil
	}
	return s, true, nil
}

// Refresh records that the slot's holder is alive. It reports false when
// the slot was lost (not refreshed within ttl, and the limit was reached
// by others since); the holder should then stop. Redis failing keeps the
// slot (true) and returns the error.
func (s *Slot) Refresh(ctx context.Context) (bool, error) {
	if s.noop {
		return true, nil
	}
	ok, err := s.run(ctx)
	if err != nil {
		return true, err
	}
	return ok, nil
}

// Release gives the slot back.
func (s *Slot) Release(ctx context.Context) error {
	if s.noop {
		return nil
	}
	if err := s.l.client.ZRem(ctx, s.key, s.member).Err(); err != nil {
		return fmt.Errorf("ratelimit: release slot: %w", err)
	}
	return nil
}

func (s *Slot) run(ctx context.Context) (bool, error) {
	res, err := slotsScript.Run(ctx, s.l.client, []string{s.key}, s.member, s.limit, s.ttl.Milliseconds()).Int64Slice()
	if err != nil {
		if !isScriptError(err) && ctx.Err() == nil {
			s.l.downUntil.Store(time.Now().Add(backoff).UnixNano())
		}
		return false, fmt.Errorf("ratelimit: slots: %w", err)
	}
	if len(res) != 2 {
		return false, fmt.Errorf("ratelimit: slots: unexpected reply %v", res)
	}
	return res[0] == 1, nil
}
