package resolvers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"commerce/access"
	"commerce/db"
	"commerce/graph/model"
	"commerce/problem"
)

// Access limits (CONTRACT §21): the listing's settings, the order's access
// (its end and each deliverable's downloads), counting a download, and the
// seller's reset. The rules are package access's; this file reads, calls
// them and writes.

// access checks a listing's access limits (errors name access.<member>) and
// returns them; nil is none (also for {} and both members null).
func (v *listingFields) access(in *model.ListingAccessInput) *access.Settings {
	if in == nil {
		return nil
	}
	s := &access.Settings{DownloadLimit: in.DownloadLimit, AccessDays: in.AccessDays}
	s.Check(&v.f)
	if s.None() {
		return nil
	}
	return s
}

// setAccess writes access limits (nil: none) into a listing row.
func setAccess(l *db.Listing, s *access.Settings) {
	l.AccessDownloadLimit, l.AccessDays = nil, nil
	if s != nil {
		l.AccessDownloadLimit, l.AccessDays = s.DownloadLimit, s.AccessDays
	}
}

// listingAccessOf is a listing's access as the API shows it (nil: none).
func listingAccessOf(l *db.Listing) *model.ListingAccess {
	if l.AccessDownloadLimit == nil && l.AccessDays == nil {
		return nil
	}
	return &model.ListingAccess{DownloadLimit: l.AccessDownloadLimit, AccessDays: l.AccessDays}
}

// orderAccessSettings are the access limits of the order's listing when it
// was bought (its snapshot's access); ok is false without any.
func orderAccessSettings(o *db.Order) (s access.Settings, ok bool) {
	var snap struct {
		Access *access.Settings `json:"access"`
	}
	if json.Unmarshal(o.ListingSnapshot, &snap) != nil || snap.Access == nil || snap.Access.None() {
		return access.Settings{}, false
	}
	return *snap.Access, true
}

// downloadRow is one deliverable's counted downloads.
type downloadRow struct {
	Count int
	Last  time.Time
}

// readDownloads reads the counted downloads of orders, by order and
// deliverable, in one statement.
func (r *Resolver) readDownloads(ctx context.Context, orderIDs []string) (map[string]map[string]downloadRow, error) {
	out := map[string]map[string]downloadRow{}
	if len(orderIDs) == 0 {
		return out, nil
	}
	rows, err := r.DB.Pool.Query(ctx, `SELECT order_id, deliverable_id, count, last_counted_at FROM download_counts WHERE order_id = ANY($1)`, orderIDs)
	if err != nil {
		return nil, fmt.Errorf("read download counts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var oid, did string
		var d downloadRow
		if err := rows.Scan(&oid, &did, &d.Count, &d.Last); err != nil {
			return nil, fmt.Errorf("read download counts: %w", err)
		}
		if out[oid] == nil {
			out[oid] = map[string]downloadRow{}
		}
		out[oid][did] = d
	}
	return out, rows.Err()
}

// orderAccessModel is an order's access as the API shows it, from its
// counted downloads.
func orderAccessModel(o *db.Order, s access.Settings, counts map[string]downloadRow) *model.OrderAccess {
	a := &model.OrderAccess{ExpiresAt: utc(access.Expiry(o.PaidAt, s.AccessDays, o.AccessExpiresAt)),
		Downloads: make([]*model.DownloadCount, len(o.Deliverables))}
	for i, d := range o.Deliverables {
		a.Downloads[i] = &model.DownloadCount{DeliverableID: d.ID, Count: counts[d.ID].Count, Limit: s.DownloadLimit}
	}
	return a
}

// fillOrderAccess sets the access of the models of orders whose listing had
// access limits, reading their counts in one statement (none when no order
// has any). models[i] is the model of orders[i].
func (r *Resolver) fillOrderAccess(ctx context.Context, orders []*db.Order, models []*model.Order) error {
	var ids []string
	for _, o := range orders {
		if _, ok := orderAccessSettings(o); ok {
			ids = append(ids, o.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	counts, err := r.readDownloads(ctx, ids)
	if err != nil {
		return err
	}
	for i, o := range orders {
		if s, ok := orderAccessSettings(o); ok {
			models[i].Access = orderAccessModel(o, s, counts[o.ID])
		}
	}
	return nil
}

// ResetOrderAccess sets an order's downloads back to 0 and moves the end of
// its access to now plus extendDays, or plus the listing's access_days (an
// order whose access never ended by time keeps no end unless extendDays is
// given). Only a paid or fulfilled order whose listing had access limits can
// be reset: a refunded order, or one whose payment a lost dispute reversed,
// has no access to give back. Errors: not_found, validation_error
// (extend_days), invalid_transition (current_status, allowed_statuses).
func (r *Resolver) ResetOrderAccess(ctx context.Context, id string, extendDays *int) (*model.Order, error) {
	p, err := writer(ctx)
	if err != nil {
		return nil, err
	}
	if !db.ValidID("ord", id) {
		return nil, problem.NotFoundf("No order %q on this account.", id)
	}
	var f problem.Fields
	access.CheckExtendDays(&f, extendDays)
	if err := f.Err(); err != nil {
		return nil, err
	}
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		o, err := lockCallerOrder(ctx, tx, p.AccountID, id)
		if err != nil {
			return err
		}
		allowed := []string{db.OrderPaid, db.OrderFulfilled}
		if (o.Status != db.OrderPaid && o.Status != db.OrderFulfilled) || disputeLost(o) {
			why := fmt.Sprintf("The order is %s; only a paid or fulfilled order's access can be reset.", o.Status)
			if disputeLost(o) {
				why = "The order's payment was reversed by a lost dispute; its access cannot be reset."
			}
			return problem.New(problem.InvalidTransition, why).With("current_status", o.Status).With("allowed_statuses", allowed)
		}
		s, ok := orderAccessSettings(o)
		if !ok {
			return problem.New(problem.InvalidTransition, "The order's listing had no access limits when it was bought: there is nothing to reset.").
				With("current_status", o.Status).With("allowed_statuses", allowed)
		}
		days := extendDays
		if days == nil {
			days = s.AccessDays
		}
		var moved *time.Time
		if days != nil {
			moved = new(r.Now().UTC().Add(access.Days(*days)))
		}
		if _, err := tx.River.Exec(ctx, `UPDATE download_counts SET count = 0 WHERE order_id = $1`, o.ID); err != nil {
			return fmt.Errorf("reset download counts: %w", err)
		}
		_, err = tx.River.Exec(ctx, `UPDATE orders SET access_expires_at = $2, updated_at = now() WHERE id = $1`, o.ID, moved)
		return err
	})
	if err != nil {
		return nil, err
	}
	return r.Order(ctx, id)
}

// DownloadRequest is how a deliverable is asked for: a HEAD is never
// counted, and a Range request continuing a recent download is not either.
type DownloadRequest struct {
	Head  bool
	Range string
}

// admitDownload decides whether deliverable d of order o, whose listing had
// access limits s, may be opened now, and counts it once when it is a new
// download: atomically, so that concurrent downloads never pass the limit.
// Errors: *access.ClosedError (410: the limit reached, or the access ended).
func (r *Resolver) admitDownload(ctx context.Context, o *db.Order, s access.Settings, deliverableID string, req DownloadRequest) error {
	now := r.Now().UTC()
	expires := access.Expiry(o.PaidAt, s.AccessDays, o.AccessExpiresAt)
	closed := func(st access.State) error { return &access.ClosedError{State: st, Store: storeNameOf(o)} }
	read := func() (downloadRow, error) {
		var d downloadRow
		err := r.DB.Pool.QueryRow(ctx, `SELECT count, last_counted_at FROM download_counts WHERE order_id = $1 AND deliverable_id = $2`,
			o.ID, deliverableID).Scan(&d.Count, &d.Last)
		if errors.Is(err, pgx.ErrNoRows) {
			return downloadRow{}, nil
		}
		return d, err
	}
	if req.Head || req.Range != "" {
		d, err := read()
		if err != nil {
			return fmt.Errorf("read download count: %w", err)
		}
		st := access.StateOf(s.DownloadLimit, d.Count, expires, now)
		if st.Reason == access.Ended {
			return closed(st)
		}
		var last *time.Time
		if d.Count > 0 {
			last = &d.Last
		}
		if req.Head {
			if st.Reason != access.Open {
				return closed(st)
			}
			return nil
		}
		if access.Continues(req.Range, last, now) {
			return nil
		}
	}
	if st := access.StateOf(s.DownloadLimit, 0, expires, now); st.Reason == access.Ended {
		return closed(st)
	}
	// One statement: the first download inserts the row, the next ones add
	// to it while it is under the limit; at the limit nothing is returned.
	var count int
	err := r.DB.Pool.QueryRow(ctx, `INSERT INTO download_counts AS dc (order_id, deliverable_id, count, last_counted_at, account_id) VALUES ($1, $2, 1, $3, $5)
		ON CONFLICT (order_id, deliverable_id) DO UPDATE SET count = dc.count + 1, last_counted_at = $3
		WHERE $4::integer IS NULL OR dc.count < $4::integer
		RETURNING count`, o.ID, deliverableID, now, s.DownloadLimit, o.AccountID).Scan(&count)
	if errors.Is(err, pgx.ErrNoRows) && s.DownloadLimit != nil {
		d, err := read()
		if err != nil {
			return fmt.Errorf("read download count: %w", err)
		}
		return closed(access.StateOf(s.DownloadLimit, max(d.Count, *s.DownloadLimit), expires, now))
	}
	if err != nil {
		return fmt.Errorf("count the download: %w", err)
	}
	return nil
}

// storeNameOf is the seller's store name as the order recorded it ("" when
// it had none).
func storeNameOf(o *db.Order) string {
	var seller struct {
		DisplayName *string `json:"display_name"`
	}
	_ = json.Unmarshal(o.SellerSnapshot, &seller)
	return deref(seller.DisplayName, "")
}

// DeliverableAccess is what the download page says of one deliverable of
// an order with access limits: the downloads left (nil: any number) or,
// when it is closed, why.
type DeliverableAccess struct {
	// Href opens it (counted).
	Href string
	// Limited: it has a download limit, with Remaining downloads left.
	Limited   bool
	Remaining int
	// Closed says why it no longer opens ("" while it does).
	Closed string
}

// downloadPageAccess is the access of each deliverable of o on its download
// page (nil when its listing had no access limits: nothing more is read).
func (r *Resolver) downloadPageAccess(ctx context.Context, o *db.Order) (map[string]*DeliverableAccess, error) {
	s, ok := orderAccessSettings(o)
	if !ok {
		return nil, nil
	}
	counts, err := r.readDownloads(ctx, []string{o.ID})
	if err != nil {
		return nil, err
	}
	now := r.Now().UTC()
	expires := access.Expiry(o.PaidAt, s.AccessDays, o.AccessExpiresAt)
	out := map[string]*DeliverableAccess{}
	for _, d := range o.Deliverables {
		st := access.StateOf(s.DownloadLimit, counts[o.ID][d.ID].Count, expires, now)
		a := &DeliverableAccess{Closed: st.Message(storeNameOf(o))}
		if st.Remaining != nil {
			a.Limited, a.Remaining = true, *st.Remaining
		}
		out[d.ID] = a
	}
	return out, nil
}

// annotateDownloadAccess adds to each deliverable of the download page what
// is left of it or why it is closed (nothing read for an order without
// access limits).
func (r *Resolver) annotateDownloadAccess(ctx context.Context, o *db.Order, p *DownloadPage) error {
	acc, err := r.downloadPageAccess(ctx, o)
	if err != nil || acc == nil {
		return err
	}
	for i := range p.Deliverables {
		if a := acc[p.Deliverables[i].ID]; a != nil {
			a.Href = "/d/" + p.Token + "/" + p.Deliverables[i].ID
			p.Deliverables[i].Access = a
		}
	}
	return nil
}

// openLimited opens deliverable d of an order with access limits s: counted
// (admitDownload), then a file is a signed link valid access.LinkLifetime,
// a url its URL and a text its text. Errors: *access.ClosedError, ErrGone
// (the file was deleted with its listing).
func (r *Resolver) openLimited(ctx context.Context, o *db.Order, s access.Settings, d db.OrderDeliverable, req DownloadRequest) (*DownloadItemContent, error) {
	key := deref(d.FileKey, "")
	if d.Type == "file" {
		ok, err := r.Storage.Exists(ctx, key)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, ErrGone // the listing was deleted, and its files with it; nothing is counted
		}
	}
	if err := r.admitDownload(ctx, o, s, d.ID, req); err != nil {
		return nil, err
	}
	switch d.Type {
	case "url":
		return &DownloadItemContent{Type: "url", URL: deref(d.Value, "")}, nil
	case "text":
		return &DownloadItemContent{Type: "text", Text: deref(d.Value, "")}, nil
	}
	link, err := r.Storage.SignedLink(ctx, key, deref(d.FileName, "download"), r.Now().Add(access.LinkLifetime))
	if err != nil {
		return nil, err
	}
	return &DownloadItemContent{Type: "file", URL: link, Name: deref(d.FileName, "download")}, nil
}
