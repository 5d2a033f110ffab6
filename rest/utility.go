package rest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"commerce/docs"
	"commerce/graph/model"
	"commerce/problem"
)

func (a *API) ping(w http.ResponseWriter, r *http.Request) error {
	out, err := a.Resolver.Ping(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) plans(w http.ResponseWriter, r *http.Request) error {
	ps, err := a.Resolver.Plans(r.Context())
	if err != nil {
		return err
	}
	body, err := json.Marshal(&model.PlanList{Object: "list", Data: ps})
	if err != nil {
		return err
	}
	body = append(body, '\n')
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", "public, max-age=3600")
	if match := r.Header.Get("If-None-Match"); match != "" && etagMatches(match, etag) {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
	return nil
}

// etagMatches implements If-None-Match's weak comparison over a list.
func etagMatches(header, etag string) bool {
	for _, part := range strings.Split(header, ",") {
		part = strings.TrimSpace(part)
		if part == "*" || part == etag || part == "W/"+etag {
			return true
		}
	}
	return false
}

func (a *API) openAPI(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Content-Type", "application/yaml")
	w.Header().Set("Cache-Control", "public, max-age=300")
	_, _ = w.Write(docs.OpenAPIFor(a.Resolver.BaseURL))
	return nil
}

// listParams reads limit and cursor from the query. Errors: validation_error (limit).
func listParams(r *http.Request) (model.ListParams, error) {
	var lp model.ListParams
	q := r.URL.Query()
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return lp, problem.Validation("limit", "limit must be an integer between 1 and 100")
		}
		lp.Limit = &n
	}
	if q.Has("cursor") {
		c := q.Get("cursor")
		lp.Cursor = &c
	}
	return lp, nil
}
