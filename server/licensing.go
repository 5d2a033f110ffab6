package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"time"

	"commerce/rest"
)

// jwksMaxAge is how long a client or cache may keep the key set. A new key
// signs within seconds of `commerce licenses rotate-key`, so an app that
// meets an unknown kid fetches the set again; a minute bounds how long a
// cached set can lack the new key.
const jwksMaxAge = "public, max-age=60"

// jwks is GET /.well-known/jwks.json: the public keys that verify license
// tokens (CONTRACT §20), for any origin. The document comes from the
// resolver's cache of the keys (read at most every few seconds), so an
// anonymous request costs no query; ETag and If-None-Match (http.ServeContent)
// spare the body.
func (s *Server) jwks(ps rest.Problems) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		doc, err := s.Resolver.LicenseJWKS(req.Context())
		if err != nil {
			ps.Write(w, req, err)
			return
		}
		sum := sha256.Sum256(doc)
		h := w.Header()
		h.Set("Content-Type", "application/jwk-set+json")
		h.Set("Cache-Control", jwksMaxAge)
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("ETag", `"`+hex.EncodeToString(sum[:8])+`"`)
		http.ServeContent(w, req, "", time.Time{}, bytes.NewReader(doc))
	}
}
