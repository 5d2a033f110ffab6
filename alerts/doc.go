// Package alerts holds the timing rules of the seller alerts for failing
// webhook endpoints (CONTRACT §22), with no database and no request:
//
//   - Warn: an endpoint with no 2xx for the configured wait
//     (WEBHOOK_ALERT_AFTER, default an hour) and at least MinFailures failed
//     attempts in that time is due a warning, at most once per RepeatAfter
//     (24 hours) while it keeps failing;
//   - DisableAt: when the endpoint will be disabled if it keeps failing,
//     from the dispatcher's rule (DisableAfter permanent failures in a row,
//     a delivery failing permanently when its retries are spent) and the
//     deliveries still pending;
//   - RetrySpan: how long one delivery is retried.
//
// The state these rules read is kept on the endpoint by the dispatcher's
// outcome statement and acted on by resolvers/webhook_alerts.go.
package alerts
