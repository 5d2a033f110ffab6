// Package console holds the developer console's built files for the binary
// to serve at CONSOLE_URL (server/console.go). The application's sources
// live beside this file (TypeScript, React, built by Vite); its build output
// in dist/ is committed, so `go build ./cmd/commerce` alone gives a working
// console, with no Node at build or run time.
package console

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Files is the built console: index.html at its root, content-hashed
// bundles under assets/.
var Files fs.FS = mustSub(dist, "dist")

func mustSub(f fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(f, dir)
	if err != nil {
		panic(err) // dist is embedded: a build defect
	}
	return sub
}
