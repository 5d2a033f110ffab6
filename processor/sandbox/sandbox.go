// Package sandbox is the processor's test mode served by the service itself
// (CONTRACT §11), so the whole flow runs on one machine with nothing
// external. Its onboarding and checkout pages live in pages/; what they
// produce are the same normalized processor events the Stripe
// implementation produces, handled by the same resolvers.
package sandbox

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/http"
	"strings"
	"time"

	"commerce/db"
	"commerce/processor"
)

// AccountPrefix starts every sandbox connected-account id.
const AccountPrefix = "sbx_acct_"

// onboardingLife is how long an onboarding link is advertised to live.
const onboardingLife = time.Hour

// Processor is the sandbox processor.
type Processor struct {
	// BaseURL is the service's public address; the sandbox pages live under it.
	BaseURL string
	Now     func() time.Time
	// DB keeps the sandbox's charges of stored payment methods
	// (sandbox_charges, ChargeMembership); nil: it cannot charge them.
	DB *db.DB
}

// New returns the sandbox processor for a service at baseURL.
func New(baseURL string) *Processor {
	return &Processor{BaseURL: strings.TrimSuffix(baseURL, "/"), Now: time.Now}
}

var _ processor.Processor = (*Processor)(nil)

// Name is processor.Sandbox.
func (p *Processor) Name() string { return processor.Sandbox }

// CreateAccount returns a new, unguessable sandbox account id: it is also
// the onboarding page's token.
func (p *Processor) CreateAccount(ctx context.Context, a processor.NewAccount) (string, error) {
	return AccountPrefix + strings.ToLower(rand.Text()), nil
}

// OnboardingLink is the sandbox onboarding page of the account.
func (p *Processor) OnboardingLink(ctx context.Context, processorAccountID, returnURL, refreshURL string) (processor.Onboarding, error) {
	if !strings.HasPrefix(processorAccountID, AccountPrefix) {
		return processor.Onboarding{}, fmt.Errorf("sandbox: %q is not a sandbox account", processorAccountID)
	}
	return processor.Onboarding{
		URL:       p.BaseURL + "/sandbox/onboarding/" + processorAccountID,
		ExpiresAt: p.Now().Add(onboardingLife).UTC().Truncate(time.Second),
	}, nil
}

// ParseWebhook refuses everything: the sandbox sends no inbound webhooks
// (its events are produced in process by its pages).
func (p *Processor) ParseWebhook(payload []byte, header http.Header) (processor.Event, error) {
	return processor.Event{}, fmt.Errorf("sandbox: no inbound webhooks: %w", processor.ErrBadSignature)
}

// AccountUpdated is the event the onboarding page produces when the seller
// completes it: charges and payouts enabled, the chosen default currency.
func AccountUpdated(processorAccountID, currency string) processor.Event {
	return processor.Event{
		ID:      db.NewID("sbx_evt"),
		Type:    processor.AccountUpdated,
		RawType: "account.updated",
		Account: &processor.AccountStatus{
			AccountID:        processorAccountID,
			ChargesEnabled:   true,
			PayoutsEnabled:   true,
			DetailsSubmitted: true,
			Currency:         strings.ToLower(currency),
		},
	}
}

// RegisterTestEndpoint registers nothing: the sandbox is test mode already
// and ignores sellers' test keys.
func (p *Processor) RegisterTestEndpoint(ctx context.Context, apiKey, url string) (processor.TestEndpoint, error) {
	return processor.TestEndpoint{}, nil
}

// DeleteTestEndpoint does nothing (see RegisterTestEndpoint).
func (p *Processor) DeleteTestEndpoint(ctx context.Context, apiKey, endpointID string) error {
	return nil
}

// ParseTestWebhook refuses everything, like ParseWebhook.
func (p *Processor) ParseTestWebhook(payload []byte, header http.Header, secret string) (processor.Event, error) {
	return processor.Event{}, fmt.Errorf("sandbox: no inbound webhooks: %w", processor.ErrBadSignature)
}
