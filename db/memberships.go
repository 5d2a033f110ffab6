package db

import (
	"time"

	"github.com/uptrace/bun"
)

// Order billing reasons (CONTRACT §26).
const (
	BillingReasonCreate = "membership_create"
	BillingReasonCycle  = "membership_cycle"
)

// Membership is a row of memberships (CONTRACT §26). Its status moves
// only through package membership's transition table; the resolvers
// write what it returns.
type Membership struct {
	bun.BaseModel `bun:"table:memberships"`

	ID         string `bun:"id,pk"`
	AccountID  string `bun:"account_id"`
	ListingID  string `bun:"listing_id"`
	CustomerID string `bun:"customer_id"`
	BuyerEmail string `bun:"buyer_email"`
	Status     string `bun:"status"`
	Interval   string `bun:"interval"`
	// Price is the listing's price per period when bought; Amount what the
	// next period will be charged (a first-period discount shows until
	// that period is paid, DiscountID its code meanwhile).
	Price      int64   `bun:"price"`
	Amount     int64   `bun:"amount"`
	Currency   string  `bun:"currency"`
	DiscountID *string `bun:"discount_id"`
	// BillingAnchor is what the period ends are counted from
	// (membership.PeriodEnd): the first payment, or the trial's end.
	BillingAnchor      time.Time  `bun:"billing_anchor"`
	CurrentPeriodStart time.Time  `bun:"current_period_start"`
	CurrentPeriodEnd   time.Time  `bun:"current_period_end"`
	TrialEnd           *time.Time `bun:"trial_end"`
	CancelAtPeriodEnd  bool       `bun:"cancel_at_period_end"`
	CanceledAt         *time.Time `bun:"canceled_at"`
	EndedAt            *time.Time `bun:"ended_at"`
	EndedReason        *string    `bun:"ended_reason"`
	FirstOrderID       string     `bun:"first_order_id"`
	LatestOrderID      string     `bun:"latest_order_id"`
	OrdersCount        int        `bun:"orders_count"`
	// Cycle is the period being billed (1: the first order's).
	Cycle int `bun:"cycle"`
	// NextActionAt is when the renewal sweep acts next (the renewal, the
	// next retry, the end of a canceled membership); nil once ended, or
	// while the processor renews the membership itself.
	NextActionAt *time.Time `bun:"next_action_at"`
	// Attempt counts the failed attempts of the current renewal.
	Attempt int `bun:"attempt"`
	// RenewalOrderID is the order of the period being charged; nil between
	// renewals.
	RenewalOrderID *string `bun:"renewal_order_id"`
	// PaymentMethod is the sandbox's stored payment method;
	// ProcessorSubscriptionID and ProcessorCustomerID Stripe's subscription
	// and customer on the connected account.
	PaymentMethod           *string   `bun:"payment_method"`
	ProcessorSubscriptionID *string   `bun:"processor_subscription_id"`
	ProcessorCustomerID     *string   `bun:"processor_customer_id"`
	TestMode                bool      `bun:"test_mode"`
	CreatedAt               time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	UpdatedAt               time.Time `bun:"updated_at,nullzero,notnull,default:current_timestamp"`
}
