//go:build !s3 && !gcs

package storage

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// The default build has only the file and mem drivers: a FILE_STORAGE_URL
// naming a cloud driver fails at start with a message naming the build tag.
func TestOpenDriverNotCompiledIn(t *testing.T) {
	for scheme, tag := range map[string]string{"s3": "s3", "gs": "gcs"} {
		_, err := Open(context.Background(), scheme+"://bucket")
		var nc *NotCompiledError
		if !errors.As(err, &nc) || nc.Tag != tag {
			t.Fatalf("%s: %v", scheme, err)
		}
		if !strings.Contains(err.Error(), "-tags "+tag) || !strings.Contains(err.Error(), "FILE_STORAGE_URL") {
			t.Fatalf("%s: message %q", scheme, err)
		}
	}
	_, err := Open(context.Background(), "ftp://host/x")
	var nc *NotCompiledError
	if !errors.As(err, &nc) || nc.Tag != "" {
		t.Fatalf("ftp: %v", err)
	}
}
