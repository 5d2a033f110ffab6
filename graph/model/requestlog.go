package model

import "time"

// APIRequest is one request of the seller's request log.
type APIRequest struct {
	Object        string    `json:"object"`
	APIKeyID      string    `json:"api_key_id"`
	Method        string    `json:"method"`
	Path          string    `json:"path"`
	Operation     *string   `json:"operation"`
	Status        int       `json:"status"`
	CorrelationID string    `json:"correlation_id"`
	CreatedAt     time.Time `json:"created_at"`
	DurationMs    int       `json:"duration_ms"`
}

// APIRequestConnection is a Relay connection of the request log.
type APIRequestConnection struct {
	Edges    []*APIRequestEdge `json:"edges"`
	PageInfo *PageInfo         `json:"page_info"`
}

// APIRequestEdge is one request of a connection.
type APIRequestEdge struct {
	Cursor string      `json:"cursor"`
	Node   *APIRequest `json:"node"`
}
