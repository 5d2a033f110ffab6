package model

import "time"

// PortalLink is a single-use sign-in link to the buyer's library, scoped
// to the seller's store (CONTRACT §21).
type PortalLink struct {
	Object    string    `json:"object"`
	URL       string    `json:"url"`
	ExpiresAt time.Time `json:"expires_at"`
}
