package resolvers

import (
	"context"
	"errors"

	"commerce/db"
	"commerce/mail"
	"commerce/problem"
	"commerce/processor"
)

// sandboxMailOn: the sandbox mailbox exists only under the sandbox
// processor when no SMTP server is configured (mail is kept, not sent).
func (r *Resolver) sandboxMailOn() bool {
	return r.SandboxMail && r.Processor != nil && r.Processor.Name() == processor.Sandbox
}

// SandboxMailbox lists the kept mail, newest first. Errors: not_found (no
// sandbox mailbox in this configuration).
func (r *Resolver) SandboxMailbox(ctx context.Context, limit int) ([]mail.Message, error) {
	if !r.sandboxMailOn() {
		return nil, problem.NotFoundf("The sandbox mailbox exists only with PROCESSOR=sandbox and no SMTP_URL.")
	}
	return mail.List(ctx, r.DB, limit)
}

// SandboxMessage is one kept message. Errors: not_found.
func (r *Resolver) SandboxMessage(ctx context.Context, id string) (*mail.Message, error) {
	if !r.sandboxMailOn() {
		return nil, problem.NotFoundf("The sandbox mailbox exists only with PROCESSOR=sandbox and no SMTP_URL.")
	}
	m, err := mail.Get(ctx, r.DB, id)
	if errors.Is(err, db.ErrNotFound) {
		return nil, problem.NotFoundf("No message %q.", id)
	}
	if err != nil {
		return nil, err
	}
	return &m, nil
}
