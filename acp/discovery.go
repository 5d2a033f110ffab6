package acp

import (
	"net/http"

	"commerce/currency"
	"commerce/rest"
)

// The discovery document (rfc.discovery.md; CONTRACT §25): public, cached
// an hour, the same for every seller (no seller identifier appears).

type discoveryDoc struct {
	Protocol     discoveryProtocol     `json:"protocol"`
	APIBaseURL   string                `json:"api_base_url"`
	Transports   []string              `json:"transports"`
	Capabilities discoveryCapabilities `json:"capabilities"`
}

type discoveryProtocol struct {
	Name              string   `json:"name"`
	Version           string   `json:"version"`
	SupportedVersions []string `json:"supported_versions"`
	DocumentationURL  string   `json:"documentation_url"`
}

type discoveryCapabilities struct {
	Services            []string             `json:"services"`
	Extensions          []discoveryExtension `json:"extensions"`
	SupportedCurrencies []string             `json:"supported_currencies"`
}

type discoveryExtension struct {
	Name string `json:"name"`
	Spec string `json:"spec,omitempty"`
}

// discovery is GET /.well-known/acp.json, counted in the public group per
// client IP (the document is public; rfc.discovery.md §6 asks for a limit).
func (h *Handler) discovery(w http.ResponseWriter, r *http.Request) {
	if h.Charge != nil {
		res, err := h.Charge(r.Context(), "public", rest.IPSubject(r.Context()))
		if res != nil {
			rest.SetLimitHeaders(w, res)
		}
		if err != nil {
			writeErr(w, r, fromErr(err, nil))
			return
		}
	}
	cur := make([]string, 0, len(currency.All))
	for _, c := range currency.All {
		cur = append(cur, c.Code)
	}
	doc := discoveryDoc{
		Protocol: discoveryProtocol{Name: "acp", Version: Version, SupportedVersions: SupportedVersions,
			DocumentationURL: h.BaseURL + "/docs/acp"},
		APIBaseURL: h.BaseURL + "/acp",
		Transports: []string{"rest", "mcp"},
		Capabilities: discoveryCapabilities{
			Services:            []string{"checkout"},
			Extensions:          []discoveryExtension{{Name: discountExtension.Name, Spec: discountExtension.Spec}},
			SupportedCurrencies: cur,
		},
	}
	w.Header().Set("Cache-Control", "public, max-age=3600")
	writeJSON(w, http.StatusOK, doc)
}
