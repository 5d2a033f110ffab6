package server

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
)

// The developer console (CONTRACT §15): the single-page application's built
// files (package console, embedded) served at the path of CONSOLE_URL.
//
//   - Files under assets/ carry a content hash in their names (Vite's
//     output): cached for a year, immutable.
//   - index.html, and every other file, is revalidated on each use
//     (no-cache, with an ETag), so a new build is seen at once.
//   - A path without a dot in its last segment that names no file is one of
//     the application's routes (/console/orders/ord_…): index.html answers,
//     and the application's router takes over. A missing file (a dot in the
//     name) is a 404.
//   - Every response carries a strict Content-Security-Policy: this host
//     only, no inline script, images also from data: and blob: (previews of
//     uploads), connections to this host's http and websocket origins.
//   - Text files are sent gzipped to clients that accept it; HEAD and
//     conditional requests work (http.ServeContent).

// defaultConsolePath is where the console is served when CONSOLE_URL names
// no path.
const defaultConsolePath = "/console"

// consolePath is the path the console is served at: CONSOLE_URL's, without
// a trailing slash.
func consolePath(consoleURL string) string {
	u, err := url.Parse(consoleURL)
	if err != nil {
		return defaultConsolePath
	}
	p := strings.TrimRight(u.Path, "/")
	if p == "" {
		return defaultConsolePath
	}
	return p
}

// mountConsole serves files at prefix (GET and HEAD), redirecting prefix
// itself to prefix + "/".
func mountConsole(r chi.Router, prefix string, files fs.FS, notFound http.Handler) {
	h := consoleHandler(prefix, files, notFound)
	redirect := func(w http.ResponseWriter, req *http.Request) {
		target := prefix + "/"
		if req.URL.RawQuery != "" {
			target += "?" + req.URL.RawQuery
		}
		http.Redirect(w, req, target, http.StatusMovedPermanently)
	}
	r.Get(prefix, redirect)
	r.Head(prefix, redirect)
	r.Get(prefix+"/*", h)
	r.Head(prefix+"/*", h)
}

// consoleFile is one file of the build, read once.
type consoleFile struct {
	contentType string
	data, gz    []byte // gz is nil when compressing does not pay
	etag, gzTag string
}

// compressible are the types worth gzipping.
var compressible = map[string]bool{".html": true, ".js": true, ".mjs": true, ".css": true, ".json": true,
	".svg": true, ".txt": true, ".map": true, ".webmanifest": true, ".xml": true}

// consoleTypes fixes the types whose system mime tables vary.
var consoleTypes = map[string]string{
	".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".mjs": "text/javascript; charset=utf-8",
	".css": "text/css; charset=utf-8", ".json": "application/json", ".map": "application/json",
	".svg": "image/svg+xml", ".webmanifest": "application/manifest+json", ".woff2": "font/woff2", ".woff": "font/woff",
	".png": "image/png", ".ico": "image/x-icon", ".txt": "text/plain; charset=utf-8", ".wasm": "application/wasm",
}

func consoleContentType(name string) string {
	ext := strings.ToLower(path.Ext(name))
	if ct, ok := consoleTypes[ext]; ok {
		return ct
	}
	if ct := mime.TypeByExtension(ext); ct != "" {
		return ct
	}
	return "application/octet-stream"
}

// consoleHandler serves files (the console's build) below prefix.
func consoleHandler(prefix string, files fs.FS, notFound http.Handler) http.HandlerFunc {
	var cache sync.Map // name → *consoleFile
	load := func(name string) (*consoleFile, bool) {
		if f, ok := cache.Load(name); ok {
			return f.(*consoleFile), true
		}
		st, err := fs.Stat(files, name)
		if err != nil || st.IsDir() {
			return nil, false
		}
		data, err := fs.ReadFile(files, name)
		if err != nil {
			return nil, false
		}
		sum := sha256.Sum256(data)
		tag := hex.EncodeToString(sum[:16])
		f := &consoleFile{contentType: consoleContentType(name), data: data, etag: `"` + tag + `"`, gzTag: `"` + tag + `-gzip"`}
		if compressible[strings.ToLower(path.Ext(name))] && len(data) > 512 {
			var gz bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
			_, _ = zw.Write(data)
			if zw.Close() == nil && gz.Len() < len(data) {
				f.gz = gz.Bytes()
			}
		}
		v, _ := cache.LoadOrStore(name, f)
		return v.(*consoleFile), true
	}
	return func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, prefix+"/")
		if name == "" || strings.HasSuffix(name, "/") {
			name = "index.html" // the root, or a route with a trailing slash
		}
		if !fs.ValidPath(name) {
			notFound.ServeHTTP(w, r)
			return
		}
		f, ok := load(name)
		if !ok {
			// An application route (no dot in the last segment) gets the
			// application; a missing file is a 404.
			if strings.Contains(path.Base(name), ".") && name != "index.html" {
				notFound.ServeHTTP(w, r)
				return
			}
			name = "index.html"
			if f, ok = load(name); !ok {
				notFound.ServeHTTP(w, r)
				return
			}
		}
		h := w.Header()
		h.Set("Content-Security-Policy", consoleCSP(r.Host))
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("Content-Type", f.contentType)
		if strings.HasPrefix(name, "assets/") {
			h.Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			h.Set("Cache-Control", "no-cache")
		}
		body, etag := f.data, f.etag
		if f.gz != nil {
			h.Add("Vary", "Accept-Encoding")
			if acceptsGzip(r.Header.Get("Accept-Encoding")) {
				body, etag = f.gz, f.gzTag
				h.Set("Content-Encoding", "gzip")
			}
		}
		h.Set("ETag", etag)
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
	}
}

// consoleCSP is the console's Content-Security-Policy: everything from this
// host only, no inline script or style, images also from data: and blob:,
// fetch and websocket connections to this host.
func consoleCSP(host string) string {
	connect := "'self'"
	if hostPattern.MatchString(host) {
		connect += " ws://" + host + " wss://" + host
	}
	return "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; font-src 'self'; " +
		"connect-src " + connect + "; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
}
