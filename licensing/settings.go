package licensing

import (
	"time"

	"commerce/problem"
)

// The bounds of a listing's license settings (CONTRACT §20).
const (
	MaxActivationLimit  = 10000
	MaxExpiresAfterDays = 3650
)

// Settings are a listing's license: how many devices a key activates (nil:
// unlimited), how many days a key lives after it is issued (nil: forever),
// and the prefix of its keys ("" for none).
type Settings struct {
	ActivationLimit  *int
	ExpiresAfterDays *int
	KeyPrefix        string
}

// Check adds to f, under license.<member>, every setting that breaks a
// rule: activation_limit 1..10000 or null, expires_after_days 1..3650 or
// null, key_prefix ^[A-Z0-9]{0,12}$.
func (s Settings) Check(f *problem.Fields) {
	if v := s.ActivationLimit; v != nil && (*v < 1 || *v > MaxActivationLimit) {
		f.Add("license.activation_limit", "activation_limit must be 1 to 10,000 devices per key (or null for any number).")
	}
	if v := s.ExpiresAfterDays; v != nil && (*v < 1 || *v > MaxExpiresAfterDays) {
		f.Add("license.expires_after_days", "expires_after_days must be 1 to 3,650 days (or null for keys that never expire).")
	}
	if !ValidPrefix(s.KeyPrefix) {
		f.Add("license.key_prefix", "key_prefix must be at most 12 upper-case letters A-Z and digits 0-9 (or empty for none).")
	}
}

// KeyExpiry is when a key issued at issued expires: ExpiresAfterDays × 24
// hours later, or nil when keys do not expire.
func (s Settings) KeyExpiry(issued time.Time) *time.Time {
	if s.ExpiresAfterDays == nil {
		return nil
	}
	t := issued.Add(time.Duration(*s.ExpiresAfterDays) * 24 * time.Hour)
	return &t
}
