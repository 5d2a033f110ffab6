package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"commerce/input"
	"commerce/problem"
	"commerce/rest"
)

// errorPresenter renders every GraphQL error as the problem REST would
// give: extensions hold the problem document's members (code, status,
// param, type, title, detail, correlation_id and the code's extension
// members), and the message is its detail.
//
//   - A resolver's problem is shown as it is.
//   - A request gqlgen refuses before running it (a body that is not JSON,
//     a document that does not parse or validate, the depth and complexity
//     limits) is invalid_request; gqlgen's own code is kept as graphql_code.
//   - A value that does not fit its argument (a variable, or a custom
//     scalar such as Time or Map that fails to read) is validation_error
//     whose param names the argument and input field in REST notation
//     (input.metadata, input.events[1]).
//   - Anything else is logged and shown as internal_error.
func errorPresenter(ps rest.Problems, log *slog.Logger) graphql.ErrorPresenterFunc {
	return func(ctx context.Context, err error) *gqlerror.Error {
		out := &gqlerror.Error{Path: graphql.GetPath(ctx)}
		var gerr *gqlerror.Error
		if errors.As(err, &gerr) {
			out.Path, out.Locations = gerr.Path, gerr.Locations
		}
		p, gqlCode := asProblem(ctx, err, gerr, out)
		if p == nil {
			log.ErrorContext(ctx, "graphql resolver failed", "error", err.Error(), "correlation_id", rest.CorrelationID(ctx))
			p = problem.Internal()
		}
		out.Message = p.Detail
		out.Extensions = ps.Body(ctx, p)
		if gqlCode != "" {
			out.Extensions["graphql_code"] = gqlCode
		}
		return out
	}
}

// asProblem classifies err (see errorPresenter), correcting out's path
// where the error's own is not a response path. It returns nil for an
// unexpected error, and gqlgen's code when it had one.
func asProblem(ctx context.Context, err error, gerr *gqlerror.Error, out *gqlerror.Error) (*problem.Problem, string) {
	if p := problem.From(err); p != nil {
		return p, ""
	}
	if gerr == nil {
		return nil, ""
	}
	gqlCode, _ := gerr.Extensions["code"].(string)
	switch {
	case len(gerr.Path) == 0 && gerr.Err == nil:
		// Refused before execution: parse, validation, limits, the body.
		return requestProblem(ctx, gerr, gqlCode)
	case len(gerr.Path) > 1 && gerr.Path[0] == ast.PathName("variable"):
		out.Path = nil
		return variableProblem(ctx, gerr), gqlCode
	}
	// An argument that failed to read: the error's path continues below
	// the field's own (gqlgen reads arguments before it resolves).
	if fc := graphql.GetFieldContext(ctx); fc != nil && fc.Args == nil {
		field := fc.Path()
		if len(gerr.Path) > len(field) && slices.Equal(gerr.Path[:len(field)], field) {
			out.Path = field
			param := restPath("", gerr.Path[len(field):])
			msg := gerr.Message
			if gerr.Err != nil {
				msg = gerr.Err.Error()
			}
			return problem.Validation(param, fmt.Sprintf("Invalid value for %s: %s.", param, msg)), ""
		}
	}
	return nil, ""
}

// requestProblem is the invalid_request problem of a request refused before
// it ran. A member the refusal carries (max_depth) is kept, and the
// complexity refusal says how costly the operation was.
func requestProblem(ctx context.Context, gerr *gqlerror.Error, gqlCode string) (*problem.Problem, string) {
	p := problem.New(problem.InvalidRequest, gerr.Message)
	if c := problem.Code(gqlCode); c.Known() {
		p.Code, gqlCode = c, ""
	}
	for k, v := range gerr.Extensions {
		if k != "code" {
			p.With(k, v)
		}
	}
	switch {
	case gqlCode == "COMPLEXITY_LIMIT_EXCEEDED":
		if graphql.HasOperationContext(ctx) {
			if s := extension.GetComplexityStats(ctx); s != nil {
				p.Detail = fmt.Sprintf("The operation's complexity is %d; the limit is %d. Ask for fewer items (first) or fewer fields.",
					s.Complexity, s.ComplexityLimit)
				p.With("complexity", s.Complexity).With("max_complexity", s.ComplexityLimit)
			}
		}
	case strings.HasPrefix(gerr.Message, "json request body could not be decoded"):
		// gqlgen's message echoes the whole body; say what went wrong only.
		why, _, _ := strings.Cut(strings.TrimPrefix(gerr.Message, "json request body could not be decoded: "), " body:")
		p.Detail = "The request body is not a GraphQL request in JSON: " + why + "."
	}
	return p, gqlCode
}

// variableProblem is the validation_error of a variable whose value does not
// fit its type. gqlparser's path is variable.NAME.field…; param names the
// argument where the operation uses the variable instead.
func variableProblem(ctx context.Context, gerr *gqlerror.Error) *problem.Problem {
	name, _ := gerr.Path[1].(ast.PathName)
	param := "$" + string(name)
	if graphql.HasOperationContext(ctx) {
		oc := graphql.GetOperationContext(ctx)
		if oc.Operation != nil {
			if at, ok := variableUse(oc.Operation.SelectionSet, oc.Doc.Fragments, string(name), map[string]bool{}); ok {
				param = at
			}
		}
	}
	param = restPath(param, gerr.Path[2:])
	return problem.Validation(param, fmt.Sprintf("Invalid value for %s (variable $%s): %s.", param, name, gerr.Message))
}

// variableUse finds the first argument that uses the variable and returns
// its REST path (input.name for createApiKey(input: {name: $n})).
func variableUse(set ast.SelectionSet, frags ast.FragmentDefinitionList, name string, seen map[string]bool) (string, bool) {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			for _, a := range s.Arguments {
				if at, ok := valueUse(a.Value, name, snake(a.Name)); ok {
					return at, true
				}
			}
			if at, ok := variableUse(s.SelectionSet, frags, name, seen); ok {
				return at, true
			}
		case *ast.InlineFragment:
			if at, ok := variableUse(s.SelectionSet, frags, name, seen); ok {
				return at, true
			}
		case *ast.FragmentSpread:
			if f := frags.ForName(s.Name); f != nil && !seen[s.Name] {
				seen[s.Name] = true
				if at, ok := variableUse(f.SelectionSet, frags, name, seen); ok {
					return at, true
				}
			}
		}
	}
	return "", false
}

func valueUse(v *ast.Value, name, at string) (string, bool) {
	if v == nil {
		return "", false
	}
	switch v.Kind {
	case ast.Variable:
		return at, v.Raw == name
	case ast.ListValue:
		for i, c := range v.Children {
			if p, ok := valueUse(c.Value, name, at+"["+strconv.Itoa(i)+"]"); ok {
				return p, true
			}
		}
	case ast.ObjectValue:
		for _, c := range v.Children {
			if p, ok := valueUse(c.Value, name, at+"."+snake(c.Name)); ok {
				return p, true
			}
		}
	}
	return "", false
}

// restPath continues prefix with a GraphQL input path in REST notation:
// snake_case names joined by dots, list indexes in brackets
// (input.checkout_schema[2].kind).
func restPath(prefix string, p ast.Path) string {
	var b strings.Builder
	b.WriteString(prefix)
	for _, e := range p {
		switch e := e.(type) {
		case ast.PathName:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(snake(string(e)))
		case ast.PathIndex:
			fmt.Fprintf(&b, "[%d]", int(e))
		}
	}
	return b.String()
}

// snake turns a GraphQL name into the REST one: gaMeasurementId →
// ga_measurement_id.
func snake(s string) string {
	var b strings.Builder
	for i, c := range s {
		if c >= 'A' && c <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			c += 'a' - 'A'
		}
		b.WriteRune(c)
	}
	return b.String()
}

// noNUL refuses a field whose arguments hold a NUL byte or invalid UTF-8 in
// any string (a literal, a variable, an input field, a list item, a Map key
// or value), or a Time outside the years 1..9999, before its resolver runs:
// validation_error naming it, by the rule REST's boundary applies
// (commerce/input). PostgreSQL cannot store NUL in text nor read year 0000.
type noNUL struct{ schema *ast.Schema }

// Validate keeps the schema (fieldLimits.Validate passes it on).
func (n *noNUL) Validate(es graphql.ExecutableSchema) error {
	n.schema = es.Schema()
	return nil
}

// check refuses a field whose arguments hold a NUL byte (fieldLimits calls
// it for every field with arguments, before the field runs).
func (n *noNUL) check(ctx context.Context, fc *graphql.FieldContext) error {
	vars := graphql.GetOperationContext(ctx).Variables
	for _, a := range fc.Field.Arguments {
		v, err := a.Value.Value(vars)
		if err != nil {
			continue
		}
		var typ *ast.Type
		if fc.Field.Definition != nil {
			if d := fc.Field.Definition.Arguments.ForName(a.Name); d != nil {
				typ = d.Type
			}
		}
		at := input.Path{{Key: snake(a.Name)}}
		if why := n.find(v, typ, &at); why != nil {
			param := at.String()
			return problem.Validation(param, param+" "+why.Error())
		}
	}
	return nil
}

// find returns why the first string in v that input refuses is refused
// (nil when none), with *at its REST path, rendered by the caller only
// then. typ (nil inside a custom scalar) says which map keys are input
// fields and which strings are Time values. Its recursion is bounded by
// the variables' depth, which the body's check keeps to
// input.MaxJSONDepth.
func (n *noNUL) find(v any, typ *ast.Type, at *input.Path) error {
	switch x := v.(type) {
	case string:
		if typ != nil && typ.Name() == "Time" {
			if t, err := time.Parse(time.RFC3339Nano, x); err == nil && input.Time(t) != nil {
				return input.Time(t)
			}
		}
		return input.Text(x)
	case []any:
		var elem *ast.Type
		if typ != nil {
			elem = typ.Elem
		}
		*at = at.Index(0)
		for i, item := range x {
			at.Top().Index = i
			if why := n.find(item, elem, at); why != nil {
				return why
			}
		}
		*at = (*at)[:len(*at)-1]
	case map[string]any:
		var def *ast.Definition
		if typ != nil {
			def = n.schema.Types[typ.Name()]
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		*at = at.Key("")
		for _, k := range keys {
			name, ftyp := k, (*ast.Type)(nil)
			if def != nil && def.Kind == ast.InputObject {
				name = snake(k)
				if f := def.Fields.ForName(k); f != nil {
					ftyp = f.Type
				}
			}
			at.Top().Key = name
			if why := input.Text(k); why != nil {
				return why
			}
			if why := n.find(x[k], ftyp, at); why != nil {
				return why
			}
		}
		*at = (*at)[:len(*at)-1]
	}
	return nil
}
