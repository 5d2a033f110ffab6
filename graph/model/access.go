package model

import "time"

// ListingAccess is a listing's access limits (CONTRACT §21): downloads per
// deliverable (null: any number) and days of access after payment (null:
// forever). A listing with neither has access null.
type ListingAccess struct {
	DownloadLimit *int `json:"download_limit"`
	AccessDays    *int `json:"access_days"`
}

// ListingAccessInput is a listing's access limits in a create or update
// body; an omitted member is null.
type ListingAccessInput struct {
	DownloadLimit *int `json:"download_limit"`
	AccessDays    *int `json:"access_days"`
}

// OrderAccess is an order's access (CONTRACT §21): when it ends (null:
// never, or not paid yet) and each deliverable's downloads.
type OrderAccess struct {
	ExpiresAt *time.Time       `json:"expires_at"`
	Downloads []*DownloadCount `json:"downloads"`
}

// DownloadCount is how often one deliverable of an order was downloaded,
// and its limit (null: any number).
type DownloadCount struct {
	DeliverableID string `json:"deliverable_id"`
	Count         int    `json:"count"`
	Limit         *int   `json:"limit"`
}

// ResetOrderAccessInput is the body of POST /v1/orders/{id}/access/reset.
type ResetOrderAccessInput struct {
	ExtendDays *int `json:"extend_days"`
}
