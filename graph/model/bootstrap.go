package model

import "time"

// BootstrapInput is step 1 of bootstrap: the email to send a passcode to.
type BootstrapInput struct {
	Email string `json:"email"`
}

// BootstrapVerifyInput is step 2: the session and the emailed passcode.
type BootstrapVerifyInput struct {
	SessionID string `json:"session_id"`
	Code      string `json:"code"`
}

// BootstrapStoreInput is step 3: the store to create on a verified session.
type BootstrapStoreInput struct {
	SessionID   string  `json:"session_id"`
	DisplayName string  `json:"display_name"`
	Slug        *string `json:"slug"`
}

// BootstrapSession is the state of a bootstrap session.
type BootstrapSession struct {
	Object         string          `json:"object"`
	SessionID      string          `json:"session_id"`
	Email          string          `json:"email"`
	Status         BootstrapStatus `json:"status"`
	ExpiresAt      time.Time       `json:"expires_at"`
	AccountID      *string         `json:"account_id,omitempty"`
	AccountCreated *bool           `json:"account_created,omitempty"`
}

// BootstrappedStore is step 3's result: the store and a new API key, shown once.
type BootstrappedStore struct {
	Store
	APIKey string `json:"api_key"`
}
