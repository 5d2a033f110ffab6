package rest_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

// A listing's access limits (CONTRACT §21): each member validated under
// access.<member>, null without any, omitted on PUT keeps them and null
// clears them, draft-only; GraphQL's input is omittable on update.
func TestListingAccess(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)

	plain := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Plain " + testkit.Unique(), "price": 900})
	require.Equal(t, 201, plain.Status, "%s", plain.Body)
	require.Contains(t, plain.JSON(t), "access")
	require.Nil(t, plain.JSON(t)["access"])

	for _, c := range []struct {
		access map[string]any
		param  string
	}{
		{map[string]any{"download_limit": 0}, "access.download_limit"},
		{map[string]any{"download_limit": 101}, "access.download_limit"},
		{map[string]any{"access_days": 0}, "access.access_days"},
		{map[string]any{"access_days": 3651}, "access.access_days"},
	} {
		r := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Bad", "price": 900, "access": c.access})
		p := requireProblem(t, env, r, 422, "validation_error")
		require.Equal(t, c.param, p["param"], "%v: %s", c.access, r.Body)
	}
	p := requireProblem(t, env, env.Post("/v1/listings", acc.Key, map[string]any{"title": "Bad", "price": 900,
		"access": map[string]any{"download_limit": -1, "access_days": 99999}}), 422, "validation_error")
	require.Len(t, p["errors"], 2)
	p = requireProblem(t, env, env.Post("/v1/listings", acc.Key, map[string]any{"title": "Bad", "price": 900,
		"access": map[string]any{"downloads": 3}}), 422, "validation_error")
	require.Equal(t, "downloads", p["param"])

	r := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Limited " + testkit.Unique(), "price": 1500,
		"access": map[string]any{"download_limit": 3, "access_days": 30}})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	id := r.JSON(t)["id"].(string)
	require.Equal(t, map[string]any{"download_limit": 3.0, "access_days": 30.0}, r.JSON(t)["access"])
	require.Equal(t, map[string]any{"download_limit": 3.0, "access_days": 30.0}, env.Get("/v1/listings/"+id, acc.Key).JSON(t)["access"])

	put := func(body map[string]any) *testkit.Response {
		return env.Do(testkit.Request{Method: "PUT", Path: "/v1/listings/" + id, Key: acc.Key, Body: body})
	}
	// Omitted keeps; a member omitted inside is null; {} and null clear.
	r = put(map[string]any{"title": "Limited 2"})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.Equal(t, map[string]any{"download_limit": 3.0, "access_days": 30.0}, r.JSON(t)["access"])
	r = put(map[string]any{"access": map[string]any{"access_days": 7}})
	require.Equal(t, map[string]any{"download_limit": nil, "access_days": 7.0}, r.JSON(t)["access"])
	requireProblem(t, env, put(map[string]any{"access": map[string]any{"download_limit": 500}}), 422, "validation_error")
	r = put(map[string]any{"access": nil})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.Nil(t, r.JSON(t)["access"])
	r = put(map[string]any{"access": map[string]any{"download_limit": 2}})
	require.Equal(t, map[string]any{"download_limit": 2.0, "access_days": nil}, r.JSON(t)["access"])
	r = put(map[string]any{"access": map[string]any{}})
	require.Nil(t, r.JSON(t)["access"], "neither limit is no limits")
	r = put(map[string]any{"access": map[string]any{"download_limit": 2}})
	require.Equal(t, 200, r.Status, "%s", r.Body)

	// Published: frozen like the other fields.
	doc := uploadToken(t, env, acc.Key, "deliverable", "guide.pdf", pdfBytes)
	require.Equal(t, 200, env.Do(testkit.Request{Method: "PUT", Path: "/v1/listings/" + id + "/deliverables", Key: acc.Key,
		Body: map[string]any{"deliverables": []any{map[string]any{"type": "file", "token": doc}}}}).Status)
	require.Equal(t, 200, env.Post("/v1/listings/"+id+"/publish", acc.Key, nil).Status)
	for _, body := range []map[string]any{{"access": nil}, {"access": map[string]any{"download_limit": 9}}} {
		requireProblem(t, env, put(body), 409, "not_in_draft")
	}

	// GraphQL.
	res := gql(t, env, acc.Key, `mutation { createListing(input: {title: "Gql limited", price: 700, access: {downloadLimit: 5}}) {
		id access { downloadLimit accessDays } } }`, nil)
	require.Empty(t, res.Errors)
	created := gqlData(t, res)["createListing"].(map[string]any)
	require.Equal(t, map[string]any{"downloadLimit": 5.0, "accessDays": nil}, created["access"])
	gid := created["id"].(string)
	res = gql(t, env, acc.Key, `mutation($id: ID!) { updateListing(id: $id, input: {title: "Gql 2"}) { access { downloadLimit } } }`, map[string]any{"id": gid})
	require.JSONEq(t, `{"updateListing":{"access":{"downloadLimit":5}}}`, string(res.Data))
	res = gql(t, env, acc.Key, `mutation($id: ID!) { updateListing(id: $id, input: {access: {accessDays: 4000}}) { id } }`, map[string]any{"id": gid})
	require.Len(t, res.Errors, 1)
	require.Equal(t, "access.access_days", res.Errors[0]["extensions"].(map[string]any)["param"])
	res = gql(t, env, acc.Key, `mutation($id: ID!) { updateListing(id: $id, input: {access: null}) { access { downloadLimit } } }`, map[string]any{"id": gid})
	require.JSONEq(t, `{"updateListing":{"access":null}}`, string(res.Data))
}

// accessFixture is a bought listing with access limits: a file, a url and a
// text deliverable, and a clock the test moves.
type accessFixture struct {
	env     *testkit.Env
	key     string
	orderID string
	link    string // /d/{token}
	file    string // /d/{token}/{del}
	fileID  string
	offset  *atomic.Int64
}

func (f *accessFixture) advance(d time.Duration) { f.offset.Add(int64(d)) }

func newAccessFixture(t *testing.T, access map[string]any) *accessFixture {
	t.Helper()
	target := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	t.Cleanup(target.Close)
	env := testkit.New(t)
	offset := new(atomic.Int64)
	env.Server.Resolver.Now = func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	doc := uploadToken(t, env, acc.Key, "deliverable", "guide.pdf", bigPDF)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Limited " + testkit.Unique(), "price": 1000, "access": access,
		"deliverables": []any{map[string]any{"type": "file", "token": doc}, map[string]any{"type": "url", "value": target.URL + "/course"},
			map[string]any{"type": "text", "value": "the secret word"}}})
	buyer := uniqueEmail("limited")
	orderID, _ := buy(t, env, l["slug"].(string), url.Values{"email": {buyer}}, "paid")
	link := mailLinkTo(t, env, buyer)
	page := env.Get(link, "")
	require.Equal(t, 200, page.Status)
	m := regexp.MustCompile(`href="(/d/[^"]+/(del_[0-9a-z]+))">Download guide.pdf`).FindStringSubmatch(string(page.Body))
	require.NotNil(t, m, "%s", page.Body)
	return &accessFixture{env: env, key: acc.Key, orderID: orderID, link: link, file: m[1], fileID: m[2], offset: offset}
}

// bigPDF is a PDF of some size, so ranges have something to cut.
var bigPDF = append(append([]byte{}, pdfBytes...), bytes.Repeat([]byte("% padding line\n"), 2000)...)

// get asks for path without following redirects.
func (f *accessFixture) get(t *testing.T, method, path string, header ...string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, f.env.URL+path, nil)
	require.NoError(t, err)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := noRedirect(f.env).Do(req)
	require.NoError(t, err)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(b))
	return resp
}

func body(t *testing.T, r *http.Response) string {
	b, err := io.ReadAll(r.Body)
	require.NoError(t, err)
	return string(b)
}

func (f *accessFixture) downloads(t *testing.T) []any {
	o := f.env.Get("/v1/orders/"+f.orderID, f.key).JSON(t)
	require.NotNil(t, o["access"], "%v", o)
	return o["access"].(map[string]any)["downloads"].([]any)
}

// Concurrent downloads against a limit: exactly the limit succeed.
func TestDownloadLimitConcurrent(t *testing.T) {
	t.Parallel()
	f := newAccessFixture(t, map[string]any{"download_limit": 3})
	var ok, gone atomic.Int64
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			r := f.get(t, "GET", f.file)
			switch r.StatusCode {
			case http.StatusSeeOther:
				ok.Add(1)
			case http.StatusGone:
				gone.Add(1)
			}
		})
	}
	wg.Wait()
	require.Equal(t, int64(3), ok.Load())
	require.Equal(t, int64(7), gone.Load())
	r := f.get(t, "GET", f.file)
	require.Equal(t, http.StatusGone, r.StatusCode)
	require.Contains(t, body(t, r), "You have downloaded this file 3 times, the most the seller allows. Ask ")
	require.Equal(t, 3.0, f.downloads(t)[0].(map[string]any)["count"])
	page := string(f.env.Get(f.link, "").Body)
	require.Contains(t, page, "You have downloaded this file 3 times")
	require.NotContains(t, page, "Download guide.pdf")
}

// Counting: a HEAD is not counted, a Range continuation within 10 minutes
// is not, one after is; url and text deliverables count the same way; the
// signed link works again within its 5 minutes, with ranges and the exact
// bytes, and a tampered or expired one is refused.
func TestDownloadCountingAndSignedLinks(t *testing.T) {
	t.Parallel()
	f := newAccessFixture(t, map[string]any{"download_limit": 3, "access_days": 2})
	page := string(f.env.Get(f.link, "").Body)
	require.Contains(t, page, "(3 downloads left)")
	require.NotContains(t, page, "the secret word", "text is behind its counted link")

	// HEAD: not counted.
	require.Equal(t, http.StatusSeeOther, f.get(t, "HEAD", f.file).StatusCode)
	require.Equal(t, 0.0, f.downloads(t)[0].(map[string]any)["count"])

	// GET: counted, 303 to a signed link.
	r := f.get(t, "GET", f.file)
	require.Equal(t, http.StatusSeeOther, r.StatusCode)
	signed := r.Header.Get("Location")
	require.True(t, strings.HasPrefix(signed, f.env.URL+"/files/"), signed)
	require.Equal(t, 1.0, f.downloads(t)[0].(map[string]any)["count"])
	require.Contains(t, string(f.env.Get(f.link, "").Body), "(2 downloads left)")

	// The link: twice, the exact bytes, as an attachment; a range.
	for range 2 {
		got := f.get(t, "GET", strings.TrimPrefix(signed, f.env.URL))
		require.Equal(t, 200, got.StatusCode)
		require.Equal(t, bigPDF, []byte(body(t, got)))
		require.Equal(t, "application/pdf", got.Header.Get("Content-Type"))
		require.Equal(t, "attachment; filename=guide.pdf", got.Header.Get("Content-Disposition"))
	}
	part := f.get(t, "GET", strings.TrimPrefix(signed, f.env.URL), "Range", "bytes=100-")
	require.Equal(t, http.StatusPartialContent, part.StatusCode)
	require.Equal(t, bigPDF[100:], []byte(body(t, part)))
	// Tampered: another expiry, signature or key; the file's bytes never sent.
	u, _ := url.Parse(signed)
	for name, mod := range map[string]func(u url.URL) url.URL{
		"expiry": func(u url.URL) url.URL {
			q := u.Query()
			q.Set("expires", "99999999999")
			u.RawQuery = q.Encode()
			return u
		},
		"sig": func(u url.URL) url.URL {
			q := u.Query()
			q.Set("sig", "A"+q.Get("sig")[1:])
			u.RawQuery = q.Encode()
			return u
		},
		"name": func(u url.URL) url.URL { q := u.Query(); q.Set("name", "x.html"); u.RawQuery = q.Encode(); return u },
		"key":  func(u url.URL) url.URL { u.Path = strings.TrimSuffix(u.Path, ".pdf") + "x"; return u },
	} {
		m := mod(*u)
		got := f.get(t, "GET", m.RequestURI())
		require.Equal(t, http.StatusForbidden, got.StatusCode, name)
		require.Contains(t, body(t, got), "This download link is not valid", name)
	}

	// A Range continuation within 10 minutes: not counted, and allowed.
	r = f.get(t, "GET", f.file, "Range", "bytes=500-")
	require.Equal(t, http.StatusSeeOther, r.StatusCode)
	require.Equal(t, 1.0, f.downloads(t)[0].(map[string]any)["count"])
	// From the first byte: a new download.
	require.Equal(t, http.StatusSeeOther, f.get(t, "GET", f.file, "Range", "bytes=0-").StatusCode)
	require.Equal(t, 2.0, f.downloads(t)[0].(map[string]any)["count"])

	// 6 minutes later the first link has expired.
	f.advance(6 * time.Minute)
	got := f.get(t, "GET", strings.TrimPrefix(signed, f.env.URL))
	require.Equal(t, http.StatusGone, got.StatusCode)
	require.Contains(t, body(t, got), "This download link has expired")
	// 11 minutes after the last count a Range request is a new download.
	f.advance(5 * time.Minute)
	require.Equal(t, http.StatusSeeOther, f.get(t, "GET", f.file, "Range", "bytes=500-").StatusCode)
	require.Equal(t, 3.0, f.downloads(t)[0].(map[string]any)["count"])
	// At the limit: a HEAD says so too, and a continuation within 10
	// minutes still works.
	require.Equal(t, http.StatusGone, f.get(t, "HEAD", f.file).StatusCode)
	require.Equal(t, http.StatusSeeOther, f.get(t, "GET", f.file, "Range", "bytes=900-").StatusCode)
	require.Equal(t, http.StatusGone, f.get(t, "GET", f.file).StatusCode)

	// url and text deliverables count the same way.
	ds := f.downloads(t)
	urlID, textID := ds[1].(map[string]any)["deliverable_id"].(string), ds[2].(map[string]any)["deliverable_id"].(string)
	base := strings.TrimSuffix(f.file, f.fileID)
	require.Equal(t, http.StatusFound, f.get(t, "GET", base+urlID).StatusCode)
	text := f.get(t, "GET", base+textID)
	require.Equal(t, 200, text.StatusCode)
	require.Contains(t, body(t, text), "the secret word")
	ds = f.downloads(t)
	require.Equal(t, 1.0, ds[1].(map[string]any)["count"])
	require.Equal(t, 1.0, ds[2].(map[string]any)["count"])
	require.Equal(t, 3.0, ds[2].(map[string]any)["limit"])

	// Two days after payment every deliverable ends: 410 with the date;
	// the download page still works and says so.
	o := f.env.Get("/v1/orders/"+f.orderID, f.key).JSON(t)
	expires, err := time.Parse(time.RFC3339, o["access"].(map[string]any)["expires_at"].(string))
	require.NoError(t, err)
	paid, _ := time.Parse(time.RFC3339, o["paid_at"].(string))
	require.WithinDuration(t, paid.Add(48*time.Hour), expires, time.Second)
	f.advance(48 * time.Hour)
	r = f.get(t, "GET", base+urlID)
	require.Equal(t, http.StatusGone, r.StatusCode)
	require.Contains(t, body(t, r), "Access to this file ended on "+expires.Format("January 2, 2006"))
	pg := f.env.Get(f.link, "")
	require.Equal(t, 200, pg.Status)
	require.Contains(t, string(pg.Body), "Access to this file ended on")

	// GraphQL shows the same access.
	res := gql(t, f.env, f.key, `query($id: ID!) { order(id: $id) { access { expiresAt downloads { deliverableId count limit } } } }`, map[string]any{"id": f.orderID})
	require.Empty(t, res.Errors)
	ga := gqlData(t, res)["order"].(map[string]any)["access"].(map[string]any)
	gexp, err := time.Parse(time.RFC3339, ga["expiresAt"].(string))
	require.NoError(t, err)
	require.True(t, expires.Equal(gexp), "%v %v", expires, gexp)
	require.Equal(t, map[string]any{"deliverableId": f.fileID, "count": 3.0, "limit": 3.0}, ga["downloads"].([]any)[0])
	res = gql(t, f.env, f.key, `{ viewer { orders(first: 5) { edges { node { id access { downloads { count } } } } } } }`, nil)
	require.Empty(t, res.Errors)
	require.Contains(t, string(res.Data), `"downloads":[{"count":3},{"count":1},{"count":1}]`)
}

// Reset: counts at 0 and the end moved to now + extend_days (or
// access_days); bounds; another account's order 404; a refunded order and
// an order without access limits 409.
func TestResetOrderAccess(t *testing.T) {
	t.Parallel()
	f := newAccessFixture(t, map[string]any{"download_limit": 1, "access_days": 3})
	require.Equal(t, http.StatusSeeOther, f.get(t, "GET", f.file).StatusCode)
	require.Equal(t, http.StatusGone, f.get(t, "GET", f.file).StatusCode)
	f.advance(4 * 24 * time.Hour)
	r := f.get(t, "GET", f.file)
	require.Equal(t, http.StatusGone, r.StatusCode)
	require.Contains(t, body(t, r), "Access to this file ended on", "an ended access is said before the limit")

	path := "/v1/orders/" + f.orderID + "/access/reset"
	for _, days := range []any{0, 3651, -1, "7"} {
		requireProblem(t, f.env, f.env.Post(path, f.key, map[string]any{"extend_days": days}), 422, "validation_error")
	}
	requireProblem(t, f.env, f.env.Post(path, f.env.NewAccount().Key, nil), 404, "not_found")
	requireProblem(t, f.env, f.env.Post("/v1/orders/ord_nope/access/reset", f.key, nil), 404, "not_found")

	// No body: the listing's access_days from now.
	r2 := f.env.Post(path, f.key, nil)
	require.Equal(t, 200, r2.Status, "%s", r2.Body)
	a := r2.JSON(t)["access"].(map[string]any)
	require.Equal(t, 0.0, a["downloads"].([]any)[0].(map[string]any)["count"])
	exp, _ := time.Parse(time.RFC3339, a["expires_at"].(string))
	require.WithinDuration(t, f.env.Server.Resolver.Now().Add(72*time.Hour), exp, 5*time.Second)
	require.Equal(t, http.StatusSeeOther, f.get(t, "GET", f.file).StatusCode)
	require.Contains(t, string(f.env.Get(f.link, "").Body), "You have downloaded this file once")

	// extend_days.
	r2 = f.env.Post(path, f.key, map[string]any{"extend_days": 10})
	require.Equal(t, 200, r2.Status, "%s", r2.Body)
	exp, _ = time.Parse(time.RFC3339, r2.JSON(t)["access"].(map[string]any)["expires_at"].(string))
	require.WithinDuration(t, f.env.Server.Resolver.Now().Add(240*time.Hour), exp, 5*time.Second)
	require.Contains(t, string(f.env.Get(f.link, "").Body), "(1 download left)")

	// GraphQL.
	res := gql(t, f.env, f.key, `mutation($id: ID!) { resetOrderAccess(id: $id, extendDays: 1) { access { expiresAt downloads { count } } } }`, map[string]any{"id": f.orderID})
	require.Empty(t, res.Errors)
	res = gql(t, f.env, f.key, `mutation($id: ID!) { resetOrderAccess(id: $id, extendDays: 0) { id } }`, map[string]any{"id": f.orderID})
	require.Equal(t, "extend_days", res.Errors[0]["extensions"].(map[string]any)["param"])

	// Refunded: nothing to give back.
	require.Equal(t, 200, f.env.Post("/v1/orders/"+f.orderID+"/refund", f.key, nil).Status)
	p := requireProblem(t, f.env, f.env.Post(path, f.key, nil), 409, "invalid_transition")
	require.Equal(t, "refunded", p["current_status"])
}

// A listing without access limits behaves as before: the file is streamed,
// order.access is null and no counting row is written.
func TestNoAccessLimits(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	doc := uploadToken(t, env, acc.Key, "deliverable", "guide.pdf", pdfBytes)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Open " + testkit.Unique(), "price": 1000,
		"deliverables": []any{map[string]any{"type": "file", "token": doc}}})
	buyer := uniqueEmail("open")
	orderID, _ := buy(t, env, l["slug"].(string), url.Values{"email": {buyer}}, "paid")
	o := env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)
	require.Contains(t, o, "access")
	require.Nil(t, o["access"])
	require.Nil(t, o["listing_snapshot"].(map[string]any)["access"])
	page := env.Get(mailLinkTo(t, env, buyer), "")
	m := regexp.MustCompile(`href="(/d/[^"]+/del_[0-9a-z]+)">Download guide.pdf`).FindSubmatch(page.Body)
	require.NotNil(t, m)
	for range 3 {
		r := env.Get(string(m[1]), "")
		require.Equal(t, 200, r.Status)
		require.Equal(t, pdfBytes, r.Body)
	}
	var n int
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM download_counts WHERE order_id = $1`, orderID).Scan(&n))
	require.Zero(t, n)
	requireProblem(t, env, env.Post("/v1/orders/"+orderID+"/access/reset", acc.Key, nil), 409, "invalid_transition")
}
