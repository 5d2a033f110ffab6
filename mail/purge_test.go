package mail_test

import (
	"context"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/jobs"
	"commerce/mail"
	"commerce/testkit"
)

// storeAged writes a message as if it had been created and delivered ago
// (sent_at nil for pending or failed ones).
func storeAged(t *testing.T, d *db.DB, template, status string, ago time.Duration) string {
	t.Helper()
	at := time.Now().Add(-ago)
	m := mail.Message{ID: db.NewID("msg"), Template: template, To: recipient(), Subject: "Your passcode: 123456",
		Text: "code 123456 https://example.com/d/secret", HTML: "<p>code 123456</p>", Status: status, CreatedAt: at}
	if template != mail.TemplatePasscode {
		m.Subject = "Your download: Book"
	}
	if status == mail.StatusSent || status == mail.StatusLogged {
		m.SentAt = &at
	}
	_, err := d.NewInsert().Model(&m).Exec(context.Background())
	require.NoError(t, err)
	return m.ID
}

func requirePurged(t *testing.T, d *db.DB, id string, purged bool) {
	t.Helper()
	m, err := mail.Get(context.Background(), d, id)
	require.NoError(t, err, "the row stays")
	if purged {
		require.Empty(t, m.Text, id)
		require.Empty(t, m.HTML, id)
		require.NotContains(t, m.Subject, "123456", id)
		require.NotEmpty(t, m.To, "metadata stays")
	} else {
		require.Contains(t, m.Text, "123456", id)
		require.NotEmpty(t, m.HTML, id)
	}
}

func TestPurgeAfterSevenDays(t *testing.T) {
	t.Parallel()
	d := openDB(t)
	day := 24 * time.Hour
	old := storeAged(t, d, mail.TemplatePasscode, mail.StatusSent, 8*day)
	oldLink := storeAged(t, d, mail.TemplateDownloadLink, mail.StatusLogged, 8*day)
	oldFailed := storeAged(t, d, mail.TemplateDownloadLink, mail.StatusFailed, 8*day)
	recent := storeAged(t, d, mail.TemplateDownloadLink, mail.StatusSent, 6*day)
	recentPass := storeAged(t, d, mail.TemplatePasscode, mail.StatusSent, 6*day)
	pending := storeAged(t, d, mail.TemplatePasscode, mail.StatusPending, 10*day)
	alert := storeAged(t, d, mail.TemplateSellerOrderAlert, mail.StatusSent, 8*day)

	w := &mail.PurgeWorker{DB: d}
	require.NoError(t, w.Work(context.Background(), &river.Job[mail.PurgeArgs]{}))
	requirePurged(t, d, old, true)
	requirePurged(t, d, oldLink, true)
	requirePurged(t, d, oldFailed, true)
	requirePurged(t, d, recent, false)
	requirePurged(t, d, recentPass, false)
	requirePurged(t, d, pending, false)
	requirePurged(t, d, alert, false)
	m, err := mail.Get(context.Background(), d, old)
	require.NoError(t, err)
	require.Equal(t, "Your passcode", m.Subject)
	require.Equal(t, mail.StatusSent, m.Status)
	require.NotNil(t, m.SentAt)

	// A second run changes nothing more; a clock two days on purges the
	// 6-day-old ones.
	n, err := mail.Purge(context.Background(), d, time.Now().Add(-mail.Retention))
	require.NoError(t, err)
	require.Zero(t, n)
	w.Now = func() time.Time { return time.Now().Add(2 * day) }
	require.NoError(t, w.Work(context.Background(), &river.Job[mail.PurgeArgs]{}))
	requirePurged(t, d, recent, true)
	requirePurged(t, d, recentPass, true)
	requirePurged(t, d, pending, false)
}

// The periodic work is enqueued at once the first time (jobs.RunPeriodic)
// and runs.
func TestPurgePeriodic(t *testing.T) {
	d := openDB(t)
	old := storeAged(t, d, mail.TemplatePasscode, mail.StatusSent, 8*24*time.Hour)
	client, err := jobs.New(d, testkit.Logger(), jobs.Options{
		Work: true, FetchCooldown: 20 * time.Millisecond, FetchPollInterval: 50 * time.Millisecond,
		AddWorkers: []func(*river.Workers){
			(&mail.PurgeWorker{DB: d}).Register,
		},
	})
	require.NoError(t, err)
	require.NoError(t, client.Start(context.Background()))
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		jobs.RunPeriodic(ctx, d, client, testkit.Logger(), []jobs.Periodic{mail.PurgePeriodic()})
		close(done)
	}()
	t.Cleanup(func() {
		stop()
		<-done
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		require.NoError(t, client.Stop(ctx))
	})
	require.Eventually(t, func() bool {
		m, err := mail.Get(context.Background(), d, old)
		return err == nil && m.Text == ""
	}, 20*time.Second, 100*time.Millisecond)
}
