package mail_test

import (
	"bytes"
	"encoding/base64"
	"io"
	"mime"
	"mime/multipart"
	netmail "net/mail"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// parsedMail is a received message taken apart.
type parsedMail struct {
	Header  netmail.Header
	Subject string
	Text    string
	HTML    string
}

// parseMail decodes a multipart/alternative message with a text and an HTML part.
func parseMail(t *testing.T, raw []byte) parsedMail {
	t.Helper()
	msg, err := netmail.ReadMessage(bytes.NewReader(raw))
	require.NoError(t, err)
	out := parsedMail{Header: msg.Header}
	out.Subject, err = new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	require.NoError(t, err)
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	require.NoError(t, err)
	require.Equal(t, "multipart/alternative", mt, "message:\n%s", raw)
	mr := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		body, err := io.ReadAll(p) // quoted-printable is decoded by NextPart
		require.NoError(t, err)
		if strings.EqualFold(p.Header.Get("Content-Transfer-Encoding"), "base64") {
			body, err = base64.StdEncoding.DecodeString(strings.Join(strings.Fields(string(body)), ""))
			require.NoError(t, err)
		}
		pt, _, err := mime.ParseMediaType(p.Header.Get("Content-Type"))
		require.NoError(t, err)
		switch pt {
		case "text/plain":
			out.Text = string(body)
		case "text/html":
			out.HTML = string(body)
		default:
			t.Fatalf("unexpected part %s", pt)
		}
	}
	return out
}
