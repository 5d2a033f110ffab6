package mail_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/jobs"
	"commerce/mail"
	"commerce/testkit"
)

// storeRaw stores a pending message as the earlier version did: no
// Message-ID, no NOTIFY, due at once (the column's default).
func storeRaw(t *testing.T, d *db.DB, to string) string {
	t.Helper()
	id := db.NewID("msg")
	_, err := d.Pool.Exec(context.Background(), `INSERT INTO mail_messages (id, template, to_address, subject, text_body, html_body)
		VALUES ($1, $2, $3, 'Your download', 'https://shop.example.com/d/grant_1', '<p>https://shop.example.com/d/grant_1</p>')`, id, mail.TemplateDownloadLink, to)
	require.NoError(t, err)
	return id
}

// Rounds at once over one message (processes sharing the database) send it
// once; a round after it was sent sends nothing; a message claimed by a
// round under way is left alone until the claim ends (its process died),
// then sent.
func TestDeliverTwiceSendsOnce(t *testing.T) {
	t.Parallel()
	d := openDB(t)
	srv := testkit.StartSMTP(t, testkit.SMTPOptions{Mode: testkit.SMTPPlain})
	w := newSender(t, mail.Config{SMTPURL: srv.URL("smtp", "")}, nil)
	ctx := context.Background()

	id := store(t, d, passcode(t, recipient(), "123456"))
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() { assert.NoError(t, w.Deliver(ctx, d, id)) })
	}
	wg.Wait()
	require.Len(t, srv.Messages(), 1)
	m := get(t, d, id)
	require.Equal(t, mail.StatusSent, m.Status)
	require.Nil(t, m.ClaimedUntil)
	require.Equal(t, 1, m.Attempts) // the other rounds claimed nothing

	// A round after the message went out.
	require.NoError(t, w.Deliver(ctx, d, id))
	require.Len(t, srv.Messages(), 1)

	// Claimed by a round still in force: nothing sent, nothing counted.
	id2 := store(t, d, passcode(t, recipient(), "123456"))
	_, err := d.Pool.Exec(ctx, `UPDATE mail_messages SET claimed_until = now() + interval '10 seconds', attempts = 1 WHERE id = $1`, id2)
	require.NoError(t, err)
	require.NoError(t, w.Deliver(ctx, d, id2))
	require.Len(t, srv.Messages(), 1)
	require.Equal(t, 1, get(t, d, id2).Attempts)

	// The claiming process died: once its claim has ended, a round sends.
	_, err = d.Pool.Exec(ctx, `UPDATE mail_messages SET claimed_until = now() - interval '1 second' WHERE id = $1`, id2)
	require.NoError(t, err)
	require.NoError(t, w.Deliver(ctx, d, id2))
	require.Len(t, srv.Messages(), 2)
	m = get(t, d, id2)
	require.Equal(t, mail.StatusSent, m.Status)
	require.Equal(t, 2, m.Attempts)
}

// A process that handed a message to the SMTP server and died before it
// wrote the outcome: the message is sent again once the claim has expired,
// as the same message (the record's Message-ID and Date), which the
// receiver deduplicates.
func TestResendAfterCrashIsTheSameMessage(t *testing.T) {
	t.Parallel()
	d := openDB(t)
	srv := testkit.StartSMTP(t, testkit.SMTPOptions{Mode: testkit.SMTPPlain})
	w := newSender(t, mail.Config{SMTPURL: srv.URL("smtp", "")}, nil)
	ctx := context.Background()

	id := store(t, d, passcode(t, recipient(), "271828"))
	_, err := d.Pool.Exec(ctx, `UPDATE mail_messages SET claimed_until = now() - interval '1 second', attempts = 1 WHERE id = $1`, id)
	require.NoError(t, err)
	require.NoError(t, w.SendRecord(ctx, d, id)) // the dead process's attempt
	// Another MAIL_FROM domain since: the record's Message-ID still holds.
	other := newSender(t, mail.Config{SMTPURL: srv.URL("smtp", ""), From: "commerce <no-reply@shop.example.org>"}, nil)
	require.NoError(t, other.Deliver(ctx, d, id))

	msgs := srv.Messages()
	require.Len(t, msgs, 2)
	a, b := parseMail(t, msgs[0].Data), parseMail(t, msgs[1].Data)
	require.Equal(t, "<"+id+"@example.com>", a.Header.Get("Message-Id"))
	require.Equal(t, a.Header.Get("Message-Id"), b.Header.Get("Message-Id"))
	require.Equal(t, a.Header.Get("Date"), b.Header.Get("Date"))
	require.Equal(t, a.Subject, b.Subject)
	require.Equal(t, a.Text, b.Text)
	require.Equal(t, a.HTML, b.HTML)
	m := get(t, d, id)
	require.Equal(t, mail.StatusSent, m.Status)
	require.Equal(t, 2, m.Attempts)
}

// An attempt cannot outlive its claim: a relay slower than the attempt's
// time limit fails the attempt (a retry is scheduled) before the claim
// ends, so no other process can take the message while it is being sent.
func TestAttemptEndsBeforeClaim(t *testing.T) {
	t.Parallel()
	require.Less(t, mail.SMTPTimeout, mail.AttemptTimeout)
	require.LessOrEqual(t, mail.AttemptTimeout+mail.FinishTimeout, mail.ClaimFor)
	// A crash delays a message by at most its claim and a poll: the crash
	// drill wants every email out within 20 s of the restart.
	require.LessOrEqual(t, mail.ClaimFor+mail.DispatchPollInterval, 12*time.Second)

	d := openDB(t)
	srv := testkit.StartSMTP(t, testkit.SMTPOptions{Mode: testkit.SMTPPlain, DataDelay: mail.ClaimFor})
	w := newSender(t, mail.Config{SMTPURL: srv.URL("smtp", "")}, nil)
	id := store(t, d, passcode(t, recipient(), "161803"))
	start := time.Now()
	require.NoError(t, w.Deliver(context.Background(), d, id))
	took := time.Since(start)
	require.Less(t, took, mail.AttemptTimeout+time.Second)
	m := get(t, d, id)
	require.Equal(t, mail.StatusPending, m.Status)
	require.Nil(t, m.ClaimedUntil, "the outcome was written under the claim")
	require.NotNil(t, m.LastError)
	require.Equal(t, 1, m.Attempts)
}

// A message whose dispatcher died (its claim in force, nothing to wake the
// others) is sent by another process's dispatcher once the claim has
// expired, found by the poll.
func TestExpiredClaimTakenOver(t *testing.T) {
	d := openDB(t)
	srv := testkit.StartSMTP(t, testkit.SMTPOptions{Mode: testkit.SMTPPlain})
	s := newSender(t, mail.Config{SMTPURL: srv.URL("smtp", "")}, nil)
	ctx := context.Background()

	id := store(t, d, passcode(t, recipient(), "577215"))
	var until time.Time
	require.NoError(t, d.Pool.QueryRow(ctx, `UPDATE mail_messages SET claimed_until = now() + interval '2 seconds', attempts = 1
		WHERE id = $1 RETURNING claimed_until`, id).Scan(&until))
	startDispatcher(t, d, s, 0)
	m := waitStatus(t, d, id, mail.StatusSent, 2*time.Second+mail.DispatchPollInterval+2*time.Second)
	require.False(t, m.SentAt.Before(until), "sent at %s, before the claim ended at %s", m.SentAt, until)
	require.Equal(t, 2, m.Attempts)
	require.Len(t, srv.Messages(), 1)
}

// A message stored by the earlier version, with its River mail_send job:
// the job completes without sending, and the dispatcher delivers the
// message once, under the Message-ID that version sent.
func TestLegacySendJobDelivered(t *testing.T) {
	d := openDB(t)
	srv := testkit.StartSMTP(t, testkit.SMTPOptions{Mode: testkit.SMTPPlain})
	s := newSender(t, mail.Config{SMTPURL: srv.URL("smtp", "")}, nil)
	ctx := context.Background()

	client, err := jobs.New(d, testkit.Logger(), jobs.Options{
		Work: true, FetchCooldown: 20 * time.Millisecond, FetchPollInterval: 50 * time.Millisecond,
		AddWorkers: []func(*river.Workers){(&mail.SendWorker{}).Register},
	})
	require.NoError(t, err)
	to := recipient()
	id := storeRaw(t, d, to)
	res, err := client.Insert(ctx, mail.SendArgs{MessageID: id}, &river.InsertOpts{MaxAttempts: 8})
	require.NoError(t, err)
	require.NoError(t, client.Start(ctx))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		require.NoError(t, client.Stop(ctx))
	})
	startDispatcher(t, d, s, 0)

	m := waitStatus(t, d, id, mail.StatusSent, 5*time.Second)
	require.Equal(t, 1, m.Attempts)
	require.Equal(t, id+"@example.com", *m.MessageID)
	require.Eventually(t, func() bool {
		var state string
		require.NoError(t, d.Pool.QueryRow(ctx, `SELECT state FROM river_job WHERE id = $1`, res.Job.ID).Scan(&state))
		return state == "completed"
	}, 5*time.Second, 20*time.Millisecond)
	msgs := srv.Messages()
	require.Len(t, msgs, 1)
	require.Equal(t, []string{to}, msgs[0].To)
	require.Equal(t, "<"+id+"@example.com>", parseMail(t, msgs[0].Data).Header.Get("Message-Id"))
}
