// Package analytics holds the rules of a seller's sales over time (CONTRACT
// §23) that need no database: the range a request asks for (defaults,
// bounds), the UTC buckets it is cut into (days, ISO weeks, months), the
// conversion rate's arithmetic, and the product-page view counter that
// counts one view per client per listing per 30 minutes in memory and
// hands batches to a flush function.
package analytics
