package model

import "time"

// APIKey describes an API key; the secret itself is never shown again.
type APIKey struct {
	Object     string      `json:"object"`
	ID         string      `json:"id"`
	Name       string      `json:"name"`
	Scope      APIKeyScope `json:"scope"`
	Prefix     string      `json:"prefix"`
	CreatedAt  time.Time   `json:"created_at"`
	LastUsedAt *time.Time  `json:"last_used_at"`
	ExpiresAt  *time.Time  `json:"expires_at"`
}

// CreatedAPIKey is a new key with its plaintext secret, shown once.
type CreatedAPIKey struct {
	APIKey
	Key string `json:"key"`
}

// APIKeyList is a page of API keys, newest first.
type APIKeyList struct {
	Object     string    `json:"object"`
	Data       []*APIKey `json:"data"`
	HasMore    bool      `json:"has_more"`
	NextCursor *string   `json:"next_cursor"`
}

// CreateAPIKeyInput is the body of POST /v1/api-keys and the createApiKey input.
type CreateAPIKeyInput struct {
	Name      string       `json:"name"`
	Scope     *APIKeyScope `json:"scope"`
	ExpiresAt *time.Time   `json:"expires_at"`
}

// ListParams are the cursor and page size of a list call.
type ListParams struct {
	Limit  *int    `json:"limit"`
	Cursor *string `json:"cursor"`
}

// APIKeyConnection is a Relay connection of API keys.
type APIKeyConnection struct {
	Edges    []*APIKeyEdge `json:"edges"`
	PageInfo *PageInfo     `json:"page_info"`
}

// APIKeyEdge is one API key of a connection.
type APIKeyEdge struct {
	Cursor string  `json:"cursor"`
	Node   *APIKey `json:"node"`
}
