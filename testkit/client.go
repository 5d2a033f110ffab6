package testkit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Clients of a service under test reached over HTTP from outside (a
// Process): the REST API called with a key as an integration calls it, and
// a form posted as a browser posts it.

// CallAPI calls method path of the REST API at base with key, body (when
// not nil) sent as JSON, and decodes the answer into out (when not nil).
// A status other than want fails t.
func CallAPI(t testing.TB, client *http.Client, base, key, method, path string, body any, want int, out any) {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		require.NoError(t, err)
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, base+path, r)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+key)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := client.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	require.Equal(t, want, resp.StatusCode, "%s %s: %s", method, path, b)
	if out != nil {
		require.NoError(t, json.Unmarshal(b, out))
	}
}

// noRedirect is PostForm's client: it stops at the first answer.
var noRedirect = &http.Client{Timeout: 15 * time.Second,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// PostForm posts form to u as a browser would (with an Origin header when
// origin is not "") and returns the target of the 303 it must answer; any
// other answer is an error.
func PostForm(u, origin string, form url.Values) (*url.URL, error) {
	req, err := http.NewRequest(http.MethodPost, u, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := noRedirect.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode != http.StatusSeeOther {
		return nil, fmt.Errorf("HTTP %d, want 303: %.200s", resp.StatusCode, b)
	}
	return resp.Location()
}
