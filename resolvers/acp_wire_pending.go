package resolvers

// PENDING (acp-wire): the types of the interfaces in /work/briefs/acp-design.md,
// declared here only so that package acp compiles before the branch
// acp-core is merged (acp-conn's AgentPrincipal is merged already). Delete this
// file when merging them: their declarations replace these.

import "time"

type AgentCheckoutInput struct {
	Items               []AgentItemInput
	Currency            string
	Buyer               *AgentBuyer
	Discounts           *[]string
	FulfillmentOptionID *string
}
type AgentItemInput struct {
	ID       string
	Quantity int
}
type AgentBuyer struct{ Email, FirstName, LastName, PhoneNumber string }

type AgentPayment struct {
	HandlerID, InstrumentType, CredentialType, Token string
	Buyer                                            *AgentBuyer
}

type AgentCheckout struct {
	ID, AccountID, ConnectionID, Status, Currency string
	Buyer                                         *AgentBuyer
	Items                                         []AgentCheckoutItem
	Discounts                                     AgentDiscounts
	Totals                                        AgentTotals
	Messages                                      []AgentMessage
	Handlers                                      []AgentPaymentHandler
	Links                                         []AgentLink
	Order                                         *AgentOrder
	CreatedAt, UpdatedAt, ExpiresAt               time.Time
}
type AgentCheckoutItem struct {
	LineID, ListingID, Title, Description, ImageURL, URL string
	Quantity                                             int
	BaseAmount, Discount, Subtotal, Total                int64
	UnitAmount                                           int64
}
type AgentDiscounts struct {
	Codes    []string
	Applied  []AgentAppliedDiscount
	Rejected []AgentRejectedDiscount
}
type AgentAppliedDiscount struct {
	ID, Code, Name        string
	PercentOff, AmountOff *int64
	Amount                int64
}
type AgentRejectedDiscount struct{ Code, Reason, Message string }
type AgentTotals struct{ ItemsBase, ItemsDiscount, Subtotal, Discount, Fulfillment, Total int64 }
type AgentMessage struct{ Type, Code, Param, Content, Resolution string }
type AgentPaymentHandler struct {
	ID, Name, PSP           string
	RequiresDelegatePayment bool
	Config                  map[string]any
}
type AgentLink struct{ Type, URL, Title string }
type AgentOrder struct{ ID, CheckoutSessionID, PermalinkURL, Status string }

type SandboxAllowance struct {
	Reason, Currency, CheckoutSessionID, MerchantID string
	MaxAmount                                       int64
	ExpiresAt                                       time.Time
}
type SandboxCard struct{ Number, ExpMonth, ExpYear, CVC, Name string }
type SandboxVaultToken struct {
	ID       string
	Created  time.Time
	Metadata map[string]string
}
