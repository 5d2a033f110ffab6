package storage

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func openTemp(t *testing.T) (*Store, string) {
	t.Helper()
	dir := t.TempDir()
	s, err := Open(context.Background(), "file://"+filepath.ToSlash(dir))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, dir
}

func rule(t *testing.T, purpose string) Rule {
	t.Helper()
	r, ok := RuleFor(purpose)
	if !ok {
		t.Fatalf("no rule for %s", purpose)
	}
	return r
}

// Test files, minimal but real enough for content detection.

var samplePDF = []byte("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")

func sampleImage(t *testing.T, encode func(io.Writer, image.Image) error) []byte {
	t.Helper()
	img := image.NewPaletted(image.Rect(0, 0, 2, 2), color.Palette{color.White, color.Black})
	var buf bytes.Buffer
	if err := encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func samplePNG(t *testing.T) []byte { return sampleImage(t, png.Encode) }

func sampleJPEG(t *testing.T) []byte {
	return sampleImage(t, func(w io.Writer, m image.Image) error { return jpeg.Encode(w, m, nil) })
}

func sampleGIF(t *testing.T) []byte {
	return sampleImage(t, func(w io.Writer, m image.Image) error { return gif.Encode(w, m, nil) })
}

// sampleWebP is a lossless 1x1 WebP.
var sampleWebP = []byte("RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00")

type entry struct {
	name, body string
	stored     bool
}

func sampleZip(t *testing.T, entries ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		if e.stored {
			h.Method = zip.Store
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(w, e.body); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func sampleDOCX(t *testing.T) []byte {
	return sampleZip(t,
		entry{name: "[Content_Types].xml", body: `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`},
		entry{name: "_rels/.rels", body: `<?xml version="1.0"?><Relationships/>`},
		entry{name: "word/document.xml", body: `<?xml version="1.0"?><w:document/>`},
	)
}

func sampleEPUB(t *testing.T) []byte {
	return sampleZip(t,
		entry{name: "mimetype", body: "application/epub+zip", stored: true},
		entry{name: "META-INF/container.xml", body: `<?xml version="1.0"?><container/>`},
		entry{name: "OEBPS/content.opf", body: `<?xml version="1.0"?><package/>`},
	)
}

const (
	docxType = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
)

func TestRules(t *testing.T) {
	for purpose, max := range map[string]int64{PurposeDeliverable: 25 << 20, PurposeCover: 5 << 20, PurposeAvatar: 2 << 20} {
		if r := rule(t, purpose); r.MaxBytes != max || r.Purpose != purpose {
			t.Errorf("%s: %+v", purpose, r)
		}
	}
	if _, ok := RuleFor("banner"); ok {
		t.Error("unknown purpose has a rule")
	}
	if MaxUploadBytes != 25<<20 {
		t.Error("MaxUploadBytes")
	}
}

func TestPutUploadAccepts(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	cases := []struct {
		name, purpose, declared, filename string
		data                              []byte
		want                              string
	}{
		{"pdf", PurposeDeliverable, "application/pdf", "book.pdf", samplePDF, "application/pdf"},
		{"png", PurposeDeliverable, "image/png", "a.png", samplePNG(t), "image/png"},
		{"jpeg", PurposeDeliverable, "image/jpeg", "a.jpg", sampleJPEG(t), "image/jpeg"},
		{"zip", PurposeDeliverable, "application/zip", "pack.zip", sampleZip(t, entry{name: "readme.txt", body: "hello"}), "application/zip"},
		{"zip alias", PurposeDeliverable, "application/x-zip-compressed", "pack.zip", sampleZip(t, entry{name: "a.txt", body: "a"}), "application/zip"},
		{"docx", PurposeDeliverable, docxType, "report.docx", sampleDOCX(t), docxType},
		{"docx declared as zip", PurposeDeliverable, "application/zip", "report.docx", sampleDOCX(t), docxType},
		{"epub", PurposeDeliverable, "application/epub+zip", "book.epub", sampleEPUB(t), "application/epub+zip"},
		{"content type parameters and case", PurposeDeliverable, "Application/PDF; name=book.pdf", "book.pdf", samplePDF, "application/pdf"},
		{"cover png", PurposeCover, "image/png", "cover.png", samplePNG(t), "image/png"},
		{"cover jpg synonym", PurposeCover, "image/jpg", "cover.jpg", sampleJPEG(t), "image/jpeg"},
		{"cover gif", PurposeCover, "image/gif", "cover.gif", sampleGIF(t), "image/gif"},
		{"avatar webp", PurposeAvatar, "image/webp", "me.webp", sampleWebP, "image/webp"},
		{"extension when no content type", PurposeDeliverable, "", "book.PDF", samplePDF, "application/pdf"},
		{"extension when octet-stream", PurposeDeliverable, "application/octet-stream", "report.docx", sampleDOCX(t), docxType},
		{"extension of an epub", PurposeDeliverable, "application/octet-stream", "book.epub", sampleEPUB(t), "application/epub+zip"},
		{"nothing declared", PurposeCover, "", "cover", samplePNG(t), "image/png"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			info, err := s.PutUpload(ctx, "up/"+c.name, bytes.NewReader(c.data), c.declared, c.filename, rule(t, c.purpose))
			if err != nil {
				t.Fatal(err)
			}
			if info.ContentType != c.want || info.Size != int64(len(c.data)) {
				t.Fatalf("info %+v, want %s and %d bytes", info, c.want, len(c.data))
			}
			rc, attrs, err := s.Reader(ctx, "up/"+c.name)
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			got, err := io.ReadAll(rc)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, c.data) || attrs.Size != int64(len(c.data)) || attrs.ContentType != c.want {
				t.Fatalf("stored %d bytes, attrs %+v", len(got), attrs)
			}
		})
	}
}

func TestPutUploadRefusesTypes(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	cases := []struct {
		name, purpose, declared, filename string
		data                              []byte
		detected                          string
	}{
		{"png declared as pdf", PurposeDeliverable, "application/pdf", "a.pdf", samplePNG(t), "image/png"},
		{"pdf as a cover", PurposeCover, "application/pdf", "a.pdf", samplePDF, "application/pdf"},
		{"pdf as an avatar", PurposeAvatar, "", "a.pdf", samplePDF, "application/pdf"},
		{"png with a pdf extension", PurposeDeliverable, "application/octet-stream", "a.pdf", samplePNG(t), "image/png"},
		{"zip declared as docx", PurposeDeliverable, docxType, "a.docx", sampleZip(t, entry{name: "a.txt", body: "a"}), "application/zip"},
		{"svg", PurposeDeliverable, "image/svg+xml", "a.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`), "image/svg+xml"},
		{"html", PurposeDeliverable, "text/html", "a.html", []byte("<!DOCTYPE html><html><body>hi</body></html>"), "text/html; charset=utf-8"},
		{"plain text", PurposeDeliverable, "text/plain", "a.txt", []byte("just some words\n"), "text/plain; charset=utf-8"},
		{"unknown bytes", PurposeDeliverable, "", "blob", []byte{0x00, 0x01, 0x02, 0xfe, 0xff, 0x00, 0x13}, "application/octet-stream"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			key := "up/" + c.name
			_, err := s.PutUpload(ctx, key, bytes.NewReader(c.data), c.declared, c.filename, rule(t, c.purpose))
			var te *TypeError
			if !errors.As(err, &te) {
				t.Fatalf("got %v, want *TypeError", err)
			}
			if te.Detected != c.detected || te.Reason == "" || te.Error() != te.Reason {
				t.Fatalf("%+v", te)
			}
			if ok, err := s.Exists(ctx, key); ok || err != nil {
				t.Fatalf("stored anyway (%v)", err)
			}
		})
	}
}

func TestPutUploadEmpty(t *testing.T) {
	s, _ := openTemp(t)
	_, err := s.PutUpload(context.Background(), "empty", strings.NewReader(""), "application/pdf", "a.pdf", rule(t, PurposeDeliverable))
	if !errors.Is(err, ErrEmpty) {
		t.Fatalf("got %v", err)
	}
}

// generator yields a file of size bytes starting with head, producing the
// rest on the fly so that the test itself holds nothing large.
type generator struct {
	head []byte
	size int64
	off  int64
}

func (g *generator) Read(p []byte) (int, error) {
	if g.off >= g.size {
		return 0, io.EOF
	}
	if int64(len(p)) > g.size-g.off {
		p = p[:g.size-g.off]
	}
	for i := range p {
		if pos := g.off + int64(i); pos < int64(len(g.head)) {
			p[i] = g.head[pos]
		} else {
			p[i] = byte('a' + pos%26)
		}
	}
	g.off += int64(len(p))
	return len(p), nil
}

func pdfOfSize(n int64) *generator { return &generator{head: samplePDF, size: n} }

func pngOfSize(t *testing.T, n int64) *generator { return &generator{head: samplePNG(t), size: n} }

func TestPutUploadTooLarge(t *testing.T) {
	s, dir := openTemp(t)
	ctx := context.Background()
	cases := []struct {
		name    string
		purpose string
		r       io.Reader
		max     int64
	}{
		{"6 MB cover", PurposeCover, pngOfSize(t, 6<<20), 5 << 20},
		{"cover one byte over", PurposeCover, pngOfSize(t, 5<<20+1), 5 << 20},
		{"3 MB avatar", PurposeAvatar, pngOfSize(t, 3<<20), 2 << 20},
		{"deliverable one byte over", PurposeDeliverable, pdfOfSize(25<<20 + 1), 25 << 20},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := s.PutUpload(ctx, "big/"+c.name, c.r, "", "file", rule(t, c.purpose))
			var tl *TooLargeError
			if !errors.As(err, &tl) || tl.MaxBytes != c.max {
				t.Fatalf("got %v, want TooLargeError{%d}", err, c.max)
			}
			if ok, err := s.Exists(ctx, "big/"+c.name); ok || err != nil {
				t.Fatalf("partial object left (%v)", err)
			}
		})
	}
	// Nothing at all is left behind, temporary files included.
	var left []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			left = append(left, p)
		}
		return nil
	})
	if len(left) > 0 {
		t.Fatalf("files left in the bucket: %v", left)
	}

	// Exactly at the limit is fine.
	info, err := s.PutUpload(ctx, "exact", pngOfSize(t, 5<<20), "image/png", "c.png", rule(t, PurposeCover))
	if err != nil || info.Size != 5<<20 {
		t.Fatalf("exactly 5 MB: %+v, %v", info, err)
	}
}

func TestPutUploadStreams(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	const size = 25 << 20
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	info, err := s.PutUpload(ctx, "stream", pdfOfSize(size), "application/pdf", "big.pdf", rule(t, PurposeDeliverable))
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if info.Size != size || info.ContentType != "application/pdf" {
		t.Fatalf("%+v", info)
	}
	t.Logf("allocated %d bytes while streaming %d", after.TotalAlloc-before.TotalAlloc, size)
	// TotalAlloc counts every allocation, freed or not: a copy of the file
	// anywhere would show up as 25 MB or more.
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 2<<20 {
		t.Fatalf("allocated %d bytes while streaming %d", grew, size)
	}
	_, attrs, err := s.Reader(ctx, "stream")
	if err != nil || attrs.Size != size {
		t.Fatalf("%+v, %v", attrs, err)
	}
}

type failingReader struct{ r io.Reader }

var errBroken = errors.New("connection reset")

func (f *failingReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF {
		return n, errBroken
	}
	return n, err
}

func TestPutUploadReadErrorLeavesNothing(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	r := &failingReader{pdfOfSize(1 << 20)}
	_, err := s.PutUpload(ctx, "broken", r, "application/pdf", "a.pdf", rule(t, PurposeDeliverable))
	if !errors.Is(err, errBroken) {
		t.Fatalf("got %v", err)
	}
	if ok, _ := s.Exists(ctx, "broken"); ok {
		t.Fatal("partial object committed")
	}
}

func TestMoveDeleteReaderExists(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	if _, err := s.PutUpload(ctx, "uploads/a", bytes.NewReader(samplePDF), "application/pdf", "a.pdf", rule(t, PurposeDeliverable)); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Exists(ctx, "uploads/a"); !ok || err != nil {
		t.Fatalf("Exists: %v %v", ok, err)
	}
	if err := s.Move(ctx, "uploads/a", "files/a"); err != nil {
		t.Fatal(err)
	}
	if ok, _ := s.Exists(ctx, "uploads/a"); ok {
		t.Fatal("source still exists after Move")
	}
	rc, attrs, err := s.Reader(ctx, "files/a")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(rc)
	rc.Close()
	if !bytes.Equal(got, samplePDF) || attrs.ContentType != "application/pdf" || attrs.Size != int64(len(samplePDF)) {
		t.Fatalf("moved content: %d bytes, %+v", len(got), attrs)
	}

	if err := s.Move(ctx, "uploads/a", "files/b"); !errors.Is(err, ErrNotExist) {
		t.Fatalf("Move of a missing key: %v", err)
	}
	if _, _, err := s.Reader(ctx, "uploads/a"); !errors.Is(err, ErrNotExist) {
		t.Fatalf("Reader of a missing key: %v", err)
	}
	if err := s.Copy(ctx, "files/a", "files/c"); err != nil {
		t.Fatal(err)
	}
	if ok, _ := s.Exists(ctx, "files/a"); !ok {
		t.Fatal("Copy removed its source")
	}
	if err := s.Copy(ctx, "nope", "files/d"); !errors.Is(err, ErrNotExist) {
		t.Fatalf("Copy of a missing key: %v", err)
	}

	if err := s.Delete(ctx, "files/a"); err != nil {
		t.Fatal(err)
	}
	if ok, _ := s.Exists(ctx, "files/a"); ok {
		t.Fatal("exists after Delete")
	}
	if err := s.Delete(ctx, "files/a"); err != nil {
		t.Fatalf("Delete of a missing key: %v", err)
	}
}

func TestOpenRelativeCreatesDirectory(t *testing.T) {
	t.Chdir(t.TempDir())
	s, err := Open(context.Background(), "file://./.data/files")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if fi, err := os.Stat(".data/files"); err != nil || !fi.IsDir() {
		t.Fatalf("directory not created: %v", err)
	}
	if _, err := s.PutUpload(context.Background(), "k", bytes.NewReader(samplePDF), "", "a.pdf", rule(t, PurposeDeliverable)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(".data/files/k"); err != nil {
		t.Fatalf("object not under the relative directory: %v", err)
	}
}

func TestOpenMem(t *testing.T) {
	s, err := Open(context.Background(), "mem://")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.PutUpload(context.Background(), "k", bytes.NewReader(samplePNG(t)), "image/png", "a.png", rule(t, PurposeAvatar)); err != nil {
		t.Fatal(err)
	}
}

func TestOpenBadURL(t *testing.T) {
	for _, u := range []string{"", "nosuch://bucket", "://bad", "/just/a/path"} {
		_, err := Open(context.Background(), u)
		if err == nil || !strings.Contains(err.Error(), "FILE_STORAGE_URL") {
			t.Errorf("Open(%q) = %v", u, err)
		}
	}
}
