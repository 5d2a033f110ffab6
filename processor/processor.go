// Package processor is the payment processor seen by the rest of the service:
// one interface with two implementations, Stripe Connect (processor/stripe)
// and the built-in sandbox (processor/sandbox). Inbound processor events are
// normalized here into Event, whichever implementation produced them, and
// handed to the resolvers.
package processor

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// Names of the implementations (the PROCESSOR setting).
const (
	Stripe  = "stripe"
	Sandbox = "sandbox"
)

// EventType is the type of a normalized processor event.
type EventType string

const (
	// AccountUpdated: a connected account's capabilities or currency changed.
	AccountUpdated EventType = "account.updated"
	// PaymentSucceeded: the buyer paid an order's checkout.
	PaymentSucceeded EventType = "payment.succeeded"
	// PaymentFailed: the payment of an order's checkout failed.
	PaymentFailed EventType = "payment.failed"
	// CheckoutExpired: the buyer abandoned an order's checkout.
	CheckoutExpired EventType = "checkout.expired"
	// RefundConfirmed: a refund of an order's payment went through.
	RefundConfirmed EventType = "refund.confirmed"
	// DisputeChanged: a dispute on an order's payment opened, moved or closed.
	DisputeChanged EventType = "dispute.changed"
	// PlanPaid: the first payment of a plan's subscription went through
	// (the hosted subscription checkout completed): the plan change is
	// confirmed.
	PlanPaid EventType = "plan.paid"
	// PlanCheckoutFailed: a plan's subscription checkout failed or expired.
	PlanCheckoutFailed EventType = "plan.checkout_failed"
	// RenewalPaid: a subscription invoice was paid.
	RenewalPaid EventType = "renewal.paid"
	// RenewalFailed: a subscription invoice's payment failed.
	RenewalFailed EventType = "renewal.failed"
	// GraceExpired: the grace period of a past-due subscription ended
	// (the sandbox's operator hook; the service's own job does the same).
	GraceExpired EventType = "grace.expired"
	// SubscriptionChanged: a subscription was created, updated or deleted.
	SubscriptionChanged EventType = "subscription.changed"
	// MembershipRenewalPaid: a membership's renewal invoice was paid (the
	// processor renews the membership itself: Stripe Billing).
	MembershipRenewalPaid EventType = "membership.renewal_paid"
	// MembershipRenewalFailed: a membership's renewal invoice failed.
	MembershipRenewalFailed EventType = "membership.renewal_failed"
	// MembershipChanged: a membership's subscription was updated or
	// deleted at the processor.
	MembershipChanged EventType = "membership.changed"
	// Ignored: a verified event of a type the service does not handle; it is
	// acknowledged and otherwise left alone.
	Ignored EventType = "ignored"
)

// Payment identifies an order's payment in an event: the service's order id
// (from the checkout's metadata) and/or the processor's payment intent.
type Payment struct {
	OrderID         string
	SessionID       string
	PaymentIntentID string
	// Amount is what was paid, or for RefundConfirmed the amount refunded so
	// far, in the smallest currency unit.
	Amount int64
	// Currency is lowercase ISO 4217.
	Currency string
	// BuyerEmail is the email the processor's checkout collected
	// (PaymentSucceeded), "" when the event does not say. An order started
	// without the buyer's email takes it (the checkout API).
	BuyerEmail string
	// PaymentMethod is the payment method the checkout of a membership
	// stored (the sandbox's), SubscriptionID and CustomerID the
	// subscription and customer it created (Stripe's); "" otherwise.
	PaymentMethod  string
	SubscriptionID string
	CustomerID     string
}

// Dispute states (order dispute_status).
const (
	DisputeNeedsResponse = "needs_response"
	DisputeUnderReview   = "under_review"
	DisputeWon           = "won"
	DisputeLost          = "lost"
)

// Dispute is a dispute's state in a DisputeChanged event.
type Dispute struct {
	ID     string
	Status string // one of the Dispute* states
	Closed bool
}

// CheckoutRequest describes the checkout of one order: a destination charge
// to the seller's connected account with the platform fee kept.
type CheckoutRequest struct {
	OrderID            string
	ProcessorAccountID string
	Amount             int64
	Currency           string // lowercase
	PlatformFee        int64
	ProductName        string
	BuyerEmail         string
	SuccessURL         string
	CancelURL          string
	// ExpiresAt is when the checkout stops taking payment (zero: the
	// processor's default).
	ExpiresAt time.Time
	// APIKey, when set, is the seller's test key: the checkout runs in the
	// processor's test mode.
	APIKey string
	// Membership, when set, makes the checkout a membership's (CONTRACT
	// §26): the payment method is stored for the renewals; Amount is the
	// first period's (0 with a trial: nothing is charged now) and
	// Membership.PeriodAmount every later period's.
	Membership *MembershipTerms
}

// MembershipTerms are a membership checkout's billing.
type MembershipTerms struct {
	// Interval is "month" or "year".
	Interval string
	// TrialDays is the free trial (0: none).
	TrialDays int
	// PeriodAmount is what each period after the first costs.
	PeriodAmount int64
	// FirstPaidAmount is what the first paid period costs: Amount without
	// a trial, the first renewal's with one. Below PeriodAmount when a
	// discount code takes it (CONTRACT §26: a code takes the first paid
	// period only).
	FirstPaidAmount int64
	// FeePercent is the platform's fee rate in percent ("5", "15"), for
	// processors that bill renewals themselves.
	FeePercent string
	// MembershipID is the membership the checkout creates (mem_…).
	MembershipID string
}

// CheckoutSession is where the buyer pays.
type CheckoutSession struct {
	ID        string
	URL       string
	ExpiresAt time.Time
}

// RefundRequest refunds an order's payment in full, with the platform fee
// refunded and the transfer to the seller reversed.
type RefundRequest struct {
	OrderID            string
	PaymentIntentID    string
	ProcessorAccountID string
	Amount             int64
	// APIKey is the test key the order's checkout used ("" for live).
	APIKey string
	// OnConnectedAccount: the order was paid by a direct charge on the
	// seller's connected account (an ACP order's delegated payment), and
	// is refunded there.
	OnConnectedAccount bool
	// MembershipID is the membership of the order (one of its periods),
	// "" for a one-time order. Stripe charges a membership's periods on
	// the connected account, not the platform, and refunds them there.
	MembershipID string
}

// AccountStatus is the state of a connected account as the processor reports it.
type AccountStatus struct {
	// AccountID is the processor's id of the connected account (acct_… on Stripe).
	AccountID        string
	ChargesEnabled   bool
	PayoutsEnabled   bool
	DetailsSubmitted bool
	// Currency is the account's default currency, lowercase ISO 4217, or ""
	// when the processor does not know it yet.
	Currency string
}

// Event is a verified, normalized inbound event.
type Event struct {
	// ID is the processor's event id; events are deduplicated by it.
	ID   string
	Type EventType
	// RawType is the processor's own type name (e.g. "account.updated").
	RawType string
	// Account is set for AccountUpdated.
	Account *AccountStatus
	// Payment is set for the payment, checkout, refund and dispute events.
	Payment *Payment
	// Dispute is set for DisputeChanged.
	Dispute *Dispute
	// Billing is set for the plan, renewal, grace and subscription events.
	Billing *Billing
	// Membership is set for the membership events.
	Membership *MembershipEvent
	// TestAccountID is set on an event from a seller's test account (test
	// mode): it may change only that account's test-mode orders. Events
	// without it never change a test-mode order.
	TestAccountID string
	// ConnectedAccountID is the seller's connected account (acct_…) an
	// event happened on, for the events the processor reports from there
	// (Stripe: a membership's checkout, invoices, subscription and the
	// refunds and disputes of its charges); "" for the platform's own. Such
	// an event is about that seller's orders and memberships only.
	ConnectedAccountID string
}

// Subscription states as the service names them (account subscription.status).
const (
	SubscriptionPending  = "pending"
	SubscriptionActive   = "active"
	SubscriptionPastDue  = "past_due"
	SubscriptionUnpaid   = "unpaid"
	SubscriptionCanceled = "canceled"
)

// Billing identifies the seller's subscription to a plan in an event. The
// account is found by AccountID (the processor object's metadata) or else
// by SubscriptionID.
type Billing struct {
	// AccountID is the service's account id (acc_…).
	AccountID string
	// ChangeID is the plan change (pch_…) a subscription checkout paid for.
	ChangeID string
	// Plan is the plan paid for (growth or scale), when the event says.
	Plan           string
	CustomerID     string
	SubscriptionID string
	// Status is one of the Subscription* states (SubscriptionChanged).
	Status string
	// CurrentPeriodEnd and CancelAt are the subscription's, when known.
	CurrentPeriodEnd *time.Time
	CancelAt         *time.Time
}

// SubscriptionCheckoutRequest describes the hosted checkout of a plan's
// monthly subscription, paid to the platform.
type SubscriptionCheckoutRequest struct {
	// ChangeID is the plan change (pch_…) this checkout pays for.
	ChangeID  string
	AccountID string
	Email     string
	// CustomerID is the seller's customer at the processor from an earlier
	// subscription ("" for none).
	CustomerID   string
	Plan         string
	PlanName     string
	MonthlyPrice int64
	Currency     string // lowercase
	SuccessURL   string
	CancelURL    string
}

// Onboarding is where the seller completes the processor's onboarding.
type Onboarding struct {
	URL       string
	ExpiresAt time.Time
}

// NewAccount describes the seller for whom a connected account is created.
type NewAccount struct {
	// AccountID is the service's account id (acc_…), recorded as metadata.
	AccountID string
	Email     string
}

// Processor is what the service needs of a payment processor.
type Processor interface {
	// Name is Stripe or Sandbox.
	Name() string
	// CreateAccount creates a connected account and returns its processor id.
	CreateAccount(ctx context.Context, a NewAccount) (string, error)
	// OnboardingLink returns a fresh onboarding URL for a connected account.
	// returnURL is where the processor sends the seller when done,
	// refreshURL where it sends them when the link has expired.
	OnboardingLink(ctx context.Context, processorAccountID, returnURL, refreshURL string) (Onboarding, error)
	// CreateCheckout creates the checkout of an order.
	CreateCheckout(ctx context.Context, req CheckoutRequest) (CheckoutSession, error)
	// Refund starts a full refund; its confirmation arrives later as a
	// RefundConfirmed event. It is idempotent per order.
	Refund(ctx context.Context, req RefundRequest) error
	// CreateSubscriptionCheckout creates the hosted checkout of a plan's
	// subscription; its payment arrives later as a PlanPaid event.
	CreateSubscriptionCheckout(ctx context.Context, req SubscriptionCheckoutRequest) (CheckoutSession, error)
	// CancelSubscription cancels a subscription at once. Canceling one that
	// is already canceled succeeds.
	CancelSubscription(ctx context.Context, subscriptionID string) error
	// ChargeMembership charges one renewal attempt of a membership to its
	// stored payment method, idempotently per IdempotencyKey. A processor
	// that renews memberships itself returns ErrRenewsItself.
	ChargeMembership(ctx context.Context, c MembershipCharge) (ChargeResult, error)
	// UpdateMembership cancels, resumes or ends a membership's subscription
	// at the processor (nothing to do for the sandbox).
	UpdateMembership(ctx context.Context, u MembershipUpdate) error
	// PaymentMethodURL is where the buyer updates a membership's payment
	// method (the sandbox's page; Stripe's customer portal).
	PaymentMethodURL(ctx context.Context, req PaymentMethodRequest) (string, error)
	// RegisterTestEndpoint registers, with a seller's test key, a webhook
	// endpoint at url on the seller's own test account for the payment
	// events of test-mode checkouts, and returns it with its signing secret.
	// A key the processor refuses is ErrTestKeyRefused.
	RegisterTestEndpoint(ctx context.Context, apiKey, url string) (TestEndpoint, error)
	// DeleteTestEndpoint deletes an endpoint RegisterTestEndpoint made; one
	// already gone counts as deleted.
	DeleteTestEndpoint(ctx context.Context, apiKey, endpointID string) error
	// ParseTestWebhook verifies a webhook from a seller's test account with
	// the secret of its endpoint and normalizes its payment events (every
	// other type, and any live-mode event, is Ignored). A bad or missing
	// signature is ErrBadSignature.
	ParseTestWebhook(payload []byte, header http.Header, secret string) (Event, error)
	// ChargeAgentPayment charges a buyer's agent's delegated payment
	// credential (ACP, CONTRACT §25) for an order: the sandbox's vault
	// token, or Stripe's Shared Payment Token on the seller's connected
	// account. It is idempotent per IdempotencyKey: asked again, it returns
	// the first attempt's result and charges nothing more. A decline is not
	// an error: Paid false with DeclineMessage.
	ChargeAgentPayment(ctx context.Context, c AgentCharge) (ChargeResult, error)
	// ParseWebhook verifies an inbound webhook request (its body and
	// headers) and normalizes it. A bad or missing signature is
	// ErrBadSignature; an unhandled type is an Event of type Ignored.
	ParseWebhook(payload []byte, header http.Header) (Event, error)
}

// TestEndpoint is a webhook endpoint on a seller's test account.
type TestEndpoint struct {
	ID     string
	Secret string
}

// MembershipEvent identifies a membership's subscription in a membership
// event, with what the processor says of it.
type MembershipEvent struct {
	// MembershipID is the service's membership id (mem_…) from the
	// subscription's metadata; SubscriptionID the processor's.
	MembershipID   string
	SubscriptionID string
	CustomerID     string
	// InvoiceID, PaymentIntentID, Amount and Currency (lowercase) are the
	// renewal invoice's (MembershipRenewalPaid and MembershipRenewalFailed).
	InvoiceID       string
	PaymentIntentID string
	Amount          int64
	Currency        string
	// AttemptCount is the invoice's attempts so far; NextAttemptAt when the
	// processor tries again (nil: it will not).
	AttemptCount  int
	NextAttemptAt *time.Time
	// PeriodStart and PeriodEnd are the period the invoice pays, or the
	// subscription's current period.
	PeriodStart *time.Time
	PeriodEnd   *time.Time
	// Status is the subscription's status as the processor names it
	// (MembershipChanged); Deleted that it was deleted.
	Status            string
	CancelAtPeriodEnd bool
	Deleted           bool
}

// MembershipCharge is the charge of one renewal attempt to a membership's
// stored payment method.
type MembershipCharge struct {
	MembershipID string
	OrderID      string
	// IdempotencyKey names the attempt: charging it again returns the first
	// charge's result and charges nothing.
	IdempotencyKey     string
	PaymentMethod      string
	ProcessorAccountID string
	Amount             int64
	Currency           string // lowercase
	PlatformFee        int64
	// Outcome is the sandbox's advance outcome ("paid" or "failed"; "":
	// what the payment method does). Other processors ignore it.
	Outcome string
	// APIKey is the seller's test key of a test-mode membership ("" live).
	APIKey string
}

// ChargeResult is what a renewal charge did.
type ChargeResult struct {
	Paid            bool
	PaymentIntentID string
	// DeclineMessage says why a charge was declined, for the buyer's mail.
	DeclineMessage string
}

// AgentCharge is the charge of an agent's delegated payment credential
// for the order of an ACP checkout session.
type AgentCharge struct {
	// IdempotencyKey names the attempt (derived from the session and the
	// credential): a second call with it charges nothing more.
	IdempotencyKey string
	// CheckoutSessionID is the session (acs_…) the credential must be
	// bound to; OrderID the order it pays; AccountID the seller's account
	// (acc_…: the sandbox allowance's merchant_id).
	CheckoutSessionID string
	OrderID           string
	AccountID         string
	// ProcessorAccountID is the seller's connected account.
	ProcessorAccountID string
	// Token is the credential: a sandbox vault token, or a Stripe Shared
	// Payment Token (spt_…).
	Token       string
	Amount      int64
	Currency    string // lowercase
	PlatformFee int64
	// APIKey is the seller's test key of a test-mode order ("" live).
	APIKey string
}

// MembershipUpdate changes a membership's subscription at the processor:
// cancel at the period's end (CancelAtPeriodEnd), resume (its opposite), or
// end at once (CancelNow).
type MembershipUpdate struct {
	MembershipID       string
	SubscriptionID     string
	ProcessorAccountID string
	CancelAtPeriodEnd  bool
	CancelNow          bool
	APIKey             string
}

// PaymentMethodRequest asks where a buyer updates a membership's payment
// method.
type PaymentMethodRequest struct {
	MembershipID       string
	CustomerID         string
	ProcessorAccountID string
	ReturnURL          string
	APIKey             string
}

// ErrRenewsItself: the processor renews memberships itself (Stripe
// Billing) and its invoice events say how each renewal went; the service
// charges nothing.
var ErrRenewsItself = errors.New("processor: the processor renews memberships itself")

// ErrTestKeyRefused: the processor refused a seller's test key.
var ErrTestKeyRefused = errors.New("processor: the test key was refused")

// ErrBadSignature: an inbound webhook's signature is missing, wrong or too old.
var ErrBadSignature = errors.New("processor: webhook signature verification failed")
