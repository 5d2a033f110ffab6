package rest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"commerce/db"
	"commerce/rest"
	"commerce/testkit"
)

// idPrefixes are the id prefixes of the path segments that precede an id.
var idPrefixes = map[string]string{"listings": "lst", "deliverables": "del", "orders": "ord", "customers": "cus",
	"webhooks": "wh", "events": "evt", "api-keys": "key"}

// routePath fills a route's {params}: with a well-shaped id of the segment's
// kind, or (bad) with a NUL byte.
func routePath(pattern string, bad bool) string {
	segs := strings.Split(pattern, "/")
	for i, seg := range segs {
		if !strings.HasPrefix(seg, "{") {
			continue
		}
		if bad {
			segs[i] = "%00"
			continue
		}
		prefix := "obj"
		if i > 0 {
			if p, ok := idPrefixes[segs[i-1]]; ok {
				prefix = p
			}
		}
		segs[i] = db.NewID(prefix)
	}
	return strings.Join(segs, "/")
}

// FuzzREST sends a method, a path with its query and a JSON body to the
// service: whatever they hold, the answer is never a 5xx, and an error is a
// problem document. `go test` runs the seeds of testdata/fuzz/FuzzREST (the
// NUL and year-0000 cases of issue 14 among them); `go test -fuzz FuzzREST
// -run '^$' ./rest` explores further.
func FuzzREST(f *testing.F) {
	f.Add("POST", "/v1/listings", []byte(`{"title":"a\u0000b","price":100}`))
	f.Add("GET", "/v1/orders?created_after=0000-01-01T00:00:00Z", []byte(""))
	// Every route of the table is a seed: with well-shaped ids, with NUL
	// bytes in its ids, and (with a body) with a NUL string and an empty object.
	for _, rt := range rest.Routes {
		good, bad := routePath(rt.Path, false), routePath(rt.Path, true)
		f.Add(rt.Method, good+"?q=%00", []byte(""))
		f.Add(rt.Method, bad, []byte(""))
		if rt.Method == "POST" || rt.Method == "PUT" {
			f.Add(rt.Method, good, []byte(`{}`))
			f.Add(rt.Method, good, []byte(`{"name":"\u0000","title":"\u0000","url":"\u0000","email":"\u0000"}`))
		}
	}
	env := testkit.New(f)
	acc := env.NewAccount()
	client := env.HTTP.Client()
	f.Fuzz(func(t *testing.T, method, target string, body []byte) {
		switch method {
		case "GET", "POST", "PUT", "DELETE":
		default:
			t.Skip("not a method of the table")
		}
		u, err := url.Parse(target)
		if err != nil || !strings.HasPrefix(u.Path, "/v1/") || u.Host != "" || u.Scheme != "" {
			t.Skip("not a /v1 path")
		}
		// A well-formed request line, whatever bytes the path and query hold.
		rebuilt := u.EscapedPath()
		if u.RawQuery != "" {
			rebuilt += "?" + u.Query().Encode()
		}
		var rd io.Reader
		if len(body) > 0 {
			rd = bytes.NewReader(body)
		}
		req, err := http.NewRequest(method, env.URL+rebuilt, rd)
		if err != nil {
			t.Skip("not a request")
		}
		if len(body) > 0 {
			req.Header.Set("Content-Type", "application/json")
		}
		req.Header.Set("Authorization", "Bearer "+acc.Key)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, rebuilt, err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		if resp.StatusCode >= 500 {
			t.Fatalf("%s %s %q: %d %s", method, rebuilt, body, resp.StatusCode, raw)
		}
		if resp.StatusCode >= 400 {
			if ct := resp.Header.Get("Content-Type"); ct != "application/problem+json" {
				t.Fatalf("%s %s: %d with Content-Type %q: %s", method, rebuilt, resp.StatusCode, ct, raw)
			}
			var p struct {
				Code   string `json:"code"`
				Status int    `json:"status"`
			}
			if err := json.Unmarshal(raw, &p); err != nil || p.Code == "" || p.Status != resp.StatusCode {
				t.Fatalf("%s %s: %d, not a problem document: %s", method, rebuilt, resp.StatusCode, raw)
			}
		}
	})
}
