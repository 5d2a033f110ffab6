package acp_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"
)

// The pinned ACP 2026-04-17 JSON Schema (testdata/acp-2026-04-17/README.md).

const (
	fixtureDir   = "testdata/acp-2026-04-17"
	bundleURL    = "https://example.com/schemas/agentic-checkout/bundle.schema.json"
	discountURL  = "https://agentic-commerce-protocol.com/schemas/discount.json"
	delegateURL  = "https://example.com/schemas/delegate-payment/bundle.schema.json"
	webhookURL   = "https://example.com/schemas/agentic-checkout/webhook_event.schema.json"
	discountBase = "https://agentic-commerce-protocol.com/schemas/schema.agentic_checkout.json"
)

var (
	schemasOnce sync.Once
	schemas     map[string]*jsonschema.Schema
	schemasErr  error
)

// schemaRefs names the definitions the suite validates against.
var schemaRefs = map[string]string{
	"CheckoutSession":          bundleURL + "#/$defs/CheckoutSession",
	"CheckoutSessionWithOrder": bundleURL + "#/$defs/CheckoutSessionWithOrder",
	"Order":                    bundleURL + "#/$defs/Order",
	"Error":                    bundleURL + "#/$defs/Error",
	"DiscoveryResponse":        bundleURL + "#/$defs/DiscoveryResponse",
	"CheckoutWithDiscount":     discountURL + "#/$defs/checkout_with_discount",
	"DelegatePaymentResponse":  delegateURL + "#/$defs/DelegatePaymentResponse",
	"DelegatePaymentError":     delegateURL + "#/$defs/Error",
	"WebhookEvent":             webhookURL,
}

func loadSchemas() (map[string]*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	for file, urls := range map[string][]string{
		"schema.agentic_checkout.json": {bundleURL, discountBase},
		"schema.discount.json":         {discountURL},
		"schema.delegate_payment.json": {delegateURL},
		"webhook_event.schema.json":    {webhookURL},
	} {
		for _, u := range urls {
			f, err := os.Open(filepath.Join(fixtureDir, file))
			if err != nil {
				return nil, err
			}
			doc, err := jsonschema.UnmarshalJSON(f)
			f.Close()
			if err != nil {
				return nil, err
			}
			if err := c.AddResource(u, doc); err != nil {
				return nil, err
			}
		}
	}
	out := map[string]*jsonschema.Schema{}
	for name, ref := range schemaRefs {
		s, err := c.Compile(ref)
		if err != nil {
			return nil, err
		}
		out[name] = s
	}
	return out, nil
}

// validate checks a JSON document against a definition of the pinned schema.
func validate(t testing.TB, def string, body []byte) {
	t.Helper()
	schemasOnce.Do(func() { schemas, schemasErr = loadSchemas() })
	require.NoError(t, schemasErr)
	s, ok := schemas[def]
	require.True(t, ok, "no schema %s", def)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	require.NoError(t, err, "%s", body)
	require.NoError(t, s.Validate(inst), "%s against %s:\n%s", def, schemaRefs[def], body)
}

// validateSession validates a session: a completed one (with order)
// against CheckoutSessionWithOrder and its order against Order; every one
// against the discount extension's checkout_with_discount.
func validateSession(t testing.TB, body []byte) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(body, &m), "%s", body)
	if o, ok := m["order"]; ok {
		validate(t, "CheckoutSessionWithOrder", body)
		ob, err := json.Marshal(o)
		require.NoError(t, err)
		validate(t, "Order", ob)
	} else {
		validate(t, "CheckoutSession", body)
	}
	validate(t, "CheckoutWithDiscount", body)
	return m
}

// The schema refuses what it should (the validator is not vacuous).
func TestPinnedSchemaRefuses(t *testing.T) {
	schemasOnce.Do(func() { schemas, schemasErr = loadSchemas() })
	require.NoError(t, schemasErr)
	for def, doc := range map[string]string{
		"CheckoutSession":   `{"id":"x","status":"open","currency":"usd","line_items":[],"totals":[],"fulfillment_options":[],"messages":[],"links":[],"capabilities":{}}`,
		"Error":             `{"type":"authentication_error","code":"x","message":"m"}`,
		"DiscoveryResponse": `{"protocol":{"name":"acp","version":"2026-04-17","supported_versions":["2026-04-17"]},"api_base_url":"not a url","transports":["rest"],"capabilities":{"services":["checkout"]}}`,
		"WebhookEvent":      `{"type":"order_create","data":{"type":"order","id":"o","checkout_session_id":"s","permalink_url":"https://x.example/o"}}`,
	} {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(doc)))
		require.NoError(t, err)
		require.Error(t, schemas[def].Validate(inst), def)
	}
	// An empty capabilities.extensions matches both branches of its oneOf.
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(`{"id":"x","status":"canceled","currency":"usd","line_items":[],"totals":[],"fulfillment_options":[],"messages":[],"links":[],"capabilities":{"extensions":[]}}`)))
	require.NoError(t, err)
	require.Error(t, schemas["CheckoutSession"].Validate(inst))
}
