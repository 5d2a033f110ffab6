package mail_test

import (
	"context"
	"crypto/tls"
	"errors"
	"log/slog"
	netmail "net/mail"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/mail"
	"commerce/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// Tests that run a Dispatcher are not parallel: a dispatcher claims every
// due message of the package's database, so one test's dispatcher would
// take another's messages. Go runs the parallel tests after all of them
// have finished; those deliver their own messages with Sender.Deliver (a
// round restricted to one message).

const from = "commerce <no-reply@example.com>"

func openDB(t *testing.T) *db.DB {
	t.Helper()
	d, err := db.Open(context.Background(), testkit.Config(t).DatabaseURL)
	require.NoError(t, err)
	t.Cleanup(d.Close)
	return d
}

func newSender(t *testing.T, cfg mail.Config, log *slog.Logger) *mail.Sender {
	t.Helper()
	if cfg.From == "" {
		cfg.From = from
	}
	if log == nil {
		log = testkit.Logger()
	}
	s, err := mail.NewSender(cfg, log)
	require.NoError(t, err)
	return s
}

// startDispatcher runs a dispatcher until the test ends; poll 0 is the
// default interval.
func startDispatcher(t *testing.T, d *db.DB, s *mail.Sender, poll time.Duration) *mail.Dispatcher {
	t.Helper()
	w := &mail.Dispatcher{DB: d, Sender: s, Log: testkit.Logger(), PollInterval: poll}
	w.Start(context.Background())
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		w.Stop(ctx)
	})
	return w
}

func outbox(d *db.DB, s *mail.Sender) *mail.Outbox { return &mail.Outbox{DB: d, Domain: s.Domain()} }

// store stores m through an outbox, as a resolver does.
func store(t *testing.T, d *db.DB, m mail.Message) string {
	t.Helper()
	return send(t, &mail.Outbox{DB: d, Domain: "example.com"}, m)
}

func send(t *testing.T, o *mail.Outbox, m mail.Message) string {
	t.Helper()
	var id string
	err := o.DB.InTx(context.Background(), func(ctx context.Context, tx db.Tx) error {
		var err error
		id, err = o.Send(ctx, tx, m)
		return err
	})
	require.NoError(t, err)
	return id
}

func get(t *testing.T, d *db.DB, id string) mail.Message {
	t.Helper()
	m, err := mail.Get(context.Background(), d, id)
	require.NoError(t, err)
	return m
}

func waitStatus(t *testing.T, d *db.DB, id, status string, within time.Duration) mail.Message {
	t.Helper()
	var m mail.Message
	require.Eventually(t, func() bool {
		m = get(t, d, id)
		return m.Status == status
	}, within, 20*time.Millisecond, "message %s never became %s", id, status)
	return m
}

func recipient() string { return "buyer-" + testkit.Unique() + "@example.com" }

func passcode(t *testing.T, to, code string) mail.Message {
	t.Helper()
	m, err := mail.Passcode(to, code, 10*time.Minute)
	require.NoError(t, err)
	return m
}

// A message stored through the outbox carries its Message-ID before any
// attempt, inserts no River job, and is delivered over SMTP as
// multipart/alternative as soon as the transaction commits: the commit's
// NOTIFY wakes the dispatcher (which would otherwise look only once an
// hour). Its row turns "sent"; a rolled-back transaction sends nothing.
func TestSendThroughDispatcher(t *testing.T) {
	d := openDB(t)
	srv := testkit.StartSMTP(t, testkit.SMTPOptions{Mode: testkit.SMTPPlain})
	s := newSender(t, mail.Config{SMTPURL: srv.URL("smtp", "")}, nil)
	o := outbox(d, s)

	// Stored, no dispatcher yet: pending, its Message-ID fixed, no job.
	to := recipient()
	m, err := mail.DownloadLink(to, mail.DownloadData{
		ListingTitle: "Go Patterns", StoreName: "Ada's Books", DownloadURL: "https://shop.example.com/d/grant_123",
	})
	require.NoError(t, err)
	first := send(t, o, m)
	require.True(t, strings.HasPrefix(first, "msg_"), first)
	stored := get(t, d, first)
	require.Equal(t, mail.StatusPending, stored.Status)
	require.NotNil(t, stored.MessageID)
	require.Equal(t, first+"@example.com", *stored.MessageID)
	var jobs int
	require.NoError(t, d.Pool.QueryRow(context.Background(), `SELECT count(*) FROM river_job WHERE kind = 'mail_send' AND args->>'message_id' = $1`, first).Scan(&jobs))
	require.Zero(t, jobs, "no mail_send job")

	// A dispatcher starting takes what was stored before.
	startDispatcher(t, d, s, time.Hour)
	got := waitStatus(t, d, first, mail.StatusSent, 5*time.Second)
	require.Equal(t, 1, got.Attempts)
	require.Nil(t, got.LastError)
	require.NotNil(t, got.SentAt)
	require.Nil(t, got.ClaimedUntil)
	require.Equal(t, mail.TemplateDownloadLink, got.Template)

	msgs := srv.Messages()
	require.Len(t, msgs, 1)
	require.Equal(t, []string{to}, msgs[0].To)
	require.Equal(t, "no-reply@example.com", msgs[0].From)
	require.False(t, msgs[0].TLS)
	p := parseMail(t, msgs[0].Data)
	require.Equal(t, "Your download: Go Patterns", p.Subject)
	toAddr, err := netmail.ParseAddress(p.Header.Get("To"))
	require.NoError(t, err)
	require.Equal(t, to, toAddr.Address)
	fromAddr, err := netmail.ParseAddress(p.Header.Get("From"))
	require.NoError(t, err)
	require.Equal(t, "commerce", fromAddr.Name)
	require.Equal(t, "<"+first+"@example.com>", p.Header.Get("Message-Id"))
	date, err := p.Header.Date()
	require.NoError(t, err)
	require.WithinDuration(t, got.CreatedAt, date, time.Second, "the Date is the record's")
	require.Contains(t, p.Text, "https://shop.example.com/d/grant_123")
	require.Contains(t, p.Text, `"Go Patterns"`)
	require.Contains(t, p.HTML, `href="https://shop.example.com/d/grant_123"`)
	require.Contains(t, p.HTML, "Ada&#39;s Books")

	// Stored while the dispatcher sleeps: the commit wakes it.
	start := time.Now()
	id := send(t, o, passcode(t, recipient(), "314159"))
	waitStatus(t, d, id, mail.StatusSent, 3*time.Second)
	require.Less(t, time.Since(start), 3*time.Second)
	require.Len(t, srv.Messages(), 2)

	// A transaction that rolls back takes its message with it.
	var rolledBack string
	boom := errors.New("boom")
	err = d.InTx(context.Background(), func(ctx context.Context, tx db.Tx) error {
		var err error
		rolledBack, err = o.Send(ctx, tx, passcode(t, recipient(), "111111"))
		require.NoError(t, err)
		return boom
	})
	require.ErrorIs(t, err, boom)
	_, err = mail.Get(context.Background(), d, rolledBack)
	require.ErrorIs(t, err, db.ErrNotFound)
	require.NoError(t, d.Pool.QueryRow(context.Background(), `SELECT count(*) FROM river_job WHERE kind = 'mail_send' AND args->>'message_id' IN ($1, $2)`, first, rolledBack).Scan(&jobs))
	require.Zero(t, jobs, "no mail_send job")
}

// A 4xx reply schedules a retry a second later, which the dispatcher wakes
// for (it would otherwise look only once an hour), and the retry delivers.
func TestTransientFailureRetried(t *testing.T) {
	d := openDB(t)
	srv := testkit.StartSMTP(t, testkit.SMTPOptions{Mode: testkit.SMTPPlain, DataErrors: []*smtp.SMTPError{
		{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Try again later"},
	}})
	s := newSender(t, mail.Config{SMTPURL: srv.URL("smtp", "")}, nil)
	startDispatcher(t, d, s, time.Hour)

	id := send(t, outbox(d, s), passcode(t, recipient(), "424242"))
	start := time.Now()
	got := waitStatus(t, d, id, mail.StatusSent, 10*time.Second)
	require.GreaterOrEqual(t, time.Since(start), mail.RetryDelay(1)-100*time.Millisecond, "the retry waits")
	require.Equal(t, 2, got.Attempts)
	require.Nil(t, got.LastError)
	require.Equal(t, 2, srv.DataCalls())
	require.Len(t, srv.Messages(), 1)
}

// A 5xx reply fails the message for good: it is not tried again.
func TestPermanentFailureNotRetried(t *testing.T) {
	d := openDB(t)
	srv := testkit.StartSMTP(t, testkit.SMTPOptions{Mode: testkit.SMTPPlain, DataErrors: []*smtp.SMTPError{
		{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "No such user"},
	}})
	s := newSender(t, mail.Config{SMTPURL: srv.URL("smtp", "")}, nil)
	startDispatcher(t, d, s, 50*time.Millisecond)

	id := send(t, outbox(d, s), passcode(t, recipient(), "555555"))
	got := waitStatus(t, d, id, mail.StatusFailed, 5*time.Second)
	require.Equal(t, 1, got.Attempts)
	require.NotNil(t, got.LastError)
	require.Contains(t, *got.LastError, "550")
	require.Nil(t, got.SentAt)
	require.Nil(t, got.ClaimedUntil)
	time.Sleep(1500 * time.Millisecond) // past the first retry's time
	require.Equal(t, 1, srv.DataCalls())
	require.Empty(t, srv.Messages())
	require.Equal(t, 1, get(t, d, id).Attempts)
}

// Every TLS mode of SMTP_URL against a server that allows it, with a
// self-signed certificate trusted through Config.TLSConfig.
func TestTLSModes(t *testing.T) {
	t.Parallel()
	_, pool := testkit.TestCert()
	for _, tc := range []struct {
		name    string
		scheme  string
		mode    testkit.SMTPMode
		wantTLS bool
	}{
		{"smtp without STARTTLS on offer", "smtp", testkit.SMTPPlain, false},
		{"smtp upgrades when STARTTLS is offered", "smtp", testkit.SMTPStartTLS, true},
		{"smtp+starttls", "smtp+starttls", testkit.SMTPStartTLS, true},
		{"smtps", "smtps", testkit.SMTPImplicit, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := openDB(t)
			srv := testkit.StartSMTP(t, testkit.SMTPOptions{Mode: tc.mode})
			w := newSender(t, mail.Config{SMTPURL: srv.URL(tc.scheme, ""), TLSConfig: &tls.Config{RootCAs: pool}}, nil)
			to := recipient()
			id := store(t, d, passcode(t, to, "123456"))
			require.NoError(t, w.Deliver(context.Background(), d, id))
			require.Equal(t, mail.StatusSent, get(t, d, id).Status)
			msgs := srv.Messages()
			require.Len(t, msgs, 1)
			require.Equal(t, tc.wantTLS, msgs[0].TLS)
			require.Contains(t, parseMail(t, msgs[0].Data).Text, "123456")
		})
	}
}

// TLS that cannot be had is a transient failure: nothing is sent in clear
// or to a server whose certificate is not trusted, and a retry is
// scheduled.
func TestTLSRequired(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, scheme string
		mode         testkit.SMTPMode
		wantErr      string
	}{
		{"smtp+starttls without STARTTLS on offer", "smtp+starttls", testkit.SMTPPlain, "STARTTLS"},
		{"smtps with an untrusted certificate", "smtps", testkit.SMTPImplicit, "certificate"},
		{"smtp with an untrusted certificate", "smtp", testkit.SMTPStartTLS, "certificate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := openDB(t)
			srv := testkit.StartSMTP(t, testkit.SMTPOptions{Mode: tc.mode})
			w := newSender(t, mail.Config{SMTPURL: srv.URL(tc.scheme, "")}, nil)
			id := store(t, d, passcode(t, recipient(), "123456"))
			before := time.Now()
			require.NoError(t, w.Deliver(context.Background(), d, id))
			got := get(t, d, id)
			require.Equal(t, mail.StatusPending, got.Status, "a transient failure is retried")
			require.Equal(t, 1, got.Attempts)
			require.NotNil(t, got.LastError)
			require.Contains(t, *got.LastError, tc.wantErr)
			require.Nil(t, got.ClaimedUntil)
			require.WithinDuration(t, before.Add(mail.RetryDelay(1)), got.NextAttemptAt, time.Second)
			require.Empty(t, srv.Messages())
		})
	}
}

// The user and password of SMTP_URL log in with AUTH PLAIN.
func TestAuthPlain(t *testing.T) {
	t.Parallel()
	_, pool := testkit.TestCert()
	d := openDB(t)
	srv := testkit.StartSMTP(t, testkit.SMTPOptions{Mode: testkit.SMTPStartTLS, User: "alice", Pass: "s3cr:t"})

	good := newSender(t, mail.Config{SMTPURL: srv.URL("smtp+starttls", "alice:s3cr%3At"), TLSConfig: &tls.Config{RootCAs: pool}}, nil)
	id := store(t, d, passcode(t, recipient(), "123456"))
	require.NoError(t, good.Deliver(context.Background(), d, id))
	require.Equal(t, mail.StatusSent, get(t, d, id).Status)
	msgs := srv.Messages()
	require.Len(t, msgs, 1)
	require.Equal(t, "alice", msgs[0].AuthUser)
	require.True(t, msgs[0].TLS)

	bad := newSender(t, mail.Config{SMTPURL: srv.URL("smtp+starttls", "alice:wrong"), TLSConfig: &tls.Config{RootCAs: pool}}, nil)
	id = store(t, d, passcode(t, recipient(), "123456"))
	require.NoError(t, bad.Deliver(context.Background(), d, id))
	got := get(t, d, id)
	require.Equal(t, mail.StatusPending, got.Status)
	require.Contains(t, *got.LastError, "AUTH")
	require.Len(t, srv.Messages(), 1)
}

// A transient failure on the last attempt fails the message.
func TestLastAttemptFails(t *testing.T) {
	t.Parallel()
	d := openDB(t)
	srv := testkit.StartSMTP(t, testkit.SMTPOptions{Mode: testkit.SMTPPlain, DataErrors: []*smtp.SMTPError{
		{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 4, 2}, Message: "Busy"},
	}})
	w := newSender(t, mail.Config{SMTPURL: srv.URL("smtp", "")}, nil)
	id := store(t, d, passcode(t, recipient(), "123456"))
	_, err := d.Pool.Exec(context.Background(), `UPDATE mail_messages SET attempts = $2 WHERE id = $1`, id, mail.MaxAttempts-1)
	require.NoError(t, err)
	require.NoError(t, w.Deliver(context.Background(), d, id))
	got := get(t, d, id)
	require.Equal(t, mail.StatusFailed, got.Status)
	require.Equal(t, mail.MaxAttempts, got.Attempts)
	require.Contains(t, *got.LastError, "421")
	require.Nil(t, got.ClaimedUntil)
}

// Without SMTP_URL a message is kept and marked "logged": the log names it
// (its id, template and masked recipient), never its passcode or the whole
// address (CONTRACT §24); another round logs nothing more.
func TestNoSMTPLogs(t *testing.T) {
	t.Parallel()
	d := openDB(t)
	var buf testkit.LockedBuffer
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}))
	w := newSender(t, mail.Config{}, log)
	to := recipient()
	id := store(t, d, passcode(t, to, "987654"))

	require.NoError(t, w.Deliver(context.Background(), d, id))
	got := get(t, d, id)
	require.Equal(t, mail.StatusLogged, got.Status)
	require.NotNil(t, got.SentAt)
	require.Equal(t, 1, got.Attempts)
	out := buf.String()
	require.NotContains(t, out, "987654")
	require.NotContains(t, out, to)
	require.Contains(t, out, id)
	require.Contains(t, out, "template=passcode")
	require.Contains(t, out, to[:1]+"***"+to[strings.IndexByte(to, '@'):])
	require.Contains(t, out, "level=INFO")

	require.NoError(t, w.Deliver(context.Background(), d, id))
	require.Equal(t, out, buf.String())
	require.Equal(t, 1, get(t, d, id).Attempts)
}

// List returns the newest messages first, at most limit.
func TestList(t *testing.T) {
	t.Parallel()
	d := openDB(t)
	to := recipient()
	var ids []string
	for _, code := range []string{"000001", "000002", "000003"} {
		ids = append(ids, store(t, d, passcode(t, to, code)))
	}

	all, err := mail.List(context.Background(), d, 1000)
	require.NoError(t, err)
	var mine []string
	for i, m := range all {
		if i > 0 {
			prev := all[i-1]
			require.False(t, m.CreatedAt.After(prev.CreatedAt), "not newest first")
		}
		if m.To == to {
			mine = append(mine, m.ID)
			require.Equal(t, mail.StatusPending, m.Status)
			require.Contains(t, m.HTML, "<!DOCTYPE html>")
			require.Equal(t, m.ID+"@example.com", *m.MessageID)
		}
	}
	require.Equal(t, []string{ids[2], ids[1], ids[0]}, mine)

	two, err := mail.List(context.Background(), d, 2)
	require.NoError(t, err)
	require.Len(t, two, 2)

	_, err = mail.Get(context.Background(), d, "msg_missing")
	require.ErrorIs(t, err, db.ErrNotFound)
}

// Send refuses a message it could never deliver.
func TestSendValidates(t *testing.T) {
	t.Parallel()
	d := openDB(t)
	o := &mail.Outbox{DB: d}
	for _, m := range []mail.Message{
		{To: "not an address", Subject: "s", Text: "t"},
		{To: "a@example.com", Text: "t"},
		{To: "a@example.com", Subject: "s"},
	} {
		err := d.InTx(context.Background(), func(ctx context.Context, tx db.Tx) error {
			_, err := o.Send(ctx, tx, m)
			return err
		})
		require.Error(t, err, "%+v", m)
	}
}

// NewSender checks SMTP_URL and MAIL_FROM and names them.
func TestNewSenderConfig(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cfg     mail.Config
		wantErr string
	}{
		{mail.Config{From: from}, ""},
		{mail.Config{From: from, SMTPURL: "smtp://user:pass@mail.example.com"}, ""},
		{mail.Config{From: from, SMTPURL: "smtps://mail.example.com:2465"}, ""},
		{mail.Config{From: from, SMTPURL: "smtp+starttls://mail.example.com:587"}, ""},
		{mail.Config{From: from, SMTPURL: "http://mail.example.com"}, "SMTP_URL"},
		{mail.Config{From: from, SMTPURL: "smtp://"}, "SMTP_URL"},
		{mail.Config{From: from, SMTPURL: "smtp://mail.example.com:99999"}, "SMTP_URL"},
		{mail.Config{From: "nobody"}, "MAIL_FROM"},
		{mail.Config{}, "MAIL_FROM"},
	} {
		_, err := mail.NewSender(tc.cfg, nil)
		if tc.wantErr == "" {
			require.NoError(t, err, "%+v", tc.cfg)
		} else {
			require.ErrorContains(t, err, tc.wantErr, "%+v", tc.cfg)
		}
	}
}
