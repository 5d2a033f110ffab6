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

// pageInfo is the Relay paging state of a page of edges fetched after the
// cursor after (nil or "" for the first page).
func pageInfo[E any](edges []E, cursor func(E) string, after *string, more bool, next *string) *model.PageInfo {
	pi := &model.PageInfo{HasNextPage: more, EndCursor: next, HasPreviousPage: after != nil && *after != ""}
	if len(edges) > 0 {
		start, end := cursor(edges[0]), cursor(edges[len(edges)-1])
		pi.StartCursor, pi.EndCursor = &start, &end
	}
	return pi
}
