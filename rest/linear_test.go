package rest_test

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/testkit"
	"commerce/testkit/linear"
)

// multipartParts is a multipart body of n small parts, boundary included.
func multipartParts(first [][2]string, name string, n int) ([]byte, string) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for _, kv := range first {
		w, _ := mw.CreateFormField(kv[0])
		_, _ = io.WriteString(w, kv[1])
	}
	for range n {
		w, _ := mw.CreateFormField(name)
		_, _ = io.WriteString(w, "x")
	}
	_ = mw.Close()
	return b.Bytes(), mw.FormDataContentType()
}

// Multipart bodies are read a part at a time, through the whole service
// (POST /v1/files, and /graphql's uploads): n parts cost O(n).
func TestMultipartIsLinear(t *testing.T) {
	env := testkit.New(t)
	acc := env.NewAccount()
	type body struct {
		b  []byte
		ct string
	}
	post := func(path string, want int) func(testing.TB, any) {
		return func(t testing.TB, in any) {
			b := in.(body)
			req, err := http.NewRequest(http.MethodPost, env.URL+path, bytes.NewReader(b.b))
			require.NoError(t, err)
			req.Header.Set("Content-Type", b.ct)
			req.Header.Set("Authorization", "Bearer "+acc.Key)
			resp, err := env.HTTP.Client().Do(req)
			require.NoError(t, err)
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			require.Equal(t, want, resp.StatusCode)
		}
	}
	sizes := []int{625, 1250, 2500, 5000, 10000}
	linear.Check(t, linear.Case{
		Name:  "POST /v1/files with n purpose parts",
		Sizes: sizes,
		Input: func(n int) any { b, ct := multipartParts(nil, "purpose", n); return body{b, ct} },
		Run:   post("/v1/files", http.StatusUnprocessableEntity),
	})
	linear.Check(t, linear.Case{
		Name:  "POST /graphql multipart with n parts after map",
		Sizes: sizes,
		Input: func(n int) any {
			b, ct := multipartParts([][2]string{{"operations", `{"query":"{ ping { ok } }"}`}, {"map", `{}`}}, "x", n)
			return body{b, ct}
		},
		Run: post("/graphql", http.StatusOK),
	})
}
