// Package input is the service's rule for what a client may send, whichever
// way it arrives (REST's decoding layer, GraphQL's argument check): text that
// PostgreSQL can store, and timestamps within the range it can read back.
// Both layers turn a failure into validation_error naming the field.
package input

import (
	"errors"
	"strings"
	"time"
	"unicode/utf8"
)

// MinYear and MaxYear bound every timestamp a client sends, in UTC: the
// four-digit years of RFC 3339. PostgreSQL refuses year 0000 (SQLSTATE
// 22008), and a wider range has no use in this service.
const (
	MinYear = 1
	MaxYear = 9999
)

// The reasons a value is refused; each reads after the field's name.
var (
	ErrNUL   = errors.New("must not contain a NUL byte (\\u0000)")
	ErrUTF8  = errors.New("must be valid UTF-8")
	ErrRange = errors.New("must be a date-time between the years 0001 and 9999")
)

// Text returns nil when s can be stored as PostgreSQL text: valid UTF-8
// without a NUL byte. Errors: ErrUTF8, ErrNUL.
func Text(s string) error {
	if !utf8.ValidString(s) {
		return ErrUTF8
	}
	if strings.IndexByte(s, 0) >= 0 {
		return ErrNUL
	}
	return nil
}

// Time returns nil when t falls within the years MinYear..MaxYear in UTC.
// Errors: ErrRange.
func Time(t time.Time) error {
	if y := t.UTC().Year(); y < MinYear || y > MaxYear {
		return ErrRange
	}
	return nil
}
