// Package storage keeps uploaded files in a gocloud.dev blob bucket
// (FILE_STORAGE_URL) and decides which uploads are acceptable.
//
// Decisions:
//
//   - Uploads are streamed. PutUpload holds only the leading bytes needed to
//     sniff the type (4096, mimetype's default read limit) and the copy
//     buffer; the size limit is enforced while copying, and an upload that
//     goes over it, or fails, is aborted by cancelling the blob writer's
//     context, so no partial object is ever committed.
//   - The type is detected from content with github.com/gabriel-vasile/mimetype.
//     The declared type (the part's Content-Type, or the filename's extension
//     when that is empty or application/octet-stream) must name the detected
//     type or one of its ancestors (DOCX and EPUB declared as application/zip
//     are fine), allowing for aliases. When nothing at all is declared, the
//     detected type stands on its own.
//   - Accepted types, matched against the detected type and its ancestors:
//     cover and avatar take JPEG, PNG, WebP and GIF. Deliverables take PDF,
//     EPUB, ZIP (and ZIP-based formats), JPEG, PNG, GIF, WebP, BMP, TIFF, AVIF,
//     HEIC/HEIF, MP3, WAV, Ogg, FLAC, AAC, M4A/MP4 audio, AIFF, MP4, WebM,
//     QuickTime, M4V, Matroska, MPEG, AVI, Ogg video, 3GP, DOC, XLS, PPT,
//     DOCX, XLSX, PPTX, ODT, ODS, ODP and RTF. Plain text, CSV, HTML, SVG, XML
//     and scripts are refused: they are not in the spec's list and the markup
//     ones can run script when opened in a browser. Legacy Office files that
//     mimetype only recognises as a generic OLE container are refused too.
//   - Only the content type is stored with a blob; file names and
//     Content-Disposition belong to whoever serves the file.
//   - file:// URLs may be relative to the working directory
//     (file://./.data/files); the directory is created if missing, and
//     temporary files are written next to the final ones (fileblob's
//     no_tmp_dir) so that committing is a rename within one file system.
package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"

	"github.com/gabriel-vasile/mimetype"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	// Drivers for FILE_STORAGE_URL schemes that every build has. The cloud
	// drivers are behind build tags (drivers_*.go): -tags s3, -tags gcs.
	_ "gocloud.dev/blob/fileblob"
	_ "gocloud.dev/blob/memblob"
)

// optionalDrivers names the build tag that compiles in the driver of each
// cloud scheme that the default build leaves out.
var optionalDrivers = map[string]string{
	"s3": "s3",
	"gs": "gcs",
}

// NotCompiledError is returned by Open for a FILE_STORAGE_URL whose scheme
// names a driver that this binary was built without.
type NotCompiledError struct{ Scheme, Tag string }

func (e *NotCompiledError) Error() string {
	if e.Tag == "" {
		return fmt.Sprintf("no storage driver for the scheme %q (supported: file, mem, and with build tags s3, gs)", e.Scheme)
	}
	return fmt.Sprintf("the %s:// storage driver is not compiled into this binary: build it with -tags %s (see README, Build tags)", e.Scheme, e.Tag)
}

// sniffLen is how many leading bytes are read to detect the type: mimetype's
// default read limit (this module never calls mimetype.SetLimit).
const sniffLen = 4096

var (
	// ErrNotExist is returned for a key that holds no object.
	ErrNotExist = errors.New("storage: object does not exist")
	// ErrEmpty is returned by PutUpload for an upload without content.
	ErrEmpty = errors.New("storage: the file is empty")
)

// TooLargeError is returned by PutUpload when the content exceeds the rule's
// limit.
type TooLargeError struct{ MaxBytes int64 }

func (e *TooLargeError) Error() string {
	if e.MaxBytes%mib == 0 {
		return fmt.Sprintf("storage: the file is larger than %d MB", e.MaxBytes/mib)
	}
	return fmt.Sprintf("storage: the file is larger than %d bytes", e.MaxBytes)
}

// TypeError is returned by PutUpload when the content does not agree with
// the declared type, or its type is not accepted for the purpose. Reason, and
// so Error, is a sentence suitable for showing to an API user.
type TypeError struct{ Declared, Detected, Reason string }

func (e *TypeError) Error() string { return e.Reason }

// Info describes a stored upload.
type Info struct {
	Size        int64
	ContentType string // the detected MIME type, e.g. application/pdf
}

// Attributes describe a stored object.
type Attributes struct {
	Size        int64
	ContentType string
}

// Store is a blob bucket holding uploaded files.
type Store struct {
	b *blob.Bucket
	// local: a file:// or mem:// store, whose links the service signs and
	// serves itself (links.go), with linkKey, at linkBase.
	local    bool
	linkKey  []byte
	linkBase string
}

// Open opens the bucket at rawURL, the FILE_STORAGE_URL: a gocloud.dev blob
// URL whose driver is compiled in (file:// and mem:// always; s3:// with
// -tags s3, gs:// with -tags gcs), else a *NotCompiledError. A file:// URL may
// be relative (file://./.data/files) and its directory is created if missing.
func Open(ctx context.Context, rawURL string) (*Store, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("FILE_STORAGE_URL: %w", err)
	}
	if u.Scheme == "" {
		return nil, fmt.Errorf("FILE_STORAGE_URL %q: not a URL with a scheme (file://, s3://, gs://)", rawURL)
	}
	if u.Scheme == "file" {
		if u, err = localDir(u); err != nil {
			return nil, fmt.Errorf("FILE_STORAGE_URL %q: %w", rawURL, err)
		}
	}
	if !blob.DefaultURLMux().ValidBucketScheme(u.Scheme) {
		return nil, fmt.Errorf("FILE_STORAGE_URL %q: %w", u.Redacted(), &NotCompiledError{Scheme: u.Scheme, Tag: optionalDrivers[u.Scheme]})
	}
	b, err := blob.OpenBucket(ctx, u.String())
	if err != nil {
		return nil, fmt.Errorf("FILE_STORAGE_URL %q: %w", u.Redacted(), err)
	}
	return &Store{b: b, local: u.Scheme == "file" || u.Scheme == "mem"}, nil
}

// localDir turns a file:// URL into one naming an absolute directory, which
// it creates.
func localDir(u *url.URL) (*url.URL, error) {
	p := u.Path
	switch u.Host {
	case "", "localhost":
	default: // file://./x, file://../x and file://x/y are relative paths
		p = u.Host + p
	}
	if p == "" {
		return nil, errors.New("no directory")
	}
	dir, err := filepath.Abs(filepath.FromSlash(p))
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, err
	}
	q := u.Query()
	if _, ok := q["no_tmp_dir"]; !ok {
		q.Set("no_tmp_dir", "true")
	}
	return &url.URL{Scheme: "file", Path: filepath.ToSlash(dir), RawQuery: q.Encode()}, nil
}

// Close releases the bucket.
func (s *Store) Close() error { return s.b.Close() }

// PutUpload streams r into key after checking it against rule, which must
// come from RuleFor. declaredType is the part's Content-Type and filename its
// file name. Only a small head buffer is held in memory. Errors are
// *TooLargeError, *TypeError, ErrEmpty or a wrapped storage or read error; on
// error nothing is stored under key.
func (s *Store) PutUpload(ctx context.Context, key string, r io.Reader, declaredType, filename string, rule Rule) (Info, error) {
	if err := validKeys(key); err != nil {
		return Info{}, err
	}
	head := make([]byte, sniffLen)
	n, err := io.ReadFull(r, head)
	switch {
	case err == io.EOF:
		return Info{}, ErrEmpty
	case err == io.ErrUnexpectedEOF:
		r = eofReader{} // the whole file is in head
	case err != nil:
		return Info{}, fmt.Errorf("storage: read upload: %w", err)
	}
	head = head[:n]
	if int64(n) > rule.MaxBytes {
		return Info{}, &TooLargeError{MaxBytes: rule.MaxBytes}
	}
	detected := mimetype.Detect(head)
	if err := checkType(detected, claimedType(declaredType, filename), rule); err != nil {
		return Info{}, err
	}

	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w, err := s.b.NewWriter(wctx, key, &blob.WriterOptions{ContentType: detected.String()})
	if err != nil {
		return Info{}, fmt.Errorf("storage: write %q: %w", key, err)
	}
	abort := func(err error) (Info, error) {
		cancel() // a writer whose context is cancelled commits nothing
		_ = w.Close()
		return Info{}, err
	}
	if _, err := w.Write(head); err != nil {
		return abort(fmt.Errorf("storage: write %q: %w", key, err))
	}
	// Read at most one byte more than allowed, to tell "exactly at the limit"
	// from "over it". Hiding the writer's ReadFrom makes io.Copy use its
	// 32 KB buffer instead of blob.Writer's 1 MB one.
	rest, err := io.Copy(struct{ io.Writer }{w}, io.LimitReader(r, rule.MaxBytes-int64(n)+1))
	size := int64(n) + rest
	if err != nil {
		return abort(fmt.Errorf("storage: write %q: %w", key, err))
	}
	if size > rule.MaxBytes {
		return abort(&TooLargeError{MaxBytes: rule.MaxBytes})
	}
	if err := w.Close(); err != nil {
		return Info{}, fmt.Errorf("storage: write %q: %w", key, err)
	}
	return Info{Size: size, ContentType: detected.String()}, nil
}

// checkType applies the agreement and the purpose's type list.
func checkType(detected *mimetype.MIME, declared string, rule Rule) error {
	if declared != "" && !agrees(declared, detected) {
		reason := fmt.Sprintf("The file is declared as %s but its content is not.", declared)
		if !detected.Is("application/octet-stream") {
			reason = fmt.Sprintf("The file is declared as %s but its content is %s.", declared, detected)
		}
		return &TypeError{Declared: declared, Detected: detected.String(), Reason: reason}
	}
	if !rule.allows(detected) {
		reason := fmt.Sprintf("Files of type %s are not accepted for purpose %s, which takes %s.", detected, rule.Purpose, rule.summary)
		if detected.Is("application/octet-stream") {
			reason = fmt.Sprintf("The file's type is not recognised; purpose %s takes %s.", rule.Purpose, rule.summary)
		}
		return &TypeError{Declared: declared, Detected: detected.String(), Reason: reason}
	}
	return nil
}

// Move copies from to to and then deletes from. A missing from is ErrNotExist.
func (s *Store) Move(ctx context.Context, from, to string) error {
	if err := validKeys(from, to); err != nil {
		return err
	}
	if err := s.b.Copy(ctx, to, from, nil); err != nil {
		return wrap("move", from, err)
	}
	if err := s.b.Delete(ctx, from); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
		return wrap("move", from, err)
	}
	return nil
}

// Delete removes key; a missing key is not an error. An invalid key (the
// empty one, which names the file store's own directory) is ErrInvalidKey.
func (s *Store) Delete(ctx context.Context, key string) error {
	if err := validKeys(key); err != nil {
		return err
	}
	if err := s.b.Delete(ctx, key); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
		return wrap("delete", key, err)
	}
	return nil
}

// Reader opens key for reading; the caller closes it. A missing key is
// ErrNotExist.
func (s *Store) Reader(ctx context.Context, key string) (io.ReadCloser, Attributes, error) {
	if err := validKeys(key); err != nil {
		return nil, Attributes{}, err
	}
	r, err := s.b.NewReader(ctx, key, nil)
	if err != nil {
		return nil, Attributes{}, wrap("read", key, err)
	}
	return r, Attributes{Size: r.Size(), ContentType: r.ContentType()}, nil
}

// Exists reports whether key holds an object.
func (s *Store) Exists(ctx context.Context, key string) (bool, error) {
	if err := validKeys(key); err != nil {
		return false, err
	}
	ok, err := s.b.Exists(ctx, key)
	if err != nil {
		return false, wrap("stat", key, err)
	}
	return ok, nil
}

func wrap(op, key string, err error) error {
	if gcerrors.Code(err) == gcerrors.NotFound {
		return fmt.Errorf("storage: %s %q: %w", op, key, ErrNotExist)
	}
	return fmt.Errorf("storage: %s %q: %w", op, key, err)
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// Put stores data under key with its content type, replacing what was
// there: for content the service makes itself (a cover's sizes), never
// for uploads (PutUpload checks those).
func (s *Store) Put(ctx context.Context, key, contentType string, data []byte) error {
	if err := validKeys(key); err != nil {
		return err
	}
	if err := s.b.WriteAll(ctx, key, data, &blob.WriterOptions{ContentType: contentType}); err != nil {
		return wrap("put", key, err)
	}
	return nil
}
