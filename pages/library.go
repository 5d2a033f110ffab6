package pages

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"

	"github.com/go-chi/chi/v5"

	"commerce/problem"
	"commerce/resolvers"
)

// The buyer's library (CONTRACT §21): the email form, the sign-in link,
// the commerce_buyer session cookie, the library itself (every store, or
// one), the Deactivate button of its license keys, and Sign out. The rules
// live in resolvers/library.go.

// BuyerCookie is the name of the buyer session's cookie, apart from the
// console's commerce_session.
const BuyerCookie = "commerce_buyer"

// libraryRoutes registers the library's pages.
func (s *Site) libraryRoutes(r chi.Router) {
	r.Get("/library", s.library)
	r.Post("/library/sign-in", s.librarySignIn)
	r.Get("/library/auth/{token}", s.libraryAuth)
	r.Post("/library/sign-out", s.librarySignOut)
	r.Post("/library/licenses/{license_key_id}/deactivate", s.libraryDeactivate)
	r.Get("/s/{slug}/library", s.storeLibrary)
}

// buyerCookie is the session cookie with value, living maxAge seconds
// (negative: delete it now); Secure when the service is served over https.
func (s *Site) buyerCookie(value string, maxAge int) *http.Cookie {
	u, _ := url.Parse(s.Resolver.BaseURL)
	return &http.Cookie{Name: BuyerCookie, Value: value, Path: "/", MaxAge: maxAge,
		HttpOnly: true, Secure: u != nil && u.Scheme == "https", SameSite: http.SameSiteLaxMode}
}

// buyerSession is the request's live buyer session (nil when signed out)
// and the cookie's value.
func (s *Site) buyerSession(r *http.Request) (*resolvers.BuyerSession, string, error) {
	ck, err := r.Cookie(BuyerCookie)
	if err != nil || ck.Value == "" {
		return nil, "", nil
	}
	sess, err := s.Resolver.BuyerSessionOf(r.Context(), ck.Value)
	return sess, ck.Value, err
}

// libraryFormData is the email form.
type libraryFormData struct {
	Title     string
	Notice    string
	Email     string
	Error     string
	StoreName string
	StoreSlug string
}

// libraryData is the signed-in library page.
type libraryData struct {
	*resolvers.LibraryPage
	Title string
	// Scoped: a portal link's session, which shows one store.
	Scoped bool
	Nonce  string
}

// HasKeys: some purchase shows a license key (the page then carries the
// Copy buttons' script).
func (d libraryData) HasKeys() bool {
	for _, g := range d.Groups {
		for _, o := range g.Orders {
			if len(o.LicenseKeys) > 0 {
				return true
			}
		}
	}
	return false
}

func (s *Site) library(w http.ResponseWriter, r *http.Request) {
	s.showLibrary(w, r, "")
}

func (s *Site) storeLibrary(w http.ResponseWriter, r *http.Request) {
	s.showLibrary(w, r, chi.URLParam(r, "slug"))
}

// showLibrary renders the library of the request's session (one store's
// with a slug), or the email form when signed out.
func (s *Site) showLibrary(w http.ResponseWriter, r *http.Request, slug string) {
	sess, _, err := s.buyerSession(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	q := r.URL.Query()
	if sess == nil {
		form := libraryFormData{Title: "Your purchases"}
		if q.Get("signed_out") == "1" {
			form.Notice = "You are signed out."
		}
		if slug != "" {
			ref, err := s.Resolver.LibraryStoreBySlug(r.Context(), slug)
			if err != nil {
				s.fail(w, r, err)
				return
			}
			form.Title, form.StoreName, form.StoreSlug = "Your purchases from "+ref.Name, ref.Name, ref.Slug
		}
		s.render(w, r, http.StatusOK, "library_form.html", form)
		return
	}
	p, err := s.Resolver.Library(r.Context(), sess, slug, q.Get("after"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if p.Elsewhere != nil {
		// A portal link's session, on another store's library page.
		s.render(w, r, http.StatusOK, "library_form.html", libraryFormData{
			Title:     "Your purchases from " + p.Elsewhere.Name,
			Notice:    "You are signed in to your purchases from " + p.Store.Name + " only. To see your purchases from " + p.Elsewhere.Name + ", sign in with your email.",
			Email:     sess.Email,
			StoreName: p.Elsewhere.Name, StoreSlug: p.Elsewhere.Slug,
		})
		return
	}
	p.Freed = q.Get("freed") == "1"
	if id := q.Get("membership"); id != "" {
		p.Announce(id, q.Get("done"))
	}
	d := libraryData{LibraryPage: p, Title: "Your purchases", Scoped: sess.AccountID != nil, Nonce: nonce()}
	if p.Store != nil {
		d.Title = "Your purchases from " + p.Store.Name
	}
	h := w.Header()
	// The page links download pages, whose URLs are the buyer's secret.
	h.Set("Referrer-Policy", "no-referrer")
	// form-action allows https: as the product page's does: Update payment
	// method posts here and is redirected to the processor's page.
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' https: data:; connect-src 'self'; form-action 'self' https:; base-uri 'none'; frame-ancestors 'none'; script-src 'nonce-"+d.Nonce+"'")
	s.render(w, r, http.StatusOK, "library.html", d)
}

// librarySignIn takes the email form: the same "check your inbox" page
// for every well-formed email (the resolver mails a link only when it has
// orders, and at most 5 an hour); the form again for a malformed one
// (422); 429 past 20 requests an hour from the client's address.
func (s *Site) librarySignIn(w http.ResponseWriter, r *http.Request) {
	if !s.readForm(w, r, 4<<10, "Sign-in requests are accepted from this site's library page only.") {
		return
	}
	email, store := r.PostForm.Get("email"), r.PostForm.Get("store")
	err := s.Resolver.RequestLibrarySignIn(r.Context(), email, store)
	p := problem.From(err)
	switch {
	case err == nil:
		s.render(w, r, http.StatusOK, "library_sent.html", nil)
	case p != nil && p.Code == problem.ValidationError:
		form := libraryFormData{Title: "Your purchases", Error: p.Detail}
		if len(email) <= 254 {
			form.Email = email
		}
		if ref, err := s.Resolver.LibraryStoreBySlug(r.Context(), store); err == nil {
			form.Title, form.StoreName, form.StoreSlug = "Your purchases from "+ref.Name, ref.Name, ref.Slug
		}
		s.render(w, r, http.StatusUnprocessableEntity, "library_form.html", form)
	case p != nil && p.Code == problem.RateLimited:
		retry, _ := p.Ext["retry_after"].(int)
		w.Header().Set("Retry-After", strconv.Itoa(max(retry, 1)))
		s.render(w, r, http.StatusTooManyRequests, "message.html", map[string]any{"Title": "Too many requests",
			"Message": "Too many sign-in requests from your connection. Try again in about " + minutes(retry) + ".",
			"Status":  http.StatusTooManyRequests})
	default:
		s.fail(w, r, err)
	}
}

// minutes writes a wait in whole minutes.
func minutes(seconds int) string {
	if m := (seconds + 59) / 60; m > 1 {
		return strconv.Itoa(m) + " minutes"
	}
	return "1 minute"
}

// libraryAuth opens a sign-in link: the cookie, and 303 to the library. A
// used or expired link shows the form with its email (410), an unknown
// one the form (404). A HEAD uses nothing up.
func (s *Site) libraryAuth(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Referrer-Policy", "no-referrer")
	if r.Method == http.MethodHead {
		// A HEAD (a link preview, a mail scanner) answers as the GET would
		// (303, 404 or 410) and uses nothing up.
		err := s.Resolver.PeekLibrarySignIn(r.Context(), chi.URLParam(r, "token"))
		var refused *resolvers.SignInRefused
		w.Header().Set("Cache-Control", "no-store")
		switch {
		case errors.As(err, &refused) && refused.Reason == "invalid":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusNotFound)
		case errors.As(err, &refused):
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusGone)
		case err != nil:
			s.fail(w, r, err)
		default:
			w.Header().Set("Location", "/library")
			w.WriteHeader(http.StatusSeeOther)
		}
		return
	}
	signed, err := s.Resolver.OpenLibrarySignIn(r.Context(), chi.URLParam(r, "token"))
	var refused *resolvers.SignInRefused
	if errors.As(err, &refused) {
		form := libraryFormData{Title: "Your purchases", Email: refused.Email}
		status := http.StatusGone
		switch refused.Reason {
		case "used":
			form.Notice = "This sign-in link was already used. Ask for a new one below."
		case "expired":
			form.Notice = "This sign-in link expired: links work for 15 minutes. Ask for a new one below."
		default:
			form.Notice, status = "This sign-in link is not valid. Ask for a new one below.", http.StatusNotFound
		}
		s.render(w, r, status, "library_form.html", form)
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	http.SetCookie(w, s.buyerCookie(signed.Token, int(resolvers.BuyerSessionLife.Seconds())))
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, signed.ReturnPath, http.StatusSeeOther)
}

// librarySignOut ends the session and clears the cookie.
func (s *Site) librarySignOut(w http.ResponseWriter, r *http.Request) {
	if !s.sameOrigin(r) {
		s.fail(w, r, problem.New(problem.PermissionDenied, "Sign out from this site's library page."))
		return
	}
	if ck, err := r.Cookie(BuyerCookie); err == nil {
		if err := s.Resolver.SignOutBuyer(r.Context(), ck.Value); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	http.SetCookie(w, s.buyerCookie("", -1))
	http.Redirect(w, r, "/library?signed_out=1", http.StatusSeeOther)
}

// libraryDeactivate takes a Deactivate button of the library's license
// keys: the device is freed through the one deactivation, and the buyer
// goes back to the page (303, with a word that it worked). Signed out: to
// the form. A key of an order the session does not own: 404.
func (s *Site) libraryDeactivate(w http.ResponseWriter, r *http.Request) {
	if !s.readForm(w, r, 4<<10, "Devices are deactivated from this site's library page only.") {
		return
	}
	sess, _, err := s.buyerSession(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if sess == nil {
		http.Redirect(w, r, "/library", http.StatusSeeOther)
		return
	}
	keyID := chi.URLParam(r, "license_key_id")
	if err := s.Resolver.DeactivateFromLibrary(r.Context(), sess, keyID, r.PostForm.Get("activation_id")); err != nil {
		s.fail(w, r, err)
		return
	}
	back := "/library"
	if ref, err := s.Resolver.LibraryStoreBySlug(r.Context(), r.URL.Query().Get("store")); err == nil {
		back = "/s/" + ref.Slug + "/library"
	}
	w.Header().Set("Referrer-Policy", "no-referrer")
	http.Redirect(w, r, back+"?freed=1#"+keyID, http.StatusSeeOther)
}
