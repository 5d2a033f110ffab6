package resolvers

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"commerce/db"
	"commerce/graph/model"
	"commerce/licensing"
	"commerce/problem"
)

// The public license API (CONTRACT §20): what a seller's app calls with no
// API key to activate a buyer's key on a device, validate it, and free a
// device. The key is the credential: it is found by its hash, and nothing
// of the order or the buyer is shown.
//
// Limits: the route's group "licenses" counts 60 a minute per client IP
// (REST's middleware, GraphQL's per-field charge); each use case here adds
// "license_key", 20 a minute per key (its hash; only for a well-formed
// key, before any query), and reports it so that REST can send the
// RateLimit-* headers of the binding one (LimitReport).
//
// Activations never exceed a key's limit, however many arrive at once:
// activate inserts the device's row first (ON CONFLICT on (key,
// fingerprint) DO NOTHING), then takes a slot with one conditional UPDATE
// of the key's row (active, not expired, count below the limit). The row
// lock serializes concurrent activations of one key, and PostgreSQL
// re-evaluates the condition on the row the previous one committed, so the
// last slot goes to exactly one of them; a refusal rolls back the device's
// row with it. The same fingerprint twice waits on the unique index for
// the first and then finds its row: one activation, 200. The CHECK
// (activations_count <= activation_limit) is never what refuses.

// The license key event types (CONTRACT §20): delivered only to endpoints
// that list them.
const (
	EventLicenseKeyActivated   = "license_key.activated"
	EventLicenseKeyDeactivated = "license_key.deactivated"
)

// Bounds of what an app sends about a device.
const (
	maxFingerprint     = 200
	maxActivationLabel = 200
)

// licenseSlotTries bounds how often activate tries again when its slot
// was refused and the key, read again, is active with a free slot (a
// deactivation committed in between).
const licenseSlotTries = 3

// LibraryURL is the buyer's library (CONTRACT §21), where a buyer sees
// their keys and deactivates devices: the manage_url of
// activation_limit_reached.
func (r *Resolver) LibraryURL() string { return r.BaseURL + "/library" }

// errUnknownLicense is the not_found of a key that is malformed or matches
// none (the two are not told apart).
var errUnknownLicense = problem.New(problem.NotFound,
	"No license key matches. Check that it was copied whole, as the seller sent it (case, spaces and dashes do not matter).")

// openPublicLicense normalizes the key a caller typed and charges the
// per-key limit: a malformed key is not_found without touching the limit
// (counted per client IP only), a well-formed one is counted by its hash
// whether or not it exists. Errors: not_found, rate_limited.
func (r *Resolver) openPublicLicense(ctx context.Context, typed string) (hash []byte, err error) {
	key, ok := licensing.Normalize(typed)
	if !ok {
		return nil, errUnknownLicense
	}
	h := licensing.Hash(key)
	if err := r.limit(ctx, "license_key", "license:"+hex.EncodeToString(h), "Too many requests for this license key."); err != nil {
		return nil, err
	}
	return h, nil
}

// licenseKeyByHash reads the key whose hash is h. Errors: not_found.
func licenseKeyByHash(ctx context.Context, tx db.Tx, h []byte) (*db.LicenseKey, error) {
	k := new(db.LicenseKey)
	err := tx.NewSelect().Model(k).Where("key_hash = ?", h).Scan(ctx)
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return nil, errUnknownLicense
	}
	if err != nil {
		return nil, fmt.Errorf("read license key: %w", err)
	}
	return k, nil
}

// checkFingerprint adds fingerprint's failure to f: 1 to 200 characters.
func checkFingerprint(f *problem.Fields, fingerprint string) {
	if n := utf8.RuneCountInString(fingerprint); n < 1 || n > maxFingerprint {
		f.Addf("fingerprint", "fingerprint must be 1 to %d characters", maxFingerprint)
	}
}

// licenseInactive is the license_inactive problem of a key whose status
// (at now) is not active, or nil for an active key.
func (r *Resolver) licenseInactive(k *db.LicenseKey, now time.Time) error {
	var detail string
	status := licensing.Status(k.Status, k.ExpiresAt, now)
	switch status {
	case licensing.StatusActive:
		return nil
	case licensing.StatusDisabled:
		detail = "This license key was disabled by its seller; ask the seller to enable it."
	case licensing.StatusRevoked:
		detail = "This license key was revoked: its order was refunded or its payment disputed. Buy the product again to get a new key."
	default:
		detail = fmt.Sprintf("This license key expired on %s; ask the seller to extend it or buy the product again.",
			k.ExpiresAt.UTC().Format(time.RFC3339))
	}
	return problem.New(problem.LicenseInactive, detail).With("current_status", status)
}

// activationLimitReached is the activation_limit_reached problem of k.
func (r *Resolver) activationLimitReached(k *db.LicenseKey) error {
	limit := 0
	if k.ActivationLimit != nil {
		limit = *k.ActivationLimit
	}
	return problem.Newf(problem.ActivationLimitReached,
		"This license key is active on %d of %d devices; deactivate one at %s or ask the seller to raise the limit.",
		k.ActivationsCount, limit, r.LibraryURL()).
		With("current_count", k.ActivationsCount).With("max_count", limit).With("manage_url", r.LibraryURL())
}

// licenseToken signs the offline token of k (CONTRACT §20), about the
// device a (nil: the key itself).
func (r *Resolver) licenseToken(ctx context.Context, k *db.LicenseKey, a *db.LicenseActivation) (*string, error) {
	c := licensing.Claims{Subject: k.ID, Listing: k.ListingID}
	if a != nil {
		c.Activation, c.Fingerprint = &a.ID, &a.Fingerprint
	}
	if k.ExpiresAt != nil {
		exp := k.ExpiresAt.Unix()
		c.LicenseExpiry = &exp
	}
	tok, err := r.SignLicenseToken(ctx, c)
	if err != nil {
		return nil, fmt.Errorf("sign license token: %w", err)
	}
	return &tok, nil
}

// ActivateLicense activates a key on a device (POST /v1/licenses/activate):
// created is true for a new activation, false when the fingerprint was
// already active on the key (the same activation, its last_seen_at
// refreshed; its label and metadata stay those of the first activation).
// The key's last_validated_at is set either way; a new activation records
// license_key.activated in its transaction. The checks, in order: the
// limits, the key (not_found), the fields, the key's status
// (license_inactive), the listing (validation_error at listing_id), the
// free slot (activation_limit_reached). Errors: not_found,
// validation_error, license_inactive (current_status),
// activation_limit_reached (current_count, max_count, manage_url),
// rate_limited.
func (r *Resolver) ActivateLicense(ctx context.Context, in model.ActivateLicenseInput) (out *model.LicenseValidation, created bool, err error) {
	hash, err := r.openPublicLicense(ctx, in.Key)
	if err != nil {
		return nil, false, err
	}
	var f problem.Fields
	checkFingerprint(&f, in.Fingerprint)
	if in.Label != nil && utf8.RuneCountInString(*in.Label) > maxActivationLabel {
		f.Addf("label", "label must be at most %d characters", maxActivationLabel)
	}
	meta := checkMetadata(&f, in.Metadata)
	if err := f.Err(); err != nil {
		return nil, false, err
	}
	now := r.Now()
	var k *db.LicenseKey
	var a *db.LicenseActivation
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		var err error
		if k, err = licenseKeyByHash(ctx, tx, hash); err != nil {
			return err
		}
		if err := r.licenseInactive(k, now); err != nil {
			return err
		}
		if in.ListingID != nil && *in.ListingID != k.ListingID {
			return problem.Validation("listing_id", "This license key is for another listing; check that the app asks for the key of the product it sells.")
		}
		a, created, err = r.activate(ctx, tx, k, in.Fingerprint, in.Label, meta, now)
		return err
	})
	if err != nil {
		return nil, false, err
	}
	tok, err := r.licenseToken(ctx, k, a)
	if err != nil {
		return nil, false, err
	}
	return &model.LicenseValidation{Object: "license_validation", Valid: true, Code: model.LicenseValidationCodeValid,
		LicenseKey: toPublicLicenseKey(k, now), Activation: toLicenseActivationModel(a), Token: tok}, created, nil
}

// activate gives k the device fingerprint in tx, or finds it there (see the
// top of the file for why this never exceeds the limit); k becomes the key
// as the transaction leaves it.
func (r *Resolver) activate(ctx context.Context, tx db.Tx, k *db.LicenseKey, fingerprint string, label *string,
	meta map[string]string, now time.Time) (*db.LicenseActivation, bool, error) {
	for range licenseSlotTries {
		a := &db.LicenseActivation{ID: db.NewID("act"), AccountID: k.AccountID, LicenseKeyID: k.ID, Fingerprint: fingerprint, Label: label,
			Metadata: meta, CreatedAt: now, LastSeenAt: now}
		res, err := tx.NewInsert().Model(a).On("CONFLICT (license_key_id, fingerprint) DO NOTHING").Exec(ctx)
		if err != nil {
			return nil, false, fmt.Errorf("insert license activation: %w", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return nil, false, fmt.Errorf("insert license activation: %w", err)
		}
		if n == 1 {
			return a, true, r.takeLicenseSlot(ctx, tx, k, a, now)
		}
		// Already active on this device: the same activation.
		err = tx.NewRaw(`UPDATE license_activations SET last_seen_at = ? WHERE license_key_id = ? AND fingerprint = ? RETURNING *`,
			now, k.ID, fingerprint).Scan(ctx, a)
		if errors.Is(db.NotFound(err), db.ErrNotFound) {
			continue // deactivated since the insert looked: insert again
		}
		if err != nil {
			return nil, false, fmt.Errorf("refresh license activation: %w", err)
		}
		err = tx.NewRaw(`UPDATE license_keys SET last_validated_at = ? WHERE id = ? AND status = 'active'
			AND (expires_at IS NULL OR expires_at > ?) RETURNING *`, now, k.ID, now).Scan(ctx, k)
		if errors.Is(db.NotFound(err), db.ErrNotFound) {
			if err := r.slotRefusal(ctx, tx, k, now); err != nil {
				return nil, false, err
			}
			return nil, false, errors.New("activate license: the key is active but its update matched nothing")
		}
		if err != nil {
			return nil, false, fmt.Errorf("mark license key validated: %w", err)
		}
		return a, false, nil
	}
	return nil, false, errors.New("activate license: the device's activation kept changing")
}

// takeLicenseSlot counts the new activation a of k with one conditional
// update (k becomes the key as updated) and records license_key.activated;
// a refusal (license_inactive, activation_limit_reached) rolls a back with
// the transaction. A refusal that finds the key active with a free slot
// raced a deactivation that committed meanwhile: the update is tried again.
func (r *Resolver) takeLicenseSlot(ctx context.Context, tx db.Tx, k *db.LicenseKey, a *db.LicenseActivation, now time.Time) error {
	for range licenseSlotTries {
		err := tx.NewRaw(`UPDATE license_keys SET activations_count = activations_count + 1, last_validated_at = ?, updated_at = ?
			WHERE id = ? AND status = 'active' AND (expires_at IS NULL OR expires_at > ?)
				AND (activation_limit IS NULL OR activations_count < activation_limit)
			RETURNING *`, now, now, k.ID, now).Scan(ctx, k)
		if errors.Is(db.NotFound(err), db.ErrNotFound) {
			if err := r.slotRefusal(ctx, tx, k, now); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return fmt.Errorf("take license slot: %w", err)
		}
		return r.recordLicenseEvent(ctx, tx, EventLicenseKeyActivated, k, a, now)
	}
	return r.activationLimitReached(k)
}

// slotRefusal reads k again after its conditional update matched nothing
// and says why: license_inactive, activation_limit_reached, or nil when
// the key is active with a free slot (a concurrent deactivation).
func (r *Resolver) slotRefusal(ctx context.Context, tx db.Tx, k *db.LicenseKey, now time.Time) error {
	if err := tx.NewSelect().Model(k).WherePK().Scan(ctx); err != nil {
		return fmt.Errorf("read license key: %w", err)
	}
	if err := r.licenseInactive(k, now); err != nil {
		return err
	}
	if k.ActivationLimit != nil && k.ActivationsCount >= *k.ActivationLimit {
		return r.activationLimitReached(k)
	}
	return nil
}

// ValidateLicense checks a key (POST /v1/licenses/validate): 200 for any
// known key, valid or with the code saying why not. When several apply,
// the first of REVOKED, DISABLED, EXPIRED, LISTING_MISMATCH and
// NOT_ACTIVATED is the code (what the key is comes before what the app
// asked about). Without a fingerprint the key itself is checked
// (activation null; the token's act and fpr null). The key's
// last_validated_at and the device's last_seen_at are set whatever the
// answer. Errors: not_found, validation_error (fingerprint),
// rate_limited.
func (r *Resolver) ValidateLicense(ctx context.Context, in model.ValidateLicenseInput) (*model.LicenseValidation, error) {
	hash, err := r.openPublicLicense(ctx, in.Key)
	if err != nil {
		return nil, err
	}
	if in.Fingerprint != nil {
		var f problem.Fields
		checkFingerprint(&f, *in.Fingerprint)
		if err := f.Err(); err != nil {
			return nil, err
		}
	}
	now := r.Now()
	k := new(db.LicenseKey)
	var a *db.LicenseActivation
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		err := tx.NewRaw(`UPDATE license_keys SET last_validated_at = ? WHERE key_hash = ? RETURNING *`, now, hash).Scan(ctx, k)
		if errors.Is(db.NotFound(err), db.ErrNotFound) {
			return errUnknownLicense
		}
		if err != nil {
			return fmt.Errorf("mark license key validated: %w", err)
		}
		if in.Fingerprint == nil {
			return nil
		}
		a = new(db.LicenseActivation)
		err = tx.NewRaw(`UPDATE license_activations SET last_seen_at = ? WHERE license_key_id = ? AND fingerprint = ? RETURNING *`,
			now, k.ID, *in.Fingerprint).Scan(ctx, a)
		if errors.Is(db.NotFound(err), db.ErrNotFound) {
			a = nil
			return nil
		}
		if err != nil {
			return fmt.Errorf("refresh license activation: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := &model.LicenseValidation{Object: "license_validation", Code: validationCode(k, a, in, now),
		LicenseKey: toPublicLicenseKey(k, now)}
	if a != nil {
		out.Activation = toLicenseActivationModel(a)
	}
	if out.Code == model.LicenseValidationCodeValid {
		out.Valid = true
		if out.Token, err = r.licenseToken(ctx, k, a); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// validationCode is what validate answers about k for the device a (nil:
// not active on the fingerprint given, or none given).
func validationCode(k *db.LicenseKey, a *db.LicenseActivation, in model.ValidateLicenseInput, now time.Time) model.LicenseValidationCode {
	switch licensing.Status(k.Status, k.ExpiresAt, now) {
	case licensing.StatusRevoked:
		return model.LicenseValidationCodeRevoked
	case licensing.StatusDisabled:
		return model.LicenseValidationCodeDisabled
	case licensing.StatusExpired:
		return model.LicenseValidationCodeExpired
	}
	switch {
	case in.ListingID != nil && *in.ListingID != k.ListingID:
		return model.LicenseValidationCodeListingMismatch
	case in.Fingerprint != nil && a == nil:
		return model.LicenseValidationCodeNotActivated
	}
	return model.LicenseValidationCodeValid
}

// DeactivateLicense frees a device from a key (POST
// /v1/licenses/deactivate), named by exactly one of its fingerprint and its
// activation id, whatever the key's status (a buyer can always free a
// device). Errors: validation_error (neither or both), not_found (the key,
// or no such activation on it), rate_limited.
func (r *Resolver) DeactivateLicense(ctx context.Context, in model.DeactivateLicenseInput) error {
	hash, err := r.openPublicLicense(ctx, in.Key)
	if err != nil {
		return err
	}
	switch {
	case in.Fingerprint == nil && in.ActivationID == nil:
		return problem.Validation("fingerprint", "Give the device's fingerprint or its activation_id.")
	case in.Fingerprint != nil && in.ActivationID != nil:
		return problem.Validation("activation_id", "Give either fingerprint or activation_id, not both.")
	}
	return r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		k, err := licenseKeyByHash(ctx, tx, hash)
		if err != nil {
			return err
		}
		a := new(db.LicenseActivation)
		q := tx.NewSelect().Model(a).Where("license_key_id = ?", k.ID)
		if in.Fingerprint != nil {
			q = q.Where("fingerprint = ?", *in.Fingerprint)
		} else {
			q = q.Where("id = ?", *in.ActivationID)
		}
		err = q.Scan(ctx)
		if errors.Is(db.NotFound(err), db.ErrNotFound) {
			return errNoActivation
		}
		if err != nil {
			return fmt.Errorf("read license activation: %w", err)
		}
		return r.deactivateLicenseActivation(ctx, tx, k, a)
	})
}

var errNoActivation = problem.New(problem.NotFound, "The license key is not active on that device (no such fingerprint or activation_id).")

// deactivateLicenseActivation frees the device a of key k in tx: it
// deletes the activation, gives its slot back (k is updated in place:
// activations_count, updated_at) and records license_key.deactivated with
// the key as it is now and a as data.activation. It is the one
// deactivation: the public API's, the seller's DELETE
// /v1/license-keys/{id}/activations/{activation_id} and the buyer's
// Deactivate button call it, each having found k and a (a must be k's; the
// caller decides who may). Errors: not_found when a was deactivated
// meanwhile (nothing changes).
func (r *Resolver) deactivateLicenseActivation(ctx context.Context, tx db.Tx, k *db.LicenseKey, a *db.LicenseActivation) error {
	now := r.Now()
	res, err := tx.NewDelete().Model((*db.LicenseActivation)(nil)).Where("id = ?", a.ID).Where("license_key_id = ?", k.ID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("delete license activation: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("delete license activation: %w", err)
	} else if n == 0 {
		return errNoActivation
	}
	if err := tx.NewRaw(`UPDATE license_keys SET activations_count = activations_count - 1, updated_at = ?
		WHERE id = ? RETURNING *`, now, k.ID).Scan(ctx, k); err != nil {
		return fmt.Errorf("give back license slot: %w", err)
	}
	return r.recordLicenseEvent(ctx, tx, EventLicenseKeyDeactivated, k, a, now)
}

// recordLicenseEvent records typ about k and its device a in tx (CONTRACT
// §20): order_id is the key's order, data the key as its seller sees it
// (with its current activations) plus the device concerned as
// data.activation.
func (r *Resolver) recordLicenseEvent(ctx context.Context, tx db.Tx, typ string, k *db.LicenseKey, a *db.LicenseActivation, now time.Time) error {
	acts, err := loadLicenseActivations(ctx, tx.Tx, k.ID)
	if err != nil {
		return err
	}
	m, err := r.toLicenseKeyModel(k, acts[k.ID], now)
	if err != nil {
		return err
	}
	data, err := json.Marshal(struct {
		*model.LicenseKey
		Activation *model.LicenseActivation `json:"activation"`
	}{m, toLicenseActivationModel(a)})
	if err != nil {
		return fmt.Errorf("encode %s: %w", typ, err)
	}
	return r.recordEvents(ctx, tx, &db.Event{ID: db.NewID("evt"), AccountID: k.AccountID, Type: typ,
		ListingID: &k.ListingID, OrderID: &k.OrderID, Data: data})
}

// ActivateLicense is the GraphQL form of POST /v1/licenses/activate.
func (x mutationResolver) ActivateLicense(ctx context.Context, input model.ActivateLicenseInput) (*model.LicenseValidation, error) {
	out, _, err := x.Resolver.ActivateLicense(ctx, input)
	return out, err
}

// DeactivateLicense is the GraphQL form of POST /v1/licenses/deactivate.
func (x mutationResolver) DeactivateLicense(ctx context.Context, input model.DeactivateLicenseInput) (*bool, error) {
	return done(true, x.Resolver.DeactivateLicense(ctx, input))
}
