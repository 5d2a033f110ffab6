package deploy_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// promtool is Prometheus's own checker (Debian's prometheus package;
// scripts/services.sh test installs it). Without it the rules are not
// checked: the test fails, never skips.
func promtool(t *testing.T, args ...string) string {
	t.Helper()
	path, err := exec.LookPath("promtool")
	require.NoError(t, err, "promtool is not installed: install Debian's prometheus package (apt-get install --no-install-recommends prometheus); `make test` does")
	out, err := exec.Command(path, args...).CombinedOutput()
	require.NoError(t, err, "promtool %s:\n%s", strings.Join(args, " "), out)
	return string(out)
}

// The alerting rules are valid, the example configuration loads them, and
// their unit tests pass: the alerts fire when they should, and not before.
func TestAlertRules(t *testing.T) {
	t.Parallel()
	require.Contains(t, promtool(t, "check", "rules", "prometheus/alerts.yml"), "SUCCESS")
	require.Contains(t, promtool(t, "check", "config", "prometheus/prometheus.yml"), "SUCCESS")
	require.Contains(t, promtool(t, "test", "rules", "prometheus/alerts_test.yml"), "SUCCESS")
}

// dashboard is what the test reads of a Grafana dashboard.
type dashboard struct {
	UID    string  `json:"uid"`
	Title  string  `json:"title"`
	Panels []panel `json:"panels"`
}

type panel struct {
	ID         int    `json:"id"`
	Type       string `json:"type"`
	Title      string `json:"title"`
	Datasource *struct {
		UID string `json:"uid"`
	} `json:"datasource"`
	Targets []struct {
		RefID string `json:"refId"`
		Expr  string `json:"expr"`
	} `json:"targets"`
}

// The dashboard parses, each of its panels queries the chosen data source
// with at least one query, ids are unique, and every query is valid PromQL
// (promtool checks them as recording rules, Grafana's variables replaced).
func TestDashboard(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("grafana/commerce.json")
	require.NoError(t, err)
	var d dashboard
	require.NoError(t, json.Unmarshal(b, &d))
	require.Equal(t, "commerce-overview", d.UID)
	require.NotEmpty(t, d.Title)

	var rules strings.Builder
	rules.WriteString("groups:\n  - name: dashboard\n    rules:\n")
	ids := map[int]bool{}
	n := 0
	for _, p := range d.Panels {
		require.False(t, ids[p.ID], "panel id %d twice", p.ID)
		ids[p.ID] = true
		if p.Type == "row" {
			continue
		}
		require.NotNil(t, p.Datasource, p.Title)
		require.Equal(t, "${datasource}", p.Datasource.UID, p.Title)
		require.NotEmpty(t, p.Targets, p.Title)
		for _, q := range p.Targets {
			require.NotEmpty(t, q.Expr, "%s %s", p.Title, q.RefID)
			expr := strings.NewReplacer("$__rate_interval", "5m", "$job", "commerce", "$instance", ".*").Replace(q.Expr)
			require.NotContains(t, expr, "$", "%s: a variable the test does not know", p.Title)
			e, _ := json.Marshal(expr)
			n++
			fmt.Fprintf(&rules, "      - record: dashboard:panel_%d_%s\n        expr: %s\n", p.ID, q.RefID, e)
		}
	}
	require.Greater(t, n, 30)
	file := filepath.Join(t.TempDir(), "dashboard-rules.yml")
	require.NoError(t, os.WriteFile(file, []byte(rules.String()), 0o600))
	require.Contains(t, promtool(t, "check", "rules", file), fmt.Sprintf("SUCCESS: %d rules found", n))
}
