package sandbox

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"commerce/currency"
	"commerce/processor"
)

// The sandbox's delegated payments (ACP, CONTRACT §25): its
// delegate-payment endpoint stores vault tokens in sandbox_vault_tokens
// (resolvers.SandboxDelegatePayment), each bound to an allowance (a
// checkout session, the most it may charge, a currency, an expiry) and
// carrying what its card does (pays or declined). ChargeAgentPayment uses
// a token once.

// VaultTokenHash is how a vault token is kept: its SHA-256.
func VaultTokenHash(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// Vault token outcomes (sandbox_vault_tokens.outcome).
const (
	VaultPays     = "pays"
	VaultDeclined = "declined"
)

// ChargeAgentPayment charges a vault token: one UPDATE takes the token
// when it is unused and its allowance covers the charge (the session, the
// seller, the currency, an amount up to max_amount, not expired), marking
// it used by c.IdempotencyKey. The same key asked again gets the first
// outcome (a token is used once: a retry of the charge is that charge).
// A token that does not fit is declined with a message saying why
// (unknown, used by another charge, another session, a larger amount,
// another currency, expired); its card's own decline (4000…0002) is
// "Your card was declined.". A payment intent (sbx_pi_ and the order id's
// suffix) names a paid charge.
func (p *Processor) ChargeAgentPayment(ctx context.Context, c processor.AgentCharge) (processor.ChargeResult, error) {
	if p.DB == nil {
		return processor.ChargeResult{}, errors.New("sandbox: no database to keep vault tokens in")
	}
	if c.IdempotencyKey == "" || c.OrderID == "" {
		return processor.ChargeResult{}, errors.New("sandbox: an agent charge needs an idempotency key and an order")
	}
	h := VaultTokenHash(c.Token)
	pi := PaymentIntentID(c.OrderID)
	var outcome string
	err := p.DB.Pool.QueryRow(ctx, `UPDATE sandbox_vault_tokens SET used_at = now(), charge_key = $2, charge_amount = $3,
			payment_intent_id = CASE WHEN outcome = 'pays' THEN $4 END
		WHERE token_hash = $1 AND used_at IS NULL AND account_id = $5 AND checkout_session_id = $6
		  AND currency = $7 AND max_amount >= $3 AND expires_at > now()
		RETURNING outcome`, h, c.IdempotencyKey, c.Amount, pi, c.AccountID, c.CheckoutSessionID,
		strings.ToLower(c.Currency)).Scan(&outcome)
	if err == nil {
		return chargeResult(outcome, pi), nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return processor.ChargeResult{}, fmt.Errorf("sandbox: charge a vault token: %w", err)
	}
	// Refused: say why, from the row as it is.
	var (
		account, session, cur string
		maxAmount             int64
		expired, used         bool
		key                   *string
		usedPI                *string
	)
	err = p.DB.Pool.QueryRow(ctx, `SELECT account_id, checkout_session_id, currency, max_amount, expires_at <= now(),
			used_at IS NOT NULL, charge_key, outcome, payment_intent_id
		FROM sandbox_vault_tokens WHERE token_hash = $1`, h).
		Scan(&account, &session, &cur, &maxAmount, &expired, &used, &key, &outcome, &usedPI)
	if errors.Is(err, pgx.ErrNoRows) {
		return declined("The payment token is not one the sandbox issued."), nil
	}
	if err != nil {
		return processor.ChargeResult{}, fmt.Errorf("sandbox: read a vault token: %w", err)
	}
	switch {
	case used && key != nil && *key == c.IdempotencyKey:
		return chargeResult(outcome, pi), nil
	case used:
		return declined("The payment token was already used."), nil
	case account != c.AccountID || session != c.CheckoutSessionID:
		return declined("The payment token is bound to another checkout session."), nil
	case cur != strings.ToLower(c.Currency):
		return declined(fmt.Sprintf("The payment token allows %s, not %s.", strings.ToUpper(cur), strings.ToUpper(c.Currency))), nil
	case maxAmount < c.Amount:
		return declined(fmt.Sprintf("The payment token allows at most %s; the total is %s.",
			currency.Format(maxAmount, cur), currency.Format(c.Amount, cur))), nil
	case expired:
		return declined("The payment token has expired."), nil
	}
	return declined("The payment token cannot pay this checkout."), nil
}

func chargeResult(outcome, paymentIntentID string) processor.ChargeResult {
	if outcome == VaultPays {
		return processor.ChargeResult{Paid: true, PaymentIntentID: paymentIntentID}
	}
	return declined("Your card was declined.")
}

func declined(msg string) processor.ChargeResult {
	return processor.ChargeResult{DeclineMessage: msg}
}
