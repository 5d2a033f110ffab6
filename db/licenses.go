package db

import (
	"time"

	"github.com/uptrace/bun"
)

// LicenseKey is a row of license_keys: the key an order of a licensed
// listing got when it was fulfilled (CONTRACT §20).
type LicenseKey struct {
	bun.BaseModel `bun:"table:license_keys"`

	ID         string  `bun:"id,pk"`
	AccountID  string  `bun:"account_id"`
	ListingID  string  `bun:"listing_id"`
	OrderID    string  `bun:"order_id"`
	CustomerID *string `bun:"customer_id"`
	// BuyerEmail is lowercased.
	BuyerEmail string `bun:"buyer_email"`
	// KeyHash is licensing.Hash of the normalized key; KeySealed the key
	// sealed with the service's secrets box.
	KeyHash   []byte `bun:"key_hash"`
	KeySealed []byte `bun:"key_sealed"`
	// Status is LicenseActive, LicenseDisabled or LicenseRevoked; expired
	// is computed from ExpiresAt.
	Status           string     `bun:"status"`
	ActivationLimit  *int       `bun:"activation_limit"`
	ActivationsCount int        `bun:"activations_count"`
	ExpiresAt        *time.Time `bun:"expires_at"`
	LastValidatedAt  *time.Time `bun:"last_validated_at"`
	CreatedAt        time.Time  `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	UpdatedAt        time.Time  `bun:"updated_at,nullzero,notnull,default:current_timestamp"`
}

// Stored license key states (license_keys.status).
const (
	LicenseActive   = "active"
	LicenseDisabled = "disabled"
	LicenseRevoked  = "revoked"
)

// LicenseActivation is a row of license_activations: one device (one
// fingerprint) a key is activated on now.
type LicenseActivation struct {
	bun.BaseModel `bun:"table:license_activations"`

	ID           string            `bun:"id,pk"`
	AccountID    string            `bun:"account_id"`
	LicenseKeyID string            `bun:"license_key_id"`
	Fingerprint  string            `bun:"fingerprint"`
	Label        *string           `bun:"label"`
	Metadata     map[string]string `bun:"metadata,type:jsonb"`
	CreatedAt    time.Time         `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	LastSeenAt   time.Time         `bun:"last_seen_at,nullzero,notnull,default:current_timestamp"`
}
