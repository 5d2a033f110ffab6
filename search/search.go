// Package search is the rule of the lists' search box (CONTRACT §15, the
// `query` argument of orders, customers and listings): what a query may be,
// and the LIKE pattern that finds it as literal text.
package search

import (
	"errors"
	"strings"
	"unicode/utf8"

	"commerce/input"
)

// MaxLen is the longest query, in characters, after trimming.
const MaxLen = 200

// ErrLength is why a query of no characters (after trimming) or of more
// than MaxLen is refused; it reads after the field's name.
var ErrLength = errors.New("must be 1 to 200 characters (leading and trailing spaces are not counted)")

// Query returns the trimmed query. Errors: ErrLength, and input.Text's.
func Query(raw string) (string, error) {
	if err := input.Text(raw); err != nil {
		return "", err
	}
	q := strings.TrimSpace(raw)
	if n := utf8.RuneCountInString(q); n < 1 || n > MaxLen {
		return "", ErrLength
	}
	return q, nil
}

// Contains is the LIKE pattern (with ESCAPE '\') matching any text that
// contains q literally: LIKE's %, _ and \ in q are escaped.
func Contains(q string) string {
	var b strings.Builder
	b.Grow(len(q) + 2)
	b.WriteByte('%')
	for _, r := range q {
		if r == '%' || r == '_' || r == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('%')
	return b.String()
}
