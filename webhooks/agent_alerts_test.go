package webhooks_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// An agent connection's webhook endpoint (CONTRACT §25) fails like any
// endpoint, but the seller's failing-endpoint alerts (§22) are about the
// seller's own endpoints: the same failure on the connection's endpoint
// mails nothing, while the seller's own endpoint is warned.
func TestAgentConnectionEndpointNotAlerted(t *testing.T) {
	b := newAlertBench(t)
	acc, _ := seller(t, b.env)
	own, _ := createEndpoint(t, b.env, acc.Key, "https://seller.example.com/hook", "order.disputed")
	r := b.env.Post("/v1/agent-connections", acc.Key, map[string]any{"name": "Platform", "webhook_url": "https://agents.example.com/acp"})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	var agentEndpoint string
	require.NoError(t, b.env.Server.DB.Pool.QueryRow(context.Background(),
		`SELECT id FROM webhook_endpoints WHERE agent_connection_id = $1`, r.JSON(t)["id"]).Scan(&agentEndpoint))

	// Both have failed for two hours, ten attempts: a warning is due.
	for _, id := range []string{own, agentEndpoint} {
		_, err := b.env.Server.DB.Pool.Exec(context.Background(), `UPDATE webhook_endpoints
			SET failing_since = $2, failed_attempts = 10, last_failure = 'HTTP 500' WHERE id = $1`, id, b.now().Add(-2*time.Hour))
		require.NoError(t, err)
	}
	b.check()
	require.Equal(t, []string{"webhook_warning"}, b.mails(acc.Email))
	_, text, _ := b.mail(acc.Email, "webhook_warning")
	require.Contains(t, text, "seller.example.com")
	require.NotContains(t, text, "agents.example.com")
	var warned bool
	require.NoError(t, b.env.Server.DB.Pool.QueryRow(context.Background(),
		`SELECT warned_at IS NOT NULL FROM webhook_endpoints WHERE id = $1`, agentEndpoint).Scan(&warned))
	require.False(t, warned)
}
