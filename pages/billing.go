package pages

import (
	"fmt"
	"net/http"

	"github.com/go-chi/chi/v5"

	"commerce/problem"
)

// The sandbox processor's billing pages (CONTRACT §16): the hosted
// subscription checkout and the operator hook that plays renewals.

func (s *Site) sandboxBilling(w http.ResponseWriter, r *http.Request) {
	p, err := s.Resolver.SandboxBillingPage(r.Context(), chi.URLParam(r, "token"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "sandbox_billing.html", p)
}

// sandboxBillingSubmit plays the checkout's outcome and sends the seller
// back to the console's billing page.
func (s *Site) sandboxBillingSubmit(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
	if err := r.ParseForm(); err != nil {
		s.fail(w, r, problem.New(problem.InvalidRequest, "The form could not be read."))
		return
	}
	to, err := s.Resolver.CompleteSandboxBilling(r.Context(), chi.URLParam(r, "token"), r.PostForm.Get("outcome"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// sandboxAccountBilling is the operator hook: outcome=renewal_failed,
// renewal_paid or grace_expired on an account's subscription.
func (s *Site) sandboxAccountBilling(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
	if err := r.ParseForm(); err != nil {
		s.fail(w, r, problem.New(problem.InvalidRequest, "The form could not be read."))
		return
	}
	if err := s.Resolver.SandboxBilling(r.Context(), chi.URLParam(r, "account_id"), r.PostForm.Get("outcome")); err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = fmt.Fprintf(w, `{"ok":true}`+"\n")
}
