package testkit

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"io"
	"log"
	"math/big"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	"github.com/stretchr/testify/require"
)

// SMTPMode is how a test SMTP server offers TLS.
type SMTPMode int

// The TLS modes of a test SMTP server.
const (
	SMTPPlain    SMTPMode = iota // no TLS at all
	SMTPStartTLS                 // STARTTLS offered
	SMTPImplicit                 // TLS from the first byte (smtps)
)

// SMTPOptions configure a test SMTP server.
type SMTPOptions struct {
	Mode       SMTPMode
	User, Pass string            // require AUTH PLAIN with these
	DataErrors []*smtp.SMTPError // replies to the first DATA commands, in order
	// DataDelay is how long the server takes to accept a message (after
	// reading it, before the reply).
	DataDelay time.Duration
}

// ReceivedMail is one message a test SMTP server accepted.
type ReceivedMail struct {
	From     string
	To       []string
	Data     []byte
	TLS      bool
	AuthUser string
}

// SMTPServer is a real SMTP server on 127.0.0.1 that records what it
// accepts.
type SMTPServer struct {
	Addr string // 127.0.0.1:port
	opts SMTPOptions

	mu        sync.Mutex
	dataCalls int
	messages  []ReceivedMail
}

// TestCert is a self-signed certificate for 127.0.0.1 and localhost, and
// the pool that trusts it.
var TestCert = sync.OnceValues(func() (tls.Certificate, *x509.CertPool) {
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

// StartSMTP runs a test SMTP server until the test ends.
func StartSMTP(t testing.TB, opts SMTPOptions) *SMTPServer {
	t.Helper()
	s := &SMTPServer{opts: opts}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &smtpSession{srv: s, conn: c}, nil
	}))
	srv.Domain = "localhost"
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	srv.ErrorLog = log.New(io.Discard, "", 0)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	cert, _ := TestCert()
	tc := &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	switch opts.Mode {
	case SMTPStartTLS:
		srv.TLSConfig = tc
	case SMTPImplicit:
		l = tls.NewListener(l, tc)
	}
	s.Addr = l.Addr().String()
	go srv.Serve(l) //nolint:errcheck // ends with Close
	t.Cleanup(func() { _ = srv.Close() })
	return s
}

// Messages returns what the server accepted so far.
func (s *SMTPServer) Messages() []ReceivedMail {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]ReceivedMail(nil), s.messages...)
}

// DataCalls counts DATA commands, accepted or not.
func (s *SMTPServer) DataCalls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dataCalls
}

// URL is an SMTP_URL for the server; userinfo is "user:pass" or "".
func (s *SMTPServer) URL(scheme, userinfo string) string {
	if userinfo != "" {
		userinfo += "@"
	}
	return fmt.Sprintf("%s://%s%s", scheme, userinfo, s.Addr)
}

type smtpSession struct {
	srv  *SMTPServer
	conn *smtp.Conn
	user string
	from string
	to   []string
}

func (s *smtpSession) AuthMechanisms() []string {
	if s.srv.opts.User == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (s *smtpSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, username, password string) error {
		if username != s.srv.opts.User || password != s.srv.opts.Pass {
			return smtp.ErrAuthFailed
		}
		s.user = username
		return nil
	}), nil
}

func (s *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	if s.srv.opts.User != "" && s.user == "" {
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
	if s.srv.opts.DataDelay > 0 {
		time.Sleep(s.srv.opts.DataDelay)
	}
	s.srv.mu.Lock()
	defer s.srv.mu.Unlock()
	s.srv.dataCalls++
	if len(s.srv.opts.DataErrors) > 0 {
		reply := s.srv.opts.DataErrors[0]
		s.srv.opts.DataErrors = s.srv.opts.DataErrors[1:]
		return reply
	}
	_, isTLS := s.conn.TLSConnectionState()
	s.srv.messages = append(s.srv.messages, ReceivedMail{From: s.from, To: s.to, Data: data, TLS: isTLS, AuthUser: s.user})
	return nil
}

func (s *smtpSession) Reset()        { s.from, s.to = "", nil }
func (s *smtpSession) Logout() error { return nil }
