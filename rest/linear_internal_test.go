package rest

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/graph/model"
	"commerce/problem"
	"commerce/testkit/linear"
)

// The decoding and validation paths of /v1 cost time and memory at most
// linear in the size of what a client sends (issue 20): each input shape is
// doubled four times. These tests measure the process's allocations, so
// they do not run in parallel with others (linear.Check).

func jsonRequest(body []byte) *http.Request {
	r := httptest.NewRequest(http.MethodPut, "/v1/listings/x", bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	return r
}

// decodes runs decodeJSON into a listing update (its metadata takes any
// JSON) and requires an answer; which one does not matter here.
func decodes(t testing.TB, in any) {
	var dst model.UpdateListingInput
	_ = decodeJSON(jsonRequest(in.([]byte)), &dst)
}

func TestDecodeJSONIsLinear(t *testing.T) {
	metadata := func(v string) []byte { return []byte(`{"metadata":{"a":` + v + `}}`) }
	cases := []linear.Case{{
		// Nesting is refused past 32 levels (CONTRACT §1); before that
		// refusal existed, the boundary's walk built the path of every
		// level, O(depth²).
		Name:  "nested arrays",
		Sizes: []int{250, 500, 1000, 2000, 4000},
		Input: func(n int) any { return metadata(strings.Repeat("[", n) + strings.Repeat("]", n)) },
	}, {
		Name:  "nested arrays within the depth limit, repeated",
		Sizes: []int{500, 1000, 2000, 4000, 8000},
		Input: func(n int) any {
			return metadata("[" + strings.Repeat(strings.Repeat("[", 28)+strings.Repeat("]", 28)+",", n) + "0]")
		},
	}, {
		Name:  "object keys",
		Sizes: []int{2500, 5000, 10000, 20000, 40000},
		Input: func(n int) any {
			var b strings.Builder
			for i := range n {
				fmt.Fprintf(&b, `"k%d":0,`, i)
			}
			return metadata("{" + strings.TrimSuffix(b.String(), ",") + "}")
		},
	}, {
		Name:  "array elements",
		Sizes: []int{5000, 10000, 20000, 40000, 80000},
		Input: func(n int) any { return metadata("[" + strings.Repeat("0,", n) + "0]") },
	}, {
		Name:  "multi-byte string",
		Sizes: []int{16 << 10, 32 << 10, 64 << 10, 128 << 10, 256 << 10},
		Input: func(n int) any { return metadata(`"` + strings.Repeat("€", n) + `"`) },
	}, {
		Name:  "string of escapes",
		Sizes: []int{8 << 10, 16 << 10, 32 << 10, 64 << 10, 128 << 10},
		Input: func(n int) any { return metadata(`"` + strings.Repeat(`\u00e9`, n) + `"`) },
	}}
	for _, c := range cases {
		c.Run = decodes
		t.Run(c.Name, func(t *testing.T) { linear.Check(t, c) })
	}
}

func TestCheckRequestIsLinear(t *testing.T) {
	linear.Check(t, linear.Case{
		Name:  "query parameters",
		Sizes: []int{500, 1000, 2000, 4000, 8000},
		Input: func(n int) any {
			var b strings.Builder
			for i := range n {
				fmt.Fprintf(&b, "k%d=%s&", i, strings.Repeat("é", 4))
			}
			return httptest.NewRequest(http.MethodGet, "/v1/listings?"+b.String(), nil)
		},
		Run: func(t testing.TB, in any) { require.NoError(t, checkRequest(in.(*http.Request), nil)) },
	})
}

func TestProblemRenderingIsLinear(t *testing.T) {
	ps := Problems{BaseURL: "http://example.com", Log: slog.New(slog.DiscardHandler)}
	linear.Check(t, linear.Case{
		Name: "validation_error with n fields",
		// From 1,000: at 500 the whole problem (180 KB) stays in the
		// core's cache and runs 4× faster than at 1,000, then time
		// doubles with n; measured from 500, the range's growth (35× here,
		// 56× in a loaded CI) was the cache's, not the renderer's.
		Sizes: []int{1000, 2000, 4000, 8000, 16000},
		Input: func(n int) any {
			var f problem.Fields
			for i := range n {
				f.Addf(fmt.Sprintf("checkout_schema[%d].label", i), "checkout_schema[%d].label must be at most 200 characters", i)
			}
			return f.Err()
		},
		Run: func(t testing.TB, in any) {
			w := httptest.NewRecorder()
			ps.Write(w, httptest.NewRequest(http.MethodGet, "/", nil).WithContext(context.Background()), in.(error))
			require.Equal(t, http.StatusUnprocessableEntity, w.Code)
		},
	})
}
