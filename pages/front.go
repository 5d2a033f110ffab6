package pages

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

// FrontRoutes registers the landing page, GET and HEAD {base_url}/
// (CONTRACT §10): links to the developer console, the API reference, the
// GraphQL IDE and, in sandbox mode, the sandbox mailbox.
func (s *Site) FrontRoutes(r chi.Router) {
	r.Get("/", s.landing)
	r.Head("/", s.landing)
}

func (s *Site) landing(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-cache")
	s.render(w, r, http.StatusOK, "landing.html", s.Resolver.FrontDoor())
}
