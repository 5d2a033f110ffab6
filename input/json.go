package input

import (
	"errors"
	"strconv"
	"unicode/utf8"
)

// MaxJSONDepth is the deepest a JSON document from a client may nest: a REST
// body, GraphQL variables and extensions, an MCP message, a processor event
// (CONTRACT §1, "Bounded input"). An object or array at the top is level 1.
const MaxJSONDepth = 32

// ErrJSONDepth is the reason a document nested deeper than MaxJSONDepth is
// refused.
var ErrJSONDepth = errors.New("nests arrays and objects more than 32 levels deep")

// JSONDepthDetail is the detail of a refusal for ErrJSONDepth, what naming
// the document ("The request body").
func JSONDepthDetail(what string) string {
	return what + " " + ErrJSONDepth.Error() + ": send a flatter document."
}

// JSONDepth reports whether the JSON text b nests its arrays and objects
// deeper than MaxJSONDepth: ErrJSONDepth when it does, nil otherwise. It is
// one pass over the bytes with no allocation and no recursion, so it runs
// before anything else reads the document: decoders and walkers after it
// see at most MaxJSONDepth levels. Brackets inside strings do not count. It
// does not validate the text: malformed JSON within the depth returns nil,
// and the decoder that follows reports it.
func JSONDepth(b []byte) error { return scanJSON(b, false) }

// CheckJSON is JSONDepth and Text in the same pass: ErrJSONDepth first
// (the scan stops there), else ErrUTF8 or ErrNUL when a string literal (a
// key or a value) holds bytes that are not UTF-8 or an escaped NUL
// (\u0000), else nil. It allocates nothing, so a document that passes
// costs no more to check than to read; the caller finds where a refused
// string is with a walker, only then.
func CheckJSON(b []byte) error { return scanJSON(b, true) }

func scanJSON(b []byte, text bool) error {
	depth := 0
	var bad error // the first string refused (depth still counts after it)
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			// Skip the string: a backslash escapes the next byte (\" and
			// \\ included; \uXXXX holds no quote or backslash).
			start := i + 1
			ascii := true
			for i++; i < len(b) && b[i] != '"'; i++ {
				switch c := b[i]; {
				case c == '\\':
					if text && bad == nil && i+5 < len(b) && string(b[i+1:i+6]) == "u0000" {
						bad = ErrNUL
					}
					i++
				case c >= utf8.RuneSelf:
					ascii = false
				}
			}
			if text && bad == nil && !ascii && !utf8.Valid(b[start:min(i, len(b))]) {
				bad = ErrUTF8
			}
		case '[', '{':
			if depth++; depth > MaxJSONDepth {
				return ErrJSONDepth
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return bad
}

// Path is where a value sits in a client's document: a stack of segments
// that walkers push and pop as they descend, rendered in the contract's
// notation (checkout_schema[2].kind) only when a value is reported, so a
// walk allocates nothing per level or per element.
type Path []Segment

// Segment is one level of a Path: a member's name, or an element's index.
type Segment struct {
	Key     string
	Index   int
	IsIndex bool
}

// Key returns p with the member name appended.
func (p Path) Key(name string) Path { return append(p, Segment{Key: name}) }

// Index returns p with the element index appended.
func (p Path) Index(i int) Path { return append(p, Segment{Index: i, IsIndex: true}) }

// Top is the last segment (nil when p is empty).
func (p Path) Top() *Segment {
	if len(p) == 0 {
		return nil
	}
	return &p[len(p)-1]
}

// String renders p: members joined with dots, indexes in brackets.
func (p Path) String() string {
	n := 0
	for _, s := range p {
		n += len(s.Key) + 3
	}
	b := make([]byte, 0, n)
	for _, s := range p {
		if s.IsIndex {
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(s.Index), 10)
			b = append(b, ']')
			continue
		}
		if len(b) > 0 {
			b = append(b, '.')
		}
		b = append(b, s.Key...)
	}
	return string(b)
}
