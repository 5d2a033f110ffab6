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
	h := &acp.Handler{Backend: s.Resolver, DB: s.DB, Log: s.Log, BaseURL: s.Config.BaseURL, Charge: api.Charge,
		Sandbox: s.Config.Processor != processor.Stripe, ServiceVersion: Version}
	h.Routes(r)
}
