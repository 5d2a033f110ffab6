package stripe

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	stripego "github.com/stripe/stripe-go/v76"

	"commerce/processor"
)

// Test mode: a seller's own test key (sk_test_… or rk_test_…). Checkouts
// made with it are direct charges on the seller's own test account, so
// their events go to that account's webhook endpoints, never the
// platform's. The service therefore registers an endpoint of its own there
// when the key is set (RegisterTestEndpoint) and verifies what arrives at
// it with that endpoint's secret (ParseTestWebhook).

// TestEndpointEvents are the event types the test-mode endpoint receives:
// the payment events paymentEvent reads, and the invoice and subscription
// events of memberships (membershipEvent).
var TestEndpointEvents = []string{
	string(stripego.EventTypeCheckoutSessionCompleted), string(stripego.EventTypeCheckoutSessionAsyncPaymentSucceeded),
	string(stripego.EventTypeCheckoutSessionAsyncPaymentFailed), string(stripego.EventTypeCheckoutSessionExpired),
	string(stripego.EventTypePaymentIntentPaymentFailed), string(stripego.EventTypeChargeRefunded),
	string(stripego.EventTypeChargeDisputeCreated), string(stripego.EventTypeChargeDisputeUpdated),
	string(stripego.EventTypeChargeDisputeClosed),
	string(stripego.EventTypeInvoicePaid), string(stripego.EventTypeInvoicePaymentFailed),
	string(stripego.EventTypeCustomerSubscriptionUpdated), string(stripego.EventTypeCustomerSubscriptionDeleted),
}

// RegisterTestEndpoint creates a webhook endpoint at url on the account of
// apiKey, for TestEndpointEvents, and returns its id and signing secret
// (which Stripe shows only in this response). An authentication or
// permission error from Stripe is processor.ErrTestKeyRefused.
func (p *Processor) RegisterTestEndpoint(ctx context.Context, apiKey, url string) (processor.TestEndpoint, error) {
	if apiKey == "" || url == "" {
		return processor.TestEndpoint{}, errors.New("stripe: register test endpoint: the key and url are required")
	}
	params := &stripego.WebhookEndpointParams{
		URL:           stripego.String(url),
		EnabledEvents: stripego.StringSlice(TestEndpointEvents),
		Description:   stripego.String("commerce: test-mode checkouts"),
	}
	params.Context = ctx
	we, err := p.apiFor(apiKey).WebhookEndpoints.New(params)
	if err != nil {
		var serr *stripego.Error
		if errors.As(err, &serr) && (serr.HTTPStatusCode == http.StatusUnauthorized || serr.HTTPStatusCode == http.StatusForbidden) {
			return processor.TestEndpoint{}, fmt.Errorf("%w: %w", processor.ErrTestKeyRefused, err)
		}
		return processor.TestEndpoint{}, fmt.Errorf("stripe: register test endpoint: %w", err)
	}
	if we.ID == "" || we.Secret == "" {
		return processor.TestEndpoint{}, errors.New("stripe: register test endpoint: the response has no id or secret")
	}
	return processor.TestEndpoint{ID: we.ID, Secret: we.Secret}, nil
}

// DeleteTestEndpoint deletes the endpoint with the key that made it; one
// Stripe no longer has (resource_missing) counts as deleted.
func (p *Processor) DeleteTestEndpoint(ctx context.Context, apiKey, endpointID string) error {
	params := &stripego.WebhookEndpointParams{}
	params.Context = ctx
	if _, err := p.apiFor(apiKey).WebhookEndpoints.Del(endpointID, params); err != nil {
		var serr *stripego.Error
		if errors.As(err, &serr) && serr.Code == stripego.ErrorCodeResourceMissing {
			return nil
		}
		return fmt.Errorf("stripe: delete test endpoint %s: %w", endpointID, err)
	}
	return nil
}

// ParseTestWebhook verifies a webhook from a seller's test account with
// its endpoint's secret and normalizes its payment events, and its
// memberships' checkout, invoice and subscription events (those whose
// metadata the service wrote), as ParseWebhook does. The seller's own
// subscriptions and accounts are none of the service's business, and
// neither is anything in live mode: those are Ignored.
func (p *Processor) ParseTestWebhook(payload []byte, header http.Header, secret string) (processor.Event, error) {
	if secret == "" {
		return processor.Event{}, fmt.Errorf("%w: no test endpoint is registered", processor.ErrBadSignature)
	}
	e, err := verify(payload, header, []string{secret})
	if err != nil {
		return processor.Event{}, err
	}
	ev := processor.Event{ID: e.ID, Type: processor.Ignored, RawType: string(e.Type)}
	if e.Livemode {
		return ev, nil
	}
	if handled, err := membershipEvent(&ev, &e); handled || err != nil {
		if err != nil {
			return processor.Event{}, fmt.Errorf("stripe: test webhook %s (%s): %w", e.ID, e.Type, err)
		}
		return ev, nil
	}
	if e.Type == stripego.EventTypeCheckoutSessionCompleted || e.Type == stripego.EventTypeCheckoutSessionExpired {
		var s stripego.CheckoutSession
		if err := decodeObject(e.Data, "checkout.session", &s); err != nil {
			return processor.Event{}, fmt.Errorf("stripe: test webhook %s (%s): %w", e.ID, e.Type, err)
		}
		if s.Mode != stripego.CheckoutSessionModePayment {
			return ev, nil
		}
	}
	if err := paymentEvent(&ev, &e); err != nil {
		return processor.Event{}, fmt.Errorf("stripe: test webhook %s (%s): %w", e.ID, e.Type, err)
	}
	return ev, nil
}
