// Package stripe implements processor.Processor on Stripe Connect.
//
// Sellers get Express connected accounts: Stripe hosts onboarding,
// identity verification and the sellers' dashboard, so the service stores
// nothing but the acct_ id. Onboarding goes through Account Links of type
// account_onboarding, which are single-use and short-lived; the service asks
// for a fresh one whenever the seller (re)starts onboarding or the refresh URL
// is hit. Whether the seller can be paid is learnt from account.updated
// webhooks, not by polling.
//
// Buyers pay through Checkout Sessions created on the platform as
// destination charges: the charge, its payment intent, refunds and disputes
// live on the platform account, the platform fee is kept as the application
// fee and the rest is transferred to the seller's connected account. Refunds
// reverse the transfer and refund the application fee, so the seller and the
// platform each give back their share.
//
// Disconnecting makes no remote call: the service forgets the link to the
// acct_ id and the seller keeps their Stripe account, its balance and its
// payout history. Deleting or rejecting the account would take the seller's
// balance and records away from them, so the service never does either.
//
// Every Processor carries its own API client (key, base URL and HTTP client);
// the package-level globals of stripe-go (stripe.Key and the default
// backends) are never touched, so several processors, for instance one per
// test against stripe-mock, can coexist in one process.
package stripe

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	stripego "github.com/stripe/stripe-go/v76"
	"github.com/stripe/stripe-go/v76/client"
	"github.com/stripe/stripe-go/v76/webhook"

	"commerce/processor"
)

// WebhookTolerance is how old a webhook's signature timestamp may be before
// the webhook is refused as a possible replay.
const WebhookTolerance = 300 * time.Second

// Config configures a Processor.
type Config struct {
	// SecretKey is the platform's secret (sk_…) or restricted (rk_…) key
	// (STRIPE_SECRET_KEY). Required.
	SecretKey string
	// WebhookSecret is the signing secret of the webhook endpoint, whsec_…
	// (STRIPE_WEBHOOK_SECRET). Several secrets may be given separated by
	// commas, and a webhook signed with any of them is accepted: Stripe
	// delivers the platform's own events (checkout, charges, disputes) to an
	// account endpoint and the connected accounts' events (account.updated)
	// to a Connect endpoint, and each endpoint has its own secret. When
	// empty, every webhook is refused with processor.ErrBadSignature.
	WebhookSecret string
	// APIBase is the base URL of the API (STRIPE_API_BASE); "" is Stripe's
	// real API. Tests point it at stripe-mock.
	APIBase string
	// HTTPClient makes the API requests; nil is stripe-go's default client
	// (80 s timeout).
	HTTPClient *http.Client
}

// Processor is Stripe Connect. It is safe for concurrent use.
type Processor struct {
	api            *client.API
	backends       *stripego.Backends
	webhookSecrets []string
}

// apiFor is the client for a request: the platform's, or one with a
// seller's test key (test mode).
func (p *Processor) apiFor(key string) *client.API {
	if key == "" {
		return p.api
	}
	return client.New(key, p.backends)
}

var _ processor.Processor = (*Processor)(nil)

// New returns a Processor for cfg. It makes no request.
func New(cfg Config) (*Processor, error) {
	if cfg.SecretKey == "" {
		return nil, errors.New("stripe: a secret key is required")
	}
	if cfg.APIBase != "" {
		u, err := url.Parse(cfg.APIBase)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("stripe: API base %q is not an absolute http(s) URL", cfg.APIBase)
		}
	}
	// Errors are returned to the caller, who logs them; stripe-go's own
	// logger would only print them a second time, unstructured, to stderr.
	quiet := &stripego.LeveledLogger{Level: stripego.LevelNull}
	backend := func(typ stripego.SupportedBackend, base string) stripego.Backend {
		bc := &stripego.BackendConfig{HTTPClient: cfg.HTTPClient, LeveledLogger: quiet}
		if base != "" {
			bc.URL = stripego.String(base)
		}
		return stripego.GetBackendWithConfig(typ, bc)
	}
	backends := &stripego.Backends{
		API:     backend(stripego.APIBackend, cfg.APIBase),
		Uploads: backend(stripego.UploadsBackend, cfg.APIBase),
		// OAuth (connect.stripe.com) is not used: Express accounts are
		// created through the API and onboarded with account links.
		Connect: backend(stripego.ConnectBackend, ""),
	}
	return &Processor{api: client.New(cfg.SecretKey, backends), backends: backends, webhookSecrets: splitSecrets(cfg.WebhookSecret)}, nil
}

// splitSecrets splits a comma-separated list of webhook secrets, dropping
// blanks.
func splitSecrets(s string) []string {
	var secrets []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			secrets = append(secrets, v)
		}
	}
	return secrets
}

// Name returns processor.Stripe.
func (p *Processor) Name() string { return processor.Stripe }

// CreateAccount creates an Express connected account for the seller, with
// the card_payments and transfers capabilities requested and the service's
// account id in its metadata (account_id), and returns its acct_ id.
//
// The request's idempotency key is derived from the service's account id
// and the email, so a retried call (by stripe-go after a network failure, or
// by the service after a crash between this call and storing the result)
// returns the account already created instead of creating a second one.
// Stripe keeps idempotency keys for 24 hours; the email is part of the key
// because Stripe refuses a key reused with different parameters.
func (p *Processor) CreateAccount(ctx context.Context, a processor.NewAccount) (string, error) {
	if a.AccountID == "" {
		return "", errors.New("stripe: create account: the service account id is required")
	}
	params := &stripego.AccountParams{
		Type:  stripego.String(string(stripego.AccountTypeExpress)),
		Email: optional(a.Email),
		Capabilities: &stripego.AccountCapabilitiesParams{
			CardPayments: &stripego.AccountCapabilitiesCardPaymentsParams{Requested: stripego.Bool(true)},
			Transfers:    &stripego.AccountCapabilitiesTransfersParams{Requested: stripego.Bool(true)},
		},
	}
	params.Context = ctx
	params.AddMetadata("account_id", a.AccountID)
	params.SetIdempotencyKey(createAccountKey(a))
	acct, err := p.api.Accounts.New(params)
	if err != nil {
		return "", fmt.Errorf("stripe: create account for %s: %w", a.AccountID, err)
	}
	if acct.ID == "" {
		return "", fmt.Errorf("stripe: create account for %s: the response has no account id", a.AccountID)
	}
	return acct.ID, nil
}

// createAccountKey is the idempotency key of CreateAccount for a.
func createAccountKey(a processor.NewAccount) string {
	sum := sha256.Sum256([]byte(a.Email))
	return "commerce-create-account-" + a.AccountID + "-" + hex.EncodeToString(sum[:8])
}

// OnboardingLink creates an account_onboarding Account Link for the
// connected account. Account links are single-use and expire after a few
// minutes, so a new one is created on every call.
func (p *Processor) OnboardingLink(ctx context.Context, processorAccountID, returnURL, refreshURL string) (processor.Onboarding, error) {
	params := &stripego.AccountLinkParams{
		Account:    stripego.String(processorAccountID),
		Type:       stripego.String(string(stripego.AccountLinkTypeAccountOnboarding)),
		ReturnURL:  stripego.String(returnURL),
		RefreshURL: stripego.String(refreshURL),
	}
	params.Context = ctx
	link, err := p.api.AccountLinks.New(params)
	if err != nil {
		return processor.Onboarding{}, fmt.Errorf("stripe: create account link for %s: %w", processorAccountID, err)
	}
	if link.URL == "" {
		return processor.Onboarding{}, fmt.Errorf("stripe: create account link for %s: the response has no url", processorAccountID)
	}
	return processor.Onboarding{URL: link.URL, ExpiresAt: time.Unix(link.ExpiresAt, 0).UTC()}, nil
}

// ParseWebhook verifies the Stripe-Signature header of a webhook against the
// webhook secret(s), refusing signatures older than WebhookTolerance, and
// normalizes the event. Events of any API version are accepted: only fields
// that are stable across versions are read.
//
// A missing, malformed, wrong or expired signature is an error wrapping
// processor.ErrBadSignature; a correctly signed event whose body cannot be
// decoded is a plain error. account.updated becomes processor.AccountUpdated.
// Every other event from a connected account (the event's account set) is a
// membership's or none of the service's business (see connectedEvent). On
// the platform, the plan subscriptions' events are normalized as described
// at billingEvent, and the checkout, payment intent, refund and dispute
// events as described at paymentEvent. Every other type is
// processor.Ignored.
func (p *Processor) ParseWebhook(payload []byte, header http.Header) (processor.Event, error) {
	if len(p.webhookSecrets) == 0 {
		return processor.Event{}, fmt.Errorf("%w: no webhook secret is configured (STRIPE_WEBHOOK_SECRET)", processor.ErrBadSignature)
	}
	e, err := verify(payload, header, p.webhookSecrets)
	if err != nil {
		return processor.Event{}, err
	}
	ev := processor.Event{ID: e.ID, Type: processor.Ignored, RawType: string(e.Type)}
	if e.Type == stripego.EventTypeAccountUpdated {
		status, err := accountStatus(e.Data)
		if err != nil {
			return processor.Event{}, fmt.Errorf("stripe: webhook %s (%s): %w", e.ID, e.Type, err)
		}
		ev.Type, ev.Account = processor.AccountUpdated, status
		return ev, nil
	}
	if e.Account != "" {
		// On a connected account: a membership's events, or none of the
		// service's business.
		err := connectedEvent(&ev, &e)
		if err != nil {
			return processor.Event{}, fmt.Errorf("stripe: webhook %s (%s) from %s: %w", e.ID, e.Type, e.Account, err)
		}
		return ev, nil
	}
	if handled, err := billingEvent(&ev, &e); handled || err != nil {
		if err != nil {
			return processor.Event{}, fmt.Errorf("stripe: webhook %s (%s): %w", e.ID, e.Type, err)
		}
		return ev, nil
	}
	if err := paymentEvent(&ev, &e); err != nil {
		return processor.Event{}, fmt.Errorf("stripe: webhook %s (%s): %w", e.ID, e.Type, err)
	}
	return ev, nil
}

// connectedEvent normalizes an event from a connected account into ev: a
// membership's checkout, invoices and subscription (membershipEvent), and
// the refunds and disputes of the charges its invoices made there
// (connectedPaymentEvent), each carrying the account
// (ConnectedAccountID). Anything else there is the seller's own business:
// Ignored. No connected account's event is ever a plan's (those are the
// platform's) or a one-time order's (destination charges on the platform).
func connectedEvent(ev *processor.Event, e *stripego.Event) error {
	handled, err := membershipEvent(ev, e)
	if err != nil {
		return err
	}
	if !handled {
		if err := connectedPaymentEvent(ev, e); err != nil {
			return err
		}
	}
	if ev.Type != processor.Ignored {
		ev.ConnectedAccountID = e.Account
	}
	return nil
}

// verify checks a webhook's Stripe-Signature against any of secrets and
// decodes the event (see ParseWebhook for the errors).
func verify(payload []byte, header http.Header, secrets []string) (stripego.Event, error) {
	var e stripego.Event
	var err error
	for _, secret := range secrets {
		e, err = webhook.ConstructEventWithOptions(payload, header.Get("Stripe-Signature"), secret,
			webhook.ConstructEventOptions{Tolerance: WebhookTolerance, IgnoreAPIVersionMismatch: true})
		if !errors.Is(err, webhook.ErrNoValidSignature) {
			break
		}
	}
	if err != nil {
		if isSignatureError(err) {
			return e, fmt.Errorf("%w: %w", processor.ErrBadSignature, err)
		}
		return e, fmt.Errorf("stripe: webhook: %w", err)
	}
	if e.ID == "" {
		return e, errors.New("stripe: webhook: the event has no id")
	}
	return e, nil
}

// isSignatureError reports whether err, from webhook.ConstructEventWithOptions,
// is a failed verification rather than an undecodable body.
func isSignatureError(err error) bool {
	return errors.Is(err, webhook.ErrNotSigned) || errors.Is(err, webhook.ErrInvalidHeader) ||
		errors.Is(err, webhook.ErrNoValidSignature) || errors.Is(err, webhook.ErrTooOld)
}

// accountStatus decodes the account of an account.updated event.
func accountStatus(data *stripego.EventData) (*processor.AccountStatus, error) {
	if data == nil || len(data.Raw) == 0 {
		return nil, errors.New("the event has no data.object")
	}
	var a stripego.Account
	if err := json.Unmarshal(data.Raw, &a); err != nil {
		return nil, fmt.Errorf("decode the account: %w", err)
	}
	if a.ID == "" || a.Object != "account" {
		return nil, errors.New("data.object is not an account")
	}
	return &processor.AccountStatus{
		AccountID:        a.ID,
		ChargesEnabled:   a.ChargesEnabled,
		PayoutsEnabled:   a.PayoutsEnabled,
		DetailsSubmitted: a.DetailsSubmitted,
		Currency:         strings.ToLower(string(a.DefaultCurrency)),
	}, nil
}

// optional is nil for "" and a pointer to s otherwise, for parameters that
// must be left out rather than sent empty.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
