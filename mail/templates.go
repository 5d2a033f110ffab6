package mail

import (
	"commerce/pricing"
	"embed"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"strings"
	texttemplate "text/template"
	"time"

	"commerce/currency"
)

//go:embed templates
var templateFiles embed.FS

// A template is a .txt file (text body, with the subject in a "subject"
// block) and a .html file (a "content" block inside layout.html, which may
// use the blocks of templates/partials). HTML
// bodies go through html/template, so every value given by a user is
// escaped there.
type mailTemplate struct {
	text *texttemplate.Template
	html *htmltemplate.Template
}

var templates = func() map[string]mailTemplate {
	ts := map[string]mailTemplate{}
	for _, name := range []string{TemplatePasscode, TemplateDownloadLink, TemplateSellerOrderAlert,
		TemplateWebhookWarning, TemplateWebhookDisabled, TemplateWebhookRecovered, TemplateLibrarySignIn,
		TemplateMembershipReceipt, TemplateMembershipPaymentFailed, TemplateMembershipCanceled, TemplateMembershipEnded} {
		ts[name] = mailTemplate{
			text: texttemplate.Must(texttemplate.ParseFS(templateFiles, "templates/"+name+".txt")),
			html: htmltemplate.Must(htmltemplate.ParseFS(templateFiles, "templates/layout.html", "templates/partials/*.html", "templates/"+name+".html")),
		}
	}
	return ts
}()

// render builds the message of a template for one recipient.
func render(name, to string, data any) (Message, error) {
	t := templates[name]
	var subject, text, html strings.Builder
	if err := t.text.ExecuteTemplate(&subject, "subject", data); err != nil {
		return Message{}, fmt.Errorf("mail: render %s subject: %w", name, err)
	}
	if err := t.text.Execute(&text, data); err != nil {
		return Message{}, fmt.Errorf("mail: render %s text: %w", name, err)
	}
	if err := t.html.ExecuteTemplate(&html, "layout.html", data); err != nil {
		return Message{}, fmt.Errorf("mail: render %s html: %w", name, err)
	}
	return Message{
		Template: name,
		To:       to,
		// A subject is one line whatever the data holds.
		Subject: strings.Join(strings.Fields(subject.String()), " "),
		Text:    strings.TrimSpace(text.String()) + "\n",
		HTML:    html.String(),
	}, nil
}

// passcodeData is what the passcode templates see.
type passcodeData struct {
	Code     string
	ValidFor string
}

// Passcode is the bootstrap email with a one-time passcode valid for validFor.
func Passcode(to, code string, validFor time.Duration) (Message, error) {
	if code == "" {
		return Message{}, errors.New("mail: empty passcode")
	}
	return render(TemplatePasscode, to, passcodeData{Code: code, ValidFor: humanDuration(validFor)})
}

// DownloadData fills the buyer's download-link email.
type DownloadData struct {
	ListingTitle string
	StoreName    string
	DownloadURL  string // the buyer's download page, {base_url}/d/{grant_token}
	// Receipt is what was paid, with the discount when a code was applied.
	Receipt pricing.Receipt
	// LicenseKeys are the order's license keys (CONTRACT §20; none for a
	// listing without a license).
	LicenseKeys []LicenseKey
	// LibraryURL is the buyer's library, {base_url}/library (CONTRACT §21).
	LibraryURL string
}

// LicenseKey is a license key as the download email shows it.
type LicenseKey struct {
	Key string
	// ExpiresAt is when the key stops working (nil: never).
	ExpiresAt *time.Time
}

// Expires is the key's expiry as buyers read it ("" when it never
// expires): "March 4, 2027 09:30 UTC".
func (k LicenseKey) Expires() string {
	if k.ExpiresAt == nil {
		return ""
	}
	return k.ExpiresAt.UTC().Format("January 2, 2006 15:04") + " UTC"
}

// DownloadLink is the email that gives a buyer the link to what they bought.
func DownloadLink(to string, d DownloadData) (Message, error) {
	if d.DownloadURL == "" {
		return Message{}, errors.New("mail: download link without a URL")
	}
	return render(TemplateDownloadLink, to, d)
}

// LibrarySignInData fills the buyer's library sign-in email (CONTRACT §21).
type LibrarySignInData struct {
	// SignInURL is the single-use link, {base_url}/library/auth/{token}.
	SignInURL string
	// LibraryURL is where a new link is asked for, {base_url}/library.
	LibraryURL string
	// StoreName names the store when the buyer asked from its library
	// page; "" when the link spans stores ("your purchases").
	StoreName string
	// ValidFor is how long the link works.
	ValidFor time.Duration
}

// LibrarySignIn is the email with a single-use link that signs a buyer in
// to their library.
func LibrarySignIn(to string, d LibrarySignInData) (Message, error) {
	if d.SignInURL == "" {
		return Message{}, errors.New("mail: library sign-in without a URL")
	}
	return render(TemplateLibrarySignIn, to, struct {
		LibrarySignInData
		ValidFor string
	}{d, humanDuration(d.ValidFor)})
}

// OrderAlertData fills the seller's new-order email.
type OrderAlertData struct {
	OrderID      string
	ListingTitle string
	Amount       int64  // in the currency's minor unit
	Currency     string // ISO 4217, any case
	BuyerEmail   string
	OrderURL     string // where the seller sees the order
}

// AmountText is the amount with its currency, such as "$12.50".
func (d OrderAlertData) AmountText() string { return currency.Format(d.Amount, d.Currency) }

// SellerOrderAlert tells a seller about a new order their own system fulfills.
func SellerOrderAlert(to string, d OrderAlertData) (Message, error) {
	return render(TemplateSellerOrderAlert, to, d)
}

// humanDuration writes whole minutes as "10 minutes", anything else as Go does.
func humanDuration(d time.Duration) string {
	switch {
	case d == time.Minute:
		return "1 minute"
	case d > 0 && d%time.Minute == 0:
		return fmt.Sprintf("%d minutes", d/time.Minute)
	default:
		return d.String()
	}
}
