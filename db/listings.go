package db

import (
	"time"

	"github.com/uptrace/bun"
)

// File is a row of files: an upload, usable once until it expires.
type File struct {
	bun.BaseModel `bun:"table:files"`

	Token       string     `bun:"token,pk"`
	AccountID   string     `bun:"account_id"`
	Purpose     string     `bun:"purpose"`
	Filename    string     `bun:"filename"`
	Size        int64      `bun:"size"`
	ContentType string     `bun:"content_type"`
	StorageKey  string     `bun:"storage_key"`
	CreatedAt   time.Time  `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	ExpiresAt   time.Time  `bun:"expires_at"`
	UsedAt      *time.Time `bun:"used_at"`
}

// CheckoutField is one custom buyer field of a listing's checkout.
type CheckoutField struct {
	Key      string   `json:"key"`
	Label    string   `json:"label"`
	Kind     string   `json:"kind"`
	Required bool     `json:"required"`
	Options  []string `json:"options,omitempty"`
}

// Listing is a row of listings.
type Listing struct {
	bun.BaseModel `bun:"table:listings"`

	ID          string  `bun:"id,pk"`
	AccountID   string  `bun:"account_id"`
	Title       string  `bun:"title"`
	Description *string `bun:"description"`
	Price       int64   `bun:"price"`
	// Pricing is pricing.Fixed or pricing.PayWhatYouWant; for pay what you
	// want, Price is the minimum and SuggestedPrice (optional) and
	// MaximumPrice bound the buyer's amount (both nil on a fixed listing).
	Pricing           string            `bun:"pricing"`
	SuggestedPrice    *int64            `bun:"suggested_price"`
	MaximumPrice      *int64            `bun:"maximum_price"`
	Slug              string            `bun:"slug"`
	Status            string            `bun:"status"`
	CoverKey          *string           `bun:"cover_key"`
	CoverBlur         string            `bun:"cover_blur"`
	ExternalDelivery  string            `bun:"external_delivery"`
	CheckoutSchema    []CheckoutField   `bun:"checkout_schema,type:jsonb"`
	UTMSource         *string           `bun:"utm_source"`
	UTMMedium         *string           `bun:"utm_medium"`
	UTMCampaign       *string           `bun:"utm_campaign"`
	Metadata          map[string]string `bun:"metadata,type:jsonb"`
	DeliverablesCount int               `bun:"deliverables_count"`
	// The license (CONTRACT §20): LicenseEnabled false is `license: null`
	// (the other three are then nil, nil and ""); a licensed listing is
	// managed even without deliverables.
	LicenseEnabled          bool   `bun:"license_enabled"`
	LicenseActivationLimit  *int   `bun:"license_activation_limit"`
	LicenseExpiresAfterDays *int   `bun:"license_expires_after_days"`
	LicenseKeyPrefix        string `bun:"license_key_prefix"`
	// The access limits (CONTRACT §21): both nil is `access: null`.
	AccessDownloadLimit *int `bun:"access_download_limit"`
	AccessDays          *int `bun:"access_days"`
	// The billing (CONTRACT §26): BillingOneTime, or BillingMembership
	// with its BillingInterval ("month" or "year"; nil on a one-time
	// listing) and TrialDays (0..90; 0 on a one-time listing).
	Billing         string     `bun:"billing,nullzero,notnull,default:'one_time'"`
	BillingInterval *string    `bun:"billing_interval"`
	TrialDays       int        `bun:"trial_days"`
	CreatedAt       time.Time  `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	UpdatedAt       time.Time  `bun:"updated_at,nullzero,notnull,default:current_timestamp"`
	PublishedAt     *time.Time `bun:"published_at"`
	DeletedAt       *time.Time `bun:"deleted_at"`

	// Seller is the listing's account, loaded only when a query asks for
	// it (Relation("Seller"): one statement with the listing).
	Seller *Account `bun:"rel:belongs-to,join:account_id=id"`
}

// Listing billings (CONTRACT §26).
const (
	BillingOneTime    = "one_time"
	BillingMembership = "membership"
)

// Listing states.
const (
	ListingDraft     = "draft"
	ListingPublished = "published"
	ListingPaused    = "paused"
)

// Deliverable is a row of deliverables.
type Deliverable struct {
	bun.BaseModel `bun:"table:deliverables"`

	ID              string    `bun:"id,pk"`
	AccountID       string    `bun:"account_id"`
	ListingID       string    `bun:"listing_id"`
	Type            string    `bun:"type"`
	Value           *string   `bun:"value"`
	FileKey         *string   `bun:"file_key"`
	FileName        *string   `bun:"file_name"`
	FileSize        *int64    `bun:"file_size"`
	FileContentType *string   `bun:"file_content_type"`
	CreatedAt       time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`
}
