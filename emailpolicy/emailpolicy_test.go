package emailpolicy

import "testing"

func TestCheck(t *testing.T) {
	t.Parallel()
	for domain, want := range map[string]Reason{
		"mailinator.com":       Disposable,
		"MAILINATOR.COM":       Disposable,
		"eu.mailinator.com":    Disposable,
		"example.com":          Allowed,
		"gmail.com":            Allowed,
		"shop.example.org":     Allowed,
		"anonymized.invalid":   Blocked,
		"x.localhost":          Blocked,
		"guerrillamail.com":    Disposable,
		"not-a-list-entry.dev": Allowed,
		"mailinator.com.":      Disposable,
	} {
		if got := Check(domain); got != want {
			t.Errorf("Check(%q) = %q, want %q", domain, got, want)
		}
	}
	if len(disposable) < 100_000 {
		t.Fatalf("the disposable list holds only %d domains", len(disposable))
	}
}
