package server

import (
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// graphiqlFiles is the GraphQL IDE: the page (index.html), its own script
// and style sheet (ide.js, ide.css), and in vendor/ the npm builds of
// GraphiQL, React, ReactDOM and graphql-ws that scripts/graphiql.sh (make
// graphiql) pins, verifies and extracts, with their licences and
// manifest.json. Nothing is loaded from another host.
//
//go:embed graphiql
var graphiqlFiles embed.FS

// ideAssets is where the IDE's scripts and style sheets are served, under
// /graphql; the page refers to them relative to its own URL.
const ideAssets = "graphql/assets/"

// ideAsset is one embedded script or style sheet.
type ideAsset struct {
	contentType string
	data, gz    []byte
	etag, gzTag string
}

// ide is an embedded page (the IDE, the API reference): its template and
// the assets it refers to (loadEmbeddedPage).
type ide struct {
	page *template.Template
	// urls maps a file under the page's directory to its URL: the assets
	// URL, then {first 16 hex digits of its SHA-256}/{base name}.
	urls map[string]string
	// assets maps "{hash}/{base name}" to the file.
	assets map[string]*ideAsset
}

var ideTypes = map[string]string{
	".js":  "text/javascript; charset=utf-8",
	".css": "text/css; charset=utf-8",
}

// loadIDE reads the embedded files once, on first use. Anything missing is
// a build defect, so it panics (the tests load it).
var loadIDE = sync.OnceValue(func() *ide { return loadEmbeddedPage(graphiqlFiles, "graphiql", ideAssets) })

// loadEmbeddedPage reads an embedded page: dir/index.html as a template, and
// every script and style sheet under dir, served content-addressed at
// assetsURL + "{first 16 hex digits of its SHA-256}/{base name}" (gzipped
// once, here). The IDE and the API reference are both such pages. Anything
// missing is a build defect, so it panics.
func loadEmbeddedPage(fsys embed.FS, dir, assetsURL string) *ide {
	d := &ide{urls: map[string]string{}, assets: map[string]*ideAsset{}}
	err := fs.WalkDir(fsys, dir, func(p string, e fs.DirEntry, err error) error {
		ct, ok := ideTypes[path.Ext(p)]
		if err != nil || e.IsDir() || !ok {
			return err
		}
		data, err := fsys.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		key := hex.EncodeToString(sum[:])[:16] + "/" + path.Base(p)
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		_, _ = zw.Write(data)
		if err := zw.Close(); err != nil {
			return err
		}
		tag := hex.EncodeToString(sum[:16])
		d.assets[key] = &ideAsset{contentType: ct, data: data, gz: gz.Bytes(), etag: `"` + tag + `"`, gzTag: `"` + tag + `-gzip"`}
		d.urls[strings.TrimPrefix(p, dir+"/")] = assetsURL + key
		return nil
	})
	if err != nil {
		panic(fmt.Sprintf("%s: embedded files: %v", dir, err))
	}
	d.page = template.Must(template.ParseFS(fsys, dir+"/index.html"))
	return d
}

// idePage is what an embedded page's index.html is rendered with (the
// IDE's; the API reference's embeds it).
type idePage struct {
	ide   *ide
	Nonce string
}

// URL is the URL of an embedded file (a path under the page's directory).
func (p idePage) URL(name string) (string, error) {
	u, ok := p.ide.urls[name]
	if !ok {
		return "", fmt.Errorf("no embedded asset %s", name)
	}
	return u, nil
}

// graphiQL serves the GraphQL IDE on GET /graphql: GraphiQL from the files
// embedded in the binary, so it works offline. The Content-Security-Policy
// admits this host only: its own scripts and style sheets, style elements
// GraphiQL injects (tagged with the page's nonce), data: fonts and images
// from GraphiQL's style sheet, and fetch and websocket connections to this
// host (subscriptions speak graphql-ws to /graphql).
func graphiQL() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d := loadIDE()
		nonce := make([]byte, 18)
		_, _ = rand.Read(nonce)
		p := idePage{ide: d, Nonce: base64.StdEncoding.EncodeToString(nonce)}
		var buf bytes.Buffer
		if err := d.page.Execute(&buf, p); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		connect := "'self'"
		if hostPattern.MatchString(r.Host) {
			// 'self' covers ws: and wss: in current browsers; older ones
			// need the websocket origins named.
			connect += " ws://" + r.Host + " wss://" + r.Host
		}
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self' 'nonce-"+p.Nonce+"'; "+
			"img-src 'self' data:; font-src 'self' data:; connect-src "+connect+"; "+
			"base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("Cache-Control", "no-store")
		h.Set("Content-Length", strconv.Itoa(buf.Len()))
		w.WriteHeader(http.StatusOK)
		if r.Method != http.MethodHead {
			_, _ = w.Write(buf.Bytes())
		}
	})
}

// hostPattern is a Host header safe to name in a CSP: a host name or
// address, optionally with a port.
var hostPattern = regexp.MustCompile(`^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$`)

// graphiQLAssets serves the IDE's embedded scripts and style sheets on
// GET /graphql/assets/{hash}/{name}. Anything else is passed to notFound.
func graphiQLAssets(notFound http.Handler) http.Handler {
	return embeddedAssets(loadIDE, "/"+ideAssets, notFound)
}

// embeddedAssets serves the assets of an embedded page (loadEmbeddedPage)
// under prefix. The hash is the content's, so a response never changes and
// is cached for a year; gzip when the client accepts it. Anything else is
// passed to notFound.
func embeddedAssets(load func() *ide, prefix string, notFound http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a, ok := load().assets[strings.TrimPrefix(r.URL.Path, prefix)]
		if !ok {
			notFound.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		h.Set("Content-Type", a.contentType)
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Add("Vary", "Accept-Encoding")
		body, etag := a.data, a.etag
		if acceptsGzip(r.Header.Get("Accept-Encoding")) {
			body, etag = a.gz, a.gzTag
			h.Set("Content-Encoding", "gzip")
		}
		h.Set("ETag", etag)
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
	})
}

// acceptsGzip reports whether an Accept-Encoding header admits gzip.
func acceptsGzip(header string) bool {
	for part := range strings.SplitSeq(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding != "gzip" && coding != "x-gzip" {
			continue
		}
		q, found := strings.CutPrefix(strings.TrimSpace(params), "q=")
		if !found {
			return true
		}
		v, err := strconv.ParseFloat(q, 64)
		return err == nil && v > 0
	}
	return false
}
