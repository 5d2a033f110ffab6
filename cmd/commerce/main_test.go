package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

func setEnv(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	t.Setenv("DATABASE_URL", testkit.DatabaseURL)
	t.Setenv("REDIS_URL", testkit.RedisURL)
	t.Setenv("LISTEN_ADDR", addr)
	t.Setenv("BASE_URL", "http://"+addr)
	t.Setenv("LOG_LEVEL", "error")
	t.Setenv("LOG_FORMAT", "json")
	return addr
}

// The operator commands and a serve that drains and exits on SIGTERM.
// (Not parallel: it sets the environment and signals the process.)
func TestCommands(t *testing.T) {
	addr := setEnv(t)

	var out bytes.Buffer
	require.NoError(t, run([]string{"migrate", "up"}, &out))
	out.Reset()
	require.NoError(t, run([]string{"migrate", "status"}, &out))
	require.Contains(t, out.String(), "applied  20261122000001_foundation")
	require.NotContains(t, out.String(), "pending")

	out.Reset()
	require.NoError(t, run([]string{"accounts", "create", "--email", "op-" + testkit.Unique() + "@example.com", "--plan", "growth"}, &out))
	m := regexp.MustCompile(`(?m)^account_id=(acc_[0-9a-z]{26})\napi_key=(svc_[0-9A-Za-z]{40})$`).FindStringSubmatch(out.String())
	require.NotNil(t, m, out.String())
	key := m[2]

	// make run's development key: kept in a file and reused while it works.
	keyFile := filepath.Join(t.TempDir(), "dev-api-key")
	devEmail := "dev-" + testkit.Unique() + "@example.com"
	keyOf := func() string {
		out.Reset()
		require.NoError(t, run([]string{"accounts", "create", "--email", devEmail, "--reuse", "--key-file", keyFile}, &out))
		m := regexp.MustCompile(`(?m)^api_key=(svc_[0-9A-Za-z]{40})$`).FindStringSubmatch(out.String())
		require.NotNil(t, m, out.String())
		return m[1]
	}
	first := keyOf()
	require.Equal(t, first, keyOf(), "a second run reuses the key")
	require.Equal(t, first, keyOf())
	st, err := os.Stat(keyFile)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	d, err := db.Open(context.Background(), testkit.DatabaseURL)
	require.NoError(t, err)
	var keys int
	require.NoError(t, d.Pool.QueryRow(context.Background(), `SELECT count(*) FROM api_keys k JOIN accounts a ON a.id = k.account_id
		WHERE a.email = $1`, devEmail).Scan(&keys))
	require.Equal(t, 1, keys, "one key, not one per run")
	_, err = d.Pool.Exec(context.Background(), `UPDATE api_keys SET revoked_at = now() WHERE account_id = (SELECT id FROM accounts WHERE email = $1)`, devEmail)
	require.NoError(t, err)
	d.Close()
	second := keyOf()
	require.NotEqual(t, first, second, "a revoked key is replaced")
	require.Equal(t, second, keyOf())

	err = run([]string{"accounts", "create", "--email", "not-an-email"}, &out)
	require.ErrorContains(t, err, "--email")
	err = run([]string{"accounts", "create", "--email", "x@example.com", "--plan", "gold"}, &out)
	require.ErrorContains(t, err, "--plan")

	done := make(chan error, 1)
	go func() { done <- run([]string{"serve"}, &out) }()
	require.Eventually(t, func() bool {
		resp, err := http.Get("http://" + addr + "/readyz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == 200
	}, 15*time.Second, 50*time.Millisecond)

	req, _ := http.NewRequest("GET", "http://"+addr+"/v1/api-keys", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)

	start := time.Now()
	require.NoError(t, syscall.Kill(syscall.Getpid(), syscall.SIGTERM))
	select {
	case err := <-done:
		require.NoError(t, err)
		require.Less(t, time.Since(start), 11*time.Second)
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop after SIGTERM")
	}
	_, err = http.Get("http://" + addr + "/healthz")
	require.Error(t, err, "the listener is closed")
}

func TestInvalidConfigurationNamesTheVariable(t *testing.T) {
	setEnv(t)
	t.Setenv("LISTEN_ADDR", "nonsense")
	err := run([]string{"serve"}, &bytes.Buffer{})
	require.ErrorContains(t, err, "LISTEN_ADDR")
}

// `commerce licenses rotate-key` adds a signing key and prints its kid; the
// keys before it stay in the table (and published while their tokens live).
// (Not parallel: it sets the environment.)
func TestRotateLicenseKeyCommand(t *testing.T) {
	setEnv(t)
	var out bytes.Buffer
	require.NoError(t, run([]string{"migrate", "up"}, &out))
	kidLine := regexp.MustCompile(`^kid=([A-Za-z0-9_-]{43})\n$`)
	rotate := func() string {
		out.Reset()
		require.NoError(t, run([]string{"licenses", "rotate-key"}, &out))
		m := kidLine.FindStringSubmatch(out.String())
		require.NotNil(t, m, out.String())
		return m[1]
	}
	first, second := rotate(), rotate()
	require.NotEqual(t, first, second)

	d, err := db.Open(context.Background(), testkit.DatabaseURL)
	require.NoError(t, err)
	defer d.Close()
	var newest string
	var n int
	require.NoError(t, d.Pool.QueryRow(context.Background(),
		`SELECT (SELECT kid FROM license_signing_keys ORDER BY created_at DESC LIMIT 1), count(*) FILTER (WHERE kid IN ($1, $2)) FROM license_signing_keys`,
		first, second).Scan(&newest, &n))
	require.Equal(t, second, newest)
	require.Equal(t, 2, n)

	for _, args := range [][]string{{"licenses"}, {"licenses", "rotate"}, {"licenses", "rotate-key", "extra"}} {
		err := run(args, &out)
		require.ErrorContains(t, err, "licenses rotate-key", "%v", args)
	}
}
