package pages

import (
	"encoding/json"
	"mime"
	"net/http"

	"github.com/go-chi/chi/v5"

	"commerce/problem"
)

// sandboxAdvance is POST /sandbox/memberships/{id}/advance (CONTRACT §26,
// sandbox only): a JSON body {"outcome": "paid"|"failed"} or a form post
// with outcome moves the membership to its next due moment and runs that
// step (resolvers.AdvanceSandboxMembership); it answers 200 with the
// membership, and refusals as problem documents (404 outside the sandbox).
func (s *Site) sandboxAdvance(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
	var outcome string
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct == "application/json" {
		var in struct {
			Outcome string `json:"outcome"`
		}
		dec := json.NewDecoder(r.Body)
		dec.DisallowUnknownFields()
		if err := dec.Decode(&in); err != nil {
			s.problem(w, r, problem.New(problem.InvalidRequest, `The body must be JSON such as {"outcome": "paid"}.`))
			return
		}
		outcome = in.Outcome
	} else {
		if err := r.ParseForm(); err != nil {
			s.problem(w, r, problem.New(problem.InvalidRequest, "The form could not be read."))
			return
		}
		outcome = r.PostForm.Get("outcome")
	}
	m, err := s.Resolver.AdvanceSandboxMembership(r.Context(), chi.URLParam(r, "id"), outcome)
	if err != nil {
		s.problem(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(m)
}

// problem answers err as a problem document when the service gave the
// site its renderer (Problems), else as a page.
func (s *Site) problem(w http.ResponseWriter, r *http.Request, err error) {
	if s.Problems != nil {
		s.Problems(w, r, err)
		return
	}
	s.fail(w, r, err)
}
