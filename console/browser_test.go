package console_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"commerce/pricing"
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
	cmd := exec.CommandContext(ctx, node, filepath.Join(dir, "node_modules", "@playwright", "test", "cli.js"), "test")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "COMMERCE_BASE_URL="+env.URL, "COMMERCE_SEED_URL="+seeds(t, env), "CHROMIUM="+chromium,
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

// seeds serves, on a loopback port that the specs know as
// COMMERCE_SEED_URL, the state they need that the public API cannot make
// yet:
//
//	POST /orders/{id}/discount?discount=dsc_…
//
// writes a paid order of the discount's account as the price pipeline
// writes one that used the code (CONTRACT §19: subtotal → discount_amount →
// amount, the platform fee and net of the account's plan) and records the
// redemption as a paid checkout confirms it; it answers {subtotal,
// discount_amount, amount}. Applying a code at checkout is being built
// beside the console (issue 21); once it is in, a spec can buy with the
// code and this goes.
func seeds(t *testing.T, env *testkit.Env) string {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /orders/{id}/discount", func(w http.ResponseWriter, r *http.Request) {
		out, err := seedOrderDiscount(r.Context(), env, r.PathValue("id"), r.URL.Query().Get("discount"))
		if err != nil {
			t.Logf("seed: order %s, discount %s: %v", r.PathValue("id"), r.URL.Query().Get("discount"), err)
			http.Error(w, err.Error(), http.StatusUnprocessableEntity)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(out)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

func seedOrderDiscount(ctx context.Context, env *testkit.Env, orderID, discountID string) (map[string]int64, error) {
	tx, err := env.Server.DB.Pool.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer func() { _ = tx.Rollback(ctx) }()
	var (
		accountID, code, kind, plan, email, status string
		percent, amountOff                         *int64
		subtotal                                   int64
		existing                                   *string
	)
	err = tx.QueryRow(ctx, `SELECT d.account_id, d.code, d.type, d.percent_off, d.amount_off, a.plan,
			o.subtotal, o.buyer_email, o.status, o.discount_id
		FROM discounts d JOIN accounts a ON a.id = d.account_id JOIN orders o ON o.account_id = d.account_id AND o.id = $2
		WHERE d.id = $1 AND d.deleted_at IS NULL`, discountID, orderID).
		Scan(&accountID, &code, &kind, &percent, &amountOff, &plan, &subtotal, &email, &status, &existing)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, fmt.Errorf("no live discount %q with an order %q of the same account", discountID, orderID)
	case err != nil:
		return nil, err
	case existing != nil:
		return nil, fmt.Errorf("order %s already has discount %s", orderID, *existing)
	case status != "paid" && status != "fulfilled":
		return nil, fmt.Errorf("order %s is %s, not paid", orderID, status)
	}
	var off int64
	if kind == pricing.DiscountPercentage {
		off = pricing.PercentOff(subtotal, *percent)
	} else {
		off = pricing.FixedOff(subtotal, *amountOff)
	}
	amount := subtotal - off
	fee := pricing.PlatformFee(amount, plan)
	if _, err := tx.Exec(ctx, `UPDATE orders SET discount_id = $2, discount_code = $3, discount_amount = $4,
			amount = $5, platform_fee = $6, net_amount = $7 WHERE id = $1`,
		orderID, discountID, code, off, amount, fee, amount-fee); err != nil {
		return nil, err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO discount_redemptions (discount_id, order_id, account_id, email_lower, state)
			VALUES ($1, $2, $3, $4, 'redeemed')`, discountID, orderID, accountID, strings.ToLower(email)); err != nil {
		return nil, err
	}
	if _, err := tx.Exec(ctx, `UPDATE discounts SET redemptions_count = redemptions_count + 1 WHERE id = $1`, discountID); err != nil {
		return nil, err
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, err
	}
	return map[string]int64{"subtotal": subtotal, "discount_amount": off, "amount": amount}, nil
}
