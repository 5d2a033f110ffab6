package resolvers

import (
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/vektah/gqlparser/v2/ast"

	"commerce/currency"
	"commerce/db"
	"commerce/graph"
	"commerce/graph/model"
	"commerce/pricing"
)

// The readiness engine (CONTRACT §7). Every action is described once, in
// the table actionTable: its code, scope, condition and priority, message,
// and either the page a human opens or the API call an agent makes. The
// three forms of a call — REST {method, endpoint, params}, a complete
// GraphQL operation, and an MCP tool call — are derived from that one
// description: the REST path's {placeholders} are the GraphQL field's
// arguments, the REST body is the field's body argument (input), and the
// MCP tool is the field's snake_case name with the field's arguments.
// Account readiness is the account rows in order; listing readiness is the
// account's required actions followed by the listing rows; order readiness
// is the order rows; discount readiness is the discount rows, then the
// required actions of its listings when none is sellable (discounts.go).

// Action codes.
const (
	ActConnectProcessor     = model.ActionCodeConnectStripe
	ActEnableCharges        = model.ActionCodeEnableCharges
	ActUpdateBilling        = model.ActionCodeUpdateBilling
	ActWebhookDisabled      = model.ActionCodeWebhookDisabled
	ActWebhookFailing       = model.ActionCodeWebhookFailing
	ActFulfillOrder         = model.ActionCodeFulfillOrder
	ActPublishListing       = model.ActionCodePublishListing
	ActConfigureFulfillment = model.ActionCodeConfigureFulfillment
	ActEnableDiscount       = model.ActionCodeEnableDiscount
	ActExtendDiscount       = model.ActionCodeExtendDiscount
	ActRaiseDiscountLimit   = model.ActionCodeRaiseDiscountLimit
	ActAwaitDiscountStart   = model.ActionCodeAwaitDiscountStart
	ActOfferToAgents        = model.ActionCodeOfferToAgents
)

const (
	kindAPI           = model.ActionKindAPI
	kindHuman         = model.ActionKindHuman
	priorityRequired  = model.ActionPriorityRequired
	prioritySuggested = model.ActionPrioritySuggested
)

// accountFacts is what account readiness depends on.
type accountFacts struct {
	ProcessorStatus string
	ChargesEnabled  bool
	// Currency is the account's currency ("" while the processor gave none
	// the service sells in).
	Currency      string
	BillingStatus string
	// OnboardingURL is the stable {base_url}/processor/onboarding/{token}
	// ("" before connect).
	OnboardingURL string
	// BillingURL is the console's billing page.
	BillingURL string
	// DisabledWebhookID is an endpoint disabled after consecutive failures ("" if none).
	DisabledWebhookID string
	// FailingWebhookID is an enabled endpoint whose seller was warned that
	// it fails (CONTRACT §22; "" if none).
	FailingWebhookID string
	// AwaitingFulfillmentOrderID is the oldest paid order waiting for
	// external fulfillment ("" if none), and AwaitingContentType its content type.
	AwaitingFulfillmentOrderID string
	AwaitingContentType        string
	// HasPublishedListing: at least one listing is published.
	HasPublishedListing bool
	// DraftListingID is a draft that could be published ("" if none).
	DraftListingID string
	// HasOrderPaidHook: an enabled webhook endpoint subscribes to order.paid.
	HasOrderPaidHook bool
	// HasAgentConnection: the account has an agent connection (active or
	// disabled, not deleted; CONTRACT §25).
	HasAgentConnection bool
	// operational: no required account action applies (accountActions
	// sets it before the rows that read it).
	operational bool
}

// listingFacts and orderFacts are what listing and order rows read.
type listingFacts struct {
	ID           string
	Status       string
	Deliverables int
	// Licensed: the listing has a license (its key is the content).
	Licensed bool
}

type orderFacts struct {
	ID          string
	Status      string
	ContentType string
}

// discountFacts are what discount rows read: the status now (pricing's
// rule) and what the examples of their calls are made of.
type discountFacts struct {
	ID               string
	Status           string
	StartsAt         time.Time
	RedemptionsCount int64
	// ExampleExpiry is extend_discount's example expires_at (30 days on).
	ExampleExpiry time.Time
}

// facts is what one row's condition and call read: the account's always,
// the listing's or the order's in those scopes.
type facts struct {
	accountFacts
	Listing  *listingFacts
	Order    *orderFacts
	Discount *discountFacts
}

type scope int

const (
	scopeAccount scope = iota
	scopeListing
	scopeOrder
	scopeDiscount
)

// apiCall is an action's call for given facts: the GraphQL arguments named
// in the REST path, and the REST body (the GraphQL body argument).
type apiCall struct {
	Args   map[string]string
	Params map[string]any
}

// actionSpec is one row of the table: one action, described once.
type actionSpec struct {
	Code  model.ActionCode
	Scope scope
	// When reports whether the action applies to the facts, and how much it matters.
	When    func(f *facts) (model.ActionPriority, bool)
	Message func(f *facts) string
	// URL is the page a human opens (kind human); nil for an API action.
	URL func(f *facts) string
	// The API call: REST method and path ({name} is the GraphQL argument
	// name), the GraphQL root field, and the argument that carries the REST
	// body ("" when the call has no body).
	Method model.ResolveMethod
	Path   string
	Field  string
	Body   string
	Call   func(f *facts) apiCall
	// Inputs are what the agent asks its human for: paths into Params,
	// whose examples are the values Params carries.
	Inputs []model.ActionInput
}

func always(p model.ActionPriority) func(bool) (model.ActionPriority, bool) {
	return func(ok bool) (model.ActionPriority, bool) { return p, ok }
}

var (
	required  = always(priorityRequired)
	suggested = always(prioritySuggested)
)

func fixed(s string) func(*facts) string { return func(*facts) string { return s } }

// sellableCurrency: the account's currency is one the service sells in.
func sellableCurrency(code string) bool {
	_, ok := currency.Lookup(code)
	return code != "" && ok
}

// The example deliverable of fulfill and configure_fulfillment: a text
// deliverable works as given; the human supplies the real content.
const exampleDeliverableText = "Replace with the content for the buyer: a license key, a message, or use type url with an https link."

var deliverableInputs = func(prefix string) []model.ActionInput {
	return []model.ActionInput{
		{Name: prefix + "type", Description: "The kind of content: text (the content itself), url (an https link the buyer opens) or file (a token from POST /v1/files, given as token instead of value).", Example: "text"},
		{Name: prefix + "value", Description: "The content the buyer gets: the text, or the https URL.", Example: exampleDeliverableText},
	}
}

func exampleDeliverable() map[string]any {
	return map[string]any{"type": "text", "value": exampleDeliverableText}
}

// fulfillRows are fulfill_order for the account (its oldest paid order) and
// for an order: the example body fits the order's content type (a
// generated order needs deliverables; a webhook order takes none).
func fulfillRows(sc scope, msg func(f *facts) string, order func(f *facts) (id, contentType string, ok bool)) []actionSpec {
	return []actionSpec{
		{Code: ActFulfillOrder, Scope: sc, Message: msg,
			When: func(f *facts) (model.ActionPriority, bool) {
				_, ct, ok := order(f)
				return suggested(ok && ct == string(model.OrderContentTypeGenerated))
			},
			Method: model.ResolveMethodPost, Path: "/v1/orders/{id}/fulfill", Field: "fulfillOrder", Body: "input",
			Call: func(f *facts) apiCall {
				id, _, _ := order(f)
				return apiCall{Args: map[string]string{"id": id}, Params: map[string]any{"deliverables": []any{exampleDeliverable()}}}
			},
			Inputs: deliverableInputs("deliverables[0]."),
		},
		{Code: ActFulfillOrder, Scope: sc, Message: msg,
			When: func(f *facts) (model.ActionPriority, bool) {
				_, ct, ok := order(f)
				return suggested(ok && ct != string(model.OrderContentTypeGenerated))
			},
			Method: model.ResolveMethodPost, Path: "/v1/orders/{id}/fulfill", Field: "fulfillOrder", Body: "input",
			Call: func(f *facts) apiCall {
				id, _, _ := order(f)
				// Fulfill takes a JSON body: an empty one marks a webhook order fulfilled.
				return apiCall{Args: map[string]string{"id": id}, Params: map[string]any{}}
			},
		},
	}
}

// actionTable is every readiness action, in priority order within each scope.
var actionTable = slicesConcat(
	[]actionSpec{
		{Code: ActConnectProcessor, Scope: scopeAccount,
			When: func(f *facts) (model.ActionPriority, bool) {
				s := f.ProcessorStatus
				return required(s != db.ProcessorOnboarding && s != db.ProcessorConnected || f.OnboardingURL == "")
			},
			Message: func(f *facts) string {
				if f.ProcessorStatus == db.ProcessorDisconnected {
					return "Connect your payment processor again: it was disconnected, so buyers cannot pay until you do."
				}
				return "Connect a payment processor so buyers can pay you."
			},
			Method: model.ResolveMethodPost, Path: "/v1/account/processor/connect", Field: "connectProcessor",
			Call: func(*facts) apiCall { return apiCall{} },
		},
		{Code: ActEnableCharges, Scope: scopeAccount,
			When: func(f *facts) (model.ActionPriority, bool) {
				return required(f.OnboardingURL != "" && (f.ProcessorStatus == db.ProcessorOnboarding ||
					f.ProcessorStatus == db.ProcessorConnected && !f.ChargesEnabled))
			},
			Message: func(f *facts) string {
				if f.ProcessorStatus == db.ProcessorOnboarding {
					return "Finish the payment processor's onboarding (identity and bank details) on its page to start taking payments."
				}
				return "Complete the payment processor's identity and bank verification on its page: it has not enabled payments yet."
			},
			URL: func(f *facts) string { return f.OnboardingURL },
		},
		{Code: ActEnableCharges, Scope: scopeAccount,
			When: func(f *facts) (model.ActionPriority, bool) {
				return required(f.OnboardingURL != "" && f.ProcessorStatus == db.ProcessorConnected && f.ChargesEnabled &&
					!sellableCurrency(f.Currency))
			},
			Message: fixed("Choose a currency this store can sell in (such as USD or EUR) in the payment processor's settings: " +
				"its default currency is not one, so nothing can be sold."),
			URL: func(f *facts) string { return f.OnboardingURL },
		},
		{Code: ActUpdateBilling, Scope: scopeAccount,
			When:    func(f *facts) (model.ActionPriority, bool) { return required(f.BillingStatus == "unpaid") },
			Message: fixed("Update your billing details: your plan's subscription is unpaid, so nothing sells until it is paid."),
			URL:     func(f *facts) string { return f.BillingURL },
		},
		{Code: ActUpdateBilling, Scope: scopeAccount,
			When:    func(f *facts) (model.ActionPriority, bool) { return suggested(f.BillingStatus == "past_due") },
			Message: fixed("Update your billing details: your plan's last renewal payment failed, and selling stops when the grace period ends."),
			URL:     func(f *facts) string { return f.BillingURL },
		},
		{Code: ActWebhookDisabled, Scope: scopeAccount,
			When: func(f *facts) (model.ActionPriority, bool) { return suggested(f.DisabledWebhookID != "") },
			Message: fixed("Fix the receiving server of a webhook endpoint, then turn the endpoint back on: it was turned off after " +
				"repeated failed deliveries, and its waiting deliveries resume when it is on."),
			Method: model.ResolveMethodPut, Path: "/v1/webhooks/{id}", Field: "updateWebhook", Body: "input",
			Call: func(f *facts) apiCall {
				return apiCall{Args: map[string]string{"id": f.DisabledWebhookID}, Params: map[string]any{"status": "enabled"}}
			},
		},
		{Code: ActWebhookFailing, Scope: scopeAccount,
			When: func(f *facts) (model.ActionPriority, bool) { return suggested(f.FailingWebhookID != "") },
			Message: fixed("Fix the receiving server of a webhook endpoint that has not accepted events for a while (its deliveries show " +
				"the last error), or it will be turned off: it must answer each event with a 2xx status within 10 seconds. " +
				"Then send a test event: a 2xx answer clears this, and waiting events are retried on schedule."),
			Method: model.ResolveMethodPost, Path: "/v1/webhooks/{id}/test", Field: "testWebhook",
			Call: func(f *facts) apiCall { return apiCall{Args: map[string]string{"id": f.FailingWebhookID}} },
		},
	},
	fulfillRows(scopeAccount,
		func(f *facts) string {
			return "Fulfill the paid orders that wait for you, oldest first: " + f.AwaitingFulfillmentOrderID +
				" is the oldest, and the orders list filtered to paid ones shows them all."
		},
		func(f *facts) (string, string, bool) {
			return f.AwaitingFulfillmentOrderID, f.AwaitingContentType, f.AwaitingFulfillmentOrderID != ""
		}),
	[]actionSpec{
		{Code: ActPublishListing, Scope: scopeAccount,
			When: func(f *facts) (model.ActionPriority, bool) {
				return suggested(!f.HasPublishedListing && f.DraftListingID != "")
			},
			Message: fixed("Publish your draft listing to get a product page buyers can pay on."),
			Method:  model.ResolveMethodPost, Path: "/v1/listings/{id}/publish", Field: "publishListing",
			Call: func(f *facts) apiCall { return apiCall{Args: map[string]string{"id": f.DraftListingID}} },
		},
		{Code: ActPublishListing, Scope: scopeAccount,
			When: func(f *facts) (model.ActionPriority, bool) {
				return suggested(!f.HasPublishedListing && f.DraftListingID == "")
			},
			Message: fixed("Create a listing with a title and a price, then publish it to get a product page buyers can pay on."),
			Method:  model.ResolveMethodPost, Path: "/v1/listings", Field: "createListing", Body: "input",
			Call: func(*facts) apiCall {
				return apiCall{Params: map[string]any{"title": "My first product", "price": 1500}}
			},
			Inputs: []model.ActionInput{
				{Name: "title", Description: "The product's name, 1 to 200 characters.", Example: "My first product"},
				{Name: "price", Description: "The price in the smallest unit of the account's currency (1500 is 15.00 usd), 1 to 99,999,999.", Example: 1500},
			},
		},
		{Code: ActOfferToAgents, Scope: scopeAccount,
			When: func(f *facts) (model.ActionPriority, bool) {
				return suggested(f.operational && f.HasPublishedListing && !f.HasAgentConnection)
			},
			Message: fixed("Let buyers' AI assistants buy your listings: ask an agent platform that speaks the Agentic Commerce " +
				"Protocol (ACP) for the webhook URL it receives order events at, create an agent connection with it, and give the " +
				"platform the connection's token and webhook secret (shown once)."),
			Method: model.ResolveMethodPost, Path: "/v1/agent-connections", Field: "createAgentConnection", Body: "input",
			Call: func(*facts) apiCall {
				return apiCall{Params: map[string]any{"name": exampleAgentPlatform, "webhook_url": exampleAgentWebhookURL}}
			},
			Inputs: []model.ActionInput{
				{Name: "name", Description: "A name to recognise the agent platform by, 1 to 100 characters.", Example: exampleAgentPlatform},
				{Name: "webhook_url", Description: "The https URL the agent platform gave for ACP order events.", Example: exampleAgentWebhookURL},
			},
		},
		{Code: ActPublishListing, Scope: scopeListing,
			When:    func(f *facts) (model.ActionPriority, bool) { return required(f.Listing.Status == db.ListingDraft) },
			Message: fixed("Publish the listing to put it on sale."),
			Method:  model.ResolveMethodPost, Path: "/v1/listings/{id}/publish", Field: "publishListing",
			Call: func(f *facts) apiCall { return apiCall{Args: map[string]string{"id": f.Listing.ID}} },
		},
		{Code: ActPublishListing, Scope: scopeListing,
			When:    func(f *facts) (model.ActionPriority, bool) { return required(f.Listing.Status == db.ListingPaused) },
			Message: fixed("Publish the listing again to sell it: it is paused."),
			Method:  model.ResolveMethodPut, Path: "/v1/listings/{id}", Field: "updateListing", Body: "input",
			Call: func(f *facts) apiCall {
				return apiCall{Args: map[string]string{"id": f.Listing.ID}, Params: map[string]any{"status": "published"}}
			},
		},
		{Code: ActConfigureFulfillment, Scope: scopeListing,
			When: func(f *facts) (model.ActionPriority, bool) {
				return suggested(f.Listing.Status == db.ListingDraft && f.Listing.Deliverables == 0 && !f.Listing.Licensed && !f.HasOrderPaidHook)
			},
			Message: fixed("Add what buyers get (a file, a link or a text), or fulfill each paid order yourself: the listing has " +
				"nothing to deliver and no webhook endpoint hears of its paid orders."),
			Method: model.ResolveMethodPost, Path: "/v1/listings/{listingId}/deliverables", Field: "addDeliverable", Body: "input",
			Call: func(f *facts) apiCall {
				return apiCall{Args: map[string]string{"listingId": f.Listing.ID}, Params: exampleDeliverable()}
			},
			Inputs: deliverableInputs(""),
		},
	},
	fulfillRows(scopeOrder, fixed("Fulfill this order: it is paid and waits for you."),
		func(f *facts) (string, string, bool) {
			return f.Order.ID, f.Order.ContentType, f.Order.Status == db.OrderPaid
		}),
	discountRows,
)

// discountRows are what a discount code's status asks for before buyers
// can use it (pricing.DiscountTerms.Status gives one status, so at most
// one row applies). Each blocks the code, so each is required.
var discountRows = []actionSpec{
	{Code: ActEnableDiscount, Scope: scopeDiscount,
		When: func(f *facts) (model.ActionPriority, bool) {
			return required(f.Discount.Status == pricing.DiscountDisabled)
		},
		Message: fixed("Turn the discount code back on to let buyers use it: while it is off, buyers who type it are told it is disabled."),
		Method:  model.ResolveMethodPut, Path: "/v1/discounts/{id}", Field: "updateDiscount", Body: "input",
		Call: func(f *facts) apiCall {
			return apiCall{Args: map[string]string{"id": f.Discount.ID}, Params: map[string]any{"status": pricing.DiscountActive}}
		},
	},
	{Code: ActExtendDiscount, Scope: scopeDiscount,
		When: func(f *facts) (model.ActionPriority, bool) {
			return required(f.Discount.Status == pricing.DiscountExpired)
		},
		Message: fixed("Give the discount code a later end to let buyers use it again: it has expired, so buyers are told so. " +
			"The suggested end is 30 days from now; any later date works, or no end at all."),
		Method: model.ResolveMethodPut, Path: "/v1/discounts/{id}", Field: "updateDiscount", Body: "input",
		Call: func(f *facts) apiCall {
			return apiCall{Args: map[string]string{"id": f.Discount.ID},
				Params: map[string]any{"expires_at": f.Discount.ExampleExpiry.UTC().Format(time.RFC3339)}}
		},
	},
	{Code: ActRaiseDiscountLimit, Scope: scopeDiscount,
		When: func(f *facts) (model.ActionPriority, bool) {
			return required(f.Discount.Status == pricing.DiscountExhausted)
		},
		Message: func(f *facts) string {
			return fmt.Sprintf("Raise the discount code's limit to let more buyers use it: paid orders used it %d times, its limit, "+
				"so buyers are told it is used up. The suggestion allows 100 more; any higher limit works, or no limit at all.",
				f.Discount.RedemptionsCount)
		},
		Method: model.ResolveMethodPut, Path: "/v1/discounts/{id}", Field: "updateDiscount", Body: "input",
		Call: func(f *facts) apiCall {
			return apiCall{Args: map[string]string{"id": f.Discount.ID},
				Params: map[string]any{"max_redemptions": f.Discount.RedemptionsCount + 100}}
		},
	},
	{Code: ActAwaitDiscountStart, Scope: scopeDiscount,
		When: func(f *facts) (model.ActionPriority, bool) {
			return required(f.Discount.Status == pricing.DiscountScheduled)
		},
		Message: func(f *facts) string {
			return "Wait until " + f.Discount.StartsAt.UTC().Format(time.RFC3339) + ", when the discount code starts working: " +
				"until then buyers are told it is not valid yet. Its start cannot change: to start at once, create another code."
		},
		Method: model.ResolveMethodGet, Path: "/v1/discounts/{id}", Field: "discount",
		Call: func(f *facts) apiCall { return apiCall{Args: map[string]string{"id": f.Discount.ID}} },
	},
}

func slicesConcat(parts ...[]actionSpec) []actionSpec {
	var out []actionSpec
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// evaluate lists the actions of one scope that apply to f, in table order.
func evaluate(sc scope, f *facts) []*model.Action {
	var out []*model.Action
	for i := range actionTable {
		s := &actionTable[i]
		if s.Scope != sc {
			continue
		}
		p, ok := s.When(f)
		if !ok {
			continue
		}
		out = append(out, s.action(p, f))
	}
	return out
}

// accountBlocked reports whether a required account action applies: the
// account is not operational. It asks the same rows as accountActions
// without building their calls (the product page asks it per view).
func accountBlocked(f accountFacts) bool {
	ff := &facts{accountFacts: f}
	for i := range actionTable {
		if s := &actionTable[i]; s.Scope == scopeAccount {
			if p, ok := s.When(ff); ok && p == priorityRequired {
				return true
			}
		}
	}
	return false
}

// action is the row's action for f.
func (s *actionSpec) action(p model.ActionPriority, f *facts) *model.Action {
	a := &model.Action{Code: s.Code, Priority: p, Message: s.Message(f)}
	if s.URL != nil {
		u := s.URL(f)
		a.Kind = kindHuman
		a.Resolve = &model.ActionResolve{Method: model.ResolveMethodRedirect, URL: &u, Inputs: []*model.ActionInput{}}
		return a
	}
	c := s.Call(f)
	endpoint := expandPath(s.Path, c.Args)
	gql, mcp := derive(s.Field, s.Body, c.Args, c.Params, actionSelections)
	a.Kind = kindAPI
	a.Resolve = &model.ActionResolve{Method: s.Method, Endpoint: &endpoint, Params: c.Params,
		Inputs: make([]*model.ActionInput, len(s.Inputs)), GraphQL: gql, MCP: mcp}
	for i := range s.Inputs {
		in := s.Inputs[i]
		a.Resolve.Inputs[i] = &in
	}
	return a
}

// The example of offer_to_agents: the human gives the real platform's.
const (
	exampleAgentPlatform   = "My agent platform"
	exampleAgentWebhookURL = "https://agents.example.com/acp/webhooks"
)

// accountActions evaluates the account rows, in priority order.
func accountActions(f accountFacts) []*model.Action {
	f.operational = !accountBlocked(f)
	return evaluate(scopeAccount, &facts{accountFacts: f})
}

// listingActions: the account's required actions, then the listing's rows.
func listingActions(l *db.Listing, f *sellerFacts) []*model.Action {
	out := requiredOnly(f.accountActions)
	return append(out, evaluate(scopeListing, &facts{accountFacts: f.facts,
		Listing: &listingFacts{ID: l.ID, Status: l.Status, Deliverables: l.DeliverablesCount, Licensed: l.LicenseEnabled}})...)
}

// orderActions: fulfill_order for a paid order awaiting fulfillment.
func orderActions(o *db.Order) []*model.Action {
	return evaluate(scopeOrder, &facts{Order: &orderFacts{ID: o.ID, Status: o.Status, ContentType: o.ContentType}})
}

// accountReadiness is the readiness object of a list of account actions:
// operational when none is required; next names the first.
func accountReadiness(actions []*model.Action) *model.AccountReadiness {
	r := &model.AccountReadiness{Operational: len(requiredOnly(actions)) == 0, Actions: nonNil(actions),
		Next: firstCode(actions), Refresh: refreshOf("/v1/account", "viewer", nil, "AccountReadiness")}
	return r
}

func listingReadiness(l *db.Listing, f *sellerFacts) *model.ListingReadiness {
	actions := listingActions(l, f)
	return &model.ListingReadiness{Sellable: l.Status == db.ListingPublished && len(requiredOnly(actions)) == 0,
		Actions: nonNil(actions), Next: firstCode(actions),
		Refresh: refreshOf("/v1/listings/{id}", "listing", map[string]string{"id": l.ID}, "ListingReadiness")}
}

func orderReadiness(o *db.Order) *model.OrderReadiness {
	actions := orderActions(o)
	return &model.OrderReadiness{Actions: nonNil(actions), Next: firstCode(actions),
		Refresh: refreshOf("/v1/orders/{id}", "order", map[string]string{"id": o.ID}, "OrderReadiness")}
}

func nonNil(actions []*model.Action) []*model.Action {
	if actions == nil {
		return []*model.Action{}
	}
	return actions
}

func firstCode(actions []*model.Action) *model.ActionCode {
	if len(actions) == 0 {
		return nil
	}
	return &actions[0].Code
}

// requiredOnly keeps the required actions: what blocks selling.
func requiredOnly(actions []*model.Action) []*model.Action {
	var out []*model.Action
	for _, a := range actions {
		if a.Priority == priorityRequired {
			out = append(out, a)
		}
	}
	return out
}

// refreshOf is how to read a readiness object again: GET its owner's path,
// or the query field returning it with only its readiness selected.
func refreshOf(path, field string, args map[string]string, readinessType string) *model.ReadinessRefresh {
	gql, mcp := derive(field, "", args, nil, refreshSelections[readinessType])
	return &model.ReadinessRefresh{Method: model.ResolveMethodGet, Endpoint: expandPath(path, args), GraphQL: gql, MCP: mcp}
}

// What a derived GraphQL operation selects: the result's identity and its
// readiness, in full, so the agent can go on from the response.
const (
	actionSelection  = "actions { code kind priority message resolve { method endpoint url params inputs { name description example } graphql { query variables } mcp { tool arguments } } }"
	refreshSelection = "refresh { method endpoint graphql { query variables } mcp { tool arguments } }"
)

var readinessSelections = map[string]string{
	"AccountReadiness":  "operational next " + actionSelection + " " + refreshSelection,
	"ListingReadiness":  "sellable next " + actionSelection + " " + refreshSelection,
	"OrderReadiness":    "next " + actionSelection + " " + refreshSelection,
	"DiscountReadiness": "usable next " + actionSelection + " " + refreshSelection,
}

// refreshSelections: a refresh reads only the readiness, of the type its
// query field returns.
var refreshSelections = func() map[string]map[string]string {
	out := map[string]map[string]string{}
	for typ, sel := range readinessSelections {
		only := "readiness { " + sel + " }"
		out[typ] = map[string]string{"Account": only, "Listing": only, "Order": only, "Discount": only}
	}
	return out
}()

// actionSelections: by the GraphQL type an action's field returns.
var actionSelections = map[string]string{
	"ProcessorOnboarding":    "url expiresAt readiness { " + readinessSelections["AccountReadiness"] + " }",
	"Listing":                "id status url readiness { " + readinessSelections["ListingReadiness"] + " }",
	"Deliverable":            "id type readiness { " + readinessSelections["ListingReadiness"] + " }",
	"Order":                  "id status contentType readiness { " + readinessSelections["OrderReadiness"] + " }",
	"WebhookEndpoint":        "id status",
	"CreatedAgentConnection": "id name webhookUrl status token webhookSecret",
	"WebhookTest":            "statusCode durationMs error",
	"Discount":               "id status readiness { " + readinessSelections["DiscountReadiness"] + " }",
}

// expandPath fills a REST path's {argument} placeholders.
func expandPath(path string, args map[string]string) string {
	for k, v := range args {
		path = strings.ReplaceAll(path, "{"+k+"}", v)
	}
	return path
}

var apiSchema = sync.OnceValue(func() *ast.Schema { return graph.NewExecutableSchema(graph.Config{}).Schema() })

// rootField finds a root field of the schema: a mutation or a query.
func rootField(name string) (*ast.FieldDefinition, string) {
	s := apiSchema()
	if s.Mutation != nil {
		if f := s.Mutation.Fields.ForName(name); f != nil {
			return f, "mutation"
		}
	}
	if f := s.Query.Fields.ForName(name); f != nil {
		return f, "query"
	}
	panic(fmt.Sprintf("readiness: %q is no root field of the schema", name))
}

// derive builds the GraphQL operation and the MCP tool call of a root field
// from the REST form: args become the field's arguments of those names, and
// params (snake_case JSON, lowercase enum values) become the body argument
// in GraphQL's shape (camelCase fields, enum values as GraphQL writes them).
func derive(field, body string, args map[string]string, params map[string]any, selections map[string]string) (*model.GraphQLCall, *model.MCPCall) {
	def, op := rootField(field)
	vars := map[string]any{}
	var decls, uses []string
	for _, a := range def.Arguments {
		var v any
		if a.Name == body && params != nil {
			v = toGraphQL(params, a.Type)
		} else if s, ok := args[a.Name]; ok {
			v = s
		} else {
			continue
		}
		vars[a.Name] = v
		decls = append(decls, "$"+a.Name+": "+a.Type.String())
		uses = append(uses, a.Name+": $"+a.Name)
	}
	// The text depends only on the field, the arguments present and the
	// selection: built once, then shared.
	key := queryKey{field: field, decls: strings.Join(decls, ", "), sel: selections[def.Type.Name()]}
	if q, ok := queryTexts.Load(key); ok {
		return &model.GraphQLCall{Query: q.(string), Variables: vars},
			&model.MCPCall{Tool: SnakeCase(field), Arguments: cloneJSON(vars).(map[string]any)}
	}
	var b strings.Builder
	b.WriteString(op + " " + pascal(field))
	if len(decls) > 0 {
		b.WriteString("(" + strings.Join(decls, ", ") + ")")
	}
	b.WriteString(" { " + field)
	if len(uses) > 0 {
		b.WriteString("(" + strings.Join(uses, ", ") + ")")
	}
	if sel := selections[def.Type.Name()]; sel != "" {
		b.WriteString(" { " + sel + " }")
	}
	b.WriteString(" }")
	queryTexts.Store(key, b.String())
	return &model.GraphQLCall{Query: b.String(), Variables: vars},
		&model.MCPCall{Tool: SnakeCase(field), Arguments: cloneJSON(vars).(map[string]any)}
}

type queryKey struct{ field, decls, sel string }

// queryTexts caches derived operation texts by queryKey (a few dozen).
var queryTexts sync.Map

// toGraphQL converts a REST JSON value to the GraphQL value of type t.
func toGraphQL(v any, t *ast.Type) any {
	if t.Elem != nil {
		list, ok := v.([]any)
		if !ok {
			return v
		}
		out := make([]any, len(list))
		for i, item := range list {
			out[i] = toGraphQL(item, t.Elem)
		}
		return out
	}
	def := apiSchema().Types[t.NamedType]
	switch {
	case def == nil:
		return v
	case def.Kind == ast.InputObject:
		m, ok := v.(map[string]any)
		if !ok {
			return v
		}
		out := make(map[string]any, len(m))
		for k, item := range m {
			name := camel(k)
			if fd := def.Fields.ForName(name); fd != nil {
				out[name] = toGraphQL(item, fd.Type)
			} else {
				out[name] = item
			}
		}
		return out
	case def.Kind == ast.Enum:
		if s, ok := v.(string); ok {
			return strings.ToUpper(strings.ReplaceAll(s, ".", "_"))
		}
	}
	return v
}

func cloneJSON(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, item := range t {
			out[k] = cloneJSON(item)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, item := range t {
			out[i] = cloneJSON(item)
		}
		return out
	}
	return v
}

// camel turns snake_case into camelCase: external_delivery → externalDelivery.
func camel(s string) string {
	parts := strings.Split(s, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

func pascal(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// SnakeCase is the MCP tool name of a GraphQL root field (CONTRACT §17):
// createListing → create_listing, viewer → viewer.
func SnakeCase(field string) string {
	var b strings.Builder
	for i, r := range field {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// ExampleActions lists every row of the table as an action, evaluated on
// example facts that make each row apply, so tests can check every row's
// three forms.
func ExampleActions() []*model.Action {
	f := &facts{
		accountFacts: accountFacts{ProcessorStatus: db.ProcessorConnected, OnboardingURL: "https://example.test/processor/onboarding/t",
			BillingURL: "https://example.test/console/settings/billing", DisabledWebhookID: "wh_01jdx0v3k7q8r9s0t1u2v3w4x5",
			FailingWebhookID:           "wh_01jdx0v3k7q8r9s0t1u2v3w4x6",
			AwaitingFulfillmentOrderID: "ord_01jdx0v3k7q8r9s0t1u2v3w4x5", DraftListingID: "lst_01jdx0v3k7q8r9s0t1u2v3w4x5",
			HasPublishedListing: true, operational: true},
		Listing: &listingFacts{ID: "lst_01jdx0v3k7q8r9s0t1u2v3w4x5", Status: db.ListingDraft},
		Order:   &orderFacts{ID: "ord_01jdx0v3k7q8r9s0t1u2v3w4x5", Status: db.OrderPaid},
		Discount: &discountFacts{ID: "dsc_01jdx0v3k7q8r9s0t1u2v3w4x5", Status: pricing.DiscountDisabled,
			StartsAt: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), RedemptionsCount: 10,
			ExampleExpiry: time.Date(2026, 12, 31, 23, 59, 59, 0, time.UTC)},
	}
	out := make([]*model.Action, 0, len(actionTable))
	for i := range actionTable {
		out = append(out, actionTable[i].action(priorityRequired, f))
	}
	return out
}

// ExampleRefreshes are the refresh objects of the four readiness kinds.
func ExampleRefreshes() []*model.ReadinessRefresh {
	return []*model.ReadinessRefresh{
		accountReadiness(nil).Refresh,
		refreshOf("/v1/listings/{id}", "listing", map[string]string{"id": "lst_01jdx0v3k7q8r9s0t1u2v3w4x5"}, "ListingReadiness"),
		refreshOf("/v1/orders/{id}", "order", map[string]string{"id": "ord_01jdx0v3k7q8r9s0t1u2v3w4x5"}, "OrderReadiness"),
		refreshOf("/v1/discounts/{id}", "discount", map[string]string{"id": "dsc_01jdx0v3k7q8r9s0t1u2v3w4x5"}, "DiscountReadiness"),
	}
}
