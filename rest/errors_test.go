package rest_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/rest"
	"commerce/testkit"
)

// requireProblem asserts a problem document with the six members, the
// correlation id, and the given status and code.
func requireProblem(t *testing.T, env *testkit.Env, r *testkit.Response, status int, code string) map[string]any {
	t.Helper()
	require.Equal(t, status, r.Status, "body: %s", r.Body)
	require.Equal(t, "application/problem+json", r.Header.Get("Content-Type"))
	p := r.JSON(t)
	for _, m := range []string{"type", "title", "status", "detail", "code", "param", "correlation_id"} {
		require.Contains(t, p, m, "problem member %s", m)
	}
	require.Equal(t, code, p["code"])
	require.Equal(t, float64(status), p["status"])
	require.Equal(t, env.URL+"/errors/"+code, p["type"])
	require.Equal(t, r.Header.Get("X-Correlation-Id"), p["correlation_id"])
	require.NotEmpty(t, p["title"])
	require.NotEmpty(t, p["detail"])
	return p
}

func TestErrorPaths(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()

	cases := []struct {
		name   string
		req    testkit.Request
		status int
		code   string
		param  any
	}{
		{"unknown route without key", testkit.Request{Method: "GET", Path: "/v1/nope"}, 404, "not_found", nil},
		{"unknown route with key", testkit.Request{Method: "GET", Path: "/v1/nope", Key: acc.Key}, 404, "not_found", nil},
		{"unknown root route", testkit.Request{Method: "GET", Path: "/nope/deeper"}, 404, "not_found", nil},
		{"missing key", testkit.Request{Method: "GET", Path: "/v1/api-keys"}, 401, "authentication_error", nil},
		{"malformed key", testkit.Request{Method: "GET", Path: "/v1/api-keys", Key: "svc_short"}, 401, "authentication_error", nil},
		{"unknown key", testkit.Request{Method: "GET", Path: "/v1/api-keys", Key: "svc_" + strings.Repeat("a", 40)}, 401, "authentication_error", nil},
		{"wrong scheme", testkit.Request{Method: "GET", Path: "/v1/api-keys", Header: map[string]string{"Authorization": "Basic " + acc.Key}}, 401, "authentication_error", nil},
		{"malformed JSON", testkit.Request{Method: "POST", Path: "/v1/api-keys", Key: acc.Key, Body: `{"name":`}, 400, "invalid_request", nil},
		{"not an object", testkit.Request{Method: "POST", Path: "/v1/api-keys", Key: acc.Key, Body: `[1,2]`}, 400, "invalid_request", nil},
		{"empty body", testkit.Request{Method: "POST", Path: "/v1/api-keys", Key: acc.Key, Body: ` `}, 400, "invalid_request", nil},
		{"wrong content type", testkit.Request{Method: "POST", Path: "/v1/api-keys", Key: acc.Key, Body: `{"name":"x"}`, Header: map[string]string{"Content-Type": "text/plain"}}, 400, "invalid_request", nil},
		{"unknown field", testkit.Request{Method: "POST", Path: "/v1/api-keys", Key: acc.Key, Body: `{"name":"x","colour":"red"}`}, 422, "validation_error", "colour"},
		{"wrong type", testkit.Request{Method: "POST", Path: "/v1/api-keys", Key: acc.Key, Body: `{"name":42}`}, 422, "validation_error", "name"},
		{"invalid field", testkit.Request{Method: "POST", Path: "/v1/api-keys", Key: acc.Key, Body: `{"name":"x","scope":"admin"}`}, 422, "validation_error", "scope"},
		{"bad limit", testkit.Request{Method: "GET", Path: "/v1/api-keys?limit=0", Key: acc.Key}, 422, "validation_error", "limit"},
		{"limit not a number", testkit.Request{Method: "GET", Path: "/v1/api-keys?limit=ten", Key: acc.Key}, 422, "validation_error", "limit"},
		{"foreign cursor", testkit.Request{Method: "GET", Path: "/v1/api-keys?cursor=bm9wZQ", Key: acc.Key}, 422, "validation_error", "cursor"},
		{"bad idempotency key", testkit.Request{Method: "POST", Path: "/v1/api-keys", Key: acc.Key, Body: `{"name":"x"}`, Header: map[string]string{"Idempotency-Key": "tab\there"}}, 400, "invalid_request", "Idempotency-Key"},
		{"another account's key id", testkit.Request{Method: "DELETE", Path: "/v1/api-keys/key_01jdx0v3k7q8r9s0t1u2v3w4x5", Key: acc.Key}, 404, "not_found", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := env.Do(tc.req)
			p := requireProblem(t, env, r, tc.status, tc.code)
			require.Equal(t, tc.param, p["param"])
		})
	}
}

func TestMethodNotAllowed(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	r := env.Do(testkit.Request{Method: "PUT", Path: "/v1/api-keys"})
	requireProblem(t, env, r, 405, "method_not_allowed")
	require.Equal(t, "GET, POST", r.Header.Get("Allow"))
	r = env.Do(testkit.Request{Method: "PATCH", Path: "/v1/plans"})
	requireProblem(t, env, r, 405, "method_not_allowed")
	require.Equal(t, "GET", r.Header.Get("Allow"))
}

func TestValidationErrorListsEveryField(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	r := env.Post("/v1/api-keys", acc.Key, map[string]any{"name": "", "scope": "root", "expires_at": "2001-01-01T00:00:00Z"})
	p := requireProblem(t, env, r, 422, "validation_error")
	require.Equal(t, "name", p["param"])
	errs := p["errors"].([]any)
	var params []string
	for _, e := range errs {
		params = append(params, e.(map[string]any)["param"].(string))
	}
	require.Equal(t, []string{"name", "scope", "expires_at"}, params)
}

func TestCorrelationID(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	r := env.Do(testkit.Request{Method: "GET", Path: "/v1/ping", Header: map[string]string{"X-Correlation-Id": "abc.DEF_123-x"}})
	require.Equal(t, "abc.DEF_123-x", r.Header.Get("X-Correlation-Id"))
	r = env.Do(testkit.Request{Method: "GET", Path: "/v1/ping", Header: map[string]string{"X-Correlation-Id": "bad id!"}})
	require.NotEqual(t, "bad id!", r.Header.Get("X-Correlation-Id"))
	require.Regexp(t, `^[0-9a-f]{24}$`, r.Header.Get("X-Correlation-Id"))
	r = env.Do(testkit.Request{Method: "GET", Path: "/nowhere", Header: map[string]string{"X-Correlation-Id": "trace-1"}})
	require.Equal(t, "trace-1", r.JSON(t)["correlation_id"])
}

// A panic becomes 500 internal_error with nothing internal in the body.
func TestPanicIsInternalError(t *testing.T) {
	t.Parallel()
	ps := rest.Problems{BaseURL: "http://svc", Log: testkit.Logger()}
	h := rest.Correlate(rest.Recover(ps)(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		panic("secret database password in a panic")
	})))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/v1/boom", nil))
	require.Equal(t, 500, rec.Code)
	require.Equal(t, "application/problem+json", rec.Header().Get("Content-Type"))
	require.Contains(t, rec.Body.String(), `"code":"internal_error"`)
	require.Contains(t, rec.Body.String(), `"correlation_id":"`+rec.Header().Get("X-Correlation-Id")+`"`)
	require.NotContains(t, rec.Body.String(), "secret")
	require.NotContains(t, rec.Body.String(), "panic")
}

func TestErrorCodePages(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	r := env.Get("/errors/rate_limited", "")
	require.Equal(t, 200, r.Status)
	require.Contains(t, string(r.Body), "Too many requests")
	r = env.Get("/errors/not_a_code", "")
	require.Equal(t, 404, r.Status)
}
