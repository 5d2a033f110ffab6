package resolvers

import (
	"encoding/base64"
	"strings"

	"commerce/db"
	"commerce/graph/model"
	"commerce/problem"
)

const (
	defaultLimit = 20
	maxLimit     = 100
	cursorTag    = "c1:"
)

// page is a validated limit and the id the next page starts after.
type page struct {
	limit int
	after string // "" for the first page
}

// parsePage validates limit (1..100, default 20) and a cursor the service
// issued for ids of the given prefix. Errors: validation_error (limit, cursor).
func parsePage(limit *int, cursor *string, idPrefix string) (page, error) {
	p := page{limit: defaultLimit}
	if limit != nil {
		if *limit < 1 || *limit > maxLimit {
			return p, problem.Validation("limit", "limit must be between 1 and 100")
		}
		p.limit = *limit
	}
	if cursor != nil && *cursor != "" {
		raw, err := base64.RawURLEncoding.DecodeString(*cursor)
		id, ok := strings.CutPrefix(string(raw), cursorTag)
		if err != nil || !ok || !db.ValidID(idPrefix, id) {
			return p, problem.Validation("cursor", "cursor is not one this service issued; pass next_cursor from a previous page")
		}
		p.after = id
	}
	return p, nil
}

// encodeCursor returns the opaque cursor of the page after id.
func encodeCursor(id string) *string {
	s := base64.RawURLEncoding.EncodeToString([]byte(cursorTag + id))
	return &s
}

// trim cuts a fetched slice of limit+1 rows to the page and reports whether
// there are more, with the cursor of the next page.
func trim[T any](rows []T, limit int, id func(T) string) ([]T, bool, *string) {
	if len(rows) <= limit {
		return rows, false, nil
	}
	rows = rows[:limit]
	return rows, true, encodeCursor(id(rows[len(rows)-1]))
}

// connection builds a page's Relay edges and its PageInfo: edge makes one
// edge from a node and its cursor; after is the cursor the page was fetched
// after (nil or "" for the first page) and more whether a page follows.
// startCursor and endCursor are the first and last edge's cursors.
func connection[N, E any](nodes []N, cursor func(N) string, edge func(string, N) E, after *string, more bool) ([]E, *model.PageInfo) {
	edges := make([]E, len(nodes))
	pi := &model.PageInfo{HasNextPage: more, HasPreviousPage: after != nil && *after != ""}
	for i, n := range nodes {
		c := cursor(n)
		edges[i] = edge(c, n)
		if i == 0 {
			pi.StartCursor = &c
		}
		if i == len(nodes)-1 {
			pi.EndCursor = &c
		}
	}
	return edges, pi
}

// idCursor is the cursor of the page after the item with this id.
func idCursor(id string) string { return *encodeCursor(id) }
