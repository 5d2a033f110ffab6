package resolvers

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"commerce/db"
	"commerce/graph/model"
	"commerce/input"
	"commerce/licensing"
	"commerce/problem"
)

// The seller's license keys (CONTRACT §20): GET /v1/license-keys with its
// filters, one key, PUT (status, activation_limit, expires_at), and the
// removal of a device (DELETE …/activations/{activation_id}); GraphQL
// viewer.licenseKeys, licenseKey, updateLicenseKey, deleteLicenseActivation.
// Another account's key is not_found everywhere.

// maxEmailFilter bounds the email filter (an address is at most 254
// characters; a little room for what people paste).
const maxEmailFilter = 320

func licenseKeyNotFound(id string) *problem.Problem {
	return problem.NotFoundf("No license key %q on this account.", id)
}

// loadLicenseKey reads a license key of the account, locked for update
// when lock is set. Errors: not_found.
func loadLicenseKey(ctx context.Context, idb bun.IDB, accountID, id string, lock bool) (*db.LicenseKey, error) {
	if !db.ValidID("lic", id) {
		return nil, licenseKeyNotFound(id)
	}
	k := new(db.LicenseKey)
	q := idb.NewSelect().Model(k).Where("id = ?", id).Where("account_id = ?", accountID)
	if lock {
		q = q.For("NO KEY UPDATE")
	}
	if err := db.NotFound(q.Scan(ctx)); err != nil {
		if errors.Is(err, db.ErrNotFound) {
			return nil, licenseKeyNotFound(id)
		}
		return nil, fmt.Errorf("load license key: %w", err)
	}
	return k, nil
}

// toLicenseKeyModels is keys as their seller sees them, with their
// current activations (one query for all).
func (r *Resolver) toLicenseKeyModels(ctx context.Context, idb bun.IDB, keys []*db.LicenseKey) ([]*model.LicenseKey, error) {
	ids := make([]string, len(keys))
	for i, k := range keys {
		ids[i] = k.ID
	}
	acts, err := loadLicenseActivations(ctx, idb, ids...)
	if err != nil {
		return nil, err
	}
	now := r.Now()
	out := make([]*model.LicenseKey, len(keys))
	for i, k := range keys {
		if out[i], err = r.toLicenseKeyModel(k, acts[k.ID], now); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// LicenseKey returns one of the caller's license keys with its activations.
// Errors: authentication_error, not_found (another account's too).
func (r *Resolver) LicenseKey(ctx context.Context, id string) (*model.LicenseKey, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	k, err := loadLicenseKey(ctx, r.DB, p.AccountID, id, false)
	if err != nil {
		return nil, err
	}
	out, err := r.toLicenseKeyModels(ctx, r.DB, []*db.LicenseKey{k})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// licenseStatusSQL keeps the keys whose status at ? (given twice) is the
// one compared: licensing.Status in SQL (an active key whose expires_at is
// not after now is expired).
const licenseStatusSQL = `CASE WHEN status = 'active' AND expires_at IS NOT NULL AND expires_at <= ? THEN 'expired'
	ELSE status END = ?`

// licenseKeysPage reads a keyset page of the caller's license keys, newest
// first. limitParam and cursorParam name the paging arguments in errors
// (limit/cursor in REST, first/after in GraphQL). Errors:
// authentication_error, validation_error (limit, cursor, listing, order,
// status, key, email).
func (r *Resolver) licenseKeysPage(ctx context.Context, limit *int, cursor *string, f model.LicenseKeyFilter, limitParam, cursorParam string) ([]*model.LicenseKey, bool, *string, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, false, nil, err
	}
	pg, err := parsePage(limit, cursor, "lic")
	if err != nil {
		return nil, false, nil, renameParam(err, map[string]string{"limit": limitParam, "cursor": cursorParam})
	}
	var rows []*db.LicenseKey
	q := r.DB.NewSelect().Model(&rows).Where("account_id = ?", p.AccountID).OrderExpr("id DESC").Limit(int64(pg.limit + 1))
	if pg.after != "" {
		q = q.Where("id < ?", pg.after)
	}
	if l := f.ListingID; l != nil {
		if !db.ValidID("lst", *l) {
			return nil, false, nil, problem.Validation("listing", "listing must be a listing id of the form lst_…")
		}
		q = q.Where("listing_id = ?", *l)
	}
	if o := f.OrderID; o != nil {
		if !db.ValidID("ord", *o) {
			return nil, false, nil, problem.Validation("order", "order must be an order id of the form ord_…")
		}
		q = q.Where("order_id = ?", *o)
	}
	if s := f.Status; s != nil {
		if !s.Valid() {
			return nil, false, nil, problem.Validation("status", "status must be active, disabled, revoked or expired")
		}
		now := r.Now()
		q = q.Where(licenseStatusSQL, now, string(*s))
	}
	if k := f.Key; k != nil {
		key, ok := licensing.Normalize(*k)
		if !ok {
			return nil, false, nil, problem.Validation("key",
				"key is not a license key: give the key as the buyer has it (four groups of five letters and digits, after the prefix if any)")
		}
		q = q.Where("key_hash = ?", licensing.Hash(key))
	}
	if e := f.Email; e != nil {
		email := strings.ToLower(strings.TrimSpace(*e))
		if email == "" || utf8.RuneCountInString(email) > maxEmailFilter || input.Text(email) != nil {
			return nil, false, nil, problem.Validation("email", "email must be the buyer's email address (at most 320 characters)")
		}
		q = q.Where("buyer_email = ?", email)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, false, nil, fmt.Errorf("list license keys: %w", err)
	}
	rows, more, next := trim(rows, pg.limit, func(k *db.LicenseKey) string { return k.ID })
	out, err := r.toLicenseKeyModels(ctx, r.DB, rows)
	return out, more, next, err
}

// LicenseKeys lists the caller's license keys, newest first, filtered by
// listing, order, status (now), key (as typed: normalized) and buyer email
// (without regard to case). Errors: authentication_error, validation_error
// (limit, cursor, listing, order, status, key, email).
func (r *Resolver) LicenseKeys(ctx context.Context, limit *int, cursor *string, f model.LicenseKeyFilter) (*model.LicenseKeyList, error) {
	data, more, next, err := r.licenseKeysPage(ctx, limit, cursor, f, "limit", "cursor")
	if err != nil {
		return nil, err
	}
	return &model.LicenseKeyList{Object: "list", Data: data, HasMore: more, NextCursor: next}, nil
}

// LicenseKeysConnection is viewer.licenseKeys in GraphQL: the same page as
// LicenseKeys, as a Relay connection. Errors: as LicenseKeys, with params
// first and after.
func (r *Resolver) LicenseKeysConnection(ctx context.Context, first *int, after *string, f model.LicenseKeyFilter) (*model.LicenseKeyConnection, error) {
	data, more, _, err := r.licenseKeysPage(ctx, first, after, f, "first", "after")
	if err != nil {
		return nil, err
	}
	edges, pi := connection(data, func(k *model.LicenseKey) string { return idCursor(k.ID) },
		func(cur string, k *model.LicenseKey) *model.LicenseKeyEdge {
			return &model.LicenseKeyEdge{Cursor: cur, Node: k}
		}, after, more)
	return &model.LicenseKeyConnection{Edges: edges, PageInfo: pi}, nil
}

// UpdateLicenseKey changes the given fields of one of the caller's keys:
// status (active ↔ disabled; a revoked key keeps its status), the
// activation limit (1..10,000 or null for unlimited, never below the
// devices the key is active on now) and expires_at (null: never; a past
// time makes the key expired). Errors: authentication_error,
// permission_denied, not_found, invalid_transition (current_status: a
// revoked key), validation_error (status, activation_limit, expires_at).
func (r *Resolver) UpdateLicenseKey(ctx context.Context, id string, in model.UpdateLicenseKeyInput) (*model.LicenseKey, error) {
	p, err := writer(ctx)
	if err != nil {
		return nil, err
	}
	var f problem.Fields
	if s := in.Status; s != nil && *s != model.LicenseKeyStatusActive && *s != model.LicenseKeyStatusDisabled {
		f.Add("status", "status must be active or disabled (a refund or a lost dispute revokes a key; expires_at expires it)")
	}
	limit, limitSet := in.ActivationLimit.ValueOK()
	if limitSet && limit != nil && (*limit < 1 || *limit > licensing.MaxActivationLimit) {
		f.Add("activation_limit", "activation_limit must be 1 to 10,000 devices per key (or null for any number).")
	}
	expires, expiresSet := in.ExpiresAt.ValueOK()
	if expiresSet && expires != nil && input.Time(*expires) != nil {
		f.Add("expires_at", "expires_at must be a time within the years 1 to 9999 (or null for never)")
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	var out *model.LicenseKey
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		k, err := loadLicenseKey(ctx, tx, p.AccountID, id, true)
		if err != nil {
			return err
		}
		q := tx.NewUpdate().Model(k).WherePK().Set("updated_at = now()")
		if s := in.Status; s != nil {
			if k.Status == db.LicenseRevoked {
				return problem.Newf(problem.InvalidTransition,
					"The key was revoked (its order was refunded or its dispute lost); a revoked key cannot be %s again.", *s).
					With("current_status", db.LicenseRevoked).With("allowed_statuses", []string{db.LicenseActive, db.LicenseDisabled})
			}
			q = q.Set("status = ?", string(*s))
		}
		if limitSet {
			if limit != nil && *limit < k.ActivationsCount {
				return problem.Validation("activation_limit", fmt.Sprintf(
					"The key is active on %d devices, more than %d: remove activations first (DELETE /v1/license-keys/%s/activations/{activation_id}), or choose a limit of at least %d.",
					k.ActivationsCount, *limit, k.ID, k.ActivationsCount))
			}
			q = q.Set("activation_limit = ?", limit)
		}
		if expiresSet {
			q = q.Set("expires_at = ?", expires)
		}
		if _, err := q.Exec(ctx); err != nil {
			return fmt.Errorf("update license key: %w", err)
		}
		// Read again: scanning a NULL into the row's pointers would keep them.
		if k, err = loadLicenseKey(ctx, tx, p.AccountID, id, false); err != nil {
			return err
		}
		models, err := r.toLicenseKeyModels(ctx, tx, []*db.LicenseKey{k})
		if err != nil {
			return err
		}
		out = models[0]
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// DeleteLicenseActivation removes a device from one of the caller's keys
// (the seller's deactivation): the activation row goes and the key's
// activations_count drops by one, in one transaction. Errors:
// authentication_error, permission_denied, not_found (the key, another
// account's, or an activation that is not the key's).
func (r *Resolver) DeleteLicenseActivation(ctx context.Context, keyID, activationID string) (bool, error) {
	p, err := writer(ctx)
	if err != nil {
		return false, err
	}
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		k, err := loadLicenseKey(ctx, tx, p.AccountID, keyID, true)
		if err != nil {
			return err
		}
		notFound := problem.NotFoundf("No activation %q on license key %q.", activationID, k.ID)
		if !db.ValidID("act", activationID) {
			return notFound
		}
		a := new(db.LicenseActivation)
		err = db.NotFound(tx.NewSelect().Model(a).Where("id = ?", activationID).Where("license_key_id = ?", k.ID).Scan(ctx))
		if errors.Is(err, db.ErrNotFound) {
			return notFound
		}
		if err != nil {
			return fmt.Errorf("read license activation: %w", err)
		}
		// The one deactivation (license_public.go): the row, the slot and
		// license_key.deactivated, in this transaction.
		return r.deactivateLicenseActivation(ctx, tx, k, a)
	})
	return err == nil, err
}
