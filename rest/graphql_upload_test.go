package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/config"
	"commerce/testkit"
)

// GraphQL uploads follow the multipart request specification
// (github.com/jaydenseric/graphql-multipart-request-spec): a part
// "operations" (the request as JSON, the file's variable null), a part "map"
// (which part fills which variable), then the file parts.

const uploadMutation = `mutation($file: Upload!, $purpose: FilePurpose!) {
  uploadFile(file: $file, purpose: $purpose) { object token purpose filename size contentType expiresAt }
}`

// gqlFilePart is one file part of a multipart GraphQL request.
type gqlFilePart struct {
	name, filename, contentType string
	content                     []byte
}

// writeGQLMultipart writes operations, map and the file parts to mw, and
// closes it.
func writeGQLMultipart(t *testing.T, mw *multipart.Writer, operations, fileMap any, files ...gqlFilePart) {
	t.Helper()
	writeGQLPreamble(t, mw, operations, fileMap)
	for _, f := range files {
		w := createFilePart(t, mw, f)
		_, err := w.Write(f.content)
		require.NoError(t, err)
	}
	require.NoError(t, mw.Close())
}

func writeGQLPreamble(t *testing.T, mw *multipart.Writer, operations, fileMap any) {
	t.Helper()
	for _, p := range []struct {
		name  string
		value any
	}{{"operations", operations}, {"map", fileMap}} {
		b, ok := p.value.([]byte)
		if !ok {
			var err error
			b, err = json.Marshal(p.value)
			require.NoError(t, err)
		}
		require.NoError(t, mw.WriteField(p.name, string(b)))
	}
}

func createFilePart(t *testing.T, mw *multipart.Writer, f gqlFilePart) io.Writer {
	t.Helper()
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, f.name, f.filename))
	if f.contentType != "" {
		h.Set("Content-Type", f.contentType)
	}
	w, err := mw.CreatePart(h)
	require.NoError(t, err)
	return w
}

// uploadOperations is the operations part of one uploadFile call.
func uploadOperations(purpose string) map[string]any {
	return map[string]any{"query": uploadMutation, "variables": map[string]any{"file": nil, "purpose": purpose}}
}

var oneFileMap = map[string]any{"0": []string{"variables.file"}}

// gqlHTTPResult is a finished multipart GraphQL exchange.
type gqlHTTPResult struct {
	status int
	header http.Header
	gqlResponse
	raw []byte
}

// postGQLMultipart posts a multipart body to /graphql. It never waits more
// than a minute: a request the server does not answer fails the test.
func postGQLMultipart(t *testing.T, env *testkit.Env, key string, body io.Reader, contentType string) gqlHTTPResult {
	t.Helper()
	out, err := doGQLMultipart(env, key, body, contentType)
	require.NoError(t, err)
	return out
}

// doGQLMultipart is postGQLMultipart for goroutines other than the test's.
func doGQLMultipart(env *testkit.Env, key string, body io.Reader, contentType string) (gqlHTTPResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, env.URL+"/graphql", body)
	if err != nil {
		return gqlHTTPResult{}, err
	}
	if s, ok := body.(*sized); ok {
		req.ContentLength = s.length
	}
	req.Header.Set("Content-Type", contentType)
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := env.HTTP.Client().Do(req)
	if err != nil {
		return gqlHTTPResult{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return gqlHTTPResult{}, err
	}
	out := gqlHTTPResult{status: resp.StatusCode, header: resp.Header, raw: raw}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		return out, fmt.Errorf("Content-Type %q: %s", ct, raw)
	}
	if err := json.Unmarshal(raw, &out.gqlResponse); err != nil {
		return out, fmt.Errorf("%w: %s", err, raw)
	}
	return out, nil
}

// asyncGQLMultipart posts in the background; the result arrives on the channel.
func asyncGQLMultipart(env *testkit.Env, key string, body io.Reader, contentType string) <-chan asyncResult {
	ch := make(chan asyncResult, 1)
	go func() {
		r, err := doGQLMultipart(env, key, body, contentType)
		ch <- asyncResult{r, err}
	}()
	return ch
}

// sized is a request body with a declared Content-Length.
type sized struct {
	io.Reader
	length int64
}

type asyncResult struct {
	gqlHTTPResult
	err error
}

// gqlUpload sends one uploadFile request.
func gqlUpload(t *testing.T, env *testkit.Env, key, purpose string, f gqlFilePart) gqlHTTPResult {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	if f.name == "" {
		f.name = "0"
	}
	writeGQLMultipart(t, mw, uploadOperations(purpose), oneFileMap, f)
	return postGQLMultipart(t, env, key, &body, mw.FormDataContentType())
}

// requireGQLError asserts one error with the code and returns its extensions.
func requireGQLError(t *testing.T, r gqlHTTPResult, status int, code string) map[string]any {
	t.Helper()
	require.Equal(t, status, r.status, "%s", r.raw)
	require.Len(t, r.Errors, 1, "%s", r.raw)
	ext, ok := r.Errors[0]["extensions"].(map[string]any)
	require.True(t, ok, "%s", r.raw)
	require.Equal(t, code, ext["code"], "%s", r.raw)
	require.NotEmpty(t, r.Errors[0]["message"])
	require.NotEmpty(t, ext["correlation_id"])
	return ext
}

type uploadedFile struct {
	Object, Token, Purpose, Filename, ContentType string
	Size                                          int64
	ExpiresAt                                     time.Time
}

func uploadedFileOf(t *testing.T, r gqlHTTPResult) uploadedFile {
	t.Helper()
	require.Equal(t, 200, r.status, "%s", r.raw)
	require.Empty(t, r.Errors, "%s", r.raw)
	var d struct{ UploadFile uploadedFile }
	require.NoError(t, json.Unmarshal(r.Data, &d))
	return d.UploadFile
}

// fileRows counts the upload records of an account.
func fileRows(t *testing.T, env *testkit.Env, accountID string) int {
	t.Helper()
	var n int
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(), "SELECT count(*) FROM files WHERE account_id = $1", accountID).Scan(&n))
	return n
}

// A file uploaded through GraphQL becomes a file deliverable like a REST
// upload: attached by its token, listed with its name, size and type, and
// downloaded byte for byte by a buyer.
func TestGraphQLUploadBecomesDeliverable(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers())
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)

	content := append(append([]byte{}, pdfBytes...), bytes.Repeat([]byte("streamed "), 5000)...)
	f := uploadedFileOf(t, gqlUpload(t, env, acc.Key, "DELIVERABLE", gqlFilePart{filename: "guide.pdf", contentType: "application/pdf", content: content}))
	require.Equal(t, "file", f.Object)
	require.Regexp(t, `^file_[0-9a-z]{26}$`, f.Token)
	require.Equal(t, "DELIVERABLE", f.Purpose)
	require.Equal(t, "guide.pdf", f.Filename)
	require.Equal(t, int64(len(content)), f.Size)
	require.Equal(t, "application/pdf", f.ContentType)
	require.WithinDuration(t, time.Now().Add(24*time.Hour), f.ExpiresAt, time.Minute)
	require.FileExists(t, filepath.Join(storageDir(env), "uploads", f.Token))

	l := publishedListing(t, env, acc.Key, map[string]any{"title": "GraphQL Upload " + testkit.Unique(), "price": 500,
		"deliverables": []any{map[string]any{"type": "file", "token": f.Token}}})
	ds := l["deliverables"].([]any)
	require.Len(t, ds, 1)
	d := ds[0].(map[string]any)
	require.Equal(t, "file", d["type"])
	require.Nil(t, d["value"])
	require.Equal(t, map[string]any{"name": "guide.pdf", "size": float64(len(content)), "content_type": "application/pdf"}, d["file"])
	// Used once: the token cannot be attached again.
	p := requireProblem(t, env, env.Post("/v1/listings", acc.Key, map[string]any{"title": "Again", "price": 100,
		"deliverables": []any{map[string]any{"type": "file", "token": f.Token}}}), 422, "validation_error")
	require.Equal(t, "deliverables[0].token", p["param"])

	buyer := uniqueEmail("gqlbuyer")
	orderID, _ := buy(t, env, l["slug"].(string), url.Values{"email": {buyer}}, "paid")
	require.Eventually(t, func() bool {
		return env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)["status"] == "fulfilled"
	}, 10*time.Second, 50*time.Millisecond)
	link := mailLinkTo(t, env, buyer)
	r := env.Get(link, "")
	require.Equal(t, 200, r.Status)
	fileLink := regexp.MustCompile(`href="(/d/[^"]+/del_[0-9a-z]+)">Download guide.pdf`).FindSubmatch(r.Body)
	require.NotNil(t, fileLink, "%s", r.Body)
	dl, err := http.Get(env.URL + string(fileLink[1]))
	require.NoError(t, err)
	got, _ := io.ReadAll(dl.Body)
	dl.Body.Close()
	require.Equal(t, 200, dl.StatusCode)
	require.Equal(t, content, got)
	require.Equal(t, "application/pdf", dl.Header.Get("Content-Type"))
}

// The limits and checks of POST /v1/files, as GraphQL errors.
func TestGraphQLUploadLimitsAndChecks(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()

	// Too large for a cover: file_too_large with the cover's max_bytes.
	big := append(append([]byte{}, pngBytes...), make([]byte, 6<<20)...)
	r := gqlUpload(t, env, acc.Key, "COVER", gqlFilePart{filename: "big.png", contentType: "image/png", content: big})
	ext := requireGQLError(t, r, 200, "file_too_large")
	require.Equal(t, float64(5<<20), ext["max_bytes"])
	require.Equal(t, float64(413), ext["status"])
	require.JSONEq(t, "null", string(r.Data))
	require.Equal(t, []any{"uploadFile"}, r.Errors[0]["path"])

	// Too large for any purpose: the deliverable limit, 25 MB.
	huge := append(append([]byte{}, pdfBytes...), make([]byte, 25<<20)...)
	ext = requireGQLError(t, gqlUpload(t, env, acc.Key, "DELIVERABLE", gqlFilePart{filename: "huge.pdf", contentType: "application/pdf", content: huge}), 200, "file_too_large")
	require.Equal(t, float64(25<<20), ext["max_bytes"])

	// A PNG declared as a PDF: the bytes decide.
	ext = requireGQLError(t, gqlUpload(t, env, acc.Key, "DELIVERABLE", gqlFilePart{filename: "fake.pdf", contentType: "application/pdf", content: pngBytes}), 200, "validation_error")
	require.Equal(t, "file", ext["param"])
	// Without a Content-Type, the extension is the declared type.
	ext = requireGQLError(t, gqlUpload(t, env, acc.Key, "DELIVERABLE", gqlFilePart{filename: "fake.pdf", content: pngBytes}), 200, "validation_error")
	require.Equal(t, "file", ext["param"])
	// A PDF is no cover.
	ext = requireGQLError(t, gqlUpload(t, env, acc.Key, "COVER", gqlFilePart{filename: "c.pdf", content: pdfBytes}), 200, "validation_error")
	require.Equal(t, "file", ext["param"])
	// An empty file.
	ext = requireGQLError(t, gqlUpload(t, env, acc.Key, "AVATAR", gqlFilePart{filename: "a.png", contentType: "image/png"}), 200, "validation_error")
	require.Equal(t, "file", ext["param"])
	// A purpose that is not one: the enum refuses it before anything runs
	// (a validation error, 422, like the JSON transport's).
	r = gqlUpload(t, env, acc.Key, "POSTER", gqlFilePart{filename: "c.png", content: pngBytes})
	require.Equal(t, 422, r.status, "%s", r.raw)
	require.Len(t, r.Errors, 1)
	require.Contains(t, r.Errors[0]["message"], "POSTER")

	// The accepted shapes still work: a cover, an avatar.
	require.Equal(t, "COVER", uploadedFileOf(t, gqlUpload(t, env, acc.Key, "COVER", gqlFilePart{filename: "c.png", content: pngBytes})).Purpose)
	require.Equal(t, "AVATAR", uploadedFileOf(t, gqlUpload(t, env, acc.Key, "AVATAR", gqlFilePart{filename: "a.png", contentType: "image/png", content: pngBytes})).Purpose)

	// A read_only key may not upload; no key is an authentication_error.
	ro := env.Post("/v1/api-keys", acc.Key, map[string]any{"name": "ro", "scope": "read_only"})
	require.Equal(t, 201, ro.Status, "%s", ro.Body)
	ext = requireGQLError(t, gqlUpload(t, env, ro.JSON(t)["key"].(string), "DELIVERABLE", gqlFilePart{filename: "g.pdf", content: pdfBytes}), 200, "permission_denied")
	require.Equal(t, float64(403), ext["status"])
	requireGQLError(t, gqlUpload(t, env, "", "DELIVERABLE", gqlFilePart{filename: "g.pdf", content: pdfBytes}), 200, "authentication_error")

	// Only the cover and the avatar were recorded.
	require.Equal(t, 2, fileRows(t, env, acc.ID))
}

// Malformed multipart requests are invalid_request, answered without
// waiting for (or storing) any file.
func TestGraphQLUploadMalformedRequests(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()

	send := func(operations, fileMap any, files ...gqlFilePart) gqlHTTPResult {
		t.Helper()
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		writeGQLMultipart(t, mw, operations, fileMap, files...)
		return postGQLMultipart(t, env, acc.Key, &body, mw.FormDataContentType())
	}
	pdf := func(name string) gqlFilePart {
		return gqlFilePart{name: name, filename: name + ".pdf", content: pdfBytes}
	}
	ops := uploadOperations("DELIVERABLE")

	// Two files, or one file in two places: one file per request.
	twoOps := map[string]any{"query": `mutation($a: Upload!, $b: Upload!) { a: uploadFile(file: $a, purpose: DELIVERABLE) { token } b: uploadFile(file: $b, purpose: DELIVERABLE) { token } }`,
		"variables": map[string]any{"a": nil, "b": nil}}
	requireGQLError(t, send(twoOps, map[string]any{"0": []string{"variables.a"}, "1": []string{"variables.b"}}, pdf("0"), pdf("1")), 400, "invalid_request")
	requireGQLError(t, send(twoOps, map[string]any{"0": []string{"variables.a", "variables.b"}}, pdf("0")), 400, "invalid_request")
	// One variable used by two fields would read one stream twice.
	reuse := map[string]any{"query": `mutation($f: Upload!) { a: uploadFile(file: $f, purpose: DELIVERABLE) { token } b: uploadFile(file: $f, purpose: DELIVERABLE) { token } }`,
		"variables": map[string]any{"f": nil}}
	requireGQLError(t, send(reuse, map[string]any{"0": []string{"variables.f"}}, pdf("0")), 400, "invalid_request")

	// The file part is missing, or is not the one the map names.
	requireGQLError(t, send(ops, oneFileMap), 400, "invalid_request")
	requireGQLError(t, send(ops, oneFileMap, pdf("1")), 400, "invalid_request")
	// A map path outside variables, or into nothing.
	requireGQLError(t, send(ops, map[string]any{"0": []string{"query"}}, pdf("0")), 400, "invalid_request")
	requireGQLError(t, send(ops, map[string]any{"0": []string{"variables.file.x.y"}}, pdf("0")), 400, "invalid_request")
	// Operations without variables: the map's path leads nowhere.
	requireGQLError(t, send(map[string]any{"query": uploadMutation}, oneFileMap, pdf("0")), 400, "invalid_request")
	// A batch.
	requireGQLError(t, send([]any{ops, ops}, map[string]any{"0": []string{"0.variables.file"}}, pdf("0")), 400, "invalid_request")
	// operations and map out of order, not JSON, or too large.
	requireGQLError(t, send(oneFileMap, ops, pdf("0")), 400, "invalid_request")
	requireGQLError(t, send([]byte("{nope"), oneFileMap, pdf("0")), 400, "invalid_request")
	requireGQLError(t, send(ops, []byte("[1]"), pdf("0")), 400, "invalid_request")
	bigOps := uploadOperations("DELIVERABLE")
	bigOps["query"] = uploadMutation + "\n#" + strings.Repeat("x", 64<<10)
	requireGQLError(t, send(bigOps, oneFileMap, pdf("0")), 400, "invalid_request")
	// Not multipart at all is the JSON transport's business.
	r := env.Post("/graphql", acc.Key, map[string]any{"query": "{ plans { id } }"})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.Equal(t, 0, fileRows(t, env, acc.ID))

	// The map is judged before any file byte is sent: with two files named,
	// the first file part's headers sent (they end the map part) and the
	// rest of a body declared as 2 MB held back, the answer comes at once.
	// (net/http answers without reading a remainder over 256 KiB.)
	pr, pw := io.Pipe()
	t.Cleanup(func() { _ = pw.CloseWithError(io.ErrUnexpectedEOF) })
	mw := multipart.NewWriter(pw)
	done := asyncGQLMultipart(env, acc.Key, &sized{pr, 2 << 20}, mw.FormDataContentType())
	writeGQLPreamble(t, mw, twoOps, map[string]any{"0": []string{"variables.a"}, "1": []string{"variables.b"}})
	createFilePart(t, mw, pdf("0"))
	select {
	case res := <-done:
		require.NoError(t, res.err)
		requireGQLError(t, res.gqlHTTPResult, 400, "invalid_request")
		require.Contains(t, res.Errors[0]["message"], "one file")
	case <-time.After(30 * time.Second):
		t.Fatal("no answer while the body stays open after the map")
	}
}

// The file streams: the resolver stores it while the client is still
// sending it. The client sends operations, map and the first MB of a 20 MB
// file through a pipe and stops; the upload's temporary object must appear
// in storage and grow (the service is writing it) before the client sends
// the rest. A transport that buffers the body before executing, like gqlgen's
// MultipartForm, cannot pass: nothing runs until the body ends, which it
// does not until the test has seen the object.
func TestGraphQLUploadStreams(t *testing.T) {
	t.Parallel()
	dir := t.TempDir() // this test's own store, so any object in it is this upload's
	env := testkit.New(t, testkit.WithConfig(func(c *config.Config) { c.FileStorageURL = "file://" + dir }))
	acc := env.NewAccount()

	const size = 20 << 20
	const first = 1 << 20
	content := make([]byte, size)
	copy(content, pdfBytes)
	for i := len(pdfBytes); i < size; i++ {
		content[i] = byte(i % 251)
	}

	pr, pw := io.Pipe()
	t.Cleanup(func() { _ = pw.CloseWithError(io.ErrUnexpectedEOF) })
	mw := multipart.NewWriter(pw)
	done := asyncGQLMultipart(env, acc.Key, pr, mw.FormDataContentType())
	writeGQLPreamble(t, mw, uploadOperations("DELIVERABLE"), oneFileMap)
	part := createFilePart(t, mw, gqlFilePart{name: "0", filename: "big.pdf", contentType: "application/pdf"})
	_, err := part.Write(content[:first])
	require.NoError(t, err)

	// The temporary object (fileblob writes KEY.<time>.tmp next to the key).
	tmpSize := func() int64 {
		matches, _ := filepath.Glob(filepath.Join(dir, "uploads", "file_*.tmp"))
		if len(matches) != 1 {
			return -1
		}
		st, err := os.Stat(matches[0])
		if err != nil {
			return -1
		}
		return st.Size()
	}
	require.Eventually(t, func() bool { return tmpSize() >= 64<<10 }, 30*time.Second, 10*time.Millisecond,
		"the upload is not being stored while the client holds back the rest of the file")
	seen := tmpSize()
	require.Less(t, seen, int64(size))
	select {
	case res := <-done:
		t.Fatalf("answered before the file was sent: %s %v", res.raw, res.err)
	default:
	}

	_, err = part.Write(content[first:])
	require.NoError(t, err)
	require.NoError(t, mw.Close())
	require.NoError(t, pw.Close())
	var res asyncResult
	select {
	case res = <-done:
	case <-time.After(time.Minute):
		t.Fatal("no answer after the whole body was sent")
	}
	require.NoError(t, res.err)
	f := uploadedFileOf(t, res.gqlHTTPResult)
	require.Equal(t, int64(size), f.Size)
	require.Equal(t, "application/pdf", f.ContentType)
	stored, err := os.ReadFile(filepath.Join(dir, "uploads", f.Token))
	require.NoError(t, err)
	require.True(t, bytes.Equal(content, stored), "the stored bytes are the uploaded ones")
	matches, _ := filepath.Glob(filepath.Join(dir, "uploads", "*.tmp"))
	require.Empty(t, matches)
	t.Logf("temporary object held %d of %d bytes while the client waited", seen, size)
}
