package resolvers

import (
	"commerce/db"
	"commerce/graph/model"
)

// The readiness engine (CONTRACT §7): one table of actions, evaluated from
// facts the resolvers gather in a query or two. Account readiness is the
// table in order; listing and order readiness reuse its required part.

// Action codes.
const (
	ActConnectProcessor     = model.ActionCodeConnectStripe
	ActEnableCharges        = model.ActionCodeEnableCharges
	ActUpdateBilling        = model.ActionCodeUpdateBilling
	ActWebhookDisabled      = model.ActionCodeWebhookDisabled
	ActFulfillOrder         = model.ActionCodeFulfillOrder
	ActPublishListing       = model.ActionCodePublishListing
	ActConfigureFulfillment = model.ActionCodeConfigureFulfillment
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
	BillingStatus   string
	// OnboardingURL is where a human continues the processor's onboarding.
	OnboardingURL string
	// BillingURL is the console's billing page.
	BillingURL string
	// DisabledWebhookID is an endpoint disabled after consecutive failures ("" if none).
	DisabledWebhookID string
	// AwaitingFulfillmentOrderID is a paid order waiting for external fulfillment ("" if none).
	AwaitingFulfillmentOrderID string
	// HasPublishedListing: at least one listing is published.
	HasPublishedListing bool
	// DraftListingID is a draft that could be published ("" if none).
	DraftListingID string
}

func apiAction(code model.ActionCode, priority model.ActionPriority, message string, method model.ResolveMethod, endpoint string, params map[string]any) *model.Action {
	return &model.Action{Code: code, Kind: kindAPI, Priority: priority, Message: message,
		Resolve: &model.ActionResolve{Method: method, Endpoint: &endpoint, Params: params}}
}

func humanAction(code model.ActionCode, priority model.ActionPriority, message, url string) *model.Action {
	return &model.Action{Code: code, Kind: kindHuman, Priority: priority, Message: message,
		Resolve: &model.ActionResolve{Method: model.ResolveMethodRedirect, URL: &url}}
}

// accountActions evaluates the account table of CONTRACT §7, in priority order.
func accountActions(f accountFacts) []*model.Action {
	var out []*model.Action
	connected := f.ProcessorStatus == db.ProcessorConnected
	if !connected {
		msg := "Connect a payment processor account so buyers can pay you."
		if f.ProcessorStatus == db.ProcessorOnboarding {
			msg = "Finish connecting your payment processor account: call connect for a fresh onboarding link."
		} else if f.ProcessorStatus == db.ProcessorDisconnected {
			msg = "The payment processor was disconnected; connect it again to sell."
		}
		out = append(out, apiAction(ActConnectProcessor, priorityRequired, msg,
			"POST", "/v1/account/processor/connect", nil))
	}
	if connected && !f.ChargesEnabled {
		out = append(out, humanAction(ActEnableCharges, priorityRequired,
			"The payment processor has not enabled charges yet: complete its identity and bank verification.",
			f.OnboardingURL))
	}
	switch f.BillingStatus {
	case "past_due":
		out = append(out, humanAction(ActUpdateBilling, prioritySuggested,
			"Your last subscription payment failed; update your billing details before the grace period ends.", f.BillingURL))
	case "unpaid":
		out = append(out, humanAction(ActUpdateBilling, priorityRequired,
			"Your subscription is unpaid; update your billing details to sell again.", f.BillingURL))
	}
	if f.DisabledWebhookID != "" {
		out = append(out, apiAction(ActWebhookDisabled, prioritySuggested,
			"A webhook endpoint was disabled after consecutive delivery failures; fix the receiver and re-enable it.",
			"PUT", "/v1/webhooks/"+f.DisabledWebhookID, map[string]any{"status": "enabled"}))
	}
	if f.AwaitingFulfillmentOrderID != "" {
		out = append(out, apiAction(ActFulfillOrder, prioritySuggested,
			"A paid order is waiting for you to fulfill it.",
			"POST", "/v1/orders/"+f.AwaitingFulfillmentOrderID+"/fulfill", map[string]any{"deliverables": []any{}}))
	}
	if !f.HasPublishedListing {
		if f.DraftListingID != "" {
			out = append(out, apiAction(ActPublishListing, prioritySuggested,
				"Publish a listing to get a product page buyers can pay on.",
				"POST", "/v1/listings/"+f.DraftListingID+"/publish", nil))
		} else {
			out = append(out, apiAction(ActPublishListing, prioritySuggested,
				"Create and publish a listing to get a product page buyers can pay on.",
				"POST", "/v1/listings", map[string]any{"title": "My first product", "price": 1500}))
		}
	}
	return out
}

// accountReadiness is the readiness object of a list of account actions:
// operational when none is required; next names the first.
func accountReadiness(actions []*model.Action) *model.AccountReadiness {
	r := &model.AccountReadiness{Operational: len(requiredOnly(actions)) == 0, Actions: actions}
	if r.Actions == nil {
		r.Actions = []*model.Action{}
	}
	if len(actions) > 0 {
		r.Next = &actions[0].Code
	}
	return r
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
