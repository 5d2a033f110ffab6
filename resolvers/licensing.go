package resolvers

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"commerce/db"
	"commerce/licensing"
)

// The signing keys of license tokens (CONTRACT §20, "Offline validation"):
// stored in license_signing_keys with the private half sealed, read by
// every process and cached, so that all of them sign alike and publish the
// same key set. The rules (kid, which key signs, how long a replaced key
// stays published) are package licensing's.

// DefaultLicenseKeysRefresh is how often a process reads the signing keys
// again when LicenseKeysRefresh is zero. A key added by
// `commerce licenses rotate-key` is used by every process within this
// interval (plus one read of the table), inside the 10 s of CONTRACT §20.
const DefaultLicenseKeysRefresh = 5 * time.Second

// licenseKeysLockSpace is the namespace of the advisory lock under which
// keys are added, one at a time across processes (two-key advisory locks:
// the event log's commit lock is 7421338, slugs' 7421339).
const licenseKeysLockSpace = 7421340

// licenseKeys caches what was last read from license_signing_keys.
type licenseKeys struct {
	// reading is held by the one goroutine reading the table.
	reading sync.Mutex

	mu  sync.Mutex
	cur *licenseKeySet
}

// licenseKeySet is one reading of the table.
type licenseKeySet struct {
	// signer is nil when the table has no key yet.
	signer *licensing.Signer
	// jwks is the JSON Web Key Set document of the keys published at read.
	jwks []byte
	// read is when the table was read; stale marks a set that must be
	// read again before it is used (this process added a key).
	read  time.Time
	stale bool
}

func (r *Resolver) licenseTokenTTL() time.Duration {
	if r.LicenseTokenTTL > 0 {
		return r.LicenseTokenTTL
	}
	return licensing.DefaultTokenTTL
}

func (r *Resolver) licenseKeysRefresh() time.Duration {
	if r.LicenseKeysRefresh > 0 {
		return r.LicenseKeysRefresh
	}
	return DefaultLicenseKeysRefresh
}

// LicenseSigner returns the signer of license tokens: the newest signing
// key, read from the database at most LicenseKeysRefresh ago. The first
// call of a deployment whose table is empty adds the first key (once, even
// when several processes ask at the same moment).
func (r *Resolver) LicenseSigner(ctx context.Context) (*licensing.Signer, error) {
	set, err := r.licenseKeySet(ctx, true)
	if err != nil {
		return nil, err
	}
	return set.signer, nil
}

// SignLicenseToken signs c (iss, iat and exp filled in: the base URL, now
// and now + LICENSE_TOKEN_TTL) with the current signing key.
func (r *Resolver) SignLicenseToken(ctx context.Context, c licensing.Claims) (string, error) {
	s, err := r.LicenseSigner(ctx)
	if err != nil {
		return "", err
	}
	return s.Sign(c, r.Now())
}

// LicenseJWKS returns the JSON Web Key Set (RFC 7517) of the published
// signing keys, the document of GET /.well-known/jwks.json: read at most
// LicenseKeysRefresh ago, so that serving it costs no query. With no key
// yet it is an empty set (asking for it adds none).
func (r *Resolver) LicenseJWKS(ctx context.Context) ([]byte, error) {
	set, err := r.licenseKeySet(ctx, false)
	if err != nil {
		return nil, err
	}
	return set.jwks, nil
}

// RotateLicenseSigningKey adds a signing key and returns its kid. This
// process signs with it at once, every other one within its refresh
// interval; the replaced keys stay published until their last tokens have
// expired (licensing.Signer.Published).
func (r *Resolver) RotateLicenseSigningKey(ctx context.Context) (string, error) {
	kid, err := r.addLicenseSigningKey(ctx, false)
	if err != nil {
		return "", err
	}
	r.licenseKeys.mu.Lock()
	if r.licenseKeys.cur != nil {
		r.licenseKeys.cur.stale = true
	}
	r.licenseKeys.mu.Unlock()
	r.Log.InfoContext(ctx, "license signing key added", "kid", kid)
	return kid, nil
}

// licenseKeySet returns the cached reading of the keys when it is recent
// enough, and otherwise reads the table again; needSigner adds the first
// key when there is none. While one goroutine reads, the others go on with
// the previous reading (when it has what they need), and a failed read
// keeps the previous reading in use (logged) rather than failing requests.
func (r *Resolver) licenseKeySet(ctx context.Context, needSigner bool) (*licenseKeySet, error) {
	k := r.licenseKeys
	usable := func(s *licenseKeySet) bool { return s != nil && (s.signer != nil || !needSigner) }
	fresh := func(s *licenseKeySet) bool {
		return usable(s) && !s.stale && time.Since(s.read) < r.licenseKeysRefresh()
	}
	cached := func() *licenseKeySet {
		k.mu.Lock()
		defer k.mu.Unlock()
		return k.cur
	}
	prev := cached()
	if fresh(prev) {
		return prev, nil
	}
	if usable(prev) && !prev.stale {
		if !k.reading.TryLock() {
			return prev, nil
		}
	} else {
		k.reading.Lock()
	}
	defer k.reading.Unlock()
	if prev = cached(); fresh(prev) {
		return prev, nil
	}

	set, err := r.readLicenseKeys(ctx)
	if err == nil && set.signer == nil && needSigner {
		if _, err = r.addLicenseSigningKey(ctx, true); err == nil {
			set, err = r.readLicenseKeys(ctx)
		}
	}
	if err == nil && !usable(set) {
		err = errors.New("license signing keys: no key after adding the first")
	}
	if err != nil {
		if usable(prev) {
			r.Log.ErrorContext(ctx, "license signing keys: reading them failed; using the previous reading", "error", err)
			return prev, nil
		}
		return nil, err
	}
	k.mu.Lock()
	k.cur = set
	k.mu.Unlock()
	return set, nil
}

// readLicenseKeys reads every key, opens the newest one's private half and
// builds the signer and the key set published now.
func (r *Resolver) readLicenseKeys(ctx context.Context) (*licenseKeySet, error) {
	read := time.Now()
	rows, err := r.DB.Pool.Query(ctx, `SELECT kid, public_key, created_at, private_key FROM license_signing_keys ORDER BY created_at, kid`)
	if err != nil {
		return nil, fmt.Errorf("license signing keys: %w", err)
	}
	var (
		keys []licensing.SigningKey
		// sealed ends as the newest key's (the rows come oldest first).
		sealed []byte
	)
	for rows.Next() {
		var k licensing.SigningKey
		var pub []byte
		if err := rows.Scan(&k.ID, &pub, &k.CreatedAt, &sealed); err != nil {
			rows.Close()
			return nil, fmt.Errorf("license signing keys: %w", err)
		}
		k.Public = ed25519.PublicKey(pub)
		keys = append(keys, k)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("license signing keys: %w", err)
	}
	if len(keys) == 0 {
		return &licenseKeySet{jwks: []byte(`{"keys":[]}`), read: read}, nil
	}
	// Only the newest key signs: the others stay sealed.
	newest := &keys[len(keys)-1]
	seed, err := r.Secrets.Open(sealed)
	if err != nil {
		return nil, fmt.Errorf("license signing key %s: %w", newest.ID, err)
	}
	if len(seed) != ed25519.SeedSize {
		return nil, fmt.Errorf("license signing key %s: the sealed seed has %d bytes", newest.ID, len(seed))
	}
	newest.Private = ed25519.NewKeyFromSeed([]byte(seed))
	signer, err := licensing.NewSigner(r.BaseURL, r.licenseTokenTTL(), keys)
	if err != nil {
		return nil, fmt.Errorf("license signing keys: %w", err)
	}
	doc, err := json.Marshal(signer.JWKS(r.Now()))
	if err != nil {
		return nil, fmt.Errorf("license signing keys: %w", err)
	}
	return &licenseKeySet{signer: signer, jwks: doc, read: read}, nil
}

// addLicenseSigningKey adds a new key, or with onlyFirst only when the table
// is empty (then "" when another process was first). Keys are added under a
// transaction-scoped advisory lock, so processes take turns and a key added
// later has a later created_at.
func (r *Resolver) addLicenseSigningKey(ctx context.Context, onlyFirst bool) (string, error) {
	key, err := licensing.NewSigningKey(time.Time{})
	if err != nil {
		return "", err
	}
	sealed, err := r.Secrets.Seal(string(key.Private.Seed()))
	if err != nil {
		return "", fmt.Errorf("license signing key: %w", err)
	}
	added := key.ID
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(?, 0)", licenseKeysLockSpace); err != nil {
			return fmt.Errorf("lock license signing keys: %w", err)
		}
		if onlyFirst {
			exists, err := tx.NewSelect().Table("license_signing_keys").Exists(ctx)
			if err != nil {
				return err
			}
			if exists {
				added = ""
				return nil
			}
		}
		_, err := tx.ExecContext(ctx, "INSERT INTO license_signing_keys (kid, private_key, public_key) VALUES (?, ?, ?)",
			key.ID, sealed, []byte(key.Public))
		return err
	})
	if err != nil {
		return "", fmt.Errorf("add license signing key: %w", err)
	}
	return added, nil
}
