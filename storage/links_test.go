package storage

import (
	"bytes"
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"
)

// A signed link on the file store: it names the service's /files route,
// verifies until it expires, and any change to its key, name, expiry or
// signature is refused.
func TestSignedLinks(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	if _, err := s.PutUpload(ctx, "deliverables/a/b.pdf", bytes.NewReader(samplePDF), "application/pdf", "b.pdf", rule(t, "deliverable")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SignedLink(ctx, "deliverables/a/b.pdf", "b.pdf", time.Now().Add(time.Minute)); !errors.Is(err, ErrNoLinkKey) {
		t.Fatalf("without a key: %v", err)
	}
	s.SetLinkKey([]byte("0123456789abcdef0123456789abcdef"), "https://shop.example")
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	link, err := s.SignedLink(ctx, "deliverables/a/b.pdf", "Résumé 2026.pdf", now.Add(5*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(link, "https://shop.example/files/deliverables/a/b.pdf?") {
		t.Fatalf("link %s", link)
	}
	u, _ := url.Parse(link)
	key := strings.TrimPrefix(u.Path, "/files/")
	q := u.Query()
	check := func(key string, q url.Values, at time.Time) error { return s.VerifyLink(key, q, at) }
	if err := check(key, q, now); err != nil {
		t.Fatalf("fresh link refused: %v", err)
	}
	if err := check(key, q, now.Add(5*time.Minute-time.Second)); err != nil {
		t.Fatalf("link refused within its 5 minutes: %v", err)
	}
	if err := check(key, q, now.Add(5*time.Minute)); !errors.Is(err, ErrLinkExpired) {
		t.Fatalf("expired link: %v", err)
	}
	if q.Get("name") != "Résumé 2026.pdf" {
		t.Fatalf("name %q", q.Get("name"))
	}
	tamper := func(k, v string) url.Values {
		c := url.Values{}
		for n, vs := range q {
			c[n] = append([]string(nil), vs...)
		}
		c.Set(k, v)
		return c
	}
	for name, c := range map[string]struct {
		key string
		q   url.Values
	}{
		"another key":            {"deliverables/a/c.pdf", q},
		"a later expiry":         {key, tamper("expires", "99999999999")},
		"another name":           {key, tamper("name", "evil.html")},
		"a changed sig":          {key, tamper("sig", strings.Repeat("A", len(q.Get("sig"))))},
		"a short sig":            {key, tamper("sig", "abc")},
		"no sig":                 {key, tamper("sig", "")},
		"an expiry not a number": {key, tamper("expires", "soon")},
	} {
		if err := check(c.key, c.q, now); !errors.Is(err, ErrLinkInvalid) {
			t.Errorf("%s: %v, want ErrLinkInvalid", name, err)
		}
	}
	// Another key material: every link refused.
	other, _ := openTemp(t)
	other.SetLinkKey([]byte("another key of thirty-two bytes!"), "https://shop.example")
	if err := other.VerifyLink(key, q, now); !errors.Is(err, ErrLinkInvalid) {
		t.Fatalf("another service key: %v", err)
	}
}
