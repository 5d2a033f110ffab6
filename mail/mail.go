// Package mail sends the service's email: passcodes, download links and
// seller alerts. Messages are rendered from embedded templates, stored in
// mail_messages and delivered by a River job in the same transaction as the
// caller's other writes, so an email exists exactly when the change that
// caused it committed. Delivery is SMTP through go-mail; without SMTP_URL the
// worker writes each message to the log instead (development).
package mail

import (
	"context"
	"crypto/tls"
	"database/sql"
	"errors"
	"fmt"
	netmail "net/mail"
	"time"

	"github.com/riverqueue/river"
	"github.com/uptrace/bun"

	"commerce/db"
	"commerce/jobs"
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
	StatusPending = "pending" // stored, delivery job queued or retrying
	StatusSent    = "sent"    // accepted by the SMTP server
	StatusLogged  = "logged"  // no SMTP configured: written to the log
	StatusFailed  = "failed"  // rejected permanently, or out of attempts
)

// Template names.
const (
	TemplatePasscode         = "passcode"
	TemplateDownloadLink     = "download_link"
	TemplateSellerOrderAlert = "seller_order_alert"
)

// maxAttempts is how often River tries to deliver a message.
const maxAttempts = 8

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
	// ClaimedUntil: a run of the delivery job is sending the message
	// until then (crash recovery).
	ClaimedUntil *time.Time `bun:"claimed_until" json:"-"`
}

// SendArgs is the River job that delivers one stored message.
type SendArgs struct {
	MessageID string `json:"message_id"`
}

// Kind names the job.
func (SendArgs) Kind() string { return "mail_send" }

// Outbox stores messages and enqueues their delivery.
type Outbox struct {
	DB   *db.DB
	Jobs *jobs.Client
}

// Send stores m as pending and inserts the River job that delivers it, both
// inside tx, so the email is sent only if the caller's transaction commits.
// A new id is assigned unless m.ID is set. It returns the message id.
func (o *Outbox) Send(ctx context.Context, tx db.Tx, m Message) (string, error) {
	if o.Jobs == nil {
		return "", errors.New("mail: outbox has no job client")
	}
	if _, err := netmail.ParseAddress(m.To); err != nil {
		return "", fmt.Errorf("mail: recipient %q: %w", m.To, err)
	}
	if m.Subject == "" || m.Text == "" {
		return "", errors.New("mail: a message needs a subject and a text body")
	}
	if m.ID == "" {
		m.ID = db.NewID("msg")
	}
	m.Status, m.Attempts, m.LastError, m.SentAt, m.ClaimedUntil = StatusPending, 0, nil, nil, nil
	if _, err := tx.NewInsert().Model(&m).Exec(ctx); err != nil {
		return "", fmt.Errorf("mail: store message: %w", err)
	}
	if _, err := o.Jobs.InsertTx(ctx, tx.River, SendArgs{MessageID: m.ID}, &river.InsertOpts{MaxAttempts: maxAttempts}); err != nil {
		return "", fmt.Errorf("mail: enqueue delivery: %w", err)
	}
	return m.ID, nil
}

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
