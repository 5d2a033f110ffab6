package cluster_test

import (
	"archive/zip"
	"bytes"
	"crypto/rand"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

// The largest upload the service takes (a 25 MiB deliverable) passes
// nginx's body limit (client_max_body_size 26m; nginx's default, 1 MB,
// would refuse it with 413 before the service saw it).
func TestLargestUploadPassesTheProxy(t *testing.T) {
	c := setup(t)
	key, _ := c.signUp(t, "upload-"+testkit.Unique()+"@example.com")

	// A stored (uncompressed) ZIP just under 25 MiB.
	var archive bytes.Buffer
	zw := zip.NewWriter(&archive)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "book.bin", Method: zip.Store})
	require.NoError(t, err)
	_, err = io.CopyN(w, rand.Reader, 25<<20-64<<10)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	require.LessOrEqual(t, archive.Len(), 25<<20)

	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	require.NoError(t, mw.WriteField("purpose", "deliverable"))
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="file"; filename="book.zip"`)
	h.Set("Content-Type", "application/zip")
	part, err := mw.CreatePart(h)
	require.NoError(t, err)
	_, err = part.Write(archive.Bytes())
	require.NoError(t, err)
	require.NoError(t, mw.Close())
	require.Greater(t, body.Len(), 25<<20-64<<10)

	st, hdr, b := c.call(t, "POST", "/v1/files", key, body.Bytes(), map[string]string{"Content-Type": mw.FormDataContentType()})
	require.Equal(t, http.StatusCreated, st, "%d bytes through nginx (%s): %.300s", body.Len(), hdr.Get("Server"), b)
	require.Contains(t, string(b), `"deliverable"`)
}
