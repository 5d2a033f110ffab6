package resolvers

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"commerce/db"
	"commerce/problem"
	"commerce/processor"
)

// Test mode (spec Authentication 7): a seller's processor test key. Its
// checkouts are direct charges on the seller's own test account, so their
// completion reaches the service through a webhook endpoint the service
// registers on that account when the key is set, at
// {base_url}/v1/processor/webhook/accounts/{account_id}.

// testEndpointURL is where a seller's test account sends its events.
func (r *Resolver) testEndpointURL(accountID string) string {
	return r.BaseURL + "/v1/processor/webhook/accounts/" + accountID
}

// registerTestEndpoint registers the test-mode endpoint with a new test
// key and returns its id and sealed secret (both nil when the processor
// needs none). Errors: validation_error (processor_test_key) when the
// processor refuses the key.
func (r *Resolver) registerTestEndpoint(ctx context.Context, accountID, key string) (*string, []byte, error) {
	ep, err := r.Processor.RegisterTestEndpoint(ctx, key, r.testEndpointURL(accountID))
	if errors.Is(err, processor.ErrTestKeyRefused) {
		return nil, nil, problem.Validation("processor_test_key", "The processor refused this test key: give a secret or restricted test key allowed to manage webhook endpoints.")
	}
	if err != nil {
		return nil, nil, fmt.Errorf("register the test-mode endpoint: %w", err)
	}
	if ep.ID == "" {
		return nil, nil, nil
	}
	sealed, err := r.Secrets.Seal(ep.Secret)
	if err != nil {
		return nil, nil, err
	}
	return &ep.ID, sealed, nil
}

// dropTestEndpoint deletes the account's current test-mode endpoint at the
// processor with the key that made it. Best effort: a failure is logged
// (the endpoint's events would only be refused for an unknown signature).
func (r *Resolver) dropTestEndpoint(ctx context.Context, accountID string) {
	var sealedKey []byte
	var endpointID *string
	err := r.DB.NewSelect().Table("accounts").Column("processor_test_key", "processor_test_endpoint_id").
		Where("id = ?", accountID).Scan(ctx, &sealedKey, &endpointID)
	if err != nil || sealedKey == nil || endpointID == nil {
		return
	}
	key, err := r.testKeyOf(sealedKey)
	if err == nil {
		err = r.Processor.DeleteTestEndpoint(ctx, key, *endpointID)
	}
	if err != nil {
		r.Log.WarnContext(ctx, "delete the test-mode endpoint", "account_id", accountID, "endpoint", *endpointID, "error", err)
	}
}

// HandleTestProcessorWebhook verifies an event from a seller's test account
// with the secret of the endpoint registered there, and applies it to that
// account's test-mode orders only. Its id is recorded under the account, so
// it can never shadow a platform event. Errors: invalid_request (unknown
// account, no endpoint, bad signature or payload).
func (r *Resolver) HandleTestProcessorWebhook(ctx context.Context, accountID string, payload []byte, header http.Header) error {
	var sealed []byte
	err := db.NotFound(r.DB.NewSelect().Table("accounts").Column("processor_test_endpoint_secret").
		Where("id = ?", accountID).Where("deleted_at IS NULL").Scan(ctx, &sealed))
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return err
	}
	bad := problem.New(problem.InvalidRequest, "The webhook signature is missing, wrong or too old.")
	if sealed == nil {
		return bad
	}
	secret, err := r.testKeyOf(sealed)
	if err != nil {
		return err
	}
	ev, err := r.Processor.ParseTestWebhook(payload, header, secret)
	if errors.Is(err, processor.ErrBadSignature) {
		return bad
	}
	if err != nil {
		return problem.New(problem.InvalidRequest, "The webhook payload could not be read.")
	}
	if ev.Type == processor.Ignored {
		return nil
	}
	ev.ID = "test:" + accountID + ":" + ev.ID
	ev.TestAccountID = accountID
	return r.ApplyProcessorEvent(ctx, ev)
}
