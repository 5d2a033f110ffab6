package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/transport"
)

// postJSON is gqlgen's POST transport, writing a successful response's data
// without running it through encoding/json again. gqlgen's writeJson
// marshals the whole *graphql.Response, and encoding/json then re-validates
// and compacts the marshalled data (a json.RawMessage) byte by byte: 15 %
// of a page of 100 listings' CPU (docs/decisions.md, "Issue 27, second
// round"). Everything else is gqlgen's own transport.POST: the request's
// decoding, the status codes, the content type, errors.
//
// How: for a response without errors, label, path or hasNext, the data is
// taken out of the response before gqlgen writes it, so gqlgen writes
// `{"data":null` and the rest (the extensions); the writer puts the data
// back in place of that null, through appendCompactData, which does to it
// what encoding/json's compact did (TestAppendCompactDataAsEncodingJSON).
type postJSON struct{ transport.POST }

// Do runs gqlgen's POST with the data put back by the writer.
func (t postJSON) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	sw := &splicingWriter{ResponseWriter: w}
	t.POST.Do(sw, r, dataTaker{GraphExecutor: exec, w: sw})
}

// dataTaker hands the writer the data of a response that has nothing but
// data and extensions.
type dataTaker struct {
	graphql.GraphExecutor
	w *splicingWriter
}

func (d dataTaker) DispatchOperation(ctx context.Context, oc *graphql.OperationContext) (graphql.ResponseHandler, context.Context) {
	h, ctx := d.GraphExecutor.DispatchOperation(ctx, oc)
	return func(ctx context.Context) *graphql.Response {
		resp := h(ctx)
		if resp != nil && len(resp.Errors) == 0 && resp.Label == "" && len(resp.Path) == 0 && resp.HasNext == nil && len(resp.Data) > 0 {
			d.w.data, resp.Data = resp.Data, nil
		}
		return resp
	}, ctx
}

// splicingWriter writes the taken data in place of the null gqlgen wrote.
type splicingWriter struct {
	http.ResponseWriter
	data json.RawMessage
}

var nullData = []byte(`{"data":null`)

func (s *splicingWriter) Write(b []byte) (int, error) {
	if s.data == nil || !bytes.HasPrefix(b, nullData) {
		return s.ResponseWriter.Write(b)
	}
	buf := responseBuffers.Get().(*[]byte)
	out := append((*buf)[:0], `{"data":`...)
	out = appendCompactData(out, s.data)
	out = append(out, b[len(nullData):]...)
	s.data = nil
	_, err := s.ResponseWriter.Write(out)
	if cap(out) <= maxPooledResponse {
		*buf = out
		responseBuffers.Put(buf)
	}
	if err != nil {
		return 0, err
	}
	return len(b), nil
}

// responseBuffers hold the spliced responses between requests (a page of
// 100 listings is about 30 KB); one larger than maxPooledResponse is left
// to the collector rather than held.
var responseBuffers = sync.Pool{New: func() any { return new([]byte) }}

const maxPooledResponse = 1 << 20

// Unwrap lets http.ResponseController reach the connection.
func (s *splicingWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

const hexDigits = "0123456789abcdef"

// compactClass marks the bytes appendCompactData acts on: inString in a
// string (the escape, the closing quote, <, >, & and the first byte of
// U+2028 and U+2029), outside one (the opening quote and whitespace).
// Every other byte is copied as it is, in runs.
var compactClass = func() (t [256]uint8) {
	for _, c := range []byte{'\\', '"', '<', '>', '&', 0xE2} {
		t[c] |= inString
	}
	for _, c := range []byte{'"', ' ', '\t', '\n', '\r'} {
		t[c] |= outside
	}
	return t
}()

const (
	inString = 1 << iota
	outside
)

// appendCompactData appends src, valid JSON, as encoding/json's Marshal
// writes a json.RawMessage: whitespace outside strings dropped, and <, >,
// & and U+2028, U+2029 escaped as \u003c, \u003e, \u0026, \u2028, \u2029.
func appendCompactData(dst, src []byte) []byte {
	start := 0
	for i := 0; i < len(src); i++ {
		// Outside a string: skip to a quote or whitespace.
		for i < len(src) && compactClass[src[i]]&outside == 0 {
			i++
		}
		if i == len(src) {
			break
		}
		if src[i] != '"' { // whitespace: dropped
			dst = append(dst, src[start:i]...)
			start = i + 1
			continue
		}
		// In a string, from the byte after its opening quote to its
		// closing one.
		for i++; i < len(src); i++ {
			for i < len(src) && compactClass[src[i]]&inString == 0 {
				i++
			}
			if i == len(src) {
				break
			}
			c := src[i]
			if c == '"' {
				break
			}
			switch {
			case c == '\\':
				i++ // the escaped byte cannot end the string
			case c == '<' || c == '>' || c == '&':
				dst = append(dst, src[start:i]...)
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
				start = i + 1
			case c == 0xE2 && i+2 < len(src) && src[i+1] == 0x80 && src[i+2]&^1 == 0xA8:
				dst = append(dst, src[start:i]...)
				dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[src[i+2]&0xF])
				i += 2
				start = i + 1
			}
		}
	}
	return append(dst, src[start:]...)
}
