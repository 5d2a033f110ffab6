package pages

import (
	"errors"
	"mime"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"commerce/access"
	"commerce/storage"
)

// Access limits on the buyer's pages (CONTRACT §21): a closed deliverable's
// 410 page, and the file store's signed links.

// accessClosed renders the 410 page of a deliverable closed by its access
// limits, saying why; false when err is not that.
func (s *Site) accessClosed(w http.ResponseWriter, r *http.Request, err error) bool {
	var ce *access.ClosedError
	if !errors.As(err, &ce) {
		return false
	}
	w.Header().Set("Referrer-Policy", "no-referrer")
	s.render(w, r, http.StatusGone, "message.html", map[string]any{"Title": "This file is closed", "Message": ce.Error(), "Status": http.StatusGone})
	return true
}

// file serves a signed link of the file store (storage.SignedLink):
// a tampered link is 403 and an expired one 410, before any byte is read;
// a good one streams the file as an attachment under its name, with
// ranges, so a download can resume while the link lives.
func (s *Site) file(w http.ResponseWriter, r *http.Request) {
	st := s.Resolver.Storage
	key := chi.URLParam(r, "*")
	w.Header().Set("Referrer-Policy", "no-referrer")
	switch err := st.VerifyLink(key, r.URL.Query(), s.Resolver.Now()); {
	case errors.Is(err, storage.ErrLinkExpired):
		s.render(w, r, http.StatusGone, "message.html", map[string]any{"Title": "Link expired",
			"Message": "This download link has expired: links work for 5 minutes. Open the file again from your download page.", "Status": http.StatusGone})
		return
	case err != nil:
		s.render(w, r, http.StatusForbidden, "message.html", map[string]any{"Title": "Link not valid",
			"Message": "This download link is not valid. Open the file again from your download page.", "Status": http.StatusForbidden})
		return
	}
	f, err := st.OpenSeeker(r.Context(), key)
	if errors.Is(err, storage.ErrNotExist) {
		s.gone(w, r, "This content is no longer available.")
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	defer f.Close()
	h := w.Header()
	h.Set("Content-Type", f.ContentType())
	disposition := mime.FormatMediaType("attachment", map[string]string{"filename": r.URL.Query().Get("name")})
	if disposition == "" {
		disposition = "attachment"
	}
	h.Set("Content-Disposition", disposition)
	h.Set("Cache-Control", "private, no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	http.ServeContent(w, r, "", time.Time{}, f)
}
