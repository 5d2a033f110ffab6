package resolvers

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"go.opentelemetry.io/otel/attribute"

	"commerce/currency"
	"commerce/db"
	"commerce/graph/model"
	"commerce/problem"
	"commerce/processor"
	"commerce/processor/sandbox"
)

// ConnectProcessor starts (or resumes) the processor's onboarding: it creates
// the connected account on first use, saving its id at once, and returns a
// fresh onboarding URL. The account becomes connected only when the
// processor confirms (ApplyProcessorEvent). Errors: authentication_error,
// permission_denied, not_found.
func (r *Resolver) ConnectProcessor(ctx context.Context) (*model.ProcessorOnboarding, error) {
	p, err := writer(ctx)
	if err != nil {
		return nil, err
	}
	acc, err := db.AccountByID(ctx, r.DB, p.AccountID)
	if errors.Is(err, db.ErrNotFound) {
		return nil, problem.NotFoundf("The account no longer exists.")
	}
	if err != nil {
		return nil, err
	}
	procID := ""
	if acc.ProcessorAccountID != nil && acc.ProcessorStatus != db.ProcessorDisconnected {
		procID = *acc.ProcessorAccountID
	}
	if procID == "" {
		procID, err = r.Processor.CreateAccount(ctx, processor.NewAccount{AccountID: acc.ID, Email: acc.Email})
		if err != nil {
			return nil, fmt.Errorf("create processor account: %w", err)
		}
	}
	token := ""
	if acc.OnboardingToken != nil {
		token = *acc.OnboardingToken
	} else {
		token = strings.ToLower(rand.Text())
	}
	// Saved before the seller is sent anywhere: the processor's account
	// events find the account by this id.
	_, err = r.DB.NewUpdate().Table("accounts").
		Set("processor_account_id = ?", procID).
		Set("onboarding_token = ?", token).
		Set("processor_status = CASE WHEN processor_status = 'connected' AND processor_account_id = ? THEN 'connected' ELSE 'onboarding' END", procID).
		Set("charges_enabled = charges_enabled AND processor_account_id = ?", procID).
		Set("payouts_enabled = payouts_enabled AND processor_account_id = ?", procID).
		Set("updated_at = now()").
		Where("id = ?", acc.ID).Where("deleted_at IS NULL").Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("save processor account: %w", err)
	}
	link, err := r.Processor.OnboardingLink(ctx, procID, r.OnboardingReturnURL(), r.OnboardingURL(token))
	if err != nil {
		return nil, fmt.Errorf("onboarding link: %w", err)
	}
	// The account's readiness after connect: enable_charges, whose url is
	// the stable onboarding page (CONTRACT §7).
	a, ex, err := r.loadAccount(ctx, acc.ID)
	if err != nil {
		return nil, err
	}
	return &model.ProcessorOnboarding{Object: "processor_onboarding", URL: link.URL, ExpiresAt: link.ExpiresAt.UTC(),
		Readiness: r.readinessOf(a, ex)}, nil
}

// OnboardingReturnURL is where the processor's onboarding returns the
// human: the console's processor page.
func (r *Resolver) OnboardingReturnURL() string { return r.ConsoleURL + "/processor" }

// OnboardingRedirect is where {base_url}/processor/onboarding/{token} sends
// a human: a fresh onboarding link of the account holding the token.
// Errors: not_found.
func (r *Resolver) OnboardingRedirect(ctx context.Context, token string) (string, error) {
	var procID *string
	err := r.DB.NewSelect().Table("accounts").Column("processor_account_id").
		Where("onboarding_token = ?", token).Where("deleted_at IS NULL").
		Where("processor_status <> 'disconnected'").Scan(ctx, &procID)
	if err := db.NotFound(err); err != nil || procID == nil {
		if err == nil || errors.Is(err, db.ErrNotFound) {
			return "", problem.NotFoundf("This onboarding link is not valid any more.")
		}
		return "", err
	}
	link, err := r.Processor.OnboardingLink(ctx, *procID, r.OnboardingReturnURL(), r.OnboardingURL(token))
	if err != nil {
		return "", fmt.Errorf("onboarding link: %w", err)
	}
	return link.URL, nil
}

// DisconnectProcessor forgets the connected account; the account stops being
// operational (every published listing unsellable) until connected again.
// The processor-side account is left to the seller. Errors:
// authentication_error, permission_denied, missing_processor_connection.
func (r *Resolver) DisconnectProcessor(ctx context.Context) (*model.ProcessorDisconnection, error) {
	p, err := writer(ctx)
	if err != nil {
		return nil, err
	}
	var procID *string
	err = r.DB.NewRaw(`UPDATE accounts SET processor_status = 'disconnected', charges_enabled = false,
			payouts_enabled = false, details_submitted = false, onboarding_token = NULL, updated_at = now()
		WHERE id = ? AND deleted_at IS NULL AND processor_status IN ('onboarding', 'connected')
		RETURNING processor_account_id`, p.AccountID).Scan(ctx, &procID)
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return nil, problem.New(problem.MissingProcessorConnection, "No payment processor account is connected.")
	}
	if err != nil {
		return nil, fmt.Errorf("disconnect processor: %w", err)
	}
	// Published listings stay published but stop being sellable (their
	// readiness shows connect_stripe) until the processor is connected again.
	n, err := r.DB.NewSelect().Table("listings").Where("account_id = ?", p.AccountID).
		Where("status = 'published'").Where("deleted_at IS NULL").Count(ctx)
	if err != nil {
		return nil, err
	}
	return &model.ProcessorDisconnection{Object: "processor_disconnection", AccountID: procID, AffectedListings: int(n)}, nil
}

// HandleProcessorWebhook verifies and applies an inbound processor webhook.
// Errors: invalid_request (bad signature or payload).
func (r *Resolver) HandleProcessorWebhook(ctx context.Context, payload []byte, header http.Header) error {
	ev, err := r.Processor.ParseWebhook(payload, header)
	if errors.Is(err, processor.ErrBadSignature) {
		return problem.New(problem.InvalidRequest, "The webhook signature is missing, wrong or too old.")
	}
	if err != nil {
		return problem.New(problem.InvalidRequest, "The webhook payload could not be read.")
	}
	return r.ApplyProcessorEvent(ctx, ev)
}

// ApplyProcessorEvent applies a normalized processor event once: the event id
// is recorded in the transaction that applies it, so a replay changes nothing.
func (r *Resolver) ApplyProcessorEvent(ctx context.Context, ev processor.Event) (err error) {
	if ev.Type == processor.Ignored || ev.ID == "" {
		return nil
	}
	ctx, sp, end := r.span(ctx, "processor.event")
	if sp != nil {
		sp.SetAttributes(attribute.String("processor.name", r.Processor.Name()), attribute.String("processor.event_id", ev.ID),
			attribute.String("processor.event_type", string(ev.Type)), attribute.String("processor.raw_type", ev.RawType))
		if ev.Payment != nil && ev.Payment.OrderID != "" {
			sp.SetAttributes(attribute.String("order.id", ev.Payment.OrderID))
		}
	}
	defer func() { end(err) }()
	// An order's events change only rows in this transaction (its outbox
	// mail and jobs included), so one that PostgreSQL aborts for a deadlock
	// runs again at once: a refund of a membership's older order beside its
	// renewal's fulfilment, or two events of one order, lock the same rows in
	// different orders. Billing and membership events may call the
	// processor inside the transaction, so they are not run twice.
	inTx := r.DB.InTx
	switch ev.Type {
	case processor.PaymentSucceeded, processor.PaymentFailed, processor.CheckoutExpired,
		processor.RefundConfirmed, processor.DisputeChanged:
		inTx = r.DB.InTxRetry
	}
	return inTx(ctx, func(ctx context.Context, tx db.Tx) error {
		res, err := tx.River.Exec(ctx, `INSERT INTO processor_events (id, processor, type) VALUES ($1, $2, $3)
			ON CONFLICT (id) DO NOTHING`, ev.ID, r.Processor.Name(), ev.RawType)
		if err != nil {
			return fmt.Errorf("record processor event: %w", err)
		}
		if res.RowsAffected() == 0 {
			return nil // seen before
		}
		switch ev.Type {
		case processor.AccountUpdated:
			return r.applyAccountUpdated(ctx, tx, ev.Account)
		case processor.PaymentSucceeded, processor.PaymentFailed, processor.CheckoutExpired,
			processor.RefundConfirmed, processor.DisputeChanged:
			return r.applyPaymentEvent(ctx, tx, ev)
		case processor.PlanPaid, processor.PlanCheckoutFailed, processor.RenewalPaid, processor.RenewalFailed,
			processor.GraceExpired, processor.SubscriptionChanged:
			return r.applyBillingEvent(ctx, tx, ev)
		case processor.MembershipRenewalPaid, processor.MembershipRenewalFailed, processor.MembershipChanged:
			return r.applyMembershipEvent(ctx, tx, ev)
		}
		return nil
	})
}

// applyAccountUpdated records a connected account's capabilities. The
// account becomes connected once the processor has its details; the currency
// is set from the processor's default currency once and never changed.
func (r *Resolver) applyAccountUpdated(ctx context.Context, tx db.Tx, st *processor.AccountStatus) error {
	if st == nil || st.AccountID == "" {
		return nil
	}
	var cur *string
	if c, ok := currency.Lookup(st.Currency); ok {
		cur = &c.Code
	}
	res, err := tx.ExecContext(ctx, `UPDATE accounts SET
			charges_enabled = ?, payouts_enabled = ?, details_submitted = ?,
			processor_status = CASE WHEN ? THEN 'connected' ELSE 'onboarding' END,
			currency = coalesce(currency, ?), updated_at = now()
		WHERE processor_account_id = ? AND deleted_at IS NULL AND processor_status IN ('onboarding', 'connected')`,
		st.ChargesEnabled, st.PayoutsEnabled, st.DetailsSubmitted, st.DetailsSubmitted, cur, st.AccountID)
	if err != nil {
		return fmt.Errorf("apply account.updated: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		r.Log.InfoContext(ctx, "processor account event for no connected account; ignored", "processor_account_id", st.AccountID)
	}
	return nil
}

// SandboxOnboarding is what the sandbox onboarding page shows.
type SandboxOnboarding struct {
	AccountEmail string
	Connected    bool
	Currency     string
}

// SandboxOnboardingPage finds the account a sandbox onboarding token belongs
// to. Errors: not_found (unknown token, or not the sandbox processor).
func (r *Resolver) SandboxOnboardingPage(ctx context.Context, token string) (*SandboxOnboarding, error) {
	if r.Processor.Name() != processor.Sandbox || !strings.HasPrefix(token, sandbox.AccountPrefix) {
		return nil, problem.NotFoundf("No sandbox onboarding here.")
	}
	acc := new(db.Account)
	err := r.DB.NewSelect().Model(acc).Where("processor_account_id = ?", token).
		Where("deleted_at IS NULL").Where("processor_status IN ('onboarding', 'connected')").Scan(ctx)
	if err := db.NotFound(err); err != nil {
		if errors.Is(err, db.ErrNotFound) {
			return nil, problem.NotFoundf("This onboarding link is not valid any more.")
		}
		return nil, err
	}
	out := &SandboxOnboarding{AccountEmail: acc.Email, Connected: acc.ProcessorStatus == db.ProcessorConnected}
	if acc.Currency != nil {
		out.Currency = *acc.Currency
	}
	return out, nil
}

// CompleteSandboxOnboarding completes the sandbox onboarding of a token with
// a chosen currency, through the same event path as the Stripe processor's
// account.updated. Errors: not_found, validation_error (currency).
func (r *Resolver) CompleteSandboxOnboarding(ctx context.Context, token, cur string) error {
	if _, err := r.SandboxOnboardingPage(ctx, token); err != nil {
		return err
	}
	c, ok := currency.Lookup(cur)
	if !ok {
		return problem.Validation("currency", "currency must be one of the 29 supported currencies")
	}
	return r.ApplyProcessorEvent(ctx, sandbox.AccountUpdated(token, c.Code))
}
