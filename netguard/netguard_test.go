package netguard

import (
	"context"
	"encoding/pem"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestIsForbidden(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1":              true,
		"127.255.0.9":            true,
		"::1":                    true,
		"10.1.2.3":               true,
		"172.16.0.1":             true,
		"172.31.255.255":         true,
		"172.32.0.1":             false,
		"192.168.1.1":            true,
		"fc00::1":                true,
		"fd12:3456::1":           true,
		"169.254.169.254":        true,
		"fe80::1":                true,
		"fe80::1%eth0":           true,
		"100.64.0.1":             true,
		"100.127.255.255":        true,
		"100.128.0.1":            false,
		"0.0.0.0":                true,
		"0.1.2.3":                true,
		"::":                     true,
		"224.0.0.1":              true,
		"239.255.255.250":        true,
		"ff02::1":                true,
		"255.255.255.255":        true,
		"192.0.0.8":              true,
		"198.18.0.1":             true,
		"198.19.255.255":         true,
		"::ffff:127.0.0.1":       true,
		"::ffff:10.0.0.1":        true,
		"::ffff:169.254.169.254": true,
		"::ffff:8.8.8.8":         false,
		"64:ff9b::a00:1":         true,  // NAT64 of 10.0.0.1
		"64:ff9b::808:808":       false, // NAT64 of 8.8.8.8
		"2002:7f00:1::":          true,  // 6to4 of 127.0.0.1
		"2002:808:808::":         false, // 6to4 of 8.8.8.8
		"2001:0:4136:e378::1":    true,  // Teredo
		"8.8.8.8":                false,
		"1.1.1.1":                false,
		"93.184.215.14":          false,
		"2606:4700:4700::1111":   false,
		"192.0.2.10":             true, // documentation ranges can be real networks
		"198.51.100.7":           true,
		"203.0.113.200":          true,
		"2001:db8::1":            true,
		"::ffff:192.0.2.1":       true,
		"192.0.3.1":              false,
	} {
		if got := IsForbidden(netip.MustParseAddr(addr)); got != want {
			t.Errorf("IsForbidden(%s) = %v, want %v", addr, got, want)
		}
	}
	if !IsForbidden(netip.Addr{}) {
		t.Error("the zero Addr must be forbidden")
	}
}

func newClient(t *testing.T, o Options) *http.Client {
	t.Helper()
	c, err := NewClient(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

func ok(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) }

func TestRefusesLoopback(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(ok))
	defer srv.Close()
	port := srv.Listener.Addr().(interface{ AddrPort() netip.AddrPort }).AddrPort().Port()
	c := newClient(t, Options{})
	for _, u := range []string{
		srv.URL,
		"http://localhost:" + strconv.Itoa(int(port)) + "/",
		"http://[::ffff:127.0.0.1]:" + strconv.Itoa(int(port)) + "/",
	} {
		resp, err := c.Get(u)
		if err == nil {
			resp.Body.Close()
			t.Errorf("GET %s: connected", u)
			continue
		}
		if !errors.Is(err, ErrForbiddenAddress) {
			t.Errorf("GET %s: %v, want ErrForbiddenAddress", u, err)
		}
	}

	resp, err := newClient(t, Options{AllowPrivate: true}).Get(srv.URL)
	if err != nil {
		t.Fatalf("AllowPrivate: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("AllowPrivate: status %d", resp.StatusCode)
	}
}

func TestNoProxyAndUserAgent(t *testing.T) {
	uas := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { uas <- r.UserAgent() }))
	defer srv.Close()
	c := newClient(t, Options{AllowPrivate: true})
	if p := c.Transport.(*userAgent).tr.Proxy; p != nil {
		t.Fatal("the transport must not use a proxy")
	}
	resp, err := c.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if ua := <-uas; ua != "commerce" {
		t.Fatalf("User-Agent %q", ua)
	}
}

func TestCheckURLScheme(t *testing.T) {
	c := newClient(t, Options{AllowPrivate: true})
	for raw, want := range map[string]string{
		"http://example.com/x":   "must use https",
		"ftp://example.com/x":    "must use https",
		"javascript:alert(1)":    "is not a valid absolute URL",
		"/relative":              "is not a valid absolute URL",
		"https://%zz":            "is not a valid absolute URL",
		"mailto:someone@example": "is not a valid absolute URL",
	} {
		err := CheckURL(context.Background(), c, raw, false)
		var ue *URLError
		if !errors.As(err, &ue) || ue.Reason != want {
			t.Errorf("CheckURL(%q) = %v, want %q", raw, err, want)
		}
	}
}

func TestCheckURLRefusesPrivate(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(ok))
	defer srv.Close()
	err := CheckURL(context.Background(), newClient(t, Options{}), srv.URL, true)
	var ue *URLError
	if !errors.As(err, &ue) || ue.Reason != "resolves to a private or loopback address" || !errors.Is(err, ErrForbiddenAddress) {
		t.Fatalf("got %v", err)
	}
}

func writePEM(t *testing.T, srv *httptest.Server) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "ca.pem")
	data := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

func TestCheckURLTLS(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(ok))
	defer srv.Close()

	c := newClient(t, Options{AllowPrivate: true, ExtraCAFile: writePEM(t, srv)})
	if err := CheckURL(context.Background(), c, srv.URL+"/file.pdf", false); err != nil {
		t.Fatalf("with EXTRA_CA_FILE: %v", err)
	}

	err := CheckURL(context.Background(), newClient(t, Options{AllowPrivate: true}), srv.URL, false)
	var ue *URLError
	if !errors.As(err, &ue) || !strings.Contains(ue.Reason, "certificate") {
		t.Fatalf("without EXTRA_CA_FILE: %v", err)
	}
}

func TestExtraCAFileErrors(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.pem")
	if err := os.WriteFile(empty, []byte("not a certificate\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{filepath.Join(dir, "missing.pem"), empty} {
		_, err := NewClient(Options{ExtraCAFile: file})
		if err == nil || !strings.Contains(err.Error(), "EXTRA_CA_FILE") {
			t.Errorf("%s: %v", file, err)
		}
	}
}

func TestCheckURLStatus(t *testing.T) {
	var (
		mu      sync.Mutex
		methods []string
	)
	seen := func() string {
		mu.Lock()
		defer mu.Unlock()
		s := strings.Join(methods, ",")
		methods = nil
		return s
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		methods = append(methods, r.Method)
		mu.Unlock()
		switch r.URL.Path {
		case "/no-head":
			if r.Method == http.MethodHead {
				w.WriteHeader(http.StatusMethodNotAllowed)
				return
			}
			w.Write([]byte(strings.Repeat("x", 1<<20)))
		case "/missing":
			http.NotFound(w, r)
		case "/moved":
			http.Redirect(w, r, "/elsewhere", http.StatusFound)
		default:
			w.WriteHeader(http.StatusOK)
		}
	}))
	defer srv.Close()
	c := newClient(t, Options{AllowPrivate: true})
	ctx := context.Background()

	if err := CheckURL(ctx, c, srv.URL+"/fine", true); err != nil {
		t.Fatalf("/fine: %v", err)
	}
	if m := seen(); m != "HEAD" {
		t.Fatalf("/fine: methods %s", m)
	}
	if err := CheckURL(ctx, c, srv.URL+"/no-head", true); err != nil {
		t.Fatalf("/no-head: %v", err)
	}
	if m := seen(); m != "HEAD,GET" {
		t.Fatalf("/no-head: methods %s", m)
	}
	err := CheckURL(ctx, c, srv.URL+"/missing", true)
	if err == nil || !strings.Contains(err.Error(), "404") {
		t.Fatalf("/missing: %v", err)
	}
	if err := CheckURL(ctx, c, srv.URL+"/moved", true); err != nil {
		t.Fatalf("/moved (3xx is reachable): %v", err)
	}
}

func TestCheckURLTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	c := newClient(t, Options{AllowPrivate: true, Timeout: 200 * time.Millisecond})
	start := time.Now()
	err := CheckURL(context.Background(), c, srv.URL, true)
	var ue *URLError
	if !errors.As(err, &ue) || ue.Reason != "did not answer within 200 ms" {
		t.Fatalf("got %v", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("took %s", d)
	}
}

func TestRedirects(t *testing.T) {
	target := httptest.NewServer(http.HandlerFunc(ok))
	defer target.Close()
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+"/final", http.StatusFound)
	}))
	defer front.Close()
	frontPort := portOf(t, front.URL)
	// Treat the front server as a public address and everything else by the
	// real policy.
	policy := func(ap netip.AddrPort) bool { return ap.Port() != frontPort && IsForbidden(ap.Addr()) }

	// Not following: the 3xx is the response.
	resp, err := newClient(t, Options{forbidden: policy}).Get(front.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != target.URL+"/final" {
		t.Fatalf("status %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}

	// Following: the hop to the loopback target is dialled through the check.
	_, err = newClient(t, Options{forbidden: policy, FollowRedirects: true}).Get(front.URL)
	if !errors.Is(err, ErrForbiddenAddress) {
		t.Fatalf("redirect to loopback: %v", err)
	}

	// Following with private targets allowed reaches the target.
	resp, err = newClient(t, Options{AllowPrivate: true, FollowRedirects: true}).Get(front.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Request.URL.Path != "/final" {
		t.Fatalf("status %d at %s", resp.StatusCode, resp.Request.URL)
	}
}

func TestRedirectLimit(t *testing.T) {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/"))
		if n == 0 {
			w.WriteHeader(http.StatusOK)
			return
		}
		http.Redirect(w, r, srv.URL+"/"+strconv.Itoa(n-1), http.StatusFound)
	}))
	defer srv.Close()
	c := newClient(t, Options{AllowPrivate: true, FollowRedirects: true})
	resp, err := c.Get(srv.URL + "/5")
	if err != nil {
		t.Fatalf("5 redirects: %v", err)
	}
	resp.Body.Close()
	err = CheckURL(context.Background(), c, srv.URL+"/6", true)
	if err == nil || err.Error() != "redirects more than 5 times" {
		t.Fatalf("6 redirects: %v", err)
	}
}

func portOf(t *testing.T, raw string) uint16 {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	p, err := strconv.Atoi(u.Port())
	if err != nil {
		t.Fatal(err)
	}
	return uint16(p)
}

// fakeResolver answers from a table, without DNS.
type fakeResolver map[string][]string

func (f fakeResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	ss, ok := f[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	var out []netip.Addr
	for _, s := range ss {
		out = append(out, netip.MustParseAddr(s))
	}
	return out, nil
}

func TestCheckHost(t *testing.T) {
	r := fakeResolver{
		"public.test":  {"93.184.215.14"},
		"mixed.test":   {"93.184.215.14", "127.0.0.1"},
		"mixed6.test":  {"2606:4700:4700::1111", "::1"},
		"docs.test":    {"192.0.2.10"},
		"docs6.test":   {"93.184.215.14", "2001:db8::5"},
		"private.test": {"10.0.0.1"},
	}
	for host, want := range map[string]error{
		"public.test":    nil,
		"8.8.8.8":        nil,
		"mixed.test":     ErrForbiddenAddress,
		"mixed6.test":    ErrForbiddenAddress,
		"docs.test":      ErrForbiddenAddress,
		"docs6.test":     ErrForbiddenAddress,
		"private.test":   ErrForbiddenAddress,
		"203.0.113.9":    ErrForbiddenAddress,
		"[::1]":          ErrForbiddenAddress,
		"127.0.0.1":      ErrForbiddenAddress,
		"missing.test":   errNoHost,
		"198.51.100.100": ErrForbiddenAddress,
	} {
		err := CheckHost(context.Background(), r, host)
		switch {
		case want == nil && err != nil:
			t.Errorf("%s: %v, want allowed", host, err)
		case want == errNoHost:
			var de *net.DNSError
			if !errors.As(err, &de) {
				t.Errorf("%s: %v, want a DNS error", host, err)
			}
		case want != nil && !errors.Is(err, want):
			t.Errorf("%s: %v, want %v", host, err, want)
		}
	}
}

var errNoHost = errors.New("no such host")

// A host that resolves to an allowed and a forbidden address is refused by
// the client even though the allowed one answers: the dialer must not fall
// back from the forbidden address to the other (the webhook rule, for
// deliverables too). Here 127.0.0.1 plays the public address (the server
// listens there) and 127.0.0.2 the forbidden one.
func TestClientRefusesHostWithAnyForbiddenAddress(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(ok))
	defer srv.Close()
	port := portOf(t, srv.URL)
	policy := func(ap netip.AddrPort) bool { return ap.Addr() == netip.MustParseAddr("127.0.0.2") }
	r := fakeResolver{
		"public.test":      {"127.0.0.1"},
		"mixed.test":       {"127.0.0.1", "127.0.0.2"},
		"mixed-first.test": {"127.0.0.2", "127.0.0.1"},
	}
	addr := func(host string) string { return "http://" + host + ":" + strconv.Itoa(int(port)) + "/" }

	c := newClient(t, Options{forbidden: policy, Resolver: r})
	resp, err := c.Get(addr("public.test"))
	if err != nil {
		t.Fatalf("public host: %v", err)
	}
	resp.Body.Close()
	for _, host := range []string{"mixed.test", "mixed-first.test"} {
		if _, err := c.Get(addr(host)); !errors.Is(err, ErrForbiddenAddress) {
			t.Errorf("%s: %v, want ErrForbiddenAddress", host, err)
		}
		err := CheckURL(context.Background(), c, addr(host), true)
		var ue *URLError
		if !errors.As(err, &ue) || ue.Reason != "resolves to a private or loopback address" {
			t.Errorf("CheckURL %s: %v", host, err)
		}
	}

	// The real policy: a public and a loopback address.
	strict := newClient(t, Options{Resolver: fakeResolver{"mixed.test": {"93.184.215.14", "127.0.0.1"}}})
	if _, err := strict.Get(addr("mixed.test")); !errors.Is(err, ErrForbiddenAddress) {
		t.Errorf("public+loopback: %v, want ErrForbiddenAddress", err)
	}
	// With private targets allowed the resolver is not consulted for policy
	// and loopback is reachable.
	allowed := newClient(t, Options{AllowPrivate: true})
	resp, err = allowed.Get(srv.URL)
	if err != nil {
		t.Fatalf("allow private: %v", err)
	}
	resp.Body.Close()
}
