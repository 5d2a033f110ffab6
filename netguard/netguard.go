// Package netguard makes outbound HTTP requests to URLs that users give
// (deliverable URLs, webhook endpoints) without letting them reach the
// service's own network (SSRF).
//
// Decisions:
//
//   - One address policy for webhooks and deliverables (IsForbidden), applied
//     to every address a host name resolves to: if ANY of them is forbidden
//     the target is refused, even when another is public (a host resolving
//     to a public and a loopback address is refused; the dialer would
//     otherwise fall back from one to the other). The client's dialer
//     resolves the host itself (Options.Resolver), checks the whole answer,
//     then connects to those checked addresses only, so a DNS answer that
//     changes between the check and the dial (rebinding) cannot slip
//     through. CheckHost applies the same rule where a URL is accepted
//     (webhook endpoints) without connecting.
//   - net.Dialer.Control checks again the address the socket actually
//     connects to, for every connection the transport opens (redirect hops
//     included).
//   - Documentation ranges (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24,
//     2001:db8::/32) are refused like private ones: they are not supposed to
//     be routed, but can be real networks in a lab or behind a NAT (one was
//     this service's own), so a URL naming them is never a public target.
//   - Proxies from the environment are ignored (Transport.Proxy is nil): a
//     proxy would dial on our behalf, out of reach of the check.
//   - With Options.AllowPrivate (ALLOW_PRIVATE_TARGETS) every address is
//     allowed; it exists for development and tests.
//   - TLS 1.2 is the minimum. Options.ExtraCAFile (EXTRA_CA_FILE) adds PEM
//     certificates to the system roots.
//   - Redirects are not followed unless Options.FollowRedirects; then at most
//     5, each hop dialled through the same check.
//   - CheckURL wants https (http only when the caller allows it, which the
//     service does together with private targets). It sends HEAD and, when
//     HEAD answers with an error status (many servers and pre-signed object
//     URLs refuse HEAD with 403, 404 or 405), a GET of which it reads at
//     most 4 KB. A network-level failure of HEAD is not retried with GET: a
//     refused connection, a failed TLS handshake, a refused address or a
//     timeout would fail GET the same way.
package netguard

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ErrForbiddenAddress is the cause of a dial refused by the address policy.
// errors.Is finds it in the error an *http.Client made by NewClient returns.
var ErrForbiddenAddress = errors.New("netguard: destination is a private, loopback or otherwise internal address")

// errTooManyRedirects stops a chain of more than maxRedirects redirects.
var errTooManyRedirects = fmt.Errorf("netguard: stopped after %d redirects", maxRedirects)

// Options configure NewClient.
type Options struct {
	AllowPrivate    bool          // ALLOW_PRIVATE_TARGETS: allow every address
	ExtraCAFile     string        // EXTRA_CA_FILE: PEM certificates trusted in addition to the system roots
	Timeout         time.Duration // whole-request timeout; default 10 s
	FollowRedirects bool          // false: a 3xx is returned as the response; true: up to 5 hops, each checked
	UserAgent       string        // default "commerce"
	IdlePerHost     int           // keep-alive connections kept per host; default 2 (net/http's)

	// Resolver looks host names up; nil means net.DefaultResolver. Tests
	// give one that answers without DNS.
	Resolver Resolver

	// forbidden, when set, replaces IsForbidden (tests only).
	forbidden func(netip.AddrPort) bool
}

// Resolver is the part of *net.Resolver that netguard uses.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// CheckHost applies the address policy to host (a name or an IP literal, as
// in a URL's Hostname): it resolves it with r (nil: net.DefaultResolver) and
// returns an error wrapping ErrForbiddenAddress when ANY resolved address is
// forbidden, or the resolver's error (a *net.DNSError for a name that does
// not resolve). It is what the client's dialer does before connecting;
// callers that only accept a URL (webhook endpoints) call it directly.
func CheckHost(ctx context.Context, r Resolver, host string) error {
	_, err := resolveAllowed(ctx, r, host, func(a netip.Addr) bool { return IsForbidden(a) })
	return err
}

// resolveAllowed resolves host and returns its addresses, or an error
// wrapping ErrForbiddenAddress when forbidden reports any of them.
func resolveAllowed(ctx context.Context, r Resolver, host string, forbidden func(netip.Addr) bool) ([]netip.Addr, error) {
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		addrs = []netip.Addr{a}
	} else {
		if r == nil {
			r = net.DefaultResolver
		}
		if addrs, err = r.LookupNetIP(ctx, "ip", host); err != nil {
			return nil, err
		}
		if len(addrs) == 0 {
			return nil, &net.DNSError{Err: "no addresses", Name: host, IsNotFound: true}
		}
	}
	for _, a := range addrs {
		if forbidden(a) {
			return nil, fmt.Errorf("%w: %s resolves to %s", ErrForbiddenAddress, host, a.WithZone("").Unmap())
		}
	}
	return addrs, nil
}

// guardedDial resolves the host of address, refuses it when any of its
// addresses is forbidden, and otherwise connects to those addresses in turn.
func guardedDial(d *net.Dialer, r Resolver, forbidden func(netip.AddrPort) bool) func(ctx context.Context, network, address string) (net.Conn, error) {
	return func(ctx context.Context, network, address string) (net.Conn, error) {
		host, portStr, err := net.SplitHostPort(address)
		if err != nil {
			return nil, err
		}
		port, err := strconv.ParseUint(portStr, 10, 16)
		if err != nil {
			return nil, fmt.Errorf("netguard: bad port in %q", address)
		}
		addrs, err := resolveAllowed(ctx, r, host, func(a netip.Addr) bool {
			return forbidden(netip.AddrPortFrom(a, uint16(port)))
		})
		if err != nil {
			return nil, err
		}
		var first error
		for _, a := range addrs {
			a = a.Unmap()
			if (network == "tcp4" && !a.Is4()) || (network == "tcp6" && !a.Is6()) {
				continue
			}
			c, err := d.DialContext(ctx, network, netip.AddrPortFrom(a, uint16(port)).String())
			if err == nil {
				return c, nil
			}
			if first == nil {
				first = err
			}
			if ctx.Err() != nil {
				break
			}
		}
		if first == nil {
			first = &net.AddrError{Err: "no suitable address", Addr: host}
		}
		return nil, first
	}
}

const (
	defaultTimeout   = 10 * time.Second
	defaultUserAgent = "commerce"
	maxRedirects     = 5
)

// NewClient returns an HTTP client that refuses to connect to the addresses
// IsForbidden names (unless o.AllowPrivate), ignores proxy settings and
// trusts o.ExtraCAFile in addition to the system roots.
func NewClient(o Options) (*http.Client, error) {
	tlsConf := &tls.Config{MinVersion: tls.VersionTLS12}
	if o.ExtraCAFile != "" {
		pool, err := loadRoots(o.ExtraCAFile)
		if err != nil {
			return nil, err
		}
		tlsConf.RootCAs = pool
	}
	forbidden := o.forbidden
	if forbidden == nil && !o.AllowPrivate {
		forbidden = func(ap netip.AddrPort) bool { return IsForbidden(ap.Addr()) }
	}
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	if forbidden != nil {
		dialer.Control = func(network, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("%w: unparsable address %q", ErrForbiddenAddress, address)
			}
			if forbidden(ap) {
				return fmt.Errorf("%w: %s", ErrForbiddenAddress, ap.Addr())
			}
			return nil
		}
	}
	dial := dialer.DialContext
	if forbidden != nil {
		dial = guardedDial(dialer, o.Resolver, forbidden)
	}
	tr := &http.Transport{
		Proxy:                 nil,
		DialContext:           dial,
		TLSClientConfig:       tlsConf,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          max(100, 4*o.IdlePerHost),
		MaxIdleConnsPerHost:   o.IdlePerHost,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	ua := o.UserAgent
	if ua == "" {
		ua = defaultUserAgent
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = defaultTimeout
	}
	c := &http.Client{Transport: &userAgent{tr, ua}, Timeout: timeout}
	if o.FollowRedirects {
		c.CheckRedirect = func(_ *http.Request, via []*http.Request) error {
			if len(via) > maxRedirects {
				return errTooManyRedirects
			}
			return nil
		}
	} else {
		c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	}
	return c, nil
}

// loadRoots is the system pool plus the certificates in the PEM file.
func loadRoots(file string) (*x509.CertPool, error) {
	pem, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("EXTRA_CA_FILE: %w", err)
	}
	pool, err := x509.SystemCertPool()
	if err != nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("EXTRA_CA_FILE %s: no PEM certificates found", file)
	}
	return pool, nil
}

// userAgent sets a User-Agent on requests that have none.
type userAgent struct {
	tr *http.Transport
	ua string
}

func (u *userAgent) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Header.Get("User-Agent") == "" {
		r = r.Clone(r.Context())
		r.Header.Set("User-Agent", u.ua)
	}
	return u.tr.RoundTrip(r)
}

// CloseIdleConnections lets http.Client.CloseIdleConnections reach the
// transport.
func (u *userAgent) CloseIdleConnections() { u.tr.CloseIdleConnections() }

// Ranges refused beyond what netip.Addr's predicates (loopback, private,
// link-local, multicast, unspecified) cover.
var forbiddenPrefixes = []netip.Prefix{
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation (TEST-NET-1)
	netip.MustParsePrefix("198.51.100.0/24"), // documentation (TEST-NET-2)
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation (TEST-NET-3)
	netip.MustParsePrefix("2001:db8::/32"),   // documentation (IPv6)
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network"; 0.0.0.0 reaches the local host
	netip.MustParsePrefix("100.64.0.0/10"),   // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, including 255.255.255.255 broadcast
	netip.MustParsePrefix("::/96"),           // IPv4-compatible (deprecated)
	netip.MustParsePrefix("64:ff9b:1::/48"),  // local-use NAT64
	netip.MustParsePrefix("100::/64"),        // discard-only
	netip.MustParsePrefix("2001::/32"),       // Teredo: tunnels to an obfuscated IPv4 address
	netip.MustParsePrefix("fec0::/10"),       // site-local (deprecated)
}

var (
	nat64     = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour = netip.MustParsePrefix("2002::/16")
)

// IsForbidden is the address policy: it reports whether an outbound
// connection to ip is refused when private targets are not allowed.
// Refused: loopback, private (RFC 1918, fc00::/7), link-local (including
// 169.254.169.254), CGNAT, documentation ranges, unspecified, multicast,
// broadcast and other
// reserved or special-purpose ranges; IPv4-mapped IPv6 addresses are judged
// by their IPv4 address, and NAT64 (64:ff9b::/96) and 6to4 (2002::/16)
// addresses by the IPv4 address they embed.
func IsForbidden(ip netip.Addr) bool {
	if !ip.IsValid() {
		return true
	}
	ip = ip.WithZone("").Unmap()
	if ip.Is6() {
		b := ip.As16()
		switch {
		case nat64.Contains(ip):
			return IsForbidden(netip.AddrFrom4([4]byte(b[12:16])))
		case sixToFour.Contains(ip):
			return IsForbidden(netip.AddrFrom4([4]byte(b[2:6])))
		}
	}
	if ip.IsLoopback() || ip.IsPrivate() || ip.IsUnspecified() || ip.IsMulticast() ||
		ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() || ip.IsInterfaceLocalMulticast() {
		return true
	}
	for _, p := range forbiddenPrefixes {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}
