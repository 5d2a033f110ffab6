package acp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"commerce/problem"
	"commerce/resolvers"
	"commerce/rest"
)

// The sandbox's delegate-payment API (openapi.delegate_payment.yaml;
// CONTRACT §25): POST {base_url}/sandbox/acp/agentic_commerce/delegate_payment,
// served only with the sandbox processor, any bearer token. The vault
// (resolvers.SandboxDelegatePayment) decides which cards give which
// tokens; this is the wire: headers, idempotency, the request's shape,
// ACP's errors (schema.delegate_payment.json, Error: its closed code list
// has invalid_card for a bad card and nothing for a bad allowance, which is
// answered with code invalid_request; docs/decisions.md).

type delegateIn struct {
	PaymentMethod *struct {
		Type           string `json:"type"`
		CardNumberType string `json:"card_number_type"`
		Number         string `json:"number"`
		ExpMonth       string `json:"exp_month"`
		ExpYear        string `json:"exp_year"`
		Name           string `json:"name"`
		CVC            string `json:"cvc"`
	} `json:"payment_method"`
	Allowance *struct {
		Reason            string `json:"reason"`
		MaxAmount         *int64 `json:"max_amount"`
		Currency          string `json:"currency"`
		CheckoutSessionID string `json:"checkout_session_id"`
		MerchantID        string `json:"merchant_id"`
		ExpiresAt         string `json:"expires_at"`
	} `json:"allowance"`
	Metadata map[string]string `json:"metadata"`
}

type delegateOut struct {
	ID       string            `json:"id"`
	Created  string            `json:"created"`
	Metadata map[string]string `json:"metadata"`
}

func badCard(param, msg string) *Error {
	return invalid(http.StatusBadRequest, "invalid_card", msg).at(param)
}

func badField(param, msg string) *Error {
	return invalid(http.StatusBadRequest, "invalid_request", msg).at(param)
}

func (h *Handler) delegatePayment(w http.ResponseWriter, r *http.Request) {
	echoRequestID(w, r)
	token, ok := bearer(r)
	if !ok {
		writeErr(w, r, invalid(http.StatusUnauthorized, "unauthorized", "Send any bearer token: Authorization: Bearer …"))
		return
	}
	tokenHash := sha256.Sum256([]byte(token))
	subject := "sandbox_delegate:" + hex.EncodeToString(tokenHash[:8])
	if h.Charge != nil {
		res, err := h.Charge(r.Context(), RateLimitGroup, subject)
		if res != nil {
			rest.SetLimitHeaders(w, res)
		}
		if err != nil {
			writeErr(w, r, fromErr(err, nil))
			return
		}
	}
	if e := checkVersion(r.Header.Get("API-Version"), r.Header.Values("API-Version")); e != nil {
		writeErr(w, r, e)
		return
	}
	key := r.Header.Get("Idempotency-Key")
	if key == "" {
		writeErr(w, r, errKeyRequired())
		return
	}
	if !validKey(key) {
		writeErr(w, r, errKeyInvalid())
		return
	}
	body, e := readBody(r)
	if e != nil {
		writeErr(w, r, e)
		return
	}
	scope := "acp:" + subject + ":POST " + r.URL.Path
	writeOutcome(w, h.idempotent(r.Context(), scope, key, body, func() outcome {
		return h.delegate(r, body)
	}))
}

func (h *Handler) delegate(r *http.Request, body []byte) outcome {
	var in delegateIn
	if err := decode(body, &in); err != nil {
		var e *Error
		errors.As(err, &e)
		e.Code = "invalid_request"
		return errOutcome(e)
	}
	pm, a := in.PaymentMethod, in.Allowance
	switch {
	case pm == nil:
		return errOutcome(badCard("payment_method", "payment_method is required."))
	case pm.Type != "card":
		return errOutcome(badCard("payment_method.type", "payment_method.type must be card."))
	case pm.Number == "" || len(pm.Number) > 19:
		return errOutcome(badCard("payment_method.number", "payment_method.number is required (12 to 19 digits)."))
	case len(pm.ExpMonth) > 2 || len(pm.ExpYear) > 4 || len(pm.CVC) > 4 || len(pm.Name) > maxTextLen:
		return errOutcome(badCard("payment_method", "payment_method: exp_month at most 2, exp_year 4, cvc 4 characters."))
	case a == nil:
		return errOutcome(badField("allowance", "allowance is required."))
	case a.Reason != "one_time":
		return errOutcome(badField("allowance.reason", "allowance.reason must be one_time."))
	case a.MaxAmount == nil || *a.MaxAmount <= 0:
		return errOutcome(badField("allowance.max_amount", "allowance.max_amount must be a positive integer in minor units."))
	case len(a.Currency) != 3 || strings.ToLower(a.Currency) != a.Currency:
		return errOutcome(badField("allowance.currency", "allowance.currency must be a lowercase ISO 4217 code."))
	case a.CheckoutSessionID == "" || len(a.CheckoutSessionID) > maxIDLen:
		return errOutcome(badField("allowance.checkout_session_id", "allowance.checkout_session_id is required."))
	case a.MerchantID == "" || len(a.MerchantID) > 256:
		return errOutcome(badField("allowance.merchant_id", "allowance.merchant_id is required: the handler's config.merchant_id."))
	case len(in.Metadata) > 50:
		return errOutcome(badField("metadata", "metadata holds at most 50 entries."))
	}
	exp, err := time.Parse(time.RFC3339, a.ExpiresAt)
	if err != nil {
		return errOutcome(badField("allowance.expires_at", "allowance.expires_at must be an RFC 3339 time."))
	}
	for k, v := range in.Metadata {
		if len(k) > 64 || len(v) > 500 {
			return errOutcome(badField("metadata", "metadata keys are at most 64 characters, values 500."))
		}
	}
	tok, err := h.Backend.SandboxDelegatePayment(r.Context(),
		resolvers.SandboxCard{Number: pm.Number, ExpMonth: pm.ExpMonth, ExpYear: pm.ExpYear, CVC: pm.CVC, Name: pm.Name},
		resolvers.SandboxAllowance{Reason: a.Reason, Currency: a.Currency, CheckoutSessionID: a.CheckoutSessionID,
			MerchantID: a.MerchantID, MaxAmount: *a.MaxAmount, ExpiresAt: exp},
		in.Metadata)
	if err != nil {
		if p := problem.From(err); p != nil && (p.Code == problem.ValidationError || p.Code == problem.InvalidRequest) {
			param := strings.TrimPrefix(p.Param, "$.")
			if strings.HasPrefix(param, "payment_method") {
				return errOutcome(badCard(param, p.Detail))
			}
			return errOutcome(badField(param, p.Detail))
		}
		e := fromErr(err, nil)
		if e.status >= 500 {
			h.Log.ErrorContext(r.Context(), "acp: sandbox delegate payment", "error", err)
		}
		return errOutcome(e)
	}
	md := tok.Metadata
	if md == nil {
		md = map[string]string{}
	}
	b, _ := json.Marshal(delegateOut{ID: tok.ID, Created: rfc3339(tok.Created), Metadata: md})
	return outcome{status: http.StatusCreated, body: b}
}
