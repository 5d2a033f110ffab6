package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/semaphore"

	"commerce/input"
	"commerce/problem"
)

// maxJSONBody bounds every JSON request body.
const maxJSONBody = 1 << 20

// writeJSON encodes v with status. It writes what json.Marshal and a
// newline would, encoded into a recycled buffer: no copy of the body out of
// the encoder and none to append the newline (an account's body is a few
// kilobytes, a page of listings a hundred).
func writeJSON(w http.ResponseWriter, status int, v any) {
	buf := jsonBuffers.Get().(*bytes.Buffer)
	defer recycleJSONBuffer(buf)
	buf.Reset()
	if err := json.NewEncoder(buf).Encode(v); err != nil { // Marshal's escaping, then '\n'
		panic(fmt.Errorf("encode response: %w", err))
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// writeJSONAppended writes what appendJSON appends for v, and a newline,
// as writeJSON would write v: for the hot responses whose hand-written
// encoder writes what encoding/json writes (orders_json.go).
func writeJSONAppended[T any](w http.ResponseWriter, status int, v T, appendJSON func([]byte, T) []byte) {
	buf := jsonBuffers.Get().(*bytes.Buffer)
	defer recycleJSONBuffer(buf)
	buf.Reset()
	b := append(appendJSON(buf.AvailableBuffer(), v), '\n')
	buf.Write(b) // no copy when b grew in place
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// jsonBuffers holds writeJSON's buffers between responses.
var jsonBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledJSON is the largest buffer kept for another response: a rare
// huge one is left to the collector rather than held.
const maxPooledJSON = 1 << 20

func recycleJSONBuffer(buf *bytes.Buffer) {
	if buf.Cap() <= maxPooledJSON {
		jsonBuffers.Put(buf)
	}
}

// decodeJSON reads a JSON body into dst, strictly, through the input
// boundary (input.go): every string valid UTF-8 without NUL, every
// timestamp within the years 1..9999. Errors: invalid_request (wrong
// Content-Type, malformed JSON, too large, trailing data), validation_error
// (an unknown field, a value of the wrong type, a string or timestamp the
// boundary refuses, named in param).
func decodeJSON(r *http.Request, dst any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
			return problem.New(problem.InvalidRequest, "Content-Type must be application/json.")
		}
	}
	body, tooLarge, err := ReadBody(r, maxJSONBody)
	if err != nil {
		return problem.New(problem.InvalidRequest, "The request body could not be read.")
	}
	if tooLarge {
		return problem.New(problem.InvalidRequest, "The request body is larger than 1 MB.")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return problem.New(problem.InvalidRequest, "A JSON request body is required.")
	}
	// Depth and text in one pass that allocates nothing; the walker that
	// names a refused string runs only when there is one.
	if err := input.CheckJSON(body); errors.Is(err, input.ErrJSONDepth) {
		return CheckJSONDepth(body, "The request body")
	} else if err != nil {
		if err := checkJSONText(body); err != nil {
			return err
		}
	}
	release, err := AdmitJSON(r.Context(), len(body))
	if err != nil {
		return err
	}
	defer release()
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return jsonProblem(err)
	}
	if dec.More() {
		return problem.New(problem.InvalidRequest, "The request body holds more than one JSON value.")
	}
	return checkTimes(dst)
}

// Decoding a JSON document allocates several times its size (the decoder's
// buffer, a string per key, maps and slices of the values), and that is
// the memory 16 large requests at once would add up (CONTRACT §1: no
// request holds more than 64 MB beyond its body, issue 20: nor do 16 of
// them). Documents of largeJSON bytes or more are therefore decoded
// through one process-wide gate that admits at most largeJSONAtOnce bytes
// of them at a time; smaller ones, every ordinary request, never wait. A
// request waits its turn after its body has arrived, so a slow client
// holds no place; one that waits longer than largeJSONWait is refused with
// rate_limited and Retry-After.
const (
	largeJSON       = 64 << 10
	largeJSONAtOnce = maxJSONBody
	largeJSONWait   = 10 * time.Second
)

var largeJSONGate = semaphore.NewWeighted(largeJSONAtOnce)

// AdmitJSON waits until a document of n bytes may be decoded and returns
// the function that lets the next one in (REST bodies, /graphql and /mcp
// call it). Errors: rate_limited after largeJSONWait.
func AdmitJSON(ctx context.Context, n int) (release func(), err error) {
	if n < largeJSON {
		return func() {}, nil
	}
	w := int64(min(n, largeJSONAtOnce))
	wait, cancel := context.WithTimeout(ctx, largeJSONWait)
	defer cancel()
	if err := largeJSONGate.Acquire(wait, w); err != nil {
		p := problem.New(problem.RateLimited, "The service is decoding other large requests; retry in a second, or send a smaller body.")
		p.Header = http.Header{"Retry-After": {"1"}}
		return nil, p.With("retry_after", 1)
	}
	return func() { largeJSONGate.Release(w) }, nil
}

// CheckJSONDepth refuses a JSON document nested deeper than
// input.MaxJSONDepth (CONTRACT §1, "Bounded input"): invalid_request, its
// detail starting with what (such as "The request body"). It is one pass
// over the bytes; every reader of a client's JSON calls it before any other
// work on the document.
func CheckJSONDepth(doc []byte, what string) error {
	if err := input.JSONDepth(doc); err != nil {
		return problem.New(problem.InvalidRequest, input.JSONDepthDetail(what)).
			With("max_depth", input.MaxJSONDepth)
	}
	return nil
}

func jsonProblem(err error) error {
	var (
		syntax *json.SyntaxError
		typ    *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &syntax), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return problem.New(problem.InvalidRequest, "The request body is not valid JSON.")
	case errors.As(err, &typ):
		param := typ.Field
		if param == "" {
			return problem.New(problem.InvalidRequest, "The request body must be a JSON object.")
		}
		return problem.Validation(param, fmt.Sprintf("%s must be a %s", param, jsonKind(typ.Type.Kind().String())))
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		field := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return problem.Validation(field, fmt.Sprintf("unknown field %q", field))
	}
	var p *problem.Problem
	if errors.As(err, &p) {
		return p
	}
	// Errors from a type's UnmarshalJSON, such as a malformed timestamp.
	return problem.New(problem.InvalidRequest, "The request body could not be decoded: "+err.Error())
}

func jsonKind(k string) string {
	switch k {
	case "string":
		return "string"
	case "bool":
		return "boolean"
	case "slice", "array":
		return "array"
	case "map", "struct", "ptr":
		return "valid value"
	default:
		return "number"
	}
}
