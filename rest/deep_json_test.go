package rest_test

import (
	"bytes"
	"context"
	"mime/multipart"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/testkit"
)

// deepArrays is n opening brackets then n closing ones; deepObjects nests
// n objects under one key each.
func deepArrays(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
func deepObjects(n int) string {
	return strings.Repeat(`{"a":`, n-1) + "{}" + strings.Repeat("}", n-1)
}

// deepBodies are documents nested past CONTRACT §1's 32 levels: as the
// whole body, and (at 33) inside a field a route accepts (metadata is a
// free-form object, so the decoder alone would take it).
func deepBodies() map[string]string {
	return map[string]string{
		"33 arrays":        deepArrays(33),
		"33 objects":       deepObjects(33),
		"100,000 arrays":   deepArrays(100_000),
		"100,000 objects":  deepObjects(100_000),
		"1 MiB of [":       strings.Repeat("[", 1<<20-1),
		"deep in metadata": `{"title":"Deep","price":500,"metadata":` + deepObjects(32) + `}`,
	}
}

// requireTooDeep checks a refusal of a nested document: 400, code
// invalid_request, a detail that names the limit.
func requireTooDeep(t *testing.T, name string, r *testkit.Response, detail string) {
	t.Helper()
	require.Equal(t, 400, r.Status, "%s: %.300s", name, r.Body)
	require.Contains(t, string(r.Body), `"invalid_request"`, "%s: %.300s", name, r.Body)
	require.Contains(t, detail, "32 levels", "%s: %.300s", name, r.Body)
}

// Every JSON document a client sends is refused past 32 levels, before any
// other work (CONTRACT §1, "Bounded input"): REST bodies (anonymous and
// authenticated routes), processor events, GraphQL requests (variables,
// extensions, the operations part of an upload) and MCP messages.
func TestDeepJSONRefusedEverywhere(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acct := env.NewAccount()
	lst := db.NewID("lst")
	for name, body := range deepBodies() {
		for _, c := range []struct{ method, path, key string }{
			{"POST", "/v1/bootstrap", ""},
			{"POST", "/v1/listings", acct.Key},
			{"PUT", "/v1/listings/" + lst, acct.Key},
			{"POST", "/v1/webhooks", acct.Key},
			{"POST", "/v1/processor/webhook", ""},
		} {
			r := env.Do(testkit.Request{Method: c.method, Path: c.path, Key: c.key, Body: body, NoCheck: true})
			m := r.JSON(t)
			detail, _ := m["detail"].(string)
			requireTooDeep(t, c.method+" "+c.path+" "+name, r, detail)
		}
	}

	// GraphQL: a deep variable, a deep extension, with and without a key.
	for _, key := range []string{"", acct.Key} {
		for name, doc := range map[string]string{
			"variables":  `{"query":"query($v: [[String]]) { plans { id } }","variables":{"v":` + deepArrays(40) + `}}`,
			"extensions": `{"query":"{ plans { id } }","extensions":` + deepObjects(100_000) + `}`,
		} {
			r := env.Do(testkit.Request{Method: "POST", Path: "/graphql", Key: key, Body: doc, NoCheck: true})
			var out gqlResponse
			r.Decode(t, &out)
			require.Len(t, out.Errors, 1, "%s: %s", name, r.Body)
			require.Equal(t, "invalid_request", out.Errors[0]["extensions"].(map[string]any)["code"], "%s: %s", name, r.Body)
			msg, _ := out.Errors[0]["message"].(string)
			requireTooDeep(t, "graphql "+name, r, msg)
		}
	}

	// The operations part of a GraphQL upload.
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	writeGQLPreamble(t, mw, []byte(`{"query":"{ plans { id } }","variables":{"v":`+deepArrays(1000)+`}}`), oneFileMap)
	require.NoError(t, mw.Close())
	up := postGQLMultipart(t, env, acct.Key, &buf, mw.FormDataContentType())
	require.Equal(t, 400, up.status, "%s", up.raw)
	require.Len(t, up.Errors, 1, "%s", up.raw)
	require.Equal(t, "invalid_request", up.Errors[0]["extensions"].(map[string]any)["code"], "%s", up.raw)
	require.Contains(t, up.Errors[0]["message"], "32 levels")

	// MCP: a tool call whose arguments nest too deep.
	r := env.Do(testkit.Request{Method: "POST", Path: "/mcp", Key: acct.Key, NoCheck: true,
		Header: map[string]string{"Accept": "application/json, text/event-stream"},
		Body:   `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ping","arguments":{"x":` + deepArrays(100_000) + `}}}`})
	m := r.JSON(t)
	detail, _ := m["detail"].(string)
	requireTooDeep(t, "mcp", r, detail)

	// A websocket message, before connection_init: the connection closes
	// with 4400 and the reason.
	ws, _, err := dialWS(t, env.URL, "graphql-transport-ws", nil)
	require.NoError(t, err)
	require.NoError(t, ws.conn.Write(context.Background(), websocket.MessageText,
		[]byte(`{"type":"connection_init","payload":{"x":`+deepArrays(10_000)+`}}`)))
	code, reason := ws.closedWith(5 * time.Second)
	require.Equal(t, websocket.StatusCode(4400), code, reason)
	require.Contains(t, reason, "32 levels")
}
