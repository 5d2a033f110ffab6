package model

import (
	"time"

	"github.com/99designs/gqlgen/graphql"
)

// Account is the account of the calling API key (GraphQL `viewer`).
type Account struct {
	Object          string        `json:"object"`
	ID              string        `json:"id"`
	Email           string        `json:"email"`
	DisplayName     *string       `json:"display_name"`
	Bio             *string       `json:"bio"`
	AvatarURL       *string       `json:"avatar_url"`
	Plan            PlanID        `json:"plan"`
	FeeRate         string        `json:"fee_rate"`
	BillingStatus   BillingStatus `json:"billing_status"`
	Currency        *string       `json:"currency"`
	GAMeasurementID *string       `json:"ga_measurement_id"`
	NotifyOrders    bool          `json:"notify_orders"`
	// NotifyWebhooks: the seller is emailed when a webhook endpoint fails
	// (CONTRACT §22).
	NotifyWebhooks bool              `json:"notify_webhooks"`
	Processor      *ProcessorStatus  `json:"processor"`
	Stats          *AccountStats     `json:"stats"`
	Readiness      *AccountReadiness `json:"readiness"`
	CreatedAt      time.Time         `json:"created_at"`
	// Subscription is the paid plan's subscription; nil on the free plan
	// with no history.
	Subscription *BillingSubscription `json:"subscription"`
}

// ProcessorStatus is the account's connection to the payment processor.
type ProcessorStatus struct {
	AccountID      *string                   `json:"account_id"`
	Status         ProcessorConnectionStatus `json:"status"`
	ChargesEnabled bool                      `json:"charges_enabled"`
	PayoutsEnabled bool                      `json:"payouts_enabled"`
	// TestMode: a test key is set; checkouts run in the processor's test mode.
	TestMode bool `json:"test_mode"`
}

// AccountStats are the account's sales figures.
type AccountStats struct {
	TotalRevenue  int64 `json:"total_revenue"`
	TotalOrders   int   `json:"total_orders"`
	TotalListings int   `json:"total_listings"`
}

// AccountReadiness says whether the account can sell, and what to do next.
type AccountReadiness struct {
	Operational bool              `json:"operational"`
	Actions     []*Action         `json:"actions"`
	Next        *ActionCode       `json:"next"`
	Refresh     *ReadinessRefresh `json:"refresh"`
}

// Action is one readiness item.
type Action struct {
	Code     ActionCode     `json:"code"`
	Kind     ActionKind     `json:"kind"`
	Priority ActionPriority `json:"priority"`
	Message  string         `json:"message"`
	Resolve  *ActionResolve `json:"resolve"`
}

// ActionResolve says how to carry an action out: an API call (kind api) or
// a page for a human (kind human, method "redirect").
type ActionResolve struct {
	Method   ResolveMethod  `json:"method"`
	Endpoint *string        `json:"endpoint"`
	URL      *string        `json:"url"`
	Params   map[string]any `json:"params"`
	// Inputs are the values the agent must get from its human, by path
	// into Params (and into the input argument of GraphQL and MCP).
	Inputs []*ActionInput `json:"inputs"`
	// GraphQL is the same call as a complete GraphQL operation (kind api).
	GraphQL *GraphQLCall `json:"graphql"`
	// MCP is the same call as an MCP tool call (kind api).
	MCP *MCPCall `json:"mcp"`
}

// ActionInput is a value of an action's call that the agent must get from
// its human: Name is a path in the notation of problem params
// (deliverables[0].value) into the REST body, GraphQL's variables.input
// and MCP's arguments.input.
type ActionInput struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Example     any    `json:"example"`
}

// GraphQLCall is a complete GraphQL operation and its variables.
type GraphQLCall struct {
	Query     string         `json:"query"`
	Variables map[string]any `json:"variables"`
}

// MCPCall is an MCP tool call: the tool (the snake_case name of a GraphQL
// root field) and its arguments (that field's arguments).
type MCPCall struct {
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments"`
}

// ReadinessRefresh says how to read a readiness object again.
type ReadinessRefresh struct {
	Method   ResolveMethod `json:"method"`
	Endpoint string        `json:"endpoint"`
	GraphQL  *GraphQLCall  `json:"graphql"`
	MCP      *MCPCall      `json:"mcp"`
}

// UpdateAccountInput is the body of PUT /v1/account; only given fields change.
type UpdateAccountInput struct {
	GAMeasurementID graphql.Omittable[*string] `json:"ga_measurement_id"`
	NotifyOrders    *bool                      `json:"notify_orders"`
	// NotifyWebhooks turns the failing webhook endpoint emails on or off.
	NotifyWebhooks *bool                      `json:"notify_webhooks"`
	DisplayName    graphql.Omittable[*string] `json:"display_name"`
	// Bio is the profile's biography (at most 500 characters); null clears it.
	Bio graphql.Omittable[*string] `json:"bio"`
	// Avatar is a file token of purpose avatar; null removes the avatar.
	Avatar graphql.Omittable[*string] `json:"avatar"`
	// ProcessorTestKey is a Stripe test key (sk_test_… or rk_test_…); null clears it.
	ProcessorTestKey graphql.Omittable[*string] `json:"processor_test_key"`
}

// Store is the seller's public face: profile and store page.
type Store struct {
	Object      string            `json:"object"`
	ID          string            `json:"id"`
	DisplayName *string           `json:"display_name"`
	Bio         *string           `json:"bio"`
	AvatarURL   *string           `json:"avatar_url"`
	Slug        *string           `json:"slug"`
	URL         *string           `json:"url"`
	Readiness   *AccountReadiness `json:"readiness"`
}

// UpdateStoreInput is the body of PUT /v1/store; only given fields change.
type UpdateStoreInput struct {
	DisplayName *string                    `json:"display_name"`
	Bio         graphql.Omittable[*string] `json:"bio"`
	Avatar      graphql.Omittable[*string] `json:"avatar"`
	Slug        *string                    `json:"slug"`
}

// ProcessorOnboarding is where to send the seller to connect the processor.
type ProcessorOnboarding struct {
	Object    string    `json:"object"`
	URL       string    `json:"url"`
	ExpiresAt time.Time `json:"expires_at"`
	// Readiness is the account's, after connect.
	Readiness *AccountReadiness `json:"readiness"`
}

// ProcessorDisconnection is the result of disconnecting the processor.
type ProcessorDisconnection struct {
	Object           string  `json:"object"`
	AccountID        *string `json:"account_id"`
	AffectedListings int     `json:"affected_listings"`
}

// Plan is a pricing plan with its platform fee.
type Plan struct {
	Object       string `json:"object"`
	ID           PlanID `json:"id"`
	Name         string `json:"name"`
	FeeRate      string `json:"fee_rate"`
	MonthlyPrice int    `json:"monthly_price"`
	Currency     string `json:"currency"`
}

// PlanList is the list envelope of plans (never more than one page).
type PlanList struct {
	Object     string  `json:"object"`
	Data       []*Plan `json:"data"`
	HasMore    bool    `json:"has_more"`
	NextCursor *string `json:"next_cursor"`
}

// Ping is the service's liveness and version.
type Ping struct {
	Object  string    `json:"object"`
	OK      bool      `json:"ok"`
	Time    time.Time `json:"time"`
	Version string    `json:"version"`
}
