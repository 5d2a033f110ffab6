package resolvers

import (
	"context"
	"errors"

	"commerce/graph/model"
)

// TODO(engine helper): the membership lifecycle. Placeholders of the
// foundation branch only; none of this reaches main as it is.

// CancelMembership cancels one of the caller's memberships.
func (r *Resolver) CancelMembership(ctx context.Context, id string, atPeriodEnd bool) (*model.Membership, error) {
	return nil, errors.New("not implemented")
}

// ResumeMembership undoes a cancel.
func (r *Resolver) ResumeMembership(ctx context.Context, id string) (*model.Membership, error) {
	return nil, errors.New("not implemented")
}
