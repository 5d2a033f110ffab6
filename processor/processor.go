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
	// ParseWebhook verifies an inbound webhook request (its body and
	// headers) and normalizes it. A bad or missing signature is
	// ErrBadSignature; an unhandled type is an Event of type Ignored.
	ParseWebhook(payload []byte, header http.Header) (Event, error)
}

// ErrBadSignature: an inbound webhook's signature is missing, wrong or too old.
var ErrBadSignature = errors.New("processor: webhook signature verification failed")
