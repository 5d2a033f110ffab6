package db

import (
	"time"

	"github.com/uptrace/bun"
)

// AgentConnection is a row of agent_connections: a seller's link to one
// agent platform (CONTRACT §25). Its webhook URL and sealed secret are
// those of its webhook endpoint (WebhookEndpoint.AgentConnectionID).
type AgentConnection struct {
	bun.BaseModel `bun:"table:agent_connections"`

	ID         string     `bun:"id,pk"`
	AccountID  string     `bun:"account_id"`
	Name       string     `bun:"name"`
	TokenHash  []byte     `bun:"token_hash"`
	Status     string     `bun:"status"`
	CreatedAt  time.Time  `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	UpdatedAt  time.Time  `bun:"updated_at,nullzero,notnull,default:current_timestamp"`
	LastUsedAt *time.Time `bun:"last_used_at"`
	DeletedAt  *time.Time `bun:"deleted_at"`
}

// Agent connection states (agent_connections.status).
const (
	AgentConnectionActive   = "active"
	AgentConnectionDisabled = "disabled"
)
