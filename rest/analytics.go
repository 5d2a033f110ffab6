package rest

import (
	"net/http"
)

// The seller's sales over time (CONTRACT §23): group analytics.

func (a *API) getAnalytics(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	out, err := a.Resolver.Analytics(r.Context(), q.Get("from"), q.Get("to"), q.Get("interval"), strParam(r, "listing"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}
