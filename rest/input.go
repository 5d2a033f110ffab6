package rest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
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
	"accounts":     "acc",
	"api-keys":     "key",
	"customers":    "cus",
	"deliverables": "del",
	"events":       "evt",
	"listings":     "lst",
	"orders":       "ord",
	"webhooks":     "wh",
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
func checkJSONText(body []byte) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	w := textWalker{dec: dec, body: body}
	param, err := w.value("")
	if err != nil || param == "" {
		return nil
	}
	return problem.Validation(param, param+" "+w.why.Error())
}

type textWalker struct {
	dec  *json.Decoder
	body []byte
	why  error
}

// next reads a token and checks it when it is a string.
func (w *textWalker) next() (json.Token, bool, error) {
	start := w.dec.InputOffset()
	tok, err := w.dec.Token()
	if err != nil {
		return nil, false, err
	}
	s, ok := tok.(string)
	if !ok {
		return tok, false, nil
	}
	// The raw span holds the separators before the literal (ASCII) and the
	// literal itself, escapes still encoded.
	if end := w.dec.InputOffset(); !utf8.Valid(w.body[start:end]) {
		w.why = input.ErrUTF8
		return tok, true, nil
	}
	if err := input.Text(s); err != nil {
		w.why = err
		return tok, true, nil
	}
	return tok, false, nil
}

// value walks one JSON value at path at; it returns the path of the first
// bad string, or "".
func (w *textWalker) value(at string) (string, error) {
	tok, bad, err := w.next()
	if err != nil || bad {
		return at, err
	}
	return w.rest(tok, at)
}

// rest walks the remainder of a value whose first token is tok.
func (w *textWalker) rest(tok json.Token, at string) (string, error) {
	switch tok {
	case json.Delim('{'):
		for w.dec.More() {
			k, bad, err := w.next()
			if err != nil {
				return "", err
			}
			key, _ := k.(string)
			p := key
			if at != "" {
				p = at + "." + key
			}
			if bad {
				return p, nil
			}
			if bad, err := w.value(p); err != nil || bad != "" {
				return bad, err
			}
		}
		_, err := w.dec.Token() // }
		return "", err
	case json.Delim('['):
		for i := 0; w.dec.More(); i++ {
			if bad, err := w.value(at + "[" + strconv.Itoa(i) + "]"); err != nil || bad != "" {
				return bad, err
			}
		}
		_, err := w.dec.Token() // ]
		return "", err
	}
	return "", nil
}

var (
	timeType      = reflect.TypeFor[time.Time]()
	omittableName = "Omittable["
)

// checkTimes returns validation_error naming the first time.Time in v (a
// decoded request body) outside input.Time's range; the name comes from the
// json tags, in the contract's notation.
func checkTimes(v any) error {
	if param, err := findTime(reflect.ValueOf(v), ""); err != nil {
		return problem.Validation(param, param+" "+err.Error())
	}
	return nil
}

func findTime(v reflect.Value, at string) (string, error) {
	if !v.IsValid() {
		return "", nil
	}
	if v.Type() == timeType {
		if v.CanInterface() {
			if err := input.Time(v.Interface().(time.Time)); err != nil {
				return at, err
			}
		}
		return "", nil
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return "", nil
		}
		return findTime(v.Elem(), at)
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if p, err := findTime(v.Index(i), at+"["+strconv.Itoa(i)+"]"); err != nil {
				return p, err
			}
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			k := fmt.Sprint(iter.Key().Interface())
			if p, err := findTime(iter.Value(), join(at, k)); err != nil {
				return p, err
			}
		}
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
			if !f.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if p, err := findTime(v.Field(i), join(at, name)); err != nil {
				return p, err
			}
		}
	}
	return "", nil
}

func join(at, name string) string {
	if at == "" {
		return name
	}
	return at + "." + name
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
