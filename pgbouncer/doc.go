// Package pgbouncer holds the tests that run the service behind PgBouncer
// in transaction mode (DATABASE_URL through the pooler, DATABASE_DIRECT_URL
// to PostgreSQL): testkit.PgBouncer starts the pooler.
package pgbouncer
