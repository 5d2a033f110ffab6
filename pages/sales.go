package pages

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"

	"github.com/go-chi/chi/v5"

	"commerce/problem"
	"commerce/resolvers"
)

// The buyer's pages: product page and checkout post, thank-you page,
// download pages, and the sandbox processor's checkout and dispute.

// nonce is a fresh CSP nonce for the analytics snippet.
func nonce() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return base64.StdEncoding.EncodeToString(b[:])
}

// analyticsCSP allows the analytics tag (by nonce) on pages that may carry it.
func analyticsCSP(n string) string {
	return "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' https: data:; form-action 'self' https:; base-uri 'none'; frame-ancestors 'none'; " +
		"script-src 'nonce-" + n + "' https://www.googletagmanager.com; connect-src 'self' https://*.google-analytics.com https://*.analytics.google.com https://www.googletagmanager.com"
}

type productData struct {
	*resolvers.ProductPage
	Nonce string
	// Notice tells a buyer sent back by the checkout what happened.
	Notice string
	Errors map[string]string
	Values url.Values
}

// fieldValue is a form value for re-rendering.
func (d productData) Value(name string) string {
	if d.Values == nil {
		return ""
	}
	return d.Values.Get(name)
}

// product renders the product page. Opened with ?code= (a discount's
// share_url), the code is in the form's field and applied: the page shows
// the discounted amount or, at the field, why the code is refused, and
// answers 200 either way (429 past the buyer's code tries). A HEAD applies
// nothing, so it counts no try.
func (s *Site) product(w http.ResponseWriter, r *http.Request) {
	slug := chi.URLParam(r, "slug")
	code := r.URL.Query().Get("code")
	if code == "" || r.Method == http.MethodHead {
		p, err := s.Resolver.ProductPageBySlug(r.Context(), slug)
		s.renderProduct(w, r, p, err, nil, nil)
		return
	}
	// A shared link opens the page whatever the code: 200 unless the
	// buyer's tries ran out.
	s.applyCode(w, r, slug, url.Values{"discount_code": {code}}, http.StatusOK)
}

func (s *Site) renderProduct(w http.ResponseWriter, r *http.Request, p *resolvers.ProductPage, err error, errs map[string]string, values url.Values) {
	s.renderProductStatus(w, r, p, err, errs, values, http.StatusUnprocessableEntity)
}

// renderProductStatus renders the product page; with form errors it
// answers errStatus (422, or 429 for too many free orders).
func (s *Site) renderProductStatus(w http.ResponseWriter, r *http.Request, p *resolvers.ProductPage, err error, errs map[string]string, values url.Values, errStatus int) {
	status := http.StatusOK
	switch {
	case errors.Is(err, resolvers.ErrGone):
		status = http.StatusGone
		if p == nil {
			s.gone(w, r, "This product is no longer available.")
			return
		}
		p.Available = false
	case err != nil:
		s.fail(w, r, err)
		return
	}
	if len(errs) > 0 {
		status = errStatus
	}
	if r.Method == http.MethodGet && status == http.StatusOK {
		s.Resolver.RecordView(r.Context(), p.ListingID, r.UserAgent()) // a view (CONTRACT §23): a GET that shows the page
	}
	n := nonce()
	w.Header().Set("Content-Security-Policy", analyticsCSP(n))
	s.render(w, r, status, "product.html", productData{ProductPage: p, Nonce: n, Errors: errs, Values: values,
		Notice: resolvers.CheckoutNotice(r.URL.Query().Get("checkout"))})
}

// sameOrigin refuses cross-site form posts (CSRF): a present Origin, or else
// Referer, must be the service's own.
func (s *Site) sameOrigin(r *http.Request) bool {
	base, err := url.Parse(s.Resolver.BaseURL)
	if err != nil {
		return false
	}
	for _, h := range []string{r.Header.Get("Origin"), r.Header.Get("Referer")} {
		if h == "" || h == "null" {
			continue
		}
		u, err := url.Parse(h)
		return err == nil && u.Scheme == base.Scheme && u.Host == base.Host
	}
	return true // neither header: not a browser's cross-site post
}

// readForm reads a page's form post: refused with refusal (403) when it
// comes from another site, and 400 when the form, at most limit bytes,
// cannot be read. It reports whether the handler may go on.
func (s *Site) readForm(w http.ResponseWriter, r *http.Request, limit int64, refusal string) bool {
	if !s.sameOrigin(r) {
		s.fail(w, r, problem.New(problem.PermissionDenied, refusal))
		return false
	}
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	if err := r.ParseForm(); err != nil {
		s.fail(w, r, problem.New(problem.InvalidRequest, "The form could not be read."))
		return false
	}
	return true
}

func (s *Site) checkout(w http.ResponseWriter, r *http.Request) {
	if !s.readForm(w, r, 64<<10, "Checkout forms are accepted from the product page only.") {
		return
	}
	slug := chi.URLParam(r, "slug")
	if r.PostForm.Has("apply") {
		s.applyCode(w, r, slug, r.PostForm, 0)
		return
	}
	out, err := s.Resolver.StartCheckout(r.Context(), slug, r.PostForm)
	if err != nil {
		p, perr := s.Resolver.ProductPageBySlug(r.Context(), slug)
		if perr != nil {
			s.renderProduct(w, r, p, perr, nil, nil)
			return
		}
		s.fail(w, r, err)
		return
	}
	if len(out.Errors) > 0 {
		if out.RetryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(out.RetryAfter))
		}
		p, perr := s.Resolver.ProductPageBySlug(r.Context(), slug)
		if p != nil {
			p.Apply(out.Applied)
		}
		s.renderProductStatus(w, r, p, perr, out.Errors, out.Values, out.Status)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, out.RedirectURL, http.StatusSeeOther)
}

// applyCode answers the form's Apply button (a second submit button,
// named apply, posting the same form): the page again with the code
// applied or refused at its field (422; 429 past the buyer's code tries),
// every other field as typed, and no checkout started. An empty code
// removes it (200). A non-zero refusedStatus answers in place of the
// refusal's own status (a ?code= link opens with 200); running out of
// tries is 429 either way.
func (s *Site) applyCode(w http.ResponseWriter, r *http.Request, slug string, form url.Values, refusedStatus int) {
	p, out, err := s.Resolver.ApplyCode(r.Context(), slug, form)
	if err != nil || out == nil {
		s.renderProduct(w, r, p, err, nil, nil)
		return
	}
	status := out.Status
	if status == http.StatusTooManyRequests {
		w.Header().Set("Retry-After", strconv.Itoa(out.RetryAfter))
	} else if refusedStatus != 0 {
		status = refusedStatus
	}
	s.renderProductStatus(w, r, p, nil, out.Errors, out.Values, status)
}

type thankYouData struct {
	*resolvers.ThankYouPage
	Nonce string
}

func (s *Site) thankYou(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	p, err := s.Resolver.ThankYou(r.Context(), chi.URLParam(r, "slug"), q.Get("order"), q.Get("token"), r.Method != http.MethodHead)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	n := nonce()
	w.Header().Set("Content-Security-Policy", analyticsCSP(n))
	s.render(w, r, http.StatusOK, "thank_you.html", thankYouData{ThankYouPage: p, Nonce: n})
}

func (s *Site) gone(w http.ResponseWriter, r *http.Request, msg string) {
	s.render(w, r, http.StatusGone, "message.html", map[string]any{"Title": "Gone", "Message": msg, "Status": http.StatusGone})
}

// goneText is what a 410 of err says: a membership's end says when, why
// and how to buy it again (resolvers.MembershipEndedError); anything else
// says def.
func goneText(err error, def string) string {
	var ended *resolvers.MembershipEndedError
	if errors.As(err, &ended) {
		return ended.Message
	}
	return def
}

// downloadData is the download page with the nonce of its script (the
// license keys' Copy button).
type downloadData struct {
	*resolvers.DownloadPage
	Nonce string
}

// renderDownload renders a download page: no referrer (its URL is the
// buyer's secret), and a script only by its nonce.
func (s *Site) renderDownload(w http.ResponseWriter, r *http.Request, status int, p *resolvers.DownloadPage) {
	n := nonce()
	h := w.Header()
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' https: data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'; script-src 'nonce-"+n+"'")
	s.render(w, r, status, "download.html", downloadData{DownloadPage: p, Nonce: n})
}

func (s *Site) download(w http.ResponseWriter, r *http.Request) {
	p, err := s.Resolver.Download(r.Context(), chi.URLParam(r, "token"))
	if errors.Is(err, resolvers.ErrGone) {
		s.gone(w, r, goneText(err, "This download link no longer works: the purchase was refunded or its payment was reversed."))
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p.Freed = r.URL.Query().Get("freed") == "1"
	s.renderDownload(w, r, http.StatusOK, p)
}

// review takes the download page's review form: a review stored sends the
// buyer back to the page (303); a refused one re-renders it with its
// errors (422), nothing stored.
func (s *Site) review(w http.ResponseWriter, r *http.Request) {
	if !s.readForm(w, r, 64<<10, "Reviews are accepted from the download page only.") {
		return
	}
	token := chi.URLParam(r, "token")
	p, err := s.Resolver.SubmitReview(r.Context(), token, r.PostForm.Get("rating"), r.PostForm.Get("text"))
	if errors.Is(err, resolvers.ErrGone) {
		s.gone(w, r, goneText(err, "This download link no longer works: the purchase was refunded or its payment was reversed."))
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if len(p.Review.Errors) > 0 {
		s.renderDownload(w, r, http.StatusUnprocessableEntity, p)
		return
	}
	w.Header().Set("Referrer-Policy", "no-referrer")
	http.Redirect(w, r, "/d/"+token+"#review", http.StatusSeeOther)
}

func (s *Site) downloadItem(w http.ResponseWriter, r *http.Request) {
	c, err := s.Resolver.DownloadDeliverable(r.Context(), chi.URLParam(r, "token"), chi.URLParam(r, "deliverable_id"),
		resolvers.DownloadRequest{Head: r.Method == http.MethodHead, Range: r.Header.Get("Range")})
	if errors.Is(err, resolvers.ErrGone) {
		s.gone(w, r, goneText(err, "This content is no longer available."))
		return
	}
	if s.accessClosed(w, r, err) {
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Cache-Control", "private, no-store")
	h.Set("Referrer-Policy", "no-referrer")
	switch {
	case c.Type == "file" && c.URL != "": // a signed link (CONTRACT §21)
		http.Redirect(w, r, c.URL, http.StatusSeeOther)
		return
	}
	switch c.Type {
	case "url":
		http.Redirect(w, r, c.URL, http.StatusFound)
	case "text":
		s.render(w, r, http.StatusOK, "text_deliverable.html", c)
	default:
		defer c.Body.Close()
		h.Set("Content-Type", c.MimeType)
		h.Set("Content-Length", strconv.FormatInt(c.Size, 10))
		h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": c.Name}))
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
		if _, err := io.Copy(w, c.Body); err != nil {
			s.Log.WarnContext(r.Context(), "download copy", "error", err)
		}
	}
}

func (s *Site) sandboxCheckout(w http.ResponseWriter, r *http.Request) {
	p, err := s.Resolver.SandboxCheckoutPage(r.Context(), chi.URLParam(r, "session_id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "sandbox_checkout.html", p)
}

func (s *Site) sandboxCheckoutSubmit(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
	if err := r.ParseForm(); err != nil {
		s.fail(w, r, problem.New(problem.InvalidRequest, "The form could not be read."))
		return
	}
	sid := chi.URLParam(r, "session_id")
	to, err := s.Resolver.CompleteSandboxCheckout(r.Context(), sid, r.PostForm.Get("outcome"), r.PostForm.Get("email"))
	if p := problem.From(err); p != nil && p.Code == problem.ValidationError && p.Param == "email" {
		// The checkout's email field again, with its error.
		page, perr := s.Resolver.SandboxCheckoutPage(r.Context(), sid)
		if perr != nil {
			s.fail(w, r, perr)
			return
		}
		page.EmailError = p.Detail
		s.render(w, r, http.StatusUnprocessableEntity, "sandbox_checkout.html", page)
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
}

func (s *Site) sandboxDispute(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
	if err := r.ParseForm(); err != nil {
		s.fail(w, r, problem.New(problem.InvalidRequest, "The form could not be read."))
		return
	}
	if err := s.Resolver.SandboxDispute(r.Context(), chi.URLParam(r, "order_id"), r.PostForm.Get("outcome")); err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = fmt.Fprintf(w, `{"ok":true}`+"\n")
}

// deactivateDevice takes a Deactivate button of the download page's
// license keys: the device is freed and the buyer goes back to the page
// (303, with a word that it worked); refused from another site (403), for
// a device that is not the key's (404), on a revoked link (410).
func (s *Site) deactivateDevice(w http.ResponseWriter, r *http.Request) {
	if !s.readForm(w, r, 4<<10, "Devices are deactivated from the download page only.") {
		return
	}
	token, keyID := chi.URLParam(r, "token"), chi.URLParam(r, "license_key_id")
	err := s.Resolver.DeactivateFromDownload(r.Context(), token, keyID, r.PostForm.Get("activation_id"))
	if errors.Is(err, resolvers.ErrGone) {
		s.gone(w, r, goneText(err, "This download link no longer works: the purchase was refunded or its payment was reversed."))
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Referrer-Policy", "no-referrer")
	http.Redirect(w, r, "/d/"+token+"?freed=1#"+keyID, http.StatusSeeOther)
}
