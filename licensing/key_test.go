package licensing_test

import (
	"crypto/sha256"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/licensing"
)

var keyShape = regexp.MustCompile(`^([A-Z0-9]{1,12}-)?[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){3}$`)

func TestNewKey(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		prefix string
		want   string // the key's beginning
	}{
		{"", ""},
		{"ACME", "ACME-"},
		{"X", "X-"},
		{"FONT2026", "FONT2026-"},
		{strings.Repeat("Z", 12), strings.Repeat("Z", 12) + "-"},
	} {
		k, err := licensing.NewKey(tc.prefix)
		require.NoError(t, err, tc.prefix)
		require.Regexp(t, keyShape, k)
		require.True(t, strings.HasPrefix(k, tc.want), k)
		require.Len(t, k, len(tc.want)+23)
		n, ok := licensing.Normalize(k)
		require.True(t, ok, k)
		require.Equal(t, k, n, "a new key is already normal")
	}
	for _, bad := range []string{"acme", "AC-ME", "AC ME", strings.Repeat("Z", 13), "ÉTÉ", "A_B"} {
		_, err := licensing.NewKey(bad)
		require.Error(t, err, bad)
	}
}

// 100 random bits: keys do not repeat, and every character of Crockford's
// alphabet turns up in every position.
func TestNewKeyIsRandom(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	used := make([]map[rune]bool, 20)
	for i := range used {
		used[i] = map[rune]bool{}
	}
	for range 3000 {
		k, err := licensing.NewKey("")
		require.NoError(t, err)
		require.False(t, seen[k], "repeated key %s", k)
		seen[k] = true
		for i, c := range strings.ReplaceAll(k, "-", "") {
			used[i][c] = true
		}
	}
	for i := range used {
		require.Len(t, used[i], 32, "position %d", i)
	}
}

// What a buyer types goes through Normalize: surrounding and inner white
// space and hyphens (or a dash a word processor put in their place) are
// dropped and put back in the canonical places, letters are upper-cased,
// and in the random part O reads as 0 and I and L as 1. The prefix is kept
// as it is (SOLO stays SOLO).
func TestNormalize(t *testing.T) {
	t.Parallel()
	const k = "ACME-0A1B2-C3D4E-F5G6H-J7K8M"
	for _, tc := range []struct {
		name, in, want string
	}{
		{"canonical", k, k},
		{"no prefix", "0A1B2-C3D4E-F5G6H-J7K8M", "0A1B2-C3D4E-F5G6H-J7K8M"},
		{"lower case", strings.ToLower(k), k},
		{"surrounding space", "  \t" + k + "\n", k},
		{"no hyphens", "ACME0A1B2C3D4EF5G6HJ7K8M", k},
		{"spaces for hyphens", "ACME 0A1B2 C3D4E F5G6H J7K8M", k},
		{"hyphens anywhere", "AC-ME0-A1B2C-3D4EF-5G6HJ7-K8M", k},
		{"en dashes", "ACME–0A1B2–C3D4E–F5G6H–J7K8M", k},
		{"non-breaking spaces", "ACME\u00a00A1B2\u00a0C3D4E F5G6H J7K8M", k},
		{"O for zero", "ACME-OA1B2-C3D4E-F5G6H-J7K8M", k},
		{"o, i and l", "acme-oaib2-c3d4e-f5g6h-j7k8m", k},
		{"I and L for one", "ACME-0AIB2-C3D4E-F5G6H-J7K8M", k},
		{"L for one", "ACME-0ALB2-C3D4E-F5G6H-J7K8M", k},
		{"prefix keeps its letters", "solo-0a1b2-c3d4e-f5g6h-j7k8m", "SOLO-0A1B2-C3D4E-F5G6H-J7K8M"},
		{"prefix of digits", "2026 0A1B2C3D4EF5G6HJ7K8M", "2026-0A1B2-C3D4E-F5G6H-J7K8M"},
	} {
		got, ok := licensing.Normalize(tc.in)
		require.True(t, ok, tc.name)
		require.Equal(t, tc.want, got, tc.name)
	}
	for _, tc := range []struct{ name, in string }{
		{"empty", ""},
		{"spaces", "   "},
		{"too short", "0A1B2-C3D4E-F5G6H-J7K8"},
		{"U is not Crockford", "ACME-0A1B2-C3D4E-F5G6H-J7K8U"},
		{"punctuation", "ACME-0A1B2-C3D4E-F5G6H-J7K8*"},
		{"underscore", "ACME_0A1B2-C3D4E-F5G6H-J7K8M"},
		{"non-ASCII in the prefix", "ÉTÉ-0A1B2-C3D4E-F5G6H-J7K8M"},
		{"prefix too long", strings.Repeat("A", 13) + "-0A1B2-C3D4E-F5G6H-J7K8M"},
		{"very long", strings.Repeat("A", 10000)},
		{"NUL", "ACME-0A1B2-C3D4E-F5G6H-J7K8\x00"},
	} {
		_, ok := licensing.Normalize(tc.in)
		require.False(t, ok, tc.name)
	}
}

// Keys are found by Hash: the SHA-256 of the 20 random characters. The
// prefix is the seller's label, not part of the secret, so a buyer who
// leaves it out or mistypes it still finds the key.
func TestHash(t *testing.T) {
	t.Parallel()
	k, err := licensing.NewKey("ACME")
	require.NoError(t, err)
	h := licensing.Hash(k)
	require.Len(t, h, 32)
	body := strings.ReplaceAll(strings.TrimPrefix(k, "ACME-"), "-", "")
	sum := sha256.Sum256([]byte(body))
	require.Equal(t, sum[:], h)

	typed, ok := licensing.Normalize(strings.ToLower(strings.ReplaceAll(k, "-", " ")))
	require.True(t, ok)
	require.Equal(t, h, licensing.Hash(typed))
	bare, ok := licensing.Normalize(strings.TrimPrefix(k, "ACME-"))
	require.True(t, ok)
	require.Equal(t, h, licensing.Hash(bare), "the prefix is not part of the hash")
	other, ok := licensing.Normalize("OTHER-" + strings.TrimPrefix(k, "ACME-"))
	require.True(t, ok)
	require.Equal(t, h, licensing.Hash(other))

	k2, err := licensing.NewKey("ACME")
	require.NoError(t, err)
	require.NotEqual(t, h, licensing.Hash(k2))
}
