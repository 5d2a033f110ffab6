package search_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/input"
	"commerce/search"
)

func TestQuery(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, want string
		err      error
	}{
		{in: "ada", want: "ada"},
		{in: "  Ada@Example.com \t", want: "Ada@Example.com"},
		{in: "", err: search.ErrLength},
		{in: "   ", err: search.ErrLength},
		{in: strings.Repeat("é", 200), want: strings.Repeat("é", 200)},
		{in: " " + strings.Repeat("a", 200) + " ", want: strings.Repeat("a", 200)},
		{in: strings.Repeat("a", 201), err: search.ErrLength},
		{in: "a\x00b", err: input.ErrNUL},
		{in: "a\xffb", err: input.ErrUTF8},
	} {
		got, err := search.Query(tc.in)
		if tc.err != nil {
			require.ErrorIs(t, err, tc.err, "%q", tc.in)
			continue
		}
		require.NoError(t, err, "%q", tc.in)
		require.Equal(t, tc.want, got)
	}
}

func TestContains(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"ada":     "%ada%",
		"50%":     `%50\%%`,
		"a_b":     `%a\_b%`,
		`back\sl`: `%back\\sl%`,
		"%_\\":    `%\%\_\\%`,
		"日本":      "%日本%",
	} {
		require.Equal(t, want, search.Contains(in), "%q", in)
	}
}
