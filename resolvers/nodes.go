package resolvers

import (
	"context"
	"errors"
	"strings"

	"commerce/db"
	"commerce/graph/model"
	"commerce/problem"
)

// maxNodes bounds Query.nodes.
const maxNodes = 100

// Node resolves any resource of the caller's account by its prefixed id
// (GraphQL Query.node). A resource that does not exist or belongs to
// another account is nil, not an error. Errors: authentication_error.
func (x queryResolver) Node(ctx context.Context, id string) (model.Node, error) {
	return x.NodeByID(ctx, id)
}

// Nodes resolves up to 100 ids in order, nil for each one not found.
// Errors: authentication_error, validation_error (ids).
func (x queryResolver) Nodes(ctx context.Context, ids []string) ([]model.Node, error) {
	if _, err := caller(ctx); err != nil {
		return nil, err
	}
	if len(ids) > maxNodes {
		return nil, problem.Validation("ids", "ids may name at most 100 resources")
	}
	out := make([]model.Node, len(ids))
	for i, id := range ids {
		n, err := x.NodeByID(ctx, id)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// NodeByID dispatches on the id's prefix to the use case that reads that
// kind of resource, scoped by the caller's account. Errors:
// authentication_error.
func (r *Resolver) NodeByID(ctx context.Context, id string) (model.Node, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	prefix, _, _ := strings.Cut(id, "_")
	if !db.ValidID(prefix, id) {
		return nil, nil
	}
	var n model.Node
	switch prefix {
	case "acc":
		if id != p.AccountID {
			return nil, nil
		}
		n, err = nodeOf(r.Viewer(ctx))
	case "lst":
		n, err = nodeOf(r.Listing(ctx, id))
	case "del":
		n, err = nodeOf(r.deliverableByID(ctx, p.AccountID, id))
	case "ord":
		n, err = nodeOf(r.Order(ctx, id))
	case "cus":
		n, err = nodeOf(r.Customer(ctx, id))
	case "wh":
		n, err = nodeOf(r.Webhook(ctx, id))
	case "evt":
		n, err = nodeOf(r.eventByID(ctx, p.AccountID, id))
	case "key":
		n, err = nodeOf(r.apiKeyByID(ctx, p.AccountID, id))
	case "file":
		n, err = nodeOf(r.fileByToken(ctx, p.AccountID, id))
	case "rev":
		n, err = nodeOf(r.reviewByID(ctx, p.AccountID, id))
	case "dsc":
		n, err = nodeOf(r.Discount(ctx, id))
	case "lic":
		n, err = nodeOf(r.LicenseKey(ctx, id))
	case "mem":
		n, err = nodeOf(r.Membership(ctx, id))
	case "acn":
		n, err = nodeOf(r.AgentConnection(ctx, id))
	default:
		return nil, nil
	}
	var pr *problem.Problem
	if errors.As(err, &pr) && pr.Code == problem.NotFound {
		return nil, nil
	}
	return n, err
}

// nodeOf turns a use case's (resource, error) into a Node, keeping a nil
// resource a nil interface.
func nodeOf[T interface {
	*E
	model.Node
}, E any](v T, err error) (model.Node, error) {
	if err != nil || v == nil {
		return nil, err
	}
	return v, nil
}

func (r *Resolver) deliverableByID(ctx context.Context, accountID, id string) (*model.Deliverable, error) {
	d := new(db.Deliverable)
	err := r.DB.NewSelect().Model(d).Where("deliverable.id = ?", id).
		Where("EXISTS (SELECT 1 FROM listings l WHERE l.id = deliverable.listing_id AND l.account_id = ? AND l.deleted_at IS NULL)", accountID).
		Scan(ctx)
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return toDeliverableModel(d), nil
}

func (r *Resolver) eventByID(ctx context.Context, accountID, id string) (*model.Event, error) {
	ev := new(db.Event)
	err := r.DB.NewSelect().Model(ev).Where("id = ?", id).Where("account_id = ?", accountID).Scan(ctx)
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return toEventModel(ev), nil
}

func (r *Resolver) apiKeyByID(ctx context.Context, accountID, id string) (*model.APIKey, error) {
	k := new(db.APIKey)
	err := r.DB.NewSelect().Model(k).Where("id = ?", id).Where("account_id = ?", accountID).Where("revoked_at IS NULL").Scan(ctx)
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return toAPIKeyModel(k), nil
}

// fileByToken is an upload of the account that can still be used.
func (r *Resolver) fileByToken(ctx context.Context, accountID, token string) (*model.File, error) {
	f := new(db.File)
	err := r.DB.NewSelect().Model(f).Where("token = ?", token).Where("account_id = ?", accountID).
		Where("used_at IS NULL").Where("expires_at > now()").Scan(ctx)
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return toFileModel(f), nil
}
