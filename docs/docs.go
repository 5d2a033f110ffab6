// Package docs embeds the service's API documents.
package docs

import (
	"bytes"
	_ "embed"
	"strconv"
)

// OpenAPI is the OpenAPI 3.0.3 description of every route, as written: its
// one server is the development address.
//
//go:embed openapi.yaml
var OpenAPI []byte

// devServer is the servers entry openapi.yaml is written with.
var devServer = []byte("\nservers:\n  - url: http://localhost:8080\n")

// OpenAPIFor is the document as a service at baseURL serves it: its servers
// entry is baseURL (BASE_URL), so clients generated from the served
// document call that service.
func OpenAPIFor(baseURL string) []byte {
	return bytes.Replace(OpenAPI, devServer, []byte("\nservers:\n  - url: "+strconv.Quote(baseURL)+"\n"), 1)
}

// Licenses is docs/licenses.md: license keys for the seller's developer,
// served at /docs/licenses (HTML) and /docs/licenses.md.
//
//go:embed licenses.md
var Licenses []byte

// Memberships is docs/memberships.md: the seller's guide to memberships,
// served at /docs/memberships (HTML) and /docs/memberships.md.
//
//go:embed memberships.md
var Memberships []byte

// ACP is docs/acp.md: selling to buyers' agents through the Agentic
// Commerce Protocol (agent-platform engineers and sellers), served at
// /docs/acp (HTML) and /docs/acp.md.
//
//go:embed acp.md
var ACP []byte

// LicenseClient is the Go client docs/licenses.md shows, served at
// /docs/examples/licenseclient/main.go (make test builds and runs it).
//
//go:embed examples/licenseclient/main.go
var LicenseClient []byte
