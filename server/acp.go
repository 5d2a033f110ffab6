package server

import (
	"github.com/go-chi/chi/v5"

	"commerce/acp"
	"commerce/processor"
	"commerce/rest"
)

// acpRoutes mounts the Agentic Commerce Protocol's routes (package acp) on
// the resolver's use cases: the agent connections' tokens and the checkout
// sessions.
func (s *Server) acpRoutes(r chi.Router, api *rest.API) {
	// PENDING (acp-wire): until acp-conn and acp-core are merged the
	// resolver lacks the use cases; then this assertion becomes a plain
	// field (s.Resolver) and the routes are always mounted.
	backend, ok := any(s.Resolver).(acp.Backend)
	if !ok {
		return
	}
	h := &acp.Handler{Backend: backend, DB: s.DB, Log: s.Log, BaseURL: s.Config.BaseURL, Charge: api.Charge,
		Sandbox: s.Config.Processor != processor.Stripe, ServiceVersion: Version}
	h.Routes(r)
}
