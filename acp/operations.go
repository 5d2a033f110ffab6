package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"commerce/resolvers"
)

// The five operations of ACP's checkout (openapi.agentic_checkout.yaml),
// the one table the HTTP routes (http.go) and the MCP tools (mcp.go) are
// built from: each names its route, its tool, whether it needs an
// Idempotency-Key, and the use case it calls. Nothing here decides a
// business rule: the use cases (resolvers, acp_checkout.go) do.

type opName string

const (
	opCreate   opName = "create_checkout_session"
	opGet      opName = "get_checkout_session"
	opUpdate   opName = "update_checkout_session"
	opComplete opName = "complete_checkout_session"
	opCancel   opName = "cancel_checkout_session"
)

type operation struct {
	name        opName // the MCP tool
	description string
	method      string
	pattern     string // the route under /acp, {id} the session id
	hasID       bool
	mutating    bool   // POST: Idempotency-Key required (meta.idempotency_key on MCP)
	payload     string // the request schema of the body (CheckoutSessionCreateRequest…); "" none
	payloadReq  bool
	status      int // the status of success
	run         func(ctx context.Context, b Backend, p resolvers.AgentPrincipal, id string, body []byte) (*resolvers.AgentCheckout, error)
}

// path is the operation's REST path for a session id (the idempotency
// scope names it, for REST and MCP alike).
func (op *operation) path(id string) string {
	return "/acp" + strings.Replace(op.pattern, "{id}", id, 1)
}

var operations = []*operation{
	{name: opCreate, description: "Create a checkout session for one of the seller's listings (line_items: one item, quantity 1).",
		method: http.MethodPost, pattern: "/checkout_sessions", mutating: true,
		payload: "CheckoutSessionCreateRequest", payloadReq: true, status: http.StatusCreated,
		run: func(ctx context.Context, b Backend, p resolvers.AgentPrincipal, _ string, body []byte) (*resolvers.AgentCheckout, error) {
			in, err := decodeCreate(body)
			if err != nil {
				return nil, err
			}
			return b.CreateAgentCheckout(ctx, p, in)
		}},
	{name: opGet, description: "Retrieve the current state of a checkout session.",
		method: http.MethodGet, pattern: "/checkout_sessions/{id}", hasID: true, status: http.StatusOK,
		run: func(ctx context.Context, b Backend, p resolvers.AgentPrincipal, id string, _ []byte) (*resolvers.AgentCheckout, error) {
			return b.AgentCheckoutSession(ctx, p, id)
		}},
	{name: opUpdate, description: "Update a checkout session: the buyer, the line items, discount codes (discounts.codes), the fulfillment option.",
		method: http.MethodPost, pattern: "/checkout_sessions/{id}", hasID: true, mutating: true,
		payload: "CheckoutSessionUpdateRequest", payloadReq: true, status: http.StatusOK,
		run: func(ctx context.Context, b Backend, p resolvers.AgentPrincipal, id string, body []byte) (*resolvers.AgentCheckout, error) {
			in, err := decodeUpdate(body)
			if err != nil {
				return nil, err
			}
			return b.UpdateAgentCheckout(ctx, p, id, in)
		}},
	{name: opComplete, description: "Complete a checkout session with payment_data (a delegated payment token): creates the order.",
		method: http.MethodPost, pattern: "/checkout_sessions/{id}/complete", hasID: true, mutating: true,
		payload: "CheckoutSessionCompleteRequest", payloadReq: true, status: http.StatusOK,
		run: func(ctx context.Context, b Backend, p resolvers.AgentPrincipal, id string, body []byte) (*resolvers.AgentCheckout, error) {
			pay, err := decodeComplete(body)
			if err != nil {
				return nil, err
			}
			return b.CompleteAgentCheckout(ctx, p, id, pay)
		}},
	{name: opCancel, description: "Cancel a checkout session that is not completed or canceled.",
		method: http.MethodPost, pattern: "/checkout_sessions/{id}/cancel", hasID: true, mutating: true,
		payload: "CancelSessionRequest", status: http.StatusOK,
		run: func(ctx context.Context, b Backend, p resolvers.AgentPrincipal, id string, body []byte) (*resolvers.AgentCheckout, error) {
			if err := decodeCancel(body); err != nil {
				return nil, err
			}
			return b.CancelAgentCheckout(ctx, p, id)
		}},
}

// Backend is what the transport calls: the agent connections' token check
// (acp-conn) and the checkout use cases (acp-core), all on
// *resolvers.Resolver.
type Backend interface {
	AuthenticateAgentConnection(ctx context.Context, token string) (resolvers.AgentPrincipal, error)
	CreateAgentCheckout(ctx context.Context, p resolvers.AgentPrincipal, in resolvers.AgentCheckoutInput) (*resolvers.AgentCheckout, error)
	UpdateAgentCheckout(ctx context.Context, p resolvers.AgentPrincipal, id string, in resolvers.AgentCheckoutInput) (*resolvers.AgentCheckout, error)
	AgentCheckoutSession(ctx context.Context, p resolvers.AgentPrincipal, id string) (*resolvers.AgentCheckout, error)
	CompleteAgentCheckout(ctx context.Context, p resolvers.AgentPrincipal, id string, pay resolvers.AgentPayment) (*resolvers.AgentCheckout, error)
	CancelAgentCheckout(ctx context.Context, p resolvers.AgentPrincipal, id string) (*resolvers.AgentCheckout, error)
	SandboxDelegatePayment(ctx context.Context, card resolvers.SandboxCard, a resolvers.SandboxAllowance, metadata map[string]string) (*resolvers.SandboxVaultToken, error)
}

// Bounds of a request, checked before any work on it.
const (
	maxBody     = 64 << 10
	maxItems    = 100
	maxCodes    = 20
	maxIDLen    = 255
	maxTextLen  = 256
	maxEmailLen = 320
	maxTokenLen = 512
	maxQuantity = 1_000_000
)

// The request bodies: our own types, only the members we read (others are
// ignored, as capability negotiation lets an agent send what a seller does
// not support).

type itemIn struct {
	ID       string `json:"id"`
	Quantity *int   `json:"quantity"`
}

type buyerIn struct {
	FirstName   string `json:"first_name"`
	LastName    string `json:"last_name"`
	Email       string `json:"email"`
	PhoneNumber string `json:"phone_number"`
}

type discountsIn struct {
	Codes []string `json:"codes"`
}

type selectedIn struct {
	Type     string `json:"type"`
	OptionID string `json:"option_id"`
}

type createIn struct {
	LineItems []itemIn     `json:"line_items"`
	Items     []itemIn     `json:"items"` // the RFC's examples' name; line_items wins
	Currency  *string      `json:"currency"`
	Buyer     *buyerIn     `json:"buyer"`
	Discounts *discountsIn `json:"discounts"`
	Coupons   []string     `json:"coupons"` // deprecated: discounts.codes
}

type updateIn struct {
	LineItems []itemIn     `json:"line_items"`
	Buyer     *buyerIn     `json:"buyer"`
	Discounts *discountsIn `json:"discounts"`
	Coupons   []string     `json:"coupons"`
	Selected  []selectedIn `json:"selected_fulfillment_options"`
}

type completeIn struct {
	Buyer       *buyerIn `json:"buyer"`
	PaymentData *struct {
		HandlerID  string `json:"handler_id"`
		Instrument *struct {
			Type       string `json:"type"`
			Credential *struct {
				Type  string `json:"type"`
				Token string `json:"token"`
			} `json:"credential"`
		} `json:"instrument"`
	} `json:"payment_data"`
}

// decode reads a JSON object body into v: 400 invalid_request for what is
// not a JSON object or has a member of the wrong type (param its JSONPath).
func decode(body []byte, v any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return invalid(http.StatusBadRequest, "invalid", "The request body must be a JSON object.")
	}
	if err := json.Unmarshal(body, v); err != nil {
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) {
			param := "$"
			if typ.Field != "" {
				param = "$." + typ.Field
			}
			return invalid(http.StatusBadRequest, "invalid", fmt.Sprintf("%s must be a JSON %s.", param, jsonKind(typ.Type.Kind().String()))).at(param)
		}
		return invalid(http.StatusBadRequest, "invalid", "The request body is not valid JSON.")
	}
	return nil
}

func jsonKind(k string) string {
	switch k {
	case "string":
		return "string"
	case "int", "int64":
		return "integer"
	case "slice":
		return "array"
	case "bool":
		return "boolean"
	}
	return "object"
}

func tooLong(param string, n int) *Error {
	return invalid(http.StatusBadRequest, "invalid", fmt.Sprintf("%s is longer than %d characters.", param, n)).at(param)
}

func items(list []itemIn, required bool) ([]resolvers.AgentItemInput, error) {
	if list == nil && !required {
		return nil, nil
	}
	if len(list) == 0 {
		return nil, invalid(http.StatusBadRequest, "invalid", "line_items must hold at least one item.").at("$.line_items")
	}
	if len(list) > maxItems {
		return nil, invalid(http.StatusBadRequest, "invalid", fmt.Sprintf("line_items holds at most %d items.", maxItems)).at("$.line_items")
	}
	out := make([]resolvers.AgentItemInput, 0, len(list))
	for i, it := range list {
		param := fmt.Sprintf("$.line_items[%d]", i)
		if it.ID == "" {
			return nil, invalid(http.StatusBadRequest, "invalid", "Each line item needs the id of a listing.").at(param + ".id")
		}
		if len(it.ID) > maxIDLen {
			return nil, tooLong(param+".id", maxIDLen)
		}
		q := 1
		if it.Quantity != nil {
			q = *it.Quantity
		}
		if q < 1 || q > maxQuantity {
			return nil, invalid(http.StatusBadRequest, "invalid", "quantity must be a positive integer.").at(param + ".quantity")
		}
		out = append(out, resolvers.AgentItemInput{ID: it.ID, Quantity: q})
	}
	return out, nil
}

func buyerInput(b *buyerIn, param string) (*resolvers.AgentBuyer, error) {
	if b == nil {
		return nil, nil
	}
	for name, v := range map[string]string{"first_name": b.FirstName, "last_name": b.LastName, "phone_number": b.PhoneNumber} {
		if len(v) > maxTextLen {
			return nil, tooLong(param+"."+name, maxTextLen)
		}
	}
	if len(b.Email) > maxEmailLen {
		return nil, tooLong(param+".email", maxEmailLen)
	}
	return &resolvers.AgentBuyer{Email: strings.TrimSpace(b.Email), FirstName: b.FirstName, LastName: b.LastName, PhoneNumber: b.PhoneNumber}, nil
}

func codes(d *discountsIn, coupons []string) (*[]string, error) {
	var list []string
	switch {
	case d != nil:
		list = d.Codes
		if list == nil {
			list = []string{}
		}
	case coupons != nil:
		list = coupons
	default:
		return nil, nil
	}
	if len(list) > maxCodes {
		return nil, invalid(http.StatusBadRequest, "invalid", fmt.Sprintf("discounts.codes holds at most %d codes.", maxCodes)).at("$.discounts.codes")
	}
	for i, c := range list {
		if len(c) > maxTextLen {
			return nil, tooLong(fmt.Sprintf("$.discounts.codes[%d]", i), maxTextLen)
		}
	}
	return &list, nil
}

func decodeCreate(body []byte) (resolvers.AgentCheckoutInput, error) {
	var in createIn
	if err := decode(body, &in); err != nil {
		return resolvers.AgentCheckoutInput{}, err
	}
	list := in.LineItems
	if list == nil {
		list = in.Items
	}
	its, err := items(list, true)
	if err != nil {
		return resolvers.AgentCheckoutInput{}, err
	}
	if in.Currency == nil || *in.Currency == "" {
		return resolvers.AgentCheckoutInput{}, invalid(http.StatusBadRequest, "invalid", "currency is required (ISO 4217, such as usd).").at("$.currency")
	}
	if len(*in.Currency) > 8 {
		return resolvers.AgentCheckoutInput{}, tooLong("$.currency", 8)
	}
	b, err := buyerInput(in.Buyer, "$.buyer")
	if err != nil {
		return resolvers.AgentCheckoutInput{}, err
	}
	ds, err := codes(in.Discounts, in.Coupons)
	if err != nil {
		return resolvers.AgentCheckoutInput{}, err
	}
	return resolvers.AgentCheckoutInput{Items: its, Currency: strings.ToLower(*in.Currency), Buyer: b, Discounts: ds}, nil
}

func decodeUpdate(body []byte) (resolvers.AgentCheckoutInput, error) {
	var in updateIn
	if err := decode(body, &in); err != nil {
		return resolvers.AgentCheckoutInput{}, err
	}
	its, err := items(in.LineItems, false)
	if err != nil {
		return resolvers.AgentCheckoutInput{}, err
	}
	b, err := buyerInput(in.Buyer, "$.buyer")
	if err != nil {
		return resolvers.AgentCheckoutInput{}, err
	}
	ds, err := codes(in.Discounts, in.Coupons)
	if err != nil {
		return resolvers.AgentCheckoutInput{}, err
	}
	out := resolvers.AgentCheckoutInput{Items: its, Buyer: b, Discounts: ds}
	if len(in.Selected) > 0 {
		id := in.Selected[0].OptionID
		if len(id) > maxIDLen {
			return resolvers.AgentCheckoutInput{}, tooLong("$.selected_fulfillment_options[0].option_id", maxIDLen)
		}
		out.FulfillmentOptionID = &id
	}
	return out, nil
}

func decodeComplete(body []byte) (resolvers.AgentPayment, error) {
	var in completeIn
	if err := decode(body, &in); err != nil {
		return resolvers.AgentPayment{}, err
	}
	pd := in.PaymentData
	if pd == nil {
		return resolvers.AgentPayment{}, invalid(http.StatusBadRequest, "invalid", "payment_data is required.").at("$.payment_data")
	}
	if pd.HandlerID == "" {
		return resolvers.AgentPayment{}, invalid(http.StatusBadRequest, "invalid", "payment_data.handler_id is required: one of the session's capabilities.payment.handlers.").at("$.payment_data.handler_id")
	}
	if pd.Instrument == nil || pd.Instrument.Credential == nil || pd.Instrument.Credential.Token == "" {
		return resolvers.AgentPayment{}, invalid(http.StatusBadRequest, "invalid", "payment_data.instrument.credential.token is required: the delegated payment token.").at("$.payment_data.instrument.credential.token")
	}
	in2 := pd.Instrument
	for param, v := range map[string]string{"$.payment_data.handler_id": pd.HandlerID, "$.payment_data.instrument.type": in2.Type, "$.payment_data.instrument.credential.type": in2.Credential.Type} {
		if len(v) > maxIDLen {
			return resolvers.AgentPayment{}, tooLong(param, maxIDLen)
		}
	}
	if len(in2.Credential.Token) > maxTokenLen {
		return resolvers.AgentPayment{}, tooLong("$.payment_data.instrument.credential.token", maxTokenLen)
	}
	b, err := buyerInput(in.Buyer, "$.buyer")
	if err != nil {
		return resolvers.AgentPayment{}, err
	}
	return resolvers.AgentPayment{HandlerID: pd.HandlerID, InstrumentType: in2.Type, CredentialType: in2.Credential.Type,
		Token: in2.Credential.Token, Buyer: b}, nil
}

func decodeCancel(body []byte) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	var in map[string]json.RawMessage
	return decode(body, &in)
}
