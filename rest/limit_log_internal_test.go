package rest

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"commerce/ratelimit"
)

// A limit check that failed because the caller hung up (its context
// ended) is not an error of the service: it is logged at debug level; one
// that failed with the caller still there is an error.
func TestLimitCheckCanceledByTheCallerIsNotAnError(t *testing.T) {
	var buf bytes.Buffer
	a := &API{Problems: Problems{Log: slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))},
		Metrics: NewMetrics(prometheus.NewRegistry())}
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := a.charged(gone, "reads", ratelimit.Result{}, context.Canceled)
	require.NoError(t, err, "allowed")
	require.Contains(t, buf.String(), "level=DEBUG")
	require.NotContains(t, buf.String(), "level=ERROR")

	buf.Reset()
	_, err = a.charged(context.Background(), "reads", ratelimit.Result{}, errors.New("READONLY You can't write against a read only replica"))
	require.NoError(t, err)
	require.Contains(t, buf.String(), "level=ERROR")
}
