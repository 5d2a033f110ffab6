package resolvers

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/riverqueue/river"
	"github.com/uptrace/bun"

	"commerce/db"
	"commerce/graph/model"
	"commerce/jobs"
	"commerce/problem"
	"commerce/processor"
	"commerce/processor/sandbox"
)

// Plans and billing (CONTRACT §16). The account's plan and fee rate change
// only when the processor confirms a subscription's payment (or at once for
// the free plan); billing_status follows the subscription's renewals, with a
// 7-day grace period run by a River periodic job (GraceWorker).

// GracePeriod is how long a past-due account keeps selling before it
// becomes unpaid.
const GracePeriod = 7 * 24 * time.Hour

// subscriptionRow is a row of subscriptions.
type subscriptionRow struct {
	AccountID               string     `bun:"account_id" json:"-"`
	Plan                    string     `bun:"plan" json:"plan"`
	Status                  string     `bun:"status" json:"status"`
	ProcessorCustomerID     *string    `bun:"processor_customer_id" json:"-"`
	ProcessorSubscriptionID *string    `bun:"processor_subscription_id" json:"-"`
	CurrentPeriodEnd        *time.Time `bun:"current_period_end" json:"current_period_end"`
	CancelAt                *time.Time `bun:"cancel_at" json:"cancel_at"`
	PastDueSince            *time.Time `bun:"past_due_since" json:"-"`
}

// BillingURL is the console's billing page: where plan checkouts return
// and where update_billing sends the seller.
func (r *Resolver) BillingURL() string { return r.ConsoleURL + "/settings/billing" }

// loadSubscription reads the account's subscription (nil when it has none).
func loadSubscription(ctx context.Context, idb bun.IDB, accountID string, forUpdate bool) (*subscriptionRow, error) {
	s := new(subscriptionRow)
	q := idb.NewSelect().Table("subscriptions").Column("account_id", "plan", "status", "processor_customer_id",
		"processor_subscription_id", "current_period_end", "cancel_at", "past_due_since").Where("account_id = ?", accountID)
	if forUpdate {
		q = q.For("UPDATE")
	}
	err := db.NotFound(q.Scan(ctx, s))
	if errors.Is(err, db.ErrNotFound) {
		return nil, nil
	}
	return s, err
}

// ChangePlan moves the caller's account to a plan. free is active at once
// and cancels the subscription; growth and scale return the processor's
// hosted subscription checkout (pending) and take effect when the processor
// confirms payment. Asking for the plan already in force and paid up is
// active at once. Errors: authentication_error, permission_denied,
// validation_error (plan), not_found (the account was deleted).
func (r *Resolver) ChangePlan(ctx context.Context, input model.ChangePlanInput) (*model.PlanChange, error) {
	p, err := writer(ctx)
	if err != nil {
		return nil, err
	}
	plan, ok := PlanByID(string(input.Plan))
	if !ok {
		return nil, problem.Validation("plan", "plan must be free, growth or scale")
	}
	acc, err := db.AccountByID(ctx, r.DB, p.AccountID)
	if errors.Is(err, db.ErrNotFound) {
		return nil, problem.NotFoundf("The account no longer exists.")
	}
	if err != nil {
		return nil, err
	}
	sub, err := loadSubscription(ctx, r.DB, acc.ID, false)
	if err != nil {
		return nil, err
	}
	if plan.ID == model.PlanIDFree {
		return r.moveToFree(ctx, acc, sub)
	}
	active := &model.PlanChange{Object: "plan_change", Plan: plan.ID, Status: model.PlanChangeStatusActive}
	if acc.Plan == string(plan.ID) && acc.BillingStatus == string(model.BillingStatusActive) {
		return active, nil // in force and paid up: nothing to pay
	}
	change := &planChangeRow{ID: db.NewID("pch"), AccountID: acc.ID, Plan: string(plan.ID), Status: "pending"}
	if _, err := r.DB.NewInsert().Model(change).Exec(ctx); err != nil {
		return nil, fmt.Errorf("create plan change: %w", err)
	}
	req := processor.SubscriptionCheckoutRequest{ChangeID: change.ID, AccountID: acc.ID, Email: acc.Email, Plan: string(plan.ID),
		PlanName: "commerce " + plan.Name, MonthlyPrice: int64(plan.MonthlyPrice), Currency: plan.Currency,
		SuccessURL: r.BillingURL() + "?plan_change=paid", CancelURL: r.BillingURL() + "?plan_change=canceled"}
	if sub != nil && sub.ProcessorCustomerID != nil {
		req.CustomerID = *sub.ProcessorCustomerID
	}
	cs, err := r.Processor.CreateSubscriptionCheckout(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("create subscription checkout: %w", err)
	}
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		if _, err := tx.NewUpdate().Model(change).WherePK().Set("checkout_session_id = ?", cs.ID).Set("url = ?", cs.URL).
			Set("expires_at = ?", cs.ExpiresAt).Set("updated_at = now()").Exec(ctx); err != nil {
			return err
		}
		// The subscription's history starts with its first checkout.
		_, err := tx.ExecContext(ctx, `INSERT INTO subscriptions (account_id, plan, status) VALUES (?, ?, 'pending')
			ON CONFLICT (account_id) DO NOTHING`, acc.ID, string(plan.ID))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("save plan change: %w", err)
	}
	exp := cs.ExpiresAt.UTC()
	return &model.PlanChange{Object: "plan_change", Plan: plan.ID, Status: model.PlanChangeStatusPending, URL: &cs.URL, ExpiresAt: &exp}, nil
}

// planChangeRow is a row of plan_changes.
type planChangeRow struct {
	bun.BaseModel `bun:"table:plan_changes"`

	ID                string     `bun:"id,pk"`
	AccountID         string     `bun:"account_id"`
	Plan              string     `bun:"plan"`
	Status            string     `bun:"status"`
	CheckoutSessionID *string    `bun:"checkout_session_id"`
	URL               *string    `bun:"url"`
	ExpiresAt         *time.Time `bun:"expires_at"`
	CreatedAt         time.Time  `bun:"created_at,nullzero,notnull,default:current_timestamp"`
}

// moveToFree cancels the subscription at the processor, then puts the
// account on the free plan, paid up.
func (r *Resolver) moveToFree(ctx context.Context, acc *db.Account, sub *subscriptionRow) (*model.PlanChange, error) {
	if sub != nil && sub.Status != processor.SubscriptionCanceled && sub.ProcessorSubscriptionID != nil {
		if err := r.Processor.CancelSubscription(ctx, *sub.ProcessorSubscriptionID); err != nil {
			return nil, fmt.Errorf("cancel subscription: %w", err)
		}
	}
	now := r.Now().UTC()
	err := r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE accounts SET plan = 'free', billing_status = 'active', updated_at = now()
			WHERE id = ?`, acc.ID); err != nil {
			return err
		}
		// A subscription never paid leaves no history; a paid one ends now.
		if _, err := tx.ExecContext(ctx, `DELETE FROM subscriptions WHERE account_id = ? AND status = 'pending'
			AND processor_subscription_id IS NULL`, acc.ID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE subscriptions SET status = 'canceled', cancel_at = coalesce(cancel_at, ?),
			past_due_since = NULL, updated_at = now() WHERE account_id = ? AND status <> 'canceled'`, now, acc.ID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE plan_changes SET status = 'failed', updated_at = now()
			WHERE account_id = ? AND status = 'pending'`, acc.ID); err != nil {
			return err
		}
		_, err := tx.NewInsert().Model(&planChangeRow{ID: db.NewID("pch"), AccountID: acc.ID, Plan: "free", Status: "active"}).Exec(ctx)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("move to the free plan: %w", err)
	}
	return &model.PlanChange{Object: "plan_change", Plan: model.PlanIDFree, Status: model.PlanChangeStatusActive}, nil
}

// toSubscriptionModel is the account's subscription as the API shows it.
func toSubscriptionModel(s *subscriptionRow) *model.BillingSubscription {
	if s == nil {
		return nil
	}
	return &model.BillingSubscription{Plan: model.PlanID(s.Plan), Status: model.SubscriptionStatus(s.Status),
		CurrentPeriodEnd: utc(s.CurrentPeriodEnd), CancelAt: utc(s.CancelAt)}
}

// applyBillingEvent applies a plan, renewal, grace or subscription event in
// tx (ApplyProcessorEvent has recorded its id). The account's subscription
// row is locked first, so billing events of one account apply one at a time.
// An event for no known account or subscription is logged and ignored.
func (r *Resolver) applyBillingEvent(ctx context.Context, tx db.Tx, ev processor.Event) error {
	b := ev.Billing
	if b == nil {
		return nil
	}
	accountID := b.AccountID
	if accountID == "" && b.SubscriptionID != "" {
		err := db.NotFound(tx.NewSelect().Table("subscriptions").Column("account_id").
			Where("processor_subscription_id = ?", b.SubscriptionID).Scan(ctx, &accountID))
		if err != nil && !errors.Is(err, db.ErrNotFound) {
			return err
		}
	}
	var exists bool
	if accountID != "" {
		if err := tx.NewRaw(`SELECT EXISTS (SELECT 1 FROM accounts WHERE id = ? AND deleted_at IS NULL)`, accountID).Scan(ctx, &exists); err != nil {
			return err
		}
	}
	if !exists {
		r.Log.InfoContext(ctx, "billing event for no known account; ignored", "type", ev.RawType, "subscription", b.SubscriptionID)
		return nil
	}
	sub, err := loadSubscription(ctx, tx, accountID, true)
	if err != nil {
		return err
	}
	now := r.Now().UTC()
	// current: the event is about the account's subscription of record
	// (sandbox events name no other; Stripe's carry its id).
	current := sub != nil && (b.SubscriptionID == "" || sub.ProcessorSubscriptionID == nil || *sub.ProcessorSubscriptionID == b.SubscriptionID)
	switch ev.Type {
	case processor.PlanPaid:
		return r.confirmPlan(ctx, tx, accountID, sub, b, now)
	case processor.PlanCheckoutFailed:
		return failPlanChange(ctx, tx, accountID, b.ChangeID)
	case processor.RenewalFailed:
		if !current || (sub.Status != processor.SubscriptionActive && sub.Status != processor.SubscriptionPastDue) {
			return nil
		}
		return setBilling(ctx, tx, accountID, processor.SubscriptionPastDue, b, now)
	case processor.RenewalPaid:
		if !current || sub.Status == processor.SubscriptionPending || sub.Status == processor.SubscriptionCanceled {
			return nil
		}
		return setBilling(ctx, tx, accountID, processor.SubscriptionActive, b, now)
	case processor.GraceExpired:
		if !current || sub.Status != processor.SubscriptionPastDue {
			return nil
		}
		return setBilling(ctx, tx, accountID, processor.SubscriptionUnpaid, b, now)
	case processor.SubscriptionChanged:
		if sub == nil || sub.ProcessorSubscriptionID == nil || *sub.ProcessorSubscriptionID != b.SubscriptionID {
			// Not (yet) the subscription of record: its checkout's
			// completion records it.
			return nil
		}
		switch b.Status {
		case processor.SubscriptionCanceled:
			return endSubscription(ctx, tx, accountID, b, now)
		case processor.SubscriptionActive, processor.SubscriptionPastDue, processor.SubscriptionUnpaid:
			return setBilling(ctx, tx, accountID, b.Status, b, now)
		}
	}
	return nil
}

// confirmPlan: the processor confirmed a plan's first payment: the plan
// change is active, the account is on its plan, paid up, with the new
// subscription of record (an earlier one is canceled at the processor).
func (r *Resolver) confirmPlan(ctx context.Context, tx db.Tx, accountID string, sub *subscriptionRow, b *processor.Billing, now time.Time) error {
	plan := b.Plan
	if b.ChangeID != "" {
		var change planChangeRow
		err := db.NotFound(tx.NewSelect().Model(&change).Where("id = ?", b.ChangeID).Where("account_id = ?", accountID).For("UPDATE").Scan(ctx))
		if errors.Is(err, db.ErrNotFound) {
			r.Log.InfoContext(ctx, "plan payment for no known plan change; ignored", "plan_change", b.ChangeID)
			return nil
		}
		if err != nil {
			return err
		}
		if change.Status == "active" {
			return nil // a duplicate
		}
		plan = change.Plan
		if _, err := tx.NewUpdate().Model(&change).WherePK().Set("status = 'active'").Set("updated_at = now()").Exec(ctx); err != nil {
			return err
		}
	}
	if _, ok := PlanByID(plan); !ok || plan == string(model.PlanIDFree) {
		r.Log.WarnContext(ctx, "plan payment without a paid plan; ignored", "account_id", accountID, "plan", plan)
		return nil
	}
	if sub != nil && sub.ProcessorSubscriptionID != nil && *sub.ProcessorSubscriptionID != b.SubscriptionID &&
		sub.Status != processor.SubscriptionCanceled {
		// One subscription at a time: the one replaced ends now.
		if err := r.Processor.CancelSubscription(ctx, *sub.ProcessorSubscriptionID); err != nil {
			return fmt.Errorf("cancel the replaced subscription: %w", err)
		}
	}
	end := b.CurrentPeriodEnd
	if end == nil {
		t := now.AddDate(0, 1, 0).Truncate(time.Second)
		end = &t
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO subscriptions (account_id, plan, status, processor_customer_id,
			processor_subscription_id, current_period_end)
		VALUES (?, ?, 'active', ?, ?, ?)
		ON CONFLICT (account_id) DO UPDATE SET plan = EXCLUDED.plan, status = 'active',
			processor_customer_id = coalesce(EXCLUDED.processor_customer_id, subscriptions.processor_customer_id),
			processor_subscription_id = EXCLUDED.processor_subscription_id,
			current_period_end = EXCLUDED.current_period_end, cancel_at = NULL, past_due_since = NULL, updated_at = now()`,
		accountID, plan, nullable(b.CustomerID), nullable(b.SubscriptionID), end); err != nil {
		return fmt.Errorf("record subscription: %w", err)
	}
	_, err := tx.ExecContext(ctx, `UPDATE accounts SET plan = ?, billing_status = 'active', updated_at = now() WHERE id = ?`, plan, accountID)
	return err
}

// setBilling moves the account's subscription (and billing_status) to
// active, past_due or unpaid. past_due starts the grace period (once);
// active ends it, with the new period end when the event has one.
func setBilling(ctx context.Context, tx db.Tx, accountID, status string, b *processor.Billing, now time.Time) error {
	if _, err := tx.ExecContext(ctx, `UPDATE subscriptions SET status = ?,
			past_due_since = CASE ? WHEN 'past_due' THEN coalesce(past_due_since, ?::timestamptz)
			                        WHEN 'unpaid' THEN past_due_since ELSE NULL END,
			current_period_end = coalesce(?::timestamptz, current_period_end),
			cancel_at = CASE WHEN ?::timestamptz IS NOT NULL THEN ?::timestamptz ELSE cancel_at END,
			updated_at = now()
		WHERE account_id = ?`, status, status, now, b.CurrentPeriodEnd, b.CancelAt, b.CancelAt, accountID); err != nil {
		return fmt.Errorf("update subscription: %w", err)
	}
	_, err := tx.ExecContext(ctx, `UPDATE accounts SET billing_status = ?, updated_at = now() WHERE id = ?`, status, accountID)
	return err
}

// endSubscription: the processor ended the subscription: the account is on
// the free plan, paid up.
func endSubscription(ctx context.Context, tx db.Tx, accountID string, b *processor.Billing, now time.Time) error {
	at := now
	if b.CancelAt != nil {
		at = *b.CancelAt
	}
	if _, err := tx.ExecContext(ctx, `UPDATE subscriptions SET status = 'canceled', cancel_at = ?, past_due_since = NULL,
		updated_at = now() WHERE account_id = ?`, at, accountID); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `UPDATE accounts SET plan = 'free', billing_status = 'active', updated_at = now() WHERE id = ?`, accountID)
	return err
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// ExpireGracePeriods makes every subscription past due for longer than
// GracePeriod (by the resolver's clock) unpaid, and its account with it, and
// returns how many. Run by GraceWorker.
func (r *Resolver) ExpireGracePeriods(ctx context.Context) (int, error) {
	cutoff := r.Now().UTC().Add(-GracePeriod)
	var ids []string
	err := r.DB.NewRaw(`WITH due AS (
			UPDATE subscriptions SET status = 'unpaid', updated_at = now()
			WHERE status = 'past_due' AND past_due_since <= ?
			RETURNING account_id)
		UPDATE accounts SET billing_status = 'unpaid', updated_at = now()
		WHERE id IN (SELECT account_id FROM due) RETURNING id`, cutoff).Scan(ctx, &ids)
	if err != nil && !errors.Is(db.NotFound(err), db.ErrNotFound) {
		return 0, fmt.Errorf("expire grace periods: %w", err)
	}
	return len(ids), nil
}

// failPlanChange ends a pending plan change unpaid (its checkout failed or
// expired): the change is failed, and a subscription never paid goes away
// with the last pending change of the account.
func failPlanChange(ctx context.Context, tx db.Tx, accountID, changeID string) error {
	if _, err := tx.ExecContext(ctx, `UPDATE plan_changes SET status = 'failed', updated_at = now()
		WHERE id = ? AND account_id = ? AND status = 'pending'`, changeID, accountID); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `DELETE FROM subscriptions WHERE account_id = ? AND status = 'pending'
		AND processor_subscription_id IS NULL
		AND NOT EXISTS (SELECT 1 FROM plan_changes WHERE account_id = ? AND status = 'pending')`, accountID, accountID)
	return err
}

// expirePlanChange ends one plan change whose checkout expired unpaid, in
// a transaction of its own.
func (r *Resolver) expirePlanChange(ctx context.Context, accountID, changeID string) error {
	return r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		return failPlanChange(ctx, tx, accountID, changeID)
	})
}

// planCheckoutGrace is how long after a subscription checkout's expires_at
// its plan change is ended by ExpirePlanCheckouts: at once under the
// sandbox; under Stripe, which sends checkout.session.expired itself, only
// as a backstop for a lost event.
func (r *Resolver) planCheckoutGrace() time.Duration {
	if r.Processor.Name() == processor.Sandbox {
		return 0
	}
	return stripeExpiryGrace
}

// ExpirePlanCheckouts ends, as failed, the pending plan changes whose
// subscription checkout expired unpaid (expirePlanChange each), and
// returns how many it ended.
func (r *Resolver) ExpirePlanCheckouts(ctx context.Context) (int, error) {
	var due []planChangeRow
	if err := r.DB.NewSelect().Model(&due).Column("id", "account_id").Where("status = 'pending'").
		Where("expires_at <= ?", r.Now().Add(-r.planCheckoutGrace())).Limit(1000).Scan(ctx); err != nil {
		return 0, fmt.Errorf("find expired plan checkouts: %w", err)
	}
	for _, c := range due {
		if err := r.expirePlanChange(ctx, c.AccountID, c.ID); err != nil {
			return 0, fmt.Errorf("expire plan checkout %s: %w", c.ID, err)
		}
	}
	return len(due), nil
}

// GraceArgs is the periodic job that ends expired grace periods.
type GraceArgs struct{}

// Kind names the job.
func (GraceArgs) Kind() string { return "billing_grace" }

// GraceWorker runs GraceArgs.
type GraceWorker struct {
	river.WorkerDefaults[GraceArgs]
	R *Resolver
}

// Timeout bounds one round.
func (w *GraceWorker) Timeout(*river.Job[GraceArgs]) time.Duration { return 20 * time.Second }

// Work ends the grace periods that have run out, and the subscription
// checkouts that expired unpaid.
func (w *GraceWorker) Work(ctx context.Context, _ *river.Job[GraceArgs]) error {
	if _, err := w.R.ExpireGracePeriods(ctx); err != nil {
		return err
	}
	_, err := w.R.ExpirePlanCheckouts(ctx)
	return err
}

// GracePeriodic enqueues GraceArgs every 10 minutes (jobs.RunPeriodic).
func GracePeriodic() jobs.Periodic {
	return jobs.Periodic{Name: GraceArgs{}.Kind(), Every: 10 * time.Minute,
		Job: func() (river.JobArgs, *river.InsertOpts) { return GraceArgs{}, nil }}
}

// SandboxBillingCheckout is what the sandbox's hosted subscription page shows.
type SandboxBillingCheckout struct {
	Token     string
	PlanName  string
	PriceText string
	Email     string
	Status    string
}

func (r *Resolver) sandboxPlanChange(ctx context.Context, token string) (*planChangeRow, error) {
	id, ok := sandbox.BillingTokenChangeID(token)
	if !ok || r.Processor.Name() != processor.Sandbox {
		return nil, problem.NotFoundf("No sandbox subscription checkout %q.", token)
	}
	c := new(planChangeRow)
	if err := r.DB.NewSelect().Model(c).Where("id = ?", id).Where("checkout_session_id = ?", token).Scan(ctx); err != nil {
		return nil, problem.NotFoundf("No sandbox subscription checkout %q.", token)
	}
	return c, nil
}

// SandboxBillingPage returns the sandbox's subscription checkout of a
// token. Errors: not_found.
func (r *Resolver) SandboxBillingPage(ctx context.Context, token string) (*SandboxBillingCheckout, error) {
	c, err := r.sandboxPlanChange(ctx, token)
	if err != nil {
		return nil, err
	}
	plan, _ := PlanByID(c.Plan)
	var email string
	if err := r.DB.NewSelect().Table("accounts").Column("email").Where("id = ?", c.AccountID).Scan(ctx, &email); err != nil {
		return nil, err
	}
	return &SandboxBillingCheckout{Token: token, PlanName: plan.Name, Email: email, Status: c.Status,
		PriceText: fmt.Sprintf("%d.%02d USD a month", plan.MonthlyPrice/100, plan.MonthlyPrice%100)}, nil
}

// CompleteSandboxBilling plays a subscription checkout's outcome (paid or
// failed) through the processor event path and returns where to send the
// seller: the console's billing page. Errors: not_found, validation_error
// (outcome).
func (r *Resolver) CompleteSandboxBilling(ctx context.Context, token, outcome string) (string, error) {
	c, err := r.sandboxPlanChange(ctx, token)
	if err != nil {
		return "", err
	}
	// A checkout past its expiry can no longer be paid: it ends as one
	// that failed (what ExpirePlanCheckouts does a moment later anyway).
	if c.Status == "pending" && c.ExpiresAt != nil && !r.Now().Before(*c.ExpiresAt) {
		if err := r.expirePlanChange(ctx, c.AccountID, c.ID); err != nil {
			return "", err
		}
		return r.BillingURL() + "?plan_change=expired", nil
	}
	var ev processor.Event
	switch outcome {
	case "paid":
		ev = sandbox.PlanPaid(c.AccountID, c.ID, c.Plan, r.Now())
	case "failed":
		ev = sandbox.PlanCheckoutFailed(c.AccountID, c.ID)
	default:
		return "", problem.Validation("outcome", "outcome must be paid or failed")
	}
	if err := r.ApplyProcessorEvent(ctx, ev); err != nil {
		return "", err
	}
	return r.BillingURL() + "?plan_change=" + outcome, nil
}

// SandboxBilling plays a renewal outcome (renewal_failed, renewal_paid,
// grace_expired) on a sandbox account's subscription: the operator hook.
// Errors: not_found (no such account, or no subscription), validation_error
// (outcome).
func (r *Resolver) SandboxBilling(ctx context.Context, accountID, outcome string) error {
	if r.Processor.Name() != processor.Sandbox || !db.ValidID("acc", strings.ToLower(accountID)) {
		return problem.NotFoundf("No sandbox account %q.", accountID)
	}
	ev, ok := sandbox.Renewal(accountID, outcome)
	if !ok {
		return problem.Validation("outcome", "outcome must be renewal_failed, renewal_paid or grace_expired")
	}
	sub, err := loadSubscription(ctx, r.DB, accountID, false)
	if err != nil {
		return err
	}
	if sub == nil || sub.Status == processor.SubscriptionPending || sub.Status == processor.SubscriptionCanceled {
		return problem.NotFoundf("Account %q has no subscription to renew.", accountID)
	}
	if outcome == sandbox.RenewalPaidOutcome {
		// A paid renewal starts the next month-long period.
		from := r.Now().UTC()
		if sub.CurrentPeriodEnd != nil && sub.CurrentPeriodEnd.After(from) {
			from = *sub.CurrentPeriodEnd
		}
		end := from.AddDate(0, 1, 0).Truncate(time.Second)
		ev.Billing.CurrentPeriodEnd = &end
	}
	return r.ApplyProcessorEvent(ctx, ev)
}
