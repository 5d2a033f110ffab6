package mail_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/mail"
)

func TestPasscodeTemplate(t *testing.T) {
	t.Parallel()
	m, err := mail.Passcode("dev@example.com", "314159", 10*time.Minute)
	require.NoError(t, err)
	require.Equal(t, mail.TemplatePasscode, m.Template)
	require.Equal(t, "dev@example.com", m.To)
	require.Equal(t, "Your passcode: 314159", m.Subject)
	require.Contains(t, m.Text, "    314159\n")
	require.Contains(t, m.Text, "valid for 10 minutes")
	require.Contains(t, m.HTML, ">314159</p>")
	require.Contains(t, m.HTML, "valid for 10 minutes")

	_, err = mail.Passcode("dev@example.com", "", time.Minute)
	require.Error(t, err)
}

// User-given strings are escaped in the HTML body (and only there), and a
// subject stays on one line.
func TestTemplatesEscapeHTML(t *testing.T) {
	t.Parallel()
	evil := `<script>alert("x")</script> & <b>co</b>`
	m, err := mail.DownloadLink("buyer@example.com", mail.DownloadData{
		ListingTitle: evil + "\r\nBcc: victim@example.com",
		StoreName:    `<img src=x onerror=alert(1)>`,
		DownloadURL:  `javascript:alert(1)`,
	})
	require.NoError(t, err)
	require.NotContains(t, m.HTML, "<script>")
	require.NotContains(t, m.HTML, "<b>co")
	require.NotContains(t, m.HTML, "<img")
	require.NotContains(t, m.HTML, `href="javascript:`)
	require.Contains(t, m.HTML, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &lt;b&gt;co&lt;/b&gt;")
	require.Contains(t, m.HTML, "&lt;img src=x onerror=alert(1)&gt;")
	require.Contains(t, m.Text, evil) // plain text is not HTML
	require.NotContains(t, m.Subject, "\n")
	require.NotContains(t, m.Subject, "\r")
	require.True(t, strings.HasPrefix(m.Subject, "Your download: <script>"), m.Subject)

	a, err := mail.SellerOrderAlert("seller@example.com", mail.OrderAlertData{
		OrderID: "ord_123", ListingTitle: evil, Amount: 123456, Currency: "usd",
		BuyerEmail: `"<i>x</i>"@example.com`, OrderURL: "https://console.example.com/orders/ord_123",
	})
	require.NoError(t, err)
	require.Equal(t, mail.TemplateSellerOrderAlert, a.Template)
	require.Contains(t, a.Subject, "($1,234.56)")
	require.NotContains(t, a.HTML, "<script>")
	require.NotContains(t, a.HTML, "<i>x")
	require.Contains(t, a.HTML, "&#34;&lt;i&gt;x&lt;/i&gt;&#34;@example.com")
	require.Contains(t, a.HTML, `href="https://console.example.com/orders/ord_123"`)
	require.Contains(t, a.HTML, "ord_123")
	require.Contains(t, a.Text, "Amount:  $1,234.56")
	require.Contains(t, a.Text, `Buyer:   "<i>x</i>"@example.com`)
}

// The library sign-in email (CONTRACT §21) in both parts: the single-use
// link, how long it works, where to ask again; "your purchases" across
// stores, the store's name when asked from its page; user strings escaped
// in the HTML.
func TestLibrarySignInTemplate(t *testing.T) {
	t.Parallel()
	d := mail.LibrarySignInData{SignInURL: "https://shop.example/library/auth/tok_abc", LibraryURL: "https://shop.example/library",
		ValidFor: 15 * time.Minute}
	m, err := mail.LibrarySignIn("ada@example.com", d)
	require.NoError(t, err)
	require.Equal(t, mail.TemplateLibrarySignIn, m.Template)
	require.Equal(t, "ada@example.com", m.To)
	require.Equal(t, "Sign in to your purchases", m.Subject)
	for _, part := range []string{m.Text, m.HTML} {
		require.Contains(t, part, "https://shop.example/library/auth/tok_abc")
		require.Contains(t, part, "works once, for 15 minutes")
		require.Contains(t, part, "https://shop.example/library")
		require.Contains(t, part, "your purchases")
	}
	require.Contains(t, m.HTML, `<a href="https://shop.example/library/auth/tok_abc" style="display:inline-block;`)
	require.NotContains(t, m.Text, "<")

	d.StoreName = `Moss & <b>Fern</b>`
	s, err := mail.LibrarySignIn("ada@example.com", d)
	require.NoError(t, err)
	require.Equal(t, "Sign in to your purchases from Moss & <b>Fern</b>", s.Subject)
	require.Contains(t, s.Text, "your purchases from Moss & <b>Fern</b>:")
	require.Contains(t, s.HTML, "your purchases from <strong>Moss &amp; &lt;b&gt;Fern&lt;/b&gt;</strong>")

	_, err = mail.LibrarySignIn("ada@example.com", mail.LibrarySignInData{})
	require.Error(t, err)
}

// Every download email links the buyer's library, in both parts.
func TestDownloadLinkLinksLibrary(t *testing.T) {
	t.Parallel()
	m, err := mail.DownloadLink("ada@example.com", mail.DownloadData{ListingTitle: "Moss guide", StoreName: "Moss",
		DownloadURL: "https://shop.example/d/tok", LibraryURL: "https://shop.example/library"})
	require.NoError(t, err)
	require.Contains(t, m.Text, "All your purchases, from every store, in one place: https://shop.example/library\n")
	require.Contains(t, m.HTML, `<a href="https://shop.example/library" style="color:#1f6feb;">your library</a>`)
}
