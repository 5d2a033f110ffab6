// Command gqlgen is `make generate`'s GraphQL step: gqlgen's own generation
// (gqlgen.yml, the pinned github.com/99designs/gqlgen) plus the direct
// marshaller of docs/decisions.md ("GraphQL execution: the direct
// marshaller").
//
// gqlgen has no exec template override, and a plugin's GenerateCode runs
// before the exec code is written. So this program runs gqlgen with a plugin
// that keeps codegen.Data, then writes graph/fast_gen.go from it and inserts
// one hook line at the top of the generated functions it speeds up (an
// object's _X and the list marshallers of objects). Every insertion is
// anchored on the function's exact generated signature, and a missing anchor
// fails the run. Finally it builds the package.
package main

import (
	"bytes"
	"fmt"
	"go/format"
	"go/types"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/99designs/gqlgen/api"
	"github.com/99designs/gqlgen/codegen"
	"github.com/99designs/gqlgen/codegen/config"
	"github.com/vektah/gqlparser/v2/ast"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("gqlgen: ")
	cfg, err := config.LoadConfigFromDefaultLocations()
	if err != nil {
		log.Fatal(err)
	}
	fastFile := filepath.Join(filepath.Dir(cfg.Exec.Filename), "fast_gen.go")
	// The previous fast_gen.go may name functions the new schema no longer
	// has; gqlgen's validation builds the package without it.
	if err := os.Remove(fastFile); err != nil && !os.IsNotExist(err) {
		log.Fatal(err)
	}
	p := &plugin{}
	if err := api.Generate(cfg, api.AddPlugin(p)); err != nil {
		log.Fatal(err)
	}
	if p.data == nil {
		log.Fatal("the plugin saw no codegen.Data")
	}
	g := newGen(p.data)
	src, hooks, err := g.generate()
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(fastFile, src, 0o644); err != nil {
		log.Fatal(err)
	}
	if err := insertHooks(cfg.Exec.Filename, hooks); err != nil {
		log.Fatal(err)
	}
	cmd := exec.Command("go", "build", "./"+filepath.ToSlash(filepath.Dir(relPath(cfg.Exec.Filename)))+"/")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		log.Fatalf("the generated package does not build: %v", err)
	}
}

func relPath(p string) string {
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	if r, err := filepath.Rel(wd, p); err == nil {
		return r
	}
	return p
}

type plugin struct{ data *codegen.Data }

func (*plugin) Name() string { return "gqlfast" }

func (p *plugin) GenerateCode(data *codegen.Data) error {
	p.data = data
	return nil
}

// hook is one line inserted at the top of a generated function.
type hook struct {
	signature string // the function's first line, exactly as generated
	line      string
}

// insertHooks inserts each hook after its function's signature line; a
// signature found other than once fails.
func insertHooks(file string, hooks []hook) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	s := string(b)
	for _, h := range hooks {
		anchor := "\n" + h.signature + "\n"
		if n := strings.Count(s, anchor); n != 1 {
			return fmt.Errorf("%s: anchor %q found %d times, want 1", file, h.signature, n)
		}
		s = strings.Replace(s, anchor, anchor+"\t"+h.line+"\n", 1)
	}
	out, err := format.Source([]byte(s))
	if err != nil {
		return fmt.Errorf("%s after the hooks: %w", file, err)
	}
	return os.WriteFile(file, out, 0o644)
}

type gen struct {
	data    *codegen.Data
	objects map[string]*codegen.Object // the objects with a direct marshaller, by GraphQL name
	imports map[string]string          // path -> name
	// fail is the statement that gives up on the direct path ("" is
	// "return false").
	fail string
	buf  bytes.Buffer
}

func newGen(data *codegen.Data) *gen {
	return &gen{data: data, objects: map[string]*codegen.Object{}, imports: map[string]string{}}
}

const gqlPkg = "github.com/99designs/gqlgen/graphql"

func (g *gen) qual(p *types.Package) string {
	if p == nil {
		return ""
	}
	if p.Path() == g.data.Config.Exec.ImportPath() {
		return ""
	}
	name := p.Name()
	for path, n := range g.imports {
		if n == name && path != p.Path() {
			log.Fatalf("import name %s used by %s and %s", name, path, p.Path())
		}
	}
	g.imports[p.Path()] = name
	return name
}

func (g *gen) typ(t types.Type) string { return types.TypeString(t, g.qual) }

func (g *gen) failStmt() string {
	if g.fail == "" {
		return "return false"
	}
	return g.fail
}

func (g *gen) printf(format string, args ...any) { fmt.Fprintf(&g.buf, format, args...) }

// eligible reports whether an object gets a direct marshaller: not a root,
// bound to a named Go struct.
func eligible(o *codegen.Object) bool {
	if o.Root || o.Kind != ast.Object || o.Stream {
		return false
	}
	n, ok := o.Type.(*types.Named)
	if !ok {
		return false
	}
	_, ok = n.Underlying().(*types.Struct)
	return ok
}

// plain reports whether a field can be written directly: a struct field,
// or a method of the model that takes nothing and returns only its value
// (no context, no error: gqlgen's generated path calls it the same way, with
// nothing that could fail), with no resolver, no arguments and no field
// directives, whose type the writer knows.
func (g *gen) plain(f *codegen.Field) bool {
	if f.IsResolver || len(f.Args) > 0 ||
		len(f.ImplDirectives()) > 0 || f.HasHaser || f.Stream || f.Batch || f.TypeReference == nil {
		return false
	}
	switch {
	case f.GoFieldType == codegen.GoFieldVariable:
	case f.GoFieldType == codegen.GoFieldMethod && !f.MethodHasContext && f.NoErr && !f.VOkFunc:
	default:
		return false
	}
	return g.supported(f.TypeReference, true)
}

// fieldValue writes, for a method, the statement that calls it once into a
// local, and returns the expression of the field's value.
func (g *gen) fieldValue(f *codegen.Field) string {
	if f.GoFieldType == codegen.GoFieldMethod {
		g.printf("mv := obj.%s()\n", f.GoFieldName)
		return "mv"
	}
	return "obj." + f.GoFieldName
}

func unusual(t *config.TypeReference) bool {
	return t.IsPtrToPtr() || t.IsPtrToSlice() || t.IsPtrToIntf() || t.IsContext || t.IsOmittable ||
		(t.IsTargetNilable() && !t.IsNilable())
}

func (g *gen) supported(t *config.TypeReference, allowSlice bool) bool {
	if unusual(t) {
		return false
	}
	if t.IsSlice() {
		if !allowSlice {
			return false
		}
		return g.supported(t.Elem(), false)
	}
	if t.IsMarshaler {
		return true
	}
	if t.Marshaler != nil {
		return true
	}
	if t.Definition != nil && t.Definition.Kind == ast.Object {
		_, ok := g.objects[t.Definition.Name]
		return ok && !t.IsRoot
	}
	return false
}

func lcFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func (g *gen) generate() ([]byte, []hook, error) {
	for _, o := range g.data.Objects {
		if eligible(o) {
			g.objects[o.Name] = o
		}
	}
	// An object whose fields are all out of reach gets no marshaller. Drop
	// them until nothing changes (a nested object may depend on one).
	for {
		changed := false
		for name, o := range g.objects {
			n := 0
			for _, f := range o.Fields {
				if g.plain(f) {
					n++
				}
			}
			if n == 0 {
				delete(g.objects, name)
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	names := make([]string, 0, len(g.objects))
	for n := range g.objects {
		names = append(names, n)
	}
	sort.Strings(names)

	var hooks []hook
	for _, name := range names {
		o := g.objects[name]
		g.object(o)
		hooks = append(hooks, hook{
			signature: fmt.Sprintf("func (ec *executionContext) _%s(ctx context.Context, sel ast.SelectionSet, obj *%s) graphql.Marshaler {", name, g.typ(o.Type)),
			line:      fmt.Sprintf("if m, ok := ec.fast_%s(ctx, sel, obj); ok { return m }", name),
		})
	}
	// The plain scalar fields of those objects, when their object takes
	// gqlgen's path (a resolver field beside them): the field's function
	// writes the value without ResolveField. Object-valued fields are left
	// out: below them gqlgen's path needs their FieldContext (errors' paths).
	for _, name := range names {
		o := g.objects[name]
		for _, f := range o.Fields {
			if !g.plain(f) || g.isObject(f.TypeReference) {
				continue
			}
			g.field(o, f)
			hooks = append(hooks, hook{
				signature: fmt.Sprintf("func (ec *executionContext) _%s_%s(ctx context.Context, field graphql.CollectedField, obj *%s) (ret graphql.Marshaler) {", name, f.Name, g.typ(o.Type)),
				line:      fmt.Sprintf("if m, ok := ec.fastField_%s_%s(obj); ok { return m }", name, f.Name),
			})
		}
	}
	// The list marshallers of those objects.
	var lists []*config.TypeReference
	for _, t := range g.data.ReferencedTypes {
		if !t.IsSlice() || unusual(t) || t.MarshalFunc() == "" {
			continue
		}
		e := t.Elem()
		if e.IsSlice() || unusual(e) || e.Definition == nil || e.Definition.Kind != ast.Object {
			continue
		}
		if _, ok := g.objects[e.Definition.Name]; !ok || g.data.HasBatchFields(e.Definition.Name) {
			continue
		}
		lists = append(lists, t)
	}
	sort.Slice(lists, func(i, j int) bool { return lists[i].MarshalFunc() < lists[j].MarshalFunc() })
	for _, t := range lists {
		g.list(t)
		hooks = append(hooks, hook{
			signature: fmt.Sprintf("func (ec *executionContext) %s(ctx context.Context, sel ast.SelectionSet, v %s) graphql.Marshaler {", t.MarshalFunc(), g.typ(t.GO)),
			line:      fmt.Sprintf("if m, ok := ec.fast_%s(ctx, sel, v); ok { return m }", t.MarshalFunc()),
		})
	}

	body := g.buf.Bytes()
	var out bytes.Buffer
	out.WriteString("// Code generated by cmd/gqlgen (the direct marshaller), DO NOT EDIT.\n\npackage " + g.data.Config.Exec.Package + "\n\n")
	paths := []string{"context"}
	for p := range g.imports {
		paths = append(paths, p)
	}
	paths = append(paths, "github.com/vektah/gqlparser/v2/ast", gqlPkg)
	sort.Strings(paths)
	out.WriteString("import (\n")
	seen := map[string]bool{}
	for _, p := range paths {
		if !seen[p] {
			seen[p] = true
			fmt.Fprintf(&out, "\t%q\n", p)
		}
	}
	out.WriteString(")\n\n")
	out.Write(body)
	src, err := format.Source(out.Bytes())
	if err != nil {
		return out.Bytes(), nil, fmt.Errorf("fast_gen.go: %w", err)
	}
	return src, hooks, nil
}

// object writes the plan, writer and entry point of one object.
func (g *gen) object(o *codegen.Object) {
	g.qual(types.NewPackage(gqlPkg, "graphql"))
	name := o.Name
	typ := g.typ(o.Type)
	var fields []*codegen.Field
	for _, f := range o.Fields {
		if g.plain(f) {
			fields = append(fields, f)
		}
	}

	g.printf("// fastPlan_%s is sel's plan on %s, or nil when a selected field needs the generated path.\n", name, name)
	g.printf("func (ec *executionContext) fastPlan_%s(sel ast.SelectionSet) *fastPlan {\n", name)
	g.printf("\tif fastDisabled.Load() { return nil }\n")
	g.printf("\tfields := graphql.CollectFields(ec.OperationContext, sel, %sImplementors)\n", lcFirst(name))
	g.printf("\tp := &fastPlan{fields: make([]fastField, len(fields))}\n")
	g.printf("\tfor i := range fields {\n\t\tf := &fields[i]\n")
	g.printf("\t\tif len(f.Deferrables) > 0 || fastExcluded(%q, f.Name) { return nil }\n", name)
	g.printf("\t\tp.fields[i].key = fastKey(f.Alias)\n")
	g.printf("\t\tswitch f.Name {\n\t\tcase \"__typename\":\n\t\t\tp.fields[i].id = 0\n")
	for i, f := range fields {
		g.printf("\t\tcase %q:\n\t\t\tp.fields[i].id = %d\n", f.Name, i+1)
		t := f.TypeReference
		if t.IsSlice() {
			t = t.Elem()
		}
		if t.Definition.Kind == ast.Object {
			g.printf("\t\t\tif p.fields[i].sub = ec.fastPlan_%s(f.Selections); p.fields[i].sub == nil { return nil }\n", t.Definition.Name)
		}
	}
	g.printf("\t\tdefault:\n\t\t\treturn nil\n\t\t}\n\t}\n\treturn p\n}\n\n")

	g.printf("// fastWrite_%s writes obj as p selects it, or reports false (a non-null value missing).\n", name)
	g.printf("func (ec *executionContext) fastWrite_%s(p *fastPlan, obj *%s, b *fastBuf) bool {\n", name, typ)
	g.printf("\tb.WriteByte('{')\n\tfor i := range p.fields {\n\t\tf := &p.fields[i]\n\t\tif i > 0 { b.WriteByte(',') }\n\t\tb.Write(f.key)\n")
	g.printf("\t\tswitch f.id {\n\t\tcase 0:\n\t\t\tb.WriteString(%q)\n", `"`+name+`"`)
	for i, f := range fields {
		g.printf("\t\tcase %d:\n", i+1)
		g.value(f.TypeReference, g.fieldValue(f), "f.sub")
	}
	g.printf("\t\t}\n\t}\n\tb.WriteByte('}')\n\treturn true\n}\n\n")

	g.printf("// fast_%s is _%s's direct path.\n", name, name)
	g.printf("func (ec *executionContext) fast_%s(_ context.Context, sel ast.SelectionSet, obj *%s) (graphql.Marshaler, bool) {\n", name, typ)
	g.printf("\tp := ec.fastPlan_%s(sel)\n\tif p == nil { return nil, false }\n", name)
	g.printf("\tb := &fastBuf{}\n\tif !ec.fastWrite_%s(p, obj, b) { return nil, false }\n\treturn b, true\n}\n\n", name)
}

func (g *gen) isObject(t *config.TypeReference) bool {
	if t.IsSlice() {
		t = t.Elem()
	}
	return t.Definition != nil && t.Definition.Kind == ast.Object && !t.IsMarshaler && t.Marshaler == nil
}

// field writes a plain scalar field's direct path.
func (g *gen) field(o *codegen.Object, f *codegen.Field) {
	g.printf("// fastField_%s_%s is _%s_%s's direct path.\n", o.Name, f.Name, o.Name, f.Name)
	g.printf("func (ec *executionContext) fastField_%s_%s(obj *%s) (graphql.Marshaler, bool) {\n", o.Name, f.Name, g.typ(o.Type))
	g.printf("\tif fastDisabled.Load() || fastExcluded(%q, %q) { return nil, false }\n", o.Name, f.Name)
	g.printf("\tb := &fastBuf{}\n\tswitch {\n\tdefault:\n")
	g.fail = "return nil, false"
	g.value(f.TypeReference, g.fieldValue(f), "nil")
	g.fail = ""
	g.printf("\t}\n\treturn b, true\n}\n\n")
}

// list writes the direct path of a list marshaller.
func (g *gen) list(t *config.TypeReference) {
	e := t.Elem()
	name := e.Definition.Name
	g.printf("// fast_%s is %s's direct path: one plan for every element, no goroutine.\n", t.MarshalFunc(), t.MarshalFunc())
	g.printf("func (ec *executionContext) fast_%s(_ context.Context, sel ast.SelectionSet, v %s) (graphql.Marshaler, bool) {\n", t.MarshalFunc(), g.typ(t.GO))
	if !t.GQL.NonNull {
		g.printf("\tif v == nil { return nil, false }\n")
	}
	g.printf("\tp := ec.fastPlan_%s(sel)\n\tif p == nil { return nil, false }\n", name)
	g.printf("\tb := &fastBuf{}\n\tb.Grow(64 * len(v) + 2)\n")
	g.printf("\tif !ec.fastList_%s(p, v, b) { return nil, false }\n\treturn b, true\n}\n\n", t.MarshalFunc())
	g.printf("func (ec *executionContext) fastList_%s(p *fastPlan, v %s, b *fastBuf) bool {\n", t.MarshalFunc(), g.typ(t.GO))
	g.printf("\tb.WriteByte('[')\n\tstart := b.Len()\n\tfor i := range v {\n\t\tif i > 0 { b.WriteByte(','); if i == 1 { b.growLike(start, len(v)) } }\n")
	g.element(e, "v[i]", "p")
	g.printf("\t}\n\tb.WriteByte(']')\n\treturn true\n}\n\n")
}

// value writes the statements that write v of type t (a field's value),
// returning false from the writer when a non-null value is missing.
func (g *gen) value(t *config.TypeReference, v, sub string) {
	if t.IsSlice() {
		if !t.GQL.NonNull {
			g.printf("if %s == nil { b.WriteString(\"null\"); break }\n", v)
		}
		g.printf("b.WriteByte('[')\nstart := b.Len()\nfor j := range %s {\nif j > 0 { b.WriteByte(','); if j == 1 { b.growLike(start, len(%s)) } }\n", v, v)
		g.element(t.Elem(), v+"[j]", sub)
		g.printf("}\nb.WriteByte(']')\n")
		return
	}
	g.single(t, v, sub, "break")
}

// element writes one element of a list inside a for loop (continue after
// a null).
func (g *gen) element(t *config.TypeReference, v, sub string) {
	g.single(t, v, sub, "continue")
}

// single writes a non-list value; after writing null it runs next.
func (g *gen) single(t *config.TypeReference, v, sub, next string) {
	if t.IsNilable() {
		if t.GQL.NonNull {
			g.printf("if %s == nil { %s }\n", v, g.failStmt())
		} else {
			g.printf("if %s == nil { b.WriteString(\"null\"); %s }\n", v, next)
		}
	}
	if t.Definition != nil && t.Definition.Kind == ast.Object && !t.IsMarshaler && t.Marshaler == nil {
		ref := v
		if !t.IsNilable() {
			ref = "&" + v
		}
		g.printf("if !ec.fastWrite_%s(%s, %s, b) { return false }\n", t.Definition.Name, sub, ref)
		return
	}
	if t.IsMarshaler { // gqlgen returns v itself
		g.printf("%s.MarshalGQL(b)\n", v)
		return
	}
	x := v
	if t.IsNilable() && !t.IsTargetNilable() {
		x = "(*" + v + ")"
	}
	if t.HasEnumValues() {
		x = fmt.Sprintf("%s[%s]", t.EnumMarshalVar(false), x)
	} else if t.CastType != nil {
		x = fmt.Sprintf("%s(%s)", g.typ(t.CastType), x)
	}
	m := t.Marshaler
	null := g.failStmt()
	if !t.GQL.NonNull {
		null = "b.WriteString(\"null\")"
	}
	if m.Pkg() != nil && m.Pkg().Path() == gqlPkg {
		switch m.Name() {
		case "MarshalString", "MarshalID":
			g.printf("b.str(%s)\n", x)
			return
		case "MarshalInt", "MarshalInt32", "MarshalInt64":
			g.printf("b.int(int64(%s))\n", x)
			return
		case "MarshalBoolean":
			g.printf("b.bool(%s)\n", x)
			return
		case "MarshalTime":
			g.printf("if t := %s; t.IsZero() { %s } else { b.time(t) }\n", x, null)
			return
		}
	}
	fn := m.Name()
	if q := g.qual(m.Pkg()); q != "" {
		fn = q + "." + fn
	}
	g.printf("if m := %s(%s); m == graphql.Null { %s } else { m.MarshalGQL(b) }\n", fn, x, null)
}
