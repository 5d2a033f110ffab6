package server

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/rest"
)

// The session cookie's attributes: Secure exactly when BASE_URL is https.
func TestSessionCookieAttributes(t *testing.T) {
	t.Parallel()
	for base, secure := range map[string]bool{"https://shop.example.com": true, "http://localhost:8080": false} {
		c := newConsoleSessions(nil, rest.Problems{}, base, base+"/console")
		ck := c.cookie("token", 2592000)
		require.Equal(t, secure, ck.Secure, base)
		require.True(t, ck.HttpOnly)
		require.Equal(t, http.SameSiteLaxMode, ck.SameSite)
		require.Equal(t, "/", ck.Path)
		require.Equal(t, SessionCookie, ck.Name)
		require.Contains(t, ck.String(), "Max-Age=2592000")
		require.Contains(t, c.cookie("", -1).String(), "Max-Age=0")
	}
}

// The cross-origin check trusts the service's own origins, including a
// CONSOLE_URL on another host than BASE_URL.
func TestSessionOriginCheck(t *testing.T) {
	t.Parallel()
	c := newConsoleSessions(nil, rest.Problems{}, "https://api.example.com", "https://console.example.com/console")
	for _, tc := range []struct {
		origin, site string
		ok           bool
	}{
		{"", "", true},
		{"https://api.example.com", "same-origin", true},
		{"", "none", true},
		{"https://console.example.com", "same-site", true},
		{"https://evil.example", "cross-site", false},
		{"https://evil.example", "", false},
		{"", "cross-site", false},
	} {
		r, _ := http.NewRequest(http.MethodPost, "https://api.example.com/graphql", nil)
		if tc.origin != "" {
			r.Header.Set("Origin", tc.origin)
		}
		if tc.site != "" {
			r.Header.Set("Sec-Fetch-Site", tc.site)
		}
		require.Equal(t, tc.ok, c.cop.Check(r) == nil, "%+v", tc)
	}
}
