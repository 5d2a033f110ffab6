package main

import (
	"context"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/console"
	"commerce/testkit"
)

// A binary made by `go build ./cmd/commerce` alone, with no Node on the
// PATH, serves the developer console from the files embedded in it, and
// the front door around it.
func TestGoOnlyBinaryServesTheConsole(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := filepath.Join(dir, "commerce")
	// The build's PATH holds the go command alone (and, under the race
	// detector, which needs cgo, the C toolchain): no node, no npm.
	tools := filepath.Join(dir, "tools")
	require.NoError(t, os.Mkdir(tools, 0o755))
	needed := []string{"go"}
	args := []string{"build", "-o", bin}
	if raceEnabled { // the packages are compiled already, for this test binary
		needed = append(needed, "gcc", "as", "ld")
		args = append(args, "-race")
	}
	for _, name := range needed {
		p, err := exec.LookPath(name)
		require.NoError(t, err)
		require.NoError(t, os.Symlink(p, filepath.Join(tools, name)))
	}
	build := exec.Command(filepath.Join(tools, "go"), append(args, ".")...)
	build.Env = append(filteredEnv("PATH", "CC", "CGO_ENABLED"), "PATH="+tools)
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	for _, name := range []string{"node", "npm", "npx"} {
		_, err := os.Stat(filepath.Join(tools, name))
		require.True(t, os.IsNotExist(err), "%s is not on the build's PATH", name)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	base := "http://" + addr
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	serve := exec.CommandContext(ctx, bin, "serve")
	serve.Dir = dir
	serve.Env = append(filteredEnv("PATH", "DATABASE_URL", "REDIS_URL", "LISTEN_ADDR", "BASE_URL", "CONSOLE_URL", "LOG_FORMAT", "LOG_LEVEL", "FILE_STORAGE_URL", "PROCESSOR", "STRIPE_SECRET_KEY", "SMTP_URL"),
		"PATH=/nonexistent", "DATABASE_URL="+testkit.DatabaseURL, "REDIS_URL="+testkit.RedisURL, "LISTEN_ADDR="+addr,
		"BASE_URL="+base, "LOG_FORMAT=json", "LOG_LEVEL=error", "FILE_STORAGE_URL=file://"+filepath.Join(dir, "files"), "PROCESSOR=sandbox")
	var logs strings.Builder
	serve.Stdout, serve.Stderr = &logs, &logs
	require.NoError(t, serve.Start())
	t.Cleanup(func() {
		_ = serve.Process.Signal(os.Interrupt)
		_ = serve.Wait()
	})
	require.Eventually(t, func() bool {
		resp, err := http.Get(base + "/healthz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == 200
	}, 30*time.Second, 50*time.Millisecond, "the binary did not start: %s", &logs)

	get := func(path string) (*http.Response, []byte) {
		t.Helper()
		resp, err := http.Get(base + path)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp, b
	}
	index, err := fs.ReadFile(console.Files, "index.html")
	require.NoError(t, err)
	for _, p := range []string{"/console/", "/console/orders/ord_01jf0000000000000000000000", "/console/settings/billing"} {
		resp, body := get(p)
		require.Equal(t, 200, resp.StatusCode, p)
		require.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
		require.Equal(t, string(index), string(body), p)
		require.Contains(t, resp.Header.Get("Content-Security-Policy"), "default-src 'self'")
	}
	// Every embedded file is served as built.
	err = fs.WalkDir(console.Files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		want, err := fs.ReadFile(console.Files, p)
		require.NoError(t, err)
		resp, body := get("/console/" + p)
		require.Equal(t, 200, resp.StatusCode, p)
		require.Equal(t, string(want), string(body), p)
		return nil
	})
	require.NoError(t, err)
}

// filteredEnv is the environment without the named variables.
func filteredEnv(drop ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		keep := true
		for _, d := range drop {
			if name == d {
				keep = false
			}
		}
		if keep {
			out = append(out, kv)
		}
	}
	return out
}
