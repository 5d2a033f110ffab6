// Package metrics exposes the state of the service's pools and queues to
// Prometheus (CONTRACT §24): collectors that read pgxpool's and go-redis's
// statistics, and the backlogs of River's jobs, the webhook deliveries and
// the mail outbox, when /metrics is scraped. Nothing here runs on the
// request path; the backlogs are one bounded statement, cached a few
// seconds, however many scrapes arrive.
package metrics
