package licensing

import (
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// The shape of a key: Groups groups of GroupLen characters of Crockford's
// base32 alphabet, 5 bits each (4 × 5 × 5 = 100 random bits), after an
// optional prefix of at most MaxPrefixLen characters.
const (
	Groups       = 4
	GroupLen     = 5
	MaxPrefixLen = 12
	bodyLen      = Groups * GroupLen
)

// crockford is Crockford's base32 alphabet: digits and upper-case letters
// without I, L, O and U.
const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// maxTyped bounds what Normalize looks at: a key with its prefix is at most
// 12 + 1 + 23 characters; a buyer's spaces and dashes leave room to spare.
const maxTyped = 200

var prefixRE = regexp.MustCompile(`^[A-Z0-9]{0,12}$`)

// ValidPrefix reports whether p can be a listing's key_prefix:
// ^[A-Z0-9]{0,12}$ (the empty prefix is no prefix).
func ValidPrefix(p string) bool { return prefixRE.MatchString(p) }

// NewKey returns a new license key: prefix and "-" (when prefix is not
// empty), then four groups of five Crockford base32 characters joined by
// "-", from 100 bits of crypto/rand. It fails only for a prefix that
// ValidPrefix refuses.
func NewKey(prefix string) (string, error) {
	if !ValidPrefix(prefix) {
		return "", fmt.Errorf("licensing: key prefix %q is not 0 to 12 of A-Z and 0-9", prefix)
	}
	// One byte per character: 256 is a multiple of 32, so the low five
	// bits of a uniform byte are uniform.
	var b [bodyLen]byte
	_, _ = rand.Read(b[:]) // never fails since Go 1.24
	for i := range b {
		b[i] = crockford[b[i]&31]
	}
	return format(prefix, b[:]), nil
}

// format joins prefix and the 20 characters of body in the canonical form.
func format(prefix string, body []byte) string {
	var sb strings.Builder
	sb.Grow(len(prefix) + 1 + bodyLen + Groups - 1)
	if prefix != "" {
		sb.WriteString(prefix)
		sb.WriteByte('-')
	}
	for g := range Groups {
		if g > 0 {
			sb.WriteByte('-')
		}
		sb.Write(body[g*GroupLen : (g+1)*GroupLen])
	}
	return sb.String()
}

// Normalize turns what a buyer typed into the canonical key, or reports
// false when it cannot be a key. White space and hyphens (or any Unicode
// dash a word processor put in their place) are dropped wherever they are
// and put back in the canonical places; letters are upper-cased; in the 20
// random characters O reads as 0, and I and L as 1 (Crockford's aliases);
// what comes before them is the prefix, kept as typed (upper-cased): at
// most 12 of A-Z and 0-9. The result is what NewKey made, whatever the
// buyer's spacing, case and look-alike letters.
func Normalize(input string) (string, bool) {
	if len(input) > maxTyped {
		return "", false
	}
	compact := make([]byte, 0, len(input))
	for _, r := range input {
		switch {
		case r == '-' || unicode.IsSpace(r) || unicode.Is(unicode.Pd, r) || r == '\u2212':
			continue
		case r >= 'a' && r <= 'z':
			compact = append(compact, byte(r-'a'+'A'))
		case r >= 'A' && r <= 'Z' || r >= '0' && r <= '9':
			compact = append(compact, byte(r))
		default:
			return "", false
		}
	}
	if len(compact) < bodyLen || len(compact) > bodyLen+MaxPrefixLen {
		return "", false
	}
	prefix, body := string(compact[:len(compact)-bodyLen]), compact[len(compact)-bodyLen:]
	for i, c := range body {
		switch c {
		case 'O':
			body[i] = '0'
		case 'I', 'L':
			body[i] = '1'
		case 'U':
			return "", false
		}
	}
	return format(prefix, body), true
}

// Hash is the lookup hash of a normalized key (NewKey's or Normalize's
// result): SHA-256 of its 20 random characters. The prefix is the seller's
// label, not part of the secret, so it is left out: a buyer who omits or
// mistypes it still finds the key. A keyed hash (HMAC) would add nothing:
// 100 random bits cannot be found from their hash by guessing, and a hash
// without a key survives a change of the service's secrets.
func Hash(key string) []byte {
	compact := strings.ReplaceAll(key, "-", "")
	if len(compact) > bodyLen {
		compact = compact[len(compact)-bodyLen:]
	}
	sum := sha256.Sum256([]byte(compact))
	return sum[:]
}
