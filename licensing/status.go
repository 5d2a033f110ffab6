package licensing

import "time"

// The statuses of a license key (CONTRACT §20). Active, Disabled and
// Revoked are stored; Expired is computed from the key's expiry.
const (
	StatusActive   = "active"
	StatusDisabled = "disabled"
	StatusRevoked  = "revoked"
	StatusExpired  = "expired"
)

// Status is a key's status at now: a revoked key stays revoked and a
// disabled one disabled whatever its expiry; an active key whose expiresAt
// is not after now is expired.
func Status(stored string, expiresAt *time.Time, now time.Time) string {
	if stored == StatusActive && expiresAt != nil && !now.Before(*expiresAt) {
		return StatusExpired
	}
	return stored
}
