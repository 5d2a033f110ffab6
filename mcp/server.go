package mcp

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"commerce/input"
	"commerce/netguard"
	"commerce/problem"
	"commerce/storage"
)

// ReadinessURI is the resource holding the account's readiness.
const ReadinessURI = "commerce://readiness"

// Executor runs a GraphQL operation through the /graphql executor (its
// error presenter, read_only refusal, cost and per-field rate limits) for
// the caller bound to ctx.
type Executor func(ctx context.Context, document string, variables map[string]any) *graphql.Response

// Caller binds the caller of a request to ctx: the principal that the
// transport authenticated (and the request's client IP and correlation id).
// extra is nil over stdio. The error is a problem (authentication_error).
type Caller func(ctx context.Context, extra *sdk.RequestExtra) (context.Context, error)

// Options configure a Server.
type Options struct {
	Exec   Executor
	Caller Caller
	// HTTP fetches upload_file's url: the service's outbound client
	// (netguard's address policy).
	HTTP *http.Client
	// AllowHTTP admits http:// URLs for upload_file (with
	// ALLOW_PRIVATE_TARGETS); otherwise only https.
	AllowHTTP bool
	Version   string
	BaseURL   string
	Log       *slog.Logger
}

// instructions tell a connected client how to use the server.
const instructions = `commerce sells digital content. Every GraphQL query and mutation of the service is a tool
(snake_case: createListing is create_listing); a tool's structured result is GraphQL's data for that field.
Start with the viewer tool or the commerce://readiness resource: readiness.next is the action to take,
and its resolve.mcp names the tool and arguments that perform it (fill the values listed in resolve.inputs
from your human); refresh.mcp re-reads readiness. Errors are results with isError, carrying code, message
and, where it applies, param and retry_after (seconds).`

// New builds the MCP server: the generated tools and the readiness resource.
func New(o Options) *sdk.Server {
	if o.Log == nil {
		o.Log = slog.Default()
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "commerce", Title: "commerce", Version: o.Version},
		&sdk.ServerOptions{Instructions: instructions})
	for _, spec := range generatedTools {
		t := &sdk.Tool{
			Name:        spec.Name,
			Description: spec.Description,
			InputSchema: json.RawMessage(spec.InputSchema),
			Annotations: &sdk.ToolAnnotations{ReadOnlyHint: !spec.Mutation},
		}
		if spec.Upload != "" {
			t.Annotations.OpenWorldHint = new(true)
		} else {
			t.Annotations.OpenWorldHint = new(false)
		}
		s.AddTool(t, o.tool(spec))
	}
	s.AddResource(&sdk.Resource{
		URI:         ReadinessURI,
		Name:        "readiness",
		Title:       "Account readiness",
		Description: "The account's readiness as viewer.readiness returns it: whether it can sell, and the next action with how to perform it.",
		MIMEType:    "application/json",
	}, o.readiness)
	return s
}

// Tools lists the tools' names and whether each is a mutation (for tests
// and docs).
func Tools() map[string]bool {
	out := make(map[string]bool, len(generatedTools))
	for _, t := range generatedTools {
		out[t.Name] = t.Mutation
	}
	return out
}

// tool is the handler of one generated tool.
func (o Options) tool(spec toolSpec) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		ctx, err := o.Caller(ctx, req.Extra)
		if err != nil {
			return problemResult(err), nil
		}
		vars, conns, upload, err := variables(spec, req.Params.Arguments)
		if err != nil {
			return problemResult(err), nil
		}
		if upload != nil {
			body, err := o.uploadBody(ctx, upload)
			if err != nil {
				return problemResult(err), nil
			}
			if f, ok := body.File.(*remoteFile); ok {
				defer f.Close()
			}
			vars[spec.Upload] = body
		}
		return result(spec.Field, o.Exec(ctx, spec.compose(conns), vars)), nil
	}
}

// uploadArgs are upload_file's own arguments (an Upload argument's).
type uploadArgs struct {
	URL         *string `json:"url"`
	Content     *string `json:"content"`
	Filename    *string `json:"filename"`
	ContentType *string `json:"content_type"`
}

var uploadNames = []string{"url", "content", "filename", "content_type"}

// variables turns a tool's arguments into the document's variables and the
// connections asked for. An argument the tool does not take is
// validation_error.
func variables(spec toolSpec, raw json.RawMessage) (map[string]any, []string, *uploadArgs, error) {
	vars := map[string]any{}
	if len(bytes.TrimSpace(raw)) > 0 && !bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		// Over HTTP the whole message was checked already; over stdio
		// this is the first look (CONTRACT §1).
		if err := input.JSONDepth(raw); err != nil {
			return nil, nil, nil, problem.New(problem.InvalidRequest, input.JSONDepthDetail("The arguments"))
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&vars); err != nil {
			return nil, nil, nil, problem.New(problem.ValidationError, "The arguments must be a JSON object.")
		}
	}
	var up *uploadArgs
	if spec.Upload != "" {
		up = &uploadArgs{}
		for _, name := range uploadNames {
			v, ok := vars[name]
			if !ok || v == nil {
				continue
			}
			s, isString := v.(string)
			if !isString {
				return nil, nil, nil, problem.Validation(name, name+" must be a string.")
			}
			switch name {
			case "url":
				up.URL = &s
			case "content":
				up.Content = &s
			case "filename":
				up.Filename = &s
			case "content_type":
				up.ContentType = &s
			}
			delete(vars, name)
		}
		for _, name := range uploadNames {
			delete(vars, name)
		}
	}
	var conns []string
	keys := make([]string, 0, len(vars))
	for k := range vars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if subs, ok := spec.Pages[k]; ok {
			v := vars[k]
			delete(vars, k)
			if v == nil {
				continue
			}
			conns = append(conns, k)
			m, ok := v.(map[string]any)
			if !ok {
				return nil, nil, nil, problem.Validation(k, k+" must be an object of the connection's arguments ("+strings.Join(subs, ", ")+").")
			}
			for sub, sv := range m {
				if !slices.Contains(subs, sub) {
					return nil, nil, nil, problem.Validation(k+"."+sub, fmt.Sprintf("%s takes no argument %q (it takes %s).", k, sub, strings.Join(subs, ", ")))
				}
				vars[k+"_"+sub] = sv
			}
			continue
		}
		if !slices.Contains(spec.Args, k) || k == spec.Upload {
			return nil, nil, nil, problem.Validation(k, fmt.Sprintf("%s takes no argument %q.", spec.Name, k))
		}
	}
	return vars, conns, up, nil
}

// maxContentBytes bounds upload_file's base64 content: the largest upload
// (storage.MaxUploadBytes) once encoded. The purposes' own limits are
// enforced by the upload use case, as for POST /v1/files.
const maxContentBytes = (storage.MaxUploadBytes + 2) / 3 * 4

// uploadBody opens the file of an upload_file call: base64 content, or a
// URL fetched when the use case reads it (so a refused call — read_only,
// rate limited — fetches nothing).
func (o Options) uploadBody(ctx context.Context, a *uploadArgs) (graphql.Upload, error) {
	var up graphql.Upload
	if a.ContentType != nil {
		up.ContentType = *a.ContentType
	}
	if a.Filename != nil {
		up.Filename = *a.Filename
	}
	switch {
	case (a.URL == nil) == (a.Content == nil):
		return up, problem.Validation("url", "Give either url or content (base64), not both.")
	case a.Content != nil:
		if a.Filename == nil || strings.TrimSpace(*a.Filename) == "" {
			return up, problem.Validation("filename", "filename is required with content.")
		}
		if len(*a.Content) > maxContentBytes {
			return up, problem.Newf(problem.FileTooLarge, "A file may be at most %d bytes.", storage.MaxUploadBytes).With("max_bytes", storage.MaxUploadBytes)
		}
		b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(*a.Content))
		if err != nil {
			return up, problem.Validation("content", "content is not valid base64 (standard alphabet, padded).")
		}
		up.File, up.Size = bytes.NewReader(b), int64(len(b))
		return up, nil
	}
	u, err := url.Parse(*a.URL)
	switch {
	case err != nil || u.Host == "" || u.Opaque != "" || len(*a.URL) > 2048:
		return up, problem.Validation("url", "url must be an absolute URL of at most 2048 characters.")
	case u.Scheme == "https", u.Scheme == "http" && o.AllowHTTP:
	default:
		return up, problem.Validation("url", "url must use https.")
	}
	if up.Filename == "" {
		up.Filename = path.Base(u.Path)
	}
	up.File = &remoteFile{ctx: ctx, client: o.HTTP, url: u.String()}
	return up, nil
}

// fetchTimeout bounds fetching an upload_file url.
const fetchTimeout = 60 * time.Second

// remoteFile reads a URL on first read. A failure is the validation_error
// (param url) that the use case's error wraps.
type remoteFile struct {
	ctx    context.Context
	client *http.Client
	url    string
	body   io.ReadCloser
	cancel context.CancelFunc
	err    error
}

func (f *remoteFile) Read(p []byte) (int, error) {
	if f.body == nil && f.err == nil {
		f.open()
	}
	if f.err != nil {
		return 0, f.err
	}
	n, err := f.body.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		f.fail(errors.New("the transfer failed"))
		return n, f.err
	}
	return n, err
}

// fail records why the URL could not be read, as the problem to report.
func (f *remoteFile) fail(why error) {
	f.err = problem.Validation("url", "The file could not be fetched from url: "+why.Error()+".")
}

func (f *remoteFile) open() {
	ctx, cancel := context.WithTimeout(f.ctx, fetchTimeout)
	f.cancel = cancel
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.url, nil)
	if err != nil {
		f.fail(errors.New("it is not a valid URL"))
		return
	}
	resp, err := f.client.Do(req)
	if err != nil {
		f.fail(fetchError(err))
		return
	}
	if resp.StatusCode >= 400 {
		_ = resp.Body.Close()
		f.fail(fmt.Errorf("it answered %d", resp.StatusCode))
		return
	}
	f.body = resp.Body
}

// fetchError is a short reason for a failed fetch, without internals.
func fetchError(err error) error {
	msg := err.Error()
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("it did not answer within %s", fetchTimeout)
	case errors.Is(err, netguard.ErrForbiddenAddress):
		return errors.New("its address is not allowed (private, loopback or reserved)")
	case strings.Contains(msg, "no such host"):
		return errors.New("its host does not resolve")
	case strings.Contains(msg, "certificate") || strings.Contains(msg, "tls"):
		return errors.New("its TLS certificate is not valid")
	}
	return errors.New("it could not be reached")
}

func (f *remoteFile) Seek(int64, int) (int64, error) {
	return 0, errors.New("mcp: a fetched file cannot seek")
}

func (f *remoteFile) Close() {
	if f.body != nil {
		_ = f.body.Close()
	}
	if f.cancel != nil {
		f.cancel()
	}
}

// result turns a GraphQL response into a tool result: data as the
// structured content, or, when the field failed (null with errors), an
// error result carrying the first error's code, message and members
// (param, retry_after, …) as "error" and every error as "errors".
func result(field string, resp *graphql.Response) *sdk.CallToolResult {
	var data map[string]any
	if resp != nil && len(resp.Data) > 0 {
		dec := json.NewDecoder(bytes.NewReader(resp.Data))
		dec.UseNumber()
		_ = dec.Decode(&data)
	}
	var errs []map[string]any
	if resp != nil {
		for _, e := range resp.Errors {
			m := map[string]any{}
			for k, v := range e.Extensions {
				m[k] = v
			}
			m["message"] = e.Message
			if len(e.Path) > 0 {
				m["path"] = e.Path.String()
			}
			errs = append(errs, m)
		}
	}
	if resp == nil || (data[field] == nil && len(errs) > 0) || data == nil {
		if len(errs) == 0 {
			errs = []map[string]any{{"code": string(problem.InternalError), "message": "The operation returned nothing."}}
		}
		body := map[string]any{"error": errs[0], "errors": errs}
		return &sdk.CallToolResult{IsError: true, StructuredContent: body, Content: []sdk.Content{&sdk.TextContent{Text: jsonText(body)}}}
	}
	out := &sdk.CallToolResult{StructuredContent: data, Content: []sdk.Content{&sdk.TextContent{Text: jsonText(data)}}}
	if len(errs) > 0 {
		out.Content = append(out.Content, &sdk.TextContent{Text: jsonText(map[string]any{"errors": errs})})
	}
	return out
}

// problemResult is the error result of a problem found before execution.
func problemResult(err error) *sdk.CallToolResult {
	p := problem.From(err)
	if p == nil {
		p = problem.Internal()
	}
	e := map[string]any{"code": string(p.Code), "message": p.Detail}
	if p.Param != "" {
		e["param"] = p.Param
	}
	for k, v := range p.Ext {
		e[k] = v
	}
	body := map[string]any{"error": e, "errors": []any{e}}
	return &sdk.CallToolResult{IsError: true, StructuredContent: body, Content: []sdk.Content{&sdk.TextContent{Text: jsonText(body)}}}
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return `{"error":{"code":"internal_error"}}`
	}
	return string(b)
}

// readiness reads the commerce://readiness resource.
func (o Options) readiness(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	ctx, err := o.Caller(ctx, req.Extra)
	if err != nil {
		return nil, resourceError(err)
	}
	resp := o.Exec(ctx, readinessDocument, nil)
	var data struct {
		Viewer *struct {
			Readiness json.RawMessage `json:"readiness"`
		} `json:"viewer"`
	}
	if resp != nil && len(resp.Data) > 0 {
		_ = json.Unmarshal(resp.Data, &data)
	}
	if data.Viewer == nil || len(data.Viewer.Readiness) == 0 || string(data.Viewer.Readiness) == "null" {
		msg := "The readiness could not be read."
		if resp != nil && len(resp.Errors) > 0 {
			code, _ := resp.Errors[0].Extensions["code"].(string)
			msg = code + ": " + resp.Errors[0].Message
		}
		return nil, errors.New(msg)
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{
		URI: ReadinessURI, MIMEType: "application/json", Text: string(data.Viewer.Readiness),
	}}}, nil
}

func resourceError(err error) error {
	if p := problem.From(err); p != nil {
		return fmt.Errorf("%s: %s", p.Code, p.Detail)
	}
	return err
}

// MaxRequestBytes bounds a request to /mcp: upload_file's largest base64
// content and room for the rest of the message.
const MaxRequestBytes = maxContentBytes + 1<<20
