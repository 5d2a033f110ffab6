// Package emailpolicy decides which email domains may sign up: disposable
// domains (the maintained list of the npm package disposable-email-domains,
// kept in this directory and refreshed by `make refresh-disposable-domains`)
// and the operator's blocked domains are refused. The lists are embedded
// and parsed once, on first use.
package emailpolicy

import (
	_ "embed"
	"slices"
	"strings"
	"sync"
)

//go:embed disposable_domains.txt
var disposableText string

//go:embed blocked_domains.txt
var blockedText string

var (
	once       sync.Once
	disposable []string // sorted
	blocked    []string // sorted
)

func load() {
	disposable = parse(disposableText)
	blocked = parse(blockedText)
}

func parse(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.ToLower(strings.TrimSpace(line))
		if line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Reason says why a domain is refused.
type Reason string

const (
	Allowed    Reason = ""
	Disposable Reason = "disposable"
	Blocked    Reason = "blocked"
)

// Check returns why the domain (or a domain it is a subdomain of) is
// refused, or Allowed.
func Check(domain string) Reason {
	once.Do(load)
	d := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(domain)), ".")
	for d != "" {
		if _, found := slices.BinarySearch(blocked, d); found {
			return Blocked
		}
		if _, found := slices.BinarySearch(disposable, d); found {
			return Disposable
		}
		_, parent, ok := strings.Cut(d, ".")
		if !ok {
			break
		}
		d = parent
	}
	return Allowed
}
