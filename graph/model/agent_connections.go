package model

import "time"

// AgentConnection is a seller's link to one agent platform (CONTRACT §25):
// the platform calls the seller's ACP endpoints with the connection's token
// and receives its orders' events at webhook_url. The token and the
// webhook secret are shown once, at creation (CreatedAgentConnection).
type AgentConnection struct {
	Object     string                `json:"object"`
	ID         string                `json:"id"`
	Name       string                `json:"name"`
	WebhookURL string                `json:"webhook_url"`
	Status     AgentConnectionStatus `json:"status"`
	CreatedAt  time.Time             `json:"created_at"`
	LastUsedAt *time.Time            `json:"last_used_at"`
	// WebhookID is the connection's webhook endpoint (wh_…), whose
	// delivery records GraphQL's deliveries field reads; not in the REST
	// JSON, which §25 fixes.
	WebhookID string `json:"-"`
}

// GetID returns the connection id.
func (c *AgentConnection) GetID() string { return c.ID }

// CreatedAgentConnection is a new connection with its bearer token and
// webhook signing secret, both shown once.
type CreatedAgentConnection struct {
	AgentConnection
	Token         string `json:"token"`
	WebhookSecret string `json:"webhook_secret"`
}

// AgentConnectionList is a page of connections, newest first.
type AgentConnectionList struct {
	Object     string             `json:"object"`
	Data       []*AgentConnection `json:"data"`
	HasMore    bool               `json:"has_more"`
	NextCursor *string            `json:"next_cursor"`
}

// CreateAgentConnectionInput is the body of POST /v1/agent-connections and
// the createAgentConnection input.
type CreateAgentConnectionInput struct {
	Name       string `json:"name"`
	WebhookURL string `json:"webhook_url"`
}

// UpdateAgentConnectionInput is the body of PATCH
// /v1/agent-connections/{id}: only the given fields change.
type UpdateAgentConnectionInput struct {
	Name       *string                `json:"name"`
	WebhookURL *string                `json:"webhook_url"`
	Status     *AgentConnectionStatus `json:"status"`
}

// AgentConnectionConnection is a Relay connection of agent connections.
type AgentConnectionConnection struct {
	Edges    []*AgentConnectionEdge `json:"edges"`
	PageInfo *PageInfo              `json:"page_info"`
}

// AgentConnectionEdge is one agent connection of a connection.
type AgentConnectionEdge struct {
	Cursor string           `json:"cursor"`
	Node   *AgentConnection `json:"node"`
}

// AgentConnectionStatus: whether an agent connection's token works.
type AgentConnectionStatus string

// The values of AgentConnectionStatus.
const (
	AgentConnectionStatusActive   AgentConnectionStatus = "active"   // The token works and order events are sent.
	AgentConnectionStatusDisabled AgentConnectionStatus = "disabled" // The token is refused and no event is sent.
)

// Valid reports whether v is one of the values of AgentConnectionStatus.
func (v AgentConnectionStatus) Valid() bool {
	switch v {
	case AgentConnectionStatusActive, AgentConnectionStatusDisabled:
		return true
	}
	return false
}
