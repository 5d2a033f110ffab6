package mail_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/mail"
	"commerce/testkit"
)

// storePending stores a pending message without a job, as the outbox would.
func storePending(t *testing.T, d *db.DB) string {
	t.Helper()
	id := db.NewID("msg")
	_, err := d.Pool.Exec(context.Background(), `INSERT INTO mail_messages (id, template, to_address, subject, text_body)
		VALUES ($1, $2, $3, 'Your download', 'https://shop.example.com/d/grant_1')`, id, mail.TemplateDownloadLink, recipient())
	require.NoError(t, err)
	return id
}

// Runs of one mail job at once (a rescued job and the run it was rescued
// from, a duplicate) send the message once; a run after it was sent sends
// nothing; a run claimed by a run that died is taken over when its claim
// ends.
func TestDeliverTwiceSendsOnce(t *testing.T) {
	d := openDB(t)
	srv := testkit.StartSMTP(t, testkit.SMTPOptions{Mode: testkit.SMTPPlain})
	w := newWorker(t, d, mail.Config{SMTPURL: srv.URL("smtp", "")}, nil)
	ctx := context.Background()

	id := storePending(t, d)
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = w.Deliver(ctx, id, 1, 8)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		var snooze *river.JobSnoozeError
		require.True(t, err == nil || errors.As(err, &snooze), "%v", err)
	}
	require.Len(t, srv.Messages(), 1)
	m := get(t, d, id)
	require.Equal(t, mail.StatusSent, m.Status)
	require.Nil(t, m.ClaimedUntil)
	require.Equal(t, 1, m.Attempts) // the other runs claimed nothing

	// A rescued run after the message went out.
	require.NoError(t, w.Deliver(ctx, id, 2, 8))
	require.Len(t, srv.Messages(), 1)

	// Claimed by a run still in force: this run sends nothing and comes
	// back when the claim ends.
	id2 := storePending(t, d)
	_, err := d.Pool.Exec(ctx, `UPDATE mail_messages SET claimed_until = now() + interval '20 seconds' WHERE id = $1`, id2)
	require.NoError(t, err)
	err = w.Deliver(ctx, id2, 1, 8)
	var snooze *river.JobSnoozeError
	require.ErrorAs(t, err, &snooze)
	require.Greater(t, snooze.Duration.Seconds(), 15.0)
	require.Len(t, srv.Messages(), 1)

	// The claiming run died: once its claim has ended, a run delivers.
	_, err = d.Pool.Exec(ctx, `UPDATE mail_messages SET claimed_until = now() - interval '1 second' WHERE id = $1`, id2)
	require.NoError(t, err)
	require.NoError(t, w.Deliver(ctx, id2, 2, 8))
	require.Len(t, srv.Messages(), 2)
	require.Equal(t, mail.StatusSent, get(t, d, id2).Status)
}
