package resolvers

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/uptrace/bun"

	"commerce/db"
	"commerce/graph/model"
	"commerce/problem"
)

// maxLiveKeys bounds the live keys of one account.
const maxLiveKeys = 100

const listKeysQuery = `
SELECT id, name, scope, prefix, created_at, last_used_at, expires_at
FROM api_keys
WHERE account_id = $1 AND revoked_at IS NULL AND ($2 = '' OR id < $2)
ORDER BY id DESC
LIMIT $3`

// APIKeys lists the caller's live (not revoked) keys, newest first.
// Errors: authentication_error, validation_error (limit, cursor).
func (r *Resolver) APIKeys(ctx context.Context, limit *int, cursor *string) (*model.APIKeyList, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	pg, err := parsePage(limit, cursor, "key")
	if err != nil {
		return nil, err
	}
	// On the pgx pool directly: listing keys is the benchmarked hot path.
	pgRows, err := r.DB.Pool.Query(ctx, listKeysQuery, p.AccountID, pg.after, pg.limit+1)
	if err != nil {
		return nil, fmt.Errorf("list api keys: %w", err)
	}
	rows, err := pgx.CollectRows(pgRows, func(row pgx.CollectableRow) (*db.APIKey, error) {
		k := &db.APIKey{AccountID: p.AccountID}
		return k, row.Scan(&k.ID, &k.Name, &k.Scope, &k.Prefix, &k.CreatedAt, &k.LastUsedAt, &k.ExpiresAt)
	})
	if err != nil {
		return nil, fmt.Errorf("list api keys: %w", err)
	}
	rows, more, next := trim(rows, pg.limit, func(k *db.APIKey) string { return k.ID })
	out := &model.APIKeyList{Object: "list", Data: make([]*model.APIKey, len(rows)), HasMore: more, NextCursor: next}
	for i, k := range rows {
		out.Data[i] = toAPIKeyModel(k)
	}
	return out, nil
}

// CreateAPIKey creates a key on the caller's account and returns it with its
// plaintext, shown this once. Errors: authentication_error, permission_denied,
// validation_error (name, scope, expires_at), conflict (too many live keys).
func (r *Resolver) CreateAPIKey(ctx context.Context, input model.CreateAPIKeyInput) (*model.CreatedAPIKey, error) {
	p, err := writer(ctx)
	if err != nil {
		return nil, err
	}
	var out *model.CreatedAPIKey
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		// Serialise key creation per account so the cap holds under concurrency.
		if _, err := tx.ExecContext(ctx, "SELECT 1 FROM accounts WHERE id = ? FOR UPDATE", p.AccountID); err != nil {
			return err
		}
		n, err := tx.NewSelect().Model((*db.APIKey)(nil)).Where("account_id = ?", p.AccountID).Where("revoked_at IS NULL").Count(ctx)
		if err != nil {
			return err
		}
		if n >= maxLiveKeys {
			return problem.Newf(problem.Conflict, "An account may have at most %d live API keys; delete one first.", maxLiveKeys).
				With("current_count", n).With("max_count", maxLiveKeys)
		}
		out, err = r.insertKey(ctx, tx, p.AccountID, input)
		return err
	})
	return out, err
}

// insertKey validates input and stores a new key for an account.
func (r *Resolver) insertKey(ctx context.Context, idb bun.IDB, accountID string, in model.CreateAPIKeyInput) (*model.CreatedAPIKey, error) {
	var f problem.Fields
	name := strings.TrimSpace(in.Name)
	if name == "" || utf8.RuneCountInString(name) > 100 {
		f.Add("name", "name is required and at most 100 characters")
	}
	scope := ScopeFull
	if in.Scope != nil {
		scope = string(*in.Scope)
		if scope != ScopeFull && scope != ScopeReadOnly {
			f.Add("scope", `scope must be "full" or "read_only"`)
		}
	}
	if in.ExpiresAt != nil && !in.ExpiresAt.After(r.Now()) {
		f.Add("expires_at", "expires_at must be in the future")
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	secret := newKeySecret()
	row := &db.APIKey{ID: db.NewID("key"), AccountID: accountID, Name: name, Scope: scope,
		Prefix: secret[:keyShownChars], KeyHash: hashKey(secret), ExpiresAt: in.ExpiresAt}
	if _, err := idb.NewInsert().Model(row).Returning("*").Exec(ctx); err != nil {
		return nil, fmt.Errorf("insert api key: %w", err)
	}
	return &model.CreatedAPIKey{APIKey: *toAPIKeyModel(row), Key: secret}, nil
}

// DeleteAPIKey revokes one of the caller's keys; it stops working at once.
// Errors: authentication_error, permission_denied, not_found.
func (r *Resolver) DeleteAPIKey(ctx context.Context, id string) (bool, error) {
	p, err := writer(ctx)
	if err != nil {
		return false, err
	}
	res, err := r.DB.NewUpdate().Model((*db.APIKey)(nil)).Set("revoked_at = now()").
		Where("id = ?", id).Where("account_id = ?", p.AccountID).Where("revoked_at IS NULL").Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("revoke api key: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, problem.NotFoundf("No API key %q on this account.", id)
	}
	r.forgetKey(id)
	r.markRevoked(ctx, p.AccountID, id)
	return true, nil
}

// SelfRevoke revokes the calling key; it stops working at once. Called by
// a console session, it ends the session (as SignOut).
// Errors: authentication_error.
func (r *Resolver) SelfRevoke(ctx context.Context) error {
	p, err := caller(ctx)
	if err != nil {
		return err
	}
	if p.KeyID == "" && p.SessionID != "" {
		return r.endSession(ctx, p)
	}
	_, err = r.DB.NewUpdate().Model((*db.APIKey)(nil)).Set("revoked_at = now()").
		Where("id = ?", p.KeyID).Where("revoked_at IS NULL").Exec(ctx)
	if err != nil {
		return err
	}
	r.forgetKey(p.KeyID)
	r.markRevoked(ctx, p.AccountID, p.KeyID)
	return nil
}

func toAPIKeyModel(k *db.APIKey) *model.APIKey {
	return &model.APIKey{Object: "api_key", ID: k.ID, Name: k.Name, Scope: model.APIKeyScope(k.Scope), Prefix: k.Prefix,
		CreatedAt: k.CreatedAt.UTC(), LastUsedAt: utc(k.LastUsedAt), ExpiresAt: utc(k.ExpiresAt)}
}

func utc(t *timeT) *timeT {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}
