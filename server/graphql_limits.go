package server

import (
	"context"
	"strings"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"commerce/graph"
	"commerce/ratelimit"
	"commerce/rest"
)

// fieldLimits charges GraphQL fields to the rate-limit groups of the REST
// routes that do the same thing (rest.Routes, rest.GraphQLOnly), in the
// same windows and with the same subjects as REST (CONTRACT §14):
//
//   - Every top-level field, each alias on its own, is charged before the
//     operation executes, in document order (so the mutations, which run
//     serially, are charged in the order they run).
//   - A declared field below the top level (Account.listings,
//     WebhookEndpoint.deliveries, …) is charged when it is first resolved,
//     once per occurrence in the document: its response path without list
//     indexes, so once per alias and not once per parent.
//
// A refused field fails alone with the rate_limited problem; its value is
// null (which GraphQL propagates to the nearest nullable parent) and the
// other fields run. A root field missing from the table is charged to the
// default group (a test keeps the table complete). Introspection is free,
// and subscriptions are not charged here.
type fieldLimits struct {
	// charge is rest.API.Charge: Redis failures allow the field and are
	// logged and counted there.
	charge func(ctx context.Context, group, subject string) (*ratelimit.Result, error)
	fields map[coordinate]fieldCharge
	// names are the field names of fields, so that the fields of no
	// interest (most of them) leave after one small map lookup.
	names map[string]bool
	// nul refuses NUL bytes in arguments. It runs from this interceptor:
	// gqlgen calls every field interceptor for every field of a response
	// (100 listings × 12 fields is 1,200 calls), and one layer costs half
	// what two do.
	nul *noNUL
}

// coordinate names a field of a type, such as Account.listings.
type coordinate struct{ typ, field string }

func parseCoordinate(s string) coordinate {
	typ, field, _ := strings.Cut(s, ".")
	return coordinate{typ, field}
}

// fieldCharge is how one field is charged.
type fieldCharge struct {
	group   string // "" charges nothing
	groupOf func(args map[string]any) string
	perIP   bool // a public route's field counts per client IP, key or not
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationInterceptor
	graphql.FieldInterceptor
} = (*fieldLimits)(nil)

func newFieldLimits(charge func(ctx context.Context, group, subject string) (*ratelimit.Result, error), nul *noNUL) *fieldLimits {
	l := &fieldLimits{charge: charge, fields: map[coordinate]fieldCharge{}, names: map[string]bool{}, nul: nul}
	for _, r := range rest.Routes {
		if r.GraphQL != "" {
			l.fields[parseCoordinate(r.GraphQL)] = fieldCharge{group: r.Group, perIP: r.Access == rest.Public}
		}
	}
	for _, f := range rest.GraphQLOnly {
		l.fields[parseCoordinate(f.GraphQL)] = fieldCharge{group: f.Group, groupOf: f.GroupOf}
	}
	coords := make([]string, 0, len(l.fields))
	for c := range l.fields {
		l.names[c.field] = true
		coords = append(coords, c.typ+"."+c.field)
	}
	// The direct marshaller (graph/fast.go) writes plain fields without
	// ResolveField, so without this interceptor: the fields charged here
	// stay on gqlgen's path.
	graph.ExcludeFromFastPath(coords...)
	return l
}

func (*fieldLimits) ExtensionName() string { return "FieldRateLimits" }
func (l *fieldLimits) Validate(es graphql.ExecutableSchema) error {
	if l.nul != nil {
		return l.nul.Validate(es)
	}
	return nil
}

type limitsKey struct{}

// operationLimits is one operation's charges.
type operationLimits struct {
	// roots holds the refusal of each top-level field by response name
	// (nil: allowed).
	roots map[string]error
	mu    sync.Mutex
	// nested holds the charges of the fields below the top level, by
	// response path without list indexes.
	nested map[string]*nestedCharge
}

type nestedCharge struct {
	once sync.Once
	err  error
}

// InterceptOperation charges the top-level fields of a query or mutation,
// in document order, before any of them runs, unless the cost limit did
// already, in its Redis round trip (costLimit, rootCharges).
func (l *fieldLimits) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	oc := graphql.GetOperationContext(ctx)
	if oc == nil || oc.Operation == nil || oc.Operation.Operation == ast.Subscription {
		return next(ctx)
	}
	st := &operationLimits{roots: map[string]error{}, nested: map[string]*nestedCharge{}}
	if charged, ok := oc.Stats.GetExtension(rootChargesExtension).(rootCharged); ok {
		st.roots = charged
		return next(context.WithValue(ctx, limitsKey{}, st))
	}
	root := rootType(oc)
	for _, f := range rootFields(oc, root) {
		st.roots[f.Alias] = l.chargeField(ctx, root, f.Field, oc.Variables)
	}
	return next(context.WithValue(ctx, limitsKey{}, st))
}

// rootType is the type of oc's top-level fields: Query or Mutation.
func rootType(oc *graphql.OperationContext) string {
	if oc.Operation.Operation == ast.Mutation {
		return "Mutation"
	}
	return "Query"
}

// rootFields are oc's top-level fields as the executor runs them
// (CollectFields: fragments expanded, @skip and @include applied, fields of
// one response name merged), in document order, introspection left out.
func rootFields(oc *graphql.OperationContext, root string) []graphql.CollectedField {
	fields := graphql.CollectFields(oc, oc.Operation.SelectionSet, []string{root})
	out := fields[:0:0]
	for _, f := range fields {
		if !strings.HasPrefix(f.Name, "__") {
			out = append(out, f)
		}
	}
	return out
}

// rootChargesExtension holds, in the operation's Stats, the refusal of
// each top-level field by response name (rootCharged) when the cost limit
// charged them.
const rootChargesExtension = "commerce.rootCharges"

type rootCharged map[string]error

// setRootCharges records the outcome of the top-level fields' charges
// (aliases and refusals in rootCharges's order) for InterceptOperation.
func setRootCharges(oc *graphql.OperationContext, aliases []string, refusals []error) {
	charged := make(rootCharged, len(aliases))
	for i, a := range aliases {
		if i < len(refusals) {
			charged[a] = refusals[i]
		}
	}
	oc.Stats.SetExtension(rootChargesExtension, charged)
}

// rootCharges lists the charges of a query's or mutation's top-level
// fields, in document order, with their response names.
func (l *fieldLimits) rootCharges(ctx context.Context, oc *graphql.OperationContext) ([]string, []rest.FieldCharge) {
	if oc.Operation == nil || oc.Operation.Operation == ast.Subscription {
		return nil, nil
	}
	root := rootType(oc)
	fields := rootFields(oc, root)
	aliases := make([]string, len(fields))
	charges := make([]rest.FieldCharge, len(fields))
	for i, f := range fields {
		aliases[i] = f.Alias
		charges[i].Group, charges[i].Subject = l.groupOf(ctx, root, f.Field, oc.Variables)
	}
	return aliases, charges
}

// InterceptField fails a refused top-level field, and charges a declared
// field below the top level once per occurrence.
func (l *fieldLimits) InterceptField(ctx context.Context, next graphql.Resolver) (any, error) {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || fc.Field.Field == nil {
		return next(ctx)
	}
	if len(fc.Field.Arguments) > 0 && l.nul != nil {
		if err := l.nul.check(ctx, fc); err != nil {
			return nil, err
		}
	}
	root := fc.Parent != nil && fc.Parent.Parent == nil
	if !root && !l.names[fc.Field.Name] {
		return next(ctx)
	}
	if root { // a top-level field
		st, _ := ctx.Value(limitsKey{}).(*operationLimits)
		if st == nil { // not seen by InterceptOperation: charge it now
			if err := l.chargeField(ctx, fc.Object, fc.Field.Field, graphql.GetOperationContext(ctx).Variables); err != nil {
				return nil, err
			}
		} else if err := st.roots[fc.Field.Alias]; err != nil {
			return nil, err
		}
		return next(ctx)
	}
	if _, ok := l.fields[coordinate{fc.Object, fc.Field.Name}]; !ok {
		return next(ctx)
	}
	charge := func() error {
		return l.chargeField(ctx, fc.Object, fc.Field.Field, graphql.GetOperationContext(ctx).Variables)
	}
	st, _ := ctx.Value(limitsKey{}).(*operationLimits)
	if st == nil {
		if err := charge(); err != nil {
			return nil, err
		}
		return next(ctx)
	}
	key := occurrence(fc.Path())
	st.mu.Lock()
	c := st.nested[key]
	if c == nil {
		c = &nestedCharge{}
		st.nested[key] = c
	}
	st.mu.Unlock()
	c.once.Do(func() { c.err = charge() })
	if c.err != nil {
		return nil, c.err
	}
	return next(ctx)
}

// chargeField charges one occurrence of typ.field and returns the
// rate_limited problem when its group refuses it.
func (l *fieldLimits) chargeField(ctx context.Context, typ string, f *ast.Field, vars map[string]any) error {
	group, subject := l.groupOf(ctx, typ, f, vars)
	if group == "" {
		return nil
	}
	_, err := l.charge(ctx, group, subject)
	return err
}

// groupOf is the group and subject one occurrence of typ.field is charged
// to ("" for the group: nothing).
func (l *fieldLimits) groupOf(ctx context.Context, typ string, f *ast.Field, vars map[string]any) (group, subject string) {
	c, ok := l.fields[coordinate{typ, f.Name}]
	if !ok {
		if typ != "Query" && typ != "Mutation" {
			return "", ""
		}
		c.group = "default"
	}
	group = c.group
	if c.groupOf != nil {
		group = c.groupOf(f.ArgumentMap(vars))
	}
	if group == "" {
		return "", ""
	}
	if c.perIP {
		return group, rest.IPSubject(ctx)
	}
	return group, rest.Subject(ctx)
}

// occurrence names a field's place in the document: its response path
// without list indexes.
func occurrence(p ast.Path) string {
	var b strings.Builder
	for _, e := range p {
		if name, ok := e.(ast.PathName); ok {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(string(name))
		}
	}
	return b.String()
}
