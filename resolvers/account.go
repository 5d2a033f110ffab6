package resolvers

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"commerce/db"
	"commerce/graph/model"
	"commerce/problem"
)

var (
	gaMeasurementPattern = regexp.MustCompile(`^G-[A-Z0-9]{10}$`)
	testKeyPattern       = regexp.MustCompile(`^(sk|rk)_test_[A-Za-z0-9_]{8,200}$`)
)

// accountExtras are the computed parts of an account: stats and readiness facts.
type accountExtras struct {
	revenue             int64
	ordersThisMonth     int
	listings            int
	disabledWebhookID   string
	failingWebhookID    string
	hasOrderPaidHook    bool
	hasPublishedListing bool
	draftListingID      string
	awaitingOrderID     string
	awaitingContentType string
	testMode            bool
	hasAgentConnection  bool
	subscription        *subscriptionRow
}

// accountQuery loads a live account with everything its response needs, in
// one round trip: GET /v1/account is on every integration's hot path. Stats
// are running totals kept in the account's stats shards, never computed from orders.
const accountQuery = `SELECT ` + accountColumns + `
FROM accounts a` + accountStatsJoin + `
WHERE a.id = $1 AND a.deleted_at IS NULL`

// accountRead is accountQuery, kept planned behind a pooler (a dozen
// subqueries: planning it costs PostgreSQL far more than running it).
var accountRead = &db.PlannedQuery{Name: "account_read", SQL: accountQuery}

// accountColumns are the columns of accountQuery (a is the account), in
// the order of accountDest; the listing read selects them too.
const accountColumns = `
       a.id, a.email, a.plan, a.billing_status, a.display_name, a.notify_orders, a.notify_webhooks, a.created_at,
       a.bio, a.avatar_key, a.slug, a.currency, a.ga_measurement_id, a.processor_account_id,
       a.processor_status, a.charges_enabled, a.payouts_enabled, a.details_submitted, a.onboarding_token,
       st.revenue, st.orders_month_count,
       coalesce((SELECT w.id FROM webhook_endpoints w
                 WHERE w.account_id = a.id AND w.status = 'disabled' AND w.disabled_reason = 'consecutive_failures'
                   AND w.agent_connection_id IS NULL
                 ORDER BY w.id LIMIT 1), ''),
       coalesce((SELECT w.id FROM webhook_endpoints w
                 WHERE w.account_id = a.id AND w.warned_at IS NOT NULL AND w.status = 'enabled' AND w.deleted_at IS NULL
                   AND w.agent_connection_id IS NULL
                 ORDER BY w.id LIMIT 1), ''),
       a.listings_count,
       EXISTS (SELECT 1 FROM webhook_endpoints w
               WHERE w.account_id = a.id AND w.status = 'enabled' AND 'order.paid' = ANY (w.events) AND w.agent_connection_id IS NULL),
       EXISTS (SELECT 1 FROM listings l WHERE l.account_id = a.id AND l.status = 'published' AND l.deleted_at IS NULL),
       coalesce((SELECT l.id FROM listings l
                 WHERE l.account_id = a.id AND l.status = 'draft' AND l.deleted_at IS NULL
                 ORDER BY l.id DESC LIMIT 1), ''),
       coalesce((SELECT o.id FROM orders o WHERE o.account_id = a.id AND o.status = 'paid'
                 ORDER BY o.id LIMIT 1), ''),
       coalesce((SELECT o.content_type FROM orders o WHERE o.account_id = a.id AND o.status = 'paid'
                 ORDER BY o.id LIMIT 1), ''),
       a.processor_test_key IS NOT NULL,
       EXISTS (SELECT 1 FROM agent_connections c WHERE c.account_id = a.id AND c.deleted_at IS NULL),
       (SELECT row_to_json(s) FROM (SELECT plan, status, current_period_end, cancel_at
                                    FROM subscriptions WHERE account_id = a.id) s)`

// accountStatsJoin sums the account's stats shards (st) for accountColumns.
const accountStatsJoin = `
CROSS JOIN LATERAL (
       SELECT coalesce(sum(s.revenue), 0)::bigint AS revenue,
              coalesce(sum(s.orders_month_count)
                       FILTER (WHERE s.orders_month = date_trunc('month', now() AT TIME ZONE 'UTC')::date), 0)::int AS orders_month_count
       FROM account_stats s WHERE s.account_id = a.id) st`

// accountDest are the destinations of accountColumns.
func accountDest(a *db.Account, ex *accountExtras) []any {
	return []any{&a.ID, &a.Email, &a.Plan, &a.BillingStatus, &a.DisplayName,
		&a.NotifyOrders, &a.NotifyWebhooks, &a.CreatedAt, &a.Bio, &a.AvatarKey, &a.Slug, &a.Currency, &a.GAMeasurementID,
		&a.ProcessorAccountID, &a.ProcessorStatus, &a.ChargesEnabled, &a.PayoutsEnabled, &a.DetailsSubmitted,
		&a.OnboardingToken, &ex.revenue, &ex.ordersThisMonth, &ex.disabledWebhookID, &ex.failingWebhookID,
		&ex.listings, &ex.hasOrderPaidHook, &ex.hasPublishedListing, &ex.draftListingID, &ex.awaitingOrderID, &ex.awaitingContentType, &ex.testMode,
		&ex.hasAgentConnection, &ex.subscription}
}

// accountMemoKey holds a GraphQL query's accountMemo.
type accountMemoKey struct{}

// accountMemo is the account read once for one GraphQL query operation:
// viewer and viewer.listings (the listings' readiness) both need it, and
// their resolvers run concurrently. Only query operations get one (the
// server installs it): a mutation writes between its reads, so it reads
// afresh each time. A failed read is not kept.
type accountMemo struct {
	mu   sync.Mutex
	id   string
	a    db.Account
	ex   accountExtras
	done bool
}

// WithAccountMemo gives a read-only operation (a GraphQL query) one read of
// the account for all its resolvers. Never for an operation that writes.
func WithAccountMemo(ctx context.Context) context.Context {
	return context.WithValue(ctx, accountMemoKey{}, &accountMemo{})
}

// loadAccount reads the account with its computed parts, once per
// operation under WithAccountMemo. Errors: not_found.
func (r *Resolver) loadAccount(ctx context.Context, id string) (*db.Account, accountExtras, error) {
	m, ok := ctx.Value(accountMemoKey{}).(*accountMemo)
	if !ok {
		return r.readAccount(ctx, id)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.done || m.id != id {
		a, ex, err := r.readAccount(ctx, id)
		if err != nil {
			return nil, ex, err
		}
		m.id, m.a, m.ex, m.done = id, *a, ex, true
	}
	a := m.a // a copy: callers own what they get
	return &a, m.ex, nil
}

// readAccount reads the account with its computed parts. Errors: not_found.
func (r *Resolver) readAccount(ctx context.Context, id string) (*db.Account, accountExtras, error) {
	var (
		a  db.Account
		ex accountExtras
	)
	err := r.DB.QueryRowPlanned(ctx, accountRead, id).Scan(accountDest(&a, &ex)...)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, ex, problem.NotFoundf("The account no longer exists.")
	}
	if err != nil {
		return nil, ex, fmt.Errorf("load account: %w", err)
	}
	return &a, ex, nil
}

// Viewer returns the caller's account. Errors: authentication_error, not_found
// (the account was deleted meanwhile).
func (r *Resolver) Viewer(ctx context.Context) (*model.Account, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	a, ex, err := r.loadAccount(ctx, p.AccountID)
	if err != nil {
		return nil, err
	}
	return r.toAccountModel(a, ex), nil
}

// Store returns the caller's store. Errors: authentication_error, not_found.
func (r *Resolver) Store(ctx context.Context) (*model.Store, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	return r.storeOf(ctx, p.AccountID)
}

func (r *Resolver) accountFactsOf(a *db.Account, ex accountExtras) accountFacts {
	f := accountFacts{
		ProcessorStatus:            a.ProcessorStatus,
		ChargesEnabled:             a.ChargesEnabled,
		BillingStatus:              a.BillingStatus,
		BillingURL:                 r.BillingURL(),
		DisabledWebhookID:          ex.disabledWebhookID,
		FailingWebhookID:           ex.failingWebhookID,
		HasPublishedListing:        ex.hasPublishedListing,
		DraftListingID:             ex.draftListingID,
		AwaitingFulfillmentOrderID: ex.awaitingOrderID,
		AwaitingContentType:        ex.awaitingContentType,
		HasOrderPaidHook:           ex.hasOrderPaidHook,
		HasAgentConnection:         ex.hasAgentConnection,
	}
	if a.Currency != nil {
		f.Currency = *a.Currency
	}
	if a.OnboardingToken != nil {
		f.OnboardingURL = r.OnboardingURL(*a.OnboardingToken)
	}
	return f
}

// OnboardingURL is the stable page that sends a human to a fresh
// processor onboarding link (CONTRACT §7).
func (r *Resolver) OnboardingURL(token string) string {
	return r.BaseURL + "/processor/onboarding/" + token
}

func (r *Resolver) readinessOf(a *db.Account, ex accountExtras) *model.AccountReadiness {
	return accountReadiness(accountActions(r.accountFactsOf(a, ex)))
}

func (r *Resolver) toAccountModel(a *db.Account, ex accountExtras) *model.Account {
	plan, _ := PlanByID(a.Plan)
	return &model.Account{
		Object: "account", ID: a.ID, Email: a.Email, DisplayName: a.DisplayName, Bio: a.Bio, AvatarURL: r.avatarURL(a), Plan: model.PlanID(a.Plan), FeeRate: plan.FeeRate,
		BillingStatus: model.BillingStatus(a.BillingStatus), Currency: a.Currency, GAMeasurementID: a.GAMeasurementID, NotifyOrders: a.NotifyOrders,
		NotifyWebhooks: a.NotifyWebhooks,
		Processor: &model.ProcessorStatus{AccountID: a.ProcessorAccountID, Status: model.ProcessorConnectionStatus(a.ProcessorStatus),
			ChargesEnabled: a.ChargesEnabled, PayoutsEnabled: a.PayoutsEnabled, TestMode: ex.testMode},
		Stats:        &model.AccountStats{TotalRevenue: ex.revenue, TotalOrders: ex.ordersThisMonth, TotalListings: ex.listings},
		Readiness:    r.readinessOf(a, ex),
		CreatedAt:    a.CreatedAt.UTC(),
		Subscription: toSubscriptionModel(ex.subscription),
	}
}

func (r *Resolver) toStoreModel(a *db.Account, ex accountExtras) *model.Store {
	s := &model.Store{Object: "store", ID: a.ID, DisplayName: a.DisplayName, Bio: a.Bio, Slug: a.Slug,
		Readiness: r.readinessOf(a, ex)}
	if a.Slug != nil {
		u := r.BaseURL + "/s/" + *a.Slug
		s.URL = &u
	}
	s.AvatarURL = r.avatarURL(a)
	return s
}

// avatarURL is the public address of the account's avatar (nil: none).
func (r *Resolver) avatarURL(a *db.Account) *string {
	if a.AvatarKey == nil {
		return nil
	}
	u := r.MediaURL(*a.AvatarKey)
	return &u
}

// UpdateAccount changes the given fields of the caller's account.
// The profile fields (display_name, bio, avatar) follow the store's rules
// (profile.go). Errors: authentication_error, permission_denied,
// validation_error (ga_measurement_id, display_name, bio, avatar,
// processor_test_key), not_found.
func (r *Resolver) UpdateAccount(ctx context.Context, in model.UpdateAccountInput) (*model.Account, error) {
	p, err := writer(ctx)
	if err != nil {
		return nil, err
	}
	var f problem.Fields
	q := r.DB.NewUpdate().Table("accounts").Set("updated_at = now()").
		Where("id = ?", p.AccountID).Where("deleted_at IS NULL")
	if v, ok := in.GAMeasurementID.ValueOK(); ok {
		if v != nil && !gaMeasurementPattern.MatchString(*v) {
			f.Add("ga_measurement_id", "ga_measurement_id must look like G-XXXXXXXXXX (G- and 10 capital letters or digits), or be null")
		}
		q = q.Set("ga_measurement_id = ?", v)
	}
	if in.NotifyOrders != nil {
		q = q.Set("notify_orders = ?", *in.NotifyOrders)
	}
	if in.NotifyWebhooks != nil {
		q = q.Set("notify_webhooks = ?", *in.NotifyWebhooks)
	}
	name, nameSet := in.DisplayName.ValueOK()
	bio, bioSet := in.Bio.ValueOK()
	avatar, avatarSet := in.Avatar.ValueOK()
	profile := profileOf(&f, name, nameSet && name == nil, bio, bioSet, avatar, avatarSet)
	testKey, setTestKey := in.ProcessorTestKey.ValueOK()
	if setTestKey {
		if testKey != nil && !testKeyPattern.MatchString(*testKey) {
			f.Add("processor_test_key", "processor_test_key must be a Stripe test key (sk_test_… or rk_test_…), or null")
		}
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	if setTestKey {
		// A new key gets its own endpoint on the seller's test account; the
		// endpoint of the key replaced (or cleared) goes (test mode:
		// docs/decisions.md).
		if testKey == nil {
			q = q.Set("processor_test_key = NULL").Set("processor_test_endpoint_id = NULL").Set("processor_test_endpoint_secret = NULL")
		} else {
			sealed, err := r.Secrets.Seal(*testKey)
			if err != nil {
				return nil, err
			}
			endpointID, endpointSecret, err := r.registerTestEndpoint(ctx, p.AccountID, *testKey)
			if err != nil {
				return nil, err
			}
			q = q.Set("processor_test_key = ?", sealed).Set("processor_test_endpoint_id = ?", endpointID).
				Set("processor_test_endpoint_secret = ?", endpointSecret)
		}
		r.dropTestEndpoint(ctx, p.AccountID)
	}
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		q, err := r.applyProfile(ctx, tx, p.AccountID, profile, q.Conn(tx))
		if err != nil {
			return err
		}
		res, err := q.Exec(ctx)
		if err != nil {
			return fmt.Errorf("update account: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return problem.NotFoundf("The account no longer exists.")
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return r.Viewer(ctx)
}

// DeleteAccount irreversibly anonymizes the caller's account in one
// transaction (CONTRACT §6): the email becomes deleted+{id}@anonymized.invalid,
// profile fields and the store slug are cleared, every API key is revoked and
// every webhook endpoint disabled. Orders stay. Errors:
// authentication_error, permission_denied, not_found.
func (r *Resolver) DeleteAccount(ctx context.Context) (bool, error) {
	p, err := writer(ctx)
	if err != nil {
		return false, err
	}
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		var avatar *string
		if err := tx.NewSelect().Table("accounts").Column("avatar_key").Where("id = ?", p.AccountID).
			Where("deleted_at IS NULL").For("UPDATE").Scan(ctx, &avatar); err != nil {
			if errors.Is(db.NotFound(err), db.ErrNotFound) {
				return problem.NotFoundf("The account no longer exists.")
			}
			return err
		}
		if avatar != nil {
			if err := r.deleteBlobsAfterCommit(ctx, tx, *avatar); err != nil {
				return err
			}
		}
		// Published listings come off sale; their pages answer 410.
		if _, err := tx.ExecContext(ctx, `UPDATE listings SET status = 'paused', updated_at = now()
			WHERE account_id = ? AND status = 'published' AND deleted_at IS NULL`, p.AccountID); err != nil {
			return fmt.Errorf("unpublish listings: %w", err)
		}
		res, err := tx.ExecContext(ctx, `
			UPDATE accounts SET
				email = 'deleted+' || id || '@anonymized.invalid',
				display_name = NULL, bio = NULL, avatar_key = NULL, slug = NULL, ga_measurement_id = NULL,
				onboarding_token = NULL, notify_orders = false, notify_webhooks = false, deleted_at = now(), updated_at = now()
			WHERE id = ? AND deleted_at IS NULL`, p.AccountID)
		if err != nil {
			return fmt.Errorf("anonymize account: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return problem.NotFoundf("The account no longer exists.")
		}
		if _, err := tx.ExecContext(ctx, `UPDATE api_keys SET revoked_at = now()
			WHERE account_id = ? AND revoked_at IS NULL`, p.AccountID); err != nil {
			return fmt.Errorf("revoke keys: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE webhook_endpoints
			SET status = 'disabled', disabled_reason = 'account_deleted', updated_at = now()
			WHERE account_id = ? AND status = 'enabled'`, p.AccountID); err != nil {
			return fmt.Errorf("disable webhooks: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE bootstrap_sessions SET status = 'dead'
			WHERE account_id = ? AND status IN ('pending', 'verified')`, p.AccountID); err != nil {
			return fmt.Errorf("end bootstrap sessions: %w", err)
		}
		return nil
	})
	if err != nil {
		return false, err
	}
	r.forgetAccount(p.AccountID)
	r.markRevoked(ctx, p.AccountID)
	return true, nil
}

// stillValid reports whether t is in the future.
func (r *Resolver) stillValid(t time.Time) bool { return r.Now().Before(t) }
