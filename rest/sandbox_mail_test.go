package rest_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/config"
	"commerce/testkit"
)

// The sandbox mailbox (kept mail, passcodes included) exists only in
// sandbox mode: under PROCESSOR=stripe its pages are 404.
func TestSandboxMailboxOnlyInSandboxMode(t *testing.T) {
	t.Parallel()
	sandbox := testkit.New(t)
	require.Equal(t, 200, sandbox.Get("/sandbox/mail", "").Status)

	mock := testkit.StripeMock(t)
	env := testkit.New(t, testkit.WithConfig(func(c *config.Config) {
		c.Processor = "stripe"
		c.StripeSecretKey = testkit.StripeMockKey
		c.StripeWebhookSecret = stripeWebhookSecret
		c.StripeAPIBase = mock
	}))
	require.Equal(t, 404, env.Get("/sandbox/mail", "").Status)
	require.Equal(t, 404, env.Get("/sandbox/mail/msg_01m84mz9y9ywd3b5w2xt61xt73", "").Status)
}
