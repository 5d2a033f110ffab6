// Package ratelimit is an exact rolling-window rate limiter on Redis: at most
// N requests in any window of the rule's length (a sliding-window log, not a
// token bucket), shared by every process of the service. Groups names the
// limits routes join by name.
package ratelimit
