package resolvers

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"commerce/db"
	"commerce/graph/model"
	"commerce/pricing"
	"commerce/problem"
)

// plans is the plan table: each plan's monthly price in USD cents, with the
// fee rate the price pipeline takes on it (pricing.FeeRate: free 15 %,
// growth 5 %, scale 3 %).
var plans = []*model.Plan{
	{Object: "plan", ID: "free", Name: "Free", FeeRate: feeRate("free"), MonthlyPrice: 0, Currency: "usd"},
	{Object: "plan", ID: "growth", Name: "Growth", FeeRate: feeRate("growth"), MonthlyPrice: 2900, Currency: "usd"},
	{Object: "plan", ID: "scale", Name: "Scale", FeeRate: feeRate("scale"), MonthlyPrice: 9900, Currency: "usd"},
}

// feeRate is a plan's fee rate ("0.15"), "" for an unknown plan.
func feeRate(plan string) string {
	r, _ := pricing.FeeRate(plan)
	return r
}

// PlanByID returns a plan of the table.
func PlanByID(id string) (*model.Plan, bool) {
	for _, p := range plans {
		if string(p.ID) == id {
			return p, true
		}
	}
	return nil, false
}

// Ping reports that the service answers, with its clock and version.
func (r *Resolver) Ping(ctx context.Context) (*model.Ping, error) {
	return &model.Ping{Object: "ping", OK: true, Time: r.Now().UTC().Truncate(time.Second), Version: r.Version}, nil
}

// Plans returns the pricing plans. It needs no authentication.
func (r *Resolver) Plans(ctx context.Context) ([]*model.Plan, error) {
	out := make([]*model.Plan, len(plans))
	for i, p := range plans {
		cp := *p
		out[i] = &cp
	}
	return out, nil
}

// NormalizeEmail validates an email address and returns it trimmed, with a
// lowercase domain. Errors: validation_error param email.
func NormalizeEmail(s string) (string, error) {
	s = strings.TrimSpace(s)
	addr, err := mail.ParseAddress(s)
	if err != nil || addr.Address != s || len(s) > 254 {
		return "", problem.Validation("email", "email must be a plain address such as seller@example.com")
	}
	at := strings.LastIndexByte(s, '@')
	return s[:at] + "@" + strings.ToLower(s[at+1:]), nil
}

// CreatedAccount is an account with a fresh API key (shown once).
type CreatedAccount struct {
	Account *model.Account
	Key     *model.CreatedAPIKey
	// Existed is true when the account was already there and only the key is new.
	Existed bool
}

// CreateAccount creates an account on a plan with a first full-scope key,
// in one transaction. When reuse is set and the email already has an account,
// a new key is issued on it instead. Errors: validation_error (email, plan;
// the email already has an account when reuse is false).
func (r *Resolver) CreateAccount(ctx context.Context, email, plan, keyName string, reuse bool) (*CreatedAccount, error) {
	email, err := NormalizeEmail(email)
	if err != nil {
		return nil, err
	}
	if plan == "" {
		plan = "free"
	}
	if _, ok := PlanByID(plan); !ok {
		return nil, problem.Validation("plan", "plan must be free, growth or scale")
	}
	var out CreatedAccount
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		acc, err := db.AccountByEmail(ctx, tx, email)
		switch {
		case err == nil:
			if !reuse {
				return problem.Validation("email", "an account with this email already exists")
			}
			out.Existed = true
		case errors.Is(err, db.ErrNotFound):
			acc = &db.Account{ID: db.NewID("acc"), Email: email, Plan: plan, BillingStatus: "active", NotifyOrders: true, NotifyWebhooks: true}
			if _, err := tx.NewInsert().Model(acc).Returning("*").Exec(ctx); err != nil {
				if db.IsUniqueViolation(err, "accounts_email_key") {
					return problem.Validation("email", "an account with this email already exists")
				}
				return fmt.Errorf("insert account: %w", err)
			}
		default:
			return err
		}
		key, err := r.insertKey(ctx, tx, acc.ID, model.CreateAPIKeyInput{Name: keyName})
		if err != nil {
			return err
		}
		out.Account, out.Key = r.toAccountModel(acc, accountExtras{}), key
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}
