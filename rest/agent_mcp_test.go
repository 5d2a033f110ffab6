package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

// The agent of agent_test.go over MCP (CONTRACT §17): after the three
// public bootstrap steps (REST: /mcp needs the key they produce), every
// action is performed by the tool and arguments of resolve.mcp and every
// re-read by refresh.mcp, through the official SDK's client.
func TestAgentFollowsReadinessOverMCP(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers())
	runAgent(t, env, newMCPDriver(env))
}

// mcpDriver speaks MCP at /mcp with the SDK's client.
type mcpDriver struct {
	rest    *restDriver // bootstrap only
	rec     *mcpRecorder
	session *sdk.ClientSession
}

func newMCPDriver(env *testkit.Env) *mcpDriver {
	return &mcpDriver{rest: newRESTDriver(env), rec: &mcpRecorder{}}
}

// mcpRecorder records every tool call and resource read the client sends
// ("mcp tool" / "mcp resource uri"), with the key.
type mcpRecorder struct {
	key   string
	mu    sync.Mutex
	calls []string
}

func (r *mcpRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		b, _ := io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(b))
		var msg struct {
			Method string `json:"method"`
			Params struct {
				Name string `json:"name"`
				URI  string `json:"uri"`
			} `json:"params"`
		}
		_ = json.Unmarshal(b, &msg)
		r.mu.Lock()
		switch msg.Method {
		case "tools/call":
			r.calls = append(r.calls, "mcp "+msg.Params.Name)
		case "resources/read":
			r.calls = append(r.calls, "mcp resource "+msg.Params.URI)
		}
		r.mu.Unlock()
	}
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+r.key)
	return http.DefaultTransport.RoundTrip(req)
}

func (d *mcpDriver) Bootstrap(t *testing.T, email string, passcode func() string) (string, map[string]any) {
	t.Helper()
	key, readiness := d.rest.Bootstrap(t, email, passcode)
	d.rec.key = key
	client := sdk.NewClient(&sdk.Implementation{Name: "agent", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: d.rest.env.URL + "/mcp", MaxRetries: -1,
		HTTPClient: &http.Client{Transport: d.rec, Timeout: 30 * time.Second}}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	d.session = cs
	// The agent starts from what bootstrap gave it, in the MCP form
	// (GraphQL's names): the same readiness read through MCP.
	return key, d.Refresh(t, readiness["refresh"].(map[string]any))
}

// call calls a tool and returns its field's value.
func (d *mcpDriver) call(t *testing.T, tool string, args map[string]any) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := d.session.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	require.NoError(t, err)
	b, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	require.False(t, res.IsError, "%s %v: %s", tool, args, b)
	var data map[string]any
	require.NoError(t, json.Unmarshal(b, &data))
	require.Len(t, data, 1, "%s: %s", tool, b)
	for _, v := range data {
		m, ok := v.(map[string]any)
		require.True(t, ok, "%s returned %s", tool, b)
		return m
	}
	return nil
}

func (d *mcpDriver) Execute(t *testing.T, res map[string]any, values map[string]any) map[string]any {
	t.Helper()
	m := res["mcp"].(map[string]any)
	args, _ := copyJSON(t, m["arguments"]).(map[string]any)
	if len(values) > 0 {
		input, ok := args["input"].(map[string]any)
		require.True(t, ok, "inputs name paths into arguments.input: %v", args)
		for name, v := range values {
			setPath(t, input, graphQLPath(name), v)
		}
	}
	return d.call(t, m["tool"].(string), args)
}

func (d *mcpDriver) Refresh(t *testing.T, ref map[string]any) map[string]any {
	t.Helper()
	m := ref["mcp"].(map[string]any)
	args, _ := copyJSON(t, m["arguments"]).(map[string]any)
	out := d.call(t, m["tool"].(string), args)
	r, ok := out["readiness"].(map[string]any)
	require.True(t, ok, "%s returns readiness: %v", m["tool"], out)
	return r
}

func (d *mcpDriver) Named(call map[string]any) string {
	return "mcp " + call["mcp"].(map[string]any)["tool"].(string)
}

func (d *mcpDriver) Calls() []string {
	d.rec.mu.Lock()
	defer d.rec.mu.Unlock()
	return append([]string(nil), d.rec.calls...)
}

func (d *mcpDriver) Bootstrapped() []string {
	return []string{"POST /v1/bootstrap", "POST /v1/bootstrap/verify", "POST /v1/bootstrap/store"}
}
