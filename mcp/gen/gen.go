// Package gen derives the MCP tools from the GraphQL schema: cmd/mcpgen
// writes its output to mcp/tools_gen.go (`make generate`), and tests use it
// to compare the committed tools with the served schema.
//
// Decisions:
//
//   - One tool per field of Query and Mutation, named in snake_case
//     (createListing → create_listing), described by the field's
//     description; queries carry the read-only hint.
//   - The input schema is the field's arguments as JSON Schema (2020-12):
//     input objects inlined with their fields' descriptions and
//     additionalProperties false, enums as string enums whose description
//     lists each value's meaning, lists as arrays, non-null arguments
//     required, nullable ones accepting null. An Upload argument is replaced
//     by url | content (base64) + filename (+ content_type): the file tool.
//   - The tool executes a GraphQL document: the field with its arguments as
//     variables and a default selection set: every scalar and enum field,
//     objects nested down to the service's depth limit (maxLevel), a type
//     not repeated along a path (no Order → customer → orders → Order),
//     connections with their default page size but never a connection inside
//     a connection's nodes, nor a single related resource inside them (a
//     field of a Node type such as Order.listing: the node names it by id,
//     listingId), fields with required arguments left out, and
//     a mutation's result selected as a connection's node is (the changed
//     thing, without lists or related resources: read those with the
//     queries), and interfaces (Node) as __typename with each implementation's scalar
//     fields (a field whose type differs between implementations, such as
//     status, under the alias typename_field: listing_status). A test keeps every document within the cost limit.
//   - A field of the viewer's type that takes arguments and is not a
//     connection (Account.analytics) is a query of its own: it is left out
//     of every selection of that type (a read of its cost, and arguments to
//     validate, are not a side effect of reading the account) and has a
//     tool of its own, named after it, whose arguments are the field's and
//     whose document selects it on viewer as a mutation's result is
//     selected (related resources by id).
package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"slices"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"commerce/resolvers"
)

// maxLevel is the depth limit of /graphql (server.maxDepth): no field of a
// generated document lies deeper.
const maxLevel = 10

// Tool is one generated tool.
type Tool struct {
	// Name is the tool's name: the field's in snake_case.
	Name string
	// Field is the GraphQL field (createListing).
	Field string
	// Mutation tells a mutation from a query.
	Mutation bool
	// Description is the field's description.
	Description string
	// InputSchema is the JSON Schema of the arguments.
	InputSchema string
	// Args are the field's argument names (the variables of Document).
	Args []string
	// Upload names the argument of type Upload, if any.
	Upload string
	// Document is the GraphQL operation the tool runs.
	Document string
	// Pages maps each argument that carries a connection's arguments
	// (listings: {first, after}) to those arguments; the document's
	// variable of each is connection_argument (listings_first). A
	// connection is selected only when its argument is given.
	Pages map[string][]string
	// Head, Vars, Body and Connections are Document's parts, from which
	// the tool's document is composed with the connections asked for
	// (Compose): "Head(Vars…) { Body }", the connections selected at the end
	// of Body's selection.
	Head        string
	Vars        []string
	Body        string
	Connections map[string]Connection
}

// Connection is one optional connection of a query tool's result.
type Connection struct {
	// Vars declares its variables; Selection selects it.
	Vars      []string
	Selection string
}

// Compose is the document selecting the named connections.
func (t Tool) Compose(conns ...string) string {
	vars := append([]string(nil), t.Vars...)
	body := t.Body
	if len(conns) > 0 {
		body = strings.TrimSuffix(body, " }")
		for _, name := range conns {
			c := t.Connections[name]
			vars = append(vars, c.Vars...)
			body += " " + c.Selection
		}
		body += " }"
	}
	doc := t.Head
	if len(vars) > 0 {
		doc += "(" + strings.Join(vars, ", ") + ")"
	}
	return doc + " { " + body + " }"
}

// All is the names of the tool's connections, sorted.
func (t Tool) All() []string {
	var out []string
	for name := range t.Connections {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// pager collects the arguments of a query's connections.
type pager struct {
	pages map[string][]string
	props map[string]any
	conns map[string]Connection
	err   error
}

// add declares the arguments of connection f and returns its argument list.
func (pg *pager) add(s *ast.Schema, f *ast.FieldDefinition) (string, error) {
	props := map[string]any{}
	var args, vars []string
	for _, a := range f.Arguments {
		sch, err := inputSchema(s, a.Type, a.Description, map[string]bool{})
		if err != nil {
			return "", fmt.Errorf("%s(%s): %w", f.Name, a.Name, err)
		}
		if a.DefaultValue != nil {
			if v, err := a.DefaultValue.Value(nil); err == nil {
				sch["default"] = v
			}
		}
		props[a.Name] = sch
		v := f.Name + "_" + a.Name
		vars = append(vars, fmt.Sprintf("$%s: %s", v, a.Type.String()))
		args = append(args, fmt.Sprintf("%s: $%s", a.Name, v))
		pg.pages[f.Name] = append(pg.pages[f.Name], a.Name)
	}
	pg.props[f.Name] = map[string]any{"type": []any{"object", "null"}, "properties": props, "additionalProperties": false,
		"description": "Include " + f.Name + " in the result, with these arguments ({} for the first page; the next page: after = the previous page's pageInfo.endCursor). " + strings.TrimSpace(f.Description)}
	pg.conns[f.Name] = Connection{Vars: vars}
	return "(" + strings.Join(args, ", ") + ")", nil
}

// Tools derives the tools of schema, queries first, each in schema order.
func Tools(s *ast.Schema) ([]Tool, error) {
	var out []Tool
	for _, root := range []*ast.Definition{s.Query, s.Mutation} {
		if root == nil {
			continue
		}
		for _, f := range root.Fields {
			if strings.HasPrefix(f.Name, "__") {
				continue
			}
			t, err := tool(s, root == s.Mutation, f)
			if err != nil {
				return nil, fmt.Errorf("%s.%s: %w", root.Name, f.Name, err)
			}
			out = append(out, t)
		}
	}
	if viewer := s.Query.Fields.ForName("viewer"); viewer != nil {
		for _, f := range s.Types[viewer.Type.Name()].Fields {
			if !viewerQuery(s, viewer.Type.Name(), f) {
				continue
			}
			t, err := viewerTool(s, viewer, f)
			if err != nil {
				return nil, fmt.Errorf("%s.%s: %w", viewer.Type.Name(), f.Name, err)
			}
			out = append(out, t)
		}
	}
	return out, nil
}

// viewerQuery reports whether f, a field of typeName, is a query of its
// own: typeName is the viewer's, and f takes arguments but is not a
// connection.
func viewerQuery(s *ast.Schema, typeName string, f *ast.FieldDefinition) bool {
	viewer := s.Query.Fields.ForName("viewer")
	if viewer == nil || viewer.Type.Name() != typeName || len(f.Arguments) == 0 {
		return false
	}
	conn, _ := connection(s, f, s.Types[f.Type.Name()])
	return !conn
}

// viewerTool is the tool of a viewer query f: its arguments, and viewer
// with f selected as a mutation's result is.
func viewerTool(s *ast.Schema, viewer, f *ast.FieldDefinition) (Tool, error) {
	t := Tool{Name: Snake(f.Name), Field: viewer.Name, Description: strings.TrimSpace(f.Description)}
	props := map[string]any{}
	var required, vars, args []string
	for _, a := range f.Arguments {
		sch, err := inputSchema(s, a.Type, a.Description, map[string]bool{})
		if err != nil {
			return t, fmt.Errorf("argument %s: %w", a.Name, err)
		}
		props[a.Name] = sch
		if a.Type.NonNull && a.DefaultValue == nil {
			required = append(required, a.Name)
		}
		t.Args = append(t.Args, a.Name)
		vars = append(vars, fmt.Sprintf("$%s: %s", a.Name, a.Type.String()))
		args = append(args, fmt.Sprintf("%s: $%s", a.Name, a.Name))
	}
	in := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		in["required"] = required
	}
	b, err := json.Marshal(in)
	if err != nil {
		return t, err
	}
	t.InputSchema = string(b)
	sel, ok := fieldSelection(s, f, 2, true, map[string]bool{viewer.Type.Name(): true}, nil)
	if !ok {
		return t, fmt.Errorf("no selectable result")
	}
	t.Head, t.Vars = "query "+f.Name, vars
	t.Body = viewer.Name + " { " + f.Name + "(" + strings.Join(args, ", ") + ")" + sel + " }"
	t.Document = t.Compose()
	return t, nil
}

// Snake turns a GraphQL field name into its tool name: createApiKey →
// create_api_key, viewer → viewer. It is resolvers.SnakeCase, by which
// readiness names the tools in resolve.mcp and refresh.mcp.
func Snake(name string) string { return resolvers.SnakeCase(name) }

func tool(s *ast.Schema, mutation bool, f *ast.FieldDefinition) (Tool, error) {
	t := Tool{Name: Snake(f.Name), Field: f.Name, Mutation: mutation, Description: strings.TrimSpace(f.Description)}
	props := map[string]any{}
	var required []string
	var vars, args []string
	for _, a := range f.Arguments {
		t.Args = append(t.Args, a.Name)
		vars = append(vars, fmt.Sprintf("$%s: %s", a.Name, a.Type.String()))
		args = append(args, fmt.Sprintf("%s: $%s", a.Name, a.Name))
		if a.Type.Name() == "Upload" {
			if t.Upload != "" {
				return t, fmt.Errorf("more than one Upload argument")
			}
			t.Upload = a.Name
			for k, v := range uploadProperties(a.Description) {
				props[k] = v
			}
			continue
		}
		sch, err := inputSchema(s, a.Type, a.Description, map[string]bool{})
		if err != nil {
			return t, fmt.Errorf("argument %s: %w", a.Name, err)
		}
		if a.DefaultValue != nil {
			if v, err := a.DefaultValue.Value(nil); err == nil {
				sch["default"] = v
			}
		}
		props[a.Name] = sch
		if a.Type.NonNull && a.DefaultValue == nil {
			required = append(required, a.Name)
		}
	}
	// The connections of a query's result take their arguments (first,
	// after, filters) from an argument named after the connection.
	var pg *pager
	if !mutation {
		pg = &pager{pages: map[string][]string{}, props: map[string]any{}, conns: map[string]Connection{}}
	}
	sel, ok := fieldSelection(s, f, 1, mutation, map[string]bool{}, pg)
	if pg != nil && pg.err != nil {
		return t, pg.err
	}
	if !ok {
		return t, fmt.Errorf("no selectable result")
	}
	if pg != nil {
		for name, p := range pg.props {
			if _, taken := props[name]; taken {
				return t, fmt.Errorf("connection %s has the name of an argument", name)
			}
			props[name] = p
		}
		if len(pg.pages) > 0 {
			t.Pages, t.Connections = pg.pages, pg.conns
		}
	}
	// (A mutation's result is the thing it changed: lists and related
	// resources are read with the query tools, as inside a connection.)
	in := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		in["required"] = required
	}
	b, err := json.Marshal(in)
	if err != nil {
		return t, err
	}
	t.InputSchema = string(b)

	op := "query"
	if mutation {
		op = "mutation"
	}
	t.Head, t.Vars = op+" "+f.Name, vars
	t.Body = f.Name
	if len(args) > 0 {
		t.Body += "(" + strings.Join(args, ", ") + ")"
	}
	t.Body += sel
	t.Document = t.Compose()
	return t, nil
}

// uploadProperties replace an Upload argument in a tool's input schema.
func uploadProperties(desc string) map[string]any {
	return map[string]any{
		"url": map[string]any{"type": "string", "format": "uri",
			"description": "Where to fetch the file (https; fetched by the service under its outbound address policy). Give url or content, not both."},
		"content": map[string]any{"type": "string", "contentEncoding": "base64",
			"description": "The file's bytes in base64 (standard alphabet). Give url or content, not both."},
		"filename": map[string]any{"type": "string", "maxLength": 255,
			"description": "The file's name; its extension declares the type when content_type is not given. Required with content; with url it defaults to the URL's last path segment."},
		"content_type": map[string]any{"type": "string", "maxLength": 255,
			"description": "The declared media type (such as application/pdf); the content must agree with it. " + strings.TrimSpace(desc)},
	}
}

// inputSchema is the JSON Schema of an input type.
func inputSchema(s *ast.Schema, t *ast.Type, desc string, path map[string]bool) (map[string]any, error) {
	var out map[string]any
	if t.Elem != nil {
		items, err := inputSchema(s, t.Elem, "", path)
		if err != nil {
			return nil, err
		}
		out = map[string]any{"type": "array", "items": items}
	} else {
		def := s.Types[t.NamedType]
		if def == nil {
			return nil, fmt.Errorf("unknown type %s", t.NamedType)
		}
		if desc == "" && !def.BuiltIn {
			desc = def.Description
		}
		switch def.Kind {
		case ast.Scalar:
			out = scalarSchema(def.Name)
		case ast.Enum:
			var values []any
			var lines []string
			for _, v := range def.EnumValues {
				values = append(values, v.Name)
				lines = append(lines, v.Name+": "+strings.TrimSpace(v.Description))
			}
			out = map[string]any{"type": "string", "enum": values}
			desc = strings.TrimSpace(desc) + "\n" + strings.Join(lines, "\n")
		case ast.InputObject:
			if path[def.Name] {
				return nil, fmt.Errorf("input type %s refers to itself", def.Name)
			}
			path[def.Name] = true
			props := map[string]any{}
			var required []string
			for _, f := range def.Fields {
				p, err := inputSchema(s, f.Type, f.Description, path)
				if err != nil {
					return nil, err
				}
				if f.DefaultValue != nil {
					if v, err := f.DefaultValue.Value(nil); err == nil {
						p["default"] = v
					}
				}
				props[f.Name] = p
				if f.Type.NonNull && f.DefaultValue == nil {
					required = append(required, f.Name)
				}
			}
			delete(path, def.Name)
			out = map[string]any{"type": "object", "properties": props, "additionalProperties": false}
			if len(required) > 0 {
				out["required"] = required
			}
		default:
			return nil, fmt.Errorf("%s is not an input type", def.Name)
		}
	}
	if d := strings.TrimSpace(desc); d != "" {
		out["description"] = d
	}
	if !t.NonNull {
		if typ, ok := out["type"].(string); ok {
			out["type"] = []any{typ, "null"}
		}
		if e, ok := out["enum"].([]any); ok {
			out["enum"] = append(e, nil)
		}
	}
	return out, nil
}

func scalarSchema(name string) map[string]any {
	switch name {
	case "ID", "String":
		return map[string]any{"type": "string"}
	case "Int":
		return map[string]any{"type": "integer"}
	case "Float":
		return map[string]any{"type": "number"}
	case "Boolean":
		return map[string]any{"type": "boolean"}
	case "Time":
		return map[string]any{"type": "string", "format": "date-time"}
	case "Map":
		return map[string]any{"type": "object"}
	}
	return map[string]any{}
}

// fieldSelection is the selection set of a field at level (1: a root
// field), "" for a leaf; false when the field has nothing to select within
// the limits.
func fieldSelection(s *ast.Schema, f *ast.FieldDefinition, level int, inConn bool, path map[string]bool, pg *pager) (string, bool) {
	def := s.Types[f.Type.Name()]
	switch def.Kind {
	case ast.Scalar, ast.Enum:
		return "", def.Name != "Upload"
	case ast.Interface, ast.Union:
		return abstractSelection(s, def, level)
	}
	if path[def.Name] {
		return "", false
	}
	if inConn && level > 1 && f.Type.Elem == nil && implementsNode(def) {
		return "", false
	}
	if conn, node := connection(s, f, def); conn {
		// field > edges > node > node's fields
		if inConn || level+3 > maxLevel || path[node.Name] {
			return "", false
		}
		path[node.Name] = true
		sub, ok := selection(s, node, level+3, true, path, nil)
		delete(path, node.Name)
		if !ok {
			return "", false
		}
		pi, _ := selection(s, s.Types["PageInfo"], level+2, true, path, nil)
		sel := " { edges { cursor node" + sub + " } pageInfo" + pi + " }"
		if pg != nil && level == 2 {
			// A query's own connection: selected only when asked for.
			a, err := pg.add(s, f)
			if err != nil {
				pg.err = err
				return "", false
			}
			c := pg.conns[f.Name]
			c.Selection = f.Name + a + sel
			pg.conns[f.Name] = c
			return "", false
		}
		return sel, true
	}
	if level+1 > maxLevel {
		return "", false
	}
	path[def.Name] = true
	defer delete(path, def.Name)
	return selection(s, def, level+1, inConn, path, pg)
}

// selection selects the fields of an object at level.
func selection(s *ast.Schema, def *ast.Definition, level int, inConn bool, path map[string]bool, pg *pager) (string, bool) {
	var parts []string
	for _, f := range def.Fields {
		if strings.HasPrefix(f.Name, "__") || hasRequiredArgs(f) || viewerQuery(s, def.Name, f) {
			continue
		}
		sub, ok := fieldSelection(s, f, level, inConn, path, pg)
		if !ok {
			continue
		}
		parts = append(parts, f.Name+sub)
	}
	if len(parts) == 0 {
		return "", false
	}
	return " { " + strings.Join(parts, " ") + " }", true
}

// abstractSelection selects __typename and the scalar fields of each
// possible type of an interface or union.
func abstractSelection(s *ast.Schema, def *ast.Definition, level int) (string, bool) {
	if level+1 > maxLevel {
		return "", false
	}
	parts := []string{"__typename"}
	types := s.GetPossibleTypes(def)
	slices.SortFunc(types, func(a, b *ast.Definition) int { return strings.Compare(a.Name, b.Name) })
	leavesOf := func(t *ast.Definition) []*ast.FieldDefinition {
		var out []*ast.FieldDefinition
		for _, f := range t.Fields {
			if strings.HasPrefix(f.Name, "__") || hasRequiredArgs(f) {
				continue
			}
			if k := s.Types[f.Type.Name()].Kind; (k == ast.Scalar || k == ast.Enum) && f.Type.Name() != "Upload" {
				out = append(out, f)
			}
		}
		return out
	}
	// A name whose type differs between implementations (status, currency)
	// cannot share its response key: it is aliased typeName_field
	// (listing_status).
	shapes := map[string]map[string]bool{}
	for _, t := range types {
		for _, f := range leavesOf(t) {
			if shapes[f.Name] == nil {
				shapes[f.Name] = map[string]bool{}
			}
			shapes[f.Name][f.Type.String()] = true
		}
	}
	for _, t := range types {
		var leaves []string
		for _, f := range leavesOf(t) {
			if len(shapes[f.Name]) > 1 {
				leaves = append(leaves, Snake(t.Name)+"_"+f.Name+": "+f.Name)
			} else {
				leaves = append(leaves, f.Name)
			}
		}
		if len(leaves) > 0 {
			parts = append(parts, "... on "+t.Name+" { "+strings.Join(leaves, " ")+" }")
		}
	}
	return " { " + strings.Join(parts, " ") + " }", true
}

// connection reports whether f is a Relay connection, and its node type.
func connection(s *ast.Schema, f *ast.FieldDefinition, def *ast.Definition) (bool, *ast.Definition) {
	if f.Arguments.ForName("first") == nil {
		return false, nil
	}
	edges := def.Fields.ForName("edges")
	if edges == nil {
		return false, nil
	}
	node := s.Types[edges.Type.Name()].Fields.ForName("node")
	if node == nil {
		return false, nil
	}
	return true, s.Types[node.Type.Name()]
}

// implementsNode reports whether def is a resource with an id of its own.
func implementsNode(def *ast.Definition) bool {
	return slices.Contains(def.Interfaces, "Node")
}

func hasRequiredArgs(f *ast.FieldDefinition) bool {
	for _, a := range f.Arguments {
		if a.Type.NonNull && a.DefaultValue == nil {
			return true
		}
	}
	return false
}

// ReadinessDocument is the query of the commerce://readiness resource:
// viewer.readiness with its default selection.
func ReadinessDocument(s *ast.Schema) (string, error) {
	viewer := s.Query.Fields.ForName("viewer")
	if viewer == nil {
		return "", fmt.Errorf("the schema has no Query.viewer")
	}
	readiness := s.Types[viewer.Type.Name()].Fields.ForName("readiness")
	if readiness == nil {
		return "", fmt.Errorf("viewer's readiness is missing")
	}
	sel, ok := fieldSelection(s, readiness, 2, false, map[string]bool{viewer.Type.Name(): true}, nil)
	if !ok {
		return "", fmt.Errorf("readiness has nothing to select")
	}
	return "query readiness { viewer { readiness" + sel + " } }", nil
}

// Generate returns the Go source of mcp/tools_gen.go.
func Generate(s *ast.Schema) ([]byte, error) {
	tools, err := Tools(s)
	if err != nil {
		return nil, err
	}
	readiness, err := ReadinessDocument(s)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("// Code generated by cmd/mcpgen from the GraphQL schema; DO NOT EDIT.\n\npackage mcp\n\n")
	b.WriteString("// generatedTools are the tools of the GraphQL queries and mutations (mcp/gen).\n")
	b.WriteString("var generatedTools = []toolSpec{\n")
	for _, t := range tools {
		fmt.Fprintf(&b, "{\nName: %s,\nField: %s,\nMutation: %t,\nDescription: %s,\n", strconv.Quote(t.Name), strconv.Quote(t.Field), t.Mutation, strconv.Quote(t.Description))
		fmt.Fprintf(&b, "Args: %#v,\n", t.Args)
		if len(t.Pages) > 0 {
			fmt.Fprintf(&b, "Pages: %#v,\n", t.Pages)
			fmt.Fprintf(&b, "Head: %s,\nVars: %#v,\nBody: %s,\nConnections: map[string]connection{\n", strconv.Quote(t.Head), t.Vars, strconv.Quote(t.Body))
			for _, name := range t.All() {
				c := t.Connections[name]
				fmt.Fprintf(&b, "%s: {Vars: %#v, Selection: %s},\n", strconv.Quote(name), c.Vars, strconv.Quote(c.Selection))
			}
			b.WriteString("},\n")
		}
		if t.Upload != "" {
			fmt.Fprintf(&b, "Upload: %s,\n", strconv.Quote(t.Upload))
		}
		fmt.Fprintf(&b, "InputSchema: %s,\nDocument: %s,\n},\n", strconv.Quote(t.InputSchema), strconv.Quote(t.Document))
	}
	b.WriteString("}\n\n// readinessDocument is the query of the commerce://readiness resource.\n")
	fmt.Fprintf(&b, "const readinessDocument = %s\n", strconv.Quote(readiness))
	return format.Source(b.Bytes())
}
