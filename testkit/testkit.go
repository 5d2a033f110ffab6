// Package testkit sets tests up against the real thing: a fresh PostgreSQL
// database per test package (migrated once), the Redis of REDIS_URL, and the
// whole service behind an httptest server. It never fakes either store and
// fails loudly when they are missing.
package testkit

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"commerce/config"
	"commerce/db"
)

var (
	// DatabaseURL is the package's own database, set by Main.
	DatabaseURL string
	// RedisURL is the Redis of the run.
	RedisURL string
	// StorageDir is the package's file store (FILE_STORAGE_URL).
	StorageDir string
)

// Main is TestMain for a package that needs PostgreSQL and Redis: it creates
// a database of its own inside DATABASE_URL's server, migrates it, runs the
// tests and drops it.
func Main(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	base, rurl := os.Getenv("DATABASE_URL"), os.Getenv("REDIS_URL")
	if base == "" || rurl == "" {
		fmt.Fprintln(os.Stderr, "FAIL: DATABASE_URL and REDIS_URL must point at a PostgreSQL and a Redis; `make test` starts throwaway ones")
		return 1
	}
	RedisURL = rurl
	ctx := context.Background()
	name := "test_" + randomHex(6)
	admin, err := pgx.Connect(ctx, base)
	if err != nil {
		fmt.Fprintln(os.Stderr, "FAIL: connect to DATABASE_URL:", err)
		return 1
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		fmt.Fprintln(os.Stderr, "FAIL: create test database:", err)
		return 1
	}
	defer admin.Exec(context.Background(), "DROP DATABASE "+name+" WITH (FORCE)") //nolint:errcheck
	u, _ := url.Parse(base)
	u.Path = "/" + name
	DatabaseURL = u.String()

	d, err := db.Open(ctx, DatabaseURL)
	if err != nil {
		fmt.Fprintln(os.Stderr, "FAIL:", err)
		return 1
	}
	err = d.MigrateUp(ctx, io.Discard)
	d.Close()
	if err != nil {
		fmt.Fprintln(os.Stderr, "FAIL: migrate:", err)
		return 1
	}
	// One file store per package, like the database: a background job of
	// one test's service may run on another's workers.
	dir, err := os.MkdirTemp("", "commerce-test-files-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "FAIL: storage directory:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	StorageDir = dir
	return m.Run()
}

// Config returns a configuration pointing at the package's database and the
// run's Redis, with every other value at its default.
func Config(t testing.TB) config.Config {
	t.Helper()
	if DatabaseURL == "" {
		t.Fatal("testkit.Main did not run: add `func TestMain(m *testing.M) { testkit.Main(m) }` to the package")
	}
	env := map[string]string{
		"DATABASE_URL": DatabaseURL, "REDIS_URL": RedisURL, "LOG_FORMAT": "text",
		"LOG_LEVEL": "error", "PROCESSOR": "sandbox", "ALLOW_PRIVATE_TARGETS": "true",
		"FILE_STORAGE_URL": "file://" + StorageDir,
	}
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// Logger returns the tests' logger: errors only, to stderr, so a failing
// test's log shows what the service complained about.
func Logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Unique returns a short unique string for names and emails.
func Unique() string { return fmt.Sprintf("%d%s", time.Now().UnixNano()%1e9, randomHex(3)) }

// LockedBuffer is a bytes.Buffer safe for concurrent writers and readers:
// what a process's output or a logger writes to while a test reads it.
type LockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *LockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *LockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
