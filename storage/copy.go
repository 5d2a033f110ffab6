package storage

import (
	"context"

	"github.com/gabriel-vasile/mimetype"
)

// Copy copies from to to, keeping from. A missing from is ErrNotExist.
func (s *Store) Copy(ctx context.Context, from, to string) error {
	if err := validKeys(from, to); err != nil {
		return err
	}
	if err := s.b.Copy(ctx, to, from, nil); err != nil {
		return wrap("copy", from, err)
	}
	return nil
}

// Allows reports whether a detected content type suits the rule's purpose.
func (r Rule) Allows(contentType string) bool {
	m := mimetype.Lookup(normalize(contentType))
	return m != nil && r.allows(m)
}
