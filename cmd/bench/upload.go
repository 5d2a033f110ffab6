package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"strings"
	"time"
)

const (
	// uploadBytes is the size of the uploaded PDF: the largest deliverable
	// (25 MiB).
	uploadBytes = 25 << 20
	// uploadTimeout bounds one upload.
	uploadTimeout = time.Minute
	// pdfHeader starts the uploaded file, so that it is detected as a PDF.
	pdfHeader = "%PDF-1.4\n"
)

// pdfFiller is the repeated content after the header: PDF comment lines.
var pdfFiller = []byte(strings.Repeat("% cmd/bench filler: a 25 MiB deliverable streamed to the service\n", 64))

// setupUpload uploads a 25 MiB PDF deliverable per operation, as
// multipart/form-data whose body is written while it is sent (chunked):
// bench holds none of the file, the service streams it to storage.
func setupUpload(_ context.Context, e *env) (opFactory, func(), error) {
	url := e.cfg.endpoint("/v1/files")
	var transports []*http.Transport
	newOp := func(int) op {
		tr := newTransport(1)
		transports = append(transports, tr) // the factory runs on one goroutine
		client := &http.Client{Transport: tr, Timeout: uploadTimeout}
		return func(ctx context.Context) error { return upload(ctx, client, url, e.cfg.key) }
	}
	cleanup := func() {
		for _, tr := range transports {
			tr.CloseIdleConnections()
		}
	}
	return newOp, cleanup, nil
}

// upload sends one file and checks the answer: 201 and the file's size.
func upload(ctx context.Context, client *http.Client, url, key string) error {
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, pr)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	// The client closes the body (pr) when it is done with the request,
	// which ends this writer too if the service answers before the end.
	go func() { pw.CloseWithError(writeUpload(mw)) }()
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err == nil {
		_, err = io.Copy(io.Discard, resp.Body)
	}
	if err != nil {
		return fmt.Errorf("read response: %w", err)
	}
	if resp.StatusCode != http.StatusCreated {
		return fmt.Errorf("HTTP %d: %.200s", resp.StatusCode, body)
	}
	var f struct {
		Size int64 `json:"size"`
	}
	if err := json.Unmarshal(body, &f); err != nil {
		return fmt.Errorf("response: %w", err)
	}
	if f.Size != uploadBytes {
		return fmt.Errorf("stored %d bytes, sent %d", f.Size, uploadBytes)
	}
	return nil
}

// writeUpload writes the multipart body: purpose deliverable, then the file.
func writeUpload(mw *multipart.Writer) error {
	if err := mw.WriteField("purpose", "deliverable"); err != nil {
		return err
	}
	h := make(textproto.MIMEHeader)
	h.Set("Content-Disposition", `form-data; name="file"; filename="bench.pdf"`)
	h.Set("Content-Type", "application/pdf")
	part, err := mw.CreatePart(h)
	if err != nil {
		return err
	}
	if _, err := io.Copy(part, &pdfReader{size: uploadBytes}); err != nil {
		return err
	}
	return mw.Close()
}

// pdfReader yields size bytes of a PDF: pdfHeader, then pdfFiller over and
// over. It holds nothing but its offset.
type pdfReader struct {
	size, off int64
}

func (r *pdfReader) Read(p []byte) (int, error) {
	if r.off >= r.size {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), r.size-r.off)]
	n := 0
	for n < len(p) {
		var src []byte
		if r.off < int64(len(pdfHeader)) {
			src = []byte(pdfHeader[r.off:])
		} else {
			src = pdfFiller[(r.off-int64(len(pdfHeader)))%int64(len(pdfFiller)):]
		}
		c := copy(p[n:], src)
		n += c
		r.off += int64(c)
	}
	return n, nil
}
