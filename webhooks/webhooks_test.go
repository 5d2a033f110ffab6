package webhooks

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"commerce/netguard"
)

func TestNewSecret(t *testing.T) {
	s1, s2 := NewSecret(), NewSecret()
	if s1 == s2 {
		t.Fatal("two secrets are equal")
	}
	enc, ok := strings.CutPrefix(s1, "whsec_")
	if !ok {
		t.Fatalf("secret %q lacks the whsec_ prefix", s1)
	}
	raw, err := base64.StdEncoding.DecodeString(enc)
	if err != nil || len(raw) != 32 {
		t.Fatalf("secret decodes to %d bytes, err %v; want 32", len(raw), err)
	}
}

func TestSignVerifiedByStandardWebhooks(t *testing.T) {
	secret := NewSecret()
	body := []byte(`{"id":"evt_01","object":"event","type":"order.paid","data":{"amount":1200}}`)
	ts := time.Now()
	h, err := Headers(secret, "evt_01", ts, body)
	if err != nil {
		t.Fatal(err)
	}
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	if err := wh.Verify(body, h); err != nil {
		t.Fatalf("official library rejects our signature: %v", err)
	}
	for name, want := range map[string]string{
		"webhook-id":        "evt_01",
		"webhook-timestamp": itoa(ts.Unix()),
		"Content-Type":      "application/json",
		"User-Agent":        "commerce-webhooks/1",
	} {
		if got := h.Get(name); got != want {
			t.Errorf("header %s = %q; want %q", name, got, want)
		}
	}
	if sig := h.Get("webhook-signature"); !strings.HasPrefix(sig, "v1,") {
		t.Errorf("signature %q lacks v1,", sig)
	}

	// The library's own signature is the same string.
	libSig, err := wh.Sign("evt_01", ts, body)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := Sign(secret, "evt_01", ts, body); got != libSig {
		t.Errorf("Sign = %q; library signs %q", got, libSig)
	}

	// Tampering with the body, the id or the timestamp breaks it, as does
	// another secret.
	tampered := bytes.Replace(body, []byte("1200"), []byte("1"), 1)
	if err := wh.Verify(tampered, h); !errors.Is(err, standardwebhooks.ErrNoMatchingSignature) {
		t.Errorf("tampered body: err = %v; want ErrNoMatchingSignature", err)
	}
	h2 := h.Clone()
	h2.Set("webhook-id", "evt_02")
	if err := wh.Verify(body, h2); err == nil {
		t.Error("changed id verifies")
	}
	h3 := h.Clone()
	h3.Set("webhook-timestamp", itoa(ts.Unix()-1))
	if err := wh.Verify(body, h3); err == nil {
		t.Error("changed timestamp verifies")
	}
	other, _ := standardwebhooks.NewWebhook(NewSecret())
	if err := other.Verify(body, h); err == nil {
		t.Error("another secret verifies")
	}
}

func TestSignKnownVector(t *testing.T) {
	// The test vector of the Standard Webhooks specification.
	const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	got, err := Sign(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", time.Unix(1614265330, 0), []byte(`{"test": 2432232314}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="; got != want {
		t.Errorf("Sign = %q; want %q", got, want)
	}
}

func TestSignBadSecret(t *testing.T) {
	for _, s := range []string{"", "whsec_", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_not base64!"} {
		if _, err := Sign(s, "evt_1", time.Now(), nil); !errors.Is(err, errBadSecret) {
			t.Errorf("Sign(%q): err = %v; want errBadSecret", s, err)
		}
		if _, err := Headers(s, "evt_1", time.Now(), nil); err == nil {
			t.Errorf("Headers(%q) succeeds", s)
		}
	}
}

func TestSecretBox(t *testing.T) {
	key := bytes.Repeat([]byte{7}, 32)
	box, err := NewSecretBox(key)
	if err != nil {
		t.Fatal(err)
	}
	secret := NewSecret()
	sealed, err := box.Seal(secret)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(sealed, []byte(secret)) || bytes.Contains(sealed, []byte(secret[6:])) {
		t.Fatal("sealed value contains the secret")
	}
	if len(sealed) != len(secret)+12+16 {
		t.Errorf("sealed length %d; want %d (nonce + ciphertext + tag)", len(sealed), len(secret)+28)
	}
	again, _ := box.Seal(secret)
	if bytes.Equal(sealed, again) {
		t.Error("two seals of one secret are equal: nonce not random")
	}
	for _, s := range [][]byte{sealed, again} {
		if got, err := box.Open(s); err != nil || got != secret {
			t.Fatalf("Open = %q, %v; want %q", got, err, secret)
		}
	}

	other, _ := NewSecretBox(bytes.Repeat([]byte{8}, 32))
	if _, err := other.Open(sealed); err == nil {
		t.Error("another key opens the secret")
	}
	bad := bytes.Clone(sealed)
	bad[len(bad)-1] ^= 1
	if _, err := box.Open(bad); err == nil {
		t.Error("a corrupted value opens")
	}
	if _, err := box.Open(sealed[:20]); err == nil {
		t.Error("a short value opens")
	}
	if _, err := box.Open(nil); err == nil {
		t.Error("nil opens")
	}
	for _, n := range []int{0, 16, 24, 31, 33} {
		if _, err := NewSecretBox(make([]byte, n)); err == nil {
			t.Errorf("NewSecretBox accepts a %d-byte key", n)
		}
	}
}

func TestParseKey(t *testing.T) {
	key := make([]byte, 32)
	for i := range key {
		key[i] = byte(0xf0 + i) // encodes with + and / (- and _ in the URL alphabet)
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		s := enc.EncodeToString(key)
		got, err := ParseKey(" " + s + "\n")
		if err != nil || !bytes.Equal(got, key) {
			t.Errorf("ParseKey(%q) = %x, %v", s, got, err)
		}
	}
	for s, want := range map[string]string{
		"":            "empty",
		"   ":         "empty",
		"not base64!": "not valid base64",
		base64.StdEncoding.EncodeToString(make([]byte, 16)): "16 bytes; want 32",
		base64.StdEncoding.EncodeToString(make([]byte, 64)): "64 bytes; want 32",
	} {
		_, err := ParseKey(s)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseKey(%q): err = %v; want one saying %q", s, err, want)
		}
	}
	// A parsed key works in a box.
	k, _ := ParseKey(base64.StdEncoding.EncodeToString(key))
	if _, err := NewSecretBox(k); err != nil {
		t.Error(err)
	}
}

// client returns a netguard client (redirects not followed).
func client(t *testing.T, allowPrivate, followRedirects bool) *http.Client {
	t.Helper()
	c, err := netguard.NewClient(netguard.Options{AllowPrivate: allowPrivate, FollowRedirects: followRedirects})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// serve starts a test server with handler h.
func serve(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

func TestDeliverSuccess(t *testing.T) {
	secret := NewSecret()
	body := []byte(`{"id":"evt_ok","object":"event","type":"order.paid"}`)
	wh, _ := standardwebhooks.NewWebhook(secret)
	var verified atomic.Value
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		got, _ := io.ReadAll(r.Body)
		var problems []string
		if r.Method != http.MethodPost {
			problems = append(problems, "method "+r.Method)
		}
		if err := wh.Verify(got, r.Header); err != nil {
			problems = append(problems, err.Error())
		}
		if ct := r.Header.Get("Content-Type"); ct != "application/json" {
			problems = append(problems, "content type "+ct)
		}
		if ua := r.Header.Get("User-Agent"); ua != "commerce-webhooks/1" {
			problems = append(problems, "user agent "+ua)
		}
		if id := r.Header.Get("webhook-id"); id != "evt_ok" {
			problems = append(problems, "webhook-id "+id)
		}
		verified.Store(strings.Join(problems, "; "))
		_, _ = io.WriteString(w, strings.Repeat("a", 10000))
	})
	a := Deliver(t.Context(), client(t, true, false), srv.URL+"/hook", secret, "evt_ok", body, time.Now())
	if p, _ := verified.Load().(string); p != "" {
		t.Errorf("receiver saw: %s", p)
	}
	if !a.Success() || a.Permanent() || a.Err != nil || a.StatusCode != 200 || a.ErrorText() != "" {
		t.Fatalf("attempt = %+v (%q); want a 200 success", a, a.ErrorText())
	}
	if a.Body != strings.Repeat("a", 4096) {
		t.Errorf("body is %d bytes; want the first 4096", len(a.Body))
	}
	if a.Duration <= 0 || a.Duration > Timeout {
		t.Errorf("duration %v", a.Duration)
	}
	if _, ok := NextDelay(DefaultSchedule, 1, a); ok {
		t.Error("NextDelay retries a success")
	}
}

func TestDeliverBodyUTF8(t *testing.T) {
	for name, tc := range map[string]struct{ resp, want string }{
		"short":           {"ok", "ok"},
		"empty":           {"", ""},
		"split rune":      {strings.Repeat("a", 4095) + "é" + "zzz", strings.Repeat("a", 4095)},
		"split 4-byte":    {strings.Repeat("a", 4094) + "😀", strings.Repeat("a", 4094)},
		"invalid bytes":   {"ok\xff\xfeok", "ok\uFFFDok"},
		"exactly 4096":    {strings.Repeat("é", 2048), strings.Repeat("é", 2048)},
		"replacement cap": {strings.Repeat("\xff", 4096), "\uFFFD"},
	} {
		t.Run(name, func(t *testing.T) {
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(http.StatusBadRequest)
				_, _ = io.WriteString(w, tc.resp)
			})
			a := Deliver(t.Context(), client(t, true, false), srv.URL, NewSecret(), "evt_1", []byte("{}"), time.Now())
			if a.Body != tc.want {
				t.Errorf("body = %q (%d bytes); want %d bytes", trunc(a.Body), len(a.Body), len(tc.want))
			}
			if !utf8.ValidString(a.Body) || len(a.Body) > 4096 {
				t.Errorf("body invalid UTF-8 or %d bytes", len(a.Body))
			}
			if a.StatusCode != 400 || a.Success() || a.ErrorText() != "HTTP 400" {
				t.Errorf("attempt %+v, %q", a, a.ErrorText())
			}
		})
	}
}

func TestResponseTextCap(t *testing.T) {
	// Alternating invalid bytes each become a 3-byte replacement character.
	in := bytes.Repeat([]byte("a\xff"), 2048)
	s := responseText(in, true)
	if !utf8.ValidString(s) || len(s) > MaxResponseBody {
		t.Fatalf("%d bytes, valid %v", len(s), utf8.ValidString(s))
	}
}

func TestDeliverFailures(t *testing.T) {
	for _, tc := range []struct {
		status     int
		retryAfter string
		permanent  bool
		text       string
		wantAfter  time.Duration
	}{
		{500, "", false, "HTTP 500", 0},
		{500, "120", false, "HTTP 500", 0}, // Retry-After only counts on 429/503
		{404, "", false, "HTTP 404", 0},
		{410, "", true, "HTTP 410", 0},
		{429, "120", false, "HTTP 429", 2 * time.Minute},
		{503, "7", false, "HTTP 503", 7 * time.Second},
		{429, "999999999999999999999999", false, "HTTP 429", 24 * time.Hour},
		{429, "soon", false, "HTTP 429", 0},
	} {
		srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
			if tc.retryAfter != "" {
				w.Header().Set("Retry-After", tc.retryAfter)
			}
			w.WriteHeader(tc.status)
			_, _ = io.WriteString(w, "nope")
		})
		a := Deliver(t.Context(), client(t, true, false), srv.URL, NewSecret(), "evt_1", []byte("{}"), time.Now())
		if a.StatusCode != tc.status || a.Err != nil || a.Success() || a.Permanent() != tc.permanent ||
			a.ErrorText() != tc.text || a.RetryAfter != tc.wantAfter || a.Body != "nope" {
			t.Errorf("%d %q: attempt %+v, text %q; want permanent %v, text %q, RetryAfter %v",
				tc.status, tc.retryAfter, a, a.ErrorText(), tc.permanent, tc.text, tc.wantAfter)
		}
		_, ok := NextDelay(DefaultSchedule, 1, a)
		if ok == tc.permanent {
			t.Errorf("%d: NextDelay ok = %v", tc.status, ok)
		}
	}
}

func TestDeliverRetryAfterDate(t *testing.T) {
	now := time.Now()
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", now.Add(90*time.Second).UTC().Format(http.TimeFormat))
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	a := Deliver(t.Context(), client(t, true, false), srv.URL, NewSecret(), "evt_1", []byte("{}"), now)
	if a.StatusCode != 503 || a.RetryAfter < 85*time.Second || a.RetryAfter > 90*time.Second {
		t.Fatalf("attempt %+v; want RetryAfter about 90s", a)
	}
	if d, ok := NextDelay(DefaultSchedule, 1, a); !ok || d != a.RetryAfter {
		t.Errorf("NextDelay = %v, %v; want %v", d, ok, a.RetryAfter)
	}
	if d, ok := NextDelay(DefaultSchedule, 3, a); !ok || d != 2*time.Minute {
		t.Errorf("NextDelay after 3 = %v, %v; want the scheduled 2m", d, ok)
	}
}

func TestParseRetryAfter(t *testing.T) {
	at := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	for v, want := range map[string]time.Duration{
		"":                               0,
		"0":                              0,
		" 120 ":                          2 * time.Minute,
		"86400":                          24 * time.Hour,
		"86401":                          24 * time.Hour,
		"-5":                             0,
		"1.5":                            0,
		"later":                          0,
		"Mon, 23 Nov 2026 12:05:00 GMT":  5 * time.Minute,
		"Monday, 23-Nov-26 12:00:30 GMT": 30 * time.Second, // RFC 850
		"Mon Nov 23 12:01:00 2026":       time.Minute,      // asctime
		"Mon, 23 Nov 2026 11:00:00 GMT":  0,                // past
		"Fri, 27 Nov 2026 12:00:00 GMT":  24 * time.Hour,   // capped
	} {
		if got := parseRetryAfter(v, at); got != want {
			t.Errorf("parseRetryAfter(%q) = %v; want %v", v, got, want)
		}
	}
}

func TestDeliverRedirectNotFollowed(t *testing.T) {
	var hit atomic.Bool
	target := serve(t, func(w http.ResponseWriter, r *http.Request) { hit.Store(true) })
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL, http.StatusFound)
	})
	for _, follow := range []bool{false, true} { // even a following client does not follow
		a := Deliver(t.Context(), client(t, true, follow), srv.URL, NewSecret(), "evt_1", []byte("{}"), time.Now())
		if a.StatusCode != 302 || a.Err != nil || a.Success() || a.Permanent() {
			t.Errorf("follow %v: attempt %+v; want a 302 failure", follow, a)
		}
		if !strings.HasPrefix(a.ErrorText(), "HTTP 302") {
			t.Errorf("follow %v: text %q", follow, a.ErrorText())
		}
	}
	if hit.Load() {
		t.Error("the redirect was followed")
	}
}

func TestDeliverTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // so the server notices the client leave
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	t.Cleanup(func() { close(release) }) // runs before srv.Close
	ctx, cancel := contextWithTimeout(t, 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	a := Deliver(ctx, client(t, true, false), srv.URL, NewSecret(), "evt_1", []byte("{}"), time.Now())
	if el := time.Since(start); el > 3*time.Second {
		t.Errorf("took %v", el)
	}
	if a.Err == nil || a.StatusCode != 0 || a.Success() || a.Permanent() {
		t.Fatalf("attempt %+v; want a transport error", a)
	}
	if got := a.ErrorText(); got != "timeout after 200ms" && got != "timeout after 190ms" {
		t.Errorf("text %q; want %q", got, "timeout after 200ms")
	}
	if a.Duration < 150*time.Millisecond {
		t.Errorf("duration %v", a.Duration)
	}
	if d, ok := NextDelay(DefaultSchedule, 1, a); !ok || d != 5*time.Second {
		t.Errorf("NextDelay = %v, %v", d, ok)
	}
}

func TestDeliverRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	a := Deliver(t.Context(), client(t, true, false), "http://"+addr+"/hook", NewSecret(), "evt_1", []byte("{}"), time.Now())
	if a.Err == nil || a.StatusCode != 0 {
		t.Fatalf("attempt %+v; want a transport error", a)
	}
	if got := a.ErrorText(); got != "connection refused" {
		t.Errorf("text %q (err %v); want connection refused", got, a.Err)
	}
}

func TestDeliverForbiddenAddress(t *testing.T) {
	var hit atomic.Bool
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) { hit.Store(true) })
	a := Deliver(t.Context(), client(t, false, false), srv.URL, NewSecret(), "evt_1", []byte("{}"), time.Now())
	if !errors.Is(a.Err, netguard.ErrForbiddenAddress) || a.StatusCode != 0 || a.Success() {
		t.Fatalf("attempt %+v; want ErrForbiddenAddress", a)
	}
	if got := a.ErrorText(); got != "address not allowed (private or loopback)" {
		t.Errorf("text %q", got)
	}
	if hit.Load() {
		t.Error("the loopback server was reached")
	}
}

func TestDeliverBadInput(t *testing.T) {
	c := client(t, true, false)
	for _, tc := range []struct{ url, secret, text string }{
		{"ftp://example.com/x", NewSecret(), "invalid URL"},
		{"not a url", NewSecret(), "invalid URL"},
		{"https://", NewSecret(), "invalid URL"},
		{"https://example.com/x", "nope", "invalid signing secret"},
	} {
		a := Deliver(t.Context(), c, tc.url, tc.secret, "evt_1", nil, time.Now())
		if a.Err == nil || a.ErrorText() != tc.text {
			t.Errorf("%q %q: attempt %+v, text %q; want %q", tc.url, tc.secret, a, a.ErrorText(), tc.text)
		}
	}
	if a := Deliver(t.Context(), nil, "https://example.com/", NewSecret(), "evt_1", nil, time.Now()); a.Err == nil {
		t.Error("nil client: no error")
	}
}

func TestErrorText(t *testing.T) {
	for _, tc := range []struct {
		a    Attempt
		want string
	}{
		{Attempt{}, ""},
		{Attempt{StatusCode: 204}, ""},
		{Attempt{StatusCode: 500}, "HTTP 500"},
		{Attempt{StatusCode: 301}, "HTTP 301 (redirects are not followed)"},
		{Attempt{Err: errors.New("x")}, "request failed"},
		{Attempt{Err: io.ErrUnexpectedEOF}, "connection closed without a response"},
		{Attempt{Err: &net.DNSError{Err: "no such host", Name: "nx.example", IsNotFound: true}}, "host name does not resolve"},
		{Attempt{Err: contextDeadline(), limit: 10 * time.Second}, "timeout after 10s"},
		{Attempt{Err: contextDeadline(), limit: 9999700 * time.Microsecond}, "timeout after 10s"},
		{Attempt{Err: contextDeadline(), limit: 2500 * time.Millisecond}, "timeout after 2.5s"},
		{Attempt{Err: contextDeadline(), limit: 199980 * time.Microsecond}, "timeout after 200ms"},
		{Attempt{Err: contextDeadline(), limit: time.Microsecond}, "timeout after 1ms"},
		{Attempt{Err: contextDeadline()}, "timeout"},
		{Attempt{Err: context.Canceled}, "canceled"},
	} {
		if got := tc.a.ErrorText(); got != tc.want {
			t.Errorf("%+v: ErrorText = %q; want %q", tc.a, got, tc.want)
		}
	}
}

func TestNextDelay(t *testing.T) {
	fail := Attempt{StatusCode: 500}
	for n := 1; n <= 7; n++ {
		d, ok := NextDelay(DefaultSchedule, n, fail)
		if !ok || d != DefaultSchedule[n-1] {
			t.Errorf("after %d: %v, %v; want %v", n, d, ok, DefaultSchedule[n-1])
		}
	}
	want := []time.Duration{5 * time.Second, 30 * time.Second, 2 * time.Minute, 10 * time.Minute, 30 * time.Minute, 2 * time.Hour, 6 * time.Hour}
	if len(DefaultSchedule) != len(want) {
		t.Fatalf("DefaultSchedule %v", DefaultSchedule)
	}
	for i := range want {
		if DefaultSchedule[i] != want[i] {
			t.Fatalf("DefaultSchedule %v; want %v", DefaultSchedule, want)
		}
	}
	for _, tc := range []struct {
		name  string
		sched []time.Duration
		n     int
		a     Attempt
		d     time.Duration
		ok    bool
	}{
		{"first retry", DefaultSchedule, 1, fail, 5 * time.Second, true},
		{"last retry", DefaultSchedule, 7, fail, 6 * time.Hour, true},
		{"spent", DefaultSchedule, 8, fail, 0, false},
		{"way past", DefaultSchedule, 100, fail, 0, false},
		{"none yet", DefaultSchedule, 0, fail, 0, true},
		{"410", DefaultSchedule, 1, Attempt{StatusCode: 410}, 0, false},
		{"success", DefaultSchedule, 1, Attempt{StatusCode: 200}, 0, false},
		{"transport error", DefaultSchedule, 2, Attempt{Err: io.EOF}, 30 * time.Second, true},
		{"302", DefaultSchedule, 2, Attempt{StatusCode: 302}, 30 * time.Second, true},
		{"429 larger", DefaultSchedule, 1, Attempt{StatusCode: 429, RetryAfter: 2 * time.Minute}, 2 * time.Minute, true},
		{"429 smaller", DefaultSchedule, 3, Attempt{StatusCode: 429, RetryAfter: 2 * time.Second}, 2 * time.Minute, true},
		{"503 larger", DefaultSchedule, 6, Attempt{StatusCode: 503, RetryAfter: 3 * time.Hour}, 3 * time.Hour, true},
		{"503 capped", DefaultSchedule, 1, Attempt{StatusCode: 503, RetryAfter: 48 * time.Hour}, 24 * time.Hour, true},
		{"500 ignores RetryAfter", DefaultSchedule, 1, Attempt{StatusCode: 500, RetryAfter: time.Hour}, 5 * time.Second, true},
		{"429 when spent", DefaultSchedule, 8, Attempt{StatusCode: 429, RetryAfter: time.Minute}, 0, false},
		{"custom", []time.Duration{time.Second, 2 * time.Second}, 2, fail, 2 * time.Second, true},
		{"custom spent", []time.Duration{time.Second, 2 * time.Second}, 3, fail, 0, false},
		{"empty schedule", nil, 1, fail, 0, false},
	} {
		d, ok := NextDelay(tc.sched, tc.n, tc.a)
		if d != tc.d || ok != tc.ok {
			t.Errorf("%s: NextDelay = %v, %v; want %v, %v", tc.name, d, ok, tc.d, tc.ok)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// trunc shortens s for a failure message.
func trunc(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

func contextWithTimeout(t *testing.T, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(t.Context(), d)
}

// contextDeadline is the error an HTTP client returns when its context's
// deadline passes.
func contextDeadline() error {
	return &url.Error{Op: "Post", URL: "https://example.com/", Err: context.DeadlineExceeded}
}
