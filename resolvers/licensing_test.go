package resolvers_test

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"commerce/licensing"
	"commerce/resolvers"
	"commerce/testkit"
)

// The signing keys of license tokens (CONTRACT §20, "Offline validation"),
// on the real table. These tests are not parallel: they empty the table or
// rotate its keys, which every test of the package would see.

// process is another process of env's deployment: a Resolver on the same
// database and secret box, reading the keys again every refresh (zero: the
// default), with a clock shifted by skew.
func process(env *testkit.Env, refresh, skew time.Duration) *resolvers.Resolver {
	r := resolvers.Resolver{DB: env.Server.DB, Log: testkit.Logger(), BaseURL: env.URL, Secrets: env.Server.Resolver.Secrets,
		LicenseKeysRefresh: refresh}
	if skew != 0 {
		r.Now = func() time.Time { return time.Now().Add(skew) }
	}
	return resolvers.New(r)
}

func signerKID(t *testing.T, r *resolvers.Resolver) string {
	t.Helper()
	s, err := r.LicenseSigner(context.Background())
	require.NoError(t, err)
	return s.KeyID()
}

func tokenClaims() licensing.Claims {
	return licensing.Claims{Subject: "lic_" + testkit.Unique(), Listing: "lst_" + testkit.Unique()}
}

func kids(set jose.JSONWebKeySet) []string {
	var out []string
	for _, k := range set.Keys {
		out = append(out, k.KeyID)
	}
	return out
}

func keyCount(t *testing.T, env *testkit.Env) int {
	t.Helper()
	var n int
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM license_signing_keys`).Scan(&n))
	return n
}

// The first key is made by the first process that signs, once: ten
// processes asking at the same moment on an empty table all sign with the
// one key that results (in several rounds: the race is narrow). Until a key
// exists the JWK Set is empty; asking for it adds nothing.
func TestFirstLicenseSigningKeyCreatedOnce(t *testing.T) {
	env := testkit.New(t)
	ctx := context.Background()
	for round := range 20 {
		_, err := env.Server.DB.Pool.Exec(ctx, `DELETE FROM license_signing_keys`)
		require.NoError(t, err)
		doc, err := process(env, 0, 0).LicenseJWKS(ctx)
		require.NoError(t, err)
		require.JSONEq(t, `{"keys":[]}`, string(doc))
		require.Equal(t, 0, keyCount(t, env))

		const n = 10
		got := make([]string, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range n {
			p := process(env, 0, 0)
			wg.Go(func() {
				<-start
				s, err := p.LicenseSigner(ctx)
				if errs[i] = err; err == nil {
					got[i] = s.KeyID()
				}
			})
		}
		close(start)
		wg.Wait()
		for i := range n {
			require.NoError(t, errs[i], "round %d", round)
			require.Equal(t, got[0], got[i], "round %d", round)
		}
		require.Equal(t, 1, keyCount(t, env), "round %d", round)
	}

	var sealed, public []byte
	require.NoError(t, env.Server.DB.Pool.QueryRow(ctx, `SELECT private_key, public_key FROM license_signing_keys`).Scan(&sealed, &public))
	require.Len(t, public, 32)
	require.Greater(t, len(sealed), 32, "the seed is sealed (nonce, ciphertext, tag)")
	seed, err := env.Server.Resolver.Secrets.Open(sealed)
	require.NoError(t, err)
	require.Equal(t, []byte(ed25519.NewKeyFromSeed([]byte(seed)).Public().(ed25519.PublicKey)), public)
}

// After a rotation by one process, the others sign with the new key within
// their refresh interval: 200 ms here, and the default, within the 10 s of
// CONTRACT §20. A token signed before the rotation still verifies with the
// key set every process publishes.
func TestLicenseKeyRotationReachesEveryProcess(t *testing.T) {
	env := testkit.New(t)
	ctx := context.Background()
	a, b, c := process(env, 0, 0), process(env, 200*time.Millisecond, 0), process(env, 0, 0)
	before := signerKID(t, b)
	require.Equal(t, before, signerKID(t, c))
	old, err := b.SignLicenseToken(ctx, tokenClaims())
	require.NoError(t, err)

	rotated := time.Now()
	kid, err := a.RotateLicenseSigningKey(ctx)
	require.NoError(t, err)
	require.NotEqual(t, before, kid)
	require.Equal(t, kid, signerKID(t, a), "the rotating process signs with the new key at once")

	var wg sync.WaitGroup
	for _, tc := range []struct {
		name   string
		r      *resolvers.Resolver
		within time.Duration
	}{
		{"refresh 200ms", b, 2 * time.Second},
		{"default refresh", c, 10 * time.Second},
	} {
		wg.Go(func() {
			signs := func() bool {
				s, err := tc.r.LicenseSigner(ctx)
				return err == nil && s.KeyID() == kid
			}
			if !assert.Eventually(t, signs, tc.within, 50*time.Millisecond, tc.name) {
				return
			}
			t.Logf("%s: signs with the new key %v after the rotation", tc.name, time.Since(rotated).Round(10*time.Millisecond))
		})
	}
	wg.Wait()

	for _, r := range []*resolvers.Resolver{a, b, c} {
		doc, err := r.LicenseJWKS(ctx)
		require.NoError(t, err)
		var set jose.JSONWebKeySet
		require.NoError(t, json.Unmarshal(doc, &set))
		require.Subset(t, kids(set), []string{before, kid})
		_, err = licensing.Verify(old, set, time.Now())
		require.NoError(t, err)
		tok, err := r.SignLicenseToken(ctx, tokenClaims())
		require.NoError(t, err)
		got, err := licensing.Verify(tok, set, time.Now())
		require.NoError(t, err)
		require.Equal(t, env.URL, got.Issuer)
		require.Equal(t, got.IssuedAt+int64(licensing.DefaultTokenTTL/time.Second), got.Expiry)
	}

	// Once the old key's last token has expired (the new key's creation +
	// the TTL + the grace), it is no longer published.
	later := process(env, 0, licensing.DefaultTokenTTL+licensing.PublishGrace+time.Minute)
	doc, err := later.LicenseJWKS(ctx)
	require.NoError(t, err)
	var set jose.JSONWebKeySet
	require.NoError(t, json.Unmarshal(doc, &set))
	require.Equal(t, []string{kid}, kids(set))
}

// GET /.well-known/jwks.json serves the published keys: public, any
// origin, cached briefly; after a rotation both keys, and a token signed
// before it verifies with what is served.
func TestJWKSRoute(t *testing.T) {
	env := testkit.New(t)
	ctx := context.Background()
	res := env.Server.Resolver
	old, err := res.SignLicenseToken(ctx, tokenClaims())
	require.NoError(t, err)
	before := signerKID(t, res)

	get := func() jose.JSONWebKeySet {
		t.Helper()
		r := env.Get("/.well-known/jwks.json", "")
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.Equal(t, "application/jwk-set+json", r.Header.Get("Content-Type"))
		require.Equal(t, "public, max-age=60", r.Header.Get("Cache-Control"))
		require.Equal(t, "*", r.Header.Get("Access-Control-Allow-Origin"))
		require.NotEmpty(t, r.Header.Get("ETag"))
		var set jose.JSONWebKeySet
		require.NoError(t, json.Unmarshal(r.Body, &set))
		for _, k := range set.Keys {
			require.True(t, k.IsPublic(), "no private part is served")
			require.Equal(t, "EdDSA", k.Algorithm)
		}
		return set
	}
	set := get()
	require.Contains(t, kids(set), before)
	_, err = licensing.Verify(old, set, time.Now())
	require.NoError(t, err)

	kid, err := res.RotateLicenseSigningKey(ctx)
	require.NoError(t, err)
	set = get()
	require.Subset(t, kids(set), []string{before, kid})
	_, err = licensing.Verify(old, set, time.Now())
	require.NoError(t, err, "a token signed before the rotation verifies with the served set")
	tok, err := res.SignLicenseToken(ctx, tokenClaims())
	require.NoError(t, err)
	_, err = licensing.Verify(tok, set, time.Now())
	require.NoError(t, err)

	r := env.Get("/.well-known/jwks.json", "")
	again := env.Do(testkit.Request{Method: "GET", Path: "/.well-known/jwks.json", Header: map[string]string{"If-None-Match": r.Header.Get("ETag")}})
	require.Equal(t, http.StatusNotModified, again.Status)
	head := env.Do(testkit.Request{Method: "HEAD", Path: "/.well-known/jwks.json", NoCheck: true})
	require.Equal(t, http.StatusOK, head.Status)
	require.Empty(t, head.Body)
}
