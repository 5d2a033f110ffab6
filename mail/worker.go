package mail

import (
	"context"
	"crypto/tls"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	netmail "net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/riverqueue/river"
	gomail "github.com/wneessen/go-mail"

	"commerce/db"
)

// Time limits of a delivery (crash recovery: every one stays below the
// jobs' RescueStuckJobsAfter, 30 s).
const (
	// smtpTimeout bounds connecting to the SMTP server and each command.
	smtpTimeout = 15 * time.Second
	// JobTimeout bounds one mail_send job's SMTP session (River cancels
	// its context then).
	JobTimeout = 20 * time.Second
	// finishTimeout is what recording the outcome may take after the
	// job's context ended.
	finishTimeout = 5 * time.Second
	// claimFor is how long a run's claim on its message lasts: the job's
	// time and the recording after it. A second run of the job meanwhile
	// waits for the claim to end instead of sending the message again.
	claimFor = JobTimeout + finishTimeout
)

// Worker is the River worker that delivers stored messages (job kind
// mail_send). A transient failure (no connection, timeout, a 4xx reply)
// returns an error so that River retries with backoff; a 5xx reply to the
// message marks it failed and cancels the job. A run claims its message
// (status pending, no other run's claim in force) before sending, so a
// message recorded as sent is never sent again and two runs at once send
// it once; only a crash between the SMTP server's acceptance and the
// status update can send it twice.
type Worker struct {
	river.WorkerDefaults[SendArgs]

	db       *db.DB
	log      *slog.Logger
	from     string
	idDomain string          // right-hand side of Message-IDs
	host     string          // "" when SMTP is not configured
	opts     []gomail.Option // go-mail client options for host
}

// NewWorker checks cfg (an unsupported SMTP_URL or an invalid MAIL_FROM is an
// error naming the variable) and builds the worker. It does not connect.
func NewWorker(cfg Config, d *db.DB, log *slog.Logger) (*Worker, error) {
	if log == nil {
		log = slog.Default()
	}
	from, err := netmail.ParseAddress(cfg.From)
	if err != nil {
		return nil, fmt.Errorf("invalid configuration: MAIL_FROM must be an address such as `commerce <no-reply@example.com>`: %w", err)
	}
	w := &Worker{db: d, log: log.With("component", "mail"), from: cfg.From, idDomain: "localhost"}
	if _, domain, ok := strings.Cut(from.Address, "@"); ok && domain != "" {
		w.idDomain = domain
	}
	if cfg.SMTPURL != "" {
		if w.host, w.opts, err = smtpOptions(cfg); err != nil {
			return nil, fmt.Errorf("invalid configuration: SMTP_URL %w", err)
		}
	}
	return w, nil
}

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

// Register adds the worker to River's workers (jobs.Options.AddWorkers).
func (w *Worker) Register(workers *river.Workers) { river.AddWorker(workers, w) }

// Timeout bounds one job (JobTimeout).
func (w *Worker) Timeout(*river.Job[SendArgs]) time.Duration { return JobTimeout }

// Work delivers the message of one job.
func (w *Worker) Work(ctx context.Context, job *river.Job[SendArgs]) error {
	return w.deliver(ctx, job.Args.MessageID, job.Attempt, job.MaxAttempts)
}

// deliver sends a pending message; attempt and maxAttempts are River's
// counts for the job.
func (w *Worker) deliver(ctx context.Context, id string, attempt, maxAttempts int) error {
	// Claim the message and count the attempt. A message that is not
	// pending was delivered (or given up on) by an earlier run of the job;
	// one claimed by another run that is still in force is being sent:
	// this run comes back when that claim ends (in case that run died).
	var m Message
	err := w.db.NewRaw(`UPDATE mail_messages SET attempts = attempts + 1, claimed_until = now() + make_interval(secs => ?)
		WHERE id = ? AND status = ? AND (claimed_until IS NULL OR claimed_until <= now()) RETURNING *`,
		claimFor.Seconds(), id, StatusPending).Scan(ctx, &m)
	if errors.Is(err, sql.ErrNoRows) {
		var left float64
		err := w.db.NewRaw(`SELECT EXTRACT(EPOCH FROM claimed_until - now())::float8 FROM mail_messages
			WHERE id = ? AND status = ? AND claimed_until > now()`, id, StatusPending).Scan(ctx, &left)
		if errors.Is(err, sql.ErrNoRows) {
			w.log.DebugContext(ctx, "mail message not pending, nothing to send", "message_id", id)
			return nil
		}
		if err != nil {
			return fmt.Errorf("read the claim of message %s: %w", id, err)
		}
		return river.JobSnooze(time.Duration(left*float64(time.Second)) + time.Second)
	}
	if err != nil {
		return fmt.Errorf("claim message %s: %w", id, err)
	}

	if w.host == "" {
		w.log.InfoContext(ctx, "mail logged, not sent (SMTP_URL is not set)", "message_id", m.ID,
			"template", m.Template, "to", m.To, "subject", m.Subject, "text", m.Text)
		return w.finish(ctx, m.ID, StatusLogged, nil)
	}

	err = w.send(ctx, m)
	switch {
	case err == nil:
		w.log.InfoContext(ctx, "mail sent", "message_id", m.ID, "template", m.Template, "attempt", m.Attempts)
		return w.finish(ctx, m.ID, StatusSent, nil)
	case permanent(err):
		w.log.WarnContext(ctx, "mail rejected", "message_id", m.ID, "template", m.Template, "error", err)
		if ferr := w.finish(ctx, m.ID, StatusFailed, err); ferr != nil {
			return ferr
		}
		return river.JobCancel(err)
	default:
		status := StatusPending
		if attempt >= maxAttempts {
			status = StatusFailed
		}
		w.log.WarnContext(ctx, "mail delivery failed", "message_id", m.ID, "template", m.Template,
			"attempt", attempt, "max_attempts", maxAttempts, "error", err)
		if ferr := w.finish(ctx, m.ID, status, err); ferr != nil {
			return errors.Join(err, ferr)
		}
		return err
	}
}

// send hands one message to the SMTP server.
func (w *Worker) send(ctx context.Context, m Message) error {
	msg := gomail.NewMsg(gomail.WithNoDefaultUserAgent())
	if err := msg.From(w.from); err != nil {
		return fmt.Errorf("from: %w", err)
	}
	if err := msg.To(m.To); err != nil {
		return &invalidMessageError{fmt.Errorf("recipient %q: %w", m.To, err)}
	}
	msg.Subject(m.Subject)
	// The same Message-ID on every attempt lets receivers spot duplicates.
	msg.SetMessageIDWithValue(m.ID + "@" + w.idDomain)
	msg.SetDate()
	msg.SetGenHeader("Auto-Submitted", "auto-generated")
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	if m.HTML != "" {
		msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	}
	client, err := gomail.NewClient(w.host, w.opts...)
	if err != nil {
		return fmt.Errorf("smtp client: %w", err)
	}
	err = client.DialAndSendWithContext(ctx, msg)
	if err != nil && msg.IsDelivered() {
		// The server accepted the message; only RSET or QUIT failed.
		w.log.WarnContext(ctx, "mail sent, closing the SMTP session failed", "message_id", m.ID, "error", err)
		return nil
	}
	return err
}

// finish records the outcome of an attempt. It runs even when the job's
// context has ended, so that a delivered message is not sent again.
func (w *Worker) finish(ctx context.Context, id, status string, cause error) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finishTimeout)
	defer cancel()
	var lastError *string
	if cause != nil {
		s := cause.Error()
		if len(s) > 2000 {
			s = s[:2000]
		}
		lastError = &s
	}
	q := w.db.NewUpdate().Model((*Message)(nil)).Set("status = ?", status).Set("last_error = ?", lastError).
		Set("claimed_until = NULL").Where("id = ?", id)
	if status == StatusSent || status == StatusLogged {
		q = q.Set("sent_at = now()")
	}
	if _, err := q.Exec(ctx); err != nil {
		return fmt.Errorf("record mail status %s for %s: %w", status, id, err)
	}
	return nil
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
