package pages

import "net/http"

// library is GET /library, the manage_url of a license key that has as
// many devices as it allows (CONTRACT §20): until the buyer's library with
// its sign-in (CONTRACT §21) is built, it tells the buyer where each
// purchase's page is and how to free a device there.
func (s *Site) library(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "public, max-age=300")
	s.render(w, r, http.StatusOK, "library.html", nil)
}
