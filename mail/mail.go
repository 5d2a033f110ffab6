// Package mail sends the service's email: passcodes, download links and
// seller alerts. Messages are rendered from embedded templates and stored in
// mail_messages in the same transaction as the caller's other writes, so an
// email exists exactly when the change that caused it committed. The table
// is the outbox: a Dispatcher in every working process claims due messages
// for a short lease, woken by the NOTIFY the storing transaction sends at
// commit, and records each attempt's outcome (sent, a retry scheduled with
// backoff, failed). Delivery is SMTP through go-mail; without SMTP_URL each
// message is written to the log instead (development).
//
// Exactly once, as the recipient sees it: a message's record fixes what goes
// out before the first attempt, its Message-ID above all (and its Date, the
// moment it was stored), so every attempt hands the SMTP server the same
// message. A claim keeps two processes from sending one message at once,
// and a message recorded as sent is never sent again. The one gap is a
// crash (or a lost database) between the SMTP server's acceptance and the
// status write: the message is sent again when its claim expires, as the
// same message under the same Message-ID, which mail systems and clients
// deduplicate. Delivery to the SMTP server is at least once; the email, by
// its Message-ID, is exactly once.
package mail

import (
	"context"
	"crypto/tls"
	"database/sql"
	"errors"
	"fmt"
	netmail "net/mail"
	"time"

	"github.com/uptrace/bun"

	"commerce/db"
	"commerce/telemetry"
)

// Config configures delivery, from the environment (SMTP_URL, MAIL_FROM).
type Config struct {
	// SMTPURL is smtp://user:pass@host:port (STARTTLS when offered),
	// smtps:// (implicit TLS) or smtp+starttls:// (STARTTLS required).
	// Empty: messages are written to the log and kept in the database.
	SMTPURL string
	// From is the sender, e.g. `commerce <no-reply@example.com>`.
	From string
	// TLSConfig, when set, is used for TLS to the SMTP server (a RootCAs
	// pool for a private CA, for instance). ServerName defaults to the host.
	TLSConfig *tls.Config
}

// Message statuses.
const (
	StatusPending = "pending" // stored, to be sent (now, or at a retry)
	StatusSent    = "sent"    // accepted by the SMTP server
	StatusLogged  = "logged"  // no SMTP configured: written to the log
	StatusFailed  = "failed"  // rejected permanently, or out of attempts
)

// Template names.
const (
	TemplatePasscode         = "passcode"
	TemplateDownloadLink     = "download_link"
	TemplateSellerOrderAlert = "seller_order_alert"
	TemplateLibrarySignIn    = "library_sign_in"
)

// maxAttempts is how often the dispatcher tries to deliver a message.
const maxAttempts = 8

// notifyChannel is the channel of the dispatchers' wake-ups, notified by
// the transaction that stores a message when it commits.
const notifyChannel = "mail_messages"

// Message is one email, as stored in mail_messages.
type Message struct {
	bun.BaseModel `bun:"table:mail_messages" json:"-"`

	ID        string     `bun:"id,pk"`
	Template  string     `bun:"template,notnull"`
	To        string     `bun:"to_address,notnull"`
	Subject   string     `bun:"subject,notnull"`
	Text      string     `bun:"text_body,notnull"`
	HTML      string     `bun:"html_body,notnull"`
	Status    string     `bun:"status,notnull"`
	Attempts  int        `bun:"attempts,notnull"`
	LastError *string    `bun:"last_error"`
	CreatedAt time.Time  `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	SentAt    *time.Time `bun:"sent_at"`
	// ClaimedUntil: a dispatcher is sending the message until then; a
	// claim that has expired is one whose process died.
	ClaimedUntil *time.Time `bun:"claimed_until" json:"-"`
	// NextAttemptAt is when a pending message is due.
	NextAttemptAt time.Time `bun:"next_attempt_at,nullzero,notnull,default:current_timestamp" json:"-"`
	// MessageID is the Message-ID header (without angle brackets) every
	// attempt sends, fixed when the message is stored.
	MessageID *string `bun:"message_id" json:"-"`
	// Traceparent is the span that stored the message, when tracing was
	// on: each attempt's span links to it.
	Traceparent *string `bun:"traceparent" json:"-"`
}

// Outbox stores messages for the dispatchers to deliver.
type Outbox struct {
	DB *db.DB
	// Domain is the right-hand side of the Message-IDs (Sender.Domain);
	// empty is "localhost".
	Domain string
}

// storeQuery stores a message and wakes the dispatchers when the
// transaction commits (PostgreSQL sends one notification per transaction
// and channel, however many messages it stored).
const storeQuery = `WITH ins AS (
	INSERT INTO mail_messages (id, template, to_address, subject, text_body, html_body, status, message_id, next_attempt_at, traceparent)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, now(), ?) RETURNING 1)
SELECT pg_notify('` + notifyChannel + `', '') FROM ins`

// Send stores m as pending inside tx, due now, with the Message-ID every
// attempt will send, so the email is sent only if the caller's transaction
// commits; the commit wakes the dispatchers. A new id is assigned unless
// m.ID is set. It returns the message id.
func (o *Outbox) Send(ctx context.Context, tx db.Tx, m Message) (string, error) {
	if _, err := netmail.ParseAddress(m.To); err != nil {
		return "", fmt.Errorf("mail: recipient %q: %w", m.To, err)
	}
	if m.Subject == "" || m.Text == "" {
		return "", errors.New("mail: a message needs a subject and a text body")
	}
	if m.ID == "" {
		m.ID = db.NewID("msg")
	}
	domain := o.Domain
	if domain == "" {
		domain = "localhost"
	}
	if _, err := tx.ExecContext(ctx, storeQuery, m.ID, m.Template, m.To, m.Subject, m.Text, m.HTML, StatusPending,
		messageID(m.ID, domain), telemetry.Traceparent(ctx)); err != nil {
		return "", fmt.Errorf("mail: store message: %w", err)
	}
	return m.ID, nil
}

// messageID is the Message-ID of message id sent from domain (what the
// River job of earlier versions sent too).
func messageID(id, domain string) string { return id + "@" + domain }

// List returns at most limit messages, newest first (the sandbox mailbox).
// A limit below 1 means 50.
func List(ctx context.Context, d *db.DB, limit int) ([]Message, error) {
	if limit < 1 {
		limit = 50
	}
	msgs := []Message{}
	err := d.NewSelect().Model(&msgs).OrderExpr("created_at DESC, id DESC").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("mail: list messages: %w", err)
	}
	return msgs, nil
}

// Get returns one message by id, or db.ErrNotFound.
func Get(ctx context.Context, d *db.DB, id string) (Message, error) {
	var m Message
	err := d.NewSelect().Model(&m).Where("id = ?", id).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return Message{}, db.ErrNotFound
	}
	if err != nil {
		return Message{}, fmt.Errorf("mail: get message: %w", err)
	}
	return m, nil
}
