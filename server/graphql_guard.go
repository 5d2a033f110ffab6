package server

import (
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"

	"commerce/problem"
	"commerce/rest"
)

// What an anonymous request can make the service do is bounded before the
// document is validated: gqlparser's validation compares the fields of one
// response name pairwise (OverlappingFieldsCanBeMerged), so its cost grows
// with the square of the repeats (measured on a development machine: 500
// repeats of __typename 43 ms, 2,000 0.8 s, 10,000 21 s), and the depth,
// cost and budget limits apply only after it.
//
//   - maxGraphQLBody: a JSON request body (uploads keep their own limits).
//   - maxTokens: the parser stops at the 5,001st token.
//   - maxSelections: fields and fragment spreads in the document, each
//     fragment's counted every time it is spread (so fragments spread in
//     fragments cannot multiply them).
//   - maxFieldRepeats: fields with one response path (a.b.c, aliases
//     included, across fragments), the pairs validation compares.
//   - maxSetSpreads: named fragment spreads in one selection set.
//     OverlappingFieldsCanBeMerged compares the fragments spread in a set
//     pairwise, so n spreads in one set cost O(n²) (measured: 400 spreads
//     of distinct fragments allocate 88 MB and take 0.3 s to validate);
//     with at most maxSetSpreads per set, validation is linear in the
//     document (server/linear_test.go). The console spreads one or two.
const (
	maxGraphQLBody  = 1 << 20
	maxTokens       = 5000
	maxSelections   = 1000
	maxFieldRepeats = 50
	maxSetSpreads   = 16
)

// graphQLBodyLimit refuses a JSON GraphQL request whose body is over
// maxGraphQLBody, before it is parsed: 413 with invalid_request and
// max_bytes, as a GraphQL response. Multipart uploads pass (their parts
// have limits of their own: graphql_upload.go); any other Content-Type is
// invalid_request.
func graphQLBodyLimit(ps rest.Problems) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
			switch {
			case r.Header.Get("Upgrade") != "" || mt == "multipart/form-data":
				next.ServeHTTP(w, r)
				return
			case mt != "application/json":
				// gqlgen would answer "transport not supported" without a code.
				p := problem.New(problem.InvalidRequest, "Content-Type must be application/json (multipart/form-data for uploads).")
				p.Param = "Content-Type"
				writeGraphQLError(w, r, ps, http.StatusBadRequest, p)
				return
			}
			tooLarge := r.ContentLength > maxGraphQLBody
			if !tooLarge {
				body, over, err := rest.ReadBody(r, maxGraphQLBody)
				if err != nil {
					writeGraphQLError(w, r, ps, http.StatusBadRequest, problem.New(problem.InvalidRequest, "The request body could not be read."))
					return
				}
				tooLarge = over
				if !tooLarge {
					// Variables and extensions nest at most 32 levels
					// (CONTRACT §1), checked before gqlgen decodes them; a
					// large body is decoded and run in its turn
					// (rest.AdmitJSON).
					if err := rest.CheckJSONDepth(body, "The request body"); err != nil {
						writeGraphQLError(w, r, ps, http.StatusBadRequest, problem.From(err))
						return
					}
					release, err := rest.AdmitJSON(r.Context(), len(body))
					if err != nil {
						p := problem.From(err)
						writeGraphQLError(w, r, ps, p.Status(), p)
						return
					}
					defer release()
				}
				rest.BufferBody(r, body)
			}
			if tooLarge {
				p := problem.Newf(problem.InvalidRequest, "The request body is larger than %d bytes (1 MiB); upload files with a multipart request.", maxGraphQLBody).
					With("max_bytes", maxGraphQLBody)
				// The connection is closed rather than drained.
				w.Header().Set("Connection", "close")
				writeGraphQLError(w, r, ps, http.StatusRequestEntityTooLarge, p)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// writeGraphQLError answers with a GraphQL response holding the one error p
// (and p's headers).
func writeGraphQLError(w http.ResponseWriter, r *http.Request, ps rest.Problems, status int, p *problem.Problem) {
	for k, vs := range p.Header { // Retry-After, as a problem document carries it
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	ext := ps.Body(r.Context(), p)
	ext["status"] = status
	b, _ := json.Marshal(map[string]any{"errors": []any{map[string]any{"message": p.Detail, "extensions": ext}}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// documentLimits refuses, before validation, a document over maxTokens,
// maxSelections or maxFieldRepeats (MutateOperationParameters runs before gqlgen
// parses and validates). A document in the query cache passed them when it
// was added and is not looked at again. Other parse errors are left to
// gqlgen, which reports them as before.
type documentLimits struct {
	cache graphql.Cache[*ast.QueryDocument]
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationParameterMutator
} = documentLimits{}

func (documentLimits) ExtensionName() string                   { return "DocumentLimits" }
func (documentLimits) Validate(graphql.ExecutableSchema) error { return nil }

func (d documentLimits) MutateOperationParameters(ctx context.Context, p *graphql.RawParams) *gqlerror.Error {
	if d.cache != nil {
		if _, ok := d.cache.Get(ctx, p.Query); ok {
			return nil
		}
	}
	return checkDocument(p.Query)
}

// checkDocument parses query with the token limit and counts its fields.
func checkDocument(query string) *gqlerror.Error {
	doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: query}, maxTokens)
	if err != nil {
		if gerr, ok := err.(*gqlerror.Error); ok && gerr.Message == fmt.Sprintf("exceeded token limit of %d", maxTokens) {
			return refusal(errcode.ParseFailed,
				fmt.Sprintf("The document has more than %d tokens (names, punctuation, values); send a smaller one.", maxTokens),
				"max_tokens", maxTokens)
		}
		return nil // gqlgen parses it again and reports the error
	}
	c := fieldCounter{frags: doc.Fragments, paths: map[string]int{}}
	for _, op := range doc.Operations {
		c.walk(op.SelectionSet, "", 0)
	}
	// Fragments are validated on their own too, used or not.
	for _, f := range doc.Fragments {
		c.walk(f.SelectionSet, "fragment "+f.Name+":", 0)
	}
	switch {
	case c.selections > maxSelections:
		return refusal(errcode.ValidationFailed,
			fmt.Sprintf("The document has more than %d selections (fields and fragment spreads, a fragment's counted each time it is spread).", maxSelections),
			"max_selections", maxSelections)
	case c.repeats > maxFieldRepeats:
		return refusal(errcode.ValidationFailed,
			fmt.Sprintf("The field %s is selected %d times at one place; the limit is %d.", c.repeated, c.repeats, maxFieldRepeats),
			"max_field_repeats", maxFieldRepeats)
	case c.setSpreads > maxSetSpreads:
		return refusal(errcode.ValidationFailed,
			fmt.Sprintf("A selection set spreads %d named fragments; the limit is %d.", c.setSpreads, maxSetSpreads),
			"max_fragment_spreads", maxSetSpreads)
	}
	return nil
}

// refusal is a document refusal: invalid_request in the presenter, with
// gqlgen's code (so the HTTP status is gqlgen's for parse and validation
// failures) and the member naming the limit.
func refusal(gqlCode, msg, member string, limit int) *gqlerror.Error {
	return &gqlerror.Error{Message: msg, Extensions: map[string]any{"code": gqlCode, member: limit}}
}

// fieldCounter counts the fields of a document, fragments expanded where
// they are spread, and the fields of each response path; it stops counting
// once over maxSelections.
type fieldCounter struct {
	frags ast.FragmentDefinitionList
	// selections counts fields and fragment spreads (a spread of a
	// fragment that only spreads others must count too).
	selections int
	paths      map[string]int
	repeats    int
	repeated   string
	// setSpreads is the most named fragment spreads in one selection set.
	setSpreads int
}

func (c *fieldCounter) walk(set ast.SelectionSet, path string, nesting int) {
	if nesting > maxFragmentNesting { // fragment cycles: validation reports them
		return
	}
	spreads := 0
	for _, sel := range set {
		if _, ok := sel.(*ast.FragmentSpread); ok {
			spreads++
		}
	}
	c.setSpreads = max(c.setSpreads, spreads)
	for _, sel := range set {
		if c.selections > maxSelections {
			return
		}
		c.selections++
		switch s := sel.(type) {
		case *ast.Field:
			name := s.Alias
			if name == "" {
				name = s.Name
			}
			p := path + name
			n := c.paths[p] + 1
			c.paths[p] = n
			if n > c.repeats {
				c.repeats, c.repeated = n, p
			}
			c.walk(s.SelectionSet, p+".", nesting)
		case *ast.InlineFragment:
			c.walk(s.SelectionSet, path, nesting+1)
		case *ast.FragmentSpread:
			if f := c.frags.ForName(s.Name); f != nil {
				c.walk(f.SelectionSet, path, nesting+1)
			}
		}
	}
}
