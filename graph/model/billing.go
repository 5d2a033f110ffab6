package model

import "time"

// PlanChange is the result of changing plan (POST /v1/account/plan).
type PlanChange struct {
	Object    string           `json:"object"`
	Plan      PlanID           `json:"plan"`
	Status    PlanChangeStatus `json:"status"`
	URL       *string          `json:"url"`
	ExpiresAt *time.Time       `json:"expires_at"`
}

// ChangePlanInput is the body of POST /v1/account/plan.
type ChangePlanInput struct {
	Plan PlanID `json:"plan"`
}

// BillingSubscription is the account's subscription to a paid plan (GraphQL
// BillingSubscription: the name Subscription is the root of subscriptions).
type BillingSubscription struct {
	Plan             PlanID             `json:"plan"`
	Status           SubscriptionStatus `json:"status"`
	CurrentPeriodEnd *time.Time         `json:"current_period_end"`
	CancelAt         *time.Time         `json:"cancel_at"`
}

// PlanChangeStatus: the state of a plan change.
type PlanChangeStatus string

// The values of PlanChangeStatus.
const (
	PlanChangeStatusPending PlanChangeStatus = "pending" // Waiting for the processor to confirm payment.
	PlanChangeStatusActive  PlanChangeStatus = "active"  // The plan is in force.
)

// Valid reports whether v is one of the values of PlanChangeStatus.
func (v PlanChangeStatus) Valid() bool {
	return v == PlanChangeStatusPending || v == PlanChangeStatusActive
}

// SubscriptionStatus: the state of the account's subscription.
type SubscriptionStatus string

// The values of SubscriptionStatus.
const (
	SubscriptionStatusPending  SubscriptionStatus = "pending"  // A checkout is open, nothing paid yet.
	SubscriptionStatusActive   SubscriptionStatus = "active"   // Paid up.
	SubscriptionStatusPastDue  SubscriptionStatus = "past_due" // A renewal failed; grace period.
	SubscriptionStatusUnpaid   SubscriptionStatus = "unpaid"   // The grace period ended unpaid.
	SubscriptionStatusCanceled SubscriptionStatus = "canceled" // Ended: the free plan.
)

// Valid reports whether v is one of the values of SubscriptionStatus.
func (v SubscriptionStatus) Valid() bool {
	switch v {
	case SubscriptionStatusPending, SubscriptionStatusActive, SubscriptionStatusPastDue,
		SubscriptionStatusUnpaid, SubscriptionStatusCanceled:
		return true
	}
	return false
}
