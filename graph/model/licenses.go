package model

import (
	"time"

	"github.com/99designs/gqlgen/graphql"
)

// LicenseSettings are a listing's license terms (CONTRACT §20).
type LicenseSettings struct {
	ActivationLimit  *int   `json:"activation_limit"`
	ExpiresAfterDays *int   `json:"expires_after_days"`
	KeyPrefix        string `json:"key_prefix"`
}

// LicenseSettingsInput is a listing's license in a create or update body:
// an omitted member takes its default (unlimited, never expires, no prefix).
type LicenseSettingsInput struct {
	ActivationLimit  *int    `json:"activation_limit"`
	ExpiresAfterDays *int    `json:"expires_after_days"`
	KeyPrefix        *string `json:"key_prefix"`
}

// LicenseKey is a license key, seller view (CONTRACT §20).
type LicenseKey struct {
	Object           string               `json:"object"`
	ID               string               `json:"id"`
	Key              string               `json:"key"`
	ListingID        string               `json:"listing_id"`
	OrderID          string               `json:"order_id"`
	CustomerID       *string              `json:"customer_id"`
	Status           LicenseKeyStatus     `json:"status"`
	ActivationLimit  *int                 `json:"activation_limit"`
	ActivationsCount int                  `json:"activations_count"`
	ExpiresAt        *time.Time           `json:"expires_at"`
	LastValidatedAt  *time.Time           `json:"last_validated_at"`
	Activations      []*LicenseActivation `json:"activations"`
	CreatedAt        time.Time            `json:"created_at"`
	UpdatedAt        time.Time            `json:"updated_at"`
	// AccountID scopes the key; never encoded.
	AccountID string `json:"-"`
}

// GetID returns the license key id.
func (k *LicenseKey) GetID() string { return k.ID }

// LicenseActivation is one device a license key is active on.
type LicenseActivation struct {
	Object      string         `json:"object"`
	ID          string         `json:"id"`
	Fingerprint string         `json:"fingerprint"`
	Label       *string        `json:"label"`
	Metadata    map[string]any `json:"metadata"`
	CreatedAt   time.Time      `json:"created_at"`
	LastSeenAt  time.Time      `json:"last_seen_at"`
}

// PublicLicenseKey is a license key as the public API shows it: never the
// order, the buyer or other devices.
type PublicLicenseKey struct {
	Object           string           `json:"object"`
	ID               string           `json:"id"`
	Status           LicenseKeyStatus `json:"status"`
	ListingID        string           `json:"listing_id"`
	ActivationLimit  *int             `json:"activation_limit"`
	ActivationsCount int              `json:"activations_count"`
	ExpiresAt        *time.Time       `json:"expires_at"`
}

// LicenseValidation is the public API's answer to an activation or a
// validation. Activation is always encoded (null when none); Token only
// when Valid.
type LicenseValidation struct {
	Object     string                `json:"object"`
	Valid      bool                  `json:"valid"`
	Code       LicenseValidationCode `json:"code"`
	LicenseKey *PublicLicenseKey     `json:"license_key"`
	Activation *LicenseActivation    `json:"activation"`
	Token      *string               `json:"token"`
}

// LicenseKeyList is a page of GET /v1/license-keys, newest first.
type LicenseKeyList struct {
	Object     string        `json:"object"`
	Data       []*LicenseKey `json:"data"`
	HasMore    bool          `json:"has_more"`
	NextCursor *string       `json:"next_cursor"`
}

// LicenseKeyConnection is a Relay connection of license keys.
type LicenseKeyConnection struct {
	Edges    []*LicenseKeyEdge `json:"edges"`
	PageInfo *PageInfo         `json:"page_info"`
}

// LicenseKeyEdge is one license key of a connection.
type LicenseKeyEdge struct {
	Cursor string      `json:"cursor"`
	Node   *LicenseKey `json:"node"`
}

// LicenseKeyFilter narrows a list of license keys.
type LicenseKeyFilter struct {
	// ListingID keeps the keys of this listing.
	ListingID *string
	// OrderID keeps the key of this order.
	OrderID *string
	// Status keeps the keys with this status now.
	Status *LicenseKeyStatus
	// Key keeps the key a buyer typed (normalized).
	Key *string
	// Email keeps the keys of this buyer email, without regard to case.
	Email *string
}

// UpdateLicenseKeyInput is the body of PUT /v1/license-keys/{id}: only
// given fields change; null clears a nullable one.
type UpdateLicenseKeyInput struct {
	Status          *LicenseKeyStatus             `json:"status"`
	ActivationLimit graphql.Omittable[*int]       `json:"activation_limit"`
	ExpiresAt       graphql.Omittable[*time.Time] `json:"expires_at"`
}
