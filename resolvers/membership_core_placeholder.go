package resolvers

import (
	"context"
	"fmt"

	"commerce/db"
	"commerce/membership"
)

// TODO(mem-engine milestone 3): the engine's cancel and resume cores
// replace this file when mem-engine is merged (branch mem-pages only).
// Until then they move the status through the transition table and
// write the row, without the events, mails and processor calls the
// engine's do.

// cancelMembership cancels m, locked in tx: at the period's end, or at
// once. Errors: membership.ErrInvalidTransition.
func (r *Resolver) cancelMembership(ctx context.Context, tx db.Tx, m *db.Membership, atPeriodEnd bool) error {
	ev := membership.Cancel
	if !atPeriodEnd {
		ev = membership.CancelNow
	}
	tr, err := membership.Next(membership.Status(m.Status), ev, membership.Facts{PeriodOver: !r.Now().Before(m.CurrentPeriodEnd)})
	if err != nil || tr.Same {
		return err
	}
	now := r.Now()
	m.Status, m.CanceledAt = string(tr.To), &now
	if tr.To == membership.Ended {
		reason := string(tr.Reason)
		m.EndedAt, m.EndedReason, m.NextActionAt, m.CancelAtPeriodEnd = &now, &reason, nil, false
	} else {
		m.CancelAtPeriodEnd = true
	}
	_, err = tx.NewUpdate().Model(m).WherePK().Column("status", "canceled_at", "ended_at", "ended_reason", "next_action_at", "cancel_at_period_end").
		Set("updated_at = now()").Exec(ctx)
	if err != nil {
		return fmt.Errorf("cancel membership: %w", err)
	}
	return nil
}

// resumeMembership undoes the cancel of m, locked in tx. Errors:
// membership.ErrInvalidTransition.
func (r *Resolver) resumeMembership(ctx context.Context, tx db.Tx, m *db.Membership) error {
	now := r.Now()
	tr, err := membership.Next(membership.Status(m.Status), membership.Resume, membership.Facts{
		InTrial: m.TrialEnd != nil && m.TrialEnd.After(now), PeriodOver: !now.Before(m.CurrentPeriodEnd)})
	if err != nil || tr.Same {
		return err
	}
	m.Status, m.CanceledAt, m.CancelAtPeriodEnd = string(tr.To), nil, false
	_, err = tx.NewUpdate().Model(m).WherePK().Column("status", "canceled_at", "cancel_at_period_end").Set("updated_at = now()").Exec(ctx)
	if err != nil {
		return fmt.Errorf("resume membership: %w", err)
	}
	return nil
}
