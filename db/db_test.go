package db_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

func open(t *testing.T, url string) *db.DB {
	t.Helper()
	d, err := db.Open(context.Background(), url)
	require.NoError(t, err)
	t.Cleanup(d.Close)
	return d
}

type noopArgs struct{ N int }

func (noopArgs) Kind() string { return "test_noop" }

// A bun write and a River InsertTx in one InTx commit together and roll back together.
func TestInTxSharesTransactionWithRiver(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := open(t, testkit.DatabaseURL)
	client, err := river.NewClient(riverpgxv5.New(d.Pool), &river.Config{})
	require.NoError(t, err)

	insert := func(fail bool) (string, error) {
		id := db.NewID("acc")
		err := d.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
			acc := &db.Account{ID: id, Email: id + "@example.com", Plan: "free", BillingStatus: "active"}
			if _, err := tx.NewInsert().Model(acc).Exec(ctx); err != nil {
				return err
			}
			if _, err := client.InsertTx(ctx, tx.River, noopArgs{N: len(id)}, &river.InsertOpts{Tags: []string{id}}); err != nil {
				return err
			}
			if fail {
				return io.ErrUnexpectedEOF
			}
			return nil
		})
		return id, err
	}
	count := func(id string) (accounts, jobs int) {
		require.NoError(t, d.Pool.QueryRow(ctx, "SELECT count(*) FROM accounts WHERE id = $1", id).Scan(&accounts))
		require.NoError(t, d.Pool.QueryRow(ctx, "SELECT count(*) FROM river_job WHERE $1 = ANY(tags)", id).Scan(&jobs))
		return
	}

	id, err := insert(false)
	require.NoError(t, err)
	a, j := count(id)
	require.Equal(t, 1, a)
	require.Equal(t, 1, j)

	id, err = insert(true)
	require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	a, j = count(id)
	require.Equal(t, 0, a, "the account row is rolled back")
	require.Equal(t, 0, j, "the job is rolled back with it")
}

// A panic inside InTx rolls back and propagates.
func TestInTxRollsBackOnPanic(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := open(t, testkit.DatabaseURL)
	id := db.NewID("acc")
	require.Panics(t, func() {
		_ = d.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
			_, err := tx.NewInsert().Model(&db.Account{ID: id, Email: id + "@example.com", Plan: "free", BillingStatus: "active"}).Exec(ctx)
			require.NoError(t, err)
			panic("boom")
		})
	})
	var n int
	require.NoError(t, d.Pool.QueryRow(ctx, "SELECT count(*) FROM accounts WHERE id = $1", id).Scan(&n))
	require.Zero(t, n)
}

// Migrations go up, down to nothing, and up again on an empty database.
func TestMigrationsUpDownUp(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	admin := open(t, testkit.DatabaseURL)
	name := "mig_" + testkit.Unique()
	_, err := admin.Pool.Exec(ctx, "CREATE DATABASE "+name)
	require.NoError(t, err)
	t.Cleanup(func() { _, _ = admin.Pool.Exec(context.Background(), "DROP DATABASE "+name+" WITH (FORCE)") })
	d := open(t, replaceDB(testkit.DatabaseURL, name))

	tables := func() []string {
		rows, err := d.Pool.Query(ctx, "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")
		require.NoError(t, err)
		names, err := pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err)
		return names
	}

	var out bytes.Buffer
	require.NoError(t, d.MigrateUp(ctx, &out))
	require.Contains(t, tables(), "accounts")
	require.Contains(t, tables(), "river_job")
	st, err := d.MigrateStatus(ctx)
	require.NoError(t, err)
	require.Empty(t, st.Pending)
	require.Equal(t, st.RiverLatest, st.RiverVersion)

	require.NoError(t, d.MigrateUp(ctx, &out), "up is idempotent")
	require.NoError(t, d.MigrateDown(ctx, &out, true))
	require.Empty(t, tables(), "down to zero leaves no tables")

	require.NoError(t, d.MigrateUp(ctx, &out))
	require.Contains(t, tables(), "api_keys")
	require.Contains(t, tables(), "idempotency_keys")
}

func replaceDB(raw, name string) string {
	u, _ := url.Parse(raw)
	u.Path = "/" + name
	return u.String()
}

func TestNewIDIsPrefixedSortableULID(t *testing.T) {
	t.Parallel()
	a, b := db.NewID("key"), db.NewID("key")
	require.True(t, db.ValidID("key", a))
	require.False(t, db.ValidID("acc", a))
	require.Less(t, a, b)
	require.Regexp(t, `^key_[0-9a-z]{26}$`, a)
}

// bun interpolates its arguments, so almost every bun query is a text of
// its own: sent in the extended protocol with pgx's statement cache, each
// would be prepared (a round trip more, and a server-side statement that
// evicts the cached ones). bun's queries go in the simple protocol: one
// round trip, nothing prepared. pgx's own queries (with $n arguments)
// keep the cache: prepared once per connection.
func TestBunQueriesPrepareNothing(t *testing.T) {
	t.Parallel()
	d := open(t, testkit.DatabaseURL)
	ctx := context.Background()
	before := d.Prepares()
	for i := range 5 {
		var n int
		require.NoError(t, d.NewSelect().ColumnExpr("? + 1", i).Scan(ctx, &n))
		require.Equal(t, i+1, n)
		var s string
		require.NoError(t, d.NewRaw("SELECT ?::text", fmt.Sprint("x", i)).Scan(ctx, &s))
		require.Equal(t, fmt.Sprint("x", i), s)
	}
	require.Equal(t, int64(0), d.Prepares()-before, "bun queries prepared statements")

	// pgx's queries with arguments: prepared once, then cached.
	conn, err := d.Pool.Acquire(ctx)
	require.NoError(t, err)
	defer conn.Release()
	before = d.Prepares()
	for i := range 5 {
		var n int
		require.NoError(t, conn.QueryRow(ctx, "SELECT $1::int + 1", i).Scan(&n))
	}
	require.Equal(t, int64(1), d.Prepares()-before, "one prepare for a pgx query repeated on a connection")
}

// Two transactions that lock the same two rows in opposite orders
// deadlock; PostgreSQL aborts one (40P01). InTxRetry runs the aborted one
// again, so both commit; InTx would have returned the deadlock.
func TestInTxRetryOutlivesADeadlock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := open(t, testkit.DatabaseURL)
	a, b := db.NewID("acc"), db.NewID("acc")
	for _, id := range []string{a, b} {
		_, err := d.Pool.Exec(ctx, `INSERT INTO accounts (id, email, plan, billing_status) VALUES ($1, $1 || '@example.com', 'free', 'active')`, id)
		require.NoError(t, err)
	}
	// Each transaction holds its first row until both have one, then
	// takes the other's: a certain deadlock on the first attempt.
	var held sync.WaitGroup
	held.Add(2)
	var attempts [2]atomic.Int32
	run := func(i int, first, second string) error {
		return d.InTxRetry(ctx, func(ctx context.Context, tx db.Tx) error {
			n := attempts[i].Add(1)
			if _, err := tx.ExecContext(ctx, "UPDATE accounts SET updated_at = now() WHERE id = ?", first); err != nil {
				return err
			}
			if n == 1 {
				held.Done()
				held.Wait()
			}
			_, err := tx.ExecContext(ctx, "UPDATE accounts SET updated_at = now() WHERE id = ?", second)
			return err
		})
	}
	errs := make(chan error, 2)
	go func() { errs <- run(0, a, b) }()
	go func() { errs <- run(1, b, a) }()
	require.NoError(t, <-errs)
	require.NoError(t, <-errs)
	require.Equal(t, int32(3), attempts[0].Load()+attempts[1].Load(), "one of the two ran again")
	require.True(t, db.Retryable(fmt.Errorf("wrapped: %w", &pgconn.PgError{Code: "40001"})))
	require.False(t, db.Retryable(&pgconn.PgError{Code: "23505"}))
}

// The process's listener LISTENs on every channel asked for on one
// connection of its own, fans the notifications out, and after losing the
// connection tells each subscriber, reconnects, LISTENs again and tells
// them it listens (so they read what was committed meanwhile).
func TestListenSharesOneConnectionAndReconnects(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := open(t, testkit.DatabaseURL)
	tag := "t" + strings.ToLower(testkit.Unique())
	type sub struct {
		mu        sync.Mutex
		listening int
		lost      int
		payloads  []string
	}
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	subs := map[string]*sub{}
	for _, ch := range []string{"a_" + tag, "b_" + tag} {
		s := &sub{}
		subs[ch] = s
		go d.Listen(lctx, ch, db.Handler{
			Listening: func() { s.mu.Lock(); s.listening++; s.mu.Unlock() },
			Notify:    func(p string) { s.mu.Lock(); s.payloads = append(s.payloads, p); s.mu.Unlock() },
			Lost:      func(error) { s.mu.Lock(); s.lost++; s.mu.Unlock() },
		})
	}
	state := func(ch string) (int, int, []string) {
		s := subs[ch]
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.listening, s.lost, slices.Clone(s.payloads)
	}
	listening := func(n int) func() bool {
		return func() bool {
			a, _, _ := state("a_" + tag)
			b, _, _ := state("b_" + tag)
			return a == n && b == n
		}
	}
	require.Eventually(t, listening(1), 10*time.Second, 10*time.Millisecond)
	notify := func(payload string) {
		for ch := range subs {
			_, err := d.Pool.Exec(ctx, "SELECT pg_notify($1, $2)", ch, ch+":"+payload)
			require.NoError(t, err)
		}
	}
	received := func(payloads ...string) func() bool {
		return func() bool {
			for ch := range subs {
				_, _, got := state(ch)
				want := make([]string, len(payloads))
				for i, p := range payloads {
					want[i] = ch + ":" + p
				}
				if !slices.Equal(got, want) {
					return false
				}
			}
			return true
		}
	}
	notify("1")
	require.Eventually(t, received("1"), 10*time.Second, 10*time.Millisecond)

	// One backend listens for both channels.
	var pids []int32
	rows, err := d.Pool.Query(ctx, `SELECT pid FROM pg_stat_activity WHERE application_name = 'commerce-listener'
		AND datname = current_database() AND query LIKE '%' || $1 || '%'`, tag)
	require.NoError(t, err)
	pids, err = pgx.CollectRows(rows, pgx.RowTo[int32])
	require.NoError(t, err)
	require.Len(t, pids, 1)

	_, err = d.Pool.Exec(ctx, "SELECT pg_terminate_backend($1)", pids[0])
	require.NoError(t, err)
	require.Eventually(t, listening(2), 10*time.Second, 10*time.Millisecond)
	for ch := range subs {
		_, lost, _ := state(ch)
		require.Equal(t, 1, lost, ch)
	}
	notify("2")
	require.Eventually(t, received("1", "2"), 10*time.Second, 10*time.Millisecond)
}
