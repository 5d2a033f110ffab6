package main

import (
	"context"
	"encoding/json"
	"io"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"commerce/mcp"
	"commerce/server"
	"commerce/testkit"
)

// commerce mcp: the same tools over stdio for the key in COMMERCE_API_KEY,
// which is checked at start and on every call.
func TestMCPOverStdio(t *testing.T) {
	t.Parallel()
	cfg := testkit.Config(t)
	cfg.BaseURL = "http://127.0.0.1:1"
	log := testkit.Logger()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	srv, err := server.New(ctx, cfg, log, server.Options{RateLimitPrefix: testkit.NewRedisPrefix()})
	require.NoError(t, err)
	out, err := srv.Resolver.CreateAccount(ctx, "stdio-"+testkit.Unique()+"@example.com", "free", "test", false)
	require.NoError(t, err)
	srv.Close(context.Background())
	key := out.Key.Key

	require.ErrorContains(t, serveMCP(ctx, cfg, log, "", nil), "COMMERCE_API_KEY")
	require.ErrorContains(t, serveMCP(ctx, cfg, log, "svc_nope", nil), "COMMERCE_API_KEY")

	// stdin and stdout of the command, as pipes.
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- serveMCP(ctx, cfg, log, key, &sdk.IOTransport{Reader: toServer, Writer: fromServer})
	}()
	client := sdk.NewClient(&sdk.Implementation{Name: "stdio-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.IOTransport{Reader: toClient, Writer: fromClient}, nil)
	require.NoError(t, err)

	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	require.Len(t, tools.Tools, len(mcp.Tools()))

	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "create_listing", Arguments: map[string]any{"input": map[string]any{"title": "Over stdio", "price": 500}}})
	require.NoError(t, err)
	require.False(t, res.IsError, "%v", res.StructuredContent)
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "viewer", Arguments: map[string]any{"listings": map[string]any{}}})
	require.NoError(t, err)
	b, _ := json.Marshal(res.StructuredContent)
	require.Contains(t, string(b), "Over stdio")
	require.Contains(t, string(b), out.Account.ID)

	rr, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: mcp.ReadinessURI})
	require.NoError(t, err)
	require.Contains(t, rr.Contents[0].Text, `"operational":false`)

	// Revoked during the session: the next call is refused.
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "self_revoke_api_key"})
	require.NoError(t, err)
	require.False(t, res.IsError, "%v", res.StructuredContent)
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "viewer"})
	require.NoError(t, err)
	require.True(t, res.IsError)
	b, _ = json.Marshal(res.StructuredContent)
	require.Contains(t, string(b), `"code":"authentication_error"`)

	require.NoError(t, cs.Close())
	_ = fromClient.Close()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("commerce mcp did not stop when its input closed")
	}
}
