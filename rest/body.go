package rest

import (
	"bytes"
	"errors"
	"io"
	"net/http"
)

// ReadBody reads r's body, at most limit bytes; tooLarge reports a longer
// one (then body is nil and the body's first limit+1 bytes are consumed). The body is read into one buffer
// of its declared length when it has one, so reading 1 MiB allocates 1 MiB
// (io.ReadAll's doubling allocates twice that), and a body another reader
// already holds (BufferBody) is returned without a copy. Errors: the
// connection's, such as a client gone before its body arrived.
func ReadBody(r *http.Request, limit int64) (body []byte, tooLarge bool, err error) {
	if b, ok := r.Body.(*bufferedBody); ok {
		return b.b, int64(len(b.b)) > limit, nil
	}
	if r.ContentLength > limit {
		// Read and drop as much as a body within the limit could hold
		// (no memory: io.Discard), as reading it would have: a body a
		// little over the limit is then drained by the server, and its
		// client reads the refusal instead of a connection reset under
		// its write.
		_, err := io.CopyN(io.Discard, r.Body, limit+1)
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, true, err
		}
		return nil, true, nil
	}
	if r.ContentLength >= 0 {
		// One byte more than declared tells a body longer than its
		// Content-Length (net/http refuses that already; cheap to check).
		body = make([]byte, r.ContentLength+1)
		n, err := io.ReadFull(r.Body, body)
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
			return nil, false, err
		}
		body = body[:n]
	} else {
		var buf bytes.Buffer
		if _, err := buf.ReadFrom(io.LimitReader(r.Body, limit+1)); err != nil {
			return nil, false, err
		}
		body = buf.Bytes()
	}
	return body, int64(len(body)) > limit, nil
}

// BufferBody gives r its body again as b, for the next reader: ReadBody
// returns b itself, any other reader reads it.
func BufferBody(r *http.Request, b []byte) {
	r.Body = &bufferedBody{Reader: bytes.NewReader(b), b: b}
}

type bufferedBody struct {
	*bytes.Reader
	b []byte
}

func (*bufferedBody) Close() error { return nil }
