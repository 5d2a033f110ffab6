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
	// Ignored: a verified event of a type the service does not handle; it is
	// acknowledged and otherwise left alone.
	Ignored EventType = "ignored"
)

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
	// ParseWebhook verifies an inbound webhook request (its body and
	// headers) and normalizes it. A bad or missing signature is
	// ErrBadSignature; an unhandled type is an Event of type Ignored.
	ParseWebhook(payload []byte, header http.Header) (Event, error)
}

// ErrBadSignature: an inbound webhook's signature is missing, wrong or too old.
var ErrBadSignature = errors.New("processor: webhook signature verification failed")
