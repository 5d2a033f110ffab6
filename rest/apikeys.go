package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"commerce/graph/model"
)

func (a *API) listAPIKeys(w http.ResponseWriter, r *http.Request) error {
	lp, err := listParams(r)
	if err != nil {
		return err
	}
	out, err := a.Resolver.APIKeys(r.Context(), lp.Limit, lp.Cursor)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) createAPIKey(w http.ResponseWriter, r *http.Request) error {
	var in model.CreateAPIKeyInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	out, err := a.Resolver.CreateAPIKey(r.Context(), in)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusCreated, out)
	return nil
}

func (a *API) deleteAPIKey(w http.ResponseWriter, r *http.Request) error {
	if _, err := a.Resolver.DeleteAPIKey(r.Context(), chi.URLParam(r, "id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *API) selfRevoke(w http.ResponseWriter, r *http.Request) error {
	if err := a.Resolver.SelfRevoke(r.Context()); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
