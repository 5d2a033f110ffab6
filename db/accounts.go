package db

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/uptrace/bun"
)

// Account is a row of accounts.
type Account struct {
	bun.BaseModel `bun:"table:accounts"`

	ID            string  `bun:"id,pk"`
	Email         string  `bun:"email"`
	Plan          string  `bun:"plan"`
	BillingStatus string  `bun:"billing_status"`
	DisplayName   *string `bun:"display_name"`
	NotifyOrders  bool    `bun:"notify_orders"`
	// NotifyWebhooks: the seller gets the alerts of failing webhook
	// endpoints (CONTRACT §22).
	NotifyWebhooks bool       `bun:"notify_webhooks"`
	CreatedAt      time.Time  `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	UpdatedAt      time.Time  `bun:"updated_at,nullzero,notnull,default:current_timestamp"`
	DeletedAt      *time.Time `bun:"deleted_at"`

	Bio                *string `bun:"bio"`
	AvatarKey          *string `bun:"avatar_key"`
	Slug               *string `bun:"slug"`
	Currency           *string `bun:"currency"`
	GAMeasurementID    *string `bun:"ga_measurement_id"`
	ProcessorAccountID *string `bun:"processor_account_id"`
	ProcessorStatus    string  `bun:"processor_status,nullzero,notnull,default:'not_connected'"`
	ChargesEnabled     bool    `bun:"charges_enabled"`
	PayoutsEnabled     bool    `bun:"payouts_enabled"`
	DetailsSubmitted   bool    `bun:"details_submitted"`
	OnboardingToken    *string `bun:"onboarding_token"`

	// The sales totals are in account_stats (kept by the order transitions).
	ListingsCount int `bun:"listings_count"`
	// ProcessorTestKey is the sealed test key (nil: live mode).
	ProcessorTestKey []byte `bun:"processor_test_key"`
	// ProcessorTestEndpointID and ProcessorTestEndpointSecret (sealed) are
	// the webhook endpoint registered on the seller's test account.
	ProcessorTestEndpointID     *string `bun:"processor_test_endpoint_id"`
	ProcessorTestEndpointSecret []byte  `bun:"processor_test_endpoint_secret"`
}

// Processor connection states (accounts.processor_status).
const (
	ProcessorNotConnected = "not_connected"
	ProcessorOnboarding   = "onboarding"
	ProcessorConnected    = "connected"
	ProcessorDisconnected = "disconnected"
)

// WebhookEndpoint is a row of webhook_endpoints.
type WebhookEndpoint struct {
	bun.BaseModel `bun:"table:webhook_endpoints"`

	ID                  string     `bun:"id,pk"`
	AccountID           string     `bun:"account_id"`
	URL                 string     `bun:"url"`
	Name                *string    `bun:"name"`
	Events              []string   `bun:"events,array"`
	Status              string     `bun:"status"`
	DisabledReason      *string    `bun:"disabled_reason"`
	ConsecutiveFailures int        `bun:"consecutive_failures"`
	SecretCiphertext    []byte     `bun:"secret_ciphertext"`
	CreatedAt           time.Time  `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	UpdatedAt           time.Time  `bun:"updated_at,nullzero,notnull,default:current_timestamp"`
	DeletedAt           *time.Time `bun:"deleted_at"`
	// AgentConnectionID: the endpoint belongs to an agent connection
	// (CONTRACT §25), not to the seller's own list.
	AgentConnectionID *string `bun:"agent_connection_id"`
}

// WebhookDelivery is a row of webhook_deliveries: one event to one endpoint.
type WebhookDelivery struct {
	bun.BaseModel `bun:"table:webhook_deliveries"`

	Seq            int64      `bun:"seq,scanonly"`
	EndpointID     string     `bun:"endpoint_id,pk"`
	EventID        string     `bun:"event_id,pk"`
	AccountID      string     `bun:"account_id"`
	Type           string     `bun:"type"`
	Status         string     `bun:"status"`
	Attempts       int        `bun:"attempts"`
	Generation     int        `bun:"generation"`
	LastStatusCode *int       `bun:"last_status_code"`
	LastError      *string    `bun:"last_error"`
	NextAttemptAt  *time.Time `bun:"next_attempt_at"`
	DeliveredAt    *time.Time `bun:"delivered_at"`
	FailedAt       *time.Time `bun:"failed_at"`
	CreatedAt      time.Time  `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	// ClaimedUntil: a dispatcher is posting the record until then.
	ClaimedUntil *time.Time `bun:"claimed_until"`
	// Manual: a retry the seller asked for, delivered whatever the
	// endpoint's status.
	Manual bool `bun:"manual"`
}

// BootstrapSession is a row of bootstrap_sessions.
type BootstrapSession struct {
	bun.BaseModel `bun:"table:bootstrap_sessions"`

	ID                string     `bun:"id,pk"`
	Email             string     `bun:"email"`
	ClientIP          string     `bun:"client_ip"`
	PasscodeHash      []byte     `bun:"passcode_hash"`
	PasscodeExpiresAt time.Time  `bun:"passcode_expires_at"`
	ExpiresAt         time.Time  `bun:"expires_at"`
	Status            string     `bun:"status"`
	FailedAttempts    int        `bun:"failed_attempts"`
	AccountID         *string    `bun:"account_id"`
	AccountCreated    bool       `bun:"account_created"`
	CreatedAt         time.Time  `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	VerifiedAt        *time.Time `bun:"verified_at"`
	CompletedAt       *time.Time `bun:"completed_at"`
}

// APIKey is a row of api_keys. Only the SHA-256 of the secret is stored.
type APIKey struct {
	bun.BaseModel `bun:"table:api_keys"`

	ID         string     `bun:"id,pk"`
	AccountID  string     `bun:"account_id"`
	Name       string     `bun:"name"`
	Scope      string     `bun:"scope"`
	Prefix     string     `bun:"prefix"`
	KeyHash    []byte     `bun:"key_hash"`
	CreatedAt  time.Time  `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	LastUsedAt *time.Time `bun:"last_used_at"`
	ExpiresAt  *time.Time `bun:"expires_at"`
	RevokedAt  *time.Time `bun:"revoked_at"`
}

// ErrNotFound is returned by lookups that find no row.
var ErrNotFound = errors.New("db: not found")

// IsUniqueViolation reports whether err is a unique-constraint violation,
// optionally of the named constraint (index).
func IsUniqueViolation(err error, constraint string) bool {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "23505" {
		return false
	}
	return constraint == "" || pe.ConstraintName == constraint
}

// AccountByID loads a live (not deleted) account.
func AccountByID(ctx context.Context, idb bun.IDB, id string) (*Account, error) {
	a := new(Account)
	err := idb.NewSelect().Model(a).Where("id = ?", id).Where("deleted_at IS NULL").Scan(ctx)
	return a, NotFound(err)
}

// AccountByEmail loads the live account of an email address (any case).
func AccountByEmail(ctx context.Context, idb bun.IDB, email string) (*Account, error) {
	a := new(Account)
	err := idb.NewSelect().Model(a).Where("lower(email) = lower(?)", email).Where("deleted_at IS NULL").Scan(ctx)
	return a, NotFound(err)
}

// NotFound maps "no rows" to ErrNotFound.
func NotFound(err error) error {
	if err != nil && errors.Is(err, errNoRows) {
		return ErrNotFound
	}
	return err
}
