package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/config"
	"commerce/testkit"
)

// Minimal files whose leading bytes identify them.
var (
	pngBytes = append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"), make([]byte, 64)...)
	pdfBytes = []byte("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n")
)

// upload posts a multipart upload; parts are written in the order given.
func upload(t *testing.T, env *testkit.Env, key, purpose, filename, contentType string, content []byte, purposeFirst bool) *testkit.Response {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	writePurpose := func() { require.NoError(t, mw.WriteField("purpose", purpose)) }
	if purposeFirst {
		writePurpose()
	}
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="file"; filename=%q`, filename))
	if contentType != "" {
		h.Set("Content-Type", contentType)
	}
	part, err := mw.CreatePart(h)
	require.NoError(t, err)
	_, err = part.Write(content)
	require.NoError(t, err)
	if !purposeFirst {
		writePurpose()
	}
	require.NoError(t, mw.Close())
	return env.Do(testkit.Request{Method: "POST", Path: "/v1/files", Key: key, Body: body.Bytes(),
		Header: map[string]string{"Content-Type": mw.FormDataContentType()}})
}

func uploadToken(t *testing.T, env *testkit.Env, key, purpose, filename string, content []byte) string {
	t.Helper()
	r := upload(t, env, key, purpose, filename, "", content, true)
	require.Equal(t, 201, r.Status, "%s", r.Body)
	return r.JSON(t)["token"].(string)
}

// connectSandbox makes an account operational through the sandbox processor.
func connectSandbox(t *testing.T, env *testkit.Env, key string) { env.ConnectSandbox(key, "usd") }

func storageDir(env *testkit.Env) string {
	return strings.TrimPrefix(env.Server.Config.FileStorageURL, "file://")
}

// storedFiles lists the content files under the storage directory. The
// directory is shared with the package's other tests: a file that goes
// between listing its directory and reading it (an upload's temporary
// file renamed into place) is skipped.
func storedFiles(t *testing.T, env *testkit.Env) []string {
	t.Helper()
	var out []string
	require.NoError(t, filepath.Walk(storageDir(env), func(p string, info os.FileInfo, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err == nil && !info.IsDir() && !strings.HasSuffix(p, ".attrs") {
			rel, _ := filepath.Rel(storageDir(env), p)
			out = append(out, rel)
		}
		return err
	}))
	return out
}

func TestUploads(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()

	r := upload(t, env, acc.Key, "cover", "cover.png", "image/png", pngBytes, true)
	require.Equal(t, 201, r.Status, "%s", r.Body)
	f := r.JSON(t)
	require.Equal(t, "file", f["object"])
	require.Regexp(t, `^file_[0-9a-z]{26}$`, f["token"])
	require.Equal(t, "image/png", f["content_type"])
	require.Equal(t, "cover.png", f["filename"])
	exp, err := time.Parse(time.RFC3339, f["expires_at"].(string))
	require.NoError(t, err)
	require.WithinDuration(t, time.Now().Add(24*time.Hour), exp, time.Minute)

	// The purpose may come after the file.
	r = upload(t, env, acc.Key, "deliverable", "guide.pdf", "application/pdf", pdfBytes, false)
	require.Equal(t, 201, r.Status, "%s", r.Body)
	require.Equal(t, "deliverable", r.JSON(t)["purpose"])

	// A PNG declared as a PDF: the bytes decide.
	p := requireProblem(t, env, upload(t, env, acc.Key, "deliverable", "fake.pdf", "application/pdf", pngBytes, true), 422, "validation_error")
	require.Equal(t, "file", p["param"])
	// A PDF is no cover.
	requireProblem(t, env, upload(t, env, acc.Key, "cover", "c.pdf", "", pdfBytes, true), 422, "validation_error")
	// 6 MB cover: 413 with max_bytes, in either part order.
	big := append(append([]byte{}, pngBytes...), make([]byte, 6<<20)...)
	for _, first := range []bool{true, false} {
		p = requireProblem(t, env, upload(t, env, acc.Key, "cover", "big.png", "image/png", big, first), 413, "file_too_large")
		require.Equal(t, float64(5<<20), p["max_bytes"])
	}
	p = requireProblem(t, env, upload(t, env, acc.Key, "poster", "c.png", "", pngBytes, true), 422, "validation_error")
	require.Equal(t, "purpose", p["param"])
	requireProblem(t, env, env.Do(testkit.Request{Method: "POST", Path: "/v1/files", Key: acc.Key, Body: map[string]any{"file": "x"}}), 400, "invalid_request")
	// Only the two accepted uploads are recorded, and stored.
	var tokens []string
	rows, err := env.Server.DB.Pool.Query(context.Background(), "SELECT token FROM files WHERE account_id = $1", acc.ID)
	require.NoError(t, err)
	for rows.Next() {
		var tok string
		require.NoError(t, rows.Scan(&tok))
		tokens = append(tokens, tok)
	}
	rows.Close()
	require.Len(t, tokens, 2)
	for _, tok := range tokens {
		require.FileExists(t, filepath.Join(storageDir(env), "uploads", tok))
	}
}

func TestListingLifecycle(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()

	p := requireProblem(t, env, env.Post("/v1/listings", acc.Key, map[string]any{"title": "Zero", "price": 0}), 422, "validation_error")
	require.Equal(t, "price", p["param"])
	p = requireProblem(t, env, env.Post("/v1/listings", acc.Key, map[string]any{"title": "", "price": -5, "utm_source": strings.Repeat("u", 101)}), 422, "validation_error")
	require.Len(t, p["errors"], 3)

	cover := uploadToken(t, env, acc.Key, "cover", "cover.png", pngBytes)
	doc := uploadToken(t, env, acc.Key, "deliverable", "guide.pdf", pdfBytes)
	r := env.Post("/v1/listings", acc.Key, map[string]any{
		"title": "Knitting Guide", "price": 1500, "description": "Patterns.", "cover": cover,
		"deliverables":    []any{map[string]any{"type": "file", "token": doc}, map[string]any{"type": "text", "value": "Thank you!"}},
		"checkout_schema": []any{map[string]any{"key": "size", "label": "Size", "kind": "select", "required": true, "options": []string{"S", "M"}}},
		"metadata":        map[string]any{"sku": "KG-1"},
	})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	l := r.JSON(t)
	id := l["id"].(string)
	require.Equal(t, "knitting-guide", l["slug"])
	require.Equal(t, env.URL+"/p/knitting-guide", l["url"])
	require.Equal(t, l["url"], l["checkout_url"])
	require.Equal(t, "draft", l["status"])
	require.Equal(t, "managed", l["fulfillment"])
	require.Equal(t, "auto", l["cover_blur"])
	require.Nil(t, l["currency"], "null until the processor is connected")
	require.Len(t, l["deliverables"], 2)
	fileDel := l["deliverables"].([]any)[0].(map[string]any)
	require.Equal(t, "guide.pdf", fileDel["file"].(map[string]any)["name"])
	require.Nil(t, fileDel["value"])
	ready := l["readiness"].(map[string]any)
	require.Equal(t, false, ready["sellable"])
	require.Equal(t, "connect_stripe", ready["next"])

	// The cover is public at a stable URL.
	resp, err := http.Get(l["cover_url"].(string))
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
	require.Equal(t, pngBytes, body)
	require.Equal(t, "image/png", resp.Header.Get("Content-Type"))

	// A token is used once.
	p = requireProblem(t, env, env.Post("/v1/listings", acc.Key, map[string]any{"title": "Again", "price": 100, "cover": cover}), 422, "validation_error")
	require.Equal(t, "cover", p["param"])
	// A second listing of the same title gets a suffixed slug; an explicit taken slug is refused.
	r = env.Post("/v1/listings", acc.Key, map[string]any{"title": "Knitting Guide", "price": 900})
	require.Equal(t, 201, r.Status)
	require.Regexp(t, `^knitting-guide-[a-z0-9]{5}$`, r.JSON(t)["slug"])
	p = requireProblem(t, env, env.Post("/v1/listings", acc.Key, map[string]any{"title": "X", "price": 1, "slug": "Knitting Guide"}), 422, "validation_error")
	require.Equal(t, "slug", p["param"])

	// Publishing needs an operational account.
	r = env.Post("/v1/listings/"+id+"/publish", acc.Key, nil)
	p = requireProblem(t, env, r, 409, "publish_failed")
	require.Equal(t, "connect_stripe", p["next"])
	require.NotEmpty(t, p["actions"])
	connectSandbox(t, env, acc.Key)
	r = env.Post("/v1/listings/"+id+"/publish", acc.Key, nil)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	l = r.JSON(t)
	require.Equal(t, "published", l["status"])
	require.Equal(t, "usd", l["currency"])
	require.NotNil(t, l["published_at"])
	lr := l["readiness"].(map[string]any)
	require.Equal(t, true, lr["sellable"])
	require.Equal(t, []any{}, lr["actions"])
	require.Nil(t, lr["next"])
	require.Equal(t, "/v1/listings/"+id, lr["refresh"].(map[string]any)["endpoint"])

	// Published: fields and deliverables are frozen; status moves published ↔ paused.
	put := func(path string, body any) *testkit.Response {
		return env.Do(testkit.Request{Method: "PUT", Path: path, Key: acc.Key, Body: body})
	}
	p = requireProblem(t, env, put("/v1/listings/"+id, map[string]any{"title": "New"}), 409, "not_in_draft")
	require.Equal(t, "published", p["current_status"])
	require.Equal(t, "draft", p["required_status"])
	requireProblem(t, env, put("/v1/listings/"+id+"/deliverables", map[string]any{"deliverables": []any{}}), 409, "not_in_draft")
	requireProblem(t, env, env.Post("/v1/listings/"+id+"/deliverables", acc.Key, map[string]any{"type": "text", "value": "x"}), 409, "not_in_draft")
	requireProblem(t, env, env.Do(testkit.Request{Method: "DELETE", Path: "/v1/listings/" + id + "/deliverables", Key: acc.Key}), 409, "not_in_draft")
	requireProblem(t, env, env.Post("/v1/listings/"+id+"/publish", acc.Key, nil), 409, "not_in_draft")
	r = put("/v1/listings/"+id, map[string]any{"status": "paused"})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.Equal(t, "paused", r.JSON(t)["status"])
	require.Equal(t, false, r.JSON(t)["readiness"].(map[string]any)["sellable"])
	require.Equal(t, "published", put("/v1/listings/"+id, map[string]any{"status": "published"}).JSON(t)["status"])

	a := env.Get("/v1/account", acc.Key).JSON(t)
	require.Equal(t, 2.0, a["stats"].(map[string]any)["total_listings"])
	require.NotContains(t, fmt.Sprint(a["readiness"]), "publish_listing", "a listing is published")

	// List: summaries, status filter.
	list := env.Get("/v1/listings?status=published", acc.Key).JSON(t)
	require.Len(t, list["data"], 1)
	require.Equal(t, "managed", list["data"].([]any)[0].(map[string]any)["fulfillment"])
	require.Len(t, env.Get("/v1/listings", acc.Key).JSON(t)["data"], 2)
	p = requireProblem(t, env, env.Get("/v1/listings?status=archived", acc.Key), 422, "validation_error")
	require.Equal(t, "status", p["param"])

	// Delete: the listing is gone.
	require.Equal(t, 204, env.Do(testkit.Request{Method: "DELETE", Path: "/v1/listings/" + id, Key: acc.Key}).Status)
	requireProblem(t, env, env.Get("/v1/listings/"+id, acc.Key), 404, "not_found")
	require.Equal(t, 1.0, env.Get("/v1/account", acc.Key).JSON(t)["stats"].(map[string]any)["total_listings"])
}

// Deleting a listing removes its files from the storage directory.
func TestDeleteListingRemovesFiles(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers())
	acc := env.NewAccount()
	cover := uploadToken(t, env, acc.Key, "cover", "cover.png", pngBytes)
	doc := uploadToken(t, env, acc.Key, "deliverable", "guide.pdf", pdfBytes)
	r := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Files", "price": 100, "cover": cover,
		"deliverables": []any{map[string]any{"type": "file", "token": doc}}})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	id := r.JSON(t)["id"].(string)
	mine := func() []string {
		var out []string
		for _, f := range storedFiles(t, env) {
			if strings.Contains(f, id) || strings.Contains(f, cover) || strings.Contains(f, doc) {
				out = append(out, f)
			}
		}
		return out
	}
	// Attached: the uploads are gone, the permanent copies are there.
	require.Eventually(t, func() bool {
		files := mine()
		return len(files) == 2 && !strings.Contains(strings.Join(files, " "), "uploads")
	}, 10*time.Second, 50*time.Millisecond, "%v", mine())

	require.Equal(t, 204, env.Do(testkit.Request{Method: "DELETE", Path: "/v1/listings/" + id, Key: acc.Key}).Status)
	require.Eventually(t, func() bool { return len(mine()) == 0 }, 10*time.Second, 50*time.Millisecond, "%v", mine())
}

func TestDeliverables(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	id := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Deliv", "price": 100}).JSON(t)["id"].(string)
	path := "/v1/listings/" + id + "/deliverables"

	// A reachable https URL (an httptest TLS server; private targets are
	// allowed in this env, and its certificate is trusted below).
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead {
			w.WriteHeader(405)
			return
		}
		w.WriteHeader(200)
	}))
	defer srv.Close()
	env.Server.Resolver.HTTP = srv.Client()

	r := env.Post(path, acc.Key, map[string]any{"type": "url", "value": srv.URL + "/download"})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	d := r.JSON(t)
	require.Regexp(t, `^del_`, d["id"])
	require.Equal(t, srv.URL+"/download", d["value"])
	require.Equal(t, 201, env.Post(path, acc.Key, map[string]any{"type": "text", "value": "two"}).Status)
	require.Equal(t, 201, env.Post(path, acc.Key, map[string]any{"type": "text", "value": "three"}).Status)
	p := requireProblem(t, env, env.Post(path, acc.Key, map[string]any{"type": "text", "value": "four"}), 409, "conflict")
	require.Equal(t, 3.0, p["current_count"])
	require.Equal(t, 3.0, p["max_count"])

	p = requireProblem(t, env, env.Post(path, acc.Key, map[string]any{"type": "url", "value": "http://example.com/file"}), 422, "validation_error")
	require.Equal(t, "value", p["param"])
	p = requireProblem(t, env, env.Post(path, acc.Key, map[string]any{"type": "file", "token": "file_01jdx0v3k7q8r9s0t1u2v3w4x5"}), 409, "conflict")
	_ = p

	// Remove one, then all: the listing switches to external fulfillment.
	l := env.Get("/v1/listings/"+id, acc.Key).JSON(t)
	first := l["deliverables"].([]any)[0].(map[string]any)["id"].(string)
	require.Equal(t, 204, env.Do(testkit.Request{Method: "DELETE", Path: path + "/" + first, Key: acc.Key}).Status)
	requireProblem(t, env, env.Do(testkit.Request{Method: "DELETE", Path: path + "/" + first, Key: acc.Key}), 404, "not_found")
	r = env.Do(testkit.Request{Method: "DELETE", Path: path, Key: acc.Key})
	require.Equal(t, 200, r.Status)
	l = r.JSON(t)
	require.Empty(t, l["deliverables"])
	require.Equal(t, "external", l["fulfillment"])
	require.Contains(t, fmt.Sprint(l["readiness"]), "configure_fulfillment")

	// Set replaces all; a used token is refused; too many is 422.
	doc := uploadToken(t, env, acc.Key, "deliverable", "guide.pdf", pdfBytes)
	set := func(ds ...any) *testkit.Response {
		return env.Do(testkit.Request{Method: "PUT", Path: path, Key: acc.Key, Body: map[string]any{"deliverables": ds}})
	}
	r = set(map[string]any{"type": "file", "token": doc}, map[string]any{"type": "text", "value": "hi"})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.Len(t, r.JSON(t)["deliverables"], 2)
	p = requireProblem(t, env, set(map[string]any{"type": "file", "token": doc}), 422, "validation_error")
	require.Equal(t, "deliverables[0].token", p["param"])
	p = requireProblem(t, env, set(map[string]any{"type": "text", "value": "1"}, map[string]any{"type": "text", "value": "2"},
		map[string]any{"type": "text", "value": "3"}, map[string]any{"type": "text", "value": "4"}), 422, "validation_error")
	require.Equal(t, "deliverables", p["param"])

	// An expired token is refused.
	old := uploadToken(t, env, acc.Key, "deliverable", "old.pdf", pdfBytes)
	_, err := env.Server.DB.Pool.Exec(context.Background(), "UPDATE files SET expires_at = now() - interval '1 second' WHERE token = $1", old)
	require.NoError(t, err)
	p = requireProblem(t, env, env.Post(path, acc.Key, map[string]any{"type": "file", "token": old}), 422, "validation_error")
	require.Equal(t, "token", p["param"])

	// Another account's listing does not exist for this key.
	other := env.NewAccount()
	requireProblem(t, env, env.Get("/v1/listings/"+id, other.Key), 404, "not_found")
	requireProblem(t, env, env.Post(path, other.Key, map[string]any{"type": "text", "value": "x"}), 404, "not_found")
	requireProblem(t, env, env.Do(testkit.Request{Method: "DELETE", Path: "/v1/listings/" + id, Key: other.Key}), 404, "not_found")
}

// With private targets refused (the default outside make run), a URL
// pointing at loopback is refused after DNS resolution.
func TestDeliverableURLPrivateTarget(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithConfig(func(c *config.Config) { c.AllowPrivateTargets = false }))
	acc := env.NewAccount()
	for _, u := range []string{"https://127.0.0.1/file", "https://localhost:8443/x", "http://example.com/x"} {
		p := requireProblem(t, env, env.Post("/v1/listings", acc.Key, map[string]any{"title": "T", "price": 1,
			"deliverables": []any{map[string]any{"type": "url", "value": u}}}), 422, "validation_error")
		require.Equal(t, "deliverables[0].value", p["param"], u)
	}
}

func TestListingValidation(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	fields := make([]any, 11)
	for i := range fields {
		fields[i] = map[string]any{"key": fmt.Sprintf("f%d", i), "label": "F", "kind": "text"}
	}
	p := requireProblem(t, env, env.Post("/v1/listings", acc.Key, map[string]any{"title": "T", "price": 1, "checkout_schema": fields}), 422, "validation_error")
	require.Equal(t, "checkout_schema", p["param"])
	p = requireProblem(t, env, env.Post("/v1/listings", acc.Key, map[string]any{"title": "T", "price": 1, "utm_campaign": strings.Repeat("c", 101)}), 422, "validation_error")
	require.Equal(t, "utm_campaign", p["param"])
	p = requireProblem(t, env, env.Post("/v1/listings", acc.Key, map[string]any{"title": "T", "price": 1, "checkout_schema": []any{
		map[string]any{"key": "Bad Key", "label": "x", "kind": "text"},
		map[string]any{"key": "pick", "label": "Pick", "kind": "select"},
		map[string]any{"key": "when", "label": "When", "kind": "time"},
	}}), 422, "validation_error")
	require.Equal(t, "checkout_schema[0].key", p["param"])
	params := []string{}
	for _, e := range p["errors"].([]any) {
		params = append(params, e.(map[string]any)["param"].(string))
	}
	require.ElementsMatch(t, []string{"checkout_schema[0].key", "checkout_schema[1].options", "checkout_schema[2].kind"}, params)
	p = requireProblem(t, env, env.Post("/v1/listings", acc.Key, map[string]any{"title": "T", "price": 1, "cover_blur": "maybe", "external_delivery": "fax"}), 422, "validation_error")
	require.Len(t, p["errors"], 2)
	p = requireProblem(t, env, env.Post("/v1/listings", acc.Key, map[string]any{"title": "T", "price": 1, "colour": "red"}), 422, "validation_error")
	require.Equal(t, "colour", p["param"])

	// Draft updates: title keeps the slug; slug changes it; null clears.
	l := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Original Title", "price": 1, "description": "d", "utm_source": "news"}).JSON(t)
	put := func(body any) *testkit.Response {
		return env.Do(testkit.Request{Method: "PUT", Path: "/v1/listings/" + l["id"].(string), Key: acc.Key, Body: body})
	}
	u := put(map[string]any{"title": "Renamed", "description": nil, "metadata": map[string]any{"a": "b"}}).JSON(t)
	require.Equal(t, "Renamed", u["title"])
	require.Equal(t, l["slug"], u["slug"])
	require.Nil(t, u["description"])
	require.Equal(t, "news", u["utm_source"])
	require.Equal(t, map[string]any{"a": "b"}, u["metadata"])
	u = put(map[string]any{"slug": "Brand New Slug " + testkit.Unique()}).JSON(t)
	require.True(t, strings.HasPrefix(u["slug"].(string), "brand-new-slug-"), u["slug"])
	p = requireProblem(t, env, put(map[string]any{"status": "published"}), 422, "validation_error")
	require.Equal(t, "status", p["param"])
}

// A page of listings with their deliverables costs a constant number of
// queries through GraphQL, whatever the page size.
func TestGraphQLListingsDataloader(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	for i := 0; i < 12; i++ {
		r := env.Post("/v1/listings", acc.Key, map[string]any{"title": fmt.Sprint("L", i), "price": 100 + i,
			"deliverables": []any{map[string]any{"type": "text", "value": "a"}, map[string]any{"type": "text", "value": "b"}}})
		require.Equal(t, 201, r.Status, "%s", r.Body)
	}
	query := `query($n: Int) { viewer { listings(first: $n) { edges { cursor node { id title deliverables { id type value } readiness { sellable next } } } pageInfo { hasNextPage endCursor } } } }`
	// The counter is the process's: a background statement (the key's
	// last-used write, the process heartbeat) may land in a window, never
	// take one away, so each size counts its fewest of three runs.
	cost := func(n int) (int64, gqlResponse) {
		var least int64 = -1
		var res gqlResponse
		for range 3 {
			time.Sleep(50 * time.Millisecond) // let the key's last-used write settle
			before := env.Server.DB.Queries()
			res = gql(t, env, acc.Key, query, map[string]any{"n": n})
			if q := env.Server.DB.Queries() - before; least < 0 || q < least {
				least = q
			}
		}
		return least, res
	}
	small, res := cost(2)
	require.Empty(t, res.Errors)
	large, res := cost(12)
	require.Empty(t, res.Errors)
	require.Equal(t, small, large, "queries do not grow with the page")
	require.LessOrEqual(t, large, int64(4))
	var data struct {
		Viewer struct {
			Listings struct {
				Edges []struct {
					Node struct {
						Deliverables []map[string]any
					}
				}
				PageInfo struct{ HasNextPage bool }
			}
		}
	}
	require.NoError(t, json.Unmarshal(res.Data, &data))
	require.Len(t, data.Viewer.Listings.Edges, 12)
	for _, e := range data.Viewer.Listings.Edges {
		require.Len(t, e.Node.Deliverables, 2)
	}
	require.False(t, data.Viewer.Listings.PageInfo.HasNextPage)

	// The same listing through GraphQL and REST.
	id := env.Get("/v1/listings?limit=1", acc.Key).JSON(t)["data"].([]any)[0].(map[string]any)["id"].(string)
	res = gql(t, env, acc.Key, `query($id: ID!) { listing(id: $id) { id slug price fulfillment deliverables { id value } } }`, map[string]any{"id": id})
	require.Empty(t, res.Errors)
	rest := env.Get("/v1/listings/"+id, acc.Key).JSON(t)
	require.Contains(t, string(res.Data), rest["slug"].(string))
	other := env.NewAccount()
	res = gql(t, env, other.Key, `query($id: ID!) { listing(id: $id) { id } }`, map[string]any{"id": id})
	require.Equal(t, "not_found", res.Errors[0]["extensions"].(map[string]any)["code"])
}

// Removing text deliverables schedules no blob deletion: they have no file
// (the empty key would be the file store's own directory).
func TestRemoveTextDeliverableSchedulesNothing(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	l := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Text", "price": 500,
		"deliverables": []any{map[string]any{"type": "text", "value": "one"}, map[string]any{"type": "text", "value": "two"}}})
	require.Equal(t, 201, l.Status, "%s", l.Body)
	m := l.JSON(t)
	id := m["id"].(string)
	first := m["deliverables"].([]any)[0].(map[string]any)["id"].(string)
	jobsOf := func() int {
		var n int
		require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(),
			`SELECT count(*) FROM river_job WHERE kind = 'delete_blobs' AND args->'keys' @> '[""]'`).Scan(&n))
		return n
	}
	before := jobsOf()
	require.Equal(t, 204, env.Do(testkit.Request{Method: "DELETE", Path: "/v1/listings/" + id + "/deliverables/" + first, Key: acc.Key}).Status)
	require.Equal(t, 200, env.Do(testkit.Request{Method: "DELETE", Path: "/v1/listings/" + id + "/deliverables", Key: acc.Key}).Status)
	require.Equal(t, 204, env.Do(testkit.Request{Method: "DELETE", Path: "/v1/listings/" + id, Key: acc.Key}).Status)
	require.Equal(t, before, jobsOf(), "no deletion of the empty key")
}
