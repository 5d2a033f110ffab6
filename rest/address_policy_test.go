package rest_test

import (
	"context"
	"net"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/config"
	"commerce/netguard"
	"commerce/testkit"
)

// tableResolver answers host names from a table (there is no real DNS in
// tests).
type tableResolver map[string][]string

func (t tableResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	ss, ok := t[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	out := make([]netip.Addr, 0, len(ss))
	for _, s := range ss {
		out = append(out, netip.MustParseAddr(s))
	}
	return out, nil
}

// One address policy for deliverables and webhooks (issue 14): a host that
// resolves to a public AND a loopback address is refused by both, and so are
// documentation ranges, unless private targets are allowed.
func TestAddressPolicyDeliverablesAndWebhooks(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithConfig(func(c *config.Config) { c.AllowPrivateTargets = false }))
	dns := tableResolver{
		"mixed.test": {"93.184.215.14", "127.0.0.1"},
		"docs.test":  {"192.0.2.10"},
		"docs6.test": {"2001:db8::10"},
	}
	res := env.Server.Resolver
	var err error
	res.HTTP, err = netguard.NewClient(netguard.Options{FollowRedirects: true, Resolver: dns})
	require.NoError(t, err)
	res.WebhookHTTP, err = netguard.NewClient(netguard.Options{Resolver: dns})
	require.NoError(t, err)
	res.DNS = dns
	acc := env.NewAccount()

	for _, u := range []string{"https://mixed.test/file", "https://docs.test/file", "https://docs6.test/file",
		"https://192.0.2.10/file", "https://[2001:db8::1]/file", "https://198.51.100.1/file", "https://203.0.113.5/file"} {
		p := requireProblem(t, env, env.Post("/v1/listings", acc.Key, map[string]any{"title": "T", "price": 1,
			"deliverables": []any{map[string]any{"type": "url", "value": u}}}), 422, "validation_error")
		require.Equal(t, "deliverables[0].value", p["param"], u)
		require.Contains(t, p["detail"], "private or loopback", u)

		p = requireProblem(t, env, env.Post("/v1/webhooks", acc.Key, map[string]any{"url": u}), 422, "validation_error")
		require.Equal(t, "url", p["param"], u)
		require.Contains(t, p["detail"], "private, loopback", u)
	}
}
