package resolvers

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"commerce/db"
	"commerce/problem"
)

// The buyer's side of license keys (CONTRACT §20, issue 22 "Buyers"): the
// keys of an order on its download page, with the devices each is active
// on, and the Deactivate button that frees a device. The page's link (the
// access grant) is the buyer's credential, as for the downloads.

// DownloadLicenseKey is a license key on the download page.
type DownloadLicenseKey struct {
	ID  string
	Key string
	// Status is active, disabled, revoked or expired (computed now).
	Status          string
	ExpiresAt       *time.Time
	ActivationLimit *int
	// Activations are the devices the key is active on, oldest first.
	Activations []DownloadActivation
	// DeactivateURL is where the page's Deactivate buttons post.
	DeactivateURL string
}

// DownloadActivation is one device on the download page.
type DownloadActivation struct {
	ID          string
	Label       string
	Fingerprint string
	// Since and LastSeen are dates as buyers read them ("Nov 26, 2026").
	Since    string
	LastSeen string
}

// ShortFingerprint tells two devices with the same label apart: the
// fingerprint's first 8 characters (and "…" when it is longer).
func (a DownloadActivation) ShortFingerprint() string {
	if r := []rune(a.Fingerprint); len(r) > 8 {
		return string(r[:8]) + "…"
	}
	return a.Fingerprint
}

// Expires is the key's expiry as buyers read it ("" when it never
// expires): "March 4, 2027 09:30 UTC".
func (k DownloadLicenseKey) Expires() string {
	if k.ExpiresAt == nil {
		return ""
	}
	return buyerTime(*k.ExpiresAt)
}

// Devices says how many devices the key is on, out of how many:
// "Active on 2 of 3 devices", "Active on 1 device (no limit)",
// "Not active on any device yet (up to 3)".
func (k DownloadLicenseKey) Devices() string {
	n := len(k.Activations)
	limit := "no limit"
	if k.ActivationLimit != nil {
		limit = fmt.Sprintf("up to %d", *k.ActivationLimit)
	}
	switch {
	case n == 0:
		return "Not active on any device yet (" + limit + ")"
	case k.ActivationLimit != nil:
		return fmt.Sprintf("Active on %d of %d %s", n, *k.ActivationLimit, plural(*k.ActivationLimit, "device", "devices"))
	}
	return fmt.Sprintf("Active on %d %s (no limit)", n, plural(n, "device", "devices"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func buyerTime(t time.Time) string { return t.UTC().Format("January 2, 2006 15:04") + " UTC" }

func buyerDate(t time.Time) string { return t.UTC().Format("Jan 2, 2006") }

// downloadLicenseKeys reads the license keys of order orderID, opened from
// their seals, with their devices, for the download page of token.
func (r *Resolver) downloadLicenseKeys(ctx context.Context, token, orderID string) ([]DownloadLicenseKey, error) {
	keys, err := r.orderLicenseKeys(ctx, []string{orderID}, func(keyID string) string {
		return "/d/" + token + "/licenses/" + keyID + "/deactivate"
	})
	return keys[orderID], err
}

// orderLicenseKeys reads the license keys of the orders orderIDs (by order
// id, oldest key first), opened from their seals, with their devices, in
// two queries whatever the number of orders; deactivateURL is where a
// key's Deactivate buttons post (the download page's, or the library's).
func (r *Resolver) orderLicenseKeys(ctx context.Context, orderIDs []string, deactivateURL func(keyID string) string) (map[string][]DownloadLicenseKey, error) {
	if len(orderIDs) == 0 {
		return nil, nil
	}
	var rows []*db.LicenseKey
	if err := r.DB.NewSelect().Model(&rows).Where("order_id IN (?)", bun.List(orderIDs)).Order("id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("read the orders' license keys: %w", err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	ids := make([]string, len(rows))
	for i, k := range rows {
		ids[i] = k.ID
	}
	acts, err := loadLicenseActivations(ctx, r.DB, ids...)
	if err != nil {
		return nil, err
	}
	now := r.Now()
	out := make(map[string][]DownloadLicenseKey, len(orderIDs))
	for _, k := range rows {
		key, err := r.Secrets.Open(k.KeySealed)
		if err != nil {
			return nil, fmt.Errorf("open license key %s: %w", k.ID, err)
		}
		d := DownloadLicenseKey{ID: k.ID, Key: key, Status: string(licenseKeyStatus(k, now)), ExpiresAt: utc(k.ExpiresAt),
			ActivationLimit: k.ActivationLimit, DeactivateURL: deactivateURL(k.ID)}
		for _, a := range acts[k.ID] {
			label := strings.TrimSpace(deref(a.Label, ""))
			if label == "" {
				label = "Unnamed device"
			}
			d.Activations = append(d.Activations, DownloadActivation{ID: a.ID, Label: label, Fingerprint: a.Fingerprint,
				Since: buyerDate(a.CreatedAt), LastSeen: buyerDate(a.LastSeenAt)})
		}
		out[k.OrderID] = append(out[k.OrderID], d)
	}
	return out, nil
}

// DeactivateFromDownload frees device activationID of key keyID of the
// order whose download page token is: the buyer's Deactivate button. It
// works whatever the key's status (a buyer can always free a device), and
// records license_key.deactivated like every deactivation. Errors:
// not_found (the link, the key not this order's, the device not this
// key's or already freed), ErrGone (the link was revoked: refund, lost
// dispute).
func (r *Resolver) DeactivateFromDownload(ctx context.Context, token, keyID, activationID string) error {
	o, err := r.grantOrder(ctx, token)
	if err != nil {
		return err
	}
	notFound := problem.NotFoundf("That device is not active on this license key any more.")
	if !db.ValidID("lic", keyID) || !db.ValidID("act", activationID) {
		return notFound
	}
	return r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		k := new(db.LicenseKey)
		err := db.NotFound(tx.NewSelect().Model(k).Where("id = ?", keyID).Where("order_id = ?", o.ID).For("UPDATE").Scan(ctx))
		if errors.Is(err, db.ErrNotFound) {
			return notFound
		}
		if err != nil {
			return fmt.Errorf("read license key: %w", err)
		}
		a := new(db.LicenseActivation)
		err = db.NotFound(tx.NewSelect().Model(a).Where("id = ?", activationID).Where("license_key_id = ?", k.ID).Scan(ctx))
		if errors.Is(err, db.ErrNotFound) {
			return notFound
		}
		if err != nil {
			return fmt.Errorf("read license activation: %w", err)
		}
		return r.deactivateLicenseActivation(ctx, tx, k, a)
	})
}
