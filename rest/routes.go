package rest

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
)

// Access says who calls a route and how the caller is identified.
type Access int

const (
	// Key routes need an API key (Authenticate runs before the rate limit,
	// so the limit counts per key).
	Key Access = iota
	// Public routes take no key; their limit counts per client IP.
	Public
	// Signed routes are called by the payment processor and verified by its
	// signature: no key, no rate limit, no idempotency.
	Signed
)

// String names the caller as docs/graphql.md shows it.
func (a Access) String() string {
	switch a {
	case Public:
		return "public"
	case Signed:
		return "processor signature"
	default:
		return "API key"
	}
}

// Route is one /v1 route: how it is served, the rate-limit group it is
// charged to, and the GraphQL field that does the same thing (charged to the
// same group, in the same window).
type Route struct {
	Method string
	Path   string
	// Handler decodes the request, calls the resolver and encodes the result.
	Handler func(a *API, w http.ResponseWriter, r *http.Request) error
	Access  Access
	// Group is the group of ratelimit.Groups charged before the handler
	// runs; "" charges none, and Note says why.
	Group string
	// GraphQL is the field doing the same thing, as Type.field; "" when
	// there is none, and Note says why.
	GraphQL string
	Note    string
	// AnyOrigin routes are called from browsers of any origin: OPTIONS
	// answers their CORS preflight and every response carries
	// Access-Control-Allow-Origin: * (licenses.go). They also send the
	// RateLimit-* headers of the binding one of the route's group and the
	// resolver's own limits (resolvers.LimitReport).
	AnyOrigin bool
	// Session routes also accept the developer console's session cookie
	// (API.Session) when no key is sent, so that the console can link to
	// them (the CSV exports' "Export CSV" control).
	Session bool
	// Streamed routes write their body as they read it (CSV exports): the
	// rate limit is charged before the handler, not alongside it into a
	// buffer (RateLimit).
	Streamed bool
}

// Routes is the /v1 facade: every route, declared once. Registration,
// docs/graphql.md and the per-field rate limits of /graphql all read it.
var Routes = []Route{
	{Method: "GET", Path: "/v1/ping", Handler: (*API).ping, Access: Public, Group: "public", GraphQL: "Query.ping"},
	{Method: "GET", Path: "/v1/plans", Handler: (*API).plans, Access: Public, Group: "public", GraphQL: "Query.plans"},
	{Method: "GET", Path: "/v1/openapi.yaml", Handler: (*API).openAPI, Access: Public, Group: "public",
		Note: "GraphQL describes itself: introspection"},

	{Method: "POST", Path: "/v1/bootstrap", Handler: (*API).startBootstrap, Access: Public, Group: "default", GraphQL: "Mutation.startBootstrap",
		Note: "the resolver adds its passcode limits per email and per client IP"},
	{Method: "POST", Path: "/v1/bootstrap/verify", Handler: (*API).verifyBootstrap, Access: Public, Group: "default", GraphQL: "Mutation.verifyBootstrap",
		Note: "5 wrong passcodes end the session (the resolver counts them)"},
	{Method: "POST", Path: "/v1/bootstrap/store", Handler: (*API).completeBootstrap, Access: Public, Group: "default", GraphQL: "Mutation.completeBootstrap"},

	{Method: "POST", Path: "/v1/licenses/activate", Handler: (*API).activateLicense, Access: Public, Group: "licenses", GraphQL: "Mutation.activateLicense",
		AnyOrigin: true, Note: "per client IP; the resolver adds 20 a minute per license key, and the headers report the binding one"},
	{Method: "POST", Path: "/v1/licenses/validate", Handler: (*API).validateLicense, Access: Public, Group: "licenses", GraphQL: "Mutation.validateLicense",
		AnyOrigin: true, Note: "per client IP; the resolver adds 20 a minute per license key, and the headers report the binding one"},
	{Method: "POST", Path: "/v1/licenses/deactivate", Handler: (*API).deactivateLicense, Access: Public, Group: "licenses", GraphQL: "Mutation.deactivateLicense",
		AnyOrigin: true, Note: "per client IP; the resolver adds 20 a minute per license key, and the headers report the binding one"},

	{Method: "POST", Path: "/v1/processor/webhook", Handler: (*API).processorWebhook, Access: Signed,
		Note: "processor to service: verified by signature, never limited; no GraphQL"},
	{Method: "POST", Path: "/v1/processor/webhook/accounts/{account_id}", Handler: (*API).testProcessorWebhook, Access: Signed,
		Note: "a seller's test account to service (test mode): verified by its endpoint's signature, never limited; no GraphQL"},

	{Method: "POST", Path: "/v1/api-keys/self-revoke", Handler: (*API).selfRevoke, GraphQL: "Mutation.selfRevokeApiKey",
		Note: "unlimited: a leaked key can always be revoked"},
	{Method: "GET", Path: "/v1/api-keys", Handler: (*API).listAPIKeys, Group: "default", GraphQL: "Account.apiKeys"},
	{Method: "POST", Path: "/v1/api-keys", Handler: (*API).createAPIKey, Group: "default", GraphQL: "Mutation.createApiKey"},
	{Method: "DELETE", Path: "/v1/api-keys/{id}", Handler: (*API).deleteAPIKey, Group: "default", GraphQL: "Mutation.deleteApiKey"},

	{Method: "GET", Path: "/v1/account", Handler: (*API).getAccount, Group: "default", GraphQL: "Query.viewer"},
	{Method: "PUT", Path: "/v1/account", Handler: (*API).updateAccount, Group: "account_update", GraphQL: "Mutation.updateAccount"},
	{Method: "DELETE", Path: "/v1/account", Handler: (*API).deleteAccount, Group: "default", GraphQL: "Mutation.deleteAccount"},
	{Method: "DELETE", Path: "/v1/account/processor", Handler: (*API).disconnectProcessor, Group: "default", GraphQL: "Mutation.disconnectProcessor"},
	{Method: "POST", Path: "/v1/account/plan", Handler: (*API).changePlan, Group: "default", GraphQL: "Mutation.changePlan"},
	{Method: "POST", Path: "/v1/account/processor/connect", Handler: (*API).connectProcessor, Group: "processor_connect", GraphQL: "Mutation.connectProcessor"},
	{Method: "GET", Path: "/v1/store", Handler: (*API).getStore, Group: "default", GraphQL: "Query.store"},
	{Method: "PUT", Path: "/v1/store", Handler: (*API).updateStore, Group: "default", GraphQL: "Mutation.updateStore"},
	{Method: "GET", Path: "/v1/customers", Handler: (*API).listCustomers, Group: "default", GraphQL: "Account.customers"},
	{Method: "GET", Path: "/v1/customers/export", Handler: (*API).exportCustomers, Group: "exports", Session: true, Streamed: true,
		Note: "REST only: a CSV download (CONTRACT §23), streamed; the console links to it with its session cookie"},
	{Method: "GET", Path: "/v1/customers/{id}", Handler: (*API).getCustomer, Group: "default", GraphQL: "Query.customer"},
	{Method: "POST", Path: "/v1/customers/{id}/portal-link", Handler: (*API).createCustomerPortalLink, Group: "default", GraphQL: "Mutation.createCustomerPortalLink",
		Note: "the customers' group (default, 120 / min per key): a link is cheap to make and useless to anyone but the customer's inbox"},

	{Method: "POST", Path: "/v1/files", Handler: (*API).uploadFile, Group: "files", GraphQL: "Mutation.uploadFile"},
	{Method: "POST", Path: "/v1/orders/{id}/redeliver", Handler: (*API).redeliverOrder, GraphQL: "Mutation.redeliverOrder",
		Note: "no route group: the resolver allows 10 / hour per order and 100 / hour per key; the response carries the headers of the binding one"},
	{Method: "GET", Path: "/v1/events", Handler: (*API).listEvents, Group: "events", GraphQL: "Account.events"},

	{Method: "GET", Path: "/v1/webhooks", Handler: (*API).listWebhooks, Group: "webhooks", GraphQL: "Account.webhooks"},
	{Method: "POST", Path: "/v1/webhooks", Handler: (*API).createWebhook, Group: "webhooks", GraphQL: "Mutation.createWebhook"},
	{Method: "GET", Path: "/v1/webhooks/{id}", Handler: (*API).getWebhook, Group: "webhooks", GraphQL: "Query.webhook"},
	{Method: "PUT", Path: "/v1/webhooks/{id}", Handler: (*API).updateWebhook, Group: "webhooks", GraphQL: "Mutation.updateWebhook"},
	{Method: "DELETE", Path: "/v1/webhooks/{id}", Handler: (*API).deleteWebhook, Group: "webhooks", GraphQL: "Mutation.deleteWebhook"},
	{Method: "GET", Path: "/v1/webhooks/{id}/events", Handler: (*API).listWebhookEvents, Group: "webhooks", GraphQL: "WebhookEndpoint.deliveries"},
	{Method: "POST", Path: "/v1/webhooks/{id}/events/{event_id}/retry", Handler: (*API).retryWebhookEvent, Group: "webhooks", GraphQL: "Mutation.retryWebhookEvent"},
	{Method: "POST", Path: "/v1/webhooks/{id}/test", Handler: (*API).testWebhook, Group: "webhooks", GraphQL: "Mutation.testWebhook"},

	{Method: "GET", Path: "/v1/agent-connections", Handler: (*API).listAgentConnections, Group: "agent_connections", GraphQL: "Account.agentConnections"},
	{Method: "POST", Path: "/v1/agent-connections", Handler: (*API).createAgentConnection, Group: "agent_connections", GraphQL: "Mutation.createAgentConnection"},
	{Method: "GET", Path: "/v1/agent-connections/{id}", Handler: (*API).getAgentConnection, Group: "agent_connections", GraphQL: "Query.agentConnection"},
	{Method: "PATCH", Path: "/v1/agent-connections/{id}", Handler: (*API).updateAgentConnection, Group: "agent_connections", GraphQL: "Mutation.updateAgentConnection"},
	{Method: "DELETE", Path: "/v1/agent-connections/{id}", Handler: (*API).deleteAgentConnection, Group: "agent_connections", GraphQL: "Mutation.deleteAgentConnection"},

	{Method: "GET", Path: "/v1/discounts", Handler: (*API).listDiscounts, Group: "discounts", GraphQL: "Account.discounts"},
	{Method: "POST", Path: "/v1/discounts", Handler: (*API).createDiscount, Group: "discounts", GraphQL: "Mutation.createDiscount"},
	{Method: "GET", Path: "/v1/discounts/{id}", Handler: (*API).getDiscount, Group: "discounts", GraphQL: "Query.discount"},
	{Method: "PUT", Path: "/v1/discounts/{id}", Handler: (*API).updateDiscount, Group: "discounts", GraphQL: "Mutation.updateDiscount"},
	{Method: "DELETE", Path: "/v1/discounts/{id}", Handler: (*API).deleteDiscount, Group: "discounts", GraphQL: "Mutation.deleteDiscount"},

	{Method: "GET", Path: "/v1/license-keys", Handler: (*API).listLicenseKeys, Group: "license_keys", GraphQL: "Account.licenseKeys"},
	{Method: "GET", Path: "/v1/license-keys/{id}", Handler: (*API).getLicenseKey, Group: "license_keys", GraphQL: "Query.licenseKey"},
	{Method: "PUT", Path: "/v1/license-keys/{id}", Handler: (*API).updateLicenseKey, Group: "license_keys", GraphQL: "Mutation.updateLicenseKey"},
	{Method: "DELETE", Path: "/v1/license-keys/{id}/activations/{activation_id}", Handler: (*API).deleteLicenseActivation, Group: "license_keys",
		GraphQL: "Mutation.deleteLicenseActivation"},

	{Method: "GET", Path: "/v1/analytics", Handler: (*API).getAnalytics, Group: "analytics", GraphQL: "Account.analytics"},

	{Method: "GET", Path: "/v1/memberships", Handler: (*API).listMemberships, Group: "memberships", GraphQL: "Account.memberships"},
	{Method: "GET", Path: "/v1/memberships/{id}", Handler: (*API).getMembership, Group: "memberships", GraphQL: "Query.membership"},
	{Method: "POST", Path: "/v1/memberships/{id}/cancel", Handler: (*API).cancelMembership, Group: "memberships", GraphQL: "Mutation.cancelMembership"},
	{Method: "POST", Path: "/v1/memberships/{id}/resume", Handler: (*API).resumeMembership, Group: "memberships", GraphQL: "Mutation.resumeMembership"},

	{Method: "GET", Path: "/v1/orders", Handler: (*API).listOrders, Group: "orders", GraphQL: "Account.orders"},
	{Method: "GET", Path: "/v1/orders/export", Handler: (*API).exportOrders, Group: "exports", Session: true, Streamed: true,
		Note: "REST only: a CSV download (CONTRACT §23), streamed; the console links to it with its session cookie"},
	{Method: "GET", Path: "/v1/orders/{id}", Handler: (*API).getOrder, Group: "orders", GraphQL: "Query.order"},
	{Method: "POST", Path: "/v1/orders/{id}/fulfill", Handler: (*API).fulfillOrder, Group: "orders", GraphQL: "Mutation.fulfillOrder"},
	{Method: "POST", Path: "/v1/orders/{id}/refund", Handler: (*API).refundOrder, Group: "orders", GraphQL: "Mutation.refundOrder"},
	{Method: "POST", Path: "/v1/orders/{id}/access/reset", Handler: (*API).resetOrderAccess, Group: "orders", GraphQL: "Mutation.resetOrderAccess"},

	{Method: "POST", Path: "/v1/checkouts", Handler: (*API).createCheckout, Group: "default", GraphQL: "Mutation.createCheckout",
		Note: "the resolver adds its limit on free orders: 5 an hour per email and listing"},

	{Method: "GET", Path: "/v1/listings", Handler: (*API).listListings, Group: "listings", GraphQL: "Account.listings"},
	{Method: "POST", Path: "/v1/listings", Handler: (*API).createListing, Group: "listings", GraphQL: "Mutation.createListing"},
	{Method: "GET", Path: "/v1/listings/{id}", Handler: (*API).getListing, Group: "listings", GraphQL: "Query.listing"},
	{Method: "GET", Path: "/v1/listings/{id}/reviews", Handler: (*API).listReviews, Group: "listings", GraphQL: "Listing.allReviews"},
	{Method: "PUT", Path: "/v1/listings/{id}", Handler: (*API).updateListing, Group: "listings", GraphQL: "Mutation.updateListing"},
	{Method: "DELETE", Path: "/v1/listings/{id}", Handler: (*API).deleteListing, Group: "listings", GraphQL: "Mutation.deleteListing"},
	{Method: "POST", Path: "/v1/listings/{id}/publish", Handler: (*API).publishListing, Group: "listings", GraphQL: "Mutation.publishListing"},
	{Method: "PUT", Path: "/v1/listings/{id}/deliverables", Handler: (*API).setDeliverables, Group: "listings", GraphQL: "Mutation.setDeliverables"},
	{Method: "POST", Path: "/v1/listings/{id}/deliverables", Handler: (*API).addDeliverable, Group: "listings", GraphQL: "Mutation.addDeliverable"},
	{Method: "DELETE", Path: "/v1/listings/{id}/deliverables", Handler: (*API).removeDeliverables, Group: "listings", GraphQL: "Mutation.removeAllDeliverables"},
	{Method: "DELETE", Path: "/v1/listings/{id}/deliverables/{deliverable_id}", Handler: (*API).removeDeliverable, Group: "listings", GraphQL: "Mutation.removeDeliverable"},
}

// PathIDPrefixes maps each {param} of a route path to the prefix its ids
// carry (/v1/orders/{id}: id → ord), as the input boundary checks them: a
// client (a test) builds well-formed ids from it.
func PathIDPrefixes(path string) map[string]string { return pathIDs(path) }

// Field is a GraphQL field without a REST route, and what it is charged.
type Field struct {
	// GraphQL names the field as Type.field.
	GraphQL string
	// Group is the rate-limit group charged per occurrence; "" charges
	// none, and Note says why.
	Group string
	// GroupOf, when set, picks the group from the field's arguments
	// (Group is then what docs show and the fallback).
	GroupOf func(args map[string]any) string
	Note    string
}

// GraphQLOnly lists the GraphQL fields that have no REST route.
var GraphQLOnly = []Field{
	{GraphQL: "Query.node", Group: "default", GroupOf: nodeGroup,
		Note: "charged to the group of the id's prefix: lst_/del_/rev_ listings, ord_ orders, wh_ webhooks, evt_ events, dsc_ discounts, lic_ license_keys, mem_ memberships, acn_ agent_connections, any other default"},
	{GraphQL: "Query.nodes", Group: "default", Note: "once per field, whatever the number of ids"},
	{GraphQL: "Subscription.events", Note: "not charged per field: the subscription has its own connection limit"},
	{GraphQL: "Mutation.signIn", Group: "default", Note: "the console's sign-in (sets the session cookie); per client IP"},
	{GraphQL: "Mutation.signOut", Group: "default", Note: "the console's sign-out (clears the session cookie)"},
	{GraphQL: "AgentConnection.deliveries", Group: "agent_connections",
		Note: "an agent connection's webhook delivery log (CONTRACT §25 gives the connection no REST route for it): GraphQL, the console and MCP"},
	{GraphQL: "Account.requestLog", Group: "default",
		Note: "the seller's request log (issue 29; no section of CONTRACT gives it a REST route): GraphQL, the console and MCP's viewer tool"},
}

// nodeGroup is the group of the resource an id names, by its prefix.
func nodeGroup(args map[string]any) string {
	id, _ := args["id"].(string)
	prefix, _, _ := strings.Cut(id, "_")
	switch prefix {
	case "lst", "del", "rev":
		return "listings"
	case "ord":
		return "orders"
	case "wh":
		return "webhooks"
	case "evt":
		return "events"
	case "dsc":
		return "discounts"
	case "lic":
		return "license_keys"
	case "mem":
		return "memberships"
	case "acn":
		return "agent_connections"
	}
	return "default"
}

// Routes registers every route of the table on r. A route's middleware
// runs in this order: the CORS headers and the limit report (AnyOrigin
// routes), Authenticate (routes that need a key), RateLimit (its
// group; it also reads the key's revocation markers), ConfirmKey (routes
// that need a key: the markers, when no charge read them), Idempotent (every
// POST but the processor's); then the input boundary checks the path ids and
// the query (checkRequest) before the handler.
func (a *API) Routes(r chi.Router) {
	for _, rt := range Routes {
		var mw []func(http.Handler) http.Handler
		if rt.AnyOrigin {
			mw = append(mw, anyOrigin, collectLimits)
			r.Options(rt.Path, preflight)
		}
		switch {
		case rt.Access == Key && rt.Session && a.Session != nil:
			// A key, or else the console's cookie; one of them.
			mw = append(mw, a.authenticate(false, true), a.Session, requireCaller(a.Problems))
		case rt.Access == Key:
			// The key's revocation markers are read in the rate limit's
			// Redis round trip, or by ConfirmKey when no group is charged.
			mw = append(mw, a.authenticate(true, true))
		}
		if rt.Group != "" {
			mw = append(mw, a.rateLimit(rt.Group, !rt.Streamed))
		}
		if rt.Access == Key {
			mw = append(mw, a.ConfirmKey)
		}
		if rt.Method == http.MethodPost && rt.Access != Signed {
			mw = append(mw, a.Idempotent)
		}
		ids := pathIDs(rt.Path)
		r.With(mw...).Method(rt.Method, rt.Path, a.handle(func(w http.ResponseWriter, req *http.Request) error {
			if err := checkRequest(req, ids); err != nil {
				return err
			}
			return rt.Handler(a, w, req)
		}))
	}
}
