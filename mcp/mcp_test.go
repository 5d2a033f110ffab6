package mcp_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"commerce/config"
	"commerce/graph"
	"commerce/mcp/gen"
	"commerce/testkit"
)

var pngBytes = append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"), make([]byte, 64)...)

// bearer adds the API key to every request of the MCP client.
type bearer struct {
	key  string
	next http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return b.next.RoundTrip(r)
}

// connect opens an MCP client session on env's /mcp with key.
func connect(t *testing.T, env *testkit.Env, key string) *sdk.ClientSession {
	t.Helper()
	client := sdk.NewClient(&sdk.Implementation{Name: "commerce-test", Version: "1"}, nil)
	tr := &sdk.StreamableClientTransport{Endpoint: env.URL + "/mcp", MaxRetries: -1,
		HTTPClient: &http.Client{Transport: bearer{key: key, next: env.HTTP.Client().Transport}}}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, tr, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// call calls a tool and decodes its structured content.
func call(t *testing.T, cs *sdk.ClientSession, tool string, args any) (*sdk.CallToolResult, map[string]any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	require.NoError(t, err)
	var out map[string]any
	b, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &out))
	require.NotEmpty(t, res.Content, "a result carries its JSON as text too")
	return res, out
}

// toolError is the error member of an error result.
func toolError(t *testing.T, res *sdk.CallToolResult, out map[string]any) map[string]any {
	t.Helper()
	require.True(t, res.IsError, "want an error result: %v", out)
	e, ok := out["error"].(map[string]any)
	require.True(t, ok, "error result without error: %v", out)
	return e
}

func graphQL(t *testing.T, env *testkit.Env, key, query string) map[string]any {
	t.Helper()
	r := env.Do(testkit.Request{Method: http.MethodPost, Path: "/graphql", Key: key, Body: map[string]any{"query": query}, NoCheck: true})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	m := r.JSON(t)
	require.Nil(t, m["errors"], string(r.Body))
	return m["data"].(map[string]any)
}

// tools/list is every Query and Mutation field of the served schema
// (introspection), in snake_case, with their descriptions; queries are
// read-only.
func TestToolsAreTheGraphQLOperations(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	data := graphQL(t, env, acc.Key, `{ q: __type(name: "Query") { fields { name description } } m: __type(name: "Mutation") { fields { name description } } }`)
	want := map[string]bool{}
	descs := map[string]string{}
	for root, mutation := range map[string]bool{"q": false, "m": true} {
		for _, f := range data[root].(map[string]any)["fields"].([]any) {
			f := f.(map[string]any)
			name := gen.Snake(f["name"].(string))
			want[name] = mutation
			descs[name] = f["description"].(string)
		}
	}
	// The viewer's fields that take arguments but are not connections
	// (Account.analytics) are tools of their own.
	acct := graphQL(t, env, acc.Key, `{ __type(name: "Account") { fields { name description args { name } type { name fields { name } ofType { name fields { name } } } } } }`)
	for _, f := range acct["__type"].(map[string]any)["fields"].([]any) {
		f := f.(map[string]any)
		typ := f["type"].(map[string]any)
		if of, ok := typ["ofType"].(map[string]any); ok {
			typ = of
		}
		conn := false
		fields, _ := typ["fields"].([]any)
		for _, sub := range fields {
			conn = conn || sub.(map[string]any)["name"] == "edges"
		}
		if len(f["args"].([]any)) > 0 && !conn {
			name := gen.Snake(f["name"].(string))
			want[name] = false
			descs[name] = f["description"].(string)
		}
	}
	require.Contains(t, want, "create_listing")
	require.Contains(t, want, "viewer")
	require.Contains(t, want, "analytics")

	cs := connect(t, env, acc.Key)
	got := map[string]bool{}
	for tool, err := range cs.Tools(context.Background(), nil) {
		require.NoError(t, err)
		got[tool.Name] = !tool.Annotations.ReadOnlyHint
		require.Equal(t, descs[tool.Name], tool.Description, tool.Name)
		schema, ok := tool.InputSchema.(map[string]any)
		require.True(t, ok, tool.Name)
		require.Equal(t, "object", schema["type"], tool.Name)
	}
	require.Equal(t, keys(want), keys(got))
	require.Equal(t, want, got, "queries read-only, mutations not")
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func TestSnake(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"viewer": "viewer", "createListing": "create_listing", "createApiKey": "create_api_key",
		"selfRevokeApiKey": "self_revoke_api_key", "uploadFile": "upload_file"} {
		require.Equal(t, want, gen.Snake(in))
	}
}

// /mcp refuses a missing or bad key with the 401 problem before any MCP
// work; other exchange errors are problems too.
func TestMCPNeedsAKey(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	hdr := map[string]string{"Accept": "application/json, text/event-stream"}
	for _, key := range []string{"", "svc_" + strings.Repeat("a", 40), "nonsense"} {
		r := env.Do(testkit.Request{Method: http.MethodPost, Path: "/mcp", Key: key, Body: initialize, Header: hdr})
		require.Equal(t, http.StatusUnauthorized, r.Status, string(r.Body))
		require.Equal(t, "application/problem+json", r.Header.Get("Content-Type"))
		require.Equal(t, "authentication_error", r.JSON(t)["code"])
	}
	// The SDK's client cannot connect without a key either.
	client := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil)
	_, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: env.URL + "/mcp", MaxRetries: -1}, nil)
	require.Error(t, err)

	acc := env.NewAccount()
	r := env.Do(testkit.Request{Method: http.MethodPost, Path: "/mcp", Key: acc.Key, Body: initialize})
	require.Equal(t, http.StatusBadRequest, r.Status, "no Accept: %s", r.Body)
	require.Equal(t, "invalid_request", r.JSON(t)["code"])
	r = env.Do(testkit.Request{Method: http.MethodGet, Path: "/mcp", Key: acc.Key})
	require.Equal(t, http.StatusMethodNotAllowed, r.Status)
	r = env.Do(testkit.Request{Method: http.MethodPost, Path: "/mcp", Key: acc.Key, Body: initialize, Header: hdr})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Contains(t, string(r.Body), `"serverInfo"`)
}

// create_listing → viewer and listing: the same account's data, as
// GraphQL returns it (camelCase, enum values as GraphQL writes them);
// invalid arguments are validation errors naming the field.
func TestCreateListingThenViewer(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	cs := connect(t, env, acc.Key)

	res, out := call(t, cs, "create_listing", map[string]any{"input": map[string]any{"title": "Field guide", "price": 1500}})
	require.False(t, res.IsError, "%v", out)
	created := out["createListing"].(map[string]any)
	id := created["id"].(string)
	require.True(t, strings.HasPrefix(id, "lst_"), id)
	require.Equal(t, "DRAFT", created["status"])
	require.Equal(t, "Field guide", created["title"])
	require.Contains(t, created, "readiness")

	// The viewer's connections come when asked for.
	res, out = call(t, cs, "viewer", nil)
	require.False(t, res.IsError, "%v", out)
	require.Equal(t, acc.ID, out["viewer"].(map[string]any)["id"])
	require.NotContains(t, out["viewer"], "listings")
	res, out = call(t, cs, "viewer", map[string]any{"listings": map[string]any{}})
	require.False(t, res.IsError, "%v", out)
	viewer := out["viewer"].(map[string]any)
	require.NotContains(t, viewer, "orders")
	edges := viewer["listings"].(map[string]any)["edges"].([]any)
	require.Len(t, edges, 1)
	require.Equal(t, id, edges[0].(map[string]any)["node"].(map[string]any)["id"])

	// The same data GraphQL gives for the same selection.
	gq := graphQL(t, env, acc.Key, `{ listing(id: "`+id+`") { id title price status readiness { sellable next } } }`)
	_, out = call(t, cs, "listing", map[string]any{"id": id})
	l := out["listing"].(map[string]any)
	for _, k := range []string{"id", "title", "status"} {
		require.Equal(t, gq["listing"].(map[string]any)[k], l[k], k)
	}
	require.EqualValues(t, 1500, l["price"])

	// Another account's listing is not_found, as in GraphQL and REST.
	other := env.NewAccount()
	res, out = call(t, connect(t, env, other.Key), "listing", map[string]any{"id": id})
	require.Equal(t, "not_found", toolError(t, res, out)["code"])

	// The connections in viewer page through their own argument.
	res, out = call(t, cs, "create_listing", map[string]any{"input": map[string]any{"title": "Second", "price": 700}})
	require.False(t, res.IsError, "%v", out)
	second := out["createListing"].(map[string]any)["id"]
	seen := map[any]bool{}
	var after any
	for page := 0; page < 2; page++ {
		res, out = call(t, cs, "viewer", map[string]any{"listings": map[string]any{"first": 1, "after": after}})
		require.False(t, res.IsError, "%v", out)
		conn := out["viewer"].(map[string]any)["listings"].(map[string]any)
		edges := conn["edges"].([]any)
		require.Len(t, edges, 1)
		seen[edges[0].(map[string]any)["node"].(map[string]any)["id"]] = true
		pi := conn["pageInfo"].(map[string]any)
		require.Equal(t, page == 0, pi["hasNextPage"])
		after = pi["endCursor"]
	}
	require.Equal(t, map[any]bool{id: true, second: true}, seen)
	res, out = call(t, cs, "viewer", map[string]any{"listings": map[string]any{"status": "PUBLISHED"}})
	require.False(t, res.IsError, "%v", out)
	require.Empty(t, out["viewer"].(map[string]any)["listings"].(map[string]any)["edges"])
	res, out = call(t, cs, "viewer", map[string]any{"listings": map[string]any{"size": 1}})
	require.Equal(t, "listings.size", toolError(t, res, out)["param"])

	// Validation: a wrong type, a missing required field, an unknown argument.
	res, out = call(t, cs, "create_listing", map[string]any{"input": map[string]any{"title": "x", "price": "cheap"}})
	e := toolError(t, res, out)
	require.Equal(t, "validation_error", e["code"])
	require.Contains(t, e["param"], "price")
	res, out = call(t, cs, "create_listing", map[string]any{})
	e = toolError(t, res, out)
	require.Equal(t, "validation_error", e["code"])
	require.Equal(t, "input", e["param"])
	res, out = call(t, cs, "viewer", map[string]any{"verbose": true})
	e = toolError(t, res, out)
	require.Equal(t, "validation_error", e["code"])
	require.Equal(t, "verbose", e["param"])
}

// create_discount → viewer's discounts and discount: the tools of the
// discount operations, generated from the schema, with GraphQL's shapes
// and REST's refusals.
func TestCreateDiscountThenList(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	cs := connect(t, env, acc.Key)

	res, out := call(t, cs, "create_discount", map[string]any{"input": map[string]any{"code": "AGENT-10", "type": "PERCENTAGE",
		"percentOff": 10, "maxRedemptions": 50}})
	require.False(t, res.IsError, "%v", out)
	created := out["createDiscount"].(map[string]any)
	id := created["id"].(string)
	require.True(t, strings.HasPrefix(id, "dsc_"), id)
	require.Equal(t, "ACTIVE", created["status"])
	require.Equal(t, "PERCENTAGE", created["type"])
	require.EqualValues(t, 10, created["percentOff"])
	require.Contains(t, created, "readiness")

	res, out = call(t, cs, "viewer", map[string]any{"discounts": map[string]any{"status": "ACTIVE"}})
	require.False(t, res.IsError, "%v", out)
	edges := out["viewer"].(map[string]any)["discounts"].(map[string]any)["edges"].([]any)
	require.Len(t, edges, 1)
	require.Equal(t, id, edges[0].(map[string]any)["node"].(map[string]any)["id"])
	res, out = call(t, cs, "viewer", map[string]any{"discounts": map[string]any{"status": "DISABLED"}})
	require.False(t, res.IsError, "%v", out)
	require.Empty(t, out["viewer"].(map[string]any)["discounts"].(map[string]any)["edges"])

	res, out = call(t, cs, "discount", map[string]any{"id": id})
	require.False(t, res.IsError, "%v", out)
	require.Equal(t, "AGENT-10", out["discount"].(map[string]any)["code"])

	// The same code in another case: REST's refusal, naming the field.
	res, out = call(t, cs, "create_discount", map[string]any{"input": map[string]any{"code": "agent-10", "type": "FIXED", "amountOff": 100}})
	e := toolError(t, res, out)
	require.Equal(t, "validation_error", e["code"])
	require.Equal(t, "code", e["param"])

	res, out = call(t, cs, "update_discount", map[string]any{"id": id, "input": map[string]any{"status": "DISABLED"}})
	require.False(t, res.IsError, "%v", out)
	require.Equal(t, "DISABLED", out["updateDiscount"].(map[string]any)["status"])
	res, out = call(t, cs, "delete_discount", map[string]any{"id": id})
	require.False(t, res.IsError, "%v", out)
	require.Equal(t, true, out["deleteDiscount"])
	res, out = call(t, cs, "discount", map[string]any{"id": id})
	require.Equal(t, "not_found", toolError(t, res, out)["code"])
}

// A read_only key may call queries; a mutation tool refuses it.
func TestReadOnlyKeyCannotMutate(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	r := env.Post("/v1/api-keys", acc.Key, map[string]any{"name": "reader", "scope": "read_only"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	ro := r.JSON(t)["key"].(string)

	cs := connect(t, env, ro)
	res, out := call(t, cs, "viewer", nil)
	require.False(t, res.IsError, "%v", out)
	res, out = call(t, cs, "create_listing", map[string]any{"input": map[string]any{"title": "No", "price": 100}})
	e := toolError(t, res, out)
	require.Equal(t, "permission_denied", e["code"])
	require.Equal(t, "full", e["required_scope"])
	// Nothing was created.
	d := graphQL(t, env, acc.Key, `{ viewer { listings { edges { node { id } } } } }`)
	require.Empty(t, d["viewer"].(map[string]any)["listings"].(map[string]any)["edges"])
}

// A tool over its field's rate limit (update_account: account_update, 10 a
// minute) is an error result with retry_after.
func TestToolRateLimit(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	cs := connect(t, env, acc.Key)
	var last map[string]any
	var lastRes *sdk.CallToolResult
	for i := 0; i < 11; i++ {
		lastRes, last = call(t, cs, "update_account", map[string]any{"input": map[string]any{"displayName": "Seller " + string(rune('a'+i))}})
		if i < 10 {
			require.False(t, lastRes.IsError, "call %d: %v", i, last)
		}
	}
	e := toolError(t, lastRes, last)
	require.Equal(t, "rate_limited", e["code"])
	ra, ok := e["retry_after"].(float64)
	require.True(t, ok, "retry_after: %v", e)
	require.GreaterOrEqual(t, ra, 1.0)
}

// commerce://readiness is viewer.readiness.
func TestReadinessResource(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	cs := connect(t, env, acc.Key)
	ctx := context.Background()

	list, err := cs.ListResources(ctx, nil)
	require.NoError(t, err)
	require.Len(t, list.Resources, 1)
	require.Equal(t, "commerce://readiness", list.Resources[0].URI)

	rr, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "commerce://readiness"})
	require.NoError(t, err)
	require.Len(t, rr.Contents, 1)
	require.Equal(t, "application/json", rr.Contents[0].MIMEType)
	var readiness map[string]any
	require.NoError(t, json.Unmarshal([]byte(rr.Contents[0].Text), &readiness))
	require.Equal(t, false, readiness["operational"])
	require.Equal(t, "CONNECT_STRIPE", readiness["next"])

	_, out := call(t, cs, "viewer", nil)
	require.Equal(t, out["viewer"].(map[string]any)["readiness"], readiness)
}

// upload_file takes base64 content or a URL, within the limits of POST
// /v1/files; a URL to a private address is refused unless the operator
// allows private targets.
func TestUploadFile(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	cs := connect(t, env, acc.Key)

	res, out := call(t, cs, "upload_file", map[string]any{"purpose": "COVER", "filename": "c.png", "content": base64.StdEncoding.EncodeToString(pngBytes)})
	require.False(t, res.IsError, "%v", out)
	f := out["uploadFile"].(map[string]any)
	require.True(t, strings.HasPrefix(f["token"].(string), "file_"), "%v", f)
	require.Equal(t, "image/png", f["contentType"])
	require.EqualValues(t, len(pngBytes), f["size"])
	require.Equal(t, "COVER", f["purpose"])

	// The token is usable like one from POST /v1/files.
	res, out = call(t, cs, "create_listing", map[string]any{"input": map[string]any{"title": "With cover", "price": 900, "cover": f["token"]}})
	require.False(t, res.IsError, "%v", out)

	// The same checks as POST /v1/files.
	res, out = call(t, cs, "upload_file", map[string]any{"purpose": "COVER", "filename": "c.pdf", "content": base64.StdEncoding.EncodeToString([]byte("%PDF-1.4\n%%EOF\n"))})
	require.Equal(t, "validation_error", toolError(t, res, out)["code"])
	big := append(append([]byte{}, pngBytes...), make([]byte, 6<<20)...)
	res, out = call(t, cs, "upload_file", map[string]any{"purpose": "COVER", "filename": "big.png", "content": base64.StdEncoding.EncodeToString(big)})
	e := toolError(t, res, out)
	require.Equal(t, "file_too_large", e["code"])
	require.EqualValues(t, 5<<20, e["max_bytes"])
	res, out = call(t, cs, "upload_file", map[string]any{"purpose": "COVER", "filename": "c.png", "content": "%%%"})
	require.Equal(t, "content", toolError(t, res, out)["param"])
	res, out = call(t, cs, "upload_file", map[string]any{"purpose": "COVER", "content": base64.StdEncoding.EncodeToString(pngBytes)})
	require.Equal(t, "filename", toolError(t, res, out)["param"])
	res, out = call(t, cs, "upload_file", map[string]any{"purpose": "COVER"})
	require.Equal(t, "url", toolError(t, res, out)["param"])

	// By URL (the tests' configuration allows private targets, as for
	// deliverable URLs).
	fetched := 0
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetched++
		if r.URL.Path == "/missing.png" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(pngBytes)
	}))
	t.Cleanup(origin.Close)
	res, out = call(t, cs, "upload_file", map[string]any{"purpose": "AVATAR", "url": origin.URL + "/me.png"})
	require.False(t, res.IsError, "%v", out)
	f = out["uploadFile"].(map[string]any)
	require.Equal(t, "me.png", f["filename"])
	require.Equal(t, "image/png", f["contentType"])
	res, out = call(t, cs, "upload_file", map[string]any{"purpose": "AVATAR", "url": origin.URL + "/missing.png"})
	e = toolError(t, res, out)
	require.Equal(t, "validation_error", e["code"])
	require.Equal(t, "url", e["param"])
	require.Contains(t, e["message"], "404")

	// A read_only key fetches nothing.
	r := env.Post("/v1/api-keys", acc.Key, map[string]any{"name": "reader", "scope": "read_only"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	before := fetched
	res, out = call(t, connect(t, env, r.JSON(t)["key"].(string)), "upload_file", map[string]any{"purpose": "AVATAR", "url": origin.URL + "/me.png"})
	require.Equal(t, "permission_denied", toolError(t, res, out)["code"])
	require.Equal(t, before, fetched)

	// Where private targets are not allowed, a loopback URL is refused
	// before anything is fetched.
	strict := testkit.New(t, testkit.WithConfig(func(c *config.Config) { c.AllowPrivateTargets = false }))
	sacc := strict.NewAccount()
	scs := connect(t, strict, sacc.Key)
	tlsOrigin := httptest.NewTLSServer(origin.Config.Handler)
	t.Cleanup(tlsOrigin.Close)
	before = fetched
	for _, u := range []string{origin.URL + "/me.png", tlsOrigin.URL + "/me.png"} {
		res, out = call(t, scs, "upload_file", map[string]any{"purpose": "AVATAR", "url": u})
		e = toolError(t, res, out)
		require.Equal(t, "validation_error", e["code"], "%s: %v", u, e)
		require.Equal(t, "url", e["param"])
	}
	require.Contains(t, e["message"], "not allowed")
	require.Equal(t, before, fetched)
}

// The generated documents stay within the depth limit the tools run under
// (a too-deep document would fail every call), and every tool of the
// committed file is the generator's.
func TestGeneratedToolsAreCurrent(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	cs := connect(t, env, acc.Key)
	// Every query tool without required arguments runs cleanly.
	for _, tool := range []string{"viewer", "store", "plans", "ping"} {
		res, out := call(t, cs, tool, nil)
		require.False(t, res.IsError, "%s: %v", tool, out)
		require.Contains(t, out, tool)
	}
}

// /graphql/schema.graphql is the served schema in SDL, descriptions
// included; /llms.txt links to documents that exist.
func TestAgentDocuments(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	r := env.Get("/graphql/schema.graphql", "")
	require.Equal(t, http.StatusOK, r.Status)
	require.Contains(t, r.Header.Get("Content-Type"), "text/plain")
	sdl, gerr := gqlparser.LoadSchema(&ast.Source{Name: "schema.graphql", Input: string(r.Body)})
	require.Nil(t, gerr)
	served := graph.NewExecutableSchema(graph.Config{}).Schema()
	for _, name := range []string{"Query", "Mutation", "Subscription", "Account", "CreateListingInput", "OrderStatus"} {
		require.NotNil(t, sdl.Types[name], name)
		require.Equal(t, served.Types[name].Description, sdl.Types[name].Description, name)
		require.Equal(t, len(served.Types[name].Fields)+len(served.Types[name].EnumValues), len(sdl.Types[name].Fields)+len(sdl.Types[name].EnumValues), name)
	}

	r = env.Get("/llms.txt", "")
	require.Equal(t, http.StatusOK, r.Status)
	text := string(r.Body)
	for _, path := range []string{"/v1/openapi.yaml", "/graphql/schema.graphql", "/mcp", "commerce://readiness", "create_listing"} {
		require.Contains(t, text, path)
	}
	links := regexp.MustCompile(`\]\((http[^)]+)\)`).FindAllStringSubmatch(text, -1)
	require.NotEmpty(t, links)
	for _, l := range links {
		require.True(t, strings.HasPrefix(l[1], env.URL), l[1])
		r := env.Do(testkit.Request{Method: http.MethodGet, Path: strings.TrimPrefix(l[1], env.URL), NoCheck: true})
		require.Equal(t, http.StatusOK, r.Status, l[1])
	}
}

// The analytics tool is viewer.analytics with its arguments (CONTRACT
// §23); the account tools do not select analytics.
func TestAnalyticsTool(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc, other := env.NewAccount(), env.NewAccount()
	cs := connect(t, env, acc.Key)

	res, out := call(t, cs, "analytics", map[string]any{})
	require.False(t, res.IsError, "%v", out)
	an := out["viewer"].(map[string]any)["analytics"].(map[string]any)
	require.Equal(t, "analytics", an["object"])
	require.Equal(t, "DAY", an["interval"])
	require.Len(t, an["series"], 30)
	totals := an["totals"].(map[string]any)
	require.EqualValues(t, 0, totals["orders"])
	require.Nil(t, totals["conversionRate"])
	require.Contains(t, totals, "mrr")
	require.Contains(t, totals, "activeMemberships")
	require.Empty(t, an["topListings"])

	res, out = call(t, cs, "analytics", map[string]any{"from": "2025-12-31", "to": "2026-01-12", "interval": "WEEK"})
	require.False(t, res.IsError, "%v", out)
	an = out["viewer"].(map[string]any)["analytics"].(map[string]any)
	var starts []string
	for _, b := range an["series"].([]any) {
		starts = append(starts, b.(map[string]any)["start"].(string))
	}
	require.Equal(t, []string{"2025-12-29", "2026-01-05", "2026-01-12"}, starts)

	res, out = call(t, cs, "analytics", map[string]any{"from": "2026-02-02", "to": "2026-02-01"})
	e := toolError(t, res, out)
	require.Equal(t, "validation_error", e["code"])
	require.Equal(t, "from", e["param"])

	r := env.Post("/v1/listings", other.Key, map[string]any{"title": "Not yours", "price": 500})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	res, out = call(t, cs, "analytics", map[string]any{"listingId": r.JSON(t)["id"]})
	require.Equal(t, "not_found", toolError(t, res, out)["code"])

	res, out = call(t, cs, "viewer", map[string]any{})
	require.False(t, res.IsError, "%v", out)
	require.NotContains(t, out["viewer"], "analytics", "reading the account does not compute its analytics")
}
