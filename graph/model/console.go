package model

import "time"

// SignInInput is the console's sign-in: a verified bootstrap session.
type SignInInput struct {
	SessionID string `json:"session_id"`
}

// ConsoleSession is a signed-in developer console (the commerce_session
// cookie carries its token, never this model).
type ConsoleSession struct {
	ExpiresAt time.Time `json:"expires_at"`
	Account   *Account  `json:"account"`
}
