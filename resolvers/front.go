package resolvers

import (
	"strings"

	"commerce/processor"
)

// FrontDoor is what the landing page at {base_url}/ links (CONTRACT §10):
// the developer console, the API reference, the GraphQL IDE, the OpenAPI
// document, and the sandbox mailbox when this configuration keeps mail.
type FrontDoor struct {
	// ConsoleURL is the developer console ({console_url}/).
	ConsoleURL string
	// APIReferenceURL is the HTML reference rendered from OpenAPIURL.
	APIReferenceURL string
	// OpenAPIURL is the REST facade's OpenAPI document.
	OpenAPIURL string
	// GraphQLURL is the GraphQL endpoint, whose GET is the IDE.
	GraphQLURL string
	// LicensesDocURL is the guide to license keys for a seller's developer.
	LicensesDocURL string
	// MembershipsDocURL is the seller's guide to memberships.
	MembershipsDocURL string
	// ACPDocURL is the guide to the Agentic Commerce Protocol (buyers' agents).
	ACPDocURL string
	// SandboxMailURL is the sandbox mailbox; empty unless PROCESSOR=sandbox
	// and no SMTP_URL.
	SandboxMailURL string
	// Sandbox reports the sandbox processor (no real payments).
	Sandbox bool
	// Version is the running version.
	Version string
}

// FrontDoor returns the landing page's links for this configuration.
func (r *Resolver) FrontDoor() FrontDoor {
	f := FrontDoor{
		ConsoleURL:        strings.TrimRight(r.ConsoleURL, "/") + "/",
		APIReferenceURL:   r.BaseURL + "/docs/api",
		OpenAPIURL:        r.BaseURL + "/v1/openapi.yaml",
		GraphQLURL:        r.BaseURL + "/graphql",
		LicensesDocURL:    r.BaseURL + "/docs/licenses",
		MembershipsDocURL: r.BaseURL + "/docs/memberships",
		ACPDocURL:         r.BaseURL + "/docs/acp",
		Sandbox:           r.Processor != nil && r.Processor.Name() == processor.Sandbox,
		Version:           r.Version,
	}
	if r.sandboxMailOn() {
		f.SandboxMailURL = r.BaseURL + "/sandbox/mail"
	}
	return f
}
