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

	ID            string     `bun:"id,pk"`
	Email         string     `bun:"email"`
	Plan          string     `bun:"plan"`
	BillingStatus string     `bun:"billing_status"`
	DisplayName   *string    `bun:"display_name"`
	NotifyOrders  bool       `bun:"notify_orders"`
	CreatedAt     time.Time  `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	UpdatedAt     time.Time  `bun:"updated_at,nullzero,notnull,default:current_timestamp"`
	DeletedAt     *time.Time `bun:"deleted_at"`
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
	return a, notFound(err)
}

// AccountByEmail loads the live account of an email address (any case).
func AccountByEmail(ctx context.Context, idb bun.IDB, email string) (*Account, error) {
	a := new(Account)
	err := idb.NewSelect().Model(a).Where("lower(email) = lower(?)", email).Where("deleted_at IS NULL").Scan(ctx)
	return a, notFound(err)
}

func notFound(err error) error {
	if err != nil && errors.Is(err, errNoRows) {
		return ErrNotFound
	}
	return err
}
