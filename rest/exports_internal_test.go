package rest

import (
	"errors"
	"io"
	"iter"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/export"
	"commerce/resolvers"
)

// A page that fails after the header was sent cannot become a problem
// document: the connection is cut, so the client's read fails instead of
// ending with a file that looks complete, and the failure is logged.
func TestExportAbortsAfterHeader(t *testing.T) {
	t.Parallel()
	var logged lockedLog
	a := &API{Resolver: &resolvers.Resolver{Now: time.Now}, Problems: Problems{Log: slog.New(slog.NewTextHandler(&logged, nil))}}
	rows := iter.Seq2[*export.Customer, error](func(yield func(*export.Customer, error) bool) {
		for i := 0; i < export.FlushEvery+1; i++ {
			if !yield(&export.Customer{ID: "cus_1", Email: "ada@example.com"}, nil) {
				return
			}
		}
		yield(nil, errors.New("page 2: connection reset"))
	})
	srv := httptest.NewServer(Recover(a.Problems)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = streamCSV(a, w, r, "customers", export.CustomerColumns, rows)
	})))
	defer srv.Close()

	resp, err := srv.Client().Get(srv.URL)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	body, err := io.ReadAll(resp.Body)
	require.ErrorIs(t, err, io.ErrUnexpectedEOF, "the download is visibly cut")
	require.Contains(t, string(body), "id,email,orders_count", "the header and the rows before the failure arrived")
	require.Contains(t, logged.String(), "export aborted after its header was sent")
	require.Contains(t, logged.String(), "page 2: connection reset")
}

// lockedLog is a log sink the server's goroutine writes while the test reads.
type lockedLog struct {
	mu sync.Mutex
	b  []byte
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b = append(l.b, p...)
	return len(p), nil
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.b)
}
