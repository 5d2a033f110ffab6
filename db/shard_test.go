package db_test

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

// rootTable is the tenant itself: its primary key id is the account id, the
// distribution column every tenant table is co-located by (docs/scaling.md).
const rootTable = "accounts"

// tenantTables hold one account's rows: each needs a NOT NULL account_id and
// an index (or primary key, or unique constraint) whose first column is
// account_id (a partial one, such as the live rows' WHERE deleted_at IS NULL,
// counts: it serves the account's queries), so that the table can be distributed by account_id and every
// query of it routed to one shard (docs/scaling.md).
var tenantTables = []string{
	"access_grants",
	"account_stats",
	"acp_checkout_sessions",
	"agent_connections",
	"api_keys",
	"console_sessions",
	"customers",
	"deliverables",
	"discount_redemptions",
	"discounts",
	"download_counts",
	"events",
	"files",
	"license_activations",
	"license_keys",
	"listing_views",
	"listings",
	"memberships",
	"orders",
	"plan_changes",
	"reviews",
	"sandbox_vault_tokens",
	"subscriptions",
	"webhook_deliveries",
	"webhook_endpoints",
}

// globalTables belong to no one account; each says why. On Citus they stay on
// the coordinator (or become reference tables where docs/scaling.md says so).
var globalTables = map[string]string{
	"bun_migrations":       "the service's migration ledger",
	"bun_migration_locks":  "the migration lock",
	"river_job":            "River's queue: jobs of every account, claimed by any worker (River on the coordinator)",
	"river_leader":         "River's leader election, one row for the whole service",
	"river_migration":      "River's migration ledger",
	"river_notification":   "River's notification table",
	"river_queue":          "River's queues, shared by every account",
	"periodic_schedules":   "one row per periodic sweep (jobs.RunPeriodic), not per account",
	"service_processes":    "one row per running process, its heartbeat (idempotency takeover, jobs.RunLiveness), not per account",
	"processor_events":     "inbound processor events, deduplicated by the processor's event id before the account is known",
	"service_keys":         "the service's own secrets (signing and sealing keys)",
	"license_signing_keys": "the service's license-token signing keys, published in one JWKS for every store",
	"idempotency_keys":     "keyed by scope (the API key or console session that sent the request), checked in middleware before any resolver runs; rows expire within a day",
	"sandbox_charges":      "the sandbox processor's ledger: it stands in for the processor's own servers, not the service's data",
	"mail_messages":        "the mail outbox: sign-up passcodes and buyer sign-in links go out before (or across) any account",
	"bootstrap_sessions":   "a sign-up before its account exists: account_id is set only when the account is created",
	"buyer_sign_ins":       "a buyer's sign-in link by email; account_id is null for the library across every store",
	"buyer_sessions":       "a buyer's library session by email; account_id is null for the library across every store",
}

// Every table of the migrated schema is either a tenant table that can be
// distributed by account_id or a global table listed with its reason, so a
// new table cannot quietly make the schema unshardable.
func TestTenantTablesShardable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := open(t, testkit.DatabaseURL)

	rows, err := d.Pool.Query(ctx, `
		SELECT c.relname,
		       a.attnum IS NOT NULL AS has_account_id,
		       coalesce(a.attnotnull, false) AS account_id_not_null,
		       EXISTS (SELECT 1 FROM pg_index i
		                WHERE i.indrelid = c.oid AND i.indisvalid
		                  AND i.indkey[0] = a.attnum) AS account_id_leads_index
		  FROM pg_class c
		  JOIN pg_namespace n ON n.oid = c.relnamespace
		  LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'account_id' AND NOT a.attisdropped
		 WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
		 ORDER BY c.relname`)
	require.NoError(t, err)
	type table struct{ hasAccount, notNull, leads bool }
	live := map[string]table{}
	for rows.Next() {
		var name string
		var tb table
		require.NoError(t, rows.Scan(&name, &tb.hasAccount, &tb.notNull, &tb.leads))
		live[name] = tb
	}
	require.NoError(t, rows.Err())
	require.Contains(t, live, rootTable, "the schema is migrated")

	tenant := map[string]bool{}
	for _, name := range tenantTables {
		tenant[name] = true
		require.NotContains(t, globalTables, name, "%s is listed both as a tenant and as a global table", name)
	}

	var problems []string
	for name, tb := range live {
		switch {
		case name == rootTable:
			var pk string
			require.NoError(t, d.Pool.QueryRow(ctx, `
				SELECT string_agg(a.attname, ',' ORDER BY k.ord)
				  FROM pg_index i
				  CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
				  JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
				 WHERE i.indrelid = $1::regclass AND i.indisprimary`, name).Scan(&pk))
			if pk != "id" {
				problems = append(problems, name+": the tenant root's primary key must be id alone (the account id), is ("+pk+")")
			}
		case tenant[name]:
			switch {
			case !tb.hasAccount:
				problems = append(problems, name+": tenant table without an account_id column")
			case !tb.notNull:
				problems = append(problems, name+": account_id is nullable")
			}
			if tb.hasAccount && !tb.leads {
				problems = append(problems, name+": no index, primary key or unique constraint leads with account_id")
			}
		case globalTables[name] != "":
		default:
			problems = append(problems, name+": new table in neither list: give it a NOT NULL account_id with an index leading with it and list it in tenantTables, or list it in globalTables with the reason (db/shard_test.go, docs/scaling.md)")
		}
	}
	for _, name := range tenantTables {
		if _, ok := live[name]; !ok {
			problems = append(problems, name+": listed as a tenant table but not in the schema")
		}
	}
	for name := range globalTables {
		if _, ok := live[name]; !ok {
			problems = append(problems, name+": listed as a global table but not in the schema")
		}
	}
	sort.Strings(problems)
	if len(problems) > 0 {
		t.Fatalf("the schema is not ready to shard by account_id (docs/scaling.md):\n  %s", strings.Join(problems, "\n  "))
	}
}
