package licensing_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/licensing"
	"commerce/problem"
)

func ptr(v int) *int { return &v }

// A listing's license settings (CONTRACT §20): errors name license.<member>.
func TestSettingsCheck(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		s    licensing.Settings
		bad  []string // the params refused, in order
	}{
		{"all null", licensing.Settings{}, nil},
		{"limits at the bounds", licensing.Settings{ActivationLimit: ptr(1), ExpiresAfterDays: ptr(1)}, nil},
		{"limits at the top", licensing.Settings{ActivationLimit: ptr(10000), ExpiresAfterDays: ptr(3650), KeyPrefix: strings.Repeat("Z", 12)}, nil},
		{"a prefix", licensing.Settings{KeyPrefix: "FONT2026"}, nil},
		{"no activations", licensing.Settings{ActivationLimit: ptr(0)}, []string{"license.activation_limit"}},
		{"negative activations", licensing.Settings{ActivationLimit: ptr(-1)}, []string{"license.activation_limit"}},
		{"too many activations", licensing.Settings{ActivationLimit: ptr(10001)}, []string{"license.activation_limit"}},
		{"zero days", licensing.Settings{ExpiresAfterDays: ptr(0)}, []string{"license.expires_after_days"}},
		{"too many days", licensing.Settings{ExpiresAfterDays: ptr(3651)}, []string{"license.expires_after_days"}},
		{"lower-case prefix", licensing.Settings{KeyPrefix: "acme"}, []string{"license.key_prefix"}},
		{"prefix with a hyphen", licensing.Settings{KeyPrefix: "AC-ME"}, []string{"license.key_prefix"}},
		{"prefix too long", licensing.Settings{KeyPrefix: strings.Repeat("Z", 13)}, []string{"license.key_prefix"}},
		{"everything wrong", licensing.Settings{ActivationLimit: ptr(0), ExpiresAfterDays: ptr(4000), KeyPrefix: "é"},
			[]string{"license.activation_limit", "license.expires_after_days", "license.key_prefix"}},
	} {
		var f problem.Fields
		tc.s.Check(&f)
		p := problem.From(f.Err())
		if tc.bad == nil {
			require.Nil(t, p, tc.name)
			continue
		}
		require.NotNil(t, p, tc.name)
		require.Equal(t, problem.ValidationError, p.Code)
		require.Equal(t, tc.bad[0], p.Param, tc.name)
		var got []string
		for _, e := range p.Errors {
			got = append(got, e.Param)
			require.Contains(t, e.Detail, strings.TrimPrefix(e.Param, "license."), tc.name)
		}
		require.Equal(t, tc.bad, got, tc.name)
	}
}

// A key issued at t with expires_after_days n expires n×24 hours later;
// without it, never.
func TestSettingsKeyExpiry(t *testing.T) {
	t.Parallel()
	issued := time.Date(2026, 3, 28, 12, 30, 0, 0, time.UTC)
	require.Nil(t, licensing.Settings{}.KeyExpiry(issued))
	got := licensing.Settings{ExpiresAfterDays: ptr(30)}.KeyExpiry(issued)
	require.NotNil(t, got)
	require.Equal(t, issued.Add(30*24*time.Hour), *got)
}
