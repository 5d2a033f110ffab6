package licensing

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// DefaultTokenTTL is how long a token is valid when LICENSE_TOKEN_TTL is
// not set (CONTRACT §13, §20).
const DefaultTokenTTL = 14 * 24 * time.Hour

// PublishGrace keeps a replaced key published a little longer than its
// last token can live: a process signs with the previous key until it next
// reads the keys (within seconds), and the processes' clocks differ.
const PublishGrace = time.Minute

// Leeway is the clock difference Verify forgives when it compares exp and
// iat with its clock: an app's device clock is rarely exact.
const Leeway = 5 * time.Minute

// The reasons Verify refuses a token. Each error it returns wraps one.
var (
	// ErrMalformed: not a compact JWS with alg EdDSA, a kid and the
	// claims of a license token.
	ErrMalformed = errors.New("licensing: not a license token")
	// ErrUnknownKey: the token's kid is not in the key set (a key the set
	// no longer publishes, or a token from elsewhere).
	ErrUnknownKey = errors.New("licensing: the token's key is not in the key set")
	// ErrSignature: the signature does not match the header and claims.
	ErrSignature = errors.New("licensing: the token's signature does not verify")
	// ErrExpired: the token's exp has passed.
	ErrExpired = errors.New("licensing: the token has expired")
	// ErrNotYetValid: the token was issued after the verifier's clock
	// (beyond Leeway).
	ErrNotYetValid = errors.New("licensing: the token was issued in the future")
	// ErrLicenseExpired: the token is authentic and current, but the
	// license key it speaks for has expired (lexp).
	ErrLicenseExpired = errors.New("licensing: the license key has expired")
)

// SigningKey is one Ed25519 key of the set that signs tokens. ID is the
// kid: the key's RFC 7638 JWK thumbprint (SHA-256, base64url), so the same
// key always has the same kid. Private may be nil for a key that only
// verifies (every key but the newest).
type SigningKey struct {
	ID        string
	Public    ed25519.PublicKey
	Private   ed25519.PrivateKey
	CreatedAt time.Time
}

// NewSigningKey returns a new Ed25519 key created at createdAt.
func NewSigningKey(createdAt time.Time) (SigningKey, error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return SigningKey{}, fmt.Errorf("licensing: generate key: %w", err)
	}
	id, err := KeyID(pub)
	if err != nil {
		return SigningKey{}, err
	}
	return SigningKey{ID: id, Public: pub, Private: priv, CreatedAt: createdAt}, nil
}

// KeyID returns the kid of pub: its RFC 7638 thumbprint, SHA-256, base64url.
func KeyID(pub ed25519.PublicKey) (string, error) {
	if len(pub) != ed25519.PublicKeySize {
		return "", fmt.Errorf("licensing: an Ed25519 public key has %d bytes, not %d", ed25519.PublicKeySize, len(pub))
	}
	tp, err := (&jose.JSONWebKey{Key: pub}).Thumbprint(crypto.SHA256)
	if err != nil {
		return "", fmt.Errorf("licensing: key thumbprint: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(tp), nil
}

// Claims are a token's claims (CONTRACT §20). Activation and Fingerprint
// are nil for a token about the key itself (validate without a
// fingerprint), LicenseExpiry for a key that never expires; all three are
// then null in the token, never absent. Times are Unix seconds.
type Claims struct {
	// Issuer is the service's base URL.
	Issuer string `json:"iss"`
	// Subject is the license key's id (lic_…).
	Subject string `json:"sub"`
	// Listing is the listing's id (lst_…).
	Listing string `json:"lst"`
	// Activation is the activation's id (act_…).
	Activation *string `json:"act"`
	// Fingerprint is the activation's device fingerprint.
	Fingerprint *string `json:"fpr"`
	// LicenseExpiry is when the license key expires.
	LicenseExpiry *int64 `json:"lexp"`
	IssuedAt      int64  `json:"iat"`
	// Expiry is IssuedAt + the token TTL.
	Expiry int64 `json:"exp"`
}

// Signer signs tokens with the newest of a set of keys and publishes the
// keys that verify the tokens still alive. It is safe for concurrent use.
type Signer struct {
	issuer string
	ttl    time.Duration
	// keys, oldest first; the last one signs.
	keys []SigningKey
	sig  jose.Signer
}

// NewSigner returns a Signer for issuer (the service's base URL) making
// tokens that live ttl, from keys in any order: the newest (by CreatedAt,
// then ID) signs and needs its private half. Each key's ID must be its
// thumbprint (KeyID), which catches a row whose columns do not belong
// together.
func NewSigner(issuer string, ttl time.Duration, keys []SigningKey) (*Signer, error) {
	switch {
	case issuer == "":
		return nil, errors.New("licensing: a signer needs an issuer")
	case ttl <= 0:
		return nil, errors.New("licensing: a signer needs a positive token lifetime")
	case len(keys) == 0:
		return nil, errors.New("licensing: a signer needs at least one key")
	}
	ks := slices.Clone(keys)
	slices.SortStableFunc(ks, func(a, b SigningKey) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	for _, k := range ks {
		id, err := KeyID(k.Public)
		if err != nil {
			return nil, fmt.Errorf("licensing: key %s: %w", k.ID, err)
		}
		if id != k.ID {
			return nil, fmt.Errorf("licensing: key %s: its public key's thumbprint is %s", k.ID, id)
		}
	}
	newest := ks[len(ks)-1]
	if len(newest.Private) != ed25519.PrivateKeySize || !bytes.Equal(newest.Private.Public().(ed25519.PublicKey), newest.Public) {
		return nil, fmt.Errorf("licensing: the newest key %s has no private half matching its public key", newest.ID)
	}
	sig, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.EdDSA, Key: jose.JSONWebKey{Key: newest.Private, KeyID: newest.ID}},
		(&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		return nil, fmt.Errorf("licensing: %w", err)
	}
	return &Signer{issuer: issuer, ttl: ttl, keys: ks, sig: sig}, nil
}

// KeyID is the kid of the key that signs.
func (s *Signer) KeyID() string { return s.keys[len(s.keys)-1].ID }

// Sign returns the compact JWS of c issued at now: c's Issuer, IssuedAt and
// Expiry are set here (the signer's issuer, now, now + the TTL, in whole
// seconds).
func (s *Signer) Sign(c Claims, now time.Time) (string, error) {
	c.Issuer = s.issuer
	c.IssuedAt = now.Unix()
	c.Expiry = now.Add(s.ttl).Unix()
	payload, err := json.Marshal(c)
	if err != nil {
		return "", fmt.Errorf("licensing: %w", err)
	}
	obj, err := s.sig.Sign(payload)
	if err != nil {
		return "", fmt.Errorf("licensing: sign: %w", err)
	}
	return obj.CompactSerialize()
}

// Published returns the keys a verifier needs at now, oldest first: the
// signing key, and each older key until the last token it can have signed
// has expired. Key i stopped signing when key i+1 was created, so it stays
// until key i+1's CreatedAt + the TTL + PublishGrace.
func (s *Signer) Published(now time.Time) []SigningKey {
	var out []SigningKey
	for i, k := range s.keys {
		if i == len(s.keys)-1 || !now.After(s.keys[i+1].CreatedAt.Add(s.ttl+PublishGrace)) {
			out = append(out, k)
		}
	}
	return out
}

// JWKS returns the JSON Web Key Set of the keys Published at now:
// OKP/Ed25519 public keys with their kid, alg EdDSA and use sig.
func (s *Signer) JWKS(now time.Time) jose.JSONWebKeySet {
	pub := s.Published(now)
	set := jose.JSONWebKeySet{Keys: make([]jose.JSONWebKey, 0, len(pub))}
	for _, k := range pub {
		set.Keys = append(set.Keys, jose.JSONWebKey{Key: k.Public, KeyID: k.ID, Algorithm: string(jose.EdDSA), Use: "sig"})
	}
	return set
}

// Verify checks token against the key set jwks at now, as an app does
// offline: a compact JWS with alg EdDSA (no other algorithm is accepted)
// signed by the key jwks publishes under its kid, with exp not passed and
// iat not in the future (each with Leeway). It returns the claims, or an
// error wrapping ErrMalformed, ErrUnknownKey, ErrSignature, ErrExpired or
// ErrNotYetValid. A current token whose license key has expired (lexp at
// or before now) returns its claims with ErrLicenseExpired.
func Verify(token string, jwks jose.JSONWebKeySet, now time.Time) (Claims, error) {
	tok, err := jwt.ParseSigned(token, []jose.SignatureAlgorithm{jose.EdDSA})
	if err != nil {
		return Claims{}, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	var (
		std jwt.Claims
		c   Claims
	)
	if err := tok.Claims(jwks, &std, &c); err != nil {
		switch {
		case errors.Is(err, jose.ErrJWKSKidNotFound):
			return Claims{}, fmt.Errorf("%w: %w", ErrUnknownKey, err)
		case errors.Is(err, jose.ErrCryptoFailure):
			return Claims{}, fmt.Errorf("%w: %w", ErrSignature, err)
		}
		return Claims{}, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	if std.Expiry == nil || std.IssuedAt == nil || c.Subject == "" {
		return Claims{}, fmt.Errorf("%w: exp, iat and sub are required", ErrMalformed)
	}
	if err := std.ValidateWithLeeway(jwt.Expected{Time: now}, Leeway); err != nil {
		switch {
		case errors.Is(err, jwt.ErrExpired):
			return Claims{}, fmt.Errorf("%w: %w", ErrExpired, err)
		case errors.Is(err, jwt.ErrIssuedInTheFuture), errors.Is(err, jwt.ErrNotValidYet):
			return Claims{}, fmt.Errorf("%w: %w", ErrNotYetValid, err)
		}
		return Claims{}, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	if c.LicenseExpiry != nil && now.Unix() >= *c.LicenseExpiry {
		return c, ErrLicenseExpired
	}
	return c, nil
}
