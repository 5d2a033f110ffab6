package resolvers

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"commerce/db"
	"commerce/problem"
)

// The seller's profile (CONTRACT §6): display name, bio and avatar live on
// the account and are what the store shows. PUT /v1/account, PUT /v1/store
// and bootstrap step 3 accept them through the rules here, written once.

const (
	maxDisplayName = 80
	maxBio         = 500
)

// displayNameOf validates a display name (trimmed, 1..80 characters) and
// returns it trimmed; a failure is added to f under param.
func displayNameOf(f *problem.Fields, param, raw string) string {
	name := strings.TrimSpace(raw)
	if name == "" || utf8.RuneCountInString(name) > maxDisplayName {
		f.Addf(param, "%s must be 1 to %d characters", param, maxDisplayName)
	}
	return name
}

// bioOf validates a bio (at most 500 characters).
func bioOf(f *problem.Fields, param, raw string) string {
	if utf8.RuneCountInString(raw) > maxBio {
		f.Addf(param, "%s must be at most %d characters", param, maxBio)
	}
	return raw
}

// slugOf slugifies a slug the caller gives (stores and listings alike); one
// with nothing left of it is added to f under "slug".
func slugOf(f *problem.Fields, raw string) string {
	out, ok := slugify(raw)
	if !ok {
		f.Add("slug", "slug must contain letters or digits (it is lowercased, with dashes between words)")
	}
	return out
}

// profileChange is a validated change of the profile: nil fields keep their
// value, ClearName and ClearBio clear one; with AvatarChange the avatar
// becomes the file of token Avatar, or none when Avatar is nil.
type profileChange struct {
	DisplayName  *string
	ClearName    bool
	Bio          *string
	ClearBio     bool
	AvatarChange bool
	Avatar       *string
}

// profileOf validates the profile fields of an input: name (set, or
// cleared when nameNull), bio and avatar as Omittable values give them.
func profileOf(f *problem.Fields, name *string, nameNull bool, bio *string, bioSet bool, avatar *string, avatarSet bool) profileChange {
	var c profileChange
	if name != nil {
		n := displayNameOf(f, "display_name", *name)
		c.DisplayName = &n
	}
	c.ClearName = nameNull
	if bioSet {
		if bio != nil {
			b := bioOf(f, "bio", *bio)
			c.Bio = &b
		} else {
			c.ClearBio = true
		}
	}
	c.AvatarChange, c.Avatar = avatarSet, avatar
	return c
}

// applyProfile adds the change to an UPDATE of the account in tx, claiming a new
// avatar file (its old file is deleted after commit). Errors:
// validation_error (avatar token).
func (r *Resolver) applyProfile(ctx context.Context, tx db.Tx, accountID string, c profileChange, q *bun.UpdateQuery) (*bun.UpdateQuery, error) {
	switch {
	case c.DisplayName != nil:
		q = q.Set("display_name = ?", *c.DisplayName)
	case c.ClearName:
		q = q.Set("display_name = NULL")
	}
	switch {
	case c.Bio != nil:
		q = q.Set("bio = ?", *c.Bio)
	case c.ClearBio:
		q = q.Set("bio = NULL")
	}
	if !c.AvatarChange {
		return q, nil
	}
	var old *string
	if err := tx.NewSelect().Table("accounts").Column("avatar_key").Where("id = ?", accountID).
		For("UPDATE").Scan(ctx, &old); err != nil {
		return nil, fmt.Errorf("lock account: %w", db.NotFound(err))
	}
	var key *string
	if c.Avatar != nil {
		_, k, err := r.claimFile(ctx, tx, accountID, *c.Avatar, "avatar", "avatar", func(f *db.File) string {
			return publicPrefix + "avatars/" + accountID + "/" + randomName() + extFor(f.ContentType)
		})
		if err != nil {
			return nil, err
		}
		key = &k
	}
	if old != nil {
		if err := r.deleteBlobsAfterCommit(ctx, tx, *old); err != nil {
			return nil, err
		}
	}
	return q.Set("avatar_key = ?", key), nil
}
