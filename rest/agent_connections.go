package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"commerce/graph/model"
)

// The seller's agent connections (CONTRACT §25): GET, POST
// /v1/agent-connections, GET, PATCH, DELETE /v1/agent-connections/{id}.

func (a *API) listAgentConnections(w http.ResponseWriter, r *http.Request) error {
	lp, err := listParams(r)
	if err != nil {
		return err
	}
	out, err := a.Resolver.AgentConnections(r.Context(), lp.Limit, lp.Cursor)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) createAgentConnection(w http.ResponseWriter, r *http.Request) error {
	var in model.CreateAgentConnectionInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	out, err := a.Resolver.CreateAgentConnection(r.Context(), in)
	if err != nil {
		return err
	}
	// The token and the webhook secret are in this response only.
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusCreated, out)
	return nil
}

func (a *API) getAgentConnection(w http.ResponseWriter, r *http.Request) error {
	out, err := a.Resolver.AgentConnection(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) updateAgentConnection(w http.ResponseWriter, r *http.Request) error {
	var in model.UpdateAgentConnectionInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	out, err := a.Resolver.UpdateAgentConnection(r.Context(), chi.URLParam(r, "id"), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) deleteAgentConnection(w http.ResponseWriter, r *http.Request) error {
	if _, err := a.Resolver.DeleteAgentConnection(r.Context(), chi.URLParam(r, "id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
