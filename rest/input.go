package rest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"

	"commerce/db"
	"commerce/input"
	"commerce/problem"
)

// The input boundary of /v1 (issue 14). Every request of the route table
// passes checkRequest before its handler runs, and every JSON body passes
// decodeJSON; nothing a client sends reaches a resolver (or SQL) unless:
//
//   - every string (JSON values and keys at any depth, path and query
//     parameters, multipart names) is valid UTF-8 without NUL
//     (input.Text): else 422 validation_error naming it;
//   - every timestamp is within the years 1..9999 (input.Time): else 422
//     validation_error naming it;
//   - every path id has its kind's prefix and a ULID after it: else 404
//     not_found (the resource does not exist), before any query;
//   - an id in a filter (idParam) is an id of its kind: else 422
//     validation_error naming the filter.

// pathIDPrefixes is the id prefix of a path parameter, by the collection
// segment before it (/v1/orders/{id} → ord).
var pathIDPrefixes = map[string]string{
	"accounts":          "acc",
	"activations":       "act",
	"agent-connections": "acn",
	"api-keys":          "key",
	"customers":         "cus",
	"deliverables":      "del",
	"discounts":         "dsc",
	"events":            "evt",
	"license-keys":      "lic",
	"listings":          "lst",
	"memberships":       "mem",
	"orders":            "ord",
	"webhooks":          "wh",
}

// pathIDs maps each {param} of a route path to its id prefix. It panics on
// a parameter after an unknown segment: a new route must say what its ids
// look like (add the collection to pathIDPrefixes).
func pathIDs(path string) map[string]string {
	out := map[string]string{}
	segs := strings.Split(path, "/")
	for i, s := range segs {
		if !strings.HasPrefix(s, "{") {
			continue
		}
		prefix, ok := "", i > 0
		if ok {
			prefix, ok = pathIDPrefixes[segs[i-1]]
		}
		if !ok {
			panic(fmt.Sprintf("rest: route %s: no id prefix for %s (add its collection to pathIDPrefixes)", path, s))
		}
		out[strings.Trim(s, "{}")] = prefix
	}
	return out
}

// checkRequest applies the boundary to a request's path and query before
// its handler runs. ids is pathIDs of the route. Errors: not_found (a path
// id), validation_error (a query parameter).
func checkRequest(r *http.Request, ids map[string]string) error {
	if rctx := chi.RouteContext(r.Context()); rctx != nil && len(ids) > 0 {
		for i, k := range rctx.URLParams.Keys {
			prefix, ok := ids[k]
			if !ok {
				continue
			}
			if v := rctx.URLParams.Values[i]; !db.ValidID(prefix, v) {
				return problem.NotFoundf("No %s_… object has the id %q.", prefix, v)
			}
		}
	}
	q := r.URL.Query()
	names := make([]string, 0, len(q))
	for k := range q {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		if err := input.Text(k); err != nil {
			return problem.Validation(k, "a query parameter's name "+err.Error())
		}
		for _, v := range q[k] {
			if err := input.Text(v); err != nil {
				return problem.Validation(k, k+" "+err.Error())
			}
		}
	}
	return nil
}

// checkJSONText walks a JSON body and returns validation_error naming the
// first string (a value or an object key) that is not valid UTF-8 or holds
// a NUL. encoding/json would silently turn invalid UTF-8 into U+FFFD, so
// the raw bytes of each string are checked too. A body that is not valid
// JSON returns nil: decoding reports it.
//
// The walk is a loop over the tokens with a stack of path segments (at
// most input.MaxJSONDepth: decodeJSON checks the depth first); the param
// is rendered only when a string is refused, so the walk allocates nothing
// per level or per element.
func checkJSONText(body []byte) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var (
		at input.Path
		// wantKey[i]: level i is an object between members.
		wantKey []bool
	)
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		top := at.Top()
		switch tok {
		case json.Delim('}'), json.Delim(']'):
			at, wantKey = at[:len(at)-1], wantKey[:len(wantKey)-1]
			if len(at) == 0 {
				return nil // the document's one value is done
			}
			wantKey[len(wantKey)-1] = !at.Top().IsIndex
			continue
		}
		isKey := top != nil && wantKey[len(wantKey)-1]
		if top != nil && top.IsIndex {
			top.Index++
		}
		if str, ok := tok.(string); ok {
			if isKey {
				top.Key = str
			}
			why := input.Text(str)
			// The raw span holds the separators before the literal
			// (ASCII) and the literal itself, escapes still encoded.
			if !utf8.Valid(body[start:dec.InputOffset()]) {
				why = input.ErrUTF8
			}
			if why != nil {
				param := at.String()
				if param == "" {
					return nil // a lone string: decoding refuses it
				}
				return problem.Validation(param, param+" "+why.Error())
			}
		}
		switch {
		case isKey:
			wantKey[len(wantKey)-1] = false
		case tok == json.Delim('{'):
			at, wantKey = at.Key(""), append(wantKey, true)
		case tok == json.Delim('['):
			at, wantKey = at.Index(-1), append(wantKey, false)
		case top == nil:
			return nil // a lone scalar
		default:
			wantKey[len(wantKey)-1] = !top.IsIndex
		}
	}
}

var (
	timeType      = reflect.TypeFor[time.Time]()
	omittableName = "Omittable["
)

// checkTimes returns validation_error naming the first time.Time in v (a
// decoded request body) outside input.Time's range; the name comes from the
// json tags, in the contract's notation. Only the parts of v whose types can
// hold a time.Time are visited (a free-form object such as metadata, decoded
// into maps and slices of any, holds none), and the name is rendered only
// for the time it reports.
func checkTimes(v any) error {
	var at input.Path
	if err := findTime(reflect.ValueOf(v), &at); err != nil {
		param := at.String()
		return problem.Validation(param, param+" "+err.Error())
	}
	return nil
}

// findTime walks v; on a refused time it returns why, with *at its path.
// Its recursion follows the request type's structure, which the code
// declares, not the client.
func findTime(v reflect.Value, at *input.Path) error {
	if !v.IsValid() || !mayHoldTime(v.Type()) {
		return nil
	}
	if v.Type() == timeType {
		if v.CanInterface() {
			return input.Time(v.Interface().(time.Time))
		}
		return nil
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return findTime(v.Elem(), at)
	case reflect.Slice, reflect.Array:
		*at = at.Index(0)
		for i := range v.Len() {
			at.Top().Index = i
			if err := findTime(v.Index(i), at); err != nil {
				return err
			}
		}
		*at = (*at)[:len(*at)-1]
	case reflect.Map:
		*at = at.Key("")
		iter := v.MapRange()
		for iter.Next() {
			at.Top().Key = fmt.Sprint(iter.Key().Interface())
			if err := findTime(iter.Value(), at); err != nil {
				return err
			}
		}
		*at = (*at)[:len(*at)-1]
	case reflect.Struct:
		t := v.Type()
		// gqlgen's Omittable[T] (an optional field of an update input):
		// its value is behind the Value method.
		if strings.HasPrefix(t.Name(), omittableName) && v.CanInterface() {
			if m := v.MethodByName("Value"); m.IsValid() && m.Type().NumIn() == 0 && m.Type().NumOut() == 1 {
				return findTime(m.Call(nil)[0], at)
			}
		}
		for i := range t.NumField() {
			f := t.Field(i)
			name, ok := jsonName(f)
			if !ok {
				continue
			}
			*at = at.Key(name)
			if err := findTime(v.Field(i), at); err != nil {
				return err
			}
			*at = (*at)[:len(*at)-1]
		}
	}
	return nil
}

// jsonName is a struct field's name in JSON; false when encoding/json skips it.
func jsonName(f reflect.StructField) (string, bool) {
	if !f.IsExported() {
		return "", false
	}
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "-" {
		return "", false
	}
	if name == "" {
		name = f.Name
	}
	return name, true
}

// holdsTime caches mayHoldTime by type.
var holdsTime sync.Map // reflect.Type → bool

// mayHoldTime reports whether a value of type t can contain a time.Time.
// An interface cannot here: encoding/json decodes into one only maps,
// slices, strings, numbers and booleans.
func mayHoldTime(t reflect.Type) bool {
	if v, ok := holdsTime.Load(t); ok {
		return v.(bool)
	}
	holdsTime.Store(t, true) // while t is being worked out (recursive types)
	var out bool
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		out = mayHoldTime(t.Elem())
	case reflect.Map:
		out = mayHoldTime(t.Key()) || mayHoldTime(t.Elem())
	case reflect.Struct:
		out = t == timeType || strings.HasPrefix(t.Name(), omittableName)
		for i := 0; !out && i < t.NumField(); i++ {
			out = mayHoldTime(t.Field(i).Type)
		}
	}
	holdsTime.Store(t, out)
	return out
}

// idParam reads a query parameter that filters by an id of the given
// prefix. Errors: validation_error naming the parameter.
func idParam(r *http.Request, name, prefix string) (*string, error) {
	v := strParam(r, name)
	if v != nil && !db.ValidID(prefix, *v) {
		return nil, problem.Validation(name, fmt.Sprintf("%s must be an id of the form %s_…", name, prefix))
	}
	return v, nil
}
