package resolvers

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"commerce/db"
	"commerce/problem"
	"commerce/processor"
	"commerce/processor/sandbox"
)

// The sandbox's delegate-payment vault (CONTRACT §25): acp-wire serves
// {base_url}/sandbox/acp/agentic_commerce/delegate_payment with it, and
// the sandbox processor's ChargeAgentPayment uses its tokens.

// SandboxAllowance is a delegate-payment allowance: the most a token may
// charge (MaxAmount, minor units) in Currency, for one checkout session
// of one seller (MerchantID: the payment handler's config.merchant_id,
// the seller's account id), until ExpiresAt.
type SandboxAllowance struct {
	Reason, Currency, CheckoutSessionID, MerchantID string
	MaxAmount                                       int64
	ExpiresAt                                       time.Time
}

// SandboxCard is the card delegated (the sandbox's test cards only).
type SandboxCard struct{ Number, ExpMonth, ExpYear, CVC, Name string }

// SandboxVaultToken is a vault token issued: ID is the token itself
// (vt_…, shown once; only its hash is kept).
type SandboxVaultToken struct {
	ID       string
	Created  time.Time
	Metadata map[string]string
}

// Sandbox test cards (CONTRACT §25).
const (
	SandboxTestCardPays     = "4242424242424242"
	SandboxTestCardDeclined = "4000000000000002"
)

// Bounds of a delegate-payment request.
const (
	maxVaultMetadataKeys  = 20
	maxVaultMetadataValue = 500
	maxVaultLife          = 24 * time.Hour
)

// SandboxDelegatePayment stores a vault token for a sandbox test card
// within an allowance: card 4242424242424242 gives a token that pays,
// 4000000000000002 one that is declined; the token is bound to the
// allowance's session, seller, currency, amount and expiry (the sandbox's
// ChargeAgentPayment checks them). Errors: not_found (not the sandbox
// processor), validation_error with a JSONPath param
// ($.payment_method.number, .exp_month, .exp_year, .cvc;
// $.allowance.reason, .max_amount, .currency, .checkout_session_id,
// .merchant_id, .expires_at; $.metadata).
func (r *Resolver) SandboxDelegatePayment(ctx context.Context, card SandboxCard, a SandboxAllowance, metadata map[string]string) (*SandboxVaultToken, error) {
	if r.Processor.Name() != processor.Sandbox {
		return nil, problem.NotFoundf("No sandbox here.")
	}
	var f problem.Fields
	number := strings.ReplaceAll(strings.ReplaceAll(card.Number, " ", ""), "-", "")
	outcome := ""
	switch number {
	case SandboxTestCardPays:
		outcome = sandbox.VaultPays
	case SandboxTestCardDeclined:
		outcome = sandbox.VaultDeclined
	default:
		f.Add("$.payment_method.number", "The sandbox takes the test cards 4242424242424242 (pays) and 4000000000000002 (declined).")
	}
	now := r.Now().UTC()
	month, merr := strconv.Atoi(card.ExpMonth)
	year, yerr := strconv.Atoi(card.ExpYear)
	if card.ExpMonth != "" && (merr != nil || month < 1 || month > 12) {
		f.Add("$.payment_method.exp_month", "The expiry month is 1 to 12.")
	}
	if card.ExpYear != "" && (yerr != nil || year < 2000 || year > 2100) {
		f.Add("$.payment_method.exp_year", "The expiry year has four digits, such as 2030.")
	} else if card.ExpYear != "" && merr == nil && month >= 1 && month <= 12 &&
		time.Date(year, time.Month(month)+1, 1, 0, 0, 0, 0, time.UTC).Before(now) {
		f.Add("$.payment_method.exp_year", "The card has expired.")
	}
	if len(card.CVC) > 4 || strings.Trim(card.CVC, "0123456789") != "" {
		f.Add("$.payment_method.cvc", "The CVC is 3 or 4 digits.")
	}
	if a.Reason != "one_time" {
		f.Add("$.allowance.reason", `The allowance's reason is "one_time".`)
	}
	if a.MaxAmount < 1 || a.MaxAmount > 99_999_999 {
		f.Add("$.allowance.max_amount", "The allowance's max_amount is 1 to 99,999,999 in minor units.")
	}
	cur := strings.ToLower(a.Currency)
	if len(cur) != 3 || strings.Trim(cur, "abcdefghijklmnopqrstuvwxyz") != "" {
		f.Add("$.allowance.currency", "The allowance's currency is an ISO 4217 code such as usd.")
	}
	switch {
	case !a.ExpiresAt.After(now):
		f.Add("$.allowance.expires_at", "The allowance's expires_at is in the future.")
	case a.ExpiresAt.After(now.Add(maxVaultLife)):
		f.Add("$.allowance.expires_at", "The allowance's expires_at is at most 24 hours ahead.")
	}
	if len(metadata) > maxVaultMetadataKeys {
		f.Add("$.metadata", fmt.Sprintf("At most %d metadata keys.", maxVaultMetadataKeys))
	}
	for k, v := range metadata {
		if utf8.RuneCountInString(k) > 40 || utf8.RuneCountInString(v) > maxVaultMetadataValue {
			f.Add("$.metadata", "Metadata keys are at most 40 characters, values at most 500.")
			break
		}
	}
	// The session must be an open one of the seller.
	if !db.ValidID("acc", a.MerchantID) {
		f.Add("$.allowance.merchant_id", "The merchant_id is the payment handler's config.merchant_id (acc_…).")
	} else if !db.ValidID("acs", a.CheckoutSessionID) {
		f.Add("$.allowance.checkout_session_id", "The checkout_session_id is the session's id (acs_…).")
	} else {
		ok, err := r.DB.NewSelect().Table("acp_checkout_sessions").Where("id = ?", a.CheckoutSessionID).
			Where("account_id = ?", a.MerchantID).Where("status IN (?, ?)", AgentNotReady, AgentReady).Exists(ctx)
		if err != nil {
			return nil, err
		}
		if !ok {
			f.Add("$.allowance.checkout_session_id", "No open checkout session of this merchant has this id.")
		}
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	if metadata == nil {
		metadata = map[string]string{}
	}
	meta, err := json.Marshal(metadata)
	if err != nil {
		return nil, err
	}
	token := "vt_" + strings.ToLower(rand.Text())
	if _, err := r.DB.Pool.Exec(ctx, `INSERT INTO sandbox_vault_tokens (token_hash, account_id, checkout_session_id, max_amount,
			currency, expires_at, outcome, card_last4, metadata, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, sandbox.VaultTokenHash(token), a.MerchantID, a.CheckoutSessionID,
		a.MaxAmount, cur, a.ExpiresAt.UTC(), outcome, number[len(number)-4:], meta, now); err != nil {
		return nil, fmt.Errorf("store the vault token: %w", err)
	}
	return &SandboxVaultToken{ID: token, Created: now.Truncate(time.Second), Metadata: metadata}, nil
}
