package console_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"commerce/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// The console's browser tests: every Playwright spec in e2e/ runs in
// Debian's Chromium against the real service (PostgreSQL, Redis, workers,
// the sandbox processor, mail kept in the sandbox mailbox) on a free port.
// Missing node, npm or chromium fail the test (scripts/services.sh installs
// chromium for `make test`); so does any failing spec, with Playwright's
// output.
func TestBrowser(t *testing.T) {
	node := requireTool(t, "node", "Node.js 20 or later (https://nodejs.org, or Debian's nodejs)")
	npm := requireTool(t, "npm", "npm (it comes with Node.js)")
	chromium := os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	if st, err := os.Stat(chromium); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
		t.Fatalf("the browser tests need Chromium at %s (Debian's chromium package: `make test` installs it through scripts/services.sh, or set CHROMIUM)", chromium)
	}
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 12*time.Minute)
	defer cancel()
	npmCI(ctx, t, npm, dir)

	env := testkit.New(t, testkit.WithWorkers())
	// npx from the installed node_modules only: nothing is fetched here.
	// E2E_SPECS narrows the run to some specs while working on them
	// (E2E_SPECS=library.spec.ts); unset, every spec runs.
	args := append([]string{filepath.Join(dir, "node_modules", "@playwright", "test", "cli.js"), "test"}, strings.Fields(os.Getenv("E2E_SPECS"))...)
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "COMMERCE_BASE_URL="+env.URL, "CHROMIUM="+chromium,
		"CI=1", "FORCE_COLOR=0")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err = cmd.Run()
	t.Logf("playwright test (%s):\n%s", time.Since(start).Round(time.Second), out.String())
	if err != nil {
		t.Fatalf("playwright test failed (%v); its output is above", err)
	}
}

// requireTool finds a program on the PATH or fails the test saying what to install.
func requireTool(t *testing.T, name, what string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Fatalf("the browser tests need %s: %s is not on the PATH", what, name)
	}
	return p
}

// lockStamp records, inside node_modules, the package-lock.json that
// `npm ci` installed, so a changed lock file installs again.
const lockStamp = ".commerce-package-lock.sha256"

// npmCI runs `npm ci` in dir when node_modules is missing or was installed
// from another package-lock.json.
func npmCI(ctx context.Context, t *testing.T, npm, dir string) {
	t.Helper()
	lock, err := os.ReadFile(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		t.Fatalf("console/package-lock.json: %v", err)
	}
	sum := sha256.Sum256(lock)
	want := hex.EncodeToString(sum[:])
	stamp := filepath.Join(dir, "node_modules", lockStamp)
	if got, err := os.ReadFile(stamp); err == nil && string(got) == want {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", "@playwright", "test", "cli.js")); err == nil {
			return
		}
	}
	cmd := exec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("npm ci in console/ failed: %v\n%s", err, out)
	}
	if err := os.WriteFile(stamp, []byte(want), 0o644); err != nil {
		t.Fatal(err)
	}
}
