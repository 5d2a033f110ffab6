package mail

import "context"

// Deliver runs one delivery attempt of the message, as attempt number
// attempt of maxAttempts of its job.
func (w *Worker) Deliver(ctx context.Context, id string, attempt, maxAttempts int) error {
	return w.deliver(ctx, id, attempt, maxAttempts)
}
