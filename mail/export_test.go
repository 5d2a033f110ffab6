package mail

import (
	"context"
	"time"

	"commerce/db"
)

// Deliver runs one round of the dispatcher over message id alone, due or
// not: a claim, an attempt and its outcome.
func (s *Sender) Deliver(ctx context.Context, d *db.DB, id string) error {
	asOf := time.Now().Add(24 * time.Hour)
	_, err := s.deliverRound(ctx, d, &asOf, []string{id}, 1)
	return err
}

// SendRecord hands the stored message id to the SMTP server as an attempt
// would, recording nothing: what a process that died before it wrote the
// outcome did.
func (s *Sender) SendRecord(ctx context.Context, d *db.DB, id string) error {
	m, err := Get(ctx, d, id)
	if err != nil {
		return err
	}
	return s.send(ctx, &m)
}

// The delivery's time limits.
const (
	SMTPTimeout    = smtpTimeout
	AttemptTimeout = attemptTimeout
	FinishTimeout  = finishTimeout
	ClaimFor       = claimFor
	MaxAttempts    = maxAttempts
)

// RetryDelay is the wait after attempt n failed transiently.
var RetryDelay = retryDelay
