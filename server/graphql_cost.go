package server

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"commerce/problem"
	"commerce/ratelimit"
	"commerce/rest"
)

// The cost model of a GraphQL operation. What costs the service something
// is the objects it loads, not the scalar fields it copies out of them, so:
//
//   - a field whose type is a scalar or an enum costs 0 (it comes with its
//     parent), and so does __typename, and so does an object that is not
//     a Node and whose fields are all scalars or enums (PageInfo, a
//     readiness action's GraphQLCall);
//   - a field whose type is an object (or a list of objects bounded by the
//     schema, such as actions or deliverables) costs 1 plus its selections;
//   - a connection (a field with a `first` argument) costs 1 plus its
//     selections, where the selections under `edges` are multiplied by the
//     page size (first, 20 when omitted, at most 100); pageInfo is not;
//   - nodes(ids:) multiplies its selections by the number of ids;
//   - introspection (__schema, __type) costs 1: it is bounded by the schema.
//
// Fragments on interfaces add up every branch (an upper bound). With a limit
// of maxCost, the whole readiness graph (viewer with 100 listings and 100
// orders, each with its readiness actions: about 1,010) fits in one
// operation, while ten orders(first: 100) selections (2,011) do not.
const maxCost = 2000

// costBudget is what each API key (each client IP when anonymous) may
// spend in any rolling minute, across every process: ten operations at the
// cost limit, or a hundred readiness graphs.
var costBudget = ratelimit.Rule{Limit: 20000, Window: time.Minute}

// costLimit refuses operations whose cost exceeds max, before any resolver
// runs, with invalid_request and the members max_complexity and complexity.
// Then each query or mutation spends its cost (at least 1) from its
// caller's budget (costBudget); one that does not fit is refused whole with
// rate_limited and retry_after, and spends nothing. In the same Redis round
// trip (charge: rest.API.ChargeOperation) the top-level fields are charged
// to their groups (roots: fieldLimits.rootCharges, whose InterceptOperation
// then reads the outcome) and the key's revocation markers are read when
// authentication left them to the operation. Every response reports
// extensions.cost (costReport). Subscriptions are not charged to the budget
// (their slots limit them).
type costLimit struct {
	max    int
	schema *ast.Schema
	// charge charges an operation (nil: nothing is charged); a nil Budget
	// in its outcome means Redis could not be asked (the operation runs).
	charge func(ctx context.Context, c rest.OperationCharge) (rest.OperationCharged, error)
	// roots lists the charges of the operation's top-level fields.
	roots func(ctx context.Context, oc *graphql.OperationContext) ([]string, []rest.FieldCharge)
}

// budgetSpending is a spend of cost from subject's cost budget.
func budgetSpending(subject string, cost int) *ratelimit.Spending {
	return &ratelimit.Spending{Name: "graphql_cost", Subject: subject, Cost: cost, Rule: costBudget}
}

// costReport is extensions.cost: the operation's cost (requested), the
// budget per minute (limit), what is left of it after this operation
// (remaining) and the whole seconds until the oldest spend in the window
// leaves it (reset). Without Redis only requested is reported.
type costReport struct {
	Requested int  `json:"requested"`
	Limit     *int `json:"limit,omitempty"`
	Remaining *int `json:"remaining,omitempty"`
	Reset     *int `json:"reset,omitempty"`
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
	graphql.ResponseInterceptor
} = &costLimit{}

func (*costLimit) ExtensionName() string { return "CostLimit" }

func (c *costLimit) Validate(s graphql.ExecutableSchema) error {
	c.schema = s.Schema()
	return nil
}

func (c *costLimit) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	root := c.schema.Query
	switch oc.Operation.Operation {
	case ast.Mutation:
		root = c.schema.Mutation
	case ast.Subscription:
		root = c.schema.Subscription
	}
	w := costWalker{schema: c.schema, frags: oc.Doc.Fragments, vars: oc.Variables}
	cost := max(w.selections(oc.Operation.SelectionSet, root, 0), 1)
	charged := oc.Operation.Operation != ast.Subscription && c.charge != nil
	if cost > c.max {
		if charged { // report the budget; spend nothing
			if _, err := c.report(ctx, oc, cost, rest.OperationCharge{Budget: budgetSpending(rest.Subject(ctx), 0)}); err != nil {
				return denied(ctx, err)
			}
		}
		return &gqlerror.Error{
			Message: fmt.Sprintf("The operation costs %d; the limit is %d. Ask for smaller pages (first) or fewer nested objects.", cost, c.max),
			Extensions: map[string]any{"code": string(problem.InvalidRequest), "status": problem.InvalidRequest.Status(),
				"max_complexity": c.max, "complexity": cost},
		}
	}
	if !charged {
		return nil
	}
	var aliases []string
	var fields []rest.FieldCharge
	if c.roots != nil {
		aliases, fields = c.roots(ctx, oc)
	}
	out, err := c.report(ctx, oc, cost, rest.OperationCharge{Budget: budgetSpending(rest.Subject(ctx), cost), Fields: fields})
	if err != nil {
		return denied(ctx, err)
	}
	if res := out.Budget; out.Refused {
		retry := max(int(math.Ceil(res.RetryAfter.Seconds())), 1)
		refuseWith(ctx, retry)
		return &gqlerror.Error{
			Message: fmt.Sprintf("The operation costs %d and %d of the budget of %d per minute are left. Retry in %d s, or ask for less.",
				cost, res.Remaining, res.Limit, retry),
			Extensions: map[string]any{"code": string(problem.RateLimited), "retry_after": retry},
		}
	}
	if aliases != nil {
		setRootCharges(oc, aliases, out.Fields)
	}
	return nil
}

// report charges ch and keeps the costReport for the response; the error is
// the key's refusal.
func (c *costLimit) report(ctx context.Context, oc *graphql.OperationContext, cost int, ch rest.OperationCharge) (rest.OperationCharged, error) {
	out, err := c.charge(ctx, ch)
	if err != nil {
		return out, err
	}
	rep := costReport{Requested: cost}
	noteBudget(ctx, out.Budget)
	if res := out.Budget; res != nil {
		reset := int(math.Ceil(res.Reset.Seconds()))
		rep.Limit, rep.Remaining, rep.Reset = &res.Limit, &res.Remaining, &reset
	}
	oc.Stats.SetExtension("cost", rep)
	return out, nil
}

// denied refuses the operation of a key its markers refused (revoked since
// this process cached it); over HTTP the response is the problem document
// (outcomeWriter).
func denied(ctx context.Context, err error) *gqlerror.Error {
	denyWith(ctx, err)
	p := problem.From(err)
	if p == nil {
		p = problem.Internal()
	}
	return &gqlerror.Error{Message: p.Detail,
		Extensions: map[string]any{"code": string(p.Code), "status": p.Status()}}
}

// InterceptResponse adds extensions.cost to the response of an operation
// that has one.
func (c *costLimit) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	resp := next(ctx)
	if resp == nil || !graphql.HasOperationContext(ctx) {
		return resp
	}
	if rep := graphql.GetOperationContext(ctx).Stats.GetExtension("cost"); rep != nil {
		if resp.Extensions == nil {
			resp.Extensions = map[string]any{}
		}
		resp.Extensions["cost"] = rep
	}
	return resp
}

// OperationCost is the cost of the operation named name (or the only one)
// in query, for tests and the documentation of the model.
func OperationCost(s *ast.Schema, doc *ast.QueryDocument, name string, vars map[string]any) int {
	op := doc.Operations.ForName(name)
	if op == nil {
		return 0
	}
	root := s.Query
	if op.Operation == ast.Mutation {
		root = s.Mutation
	}
	w := costWalker{schema: s, frags: doc.Fragments, vars: vars}
	return w.selections(op.SelectionSet, root, 0)
}

type costWalker struct {
	schema *ast.Schema
	frags  ast.FragmentDefinitionList
	vars   map[string]any
}

// maxFragmentNesting stops fragment cycles (validation rejects them; this
// is a backstop).
const maxFragmentNesting = 64

func (w *costWalker) selections(set ast.SelectionSet, parent *ast.Definition, nesting int) int {
	if nesting > maxFragmentNesting || parent == nil {
		return 0
	}
	total := 0
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			total += w.field(s, parent, nesting)
		case *ast.InlineFragment:
			def := parent
			if s.TypeCondition != "" {
				def = w.schema.Types[s.TypeCondition]
			}
			total += w.selections(s.SelectionSet, def, nesting+1)
		case *ast.FragmentSpread:
			if f := w.frags.ForName(s.Name); f != nil {
				total += w.selections(f.SelectionSet, w.schema.Types[f.TypeCondition], nesting+1)
			}
		}
	}
	return total
}

func (w *costWalker) field(f *ast.Field, parent *ast.Definition, nesting int) int {
	switch f.Name {
	case "__typename":
		return 0
	case "__schema", "__type":
		return 1
	}
	def := parent.Fields.ForName(f.Name)
	if def == nil {
		return 0 // validation reports it
	}
	typ := w.schema.Types[def.Type.Name()]
	if typ == nil || typ.Kind == ast.Scalar || typ.Kind == ast.Enum || w.leafObject(typ) {
		return 0
	}
	switch {
	case def.Arguments.ForName("first") != nil:
		page := w.pageSize(f)
		total := 1
		for _, sel := range f.SelectionSet {
			if e, ok := sel.(*ast.Field); ok && e.Name == "edges" {
				total += page * w.field(e, typ, nesting)
				continue
			}
			total += w.selections(ast.SelectionSet{sel}, typ, nesting)
		}
		return total
	case f.Name == "nodes":
		n := 1
		if ids, ok := w.argValue(f, "ids").([]any); ok && len(ids) > 0 {
			n = len(ids)
		}
		return 1 + n*w.selections(f.SelectionSet, typ, nesting)
	}
	return 1 + w.selections(f.SelectionSet, typ, nesting)
}

// leafObject: an object type with no identity of its own (not a Node)
// whose fields are all scalars or enums (such as a readiness action's
// GraphQLCall, McpCall or ActionInput, or PageInfo) is data that comes with
// its parent, like a Map: it costs 0. A Node is loaded: it costs 1.
func (w *costWalker) leafObject(typ *ast.Definition) bool {
	if typ.Kind != ast.Object || len(typ.Fields) == 0 || len(typ.Interfaces) > 0 {
		return false
	}
	for _, f := range typ.Fields {
		if strings.HasPrefix(f.Name, "__") {
			continue
		}
		ft := w.schema.Types[f.Type.Name()]
		if ft == nil || (ft.Kind != ast.Scalar && ft.Kind != ast.Enum) {
			return false
		}
	}
	return true
}

// pageSize is the number of items a connection field may return: first,
// or last (the newest of a log), or the default page of 20.
func (w *costWalker) pageSize(f *ast.Field) int {
	arg := "first"
	if w.argValue(f, arg) == nil && w.argValue(f, "last") != nil {
		arg = "last"
	}
	switch n := w.argValue(f, arg).(type) {
	case int64:
		return clampPage(int(n))
	case int:
		return clampPage(n)
	case float64:
		return clampPage(int(n))
	case json.Number:
		if i, err := n.Int64(); err == nil {
			return clampPage(int(i))
		}
	}
	return 20
}

func clampPage(n int) int {
	if n < 1 {
		return 1
	}
	return min(n, 100)
}

// argValue is an argument's value with variables substituted (nil if absent
// or not computable).
func (w *costWalker) argValue(f *ast.Field, name string) any {
	a := f.Arguments.ForName(name)
	if a == nil || a.Value == nil {
		return nil
	}
	v, err := a.Value.Value(w.vars)
	if err != nil {
		return nil
	}
	return v
}
