package model

import (
	"encoding/json"
	"time"

	"github.com/99designs/gqlgen/graphql"
)

// WebhookEndpoint is a URL that receives the account's order events.
type WebhookEndpoint struct {
	Object              string                 `json:"object"`
	ID                  string                 `json:"id"`
	URL                 string                 `json:"url"`
	Name                *string                `json:"name"`
	Events              []EventType            `json:"events"`
	Status              WebhookStatus          `json:"status"`
	DisabledReason      *WebhookDisabledReason `json:"disabled_reason"`
	ConsecutiveFailures int                    `json:"consecutive_failures"`
	CreatedAt           time.Time              `json:"created_at"`
	UpdatedAt           time.Time              `json:"updated_at"`
}

// CreatedWebhookEndpoint is a new endpoint with its signing secret, shown once.
type CreatedWebhookEndpoint struct {
	WebhookEndpoint
	Secret string `json:"secret"`
}

// WebhookEndpointList is a page of endpoints.
type WebhookEndpointList struct {
	Object     string             `json:"object"`
	Data       []*WebhookEndpoint `json:"data"`
	HasMore    bool               `json:"has_more"`
	NextCursor *string            `json:"next_cursor"`
}

// CreateWebhookInput is the body of POST /v1/webhooks.
type CreateWebhookInput struct {
	URL    string      `json:"url"`
	Name   *string     `json:"name"`
	Events []EventType `json:"events"`
}

// UpdateWebhookInput is the body of PUT /v1/webhooks/{id}: only given fields change.
type UpdateWebhookInput struct {
	URL    *string                    `json:"url"`
	Name   graphql.Omittable[*string] `json:"name"`
	Events []EventType                `json:"events"`
	Status *WebhookStatus             `json:"status"`
}

// WebhookEvent is the delivery record of one event to one endpoint.
type WebhookEvent struct {
	Object         string                `json:"object"`
	ID             string                `json:"id"`
	WebhookID      string                `json:"webhook_id"`
	Type           EventType             `json:"type"`
	Status         WebhookDeliveryStatus `json:"status"`
	Attempts       int                   `json:"attempts"`
	LastStatusCode *int                  `json:"last_status_code"`
	LastError      *string               `json:"last_error"`
	NextAttemptAt  *time.Time            `json:"next_attempt_at"`
	DeliveredAt    *time.Time            `json:"delivered_at"`
	FailedAt       *time.Time            `json:"failed_at"`
	CreatedAt      time.Time             `json:"created_at"`
}

// WebhookEventList is a page of delivery records, newest first.
type WebhookEventList struct {
	Object     string          `json:"object"`
	Data       []*WebhookEvent `json:"data"`
	HasMore    bool            `json:"has_more"`
	NextCursor *string         `json:"next_cursor"`
}

// WebhookTest is the receiver's answer to a test event.
type WebhookTest struct {
	Object     string  `json:"object"`
	StatusCode *int    `json:"status_code"`
	Body       string  `json:"body"`
	DurationMs int     `json:"duration_ms"`
	Error      *string `json:"error"`
}

// Redelivery is the result of replaying an order's events.
type Redelivery struct {
	Object    string `json:"object"`
	OrderID   string `json:"order_id"`
	Events    int    `json:"events"`
	Endpoints int    `json:"endpoints"`
}

// Event is an entry of the event log.
type Event struct {
	ID        string          `json:"id"`
	Object    string          `json:"object"`
	Type      EventType       `json:"type"`
	CreatedAt time.Time       `json:"created_at"`
	ListingID *string         `json:"listing_id"`
	OrderID   *string         `json:"order_id"`
	Data      json.RawMessage `json:"data"`
}

// EventList is a page of the event log, oldest first.
type EventList struct {
	Object     string   `json:"object"`
	Data       []*Event `json:"data"`
	HasMore    bool     `json:"has_more"`
	NextCursor *string  `json:"next_cursor"`
}

// WebhookEventConnection is a Relay connection of delivery records.
type WebhookEventConnection struct {
	Edges    []*WebhookEventEdge `json:"edges"`
	PageInfo *PageInfo           `json:"page_info"`
}

// WebhookEventEdge is one delivery record of a connection.
type WebhookEventEdge struct {
	Cursor string        `json:"cursor"`
	Node   *WebhookEvent `json:"node"`
}

// WebhookEndpointConnection is a Relay connection of endpoints.
type WebhookEndpointConnection struct {
	Edges    []*WebhookEndpointEdge `json:"edges"`
	PageInfo *PageInfo              `json:"page_info"`
}

// WebhookEndpointEdge is one endpoint of a connection.
type WebhookEndpointEdge struct {
	Cursor string           `json:"cursor"`
	Node   *WebhookEndpoint `json:"node"`
}

// EventConnection is a Relay connection of the event log.
type EventConnection struct {
	Edges    []*EventEdge `json:"edges"`
	PageInfo *PageInfo    `json:"page_info"`
}

// EventEdge is one event of a connection.
type EventEdge struct {
	Cursor string `json:"cursor"`
	Node   *Event `json:"node"`
}
