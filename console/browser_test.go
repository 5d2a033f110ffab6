package console_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
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
	harness := httptest.NewServer(harnessHandler(t, env))
	defer harness.Close()
	// npx from the installed node_modules only: nothing is fetched here.
	// E2E_SPECS narrows the run to some specs while working on them
	// (E2E_SPECS=library.spec.ts); unset, every spec runs.
	args := append([]string{filepath.Join(dir, "node_modules", "@playwright", "test", "cli.js"), "test"}, strings.Fields(os.Getenv("E2E_SPECS"))...)
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "COMMERCE_BASE_URL="+env.URL, "COMMERCE_HARNESS_URL="+harness.URL, "CHROMIUM="+chromium,
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

// harnessHandler is what the specs may ask of the harness beyond the
// service's own API (COMMERCE_HARNESS_URL, on the loopback interface, for
// the test's lifetime only): moving an order back in time, so a spec can
// seed sales over past days through real purchases.
//
// POST /orders/backdate {"order_id": "ord_…", "days": 12} moves every
// timestamp of the order (created, paid, fulfilled, refunded, canceled)
// that many days earlier; 204, or 404 when no order has that id.
func harnessHandler(t *testing.T, env *testkit.Env) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /orders/backdate", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			OrderID string `json:"order_id"`
			Days    int    `json:"days"`
		}
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4096)).Decode(&in); err != nil || in.Days < 0 || in.Days > 3660 {
			http.Error(w, "want {\"order_id\": \"ord_…\", \"days\": 0..3660}", http.StatusBadRequest)
			return
		}
		tag, err := env.Server.DB.Pool.Exec(r.Context(), `UPDATE orders SET
			created_at = created_at - make_interval(days => $2),
			paid_at = paid_at - make_interval(days => $2),
			fulfilled_at = fulfilled_at - make_interval(days => $2),
			refunded_at = refunded_at - make_interval(days => $2),
			canceled_at = canceled_at - make_interval(days => $2)
			WHERE id = $1`, in.OrderID, in.Days)
		if err != nil {
			t.Logf("harness: backdate %s: %v", in.OrderID, err)
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		if tag.RowsAffected() == 0 {
			http.NotFound(w, r)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	return mux
}
