package input_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/input"
)

func TestText(t *testing.T) {
	t.Parallel()
	require.NoError(t, input.Text(""))
	require.NoError(t, input.Text("Crème brûlée 🍮"))
	require.ErrorIs(t, input.Text("a\x00b"), input.ErrNUL)
	require.ErrorIs(t, input.Text("a\xffb"), input.ErrUTF8)
	require.ErrorIs(t, input.Text("\xed\xa0\x80"), input.ErrUTF8, "an encoded surrogate is not UTF-8")
}

func TestTime(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2026-11-22T09:30:00Z"} {
		ts, err := time.Parse(time.RFC3339, s)
		require.NoError(t, err)
		require.NoError(t, input.Time(ts), s)
	}
	for _, s := range []string{"0000-01-01T00:00:00Z", "0001-01-01T00:30:00+01:00", "9999-12-31T23:30:00-01:00"} {
		ts, err := time.Parse(time.RFC3339, s)
		require.NoError(t, err)
		require.ErrorIs(t, input.Time(ts), input.ErrRange, s)
	}
	require.ErrorIs(t, input.Time(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)), input.ErrRange)
}
