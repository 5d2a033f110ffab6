package resolvers

import (
	"context"
	"crypto/rand"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/gosimple/slug"

	"commerce/db"
	"commerce/graph/model"
	"commerce/problem"
)

const maxSlugLen = 60

// slugify turns s into a slug: lowercase letters and digits with single
// dashes, at most 60 characters. ok is false when nothing is left.
func slugify(s string) (string, bool) {
	out := slug.Make(s)
	if len(out) > maxSlugLen {
		out = strings.TrimRight(out[:maxSlugLen], "-")
	}
	return out, out != ""
}

// randomSuffix is "-" and 5 lowercase letters or digits.
func randomSuffix() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	var b [5]byte
	_, _ = rand.Read(b[:])
	out := []byte{'-'}
	for _, c := range b {
		out = append(out, alphabet[int(c)%len(alphabet)])
	}
	return string(out)
}

// claimSlug picks a unique slug for a row of table (accounts: store slugs;
// listings: product page slugs): the one asked for (taken by another row:
// validation_error param slug), or one derived from name (fallback when
// nothing is left of it), with a random suffix when taken.
func claimSlug(ctx context.Context, tx db.Tx, table, id, want, name, fallback string) (string, error) {
	taken := func(s string) (bool, error) {
		return tx.NewSelect().Table(table).Where("slug = ?", s).Where("id <> ?", id).Exists(ctx)
	}
	if want != "" {
		t, err := taken(want)
		if err != nil {
			return "", err
		}
		if t {
			return "", problem.Validation("slug", fmt.Sprintf("The slug %q is taken; choose another.", want))
		}
		return want, nil
	}
	base, ok := slugify(name)
	if !ok {
		base = fallback
	}
	candidate := base
	for range 5 {
		t, err := taken(candidate)
		if err != nil {
			return "", err
		}
		if !t {
			return candidate, nil
		}
		candidate = strings.TrimRight(base[:min(len(base), maxSlugLen-6)], "-") + randomSuffix()
	}
	return "", fmt.Errorf("no free slug for %q after 5 tries", base)
}

// UpdateStore changes the given store fields. Errors: authentication_error,
// permission_denied, validation_error (display_name, bio, avatar, slug), not_found.
func (r *Resolver) UpdateStore(ctx context.Context, in model.UpdateStoreInput) (*model.Store, error) {
	p, err := writer(ctx)
	if err != nil {
		return nil, err
	}
	var f problem.Fields
	var name, newSlug string
	if in.DisplayName != nil {
		name = strings.TrimSpace(*in.DisplayName)
		if name == "" || utf8.RuneCountInString(name) > 80 {
			f.Add("display_name", "display_name must be 1 to 80 characters")
		}
	}
	bio, bioSet := in.Bio.ValueOK()
	if bioSet && bio != nil && utf8.RuneCountInString(*bio) > 500 {
		f.Add("bio", "bio must be at most 500 characters")
	}
	if in.Slug != nil {
		var ok bool
		if newSlug, ok = slugify(*in.Slug); !ok {
			f.Add("slug", "slug must contain letters or digits (it is lowercased, with dashes between words)")
		}
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		q := tx.NewUpdate().Table("accounts").Set("updated_at = now()").
			Where("id = ?", p.AccountID).Where("deleted_at IS NULL")
		if in.DisplayName != nil {
			q = q.Set("display_name = ?", name)
		}
		if bioSet {
			q = q.Set("bio = ?", bio)
		}
		if avatar, ok := in.Avatar.ValueOK(); ok {
			var old *string
			if err := tx.NewSelect().Table("accounts").Column("avatar_key").Where("id = ?", p.AccountID).
				For("UPDATE").Scan(ctx, &old); err != nil {
				return err
			}
			var key *string
			if avatar != nil {
				_, k, err := r.claimFile(ctx, tx, p.AccountID, *avatar, "avatar", "avatar", func(f *db.File) string {
					return publicPrefix + "avatars/" + p.AccountID + "/" + randomName() + extFor(f.ContentType)
				})
				if err != nil {
					return err
				}
				key = &k
			}
			if old != nil {
				if err := r.deleteBlobsAfterCommit(ctx, tx, *old); err != nil {
					return err
				}
			}
			q = q.Set("avatar_key = ?", key)
		}
		if in.Slug != nil {
			s, err := claimSlug(ctx, tx, "accounts", p.AccountID, newSlug, "", "store")
			if err != nil {
				return err
			}
			q = q.Set("slug = ?", s)
		}
		res, err := q.Exec(ctx)
		if db.IsUniqueViolation(err, "accounts_slug_key") {
			return problem.Validation("slug", fmt.Sprintf("The slug %q is taken; choose another.", newSlug))
		}
		if err != nil {
			return fmt.Errorf("update store: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return problem.NotFoundf("The account no longer exists.")
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return r.Store(ctx)
}

// PublicStore is a store page's content, found by slug. Errors: not_found.
type PublicStore struct {
	DisplayName string
	Bio         string
	Slug        string
}

// StoreBySlug returns the public store of a live account. Errors: not_found.
func (r *Resolver) StoreBySlug(ctx context.Context, slugValue string) (*PublicStore, error) {
	var ps PublicStore
	var name, bio *string
	err := r.DB.NewSelect().Table("accounts").Column("display_name", "bio", "slug").
		Where("slug = ?", strings.ToLower(slugValue)).Where("deleted_at IS NULL").
		Scan(ctx, &name, &bio, &ps.Slug)
	if err := db.NotFound(err); err != nil {
		if err == db.ErrNotFound {
			return nil, problem.NotFoundf("No store %q.", slugValue)
		}
		return nil, err
	}
	if name != nil {
		ps.DisplayName = *name
	}
	if bio != nil {
		ps.Bio = *bio
	}
	return &ps, nil
}
