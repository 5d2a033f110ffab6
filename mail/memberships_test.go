package mail_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/mail"
)

// The four membership emails (CONTRACT §26): each names the listing and
// the store, writes money as people write it with its currency, says what
// happened and what the buyer can do, links the library, and escapes what
// the seller wrote in its HTML part.
func TestMembershipEmails(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 12, 26, 9, 30, 0, 0, time.UTC)
	end := time.Date(2027, 1, 26, 9, 30, 0, 0, time.UTC)
	retry := time.Date(2027, 1, 27, 9, 30, 0, 0, time.UTC)
	d := mail.MembershipData{ListingTitle: `Field notes <b>club</b>`, StoreName: "Ada's", Interval: "month",
		Amount: 900, NextAmount: 900, Currency: "usd", PeriodStart: start, PeriodEnd: end,
		LibraryURL: "https://shop.example/library", ProductURL: "https://shop.example/p/notes"}

	r, err := mail.MembershipReceipt("buyer@example.com", d)
	require.NoError(t, err)
	require.Equal(t, mail.TemplateMembershipReceipt, r.Template)
	require.Equal(t, `Receipt: Field notes <b>club</b>, $9.00 for December 26, 2026 – January 26, 2027`, r.Subject)
	for _, want := range []string{"Paid: $9.00", "December 26, 2026 – January 26, 2027",
		"Next renewal: January 26, 2027, $9.00 a month", "https://shop.example/library", "from Ada's"} {
		require.Contains(t, r.Text, want)
	}
	require.Contains(t, r.HTML, "Field notes &lt;b&gt;club&lt;/b&gt;")
	require.NotContains(t, r.HTML, "<b>club")

	d.NextAttemptAt, d.DeclineMessage = &retry, "Your card was declined."
	f, err := mail.MembershipPaymentFailed("buyer@example.com", d)
	require.NoError(t, err)
	require.Equal(t, mail.TemplateMembershipPaymentFailed, f.Template)
	require.Contains(t, f.Subject, "could not renew")
	for _, want := range []string{"$9.00", "Your card was declined.", "January 27, 2027", "update your payment method",
		"https://shop.example/library"} {
		require.Contains(t, f.Text, want)
		require.Contains(t, f.HTML, want)
	}

	c, err := mail.MembershipCanceled("buyer@example.com", d)
	require.NoError(t, err)
	require.Equal(t, mail.TemplateMembershipCanceled, c.Template)
	for _, want := range []string{"canceled", "until January 26, 2027", "not be charged again", "Resume", "https://shop.example/library"} {
		require.Contains(t, c.Text, want)
	}

	for reason, words := range map[string]string{"canceled": "it was canceled", "payment_failed": "could not be charged",
		"refunded": "refunded", "dispute_lost": "disputed"} {
		d.EndedReason, d.EndedAt = reason, end
		e, err := mail.MembershipEnded("buyer@example.com", d)
		require.NoError(t, err)
		require.Equal(t, mail.TemplateMembershipEnded, e.Template)
		require.Contains(t, e.Subject, "has ended")
		for _, want := range []string{"January 26, 2027", words, "https://shop.example/p/notes", "https://shop.example/library"} {
			require.Contains(t, e.Text, want, reason)
			require.Contains(t, e.HTML, want, reason)
		}
	}

	_, err = mail.MembershipReceipt("buyer@example.com", mail.MembershipData{})
	require.Error(t, err, "a membership email names its listing and links the library")
}
