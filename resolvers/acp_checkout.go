package resolvers

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/uptrace/bun"

	"commerce/db"
	"commerce/pricing"
	"commerce/problem"
	"commerce/processor"
)

// Buyers' agents' checkout sessions (ACP, CONTRACT §25; docs/decisions.md
// "ACP checkout sessions"). A session holds one listing of the seller,
// quantity 1. Once its listing is priced a pending order backs it
// (orders.source 'acp', the connection): the order carries the money, the
// discount code's reservation (§19) and checkout_expires_at, so the expiry
// sweep cancels it and releases the code as for any checkout. Completing
// charges the agent's delegated credential through the processor and pays
// that order (markPaid: delivery, emails, webhooks). acp-wire maps these
// use cases to ACP's JSON and errors.

// Session statuses (acp_checkout_sessions.status).
const (
	AgentNotReady  = "not_ready_for_payment"
	AgentReady     = "ready_for_payment"
	AgentCompleted = "completed"
	AgentCanceled  = "canceled"
	AgentExpired   = "expired"
)

// Limits of a session's input, checked before any work.
const (
	maxAgentItems     = 20
	maxAgentCodes     = 10
	maxAgentText      = 256
	maxAgentTokenSize = 512
)

// The one fulfillment option and the payment handlers' ids.
const (
	AgentFulfillmentDigital = "digital"
	AgentHandlerSandbox     = "sandbox_card"
	AgentHandlerStripe      = "stripe_spt"
)

// AgentCheckoutInput is a create or update of a session. On update a nil
// field leaves the session's value as it is.
type AgentCheckoutInput struct {
	Items     []AgentItemInput // nil: unchanged (update)
	Currency  string           // create only; "" on update
	Buyer     *AgentBuyer      // nil: unchanged
	Discounts *[]string        // nil: unchanged; the codes to apply (ACP discount extension)
	// FulfillmentOptionID: "digital" is the only option.
	FulfillmentOptionID *string
}

// AgentItemInput is a line item asked for: a listing id and a quantity.
type AgentItemInput struct {
	ID       string `json:"id"`
	Quantity int    `json:"quantity"`
}

// AgentBuyer is the buyer as the agent gives it.
type AgentBuyer struct{ Email, FirstName, LastName, PhoneNumber string }

// AgentPayment is complete's payment_data: the handler, the instrument's
// type ("card"), the credential's type ("spt") and its token.
type AgentPayment struct {
	HandlerID, InstrumentType, CredentialType, Token string
	Buyer                                            *AgentBuyer
}

// AgentCheckout is a session as the use cases see it; acp-wire maps it to
// ACP's JSON. Amounts in minor units; Currency lowercase.
type AgentCheckout struct {
	ID, AccountID, ConnectionID, Status, Currency string
	Buyer                                         *AgentBuyer
	Items                                         []AgentCheckoutItem
	Discounts                                     AgentDiscounts
	Totals                                        AgentTotals
	Messages                                      []AgentMessage
	Handlers                                      []AgentPaymentHandler
	Links                                         []AgentLink
	Order                                         *AgentOrder // once completed
	CreatedAt, UpdatedAt, ExpiresAt               time.Time
}

// AgentCheckoutItem is the session's line item (the listing).
type AgentCheckoutItem struct {
	LineID, ListingID, Title, Description, ImageURL, URL string
	Quantity                                             int
	BaseAmount, Discount, Subtotal, Total                int64 // the line's
	UnitAmount                                           int64
}

// AgentDiscounts are the discount extension's codes: as asked, applied,
// rejected.
type AgentDiscounts struct {
	Codes    []string
	Applied  []AgentAppliedDiscount
	Rejected []AgentRejectedDiscount
}

// AgentAppliedDiscount is an applied code: Amount is what it takes off.
type AgentAppliedDiscount struct {
	ID, Code, Name        string
	PercentOff, AmountOff *int64
	Amount                int64
}

// AgentRejectedDiscount is a refused code; Reason is ACP's
// DiscountErrorCode (discount_code_invalid, discount_code_expired, …).
type AgentRejectedDiscount struct{ Code, Reason, Message string }

// AgentTotals are the session's totals: ItemsBase before discounts,
// ItemsDiscount the code's amount (our codes take off the item), Subtotal
// ItemsBase − ItemsDiscount, Discount the whole discount (equal to
// ItemsDiscount), Fulfillment 0 (digital), Total what is charged.
type AgentTotals struct{ ItemsBase, ItemsDiscount, Subtotal, Discount, Fulfillment, Total int64 }

// AgentMessage is one of the session's messages. Type is "error",
// "warning" (a rejected discount code: Code is its DiscountErrorCode) or
// "info"; Param a JSONPath; Resolution "recoverable",
// "requires_buyer_input" or "".
type AgentMessage struct{ Type, Code, Param, Content, Resolution string }

// AgentPaymentHandler is a payment handler the session accepts.
type AgentPaymentHandler struct {
	ID, Name, PSP           string
	RequiresDelegatePayment bool
	Config                  map[string]any // merchant_id: the seller's account id
}

// AgentLink is a link of the session (about_us: the seller's store page).
type AgentLink struct{ Type, URL, Title string }

// AgentOrder is the order of a completed session: its id, the session,
// the thank-you page (with its view token) and the order's ACP status.
type AgentOrder struct{ ID, CheckoutSessionID, PermalinkURL, Status string }

// acpSession is a row of acp_checkout_sessions.
type acpSession struct {
	bun.BaseModel `bun:"table:acp_checkout_sessions"`

	ID              string           `bun:"id,pk"`
	AccountID       string           `bun:"account_id"`
	ConnectionID    string           `bun:"agent_connection_id"`
	Status          string           `bun:"status"`
	Currency        string           `bun:"currency"`
	ListingID       *string          `bun:"listing_id"`
	Items           []AgentItemInput `bun:"items,type:jsonb"`
	BuyerEmail      *string          `bun:"buyer_email"`
	BuyerFirstName  *string          `bun:"buyer_first_name"`
	BuyerLastName   *string          `bun:"buyer_last_name"`
	BuyerPhone      *string          `bun:"buyer_phone_number"`
	DiscountCodes   []string         `bun:"discount_codes,array"`
	OrderID         *string          `bun:"order_id"`
	PaymentDeclined *string          `bun:"payment_declined"`
	View            acpView          `bun:"view,type:jsonb"`
	CreatedAt       time.Time        `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	UpdatedAt       time.Time        `bun:"updated_at,nullzero,notnull,default:current_timestamp"`
	ExpiresAt       time.Time        `bun:"expires_at"`
	CompletedAt     *time.Time       `bun:"completed_at"`
	CanceledAt      *time.Time       `bun:"canceled_at"`
}

// acpView is what a session shows, as last computed.
type acpView struct {
	Items     []AgentCheckoutItem `json:"items"`
	Discounts AgentDiscounts      `json:"discounts"`
	Totals    AgentTotals         `json:"totals"`
	Messages  []AgentMessage      `json:"messages"`
	Order     *AgentOrder         `json:"order,omitempty"`
}

// open reports whether a session can still change (not completed,
// canceled or expired).
func (s *acpSession) open() bool { return s.Status == AgentNotReady || s.Status == AgentReady }

// CreateAgentCheckout starts a checkout session of the principal's seller
// (ACP POST /checkout_sessions): the line items, the currency, the buyer
// and the discount codes, then the session computed (agentEvaluate) and
// its pending order stored when its listing is priced. Conversational
// issues are the session's messages, not errors. Errors: validation_error
// with a JSONPath param ($.line_items: none or more than 20;
// $.line_items[N].id / .quantity; $.currency; $.buyer.*;
// $.discounts.codes), not_found (the seller's account is gone), conflict.
func (r *Resolver) CreateAgentCheckout(ctx context.Context, p AgentPrincipal, in AgentCheckoutInput) (*AgentCheckout, error) {
	if len(in.Items) == 0 {
		return nil, problem.Validation("$.line_items", "A checkout session needs one line item: the listing id (lst_…) as its id.")
	}
	if err := checkAgentInput(in, true); err != nil {
		return nil, err
	}
	acc, err := r.agentAccount(ctx, p)
	if err != nil {
		return nil, err
	}
	now := r.Now().UTC()
	life := r.CheckoutExpiry
	if life <= 0 {
		life = 30 * time.Minute
	}
	s := &acpSession{ID: db.NewID("acs"), AccountID: acc.ID, ConnectionID: p.ConnectionID, Status: AgentNotReady,
		Currency: strings.ToLower(strings.TrimSpace(in.Currency)), Items: in.Items, DiscountCodes: []string{},
		CreatedAt: now, UpdatedAt: now, ExpiresAt: now.Add(life).Truncate(time.Second)}
	applyAgentInput(s, in)
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		if _, err := tx.NewInsert().Model(s).Exec(ctx); err != nil {
			return fmt.Errorf("create checkout session: %w", err)
		}
		return r.agentRefresh(ctx, tx, s, acc)
	})
	if err != nil {
		return nil, err
	}
	return r.agentCheckoutOf(s, acc), nil
}

// UpdateAgentCheckout changes an open session (ACP POST
// /checkout_sessions/{id}): the fields given replace the session's, and
// the session is computed again with its order. Errors: not_found (no
// such session of the seller), validation_error (as create), conflict
// (another request is changing the session), invalid_transition
// (the session is completed, canceled or expired: current_status).
func (r *Resolver) UpdateAgentCheckout(ctx context.Context, p AgentPrincipal, id string, in AgentCheckoutInput) (*AgentCheckout, error) {
	if err := checkAgentInput(in, false); err != nil {
		return nil, err
	}
	if in.Items != nil && len(in.Items) == 0 {
		return nil, problem.Validation("$.line_items", "A checkout session needs one line item: the listing id (lst_…) as its id.")
	}
	acc, err := r.agentAccount(ctx, p)
	if err != nil {
		return nil, err
	}
	if err := r.expireAgentCheckoutIfDue(ctx, acc.ID, id); err != nil {
		return nil, err
	}
	var s *acpSession
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		var err error
		if s, err = lockAgentSession(ctx, tx, acc.ID, id); err != nil {
			return err
		}
		if !s.open() {
			return agentStateProblem(s, "updated")
		}
		applyAgentInput(s, in)
		return r.agentRefresh(ctx, tx, s, acc)
	})
	if err != nil {
		return nil, err
	}
	return r.agentCheckoutOf(s, acc), nil
}

// AgentCheckoutSession returns one of the seller's sessions (ACP GET
// /checkout_sessions/{id}) as last computed; one past its expiry reads
// expired (and its order is canceled, its code released, now). Errors:
// not_found.
func (r *Resolver) AgentCheckoutSession(ctx context.Context, p AgentPrincipal, id string) (*AgentCheckout, error) {
	acc, err := r.agentAccount(ctx, p)
	if err != nil {
		return nil, err
	}
	if err := r.expireAgentCheckoutIfDue(ctx, acc.ID, id); err != nil {
		return nil, err
	}
	s := new(acpSession)
	err = r.DB.NewSelect().Model(s).Where("id = ?", id).Where("account_id = ?", acc.ID).Scan(ctx)
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return nil, agentNotFound(id)
	}
	if err != nil {
		return nil, err
	}
	return r.agentCheckoutOf(s, acc), nil
}

// CancelAgentCheckout cancels an open session (ACP POST
// /checkout_sessions/{id}/cancel): its pending order is canceled
// (order.canceled) and its discount code's reservation released. Errors:
// not_found, conflict, invalid_transition (completed, already canceled or
// expired: current_status says which; acp-wire answers a second cancel
// 405).
func (r *Resolver) CancelAgentCheckout(ctx context.Context, p AgentPrincipal, id string) (*AgentCheckout, error) {
	acc, err := r.agentAccount(ctx, p)
	if err != nil {
		return nil, err
	}
	if err := r.expireAgentCheckoutIfDue(ctx, acc.ID, id); err != nil {
		return nil, err
	}
	var s *acpSession
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		var err error
		if s, err = lockAgentSession(ctx, tx, acc.ID, id); err != nil {
			return err
		}
		if !s.open() {
			return agentStateProblem(s, "canceled")
		}
		if err := r.endAgentOrder(ctx, tx, s); err != nil {
			return err
		}
		now := r.Now().UTC()
		s.Status, s.CanceledAt, s.UpdatedAt = AgentCanceled, &now, now
		s.View.Messages = agentBlockingFree(s.View.Messages)
		_, err = tx.NewUpdate().Model(s).WherePK().Column("status", "canceled_at", "updated_at", "view").Exec(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return r.agentCheckoutOf(s, acc), nil
}

// CompleteAgentCheckout pays a ready session (ACP POST
// /checkout_sessions/{id}/complete): the buyer given with it is applied
// first; then, with the session locked, the credential is charged through
// the processor once (ChargeAgentPayment, idempotent per session and
// token) and the order paid at once (markPaid: source acp, delivered as
// any order) and the session completed, in one transaction. A declined
// credential leaves the session open with an error message
// payment_declined (no error). Errors: not_found, validation_error
// ($.payment_data.*), conflict (another request is completing or changing
// the session: code conflict), invalid_transition (completed, canceled,
// expired, or not_ready_for_payment: current_status says which).
func (r *Resolver) CompleteAgentCheckout(ctx context.Context, p AgentPrincipal, id string, pay AgentPayment) (*AgentCheckout, error) {
	handler := r.agentHandlerID()
	var f problem.Fields
	switch {
	case pay.HandlerID != handler:
		f.Add("$.payment_data.handler_id", fmt.Sprintf("The payment handler is %s.", handler))
	case pay.InstrumentType != "card":
		f.Add("$.payment_data.instrument.type", `The instrument type is "card".`)
	case pay.CredentialType != "spt":
		f.Add("$.payment_data.instrument.credential.type", `The credential type is "spt".`)
	case strings.TrimSpace(pay.Token) == "" || len(pay.Token) > maxAgentTokenSize:
		f.Add("$.payment_data.instrument.credential.token", "The credential's token is required (at most 512 characters).")
	}
	if pay.Buyer != nil {
		checkAgentBuyer(&f, pay.Buyer, "$.buyer")
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	acc, err := r.agentAccount(ctx, p)
	if err != nil {
		return nil, err
	}
	if err := r.expireAgentCheckoutIfDue(ctx, acc.ID, id); err != nil {
		return nil, err
	}
	var s *acpSession
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		var err error
		if s, err = lockAgentSession(ctx, tx, acc.ID, id); err != nil {
			return err
		}
		if !s.open() {
			return agentStateProblem(s, "completed")
		}
		if pay.Buyer != nil {
			applyAgentInput(s, AgentCheckoutInput{Buyer: pay.Buyer})
			if err := r.agentRefresh(ctx, tx, s, acc); err != nil {
				return err
			}
		}
		if s.Status != AgentReady || s.OrderID == nil {
			return problem.Newf(problem.InvalidTransition, "The checkout session is %s: its messages say what it needs before payment.", s.Status).
				With("current_status", s.Status).With("allowed_statuses", []string{AgentReady}).With("acp_code", "checkout_session_not_ready")
		}
		return r.payAgentCheckout(ctx, tx, s, acc, pay.Token)
	})
	if err != nil {
		return nil, err
	}
	return r.agentCheckoutOf(s, acc), nil
}

// payAgentCheckout charges the locked, ready session's order and, when
// paid, pays the order and completes the session; when declined, records
// the decline on the session (it stays ready_for_payment).
func (r *Resolver) payAgentCheckout(ctx context.Context, tx db.Tx, s *acpSession, acc *db.Account, token string) error {
	o, err := lockOrder(ctx, tx, &processor.Payment{OrderID: *s.OrderID})
	if err != nil {
		return err
	}
	if o.Status != db.OrderPending {
		// The expiry sweep canceled it meanwhile.
		return agentStateProblem(&acpSession{Status: AgentExpired}, "completed")
	}
	pay := &processor.Payment{OrderID: o.ID, Amount: o.Amount, Currency: strings.ToLower(o.Currency)}
	if o.Amount > 0 {
		testKey := ""
		if o.TestMode {
			if testKey, err = r.testKeyOf(acc.ProcessorTestKey); err != nil {
				return err
			}
		}
		res, err := r.Processor.ChargeAgentPayment(ctx, processor.AgentCharge{IdempotencyKey: agentChargeKey(s.ID, token),
			CheckoutSessionID: s.ID, OrderID: o.ID, AccountID: acc.ID, ProcessorAccountID: deref(acc.ProcessorAccountID, ""),
			Token: token, Amount: o.Amount, Currency: strings.ToLower(o.Currency), PlatformFee: o.PlatformFee, APIKey: testKey})
		if err != nil {
			return fmt.Errorf("charge the agent's payment: %w", err)
		}
		if !res.Paid {
			msg := res.DeclineMessage
			s.PaymentDeclined = &msg
			s.UpdatedAt = r.Now().UTC()
			s.View.Messages = withDeclined(s.View.Messages, msg)
			_, err := tx.NewUpdate().Model(s).WherePK().Column("payment_declined", "view", "updated_at").Exec(ctx)
			return err
		}
		pay.PaymentIntentID = res.PaymentIntentID
	}
	if err := r.markPaid(ctx, tx, o, pay); err != nil {
		return err
	}
	now := r.Now().UTC()
	s.Status, s.CompletedAt, s.UpdatedAt, s.PaymentDeclined = AgentCompleted, &now, now, nil
	s.View.Messages = agentBlockingFree(s.View.Messages)
	s.View.Order = r.agentOrderOf(o, s.ID)
	_, err = tx.NewUpdate().Model(s).WherePK().Column("status", "completed_at", "updated_at", "payment_declined", "view").Exec(ctx)
	return err
}

// agentChargeKey is the idempotency key of a session's charge with a
// credential: the session and the token's hash (a second token after a
// decline is a new charge; the same one again is the same charge).
func agentChargeKey(sessionID, token string) string {
	h := sha256.Sum256([]byte(token))
	return sessionID + ":" + hex.EncodeToString(h[:8])
}

// agentOrderOf is a paid order as a completed session returns it.
func (r *Resolver) agentOrderOf(o *db.Order, sessionID string) *AgentOrder {
	return &AgentOrder{ID: o.ID, CheckoutSessionID: sessionID, PermalinkURL: r.thankYouURL(o), Status: agentOrderStatus(o)}
}

// agentOrderStatus is an order's status in ACP's words: confirmed once
// paid, completed once delivered, canceled when refunded or canceled.
func agentOrderStatus(o *db.Order) string {
	switch o.Status {
	case db.OrderFulfilled:
		return "completed"
	case db.OrderRefunded, db.OrderCanceled, db.OrderFailed:
		return "canceled"
	case db.OrderPending:
		return "created"
	}
	if disputeLost(o) {
		return "canceled"
	}
	return "confirmed"
}

// agentAccount loads the principal's seller. Errors: not_found.
func (r *Resolver) agentAccount(ctx context.Context, p AgentPrincipal) (*db.Account, error) {
	acc := new(db.Account)
	err := r.DB.NewSelect().Model(acc).Where("id = ?", p.AccountID).Where("deleted_at IS NULL").Scan(ctx)
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return nil, problem.NotFoundf("No such seller.")
	}
	return acc, err
}

func agentNotFound(id string) error {
	return problem.NotFoundf("No checkout session %q.", id)
}

// lockAgentSession locks one of an account's sessions for the rest of tx,
// without waiting: a session another request holds is a conflict (so
// concurrent completes never queue holding connections). Errors:
// not_found, conflict.
func lockAgentSession(ctx context.Context, tx db.Tx, accountID, id string) (*acpSession, error) {
	if !db.ValidID("acs", id) {
		return nil, agentNotFound(id)
	}
	s := new(acpSession)
	err := tx.NewSelect().Model(s).Where("id = ?", id).Where("account_id = ?", accountID).For("UPDATE NOWAIT").Scan(ctx)
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &pgErr) && pgErr.Code == "55P03":
		return nil, problem.New(problem.Conflict, "Another request is changing or completing this checkout session; retry it shortly.").
			With("acp_code", "checkout_session_in_progress")
	case errors.Is(db.NotFound(err), db.ErrNotFound):
		return nil, agentNotFound(id)
	}
	return s, err
}

// agentStateProblem refuses a change of a session that is no longer open:
// invalid_transition with current_status (completed, canceled, expired)
// and the extension acp_code checkout_session_{status}, the ACP error code
// acp-wire answers with.
func agentStateProblem(s *acpSession, verb string) error {
	return problem.Newf(problem.InvalidTransition, "The checkout session is %s: it cannot be %s.", s.Status, verb).
		With("current_status", s.Status).With("allowed_statuses", []string{AgentNotReady, AgentReady}).
		With("acp_code", "checkout_session_"+s.Status)
}

// expireAgentCheckoutIfDue expires an open session past its expiry: its
// order canceled (code released) and the session expired, in one
// transaction. A session held by another request is left to it.
func (r *Resolver) expireAgentCheckoutIfDue(ctx context.Context, accountID, id string) error {
	var status string
	var expires time.Time
	err := r.DB.NewSelect().Table("acp_checkout_sessions").Column("status", "expires_at").
		Where("id = ?", id).Where("account_id = ?", accountID).Scan(ctx, &status, &expires)
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return agentNotFound(id)
	}
	if err != nil {
		return err
	}
	if (status != AgentNotReady && status != AgentReady) || r.Now().Before(expires) {
		return nil
	}
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		s, err := lockAgentSession(ctx, tx, accountID, id)
		if err != nil {
			return err
		}
		if !s.open() {
			return nil
		}
		if err := r.endAgentOrder(ctx, tx, s); err != nil {
			return err
		}
		return markAgentExpired(ctx, tx, s, r.Now().UTC())
	})
	if p := problem.From(err); p != nil && p.Code == problem.Conflict {
		return nil
	}
	return err
}

// markAgentExpired writes an open session expired.
func markAgentExpired(ctx context.Context, tx db.Tx, s *acpSession, now time.Time) error {
	s.Status, s.UpdatedAt = AgentExpired, now
	s.View.Messages = agentBlockingFree(s.View.Messages)
	_, err := tx.NewUpdate().Model(s).WherePK().Column("status", "updated_at", "view").Exec(ctx)
	return err
}

// expireAgentSessionOfOrder marks expired the open session whose pending
// order the expiry sweep canceled (ExpireCheckout), in its transaction.
func expireAgentSessionOfOrder(ctx context.Context, tx db.Tx, orderID string) error {
	_, err := tx.ExecContext(ctx, `UPDATE acp_checkout_sessions SET status = ?, updated_at = now()
		WHERE order_id = ? AND status IN (?, ?)`, AgentExpired, orderID, AgentNotReady, AgentReady)
	return err
}

// endAgentOrder cancels a session's pending order (order.canceled; the
// code's reservation released), if it has one.
func (r *Resolver) endAgentOrder(ctx context.Context, tx db.Tx, s *acpSession) error {
	if s.OrderID == nil {
		return nil
	}
	o, err := lockOrder(ctx, tx, &processor.Payment{OrderID: *s.OrderID})
	if errors.Is(err, db.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	return r.endPending(ctx, tx, o, db.OrderCanceled)
}

// checkAgentInput refuses the shape of an input before any work: the
// sizes, the quantities, the currency's form, the buyer's fields, the
// codes, the fulfillment option.
func checkAgentInput(in AgentCheckoutInput, create bool) error {
	var f problem.Fields
	if len(in.Items) > maxAgentItems {
		return problem.Validation("$.line_items", fmt.Sprintf("A checkout session takes at most %d line items (and holds one listing).", maxAgentItems))
	}
	for i, it := range in.Items {
		switch {
		case strings.TrimSpace(it.ID) == "":
			f.Add(fmt.Sprintf("$.line_items[%d].id", i), "The line item's id is the listing id (lst_…).")
		case len(it.ID) > maxAgentText:
			f.Add(fmt.Sprintf("$.line_items[%d].id", i), "A listing id is at most 256 characters.")
		}
		if it.Quantity < 1 {
			f.Add(fmt.Sprintf("$.line_items[%d].quantity", i), "The quantity is at least 1.")
		}
	}
	if create {
		c := strings.TrimSpace(in.Currency)
		if len(c) != 3 || strings.Trim(strings.ToLower(c), "abcdefghijklmnopqrstuvwxyz") != "" {
			f.Add("$.currency", "The currency is an ISO 4217 code such as usd.")
		}
	}
	if in.Buyer != nil {
		checkAgentBuyer(&f, in.Buyer, "$.buyer")
	}
	if in.Discounts != nil {
		if len(*in.Discounts) > maxAgentCodes {
			f.Add("$.discounts.codes", fmt.Sprintf("At most %d discount codes.", maxAgentCodes))
		}
		for i, c := range *in.Discounts {
			if len(c) > maxAgentText {
				f.Add(fmt.Sprintf("$.discounts.codes[%d]", i), "A discount code is at most 256 characters.")
			}
		}
	}
	if o := in.FulfillmentOptionID; o != nil && *o != AgentFulfillmentDigital {
		f.Add("$.selected_fulfillment_options", `The only fulfillment option is "digital".`)
	}
	return f.Err()
}

// checkAgentBuyer refuses a buyer's over-long fields (the email's form is
// a message, not an error: the agent asks the buyer again).
func checkAgentBuyer(f *problem.Fields, b *AgentBuyer, at string) {
	for _, v := range []struct{ name, value string }{{"email", b.Email}, {"first_name", b.FirstName},
		{"last_name", b.LastName}, {"phone_number", b.PhoneNumber}} {
		if len(v.value) > maxAgentText {
			f.Add(at+"."+v.name, "At most 256 characters.")
		}
	}
}

// applyAgentInput writes an input's fields onto the session.
func applyAgentInput(s *acpSession, in AgentCheckoutInput) {
	if in.Items != nil {
		s.Items = in.Items
	}
	if b := in.Buyer; b != nil {
		s.BuyerEmail, s.BuyerFirstName, s.BuyerLastName, s.BuyerPhone =
			optionalText(b.Email), optionalText(b.FirstName), optionalText(b.LastName), optionalText(b.PhoneNumber)
	}
	if in.Discounts != nil {
		codes := make([]string, 0, len(*in.Discounts))
		for _, c := range *in.Discounts {
			if c = strings.TrimSpace(c); c != "" {
				codes = append(codes, c)
			}
		}
		s.DiscountCodes = codes
	}
	// A change after a decline: the decline is the past attempt's.
	s.PaymentDeclined = nil
}

func optionalText(s string) *string {
	if s = strings.TrimSpace(s); s == "" {
		return nil
	}
	return &s
}

// agentCheckoutOf is the session as the use cases return it.
func (r *Resolver) agentCheckoutOf(s *acpSession, acc *db.Account) *AgentCheckout {
	c := &AgentCheckout{ID: s.ID, AccountID: s.AccountID, ConnectionID: s.ConnectionID, Status: s.Status, Currency: s.Currency,
		Items: s.View.Items, Discounts: s.View.Discounts, Totals: s.View.Totals, Messages: s.View.Messages, Order: s.View.Order,
		Handlers: r.agentHandlers(acc), CreatedAt: s.CreatedAt.UTC(), UpdatedAt: s.UpdatedAt.UTC(), ExpiresAt: s.ExpiresAt.UTC()}
	if c.Items == nil {
		c.Items = []AgentCheckoutItem{}
	}
	if c.Messages == nil {
		c.Messages = []AgentMessage{}
	}
	if c.Discounts.Codes == nil {
		c.Discounts.Codes = []string{}
	}
	if s.BuyerEmail != nil || s.BuyerFirstName != nil || s.BuyerLastName != nil || s.BuyerPhone != nil {
		c.Buyer = &AgentBuyer{Email: deref(s.BuyerEmail, ""), FirstName: deref(s.BuyerFirstName, ""),
			LastName: deref(s.BuyerLastName, ""), PhoneNumber: deref(s.BuyerPhone, "")}
	}
	if acc.Slug != nil {
		c.Links = append(c.Links, AgentLink{Type: "about_us", URL: r.BaseURL + "/s/" + *acc.Slug, Title: deref(acc.DisplayName, "Store")})
	}
	return c
}

// agentHandlerID is the payment handler of this service's processor.
func (r *Resolver) agentHandlerID() string {
	if r.Processor.Name() == processor.Sandbox {
		return AgentHandlerSandbox
	}
	return AgentHandlerStripe
}

// agentHandlers are the payment handlers a session of acc accepts: the
// sandbox's tokenized card, or Stripe's Shared Payment Token.
func (r *Resolver) agentHandlers(acc *db.Account) []AgentPaymentHandler {
	h := AgentPaymentHandler{ID: r.agentHandlerID(), Name: "dev.acp.tokenized.card", PSP: r.Processor.Name(),
		RequiresDelegatePayment: true, Config: map[string]any{"merchant_id": acc.ID}}
	return []AgentPaymentHandler{h}
}

// withDeclined puts the payment_declined message (one) on the messages.
func withDeclined(ms []AgentMessage, msg string) []AgentMessage {
	out := make([]AgentMessage, 0, len(ms)+1)
	for _, m := range ms {
		if m.Code != "payment_declined" {
			out = append(out, m)
		}
	}
	return append(out, AgentMessage{Type: "error", Code: "payment_declined", Param: "$.payment_data",
		Content: msg + " Ask the buyer for another payment method.", Resolution: "requires_buyer_input"})
}

// agentBlockingFree drops the messages that asked for something before
// payment: a completed, canceled or expired session asks for nothing.
func agentBlockingFree(ms []AgentMessage) []AgentMessage {
	out := []AgentMessage{}
	for _, m := range ms {
		if m.Type != "error" {
			out = append(out, m)
		}
	}
	return out
}

// agentItemParam is the JSONPath of line item i.
func agentItemParam(i int) string { return fmt.Sprintf("$.line_items[%d]", i) }

// agentEval is a session computed: its view, its listing and money.
type agentEval struct {
	view     acpView
	sale     *saleListing
	quote    *pricing.Quote
	discount *db.Discount
	email    string
	ready    bool
}

// agentEvaluate computes a session from its input (CONTRACT §25): the
// currency, the one listing (not_found, quantity_exceeded, unsupported),
// the buyer's email (missing, invalid), a required checkout field
// (intervention_required, requires_buyer_input, linking the product page),
// the price (§19: a pay-what-you-want listing at its suggested price,
// else its minimum) with the first discount code (the others rejected),
// the totals. refused holds codes refused at reservation (their details),
// priced again without them.
func (r *Resolver) agentEvaluate(ctx context.Context, s *acpSession, acc *db.Account, refused map[string]string) (*agentEval, error) {
	ev := &agentEval{}
	var msgs []AgentMessage
	blocking := false
	add := func(m AgentMessage) {
		msgs = append(msgs, m)
		if m.Type == "error" && m.Code != "payment_declined" {
			blocking = true
		}
	}
	cur := strings.ToLower(deref(acc.Currency, ""))
	if s.Currency != cur {
		add(AgentMessage{Type: "error", Code: "unsupported", Param: "$.currency", Resolution: "recoverable",
			Content: fmt.Sprintf("This seller sells in %s: start a session with currency %q.", strings.ToUpper(cur), cur)})
	}
	chosen := -1
	for i, it := range s.Items {
		switch {
		case sameAsEarlier(s.Items, i):
			add(AgentMessage{Type: "error", Code: "quantity_exceeded", Param: agentItemParam(i) + ".id", Resolution: "recoverable",
				Content: "A checkout session holds each listing once, quantity 1: remove the repeated line item."})
			continue
		case chosen >= 0:
			add(AgentMessage{Type: "error", Code: "unsupported", Param: agentItemParam(i), Resolution: "recoverable",
				Content: "A checkout session holds one listing: start a session for each."})
			continue
		}
		sale, msg, err := r.agentListing(ctx, acc.ID, strings.TrimSpace(it.ID), i)
		if err != nil {
			return nil, err
		}
		if msg != nil {
			add(*msg)
			continue
		}
		chosen, ev.sale = i, sale
		if it.Quantity > 1 {
			add(AgentMessage{Type: "error", Code: "quantity_exceeded", Param: agentItemParam(i) + ".quantity", Resolution: "recoverable",
				Content: "A digital listing is bought once per session: the quantity is 1."})
		}
	}
	// The buyer's email.
	if s.BuyerEmail == nil {
		add(AgentMessage{Type: "error", Code: "missing", Param: "$.buyer.email", Resolution: "requires_buyer_input",
			Content: "The buyer's email is needed: the download link and the receipt go to it."})
	} else if e, err := NormalizeEmail(*s.BuyerEmail); err != nil {
		add(AgentMessage{Type: "error", Code: "invalid", Param: "$.buyer.email", Resolution: "requires_buyer_input",
			Content: "The buyer's email is not a valid address, such as buyer@example.com."})
	} else {
		ev.email = e
	}
	codes := s.DiscountCodes
	if codes == nil {
		codes = []string{}
	}
	ev.view.Discounts = AgentDiscounts{Codes: codes, Applied: []AgentAppliedDiscount{}, Rejected: []AgentRejectedDiscount{}}
	if ev.sale != nil {
		sl := ev.sale
		if fields := requiredFieldLabels(sl.l.CheckoutSchema); fields != "" {
			add(AgentMessage{Type: "error", Code: "intervention_required", Param: agentItemParam(chosen), Resolution: "requires_buyer_input",
				Content: fmt.Sprintf("This product asks the buyer for %s at checkout, which an agent cannot give: the buyer can buy it on its product page, %s",
					fields, r.BaseURL+"/p/"+sl.l.Slug)})
		}
		if err := r.agentPrice(ctx, ev, codes, refused, add); err != nil {
			return nil, err
		}
	}
	// A decline stays until the session changes or is paid.
	if s.PaymentDeclined != nil {
		msgs = withDeclined(msgs, *s.PaymentDeclined)
	}
	if msgs == nil {
		msgs = []AgentMessage{}
	}
	ev.view.Messages = msgs
	ev.ready = !blocking && ev.sale != nil && ev.quote != nil && ev.email != ""
	return ev, nil
}

// sameAsEarlier reports whether item i repeats an earlier item's id.
func sameAsEarlier(items []AgentItemInput, i int) bool {
	for j := range i {
		if strings.EqualFold(strings.TrimSpace(items[j].ID), strings.TrimSpace(items[i].ID)) {
			return true
		}
	}
	return false
}

// requiredFieldLabels names a listing's required checkout fields ("" for
// none): "Company and Address".
func requiredFieldLabels(schema []db.CheckoutField) string {
	var labels []string
	for _, f := range schema {
		if f.Required {
			labels = append(labels, f.Label)
		}
	}
	switch len(labels) {
	case 0:
		return ""
	case 1:
		return labels[0]
	}
	return strings.Join(labels[:len(labels)-1], ", ") + " and " + labels[len(labels)-1]
}

// agentListing loads line item i's listing: nil with a message when it
// is not one of the seller's listings for sale (not_found) or is a
// membership (unsupported: a membership stores a payment method for its
// renewals, which a delegated credential cannot).
func (r *Resolver) agentListing(ctx context.Context, accountID, id string, i int) (*saleListing, *AgentMessage, error) {
	notFound := &AgentMessage{Type: "error", Code: "not_found", Param: agentItemParam(i) + ".id", Resolution: "recoverable",
		Content: fmt.Sprintf("No listing %q is for sale here.", id)}
	if !db.ValidID("lst", id) {
		return nil, notFound, nil
	}
	s, err := r.saleListingByID(ctx, accountID, id)
	if p := problem.From(err); p != nil && p.Code == problem.NotFound {
		return nil, notFound, nil
	}
	if err != nil {
		return nil, nil, err
	}
	if r.checkSellable(s) != nil {
		return nil, notFound, nil
	}
	if s.l.Billing == db.BillingMembership {
		return nil, &AgentMessage{Type: "error", Code: "unsupported", Param: agentItemParam(i) + ".id", Resolution: "recoverable",
			Content: "This listing is a membership, billed every period: buy it on its product page, " + r.BaseURL + "/p/" + s.l.Slug}, nil
	}
	return s, nil, nil
}

// agentPrice prices the session's listing (§19) with its first code; the
// other codes are rejected (one code per order), and so is a refused
// first code, the listing then priced without it.
func (r *Resolver) agentPrice(ctx context.Context, ev *agentEval, codes []string, refused map[string]string, add func(AgentMessage)) error {
	s := ev.sale
	amount := s.l.Price
	if listingPrice(&s.l).Bounds() != nil {
		amount = deref64(s.l.SuggestedPrice, s.l.Price)
	}
	reject := func(i int, code, reason, detail string) {
		ev.view.Discounts.Rejected = append(ev.view.Discounts.Rejected, AgentRejectedDiscount{Code: code, Reason: reason, Message: detail})
		add(AgentMessage{Type: "warning", Code: reason, Param: fmt.Sprintf("$.discounts.codes[%d]", i), Resolution: "recoverable", Content: detail})
	}
	first := ""
	for i, c := range codes {
		switch {
		case i == 0:
			first = c
		case strings.EqualFold(c, first):
			reject(i, c, "discount_code_already_applied", "This code is already applied.")
		default:
			reject(i, c, "discount_code_combination_disallowed", "One discount code applies to an order: this one was not applied.")
		}
	}
	code := first
	if d, ok := refused[strings.ToLower(first)]; ok && first != "" {
		reject(0, first, discountReason(d), d)
		code = ""
	}
	var f problem.Fields
	p, err := r.priceCheckout(ctx, s, &amount, true, code, ev.email, &f)
	if err != nil {
		return err
	}
	var other []problem.FieldError
	if pe := problem.From(f.Err()); pe != nil {
		for _, e := range pe.Errors {
			if e.Param == "discount_code" {
				reject(0, first, discountReason(e.Detail), e.Detail)
				continue
			}
			other = append(other, e)
		}
	}
	if p.quote == nil && code != "" && len(other) == 0 {
		// The code made the price fail (below the currency's minimum):
		// priced without it.
		f = problem.Fields{}
		if p, err = r.priceCheckout(ctx, s, &amount, true, "", ev.email, &f); err != nil {
			return err
		}
		if pe := problem.From(f.Err()); pe != nil {
			other = append(other, pe.Errors...)
		}
	}
	for _, e := range other {
		add(AgentMessage{Type: "error", Code: "invalid", Param: agentItemParam(0), Resolution: "recoverable", Content: e.Detail})
	}
	if p.quote == nil {
		return nil
	}
	q := p.quote
	ev.quote, ev.discount = q, p.discount
	base, off := q.Subtotal, q.DiscountAmount
	if d := p.discount; d != nil && q.Discount != nil {
		ev.view.Discounts.Applied = append(ev.view.Discounts.Applied, AgentAppliedDiscount{ID: d.ID, Code: d.Code, Name: deref(d.Name, d.Code),
			PercentOff: d.PercentOff, AmountOff: d.AmountOff, Amount: off})
	}
	item := AgentCheckoutItem{LineID: "li_" + strings.TrimPrefix(s.l.ID, "lst_"), ListingID: s.l.ID, Title: s.l.Title,
		Description: deref(s.l.Description, ""), URL: r.BaseURL + "/p/" + s.l.Slug, Quantity: 1,
		BaseAmount: base, Discount: off, Subtotal: base - off, Total: q.Amount, UnitAmount: base}
	if s.l.CoverKey != nil {
		item.ImageURL = r.MediaURL(*s.l.CoverKey)
	}
	ev.view.Items = []AgentCheckoutItem{item}
	ev.view.Totals = AgentTotals{ItemsBase: base, ItemsDiscount: off, Subtotal: base - off, Discount: off, Total: q.Amount}
	return nil
}

// discountReason is ACP's DiscountErrorCode for one of §19's refusals of
// a code (pricing's details): expired; used up or the buyer's limit
// reached → usage_limit_reached; below its minimum order →
// minimum_not_met; not for this product → user_ineligible; anything else
// (unknown, disabled, not yet valid, a charge below the currency's
// minimum) → invalid.
func discountReason(detail string) string {
	switch {
	case detail == "This code has expired.":
		return "discount_code_expired"
	case detail == pricing.ErrCodeUsedUp().Detail, detail == pricing.ErrCodeLimitReached().Detail:
		return "discount_code_usage_limit_reached"
	case strings.HasPrefix(detail, "This code needs an order of at least"):
		return "discount_code_minimum_not_met"
	case detail == "This code does not apply to this product.":
		return "discount_code_user_ineligible"
	}
	return "discount_code_invalid"
}

// agentRefresh computes the locked session again and brings its pending
// order in line, in tx: the order created once the listing is priced,
// changed in place when the money, the email or the code change (the
// code's reservation taken again), replaced when the listing changes,
// canceled when nothing is priced any more. A code refused at its
// reservation (used up meanwhile) is rejected and the session computed
// without it. The session's status and view follow.
func (r *Resolver) agentRefresh(ctx context.Context, tx db.Tx, s *acpSession, acc *db.Account) error {
	refused := map[string]string{}
	var ev *agentEval
	for range 2 {
		var err error
		if ev, err = r.agentEvaluate(ctx, s, acc, refused); err != nil {
			return err
		}
		err = r.syncAgentOrder(ctx, tx, s, ev)
		p := problem.From(err)
		if p == nil || p.Code != problem.ValidationError || p.Param != "discount_code" || len(s.DiscountCodes) == 0 {
			if err != nil {
				return err
			}
			break
		}
		refused[strings.ToLower(s.DiscountCodes[0])] = p.Detail
		ev = nil
	}
	if ev == nil {
		return errors.New("checkout session: the discount code could not be settled")
	}
	s.Status = AgentNotReady
	if ev.ready {
		s.Status = AgentReady
	}
	if ev.sale != nil {
		s.ListingID = &ev.sale.l.ID
	} else {
		s.ListingID = nil
	}
	s.View = ev.view
	s.UpdatedAt = r.Now().UTC()
	_, err := tx.NewUpdate().Model(s).WherePK().Column("status", "listing_id", "items", "buyer_email", "buyer_first_name",
		"buyer_last_name", "buyer_phone_number", "discount_codes", "order_id", "payment_declined", "view", "updated_at").Exec(ctx)
	return err
}

// syncAgentOrder brings the session's pending order in line with ev (see
// agentRefresh). Errors: validation_error at discount_code (the code's
// reservation refused), in which case tx has written nothing of it.
func (r *Resolver) syncAgentOrder(ctx context.Context, tx db.Tx, s *acpSession, ev *agentEval) error {
	var cur *db.Order
	if s.OrderID != nil {
		o, err := lockOrder(ctx, tx, &processor.Payment{OrderID: *s.OrderID})
		if err != nil && !errors.Is(err, db.ErrNotFound) {
			return err
		}
		if err == nil && o.Status == db.OrderPending {
			cur = o
		}
	}
	if ev.quote == nil || (cur != nil && cur.ListingID != ev.sale.l.ID) {
		if cur != nil {
			if err := r.endPending(ctx, tx, cur, db.OrderCanceled); err != nil {
				return err
			}
		}
		s.OrderID, cur = nil, nil
		if ev.quote == nil {
			return nil
		}
	}
	sale := ev.sale
	if cur == nil {
		testKey, err := r.testKeyOf(sale.acc.ProcessorTestKey)
		if err != nil {
			return err
		}
		o := newPendingOrder(sale, ev.email, map[string]any{}, testKey != "", ev.quote)
		o.Source, o.AgentConnectionID = db.OrderSourceACP, &s.ConnectionID
		exp := s.ExpiresAt
		o.CheckoutExpiresAt = &exp
		if ev.discount != nil {
			if err := r.reserveAgentDiscount(ctx, tx, ev.discount, o.ID, ev.email); err != nil {
				return err
			}
		}
		if _, err := tx.NewInsert().Model(o).Returning("created_at, updated_at").Exec(ctx); err != nil {
			return fmt.Errorf("create order: %w", err)
		}
		s.OrderID = &o.ID
		return nil
	}
	// The same listing: the money, the email and the code as computed now.
	q := ev.quote
	oldDiscount, oldEmail := deref(cur.DiscountID, ""), cur.BuyerEmail
	newDiscount := ""
	if ev.discount != nil {
		newDiscount = ev.discount.ID
	}
	if oldDiscount != "" && (oldDiscount != newDiscount || oldEmail != ev.email) {
		if err := releaseDiscount(ctx, tx, cur.ID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM discount_redemptions WHERE order_id = ? AND state = 'released'`, cur.ID); err != nil {
			return fmt.Errorf("drop the released reservation: %w", err)
		}
	}
	if newDiscount != "" && (oldDiscount != newDiscount || oldEmail != ev.email) {
		if err := r.reserveAgentDiscount(ctx, tx, ev.discount, cur.ID, ev.email); err != nil {
			return err
		}
	}
	cur.BuyerEmail, cur.Subtotal, cur.Amount, cur.PlatformFee, cur.NetAmount = ev.email, q.Subtotal, q.Amount, q.PlatformFee, q.NetAmount
	cur.DiscountID, cur.DiscountCode, cur.DiscountAmount = nil, nil, nil
	if d := q.Discount; d != nil {
		cur.DiscountID, cur.DiscountCode, cur.DiscountAmount = &d.ID, &d.Code, &d.Amount
	}
	_, err := tx.NewUpdate().Model(cur).WherePK().Column("buyer_email", "subtotal", "amount", "platform_fee", "net_amount",
		"discount_id", "discount_code", "discount_amount").Set("updated_at = now()").Exec(ctx)
	return err
}

// reserveAgentDiscount reserves the code for the order in a savepoint, so
// that a refusal leaves tx usable (the session is then computed without
// the code). Errors: validation_error at discount_code.
func (r *Resolver) reserveAgentDiscount(ctx context.Context, tx db.Tx, d *db.Discount, orderID, email string) error {
	if _, err := tx.ExecContext(ctx, "SAVEPOINT acp_discount"); err != nil {
		return err
	}
	if err := reserveDiscount(ctx, tx, d, orderID, email); err != nil {
		if _, rerr := tx.ExecContext(ctx, "ROLLBACK TO SAVEPOINT acp_discount"); rerr != nil {
			return rerr
		}
		return err
	}
	_, err := tx.ExecContext(ctx, "RELEASE SAVEPOINT acp_discount")
	return err
}
