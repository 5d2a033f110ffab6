package pages

import (
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"commerce/currency"
	"commerce/problem"
	"commerce/resolvers"
)

// Site serves the server-rendered pages that call resolvers: the public
// store page, the processor onboarding redirect, and the sandbox processor's
// pages.
type Site struct {
	Resolver *resolvers.Resolver
	Log      *slog.Logger
	// Problems renders an error as a problem document (RFC 9457), for the
	// sandbox's JSON routes; nil renders it as a page.
	Problems func(http.ResponseWriter, *http.Request, error)
}

// Routes registers the pages on r.
func (s *Site) Routes(r chi.Router) {
	r.Get("/s/{slug}", s.store)
	r.Get("/media/*", s.media)
	r.Get("/processor/onboarding/{token}", s.onboardingRedirect)
	r.Get("/sandbox/onboarding/{token}", s.sandboxOnboarding)
	r.Post("/sandbox/onboarding/{token}", s.sandboxOnboardingSubmit)
	r.Get("/sandbox/mail", s.sandboxMail)
	r.Get("/p/{slug}", s.product)
	r.Post("/p/{slug}/checkout", s.checkout)
	r.Get("/p/{slug}/thank-you", s.thankYou)
	r.Get("/d/{token}", s.download)
	r.Post("/d/{token}/review", s.review)
	s.libraryRoutes(r)
	s.membershipRoutes(r)
	r.Post("/d/{token}/licenses/{license_key_id}/deactivate", s.deactivateDevice)
	r.Get("/d/{token}/{deliverable_id}", s.downloadItem)
	r.Get("/files/*", s.file)
	r.Get("/sandbox/checkout/{session_id}", s.sandboxCheckout)
	r.Post("/sandbox/checkout/{session_id}", s.sandboxCheckoutSubmit)
	r.Post("/sandbox/orders/{order_id}/dispute", s.sandboxDispute)
	r.Post("/sandbox/memberships/{id}/advance", s.sandboxAdvance)
	r.Get("/sandbox/billing/{token}", s.sandboxBilling)
	r.Post("/sandbox/billing/{token}", s.sandboxBillingSubmit)
	r.Post("/sandbox/accounts/{account_id}/billing", s.sandboxAccountBilling)
	r.Get("/sandbox/mail/{id}", s.sandboxMessage)
}

// render writes a page with the service's security headers.
func (s *Site) render(w http.ResponseWriter, r *http.Request, status int, name string, data any) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	if h.Get("Content-Security-Policy") == "" {
		h.Set("Content-Security-Policy", "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' https: data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
	}
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	if h.Get("Cache-Control") == "" {
		h.Set("Cache-Control", "no-store")
	}
	w.WriteHeader(status)
	if err := templates.ExecuteTemplate(w, name, data); err != nil {
		s.Log.ErrorContext(r.Context(), "render page", "page", name, "error", err)
	}
}

// fail renders a problem as a page: its status and detail, never internals.
func (s *Site) fail(w http.ResponseWriter, r *http.Request, err error) {
	p := problem.From(err)
	if p == nil { // not a problem (a timeout, a database failure): logged, shown as internal_error
		p = problem.Internal()
	}
	if p.Code == problem.InternalError {
		s.Log.ErrorContext(r.Context(), "page failed", "path", r.URL.Path, "error", err)
	}
	s.render(w, r, p.Status(), "message.html", map[string]any{
		"Title": p.Code.Title(), "Message": p.Detail, "Status": p.Status(),
	})
}

func (s *Site) store(w http.ResponseWriter, r *http.Request) {
	st, err := s.Resolver.StoreBySlug(r.Context(), chi.URLParam(r, "slug"), r.URL.Query().Get("after"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	st.CarryCode(r.URL.Query().Get("code"))
	w.Header().Set("Cache-Control", "public, max-age=60")
	s.render(w, r, http.StatusOK, "store.html", st)
}

// media serves public content (covers, avatars) from storage. Keys are
// random and never reused, so responses are cacheable for a long time.
func (s *Site) media(w http.ResponseWriter, r *http.Request) {
	rc, attrs, err := s.Resolver.Media(r.Context(), chi.URLParam(r, "*"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	defer rc.Close()
	h := w.Header()
	h.Set("Content-Type", attrs.ContentType)
	h.Set("Content-Length", strconv.FormatInt(attrs.Size, 10))
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	if _, err := io.Copy(w, rc); err != nil {
		s.Log.WarnContext(r.Context(), "media copy", "path", r.URL.Path, "error", err)
	}
}

func (s *Site) onboardingRedirect(w http.ResponseWriter, r *http.Request) {
	u, err := s.Resolver.OnboardingRedirect(r.Context(), chi.URLParam(r, "token"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, u, http.StatusSeeOther)
}

type onboardingPage struct {
	*resolvers.SandboxOnboarding
	Currencies []currency.Currency
	Error      string
}

func (s *Site) sandboxOnboarding(w http.ResponseWriter, r *http.Request) {
	o, err := s.Resolver.SandboxOnboardingPage(r.Context(), chi.URLParam(r, "token"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "sandbox_onboarding.html", onboardingPage{SandboxOnboarding: o, Currencies: currency.All})
}

// sandboxOnboardingSubmit completes onboarding with the chosen currency and
// sends the seller to the console's processor page, as the processor's
// return URL does; a bad currency re-renders the form.
func (s *Site) sandboxOnboardingSubmit(w http.ResponseWriter, r *http.Request) {
	token := chi.URLParam(r, "token")
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		s.fail(w, r, problem.New(problem.InvalidRequest, "The form could not be read."))
		return
	}
	err := s.Resolver.CompleteSandboxOnboarding(r.Context(), token, r.PostForm.Get("currency"))
	var p *problem.Problem
	if errors.As(err, &p) && p.Code == problem.ValidationError {
		o, perr := s.Resolver.SandboxOnboardingPage(r.Context(), token)
		if perr != nil {
			s.fail(w, r, perr)
			return
		}
		s.render(w, r, http.StatusUnprocessableEntity, "sandbox_onboarding.html",
			onboardingPage{SandboxOnboarding: o, Currencies: currency.All, Error: p.Detail})
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, s.Resolver.OnboardingReturnURL(), http.StatusSeeOther)
}

func (s *Site) sandboxMail(w http.ResponseWriter, r *http.Request) {
	msgs, err := s.Resolver.SandboxMailbox(r.Context(), 100)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "sandbox_mail.html", msgs)
}

func (s *Site) sandboxMessage(w http.ResponseWriter, r *http.Request) {
	m, err := s.Resolver.SandboxMessage(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "sandbox_message.html", m)
}
