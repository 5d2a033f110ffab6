package model

// ActivateLicenseInput is the body of POST /v1/licenses/activate (CONTRACT
// §20): the key the buyer typed, the device to activate it on, and what
// the app says about that device.
type ActivateLicenseInput struct {
	Key         string         `json:"key"`
	Fingerprint string         `json:"fingerprint"`
	Label       *string        `json:"label"`
	Metadata    map[string]any `json:"metadata"`
	ListingID   *string        `json:"listing_id"`
}

// ValidateLicenseInput is the body of POST /v1/licenses/validate.
type ValidateLicenseInput struct {
	Key         string  `json:"key"`
	Fingerprint *string `json:"fingerprint"`
	ListingID   *string `json:"listing_id"`
}

// DeactivateLicenseInput is the body of POST /v1/licenses/deactivate:
// the key and exactly one of Fingerprint and ActivationID.
type DeactivateLicenseInput struct {
	Key          string  `json:"key"`
	Fingerprint  *string `json:"fingerprint"`
	ActivationID *string `json:"activation_id"`
}
