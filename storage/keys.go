package storage

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// ErrInvalidKey is returned (wrapped) for a key that is not a clean relative
// path inside the bucket: empty, absolute (a leading /), with an empty, "."
// or ".." segment, a backslash, a NUL or invalid UTF-8. On the file store
// such a key would name the store's directory itself or a path outside it,
// so it is an error before any storage call, never a path.
var ErrInvalidKey = errors.New("storage: invalid key")

// maxKeyLen bounds a key (S3 allows 1,024 bytes).
const maxKeyLen = 1024

// ValidateKey returns nil when key may name an object, else an error
// wrapping ErrInvalidKey.
func ValidateKey(key string) error {
	bad := func(why string) error { return fmt.Errorf("%w %q: %s", ErrInvalidKey, key, why) }
	switch {
	case key == "":
		return bad("empty")
	case len(key) > maxKeyLen:
		return bad("too long")
	case !utf8.ValidString(key):
		return bad("not UTF-8")
	case strings.HasPrefix(key, "/"):
		return bad("absolute")
	case strings.ContainsAny(key, "\\\x00"):
		return bad("a backslash or NUL")
	}
	for seg := range strings.SplitSeq(key, "/") {
		switch seg {
		case "":
			return bad("an empty segment")
		case ".", "..":
			return bad("a relative segment")
		}
	}
	return nil
}

// validKeys checks every key of a storage call.
func validKeys(keys ...string) error {
	for _, k := range keys {
		if err := ValidateKey(k); err != nil {
			return err
		}
	}
	return nil
}
