// Package ratelimit is an exact rolling-window rate limiter on Redis: at most
// N requests in any window of the rule's length (a sliding-window log, not a
// token bucket), shared by every process of the service. Groups names the
// limits routes join by name. Acquire bounds concurrency instead: at most N
// live holders (such as event subscriptions) of a subject at once, each
// keeping its Slot with a heartbeat. MarkRevoked, Revoked and CheckKey keep
// the revocation markers that make a revoked API key fail on every process
// at once (revoke.go).
package ratelimit
