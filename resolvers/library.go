package resolvers

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/uptrace/bun"

	"commerce/db"
	"commerce/graph/model"
	"commerce/jobs"
	"commerce/mail"
	"commerce/problem"
)

// The buyer's library (CONTRACT §21). A buyer asks for a sign-in link by
// email; the request does the same work whatever the email (a limit check
// and one job), so neither its answer nor its time says whether the email
// bought anything: the job (LibrarySignInWorker) looks the email up and,
// when it has orders, mails a single-use link valid 15 minutes. A seller's
// portal link is the same kind of link, valid 24 hours and scoped to the
// seller's store. Opening a link opens a buyer session carried by the
// commerce_buyer cookie (30 days, revocable); only SHA-256 hashes of the
// link's and the cookie's tokens are stored. The library lists the
// session's email's orders (case-insensitive) across stores, or the one
// store it is scoped to.

const (
	// LibrarySignInLife is how long an emailed sign-in link works.
	LibrarySignInLife = 15 * time.Minute
	// PortalLinkLife is how long a seller's portal link works.
	PortalLinkLife = 24 * time.Hour
	// BuyerSessionLife is how long a buyer stays signed in.
	BuyerSessionLife = 30 * 24 * time.Hour
	// LibraryPageSize is how many orders a library page shows.
	LibraryPageSize = 24

	librarySignInEmailGroup = "library_sign_in_email"
	librarySignInIPGroup    = "library_sign_in_ip"
)

// libraryOrderStatuses are the orders a library lists: those paid for
// (a refunded one stays, saying it has no access).
var libraryOrderStatuses = []string{db.OrderPaid, db.OrderFulfilled, db.OrderRefunded}

// LibrarySignInArgs is the job of one sign-in request: the email as
// typed (normalized) and the store whose library page it came from ("" for
// /library).
type LibrarySignInArgs struct {
	Email string `json:"email"`
	Store string `json:"store,omitempty"`
}

// Kind names the job.
func (LibrarySignInArgs) Kind() string { return "library_sign_in" }

// LibrarySignInWorker mails the sign-in link of a request whose email has
// orders.
type LibrarySignInWorker struct {
	river.WorkerDefaults[LibrarySignInArgs]
	R *Resolver
}

// Timeout bounds one run, below jobs.RescueStuckJobsAfter.
func (w *LibrarySignInWorker) Timeout(*river.Job[LibrarySignInArgs]) time.Duration {
	return 15 * time.Second
}

// Work mails the link, or does nothing for an email without orders. The
// job is completed in the transaction that stores the email
// (jobs.CompleteTx): a process killed after that commit leaves no job for
// River's rescuer to run again, which would mail a second link.
func (w *LibrarySignInWorker) Work(ctx context.Context, job *river.Job[LibrarySignInArgs]) error {
	return w.R.mailLibrarySignIn(ctx, job.Args, func(ctx context.Context, tx db.Tx) error {
		return jobs.CompleteTx(ctx, tx, job)
	})
}

// RequestLibrarySignIn takes the library's email form (store: the slug of
// the store whose library page it was, or ""). It answers the same for
// every well-formed email: known or not, under the per-email limit or past
// it (then nothing is sent). Errors: validation_error (email), rate_limited
// (20 requests an hour per client IP).
func (r *Resolver) RequestLibrarySignIn(ctx context.Context, email, store string) error {
	ip := ClientIPFrom(ctx)
	if ip == "" {
		ip = "unknown"
	}
	if err := r.limit(ctx, librarySignInIPGroup, "ip:"+ip, "Too many sign-in requests from your connection."); err != nil {
		return err
	}
	if len(email) > 254 {
		return problem.Validation("email", "Enter the email address you bought with, such as you@example.com.")
	}
	e, err := NormalizeEmail(email)
	if err != nil {
		return problem.Validation("email", "Enter the email address you bought with, such as you@example.com.")
	}
	e = strings.ToLower(e)
	if !validSlugFormat(store) {
		store = ""
	}
	if p := problem.From(r.limit(ctx, librarySignInEmailGroup, "email:"+e, "")); p != nil && p.Code == problem.RateLimited {
		return nil // the same answer; nothing sent
	}
	// In a transaction of the request's pool (DATABASE_URL), not on River's
	// own (the direct URL's).
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		_, err := r.Jobs.InsertTx(ctx, tx.River, LibrarySignInArgs{Email: e, Store: store}, nil)
		return err
	})
	if err != nil {
		return fmt.Errorf("enqueue library sign-in: %w", err)
	}
	return nil
}

// validSlugFormat: a store slug as the service makes them (bounded before
// any lookup).
func validSlugFormat(s string) bool {
	if s == "" || len(s) > maxSlugLen {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// mailLibrarySignIn mails a sign-in link to a.Email when it has orders;
// complete runs in the transaction that stores the email.
func (r *Resolver) mailLibrarySignIn(ctx context.Context, a LibrarySignInArgs, complete func(context.Context, db.Tx) error) error {
	has, err := r.DB.NewSelect().Table("orders").Where("lower(buyer_email) = ?", a.Email).
		Where("status IN (?)", bun.List(libraryOrderStatuses)).Exists(ctx)
	if err != nil {
		return fmt.Errorf("find the buyer's orders: %w", err)
	}
	if !has {
		return nil
	}
	returnPath, storeName := "/library", ""
	if a.Store != "" {
		var name *string
		err := r.DB.NewSelect().Table("accounts").Column("display_name").Where("slug = ?", a.Store).
			Where("deleted_at IS NULL").Scan(ctx, &name)
		if err == nil {
			returnPath, storeName = "/s/"+a.Store+"/library", deref(name, "")
		}
	}
	return r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		token, _, err := r.createSignIn(ctx, tx, a.Email, nil, returnPath, LibrarySignInLife)
		if err != nil {
			return err
		}
		msg, err := mail.LibrarySignIn(a.Email, mail.LibrarySignInData{SignInURL: r.BaseURL + "/library/auth/" + token,
			LibraryURL: r.BaseURL + "/library", StoreName: storeName, ValidFor: LibrarySignInLife})
		if err != nil {
			return err
		}
		if _, err = r.Mail.Send(ctx, tx, msg); err != nil {
			return err
		}
		return complete(ctx, tx)
	})
}

// createSignIn stores a sign-in link for email (scoped to accountID when
// set) and returns its token; only the token's hash is kept.
func (r *Resolver) createSignIn(ctx context.Context, tx db.Tx, email string, accountID *string, returnPath string, life time.Duration) (string, time.Time, error) {
	token := newSessionToken()
	h := sha256.Sum256([]byte(token))
	expires := r.Now().Add(life).UTC().Truncate(time.Second)
	if _, err := tx.River.Exec(ctx, `INSERT INTO buyer_sign_ins (id, token_hash, email, account_id, return_path, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6)`, db.NewID("bsi"), h[:], email, accountID, returnPath, expires); err != nil {
		return "", time.Time{}, fmt.Errorf("store sign-in link: %w", err)
	}
	return token, expires, nil
}

// SignInRefused is a sign-in link that does not sign in: Reason is
// "invalid" (malformed or unknown), "used" or "expired"; Email is the
// link's email for the form to be filled with ("" when invalid).
type SignInRefused struct {
	Reason string
	Email  string
}

func (e *SignInRefused) Error() string { return "library sign-in link " + e.Reason }

// BuyerSignedIn is a buyer session just opened: its cookie's token, and
// where the buyer goes.
type BuyerSignedIn struct {
	Token      string
	ExpiresAt  time.Time
	ReturnPath string
}

// OpenLibrarySignIn uses a sign-in link (once) and opens its buyer
// session, with the link's scope. Errors: *SignInRefused.
func (r *Resolver) OpenLibrarySignIn(ctx context.Context, token string) (*BuyerSignedIn, error) {
	if !wellFormedSessionToken(token) {
		return nil, &SignInRefused{Reason: "invalid"}
	}
	h := sha256.Sum256([]byte(token))
	out := &BuyerSignedIn{Token: newSessionToken()}
	err := r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		var (
			id, email string
			accountID *string
			expires   time.Time
			used      *time.Time
		)
		err := tx.River.QueryRow(ctx, `SELECT id, email, account_id, return_path, expires_at, used_at
			FROM buyer_sign_ins WHERE token_hash = $1 FOR UPDATE`, h[:]).Scan(&id, &email, &accountID, &out.ReturnPath, &expires, &used)
		if errors.Is(err, pgx.ErrNoRows) {
			return &SignInRefused{Reason: "invalid"}
		}
		if err != nil {
			return fmt.Errorf("read sign-in link: %w", err)
		}
		switch {
		case used != nil:
			return &SignInRefused{Reason: "used", Email: email}
		case !r.stillValid(expires):
			return &SignInRefused{Reason: "expired", Email: email}
		}
		now := r.Now()
		if _, err := tx.River.Exec(ctx, `UPDATE buyer_sign_ins SET used_at = $2 WHERE id = $1`, id, now); err != nil {
			return fmt.Errorf("use sign-in link: %w", err)
		}
		sh := sha256.Sum256([]byte(out.Token))
		out.ExpiresAt = now.Add(BuyerSessionLife).UTC().Truncate(time.Second)
		if _, err := tx.River.Exec(ctx, `INSERT INTO buyer_sessions (id, token_hash, email, account_id, sign_in_id, expires_at)
			VALUES ($1, $2, $3, $4, $5, $6)`, db.NewID("bys"), sh[:], email, accountID, id, out.ExpiresAt); err != nil {
			return fmt.Errorf("open buyer session: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// PeekLibrarySignIn says what opening a sign-in link would do, without
// using it up (a HEAD: a mail scanner's or a link preview's): nil for a
// link that would sign in, else the SignInRefused opening it would give.
func (r *Resolver) PeekLibrarySignIn(ctx context.Context, token string) error {
	if !wellFormedSessionToken(token) {
		return &SignInRefused{Reason: "invalid"}
	}
	h := sha256.Sum256([]byte(token))
	var email string
	var expires time.Time
	var used *time.Time
	err := r.DB.Pool.QueryRow(ctx, `SELECT email, expires_at, used_at FROM buyer_sign_ins WHERE token_hash = $1`, h[:]).
		Scan(&email, &expires, &used)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return &SignInRefused{Reason: "invalid"}
	case err != nil:
		return fmt.Errorf("read sign-in link: %w", err)
	case used != nil:
		return &SignInRefused{Reason: "used", Email: email}
	case !r.stillValid(expires):
		return &SignInRefused{Reason: "expired", Email: email}
	}
	return nil
}

// BuyerSession is a signed-in buyer: whose orders (Email, lowercase) and,
// for a portal link's session, the one store it shows.
type BuyerSession struct {
	ID        string
	Email     string
	AccountID *string
}

// BuyerSessionOf finds the live session of a commerce_buyer cookie's
// token: nil when it is malformed, unknown, signed out or expired. It
// reads the database every time, so a sign-out holds at once everywhere.
func (r *Resolver) BuyerSessionOf(ctx context.Context, token string) (*BuyerSession, error) {
	if !wellFormedSessionToken(token) {
		return nil, nil
	}
	h := sha256.Sum256([]byte(token))
	s := new(BuyerSession)
	var (
		expires time.Time
		revoked *time.Time
	)
	err := r.DB.Pool.QueryRow(ctx, `SELECT id, email, account_id, expires_at, revoked_at FROM buyer_sessions WHERE token_hash = $1`, h[:]).
		Scan(&s.ID, &s.Email, &s.AccountID, &expires, &revoked)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("buyer session: %w", err)
	}
	if revoked != nil || !r.stillValid(expires) {
		return nil, nil
	}
	return s, nil
}

// SignOutBuyer ends the session of a commerce_buyer cookie's token (a
// malformed or unknown one ends nothing).
func (r *Resolver) SignOutBuyer(ctx context.Context, token string) error {
	if !wellFormedSessionToken(token) {
		return nil
	}
	h := sha256.Sum256([]byte(token))
	if _, err := r.DB.Pool.Exec(ctx, `UPDATE buyer_sessions SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL`, h[:]); err != nil {
		return fmt.Errorf("sign the buyer out: %w", err)
	}
	return nil
}

// LibraryPage is what the library shows a signed-in buyer.
type LibraryPage struct {
	Email string
	// Store is the store of /s/{slug}/library, or of a portal link's
	// session; nil for every store.
	Store *LibraryStoreRef
	// Elsewhere: the page is another store's, and the session (a portal
	// link's) shows only Store: nothing is listed.
	Elsewhere *LibraryStoreRef
	Groups    []LibraryGroup
	// NextURL is the next page of older orders ("" on the last);
	// FirstURL the first page ("" on it).
	NextURL  string
	FirstURL string
	// Freed: a device was just deactivated.
	Freed bool
}

// LibraryStoreRef names a store.
type LibraryStoreRef struct {
	Name string
	Slug string
}

// LibraryGroup is one store's orders on a library page.
type LibraryGroup struct {
	StoreName string
	// StoreURL is the store page; LibraryURL its library view ("" when
	// the store has no slug).
	StoreURL   string
	LibraryURL string
	Orders     []LibraryOrder
}

// LibraryOrder is one purchase in the library.
type LibraryOrder struct {
	ID       string
	Title    string
	CoverURL string
	Date     string
	DateTime string
	Paid     string
	// Status says what became of the order, in words for the buyer.
	Status string
	// Access: the buyer can download it (DownloadURL, when the page's
	// link is known; otherwise the purchase email has it).
	Access      bool
	DownloadURL string
	ReviewURL   string
	LicenseKeys []DownloadLicenseKey
	// Membership is the membership this purchase began (CONTRACT §26),
	// shown in its place with its renewals as its payments; nil for a
	// one-time purchase. Access then also follows the membership.
	Membership *LibraryMembership
}

// Library is the library page of session s: its email's orders, newest
// first, LibraryPageSize a page after order id after ("" for the first
// page), grouped by store; storeSlug ("" for every store) narrows it to
// one store. Errors: not_found (no such store).
func (r *Resolver) Library(ctx context.Context, s *BuyerSession, storeSlug, after string) (*LibraryPage, error) {
	p := &LibraryPage{Email: s.Email}
	scope := s.AccountID
	if storeSlug != "" {
		ref, id, err := r.libraryStore(ctx, storeSlug)
		if err != nil {
			return nil, err
		}
		if scope != nil && *scope != id {
			p.Elsewhere = ref
			p.Store, _, _ = r.libraryStoreByID(ctx, *scope)
			return p, nil
		}
		p.Store, scope = ref, &id
	} else if scope != nil {
		p.Store, _, _ = r.libraryStoreByID(ctx, *scope)
	}
	// A membership's renewal orders are its payments, listed under its
	// first order (library_memberships.go), not purchases of their own.
	q := r.DB.NewSelect().Model((*db.Order)(nil)).Where("lower(buyer_email) = ?", s.Email).
		Where("status IN (?)", bun.List(libraryOrderStatuses)).Where("billing_reason IS DISTINCT FROM ?", db.BillingReasonCycle).
		OrderExpr("id DESC").Limit(LibraryPageSize + 1)
	if scope != nil {
		q = q.Where("account_id = ?", *scope)
	}
	if db.ValidID("ord", after) {
		q = q.Where("id < ?", after)
		p.FirstURL = "?"
	}
	var orders []db.Order
	if err := q.Scan(ctx, &orders); err != nil {
		return nil, fmt.Errorf("list the buyer's orders: %w", err)
	}
	if len(orders) > LibraryPageSize {
		orders = orders[:LibraryPageSize]
		p.NextURL = "?after=" + orders[len(orders)-1].ID
	}
	if len(orders) == 0 {
		return p, nil
	}
	return p, r.fillLibrary(ctx, p, orders, storeSlug)
}

// fillLibrary groups orders by store with what each shows.
func (r *Resolver) fillLibrary(ctx context.Context, p *LibraryPage, orders []db.Order, storeSlug string) error {
	ids := make([]string, len(orders))
	accounts, listings := map[string]bool{}, map[string]bool{}
	for i, o := range orders {
		ids[i], accounts[o.AccountID], listings[o.ListingID] = o.ID, true, true
	}
	type grant struct {
		OrderID string     `bun:"order_id"`
		Sealed  []byte     `bun:"token_sealed"`
		Revoked *time.Time `bun:"revoked_at"`
	}
	var grants []grant
	if err := r.DB.NewSelect().Table("access_grants").Column("order_id", "token_sealed", "revoked_at").
		Where("order_id IN (?)", bun.List(ids)).Scan(ctx, &grants); err != nil {
		return fmt.Errorf("read access grants: %w", err)
	}
	grantOf := map[string]grant{}
	for _, g := range grants {
		grantOf[g.OrderID] = g
	}
	type store struct {
		ID          string  `bun:"id"`
		Slug        *string `bun:"slug"`
		DisplayName *string `bun:"display_name"`
	}
	var stores []store
	if err := r.DB.NewSelect().Table("accounts").Column("id", "slug", "display_name").
		Where("id IN (?)", bun.List(keys(accounts))).Scan(ctx, &stores); err != nil {
		return fmt.Errorf("read stores: %w", err)
	}
	storeOf := map[string]store{}
	for _, s := range stores {
		storeOf[s.ID] = s
	}
	type cover struct {
		ID       string  `bun:"id"`
		CoverKey *string `bun:"cover_key"`
	}
	var covers []cover
	if err := r.DB.NewSelect().Table("listings").Column("id", "cover_key").
		Where("id IN (?)", bun.List(keys(listings))).Scan(ctx, &covers); err != nil {
		return fmt.Errorf("read covers: %w", err)
	}
	coverOf := map[string]string{}
	for _, c := range covers {
		if c.CoverKey != nil {
			coverOf[c.ID] = r.MediaURL(*c.CoverKey)
		}
	}
	suffix := ""
	if storeSlug != "" {
		suffix = "?store=" + storeSlug
	}
	memberships, err := r.libraryMemberships(ctx, orders, suffix)
	if err != nil {
		return err
	}
	// access: the purchase can be used, and its membership (if any) has
	// not ended.
	access := func(o *db.Order) bool {
		m := memberships[o.ID]
		return libraryAccess(o) && (m == nil || m.Access)
	}
	var withAccess []string
	for _, o := range orders {
		if access(&o) {
			withAccess = append(withAccess, o.ID)
		}
	}
	keysOf, err := r.orderLicenseKeys(ctx, withAccess, func(keyID string) string {
		return "/library/licenses/" + keyID + "/deactivate" + suffix
	})
	if err != nil {
		return err
	}
	groupOf := map[string]int{}
	for i := range orders {
		o := &orders[i]
		var snap struct {
			Title string `json:"title"`
		}
		var seller struct {
			DisplayName *string `json:"display_name"`
		}
		_ = json.Unmarshal(o.ListingSnapshot, &snap)
		_ = json.Unmarshal(o.SellerSnapshot, &seller)
		at := o.CreatedAt
		if o.PaidAt != nil {
			at = *o.PaidAt
		}
		lo := LibraryOrder{ID: o.ID, Title: snap.Title, CoverURL: coverOf[o.ListingID], Date: buyerDate(at),
			DateTime: at.UTC().Format(time.RFC3339), Paid: receiptOf(o).Paid, Access: access(o), Membership: memberships[o.ID]}
		lo.Status = libraryStatus(o)
		if lo.Membership != nil {
			lo.Membership.Title = snap.Title
		}
		if g, ok := grantOf[o.ID]; ok && lo.Access && g.Revoked == nil && g.Sealed != nil {
			token, err := r.Secrets.Open(g.Sealed)
			if err != nil {
				return fmt.Errorf("open access grant of %s: %w", o.ID, err)
			}
			lo.DownloadURL = "/d/" + token
			if reviewable(o) {
				lo.ReviewURL = lo.DownloadURL + "#review"
			}
		}
		lo.LicenseKeys = keysOf[o.ID]
		gi, ok := groupOf[o.AccountID]
		if !ok {
			st := storeOf[o.AccountID]
			g := LibraryGroup{StoreName: deref(st.DisplayName, deref(seller.DisplayName, "A store"))}
			if st.Slug != nil {
				g.StoreURL, g.LibraryURL = "/s/"+*st.Slug, "/s/"+*st.Slug+"/library"
			}
			gi = len(p.Groups)
			groupOf[o.AccountID] = gi
			p.Groups = append(p.Groups, g)
		}
		p.Groups[gi].Orders = append(p.Groups[gi].Orders, lo)
	}
	return nil
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// libraryAccess: the purchase can be downloaded (not refunded, no lost
// dispute).
func libraryAccess(o *db.Order) bool {
	return o.Status != db.OrderRefunded && o.PaymentStatus != db.PaymentRefunded && !disputeLost(o)
}

// libraryStatus says what became of an order, for the buyer.
func libraryStatus(o *db.Order) string {
	switch {
	case disputeLost(o):
		return "Payment reversed: this purchase can no longer be downloaded."
	case !libraryAccess(o):
		return "Refunded: this purchase can no longer be downloaded."
	case o.Status == db.OrderFulfilled:
		return "Delivered"
	}
	return "Paid: the seller is preparing it, and will email you when it is ready."
}

// LibraryStoreBySlug names a live store for the library's pages. Errors:
// not_found.
func (r *Resolver) LibraryStoreBySlug(ctx context.Context, slug string) (*LibraryStoreRef, error) {
	ref, _, err := r.libraryStore(ctx, slug)
	return ref, err
}

// libraryStore finds a live store by slug. Errors: not_found.
func (r *Resolver) libraryStore(ctx context.Context, slug string) (*LibraryStoreRef, string, error) {
	notFound := problem.NotFoundf("There is no store at this address.")
	if !validSlugFormat(slug) {
		return nil, "", notFound
	}
	var id string
	var name *string
	err := r.DB.NewSelect().Table("accounts").Column("id", "display_name").Where("slug = ?", slug).
		Where("deleted_at IS NULL").Scan(ctx, &id, &name)
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return nil, "", notFound
	}
	if err != nil {
		return nil, "", fmt.Errorf("find store: %w", err)
	}
	return &LibraryStoreRef{Name: deref(name, slug), Slug: slug}, id, nil
}

// libraryStoreByID names a store by account id.
func (r *Resolver) libraryStoreByID(ctx context.Context, id string) (*LibraryStoreRef, string, error) {
	var slug, name *string
	if err := r.DB.NewSelect().Table("accounts").Column("slug", "display_name").Where("id = ?", id).Scan(ctx, &slug, &name); err != nil {
		return nil, "", fmt.Errorf("find store: %w", err)
	}
	return &LibraryStoreRef{Name: deref(name, "this store"), Slug: deref(slug, "")}, id, nil
}

// DeactivateFromLibrary frees device activationID of license key keyID:
// the library's Deactivate button. The key must be of an order of the
// session's email (and of its store, for a portal link's session),
// through the one deactivation every way shares. Errors: not_found (not
// the session's key, or the device is not the key's or already freed).
func (r *Resolver) DeactivateFromLibrary(ctx context.Context, s *BuyerSession, keyID, activationID string) error {
	notFound := problem.NotFoundf("That device is not active on one of your license keys.")
	if !db.ValidID("lic", keyID) || !db.ValidID("act", activationID) {
		return notFound
	}
	return r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		owned := tx.NewSelect().Table("orders").Column("id").Where("lower(buyer_email) = ?", s.Email)
		if s.AccountID != nil {
			owned = owned.Where("account_id = ?", *s.AccountID)
		}
		k := new(db.LicenseKey)
		err := db.NotFound(tx.NewSelect().Model(k).Where("id = ?", keyID).Where("order_id IN (?)", owned).For("UPDATE").Scan(ctx))
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

// CreateCustomerPortalLink makes a single-use sign-in link, valid 24
// hours, for one of the caller's customers: its session shows only the
// caller's store, whatever else the email bought. Errors:
// authentication_error, permission_denied (read_only key),
// validation_error (customer_id), not_found (not the caller's customer).
func (r *Resolver) CreateCustomerPortalLink(ctx context.Context, customerID string) (*model.PortalLink, error) {
	p, err := writer(ctx)
	if err != nil {
		return nil, err
	}
	if !db.ValidID("cus", customerID) {
		return nil, problem.Validation("customer_id", "customer_id must be a customer id (cus_…)")
	}
	c := new(db.Customer)
	err = r.DB.NewSelect().Model(c).Where("id = ?", customerID).Where("account_id = ?", p.AccountID).Scan(ctx)
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return nil, problem.NotFoundf("No customer %q on this account.", customerID)
	}
	if err != nil {
		return nil, err
	}
	var link model.PortalLink
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		token, expires, err := r.createSignIn(ctx, tx, strings.ToLower(c.Email), &p.AccountID, "/library", PortalLinkLife)
		link = model.PortalLink{Object: "portal_link", URL: r.BaseURL + "/library/auth/" + token, ExpiresAt: expires}
		return err
	})
	if err != nil {
		return nil, err
	}
	return &link, nil
}

// CreateCustomerPortalLink is the `createCustomerPortalLink` mutation.
func (x mutationResolver) CreateCustomerPortalLink(ctx context.Context, customerID string) (*model.PortalLink, error) {
	return x.Resolver.CreateCustomerPortalLink(ctx, customerID)
}
