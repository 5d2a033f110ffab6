package licensing_test

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/stretchr/testify/require"

	"commerce/licensing"
)

const issuer = "https://shop.example.com"

var t0 = time.Date(2026, 4, 1, 9, 0, 0, 0, time.UTC)

func newKey(t *testing.T, at time.Time) licensing.SigningKey {
	t.Helper()
	k, err := licensing.NewSigningKey(at)
	require.NoError(t, err)
	return k
}

func newSigner(t *testing.T, keys ...licensing.SigningKey) *licensing.Signer {
	t.Helper()
	s, err := licensing.NewSigner(issuer, licensing.DefaultTokenTTL, keys)
	require.NoError(t, err)
	return s
}

func str(s string) *string { return &s }

func claims() licensing.Claims {
	lexp := t0.Add(365 * 24 * time.Hour).Unix()
	return licensing.Claims{Subject: "lic_01", Listing: "lst_01", Activation: str("act_01"), Fingerprint: str("device-1"), LicenseExpiry: &lexp}
}

// parts splits a compact JWS and decodes its header and payload.
func parts(t *testing.T, token string) (header, payload map[string]any, segs []string) {
	t.Helper()
	segs = strings.Split(token, ".")
	require.Len(t, segs, 3)
	for i, into := range []*map[string]any{&header, &payload} {
		b, err := base64.RawURLEncoding.DecodeString(segs[i])
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, into))
	}
	return header, payload, segs
}

func encode(v any) string {
	b, _ := json.Marshal(v)
	return base64.RawURLEncoding.EncodeToString(b)
}

func TestSigningKey(t *testing.T) {
	t.Parallel()
	k := newKey(t, t0)
	require.Len(t, k.Private, ed25519.PrivateKeySize)
	require.Equal(t, k.Private.Public(), k.Public)
	require.Equal(t, t0, k.CreatedAt)
	// The kid is the key's RFC 7638 thumbprint (SHA-256, base64url).
	jwk := jose.JSONWebKey{Key: k.Public}
	tp, err := jwk.Thumbprint(0x5) // crypto.SHA256
	require.NoError(t, err)
	require.Equal(t, base64.RawURLEncoding.EncodeToString(tp), k.ID)
	require.NotEqual(t, k.ID, newKey(t, t0).ID)
}

// A token is a compact JWS, alg EdDSA with the signing key's kid, whose
// claims are those of CONTRACT §20: exp is iat + the TTL, and act, fpr and
// lexp are present, null when the token has none.
func TestSignAndVerify(t *testing.T) {
	t.Parallel()
	k := newKey(t, t0)
	s := newSigner(t, k)
	require.Equal(t, k.ID, s.KeyID())
	now := t0.Add(90 * time.Minute).Add(400 * time.Millisecond)
	tok, err := s.Sign(claims(), now)
	require.NoError(t, err)

	header, payload, _ := parts(t, tok)
	require.Equal(t, "EdDSA", header["alg"])
	require.Equal(t, k.ID, header["kid"])
	iat := float64(now.Unix())
	require.Equal(t, map[string]any{"iss": issuer, "sub": "lic_01", "lst": "lst_01", "act": "act_01", "fpr": "device-1",
		"lexp": float64(*claims().LicenseExpiry), "iat": iat, "exp": iat + licensing.DefaultTokenTTL.Seconds()}, payload)

	got, err := licensing.Verify(tok, s.JWKS(now), now)
	require.NoError(t, err)
	want := claims()
	want.Issuer, want.IssuedAt, want.Expiry = issuer, now.Unix(), now.Add(licensing.DefaultTokenTTL).Unix()
	require.Equal(t, want, got)

	// A key's own token: no activation, no fingerprint, no expiry.
	tok, err = s.Sign(licensing.Claims{Subject: "lic_02", Listing: "lst_01"}, now)
	require.NoError(t, err)
	_, payload, _ = parts(t, tok)
	for _, name := range []string{"act", "fpr", "lexp"} {
		v, ok := payload[name]
		require.True(t, ok, "%s is present", name)
		require.Nil(t, v, "%s is null", name)
	}
	got, err = licensing.Verify(tok, s.JWKS(now), now)
	require.NoError(t, err)
	require.Nil(t, got.Activation)
	require.Nil(t, got.Fingerprint)
	require.Nil(t, got.LicenseExpiry)
}

// The JWK Set holds OKP/Ed25519 public keys with their kid, alg and use,
// and never a private part.
func TestJWKS(t *testing.T) {
	t.Parallel()
	k := newKey(t, t0)
	s := newSigner(t, k)
	b, err := json.Marshal(s.JWKS(t0))
	require.NoError(t, err)
	var doc struct {
		Keys []map[string]any `json:"keys"`
	}
	require.NoError(t, json.Unmarshal(b, &doc))
	require.Len(t, doc.Keys, 1)
	require.Equal(t, map[string]any{"kty": "OKP", "crv": "Ed25519", "kid": k.ID, "alg": "EdDSA", "use": "sig",
		"x": base64.RawURLEncoding.EncodeToString(k.Public)}, doc.Keys[0])
	var set jose.JSONWebKeySet
	require.NoError(t, json.Unmarshal(b, &set), "go-jose reads it back")
	require.True(t, set.Keys[0].IsPublic())
}

func TestVerifyRefuses(t *testing.T) {
	t.Parallel()
	k, other := newKey(t, t0), newKey(t, t0)
	s := newSigner(t, k)
	jwks := s.JWKS(t0)
	tok, err := s.Sign(claims(), t0)
	require.NoError(t, err)
	header, payload, segs := parts(t, tok)

	payload["sub"] = "lic_other"
	tamperedPayload := segs[0] + "." + encode(payload) + "." + segs[2]
	// A middle character carries 6 bits of the signature: another letter
	// changes its bytes.
	sig := []byte(segs[2])
	sig[10] = map[bool]byte{true: 'B', false: 'A'}[sig[10] == 'A']
	tamperedSig := segs[0] + "." + segs[1] + "." + string(sig)

	// Signed by a key the set does not publish.
	stranger, err := newSigner(t, other).Sign(claims(), t0)
	require.NoError(t, err)
	// The header names the published kid, but another key signed.
	h, _, ss := parts(t, stranger)
	h["kid"] = k.ID
	relabelled := encode(h) + "." + ss[1] + "." + ss[2]
	// The header names another kid than the one that signed.
	header["kid"] = other.ID
	renamed := encode(header) + "." + segs[1] + "." + segs[2]
	// alg none, and HS256 keyed with the public key (algorithm confusion).
	none := encode(map[string]any{"alg": "none", "kid": k.ID}) + "." + segs[1] + "."
	hs, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.HS256, Key: []byte(k.Public)},
		(&jose.SignerOptions{}).WithHeader("kid", k.ID))
	require.NoError(t, err)
	obj, err := hs.Sign([]byte(mustDecode(t, segs[1])))
	require.NoError(t, err)
	confused, err := obj.CompactSerialize()
	require.NoError(t, err)

	for _, tc := range []struct {
		name  string
		token string
		jwks  jose.JSONWebKeySet
		now   time.Time
		want  error
	}{
		{"tampered payload", tamperedPayload, jwks, t0, licensing.ErrSignature},
		{"tampered signature", tamperedSig, jwks, t0, licensing.ErrSignature},
		{"unknown kid", stranger, jwks, t0, licensing.ErrUnknownKey},
		{"kid of a published key, signed by another", relabelled, jwks, t0, licensing.ErrSignature},
		{"kid changed", renamed, newSigner(t, k, other).JWKS(t0), t0, licensing.ErrSignature},
		{"empty set", tok, jose.JSONWebKeySet{}, t0, licensing.ErrUnknownKey},
		{"expired", tok, jwks, t0.Add(licensing.DefaultTokenTTL + licensing.Leeway + time.Second), licensing.ErrExpired},
		{"issued in the future", tok, jwks, t0.Add(-licensing.Leeway - time.Second), licensing.ErrNotYetValid},
		{"alg none", none, jwks, t0, licensing.ErrMalformed},
		{"HS256", confused, jwks, t0, licensing.ErrMalformed},
		{"not a JWS", "not.a.token", jwks, t0, licensing.ErrMalformed},
		{"empty", "", jwks, t0, licensing.ErrMalformed},
	} {
		_, err := licensing.Verify(tc.token, tc.jwks, tc.now)
		require.ErrorIs(t, err, tc.want, tc.name)
	}
	// Within the leeway either side, the token is good.
	for _, now := range []time.Time{t0.Add(-licensing.Leeway), t0.Add(licensing.DefaultTokenTTL + licensing.Leeway)} {
		_, err := licensing.Verify(tok, jwks, now)
		require.NoError(t, err, now)
	}
}

func mustDecode(t *testing.T, s string) string {
	b, err := base64.RawURLEncoding.DecodeString(s)
	require.NoError(t, err)
	return string(b)
}

// The key's own expiry: a token still in its lifetime whose license has
// expired verifies as authentic, with ErrLicenseExpired and its claims.
func TestVerifyLicenseExpired(t *testing.T) {
	t.Parallel()
	s := newSigner(t, newKey(t, t0))
	c := claims()
	lexp := t0.Add(time.Hour).Unix()
	c.LicenseExpiry = &lexp
	tok, err := s.Sign(c, t0)
	require.NoError(t, err)
	_, err = licensing.Verify(tok, s.JWKS(t0), t0.Add(time.Hour-time.Second))
	require.NoError(t, err)
	got, err := licensing.Verify(tok, s.JWKS(t0), t0.Add(time.Hour+time.Second))
	require.ErrorIs(t, err, licensing.ErrLicenseExpired)
	require.Equal(t, "lic_01", got.Subject)
}

// The newest key signs; every published key verifies. A replaced key stays
// published until the last token it can have signed has expired: the next
// key's creation + the TTL + PublishGrace (processes pick a new key up
// within seconds, so it may still sign briefly).
func TestRotation(t *testing.T) {
	t.Parallel()
	ttl := licensing.DefaultTokenTTL
	k1 := newKey(t, t0)
	before := newSigner(t, k1)
	old, err := before.Sign(claims(), t0.Add(time.Hour))
	require.NoError(t, err)

	k2 := newKey(t, t0.Add(2*time.Hour))
	k3 := newKey(t, t0.Add(3*time.Hour))
	after := newSigner(t, k3, k1, k2) // any order: the newest signs
	require.Equal(t, k3.ID, after.KeyID())
	tok, err := after.Sign(claims(), t0.Add(3*time.Hour))
	require.NoError(t, err)
	header, _, _ := parts(t, tok)
	require.Equal(t, k3.ID, header["kid"])

	now := t0.Add(4 * time.Hour)
	_, err = licensing.Verify(old, after.JWKS(now), now)
	require.NoError(t, err, "a token of the old key verifies with the set after the rotation")
	_, err = licensing.Verify(tok, after.JWKS(now), now)
	require.NoError(t, err)
	_, err = licensing.Verify(tok, before.JWKS(now), now)
	require.ErrorIs(t, err, licensing.ErrUnknownKey, "a client holding the old set does not know the new key")

	kids := func(at time.Time) []string {
		var out []string
		for _, k := range after.JWKS(at).Keys {
			out = append(out, k.KeyID)
		}
		return out
	}
	// k1 was replaced at k2's creation, k2 at k3's.
	require.Equal(t, []string{k1.ID, k2.ID, k3.ID}, kids(now))
	end1 := k2.CreatedAt.Add(ttl + licensing.PublishGrace)
	end2 := k3.CreatedAt.Add(ttl + licensing.PublishGrace)
	require.Equal(t, []string{k1.ID, k2.ID, k3.ID}, kids(end1))
	require.Equal(t, []string{k2.ID, k3.ID}, kids(end1.Add(time.Second)))
	require.Equal(t, []string{k3.ID}, kids(end2.Add(time.Second)))
	require.Equal(t, []string{k3.ID}, kids(end2.Add(1000*ttl)), "the signing key is always published")
	// By then the old key's last token had expired.
	last, err := newSigner(t, k1).Sign(claims(), k2.CreatedAt.Add(licensing.PublishGrace))
	require.NoError(t, err)
	_, err = licensing.Verify(last, after.JWKS(end1), end1)
	require.NoError(t, err)
	_, err = licensing.Verify(last, after.JWKS(end1.Add(time.Second)), end1.Add(time.Second))
	require.Error(t, err)
}

func TestNewSignerRefuses(t *testing.T) {
	t.Parallel()
	_, err := licensing.NewSigner(issuer, licensing.DefaultTokenTTL, nil)
	require.Error(t, err, "no key")
	_, err = licensing.NewSigner(issuer, 0, []licensing.SigningKey{newKey(t, t0)})
	require.Error(t, err, "no TTL")
	_, err = licensing.NewSigner("", licensing.DefaultTokenTTL, []licensing.SigningKey{newKey(t, t0)})
	require.Error(t, err, "no issuer")
	k := newKey(t, t0)
	k.Private = nil
	_, err = licensing.NewSigner(issuer, licensing.DefaultTokenTTL, []licensing.SigningKey{newKey(t, t0.Add(-time.Hour)), k})
	require.Error(t, err, "the newest key has no private half")
	// Older keys only verify: they need no private half.
	_, err = licensing.NewSigner(issuer, licensing.DefaultTokenTTL, []licensing.SigningKey{k, newKey(t, t0.Add(time.Hour))})
	require.NoError(t, err)
	bad := newKey(t, t0)
	bad.ID = "not-its-thumbprint"
	_, err = licensing.NewSigner(issuer, licensing.DefaultTokenTTL, []licensing.SigningKey{bad})
	require.Error(t, err, "a kid that is not the key's")
}
