package db

import (
	"time"

	"github.com/uptrace/bun"
)

// ConsoleSession is a row of console_sessions: a signed-in developer
// console. Only the SHA-256 of the cookie's token is stored.
type ConsoleSession struct {
	bun.BaseModel `bun:"table:console_sessions"`

	ID                 string     `bun:"id,pk"`
	TokenHash          []byte     `bun:"token_hash"`
	AccountID          string     `bun:"account_id"`
	BootstrapSessionID string     `bun:"bootstrap_session_id"`
	CreatedAt          time.Time  `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	ExpiresAt          time.Time  `bun:"expires_at"`
	RevokedAt          *time.Time `bun:"revoked_at"`
}
