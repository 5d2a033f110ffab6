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
	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/jobs"
	"commerce/mail"
	"commerce/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// Tests that run River workers are not parallel: every River client of the
// package's database works the same queue, so one test's client would take
// another's jobs. Go runs the parallel tests after all of them have
// finished; those store messages with store, which deletes the job, and
// call the worker themselves.

const from = "commerce <no-reply@example.com>"

func openDB(t *testing.T) *db.DB {
	t.Helper()
	d, err := db.Open(context.Background(), testkit.Config(t).DatabaseURL)
	require.NoError(t, err)
	t.Cleanup(d.Close)
	return d
}

func newWorker(t *testing.T, d *db.DB, cfg mail.Config, log *slog.Logger) *mail.Worker {
	t.Helper()
	if cfg.From == "" {
		cfg.From = from
	}
	if log == nil {
		log = testkit.Logger()
	}
	w, err := mail.NewWorker(cfg, d, log)
	require.NoError(t, err)
	return w
}

// startRiver runs a River client with the worker until the test ends and
// returns an outbox on it.
func startRiver(t *testing.T, d *db.DB, w *mail.Worker) *mail.Outbox {
	t.Helper()
	client, err := jobs.New(d, testkit.Logger(), jobs.Options{
		Work: true, FetchCooldown: 20 * time.Millisecond, FetchPollInterval: 50 * time.Millisecond,
		AddWorkers: []func(*river.Workers){w.Register},
	})
	require.NoError(t, err)
	require.NoError(t, client.Start(context.Background()))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		require.NoError(t, client.Stop(ctx))
	})
	return &mail.Outbox{DB: d, Jobs: client}
}

// insertOnlyOutbox is an outbox on a River client that does not work jobs
// (River wants the worker of a kind registered to insert its jobs).
func insertOnlyOutbox(t *testing.T, d *db.DB) *mail.Outbox {
	t.Helper()
	w := newWorker(t, d, mail.Config{}, nil)
	client, err := jobs.New(d, testkit.Logger(), jobs.Options{AddWorkers: []func(*river.Workers){w.Register}})
	require.NoError(t, err)
	return &mail.Outbox{DB: d, Jobs: client}
}

// store sends m through an insert-only outbox and deletes its job, so that
// no River test's client ever works it: the test calls the worker itself.
func store(t *testing.T, d *db.DB, m mail.Message) string {
	t.Helper()
	id := send(t, insertOnlyOutbox(t, d), m)
	tag, err := d.Pool.Exec(context.Background(), `DELETE FROM river_job WHERE kind = 'mail_send' AND args->>'message_id' = $1`, id)
	require.NoError(t, err)
	require.EqualValues(t, 1, tag.RowsAffected())
	return id
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

func waitStatus(t *testing.T, d *db.DB, id, status string) mail.Message {
	t.Helper()
	var m mail.Message
	require.Eventually(t, func() bool {
		m = get(t, d, id)
		return m.Status == status
	}, 15*time.Second, 20*time.Millisecond, "message %s never became %s", id, status)
	return m
}

func jobState(t *testing.T, d *db.DB, id string) (state string, attempt int) {
	t.Helper()
	err := d.Pool.QueryRow(context.Background(),
		`SELECT state, attempt FROM river_job WHERE kind = 'mail_send' AND args->>'message_id' = $1`, id).Scan(&state, &attempt)
	require.NoError(t, err)
	return state, attempt
}

func recipient() string { return "buyer-" + testkit.Unique() + "@example.com" }

func passcode(t *testing.T, to, code string) mail.Message {
	t.Helper()
	m, err := mail.Passcode(to, code, 10*time.Minute)
	require.NoError(t, err)
	return m
}

// A message sent through the outbox is delivered by River's worker over SMTP
// as multipart/alternative, and its row turns "sent". A repeated job does
// not send it again, and a rolled-back transaction sends nothing.
func TestSendThroughRiver(t *testing.T) {
	d := openDB(t)
	srv := testkit.StartSMTP(t, testkit.SMTPOptions{Mode: testkit.SMTPPlain})
	w := newWorker(t, d, mail.Config{SMTPURL: srv.URL("smtp", "")}, nil)
	o := startRiver(t, d, w)

	to := recipient()
	m, err := mail.DownloadLink(to, mail.DownloadData{
		ListingTitle: "Go Patterns", StoreName: "Ada's Books", DownloadURL: "https://shop.example.com/d/grant_123",
	})
	require.NoError(t, err)
	id := send(t, o, m)
	require.True(t, strings.HasPrefix(id, "msg_"), id)

	got := waitStatus(t, d, id, mail.StatusSent)
	require.Equal(t, 1, got.Attempts)
	require.Nil(t, got.LastError)
	require.NotNil(t, got.SentAt)
	require.Equal(t, mail.TemplateDownloadLink, got.Template)
	require.Eventually(t, func() bool { s, _ := jobState(t, d, id); return s == "completed" }, 5*time.Second, 20*time.Millisecond)

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
	require.Equal(t, "<"+id+"@example.com>", p.Header.Get("Message-Id"))
	date, err := p.Header.Date()
	require.NoError(t, err)
	require.WithinDuration(t, time.Now(), date, time.Minute)
	require.Contains(t, p.Text, "https://shop.example.com/d/grant_123")
	require.Contains(t, p.Text, `"Go Patterns"`)
	require.Contains(t, p.HTML, `href="https://shop.example.com/d/grant_123"`)
	require.Contains(t, p.HTML, "Ada&#39;s Books")

	// The job again (at-least-once delivery): the message is not sent twice.
	require.NoError(t, w.Deliver(context.Background(), id, 2, 8))
	require.Len(t, srv.Messages(), 1)
	require.Equal(t, 1, get(t, d, id).Attempts)

	// A transaction that rolls back takes its message and job with it.
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
	var jobsLeft int
	require.NoError(t, d.Pool.QueryRow(context.Background(),
		`SELECT count(*) FROM river_job WHERE args->>'message_id' = $1`, rolledBack).Scan(&jobsLeft))
	require.Zero(t, jobsLeft)
}

// A 4xx reply is retried by River, and the retry delivers.
func TestTransientFailureRetried(t *testing.T) {
	d := openDB(t)
	srv := testkit.StartSMTP(t, testkit.SMTPOptions{Mode: testkit.SMTPPlain, DataErrors: []*smtp.SMTPError{
		{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Try again later"},
	}})
	o := startRiver(t, d, newWorker(t, d, mail.Config{SMTPURL: srv.URL("smtp", "")}, nil))

	to := recipient()
	id := send(t, o, passcode(t, to, "424242"))
	got := waitStatus(t, d, id, mail.StatusSent)
	require.Equal(t, 2, got.Attempts)
	require.Nil(t, got.LastError)
	require.Equal(t, 2, srv.DataCalls())
	require.Len(t, srv.Messages(), 1)
	require.Eventually(t, func() bool {
		state, attempt := jobState(t, d, id)
		return state == "completed" && attempt == 2
	}, 5*time.Second, 20*time.Millisecond)
}

// A 5xx reply fails the message for good: the job is cancelled, not retried.
func TestPermanentFailureNotRetried(t *testing.T) {
	d := openDB(t)
	srv := testkit.StartSMTP(t, testkit.SMTPOptions{Mode: testkit.SMTPPlain, DataErrors: []*smtp.SMTPError{
		{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "No such user"},
	}})
	o := startRiver(t, d, newWorker(t, d, mail.Config{SMTPURL: srv.URL("smtp", "")}, nil))

	id := send(t, o, passcode(t, recipient(), "555555"))
	got := waitStatus(t, d, id, mail.StatusFailed)
	require.Equal(t, 1, got.Attempts)
	require.NotNil(t, got.LastError)
	require.Contains(t, *got.LastError, "550")
	require.Nil(t, got.SentAt)
	require.Eventually(t, func() bool {
		state, attempt := jobState(t, d, id)
		return state == "cancelled" && attempt == 1
	}, 5*time.Second, 20*time.Millisecond)
	require.Equal(t, 1, srv.DataCalls())
	require.Empty(t, srv.Messages())
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
			w := newWorker(t, d, mail.Config{SMTPURL: srv.URL(tc.scheme, ""), TLSConfig: &tls.Config{RootCAs: pool}}, nil)
			to := recipient()
			id := store(t, d, passcode(t, to, "123456"))
			require.NoError(t, w.Deliver(context.Background(), id, 1, 8))
			require.Equal(t, mail.StatusSent, get(t, d, id).Status)
			msgs := srv.Messages()
			require.Len(t, msgs, 1)
			require.Equal(t, tc.wantTLS, msgs[0].TLS)
			require.Contains(t, parseMail(t, msgs[0].Data).Text, "123456")
		})
	}
}

// TLS that cannot be had is a transient failure: nothing is sent in clear
// or to a server whose certificate is not trusted, and the job is retried.
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
			w := newWorker(t, d, mail.Config{SMTPURL: srv.URL(tc.scheme, "")}, nil)
			id := store(t, d, passcode(t, recipient(), "123456"))
			err := w.Deliver(context.Background(), id, 1, 8)
			require.ErrorContains(t, err, tc.wantErr)
			var cancel *river.JobCancelError
			require.False(t, errors.As(err, &cancel), "a transient failure must be retried")
			got := get(t, d, id)
			require.Equal(t, mail.StatusPending, got.Status)
			require.Equal(t, 1, got.Attempts)
			require.NotNil(t, got.LastError)
			require.Contains(t, *got.LastError, tc.wantErr)
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

	good := newWorker(t, d, mail.Config{SMTPURL: srv.URL("smtp+starttls", "alice:s3cr%3At"), TLSConfig: &tls.Config{RootCAs: pool}}, nil)
	id := store(t, d, passcode(t, recipient(), "123456"))
	require.NoError(t, good.Deliver(context.Background(), id, 1, 8))
	require.Equal(t, mail.StatusSent, get(t, d, id).Status)
	msgs := srv.Messages()
	require.Len(t, msgs, 1)
	require.Equal(t, "alice", msgs[0].AuthUser)
	require.True(t, msgs[0].TLS)

	bad := newWorker(t, d, mail.Config{SMTPURL: srv.URL("smtp+starttls", "alice:wrong"), TLSConfig: &tls.Config{RootCAs: pool}}, nil)
	id = store(t, d, passcode(t, recipient(), "123456"))
	err := bad.Deliver(context.Background(), id, 1, 8)
	require.ErrorContains(t, err, "AUTH")
	require.Equal(t, mail.StatusPending, get(t, d, id).Status)
	require.Len(t, srv.Messages(), 1)
}

// A transient failure on the job's last attempt fails the message.
func TestLastAttemptFails(t *testing.T) {
	t.Parallel()
	d := openDB(t)
	srv := testkit.StartSMTP(t, testkit.SMTPOptions{Mode: testkit.SMTPPlain, DataErrors: []*smtp.SMTPError{
		{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 4, 2}, Message: "Busy"},
	}})
	w := newWorker(t, d, mail.Config{SMTPURL: srv.URL("smtp", "")}, nil)
	id := store(t, d, passcode(t, recipient(), "123456"))
	require.Error(t, w.Deliver(context.Background(), id, 8, 8))
	got := get(t, d, id)
	require.Equal(t, mail.StatusFailed, got.Status)
	require.Contains(t, *got.LastError, "421")
}

// Without SMTP_URL a message is written to the log, passcode included, and
// marked "logged"; a repeated job logs nothing more.
func TestNoSMTPLogs(t *testing.T) {
	t.Parallel()
	d := openDB(t)
	var buf testkit.LockedBuffer
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}))
	w := newWorker(t, d, mail.Config{}, log)
	to := recipient()
	id := store(t, d, passcode(t, to, "987654"))

	require.NoError(t, w.Deliver(context.Background(), id, 1, 8))
	got := get(t, d, id)
	require.Equal(t, mail.StatusLogged, got.Status)
	require.NotNil(t, got.SentAt)
	require.Equal(t, 1, got.Attempts)
	out := buf.String()
	require.Contains(t, out, "987654")
	require.Contains(t, out, to)
	require.Contains(t, out, "level=INFO")

	require.NoError(t, w.Deliver(context.Background(), id, 2, 8))
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
	o := insertOnlyOutbox(t, d)
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

// NewWorker checks SMTP_URL and MAIL_FROM and names them.
func TestNewWorkerConfig(t *testing.T) {
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
		_, err := mail.NewWorker(tc.cfg, nil, nil)
		if tc.wantErr == "" {
			require.NoError(t, err, "%+v", tc.cfg)
		} else {
			require.ErrorContains(t, err, tc.wantErr, "%+v", tc.cfg)
		}
	}
}
