package mail_test

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"fmt"
	"io"
	"log"
	"math/big"
	"mime"
	"mime/multipart"
	"net"
	netmail "net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	"github.com/stretchr/testify/require"
)

// smtpMode is how the test SMTP server offers TLS.
type smtpMode int

const (
	plainMode    smtpMode = iota // no TLS at all
	startTLSMode                 // STARTTLS offered
	implicitMode                 // TLS from the first byte (smtps)
)

// smtpOptions configure a test SMTP server.
type smtpOptions struct {
	mode       smtpMode
	user, pass string            // require AUTH PLAIN with these
	dataErrors []*smtp.SMTPError // replies to the first DATA commands, in order
}

// received is one message the test SMTP server accepted.
type received struct {
	From     string
	To       []string
	Data     []byte
	TLS      bool
	AuthUser string
}

// smtpServer is a real SMTP server on 127.0.0.1 that records what it gets.
type smtpServer struct {
	Addr string // 127.0.0.1:port
	opts smtpOptions

	mu        sync.Mutex
	dataCalls int
	messages  []received
}

// testCert is a self-signed certificate for 127.0.0.1 and localhost, and the
// pool that trusts it.
var testCert = sync.OnceValues(func() (tls.Certificate, *x509.CertPool) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		panic(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "commerce test SMTP"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:              []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		panic(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		panic(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
})

// startSMTP runs a test SMTP server until the test ends.
func startSMTP(t *testing.T, opts smtpOptions) *smtpServer {
	t.Helper()
	s := &smtpServer{opts: opts}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &smtpSession{srv: s, conn: c}, nil
	}))
	srv.Domain = "localhost"
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	srv.ErrorLog = log.New(io.Discard, "", 0)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	cert, _ := testCert()
	tc := &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	switch opts.mode {
	case startTLSMode:
		srv.TLSConfig = tc
	case implicitMode:
		l = tls.NewListener(l, tc)
	}
	s.Addr = l.Addr().String()
	go srv.Serve(l) //nolint:errcheck // ends with Close
	t.Cleanup(func() { _ = srv.Close() })
	return s
}

// Messages returns what the server accepted so far.
func (s *smtpServer) Messages() []received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]received(nil), s.messages...)
}

// DataCalls counts DATA commands, accepted or not.
func (s *smtpServer) DataCalls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dataCalls
}

type smtpSession struct {
	srv  *smtpServer
	conn *smtp.Conn
	user string
	from string
	to   []string
}

func (s *smtpSession) AuthMechanisms() []string {
	if s.srv.opts.user == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (s *smtpSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, username, password string) error {
		if username != s.srv.opts.user || password != s.srv.opts.pass {
			return smtp.ErrAuthFailed
		}
		s.user = username
		return nil
	}), nil
}

func (s *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	if s.srv.opts.user != "" && s.user == "" {
		return smtp.ErrAuthRequired
	}
	s.from = from
	return nil
}

func (s *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.to = append(s.to, to)
	return nil
}

func (s *smtpSession) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.srv.mu.Lock()
	defer s.srv.mu.Unlock()
	s.srv.dataCalls++
	if len(s.srv.opts.dataErrors) > 0 {
		reply := s.srv.opts.dataErrors[0]
		s.srv.opts.dataErrors = s.srv.opts.dataErrors[1:]
		return reply
	}
	_, isTLS := s.conn.TLSConnectionState()
	s.srv.messages = append(s.srv.messages, received{From: s.from, To: s.to, Data: data, TLS: isTLS, AuthUser: s.user})
	return nil
}

func (s *smtpSession) Reset()        { s.from, s.to = "", nil }
func (s *smtpSession) Logout() error { return nil }

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

// smtpURL is an SMTP_URL for the server.
func (s *smtpServer) URL(scheme, userinfo string) string {
	if userinfo != "" {
		userinfo += "@"
	}
	return fmt.Sprintf("%s://%s%s", scheme, userinfo, s.Addr)
}
