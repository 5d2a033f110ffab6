package testkit_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"
)

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// A newcomer's first run: scripts/services.sh brings PostgreSQL and Redis up
// for a fresh clone inside a directory of mode 0700 (a home directory closed
// to other users; as root, PostgreSQL runs as the postgres user, who cannot
// enter it). The check runs the script's `dev` command on free ports of its
// own, so a development instance on 55432/56379 is not disturbed, and stops
// and removes what it started.
func TestServicesScriptInClosedDirectory(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	require.NoError(t, os.Mkdir(home, 0o700))
	require.NoError(t, os.Chmod(home, 0o700)) // whatever the umask
	repo := filepath.Join(home, "commerce")
	require.NoError(t, os.MkdirAll(filepath.Join(repo, "scripts", "lib"), 0o755))
	// The script and the helpers it sources.
	for _, f := range []string{"services.sh", "lib/common.sh"} {
		src, err := os.ReadFile(filepath.Join("..", "scripts", f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(repo, "scripts", f), src, 0o755))
	}
	script := filepath.Join(repo, "scripts", "services.sh")

	pgPort, redisPort := freePort(t), freePort(t)
	env := []string{fmt.Sprintf("COMMERCE_DEV_PG_PORT=%d", pgPort), fmt.Sprintf("COMMERCE_DEV_REDIS_PORT=%d", redisPort)}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DATABASE_URL=") && !strings.HasPrefix(kv, "REDIS_URL=") {
			env = append(env, kv)
		}
	}
	runScript := func(arg string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "bash", script, arg)
		cmd.Env, cmd.Dir = env, repo
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		if err != nil {
			return stdout.String(), fmt.Errorf("services.sh %s: %w\n%s", arg, err, stderr.String())
		}
		return stdout.String(), nil
	}
	t.Cleanup(func() {
		if _, err := runScript("stop"); err != nil {
			t.Error(err)
		}
		// The cluster may live outside the closed directory (see dev_pg_dir).
		sum := sha256.Sum256([]byte(repo))
		_ = os.RemoveAll("/var/tmp/commerce-pg-" + hex.EncodeToString(sum[:])[:12])
		_ = os.Remove("/var/tmp/commerce-pg-" + hex.EncodeToString(sum[:])[:12] + ".initdb.log")
	})

	out, err := runScript("dev")
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^DATABASE_URL=(\S+)\nREDIS_URL=(\S+)$`).FindStringSubmatch(out)
	require.NotNil(t, m, "stdout: %q", out)
	require.Equal(t, fmt.Sprintf("postgres://postgres@127.0.0.1:%d/commerce?sslmode=disable", pgPort), m[1])
	require.Equal(t, fmt.Sprintf("redis://127.0.0.1:%d/0", redisPort), m[2])

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, m[1])
	require.NoError(t, err, "PostgreSQL of the clone answers")
	var one int
	require.NoError(t, conn.QueryRow(ctx, "SELECT 1").Scan(&one))
	require.NoError(t, conn.Close(ctx))
	opts, err := redis.ParseURL(m[2])
	require.NoError(t, err)
	rdb := redis.NewClient(opts)
	defer rdb.Close()
	require.NoError(t, rdb.Ping(ctx).Err(), "Redis of the clone answers")

	// A second run finds both running and starts nothing.
	out2, err := runScript("dev")
	require.NoError(t, err)
	require.Equal(t, out, out2)
}
