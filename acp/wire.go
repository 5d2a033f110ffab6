package acp

import (
	"strings"
	"time"

	"commerce/resolvers"
)

// The JSON of ACP's checkout session (schema.agentic_checkout.json,
// CheckoutSessionBase and CheckoutSessionWithOrder), our own types: every
// required member is always present, optional ones only when they carry
// data.

type session struct {
	ID                 string              `json:"id"`
	Protocol           protocolVersion     `json:"protocol"`
	Capabilities       capabilities        `json:"capabilities"`
	Buyer              *buyer              `json:"buyer,omitempty"`
	Status             string              `json:"status"`
	Currency           string              `json:"currency"`
	LineItems          []lineItem          `json:"line_items"`
	FulfillmentOptions []fulfillmentOption `json:"fulfillment_options"`
	Selected           []selectedOption    `json:"selected_fulfillment_options,omitempty"`
	Totals             []total             `json:"totals"`
	Messages           []message           `json:"messages"`
	Links              []link              `json:"links"`
	CreatedAt          string              `json:"created_at,omitempty"`
	UpdatedAt          string              `json:"updated_at,omitempty"`
	ExpiresAt          string              `json:"expires_at,omitempty"`
	Discounts          *discounts          `json:"discounts,omitempty"`
	Order              *order              `json:"order,omitempty"`
}

type protocolVersion struct {
	Version string `json:"version"`
}

type capabilities struct {
	Payment    *payment               `json:"payment,omitempty"`
	Extensions []extensionDeclaration `json:"extensions"`
}

type payment struct {
	Handlers []paymentHandler `json:"handlers"`
}

type paymentHandler struct {
	ID                      string         `json:"id"`
	Name                    string         `json:"name"`
	Version                 string         `json:"version"`
	Spec                    string         `json:"spec"`
	RequiresDelegatePayment bool           `json:"requires_delegate_payment"`
	RequiresPCICompliance   bool           `json:"requires_pci_compliance"`
	PSP                     string         `json:"psp"`
	ConfigSchema            string         `json:"config_schema"`
	InstrumentSchemas       []string       `json:"instrument_schemas"`
	Config                  map[string]any `json:"config"`
}

type extensionDeclaration struct {
	Name    string   `json:"name"`
	Extends []string `json:"extends,omitempty"`
	Spec    string   `json:"spec,omitempty"`
}

type buyer struct {
	FirstName   string `json:"first_name,omitempty"`
	LastName    string `json:"last_name,omitempty"`
	Email       string `json:"email"`
	PhoneNumber string `json:"phone_number,omitempty"`
}

type lineItem struct {
	ID         string   `json:"id"`
	Item       item     `json:"item"`
	Quantity   int      `json:"quantity"`
	Name       string   `json:"name,omitempty"`
	Images     []string `json:"images,omitempty"`
	UnitAmount int64    `json:"unit_amount"`
	ProductID  string   `json:"product_id"`
	Totals     []total  `json:"totals"`
}

type item struct {
	ID         string `json:"id"`
	Name       string `json:"name,omitempty"`
	UnitAmount int64  `json:"unit_amount"`
}

type total struct {
	Type        string `json:"type"`
	DisplayText string `json:"display_text"`
	Amount      int64  `json:"amount"`
}

type fulfillmentOption struct {
	Type   string  `json:"type"`
	ID     string  `json:"id"`
	Title  string  `json:"title"`
	Totals []total `json:"totals"`
}

type selectedOption struct {
	Type     string   `json:"type"`
	OptionID string   `json:"option_id"`
	ItemIDs  []string `json:"item_ids"`
}

// message is MessageError or MessageWarning (Code set), or MessageInfo.
type message struct {
	Type        string `json:"type"`
	Code        string `json:"code,omitempty"`
	Resolution  string `json:"resolution,omitempty"`
	Param       string `json:"param,omitempty"`
	ContentType string `json:"content_type"`
	Content     string `json:"content"`
}

type link struct {
	Type  string `json:"type"`
	Title string `json:"title,omitempty"`
	URL   string `json:"url"`
}

type discounts struct {
	Codes    []string          `json:"codes"`
	Applied  []appliedDiscount `json:"applied"`
	Rejected []rejected        `json:"rejected,omitempty"`
}

type appliedDiscount struct {
	ID     string `json:"id"`
	Code   string `json:"code,omitempty"`
	Coupon coupon `json:"coupon"`
	Amount int64  `json:"amount"`
}

type coupon struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	PercentOff *int64 `json:"percent_off,omitempty"`
	AmountOff  *int64 `json:"amount_off,omitempty"`
	Currency   string `json:"currency,omitempty"`
}

type rejected struct {
	Code    string `json:"code"`
	Reason  string `json:"reason"`
	Message string `json:"message,omitempty"`
}

type order struct {
	Type              string `json:"type"`
	ID                string `json:"id"`
	CheckoutSessionID string `json:"checkout_session_id"`
	PermalinkURL      string `json:"permalink_url"`
	Status            string `json:"status,omitempty"`
}

// discountExtension is the session's declaration of the discount extension
// (rfc.discount_extension.md §3): always declared, so that
// capabilities.extensions is never empty (an empty array matches both
// branches of the schema's oneOf, which then fails).
var discountExtension = extensionDeclaration{
	Name: "discount",
	Extends: []string{
		"$.CheckoutSessionCreateRequest.discounts",
		"$.CheckoutSessionUpdateRequest.discounts",
		"$.CheckoutSession.discounts",
	},
	Spec: specBase + "/rfcs/rfc.discount_extension.md",
}

// specBase is the public specification these documents follow.
const specBase = "https://github.com/agentic-commerce-protocol/agentic-commerce-protocol/blob/main"

// The fixed parts of a card handler's declaration (rfc.payment_handlers.md
// §5.1): the handlers the use cases name carry id, name, psp and config;
// these name the handler specification they follow.
const (
	handlerVersion = "2026-04-17"
	handlerSpec    = specBase + "/rfcs/rfc.payment_handlers.md"
)

func rfc3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// sessionJSON maps a session of the use cases to ACP's JSON. docsURL is
// where our documentation of the handlers' config and instruments lives.
func sessionJSON(c *resolvers.AgentCheckout, docsURL string) session {
	out := session{
		ID:                 c.ID,
		Protocol:           protocolVersion{Version: Version},
		Status:             c.Status,
		Currency:           strings.ToLower(c.Currency),
		LineItems:          []lineItem{},
		FulfillmentOptions: []fulfillmentOption{{Type: "digital", ID: "digital", Title: "Digital delivery", Totals: []total{{Type: "total", DisplayText: "Digital delivery", Amount: c.Totals.Fulfillment}}}},
		Messages:           []message{},
		Links:              []link{},
		CreatedAt:          rfc3339(c.CreatedAt),
		UpdatedAt:          rfc3339(c.UpdatedAt),
		ExpiresAt:          rfc3339(c.ExpiresAt),
		Capabilities:       capabilities{Extensions: []extensionDeclaration{discountExtension}},
	}
	if c.Buyer != nil && c.Buyer.Email != "" {
		out.Buyer = &buyer{FirstName: c.Buyer.FirstName, LastName: c.Buyer.LastName, Email: c.Buyer.Email, PhoneNumber: c.Buyer.PhoneNumber}
	}
	if len(c.Handlers) > 0 {
		p := &payment{Handlers: make([]paymentHandler, 0, len(c.Handlers))}
		for _, h := range c.Handlers {
			cfg := h.Config
			if cfg == nil {
				cfg = map[string]any{}
			}
			p.Handlers = append(p.Handlers, paymentHandler{
				ID: h.ID, Name: h.Name, Version: handlerVersion, Spec: handlerSpec,
				RequiresDelegatePayment: h.RequiresDelegatePayment, PSP: h.PSP,
				ConfigSchema: docsURL + "#payment-handler-config", InstrumentSchemas: []string{docsURL + "#payment-instrument"},
				Config: cfg,
			})
		}
		out.Capabilities.Payment = p
	}
	lineIDs := []string{}
	for _, it := range c.Items {
		li := lineItem{
			ID:         it.LineID,
			Item:       item{ID: it.ListingID, Name: it.Title, UnitAmount: it.UnitAmount},
			Quantity:   it.Quantity,
			Name:       it.Title,
			UnitAmount: it.UnitAmount,
			ProductID:  it.ListingID,
			Totals: []total{
				{Type: "items_base_amount", DisplayText: "Base amount", Amount: it.BaseAmount},
				{Type: "items_discount", DisplayText: "Discount", Amount: it.Discount},
				{Type: "subtotal", DisplayText: "Subtotal", Amount: it.Subtotal},
				{Type: "total", DisplayText: "Total", Amount: it.Total},
			},
		}
		if it.ImageURL != "" {
			li.Images = []string{it.ImageURL}
		}
		out.LineItems = append(out.LineItems, li)
		lineIDs = append(lineIDs, it.LineID)
	}
	out.Selected = []selectedOption{{Type: "digital", OptionID: "digital", ItemIDs: lineIDs}}
	t := c.Totals
	out.Totals = []total{{Type: "items_base_amount", DisplayText: "Items", Amount: t.ItemsBase}}
	if t.ItemsDiscount != 0 {
		out.Totals = append(out.Totals, total{Type: "items_discount", DisplayText: "Item discounts", Amount: t.ItemsDiscount})
	}
	out.Totals = append(out.Totals, total{Type: "subtotal", DisplayText: "Subtotal", Amount: t.Subtotal})
	if t.Discount != 0 {
		out.Totals = append(out.Totals, total{Type: "discount", DisplayText: "Discount", Amount: t.Discount})
	}
	out.Totals = append(out.Totals,
		total{Type: "fulfillment", DisplayText: "Digital delivery", Amount: t.Fulfillment},
		total{Type: "total", DisplayText: "Total", Amount: t.Total})
	for _, m := range c.Messages {
		msg := message{Type: m.Type, Param: m.Param, Resolution: m.Resolution, ContentType: "plain", Content: m.Content}
		switch m.Type {
		case "error", "warning": // MessageError, MessageWarning: a code each
			msg.Code = m.Code
		default:
			msg.Type = "info"
		}
		out.Messages = append(out.Messages, msg)
	}
	for _, l := range c.Links {
		out.Links = append(out.Links, link{Type: l.Type, Title: l.Title, URL: l.URL})
	}
	d := &discounts{Codes: []string{}, Applied: []appliedDiscount{}}
	d.Codes = append(d.Codes, c.Discounts.Codes...)
	for _, a := range c.Discounts.Applied {
		cp := coupon{ID: a.ID, Name: a.Name, PercentOff: a.PercentOff, AmountOff: a.AmountOff}
		if cp.Name == "" {
			cp.Name = a.Code
		}
		if a.AmountOff != nil {
			cp.Currency = out.Currency
		}
		d.Applied = append(d.Applied, appliedDiscount{ID: a.ID, Code: a.Code, Coupon: cp, Amount: a.Amount})
	}
	for _, r := range c.Discounts.Rejected {
		d.Rejected = append(d.Rejected, rejected(r))
	}
	out.Discounts = d
	if c.Order != nil {
		out.Order = &order{Type: "order", ID: c.Order.ID, CheckoutSessionID: c.Order.CheckoutSessionID,
			PermalinkURL: c.Order.PermalinkURL, Status: c.Order.Status}
		if out.Order.CheckoutSessionID == "" {
			out.Order.CheckoutSessionID = c.ID
		}
	}
	return out
}
