package rest

import (
	"fmt"
	"iter"
	"net/http"

	"commerce/export"
	"commerce/problem"
	"commerce/resolvers"
)

// The CSV exports (CONTRACT §23): the resolvers read the rows page by page;
// this file writes them as they come.

func (a *API) exportOrders(w http.ResponseWriter, r *http.Request) error {
	f, err := orderFilter(r)
	if err != nil {
		return err
	}
	rows, err := a.Resolver.OrderExport(r.Context(), f)
	if err != nil {
		return err
	}
	return streamCSV(a, w, r, "orders", export.OrderColumns, rows)
}

func (a *API) exportCustomers(w http.ResponseWriter, r *http.Request) error {
	f, err := customerFilter(r)
	if err != nil {
		return err
	}
	rows, err := a.Resolver.CustomerExport(r.Context(), f)
	if err != nil {
		return err
	}
	return streamCSV(a, w, r, "customers", export.CustomerColumns, rows)
}

// streamCSV writes rows as a CSV download named name-YYYY-MM-DD.csv, the
// header first, flushing as it goes. Once the header is sent the status
// cannot change: an error reading a later page is logged and the
// connection aborted (http.ErrAbortHandler), so the client sees a
// truncated download (no final chunk), never a complete-looking file.
func streamCSV[T interface{ Record() []string }](a *API, w http.ResponseWriter, r *http.Request, name string, columns []string, rows iter.Seq2[T, error]) error {
	h := w.Header()
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-%s.csv"`, name, a.Resolver.Now().UTC().Format("2006-01-02")))
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return nil
	}
	rc := http.NewResponseController(w)
	cw := export.NewWriter(w, func() { _ = rc.Flush() })
	if err := cw.Header(columns); err != nil {
		return nil // the client went away
	}
	n := 0
	for row, err := range rows {
		if err != nil {
			if r.Context().Err() != nil {
				return nil // the client went away mid-page
			}
			a.Problems.Log.ErrorContext(r.Context(), "export aborted after its header was sent", "export", name, "rows", n,
				"error", err, "correlation_id", CorrelationID(r.Context()))
			panic(http.ErrAbortHandler)
		}
		if err := cw.Write(row.Record()); err != nil {
			return nil // the client went away
		}
		n++
	}
	_ = cw.Flush()
	return nil
}

// requireCaller refuses a request that neither a key nor the console's
// session authenticated (Session routes). Problems: authentication_error.
func requireCaller(ps Problems) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if _, ok := resolvers.PrincipalFrom(r.Context()); !ok {
				ps.Write(w, r, problem.New(problem.AuthenticationError, "Send your API key as Authorization: Bearer svc_…, or sign in to the console."))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}
