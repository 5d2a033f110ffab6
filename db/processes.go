package db

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"sync/atomic"
	"time"
)

// Each process keeps a row in service_processes (its heartbeat) while it
// runs, so that others can tell it is alive: an idempotency key claimed by
// a process that stopped beating may be taken over by the client's retry
// (ClaimIdempotencyKey), and the River jobs it was running are made
// available again (jobs.RunLiveness; River's client id is ProcessID). Only a process that beats names itself as a
// claim's owner; any other claim waits for idempotencyStale.

const (
	// processBeat is how often a process renews its row.
	processBeat = 2 * time.Second
	// ProcessGone is how long a row may go unrenewed before its process
	// counts as dead: several beats, so that a slow tick (a busy machine, a
	// pause) does not declare a live process dead.
	ProcessGone = 10 * time.Second
	// processForget is when a dead process's row is deleted.
	processForget = time.Hour
)

// processState is this DB handle's process identity.
type processState struct {
	id      string
	beating atomic.Bool
	taken   atomic.Bool // the id was given to a River client (TakeProcessID)
}

func newProcessState() *processState {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	host, _ := os.Hostname()
	if len(host) > 64 { // River's client id, this id, is at most 100 bytes
		host = host[:64]
	}
	return &processState{id: fmt.Sprintf("%s/%d/%s", host, os.Getpid(), hex.EncodeToString(b))}
}

// ProcessID is this process's id in service_processes.
func (d *DB) ProcessID() string { return d.process.id }

// TakeProcessID gives ProcessID to the process's River client, once:
// jobs.RunLiveness finds a dead process's jobs by their client id. A second
// client on the same handle (tests) gets "" (River then draws an id of its
// own, and its jobs are left to River's rescuer).
func (d *DB) TakeProcessID() string {
	if d.process.taken.Swap(true) {
		return ""
	}
	return d.process.id
}

// owner is the id a claim records: this process's while its heartbeat is
// current, else "" (NULL).
func (d *DB) owner() string {
	if d.process.beating.Load() {
		return d.process.id
	}
	return ""
}

// Heartbeat keeps this process's row in service_processes until ctx ends,
// then deletes it. Its statements are not counted in Queries.
func (d *DB) Heartbeat(ctx context.Context, log *slog.Logger) {
	bctx := untraced(context.WithoutCancel(ctx))
	beat := func() {
		c, cancel := context.WithTimeout(bctx, processBeat)
		defer cancel()
		start := time.Now()
		_, err := d.Pool.Exec(c, `INSERT INTO service_processes (id) VALUES ($1)
			ON CONFLICT (id) DO UPDATE SET seen_at = now()`, d.process.id)
		// A beat that failed, or took so long that the row may have looked
		// dead meanwhile, stops naming this process as an owner until the
		// next one succeeds: a claim with no owner is never taken over early.
		ok := err == nil && time.Since(start) < ProcessGone-processBeat
		d.process.beating.Store(ok)
		if err != nil && ctx.Err() == nil {
			log.Warn("process heartbeat failed", "error", err)
		}
	}
	beat()
	t := time.NewTicker(processBeat)
	defer t.Stop()
	for n := 1; ; n++ {
		select {
		case <-ctx.Done():
			d.process.beating.Store(false)
			c, cancel := context.WithTimeout(bctx, 5*time.Second)
			_, _ = d.Pool.Exec(c, `DELETE FROM service_processes WHERE id = $1`, d.process.id)
			cancel()
			return
		case <-t.C:
			beat()
			if n%300 == 0 { // about every 10 minutes: forget the dead
				c, cancel := context.WithTimeout(bctx, 5*time.Second)
				_, _ = d.Pool.Exec(c, `DELETE FROM service_processes WHERE seen_at < now() - make_interval(secs => $1)`,
					processForget.Seconds())
				cancel()
			}
		}
	}
}
