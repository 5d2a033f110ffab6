// Package rest is the /v1 facade: thin handlers that decode a request into
// the input a resolver takes, call it, and encode the model it returns, plus
// the HTTP middleware every route shares (correlation id, recovery, access
// log and metrics, authentication, rate limits, idempotency). No business
// rule lives here.
package rest
