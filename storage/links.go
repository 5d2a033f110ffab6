package storage

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"gocloud.dev/blob"
)

// Signed links (CONTRACT §21): a file is handed to a buyer as a link that
// works until it expires and may be used again until then, so a download
// can resume.
//
// On a cloud store (s3://, gs://) the link is the driver's own signed URL
// (bucket.SignedURL), asking the store to answer with Content-Disposition:
// attachment and the file's name. The file:// and mem:// stores cannot sign,
// so their links name the service's own route, GET {base}/files/{key}?name=…
// &expires=…&sig=…, where sig is the unpadded base64url HMAC-SHA256, under
// the key given to SetLinkKey, of the key, the name and the expiry (Unix
// seconds), each length-prefixed. The route checks it (VerifyLink: constant
// time, then the expiry) before it streams a byte.

var (
	// ErrNoLinkKey is returned by SignedLink on a store that signs its own
	// links before SetLinkKey.
	ErrNoLinkKey = errors.New("storage: no key to sign file links with")
	// ErrLinkInvalid is a link whose signature does not match: tampered
	// with, or signed under another key.
	ErrLinkInvalid = errors.New("storage: the file link is not valid")
	// ErrLinkExpired is a genuine link past its expiry.
	ErrLinkExpired = errors.New("storage: the file link has expired")
)

// signHooks adjust a cloud driver's signed URL before it is signed, given
// the Content-Disposition the download should be served with (drivers_*.go
// register theirs).
var signHooks []func(as func(any) bool, disposition string)

// SetLinkKey sets the key the file store's links are signed with (32 bytes
// or more, kept by the service) and the base URL of the service that serves
// them. Cloud stores sign with their own credentials and ignore it.
func (s *Store) SetLinkKey(key []byte, baseURL string) {
	s.linkKey, s.linkBase = append([]byte(nil), key...), baseURL
}

// SignsOwnLinks reports whether the store's links are the service's
// /files route (file:// and mem://) rather than the driver's signed URLs.
func (s *Store) SignsOwnLinks() bool { return s.local }

// SignedLink returns a link to key that downloads it as name until expires.
// Errors: ErrInvalidKey, ErrNoLinkKey, or the driver's.
func (s *Store) SignedLink(ctx context.Context, key, name string, expires time.Time) (string, error) {
	if err := validKeys(key); err != nil {
		return "", err
	}
	disposition := mime.FormatMediaType("attachment", map[string]string{"filename": name})
	if !s.local {
		u, err := s.b.SignedURL(ctx, key, &blob.SignedURLOptions{Expiry: time.Until(expires), Method: http.MethodGet,
			BeforeSign: func(as func(any) bool) error {
				for _, h := range signHooks {
					h(as, disposition)
				}
				return nil
			}})
		if err != nil {
			return "", fmt.Errorf("storage: sign %q: %w", key, err)
		}
		return u, nil
	}
	if len(s.linkKey) == 0 {
		return "", ErrNoLinkKey
	}
	exp := strconv.FormatInt(expires.Unix(), 10)
	q := url.Values{"name": {name}, "expires": {exp}, "sig": {s.linkSig(key, name, exp)}}
	return s.linkBase + "/files/" + (&url.URL{Path: key}).EscapedPath() + "?" + q.Encode(), nil
}

// VerifyLink checks a link of the file store: key is the path after
// /files/, q its query. Errors: ErrLinkInvalid (signature, or no key),
// ErrLinkExpired (a genuine link at or past its expiry at now).
func (s *Store) VerifyLink(key string, q url.Values, now time.Time) error {
	if len(s.linkKey) == 0 || validKeys(key) != nil {
		return ErrLinkInvalid
	}
	exp, sig := q.Get("expires"), q.Get("sig")
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || len(exp) > 20 {
		return ErrLinkInvalid
	}
	want, _ := base64.RawURLEncoding.DecodeString(s.linkSig(key, q.Get("name"), exp))
	if !hmac.Equal(got, want) {
		return ErrLinkInvalid
	}
	at, err := strconv.ParseInt(exp, 10, 64)
	if err != nil {
		return ErrLinkInvalid
	}
	if !now.Before(time.Unix(at, 0)) {
		return ErrLinkExpired
	}
	return nil
}

func (s *Store) linkSig(key, name, exp string) string {
	m := hmac.New(sha256.New, s.linkKey)
	fmt.Fprintf(m, "commerce file link v1\n%d:%s\n%d:%s\n%d:%s", len(key), key, len(name), name, len(exp), exp)
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// OpenSeeker opens key for reading with seeking, for serving ranges (http.ServeContent).
// A missing key is ErrNotExist.
func (s *Store) OpenSeeker(ctx context.Context, key string) (*blob.Reader, error) {
	if err := validKeys(key); err != nil {
		return nil, err
	}
	r, err := s.b.NewReader(ctx, key, nil)
	if err != nil {
		return nil, wrap("read", key, err)
	}
	return r, nil
}
