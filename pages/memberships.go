package pages

import (
	"net/http"
	"net/url"

	"github.com/go-chi/chi/v5"

	"commerce/membership"
	"commerce/problem"
	"commerce/processor"
	"commerce/resolvers"
)

// The buyer's memberships (CONTRACT §26): Cancel (a confirmation step,
// then the post), Resume and Update payment method from the library, and
// the sandbox's payment-method page. Every action needs the library's
// session of the membership's email (of its store, for a portal link's
// session): another membership is 404. The rules live in
// resolvers/library_memberships.go.

// membershipRoutes registers the membership pages.
func (s *Site) membershipRoutes(r chi.Router) {
	r.Get("/library/memberships/{id}/cancel", s.membershipCancelPage)
	r.Post("/library/memberships/{id}/cancel", s.membershipCancel)
	r.Post("/library/memberships/{id}/resume", s.membershipResume)
	r.Post("/library/memberships/{id}/payment-method", s.membershipPaymentMethod)
	r.Get("/sandbox/memberships/{id}/payment-method", s.sandboxPaymentMethod)
	r.Post("/sandbox/memberships/{id}/payment-method", s.sandboxPaymentMethodSubmit)
}

// libraryBack is the library view the buyer acts from: one store's when
// the action's ?store= names a live store, else /library.
func (s *Site) libraryBack(r *http.Request) string {
	if ref, err := s.Resolver.LibraryStoreBySlug(r.Context(), r.URL.Query().Get("store")); err == nil {
		return "/s/" + ref.Slug + "/library"
	}
	return "/library"
}

// announce is the library view back with a notice on membership id
// (done: membership.Done…), scrolled to it.
func announce(back, id, done string) string {
	return back + "?" + url.Values{"membership": {id}, "done": {done}}.Encode() + "#" + id
}

// signedInBuyer is the request's buyer session; signed out, the buyer is
// sent to the library's email form (303) and nil is returned.
func (s *Site) signedInBuyer(w http.ResponseWriter, r *http.Request) *resolvers.BuyerSession {
	sess, _, err := s.buyerSession(r)
	if err != nil {
		s.fail(w, r, err)
		return nil
	}
	if sess == nil {
		http.Redirect(w, r, "/library", http.StatusSeeOther)
	}
	return sess
}

// membershipPage is a membership page: the cancel step or the sandbox's
// payment-method page.
type membershipPage struct {
	*resolvers.MembershipAction
	// Back is the library view to return to; Action where the form posts.
	Back   string
	Action string
	Error  string
}

// membershipCancelPage is the Cancel button's confirmation step: what
// canceling does (its end date, or at once when past due), a Cancel
// membership button and a way back.
func (s *Site) membershipCancelPage(w http.ResponseWriter, r *http.Request) {
	sess := s.signedInBuyer(w, r)
	if sess == nil {
		return
	}
	a, err := s.Resolver.MembershipCancelPage(r.Context(), sess, chi.URLParam(r, "id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Referrer-Policy", "no-referrer")
	s.render(w, r, http.StatusOK, "membership_cancel.html", membershipPage{MembershipAction: a, Back: s.libraryBack(r),
		Action: r.URL.RequestURI()})
}

// membershipCancel takes the confirmation step's post: the membership
// is canceled at its period's end (a past-due one ends now), and the
// buyer goes back to the library with a notice (303).
func (s *Site) membershipCancel(w http.ResponseWriter, r *http.Request) {
	if !s.readForm(w, r, 4<<10, "Memberships are canceled from this site's library only.") {
		return
	}
	sess := s.signedInBuyer(w, r)
	if sess == nil {
		return
	}
	id := chi.URLParam(r, "id")
	if _, err := s.Resolver.CancelMembershipFromLibrary(r.Context(), sess, id); err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Referrer-Policy", "no-referrer")
	http.Redirect(w, r, announce(s.libraryBack(r), id, membership.DoneCanceled), http.StatusSeeOther)
}

// membershipResume takes the Resume button: the cancel is undone before
// the period ends, and the buyer goes back to the library (303).
func (s *Site) membershipResume(w http.ResponseWriter, r *http.Request) {
	if !s.readForm(w, r, 4<<10, "Memberships are resumed from this site's library only.") {
		return
	}
	sess := s.signedInBuyer(w, r)
	if sess == nil {
		return
	}
	id := chi.URLParam(r, "id")
	if _, err := s.Resolver.ResumeMembershipFromLibrary(r.Context(), sess, id); err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Referrer-Policy", "no-referrer")
	http.Redirect(w, r, announce(s.libraryBack(r), id, membership.DoneResumed), http.StatusSeeOther)
}

// membershipPaymentMethod takes the Update payment method button: 303 to
// the processor's page for it (the sandbox's, or Stripe's customer
// portal, which returns the buyer to the library).
func (s *Site) membershipPaymentMethod(w http.ResponseWriter, r *http.Request) {
	if !s.readForm(w, r, 4<<10, "Payment methods are updated from this site's library only.") {
		return
	}
	sess := s.signedInBuyer(w, r)
	if sess == nil {
		return
	}
	id := chi.URLParam(r, "id")
	to, err := s.Resolver.MembershipPaymentMethodURL(r.Context(), sess, id, s.libraryBack(r)+"#"+id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Referrer-Policy", "no-referrer")
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// sandboxPaymentMethod is the sandbox's payment-method page of a
// membership (sandbox only): the card on file, a choice of a card that
// pays or one that is declined, and for a past-due membership when the
// new card is charged. Signed out, it is the library's email form.
func (s *Site) sandboxPaymentMethod(w http.ResponseWriter, r *http.Request) {
	s.showSandboxPaymentMethod(w, r, http.StatusOK, "")
}

func (s *Site) showSandboxPaymentMethod(w http.ResponseWriter, r *http.Request, status int, formError string) {
	sess, _, err := s.buyerSession(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if sess == nil {
		if s.Resolver.Processor.Name() != processor.Sandbox {
			s.fail(w, r, problem.NotFoundf("No sandbox here."))
			return
		}
		s.render(w, r, http.StatusOK, "library_form.html", libraryFormData{Title: "Your purchases",
			Notice: "Sign in to update the payment method of your membership: we will email you a link."})
		return
	}
	a, err := s.Resolver.SandboxPaymentMethodPage(r.Context(), sess, chi.URLParam(r, "id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Referrer-Policy", "no-referrer")
	s.render(w, r, status, "sandbox_payment_method.html", membershipPage{MembershipAction: a, Back: "/library#" + a.ID,
		Action: r.URL.Path, Error: formError})
}

// sandboxPaymentMethodSubmit saves the chosen sandbox card and sends the
// buyer back to the library with a notice (303); no choice re-renders
// the page (422); outside the sandbox, 404.
func (s *Site) sandboxPaymentMethodSubmit(w http.ResponseWriter, r *http.Request) {
	if s.Resolver.Processor.Name() != processor.Sandbox {
		s.fail(w, r, problem.NotFoundf("No sandbox here."))
		return
	}
	if !s.readForm(w, r, 4<<10, "Payment methods are saved from this site's pages only.") {
		return
	}
	sess := s.signedInBuyer(w, r)
	if sess == nil {
		return
	}
	id := chi.URLParam(r, "id")
	_, err := s.Resolver.SaveSandboxPaymentMethod(r.Context(), sess, id, r.PostForm.Get("card"))
	if p := problem.From(err); p != nil && p.Code == problem.ValidationError {
		s.showSandboxPaymentMethod(w, r, http.StatusUnprocessableEntity, p.Detail)
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, announce("/library", id, membership.DonePaymentMethod), http.StatusSeeOther)
}
