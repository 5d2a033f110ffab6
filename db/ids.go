package db

import (
	"crypto/rand"
	"strings"
	"sync"
	"time"

	"github.com/oklog/ulid/v2"
)

var (
	idMu      sync.Mutex
	idEntropy = ulid.Monotonic(rand.Reader, 0)
)

// NewID returns prefix + "_" + a lowercase ULID, so ids of one kind sort by
// creation time (CONTRACT §1).
func NewID(prefix string) string {
	idMu.Lock()
	id := ulid.MustNew(ulid.Timestamp(time.Now()), idEntropy)
	idMu.Unlock()
	return prefix + "_" + strings.ToLower(id.String())
}

// ValidID reports whether s is an id of the given prefix.
func ValidID(prefix, s string) bool {
	rest, ok := strings.CutPrefix(s, prefix+"_")
	if !ok || len(rest) != ulid.EncodedSize {
		return false
	}
	_, err := ulid.ParseStrict(strings.ToUpper(rest))
	return err == nil
}
