package mail

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	netmail "net/mail"
	"net/url"
	"strconv"
	"strings"

	gomail "github.com/wneessen/go-mail"
)

// Sender hands messages to the SMTP server of SMTP_URL, or, when it is
// unset, writes them to the log.
type Sender struct {
	log      *slog.Logger
	from     string
	idDomain string          // right-hand side of Message-IDs
	host     string          // "" when SMTP is not configured
	opts     []gomail.Option // go-mail client options for host
}

// NewSender checks cfg (an unsupported SMTP_URL or an invalid MAIL_FROM is
// an error naming the variable) and builds the sender. It does not connect.
func NewSender(cfg Config, log *slog.Logger) (*Sender, error) {
	if log == nil {
		log = slog.Default()
	}
	from, err := netmail.ParseAddress(cfg.From)
	if err != nil {
		return nil, fmt.Errorf("invalid configuration: MAIL_FROM must be an address such as `commerce <no-reply@example.com>`: %w", err)
	}
	s := &Sender{log: log.With("component", "mail"), from: cfg.From, idDomain: "localhost"}
	if _, domain, ok := strings.Cut(from.Address, "@"); ok && domain != "" {
		s.idDomain = domain
	}
	if cfg.SMTPURL != "" {
		if s.host, s.opts, err = smtpOptions(cfg); err != nil {
			return nil, fmt.Errorf("invalid configuration: SMTP_URL %w", err)
		}
	}
	return s, nil
}

// Domain is the right-hand side of the Message-IDs: MAIL_FROM's domain.
func (s *Sender) Domain() string { return s.idDomain }

// smtpOptions turns SMTP_URL into go-mail client options.
func smtpOptions(cfg Config) (string, []gomail.Option, error) {
	u, err := url.Parse(cfg.SMTPURL)
	if err != nil {
		return "", nil, errors.New("is not a URL")
	}
	host := u.Hostname()
	if host == "" {
		return "", nil, errors.New("has no host")
	}
	tc := &tls.Config{MinVersion: tls.VersionTLS12}
	if cfg.TLSConfig != nil {
		tc = cfg.TLSConfig.Clone()
	}
	if tc.ServerName == "" {
		tc.ServerName = host
	}
	opts := []gomail.Option{gomail.WithTimeout(smtpTimeout), gomail.WithTLSConfig(tc)}
	port := 587
	switch u.Scheme {
	case "smtp":
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	case "smtp+starttls":
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	case "smtps":
		port = 465
		opts = append(opts, gomail.WithSSL())
	default:
		return "", nil, fmt.Errorf("has unsupported scheme %q: use smtp://, smtps:// or smtp+starttls://", u.Scheme)
	}
	if p := u.Port(); p != "" {
		if port, err = strconv.Atoi(p); err != nil || port < 1 || port > 65535 {
			return "", nil, fmt.Errorf("has an invalid port %q", p)
		}
	}
	opts = append(opts, gomail.WithPort(port))
	if u.User != nil {
		pass, _ := u.User.Password()
		// The strongest mechanism the server offers; PLAIN and LOGIN
		// refuse to send the password over a connection that is neither
		// encrypted nor to localhost.
		opts = append(opts, gomail.WithUsername(u.User.Username()), gomail.WithPassword(pass),
			gomail.WithOpportunisticSMTPAuth(
				gomail.SMTPAuthSCRAMSHA256PLUS, gomail.SMTPAuthSCRAMSHA256, gomail.SMTPAuthSCRAMSHA1PLUS,
				gomail.SMTPAuthSCRAMSHA1, gomail.SMTPAuthCramMD5, gomail.SMTPAuthPlain, gomail.SMTPAuthLogin))
	}
	return host, opts, nil
}

// send hands one message to the SMTP server, as its record says: the
// Message-ID and the Date are the record's, the same on every attempt.
func (s *Sender) send(ctx context.Context, m *Message) error {
	msg := gomail.NewMsg(gomail.WithNoDefaultUserAgent())
	if err := msg.From(s.from); err != nil {
		return fmt.Errorf("from: %w", err)
	}
	if err := msg.To(m.To); err != nil {
		return &invalidMessageError{fmt.Errorf("recipient %q: %w", m.To, err)}
	}
	msg.Subject(m.Subject)
	// The same Message-ID on every attempt lets receivers spot duplicates.
	id := messageID(m.ID, s.idDomain)
	if m.MessageID != nil {
		id = *m.MessageID
	}
	msg.SetMessageIDWithValue(id)
	msg.SetDateWithValue(m.CreatedAt)
	msg.SetGenHeader("Auto-Submitted", "auto-generated")
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	if m.HTML != "" {
		msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	}
	client, err := gomail.NewClient(s.host, s.opts...)
	if err != nil {
		return fmt.Errorf("smtp client: %w", err)
	}
	err = client.DialAndSendWithContext(ctx, msg)
	if err != nil && msg.IsDelivered() {
		// The server accepted the message; only RSET or QUIT failed.
		s.log.WarnContext(ctx, "mail sent, closing the SMTP session failed", "message_id", m.ID, "error", err)
		return nil
	}
	return err
}

// invalidMessageError is a message that can never be sent as stored.
type invalidMessageError struct{ err error }

func (e *invalidMessageError) Error() string { return e.err.Error() }
func (e *invalidMessageError) Unwrap() error { return e.err }

// permanent reports whether err rejects the message for good: the server
// answered MAIL, RCPT or DATA with a 5xx reply, or the message is invalid.
// Anything else (connection, TLS, authentication, timeouts, 4xx replies) is
// worth another try.
func permanent(err error) bool {
	var invalid *invalidMessageError
	if errors.As(err, &invalid) {
		return true
	}
	var se *gomail.SendError
	return errors.As(err, &se) && se.ErrorCode() >= 500 && se.ErrorCode() < 600
}
