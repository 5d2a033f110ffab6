package resolvers

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/uptrace/bun"

	"commerce/db"
	"commerce/graph/model"
	"commerce/licensing"
)

// What every license surface shares (CONTRACT §20): issuing an order's key,
// reading keys with their activations, and the seller's and the public
// views of a key. The seller's API is in license_keys.go, the public
// activate/validate/deactivate in license_public.go, the signing keys in
// licensing.go.

// issueLicenseKey gives o its license key when o's listing is licensed (the
// terms as the listing has them now), and returns its id and key; ok is
// false for a listing without a license. Issuing twice (a retried
// fulfilment) returns the key the order already has.
func (r *Resolver) issueLicenseKey(ctx context.Context, tx db.Tx, o *db.Order, now time.Time) (id, key string, ok bool, err error) {
	var enabled bool
	var s licensing.Settings
	if err := tx.River.QueryRow(ctx, `SELECT license_enabled, license_activation_limit, license_expires_after_days, license_key_prefix
		FROM listings WHERE id = $1`, o.ListingID).Scan(&enabled, &s.ActivationLimit, &s.ExpiresAfterDays, &s.KeyPrefix); err != nil {
		return "", "", false, fmt.Errorf("read the listing's license: %w", err)
	}
	if !enabled {
		return "", "", false, nil
	}
	var sealed []byte
	err = tx.River.QueryRow(ctx, `SELECT id, key_sealed FROM license_keys WHERE order_id = $1`, o.ID).Scan(&id, &sealed)
	if err == nil {
		key, err = r.Secrets.Open(sealed)
		return id, key, err == nil, err
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return "", "", false, fmt.Errorf("read the order's license key: %w", err)
	}
	if key, err = licensing.NewKey(s.KeyPrefix); err != nil {
		return "", "", false, err
	}
	if sealed, err = r.Secrets.Seal(key); err != nil {
		return "", "", false, err
	}
	k := &db.LicenseKey{ID: db.NewID("lic"), AccountID: o.AccountID, ListingID: o.ListingID, OrderID: o.ID,
		CustomerID: o.CustomerID, BuyerEmail: strings.ToLower(o.BuyerEmail), KeyHash: licensing.Hash(key), KeySealed: sealed,
		Status: db.LicenseActive, ActivationLimit: s.ActivationLimit, ExpiresAt: s.KeyExpiry(now), CreatedAt: now, UpdatedAt: now}
	if o.BillingReason != nil {
		// A membership's key lasts while the membership does (CONTRACT
		// §26): its expiry is set when it is canceled or ends.
		k.ExpiresAt = nil
	}
	if _, err := tx.NewInsert().Model(k).Exec(ctx); err != nil {
		return "", "", false, fmt.Errorf("issue license key: %w", err)
	}
	return k.ID, key, true, nil
}

// revokeLicenseKeys revokes the keys of order orderID (a confirmed refund,
// a lost dispute): they stop activating and validating at once.
func revokeLicenseKeys(ctx context.Context, tx db.Tx, orderID string) error {
	if _, err := tx.River.Exec(ctx, `UPDATE license_keys SET status = 'revoked', updated_at = now()
		WHERE order_id = $1 AND status <> 'revoked'`, orderID); err != nil {
		return fmt.Errorf("revoke license keys: %w", err)
	}
	return nil
}

// loadLicenseActivations returns the current activations of the keys ids,
// by key, oldest first.
func loadLicenseActivations(ctx context.Context, idb bun.IDB, ids ...string) (map[string][]*db.LicenseActivation, error) {
	out := make(map[string][]*db.LicenseActivation, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var acts []*db.LicenseActivation
	if err := idb.NewSelect().Model(&acts).Where("license_key_id IN (?)", bun.List(ids)).
		Order("license_key_id", "created_at", "id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("read license activations: %w", err)
	}
	for _, a := range acts {
		out[a.LicenseKeyID] = append(out[a.LicenseKeyID], a)
	}
	return out, nil
}

// licenseKeyStatus is k's status at now (expired computed).
func licenseKeyStatus(k *db.LicenseKey, now time.Time) model.LicenseKeyStatus {
	return model.LicenseKeyStatus(licensing.Status(k.Status, k.ExpiresAt, now))
}

// toLicenseKeyModel is k as its seller sees it, with its current
// activations acts (the key opened from its seal).
func (r *Resolver) toLicenseKeyModel(k *db.LicenseKey, acts []*db.LicenseActivation, now time.Time) (*model.LicenseKey, error) {
	key, err := r.Secrets.Open(k.KeySealed)
	if err != nil {
		return nil, fmt.Errorf("open license key %s: %w", k.ID, err)
	}
	m := &model.LicenseKey{Object: "license_key", ID: k.ID, Key: key, ListingID: k.ListingID, OrderID: k.OrderID,
		CustomerID: k.CustomerID, Status: licenseKeyStatus(k, now), ActivationLimit: k.ActivationLimit,
		ActivationsCount: k.ActivationsCount, ExpiresAt: utc(k.ExpiresAt), LastValidatedAt: utc(k.LastValidatedAt),
		Activations: make([]*model.LicenseActivation, 0, len(acts)), CreatedAt: k.CreatedAt.UTC(), UpdatedAt: k.UpdatedAt.UTC(),
		AccountID: k.AccountID}
	for _, a := range acts {
		m.Activations = append(m.Activations, toLicenseActivationModel(a))
	}
	return m, nil
}

// toPublicLicenseKey is k as the public API shows it.
func toPublicLicenseKey(k *db.LicenseKey, now time.Time) *model.PublicLicenseKey {
	return &model.PublicLicenseKey{Object: "license_key", ID: k.ID, Status: licenseKeyStatus(k, now), ListingID: k.ListingID,
		ActivationLimit: k.ActivationLimit, ActivationsCount: k.ActivationsCount, ExpiresAt: utc(k.ExpiresAt)}
}

func toLicenseActivationModel(a *db.LicenseActivation) *model.LicenseActivation {
	m := &model.LicenseActivation{Object: "license_activation", ID: a.ID, Fingerprint: a.Fingerprint, Label: a.Label,
		Metadata: make(map[string]any, len(a.Metadata)), CreatedAt: a.CreatedAt.UTC(), LastSeenAt: a.LastSeenAt.UTC()}
	for k, v := range a.Metadata {
		m.Metadata[k] = v
	}
	return m
}
