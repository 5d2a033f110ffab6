// Package docs embeds the service's API documents.
package docs

import _ "embed"

// OpenAPI is the OpenAPI 3.0.3 description of every route.
//
//go:embed openapi.yaml
var OpenAPI []byte
