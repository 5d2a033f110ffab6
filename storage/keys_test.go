package storage

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestValidateKey(t *testing.T) {
	for _, k := range []string{"uploads/a", "files/lst_1/del_2.pdf", "covers/x.jpg", "a", "a..b/c.d"} {
		if err := ValidateKey(k); err != nil {
			t.Errorf("ValidateKey(%q) = %v, want nil", k, err)
		}
	}
	for _, k := range []string{"", "/", "/etc/passwd", "../x", "a/../b", "a/..", "./a", "a/./b", ".", "..",
		"a//b", "a/", `a\b`, "a\x00b", "\xff", string(make([]byte, 1025))} {
		if err := ValidateKey(k); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("ValidateKey(%q) = %v, want ErrInvalidKey", k, err)
		}
	}
}

// Every store call refuses an invalid key before touching storage: on the
// file store the empty key is the store's own directory, and Delete("")
// used to remove it once it was empty.
func TestStoreRefusesInvalidKeys(t *testing.T) {
	s, dir := openTemp(t)
	ctx := context.Background()
	if _, err := s.PutUpload(ctx, "uploads/a", bytes.NewReader(samplePDF), "application/pdf", "a.pdf", rule(t, PurposeDeliverable)); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(filepath.Dir(dir), "outside-"+filepath.Base(dir))
	if err := os.WriteFile(outside, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(outside) })
	for _, k := range []string{"", "/" + outside, "../" + filepath.Base(outside), "uploads/../uploads/a"} {
		check := func(what string, err error) {
			t.Helper()
			if !errors.Is(err, ErrInvalidKey) {
				t.Errorf("%s(%q) = %v, want ErrInvalidKey", what, k, err)
			}
		}
		check("Delete", s.Delete(ctx, k))
		_, err := s.Exists(ctx, k)
		check("Exists", err)
		_, _, err = s.Reader(ctx, k)
		check("Reader", err)
		check("Copy from", s.Copy(ctx, k, "files/b"))
		check("Copy to", s.Copy(ctx, "uploads/a", k))
		check("Move from", s.Move(ctx, k, "files/b"))
		check("Move to", s.Move(ctx, "uploads/a", k))
		_, err = s.PutUpload(ctx, k, bytes.NewReader(samplePDF), "application/pdf", "a.pdf", rule(t, PurposeDeliverable))
		check("PutUpload", err)
	}
	if _, err := os.Stat(outside); err != nil {
		t.Fatalf("the file outside the store: %v", err)
	}
	if ok, err := s.Exists(ctx, "uploads/a"); !ok || err != nil {
		t.Fatalf("uploads/a: %v %v", ok, err)
	}
	// Emptied, the store's directory stays: Delete("") is refused.
	if err := s.Delete(ctx, "uploads/a"); err != nil {
		t.Fatal(err)
	}
	_ = s.Delete(ctx, "")
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Fatalf("the store's directory: %v", err)
	}
}
