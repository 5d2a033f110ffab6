package db_test

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/testkit"
)

// plannedProbe is a query with parameters and columns of several types,
// a NULL and a type modifier among them, and a subquery.
var plannedProbe = &db.PlannedQuery{Name: "probe", SQL: `SELECT $1::int + 1 AS n, upper($2) AS s, json_build_object('a', $1::int) AS j,
       NULL::text AS missing, 1.5::numeric(5,2) AS price, now() > '2000-01-01' AS after,
       (SELECT count(*) FROM pg_class WHERE relname = $2) AS c`}

type probeRow struct {
	n       int
	s       string
	j       []byte
	missing *string
	price   string
	after   bool
	c       int64
}

func readProbe(t *testing.T, d *db.DB, q *db.PlannedQuery) probeRow {
	t.Helper()
	var r probeRow
	require.NoError(t, d.QueryRowPlanned(context.Background(), q, 41, "pg_class").
		Scan(&r.n, &r.s, &r.j, &r.missing, &r.price, &r.after, &r.c))
	return r
}

// pooledURL is the test database's URL told apart from the direct one, so
// OpenDirect takes it for a pooler's (unnamed statements).
func pooledURL(t *testing.T, app string) string {
	u, err := url.Parse(testkit.DatabaseURL)
	require.NoError(t, err)
	q := u.Query()
	q.Set("application_name", app)
	u.RawQuery = q.Encode()
	return u.String()
}

func openPooled(t *testing.T, pooled string) *db.DB {
	t.Helper()
	d, err := db.OpenDirect(context.Background(), pooled, testkit.DatabaseURL)
	require.NoError(t, err)
	t.Cleanup(d.Close)
	return d
}

// watch records the statements d sends.
func watch(t *testing.T, d *db.DB) func() []string {
	var mu sync.Mutex
	var seen []string
	t.Cleanup(d.WatchStatements(func(sql string) { mu.Lock(); seen = append(seen, sql); mu.Unlock() }))
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		out := seen
		seen = nil
		return out
	}
}

func functionsNamed(t *testing.T, d *db.DB, call string) int {
	t.Helper()
	name := strings.TrimPrefix(call, "SELECT * FROM ")
	name = name[:strings.Index(name, "(")]
	var n int
	require.NoError(t, d.Pool.QueryRow(context.Background(), `SELECT count(*) FROM pg_proc WHERE proname = $1`, name).Scan(&n))
	return n
}

// Behind a pooler a planned query runs as its function, created once for
// every process, and reads what the query reads.
func TestPlannedQueryBehindAPooler(t *testing.T) {
	t.Parallel()
	direct := open(t, testkit.DatabaseURL)
	want := readProbe(t, direct, plannedProbe)
	require.Equal(t, probeRow{n: 42, s: "PG_CLASS", j: want.j, price: "1.50", after: true, c: 1}, want)
	require.JSONEq(t, `{"a": 41}`, string(want.j))

	// Straight to PostgreSQL: the query itself, prepared by pgx.
	seen := watch(t, direct)
	readProbe(t, direct, plannedProbe)
	require.Equal(t, []string{plannedProbe.SQL}, seen())

	// Behind a pooler, ten processes start at once: one creates the
	// function, every one calls it and reads the same row.
	pooled := pooledURL(t, "planned-test")
	q := &db.PlannedQuery{Name: "probe", SQL: plannedProbe.SQL + " -- " + testkit.Unique()} // a function of this test's own
	var wg sync.WaitGroup
	procs := make([]*db.DB, 10)
	for i := range procs {
		procs[i] = openPooled(t, pooled)
	}
	rows := make([]probeRow, len(procs))
	for i, d := range procs {
		wg.Add(1)
		go func() { defer wg.Done(); rows[i] = readProbe(t, d, q) }()
	}
	wg.Wait()
	for _, r := range rows {
		require.Equal(t, want.n, r.n)
		require.Equal(t, want.price, r.price)
		require.JSONEq(t, string(want.j), string(r.j))
		require.Equal(t, want, probeRow{n: r.n, s: r.s, j: want.j, missing: r.missing, price: r.price, after: r.after, c: r.c})
	}
	seen = watch(t, procs[0])
	got := readProbe(t, procs[0], q)
	require.Equal(t, want.c, got.c)
	calls := seen()
	require.Len(t, calls, 1)
	require.True(t, strings.HasPrefix(calls[0], "SELECT * FROM planned_probe_"), calls[0])
	require.Equal(t, "SELECT * FROM "+calls[0][len("SELECT * FROM "):strings.Index(calls[0], "(")]+"($1, $2)", calls[0])
	require.Equal(t, 1, functionsNamed(t, direct, calls[0]))

	// Another query is another function.
	other := &db.PlannedQuery{Name: "probe_other", SQL: q.SQL + " -- other"}
	readProbe(t, procs[1], other)
	seen = watch(t, procs[1])
	readProbe(t, procs[1], other)
	otherCalls := seen()
	require.Len(t, otherCalls, 1)
	require.True(t, strings.HasPrefix(otherCalls[0], "SELECT * FROM planned_probe_other_"), otherCalls[0])
	require.NotEqual(t, calls[0], otherCalls[0])

	// Dropped behind the process's back (or no longer matching its types
	// after a migration): that read runs the query, the next one makes the
	// function again and calls it.
	name := calls[0][len("SELECT * FROM "):strings.Index(calls[0], "(")]
	_, err := direct.Pool.Exec(context.Background(), `DROP FUNCTION `+name)
	require.NoError(t, err)
	seen = watch(t, procs[0])
	require.Equal(t, want.c, readProbe(t, procs[0], q).c)
	require.Equal(t, []string{calls[0], q.SQL}, seen())
	require.Equal(t, want.c, readProbe(t, procs[0], q).c)
	again := seen()
	require.Equal(t, calls[0], again[len(again)-1])
	require.Equal(t, 1, functionsNamed(t, direct, calls[0]))

	// A request that gives up while the function is made leaves it to the
	// next one.
	late := &db.PlannedQuery{Name: "probe", SQL: q.SQL + " -- late"}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	var n int
	require.Error(t, procs[2].QueryRowPlanned(cancelled, late, 41, "pg_class").Scan(&n))
	seen = watch(t, procs[2])
	readProbe(t, procs[2], late)
	lateCalls := seen()
	require.True(t, strings.HasPrefix(lateCalls[len(lateCalls)-1], "SELECT * FROM planned_"), lateCalls)

	// A name that is not an identifier's: the query itself.
	seen = watch(t, procs[3])
	require.Equal(t, want.c, readProbe(t, procs[3], &db.PlannedQuery{Name: "Probe; DROP", SQL: q.SQL}).c)
	require.Equal(t, []string{q.SQL}, seen())

	// A process whose role may not create functions runs the query itself
	// and reads the same row.
	role := "planned_" + strings.ToLower(testkit.Unique())
	_, err = direct.Pool.Exec(context.Background(), `CREATE ROLE `+role+` LOGIN`)
	require.NoError(t, err)
	t.Cleanup(func() { _, _ = direct.Pool.Exec(context.Background(), `DROP ROLE `+role) })
	u, err := url.Parse(pooled)
	require.NoError(t, err)
	u.User = url.User(role)
	limited := openPooled(t, u.String())
	seen = watch(t, limited)
	bare := &db.PlannedQuery{Name: "probe", SQL: q.SQL + " -- limited"}
	r := readProbe(t, limited, bare)
	require.Equal(t, want.n, r.n)
	require.JSONEq(t, string(want.j), string(r.j))
	statements := seen()
	require.Equal(t, bare.SQL, statements[len(statements)-1], "the query itself, last")
	for _, s := range statements {
		require.NotContains(t, s, "SELECT * FROM planned_")
	}
	var decoded map[string]int
	require.NoError(t, json.Unmarshal(r.j, &decoded))
}
