package db

import (
	"context"
	"log/slog"
	"time"
)

// Listen calls wake on every notification on channel until ctx ends, and
// once each time it starts listening (for what was committed before),
// reconnecting a second after an error. The connection carries a LISTEN,
// so it is taken from the pool for good and closed at the end. channel
// is an identifier the caller owns, never user input.
func Listen(ctx context.Context, d *DB, channel string, wake func(), log *slog.Logger) {
	for ctx.Err() == nil {
		err := listenOnce(ctx, d, channel, wake)
		if ctx.Err() != nil {
			return
		}
		log.WarnContext(ctx, "listen for notifications", "channel", channel, "error", err)
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

func listenOnce(ctx context.Context, d *DB, channel string, wake func()) error {
	conn, err := d.Pool.Acquire(ctx)
	if err != nil {
		return err
	}
	c := conn.Hijack()
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer cancel()
		_ = c.Close(cctx)
	}()
	if _, err := c.Exec(ctx, "LISTEN "+channel); err != nil {
		return err
	}
	wake()
	for {
		if _, err := c.WaitForNotification(ctx); err != nil {
			return err
		}
		wake()
	}
}
