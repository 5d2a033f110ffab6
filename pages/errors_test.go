package pages

import (
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// An error that is not a problem (a timeout, a database failure) is a 500
// page that reveals nothing: never a panic.
func TestFailWithAPlainError(t *testing.T) {
	s := &Site{Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	rec := httptest.NewRecorder()
	s.fail(rec, httptest.NewRequest(http.MethodPost, "/p/x/checkout", nil), errors.New("pq: context deadline exceeded on 10.0.0.7"))
	if rec.Code != http.StatusInternalServerError {
		t.Fatalf("status %d, want 500", rec.Code)
	}
	if body := rec.Body.String(); strings.Contains(body, "10.0.0.7") || !strings.Contains(body, "<html") {
		t.Fatalf("the page reveals internals or is not a page: %s", body)
	}
}
