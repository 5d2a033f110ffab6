package pages_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/config"
	"commerce/membership"
	"commerce/processor"
	"commerce/testkit"
)

// The buyer's memberships in the library (CONTRACT §26 and §21), with
// real memberships: bought through the product page and the sandbox
// checkout, renewed and failed through the sandbox's advance.

// joinMembership buys membership listing slug as email and returns its
// first order and the membership.
func joinMembership(t *testing.T, env *testkit.Env, slug, email string) (string, string) {
	t.Helper()
	orderID := buy(t, env, slug, url.Values{"email": {email}})
	var id string
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(),
		`SELECT id FROM memberships WHERE first_order_id = $1`, orderID).Scan(&id))
	return orderID, id
}

// advance runs membership id's next renewal (or retry) with outcome, as
// the sandbox's advance does, and returns its status.
func advance(t *testing.T, env *testkit.Env, id, outcome string) string {
	t.Helper()
	resp, body := sendFrom(t, env, "POST", "/sandbox/memberships/"+id+"/advance", "", "", url.Values{"outcome": {outcome}})
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", body)
	return membershipRow(t, env, id).Status
}

// renewNow makes membership id's next step due now and runs the renewal
// sweep, as time passing would: its charge is what the stored payment
// method does (the advance names the outcome instead).
func renewNow(t *testing.T, env *testkit.Env, id string) {
	t.Helper()
	ctx := context.Background()
	_, err := env.Server.DB.Pool.Exec(ctx, `UPDATE memberships SET next_action_at = now() - interval '1 second' WHERE id = $1`, id)
	require.NoError(t, err)
	_, err = env.Server.Resolver.RenewDueMemberships(ctx)
	require.NoError(t, err)
}

// membershipState is what the tests read of a membership row.
type membershipState struct {
	Status        string
	PeriodEnd     time.Time
	NextActionAt  *time.Time
	PaymentMethod *string
}

func membershipRow(t *testing.T, env *testkit.Env, id string) membershipState {
	t.Helper()
	var m membershipState
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(),
		`SELECT status, current_period_end, next_action_at, payment_method FROM memberships WHERE id = $1`, id).
		Scan(&m.Status, &m.PeriodEnd, &m.NextActionAt, &m.PaymentMethod))
	return m
}

// entry is the library's entry of membership id: the text of its list
// item.
func entry(t *testing.T, html, id string) string {
	t.Helper()
	i := strings.Index(html, `<li class="purchase" id="`+id+`">`)
	require.GreaterOrEqual(t, i, 0, "no entry for %s in %s", id, html)
	j := strings.Index(html[i:], "</li>\n")
	for strings.Count(html[i:i+j], "<li") > strings.Count(html[i:i+j+6], "</li>") {
		k := strings.Index(html[i+j+6:], "</li>\n")
		require.GreaterOrEqual(t, k, 0)
		j += 6 + k
	}
	return html[i : i+j+5]
}

// The whole life of a monthly membership in its buyer's library: active
// with its next renewal, renewed (one entry, two payments), canceled
// after a confirmation step (it ends at the period's end and can be
// resumed), resumed, a declining card saved on the sandbox's page, the
// failed renewal (past due: when it failed, that the card must be
// updated, the next try), a paying card saved (the next attempt uses it),
// paid again, and canceled while past due (it ends at once).
func TestLibraryMembershipLife(t *testing.T) {
	t.Parallel()
	env := pagesEnv(t)
	s := newSeller(t, env, "Lantern Club")
	l := membershipListing(t, env, s.Key, 900, "month", 0, map[string]any{"title": "Lantern letters"})
	email := uniqueEmail("ivy")
	first, id := joinMembership(t, env, l["slug"].(string), email)
	cookie := signIn(t, env, email)

	// Active: since today, renews at the period's end for $9.00.
	m := membershipRow(t, env, id)
	require.Equal(t, "active", m.Status)
	lib := page(t, env, "/library", cookie)
	dump(t, "library-active", lib)
	requireAccessible(t, lib)
	e := text(entry(t, lib, id))
	require.Contains(t, e, "Lantern letters Membership · $9 a month · since "+membership.Date(time.Now()))
	require.Contains(t, e, "Active Renews on "+membership.Date(m.PeriodEnd)+" for $9.00.")
	require.Contains(t, e, "Open the download page")
	require.Contains(t, e, "Update payment method")
	require.Contains(t, e, "Cancel membership")
	require.NotContains(t, e, "Resume")
	require.Contains(t, e, "Payments (1) "+membership.Date(time.Now())+" · $9.00")

	// Renewed: the renewal is a payment of the membership, not a purchase.
	require.Equal(t, "active", advance(t, env, id, "paid"))
	m = membershipRow(t, env, id)
	lib = page(t, env, "/library", cookie)
	require.Equal(t, 1, strings.Count(lib, `<li class="purchase"`), "one entry for the membership and its renewal")
	e = text(entry(t, lib, id))
	require.Contains(t, e, "Renews on "+membership.Date(m.PeriodEnd)+" for $9.00.")
	require.Contains(t, e, "Payments (2)")
	require.Contains(t, e, "Open the download page", "the first order carries the download page")

	// Cancel: the confirmation step says what it does, then the post.
	cancelPage := page(t, env, "/library/memberships/"+id+"/cancel", cookie)
	dump(t, "membership-cancel", cancelPage)
	requireAccessible(t, cancelPage)
	require.Contains(t, text(cancelPage), "Your membership ends on "+membership.Date(m.PeriodEnd)+
		", and nothing more is charged. You keep access until then, and you can resume it before that date.")
	require.Contains(t, cancelPage, `<form method="post" action="/library/memberships/`+id+`/cancel">`)
	resp, body := send(t, env, "POST", "/library/memberships/"+id+"/cancel", cookie, url.Values{})
	require.Equal(t, http.StatusSeeOther, resp.StatusCode, "%s", body)
	require.Equal(t, "/library?done=canceled&membership="+id+"#"+id, resp.Header.Get("Location"))
	require.Equal(t, "canceled", membershipRow(t, env, id).Status)
	lib = page(t, env, resp.Header.Get("Location"), cookie)
	dump(t, "library-canceled", lib)
	e = text(entry(t, lib, id))
	require.Contains(t, e, "Your membership is canceled. It ends on "+membership.Date(m.PeriodEnd)+", and nothing more is charged.")
	require.Contains(t, e, "Canceled Ends on "+membership.Date(m.PeriodEnd)+". You keep access until then")
	require.Contains(t, e, "Resume membership")
	require.Contains(t, e, "Open the download page", "access lasts until the period's end")
	require.NotContains(t, e, "Cancel membership")
	// A canceled membership has no cancel step.
	resp, _ = send(t, env, "GET", "/library/memberships/"+id+"/cancel", cookie, nil)
	require.Equal(t, http.StatusConflict, resp.StatusCode)

	// Resume.
	resp, body = send(t, env, "POST", "/library/memberships/"+id+"/resume", cookie, url.Values{})
	require.Equal(t, http.StatusSeeOther, resp.StatusCode, "%s", body)
	require.Equal(t, "active", membershipRow(t, env, id).Status)
	e = text(entry(t, page(t, env, resp.Header.Get("Location"), cookie), id))
	require.Contains(t, e, "Your membership is resumed. Renews on "+membership.Date(m.PeriodEnd)+" for $9.00.")

	// Update payment method: the library's button leads to the sandbox's
	// page, which saves a card that is declined.
	resp, body = send(t, env, "POST", "/library/memberships/"+id+"/payment-method", cookie, url.Values{})
	require.Equal(t, http.StatusSeeOther, resp.StatusCode, "%s", body)
	pmURL := resp.Header.Get("Location")
	require.Equal(t, env.URL+"/sandbox/memberships/"+id+"/payment-method", pmURL)
	pm := page(t, env, pmURL, cookie)
	dump(t, "sandbox-payment-method", pm)
	requireAccessible(t, pm)
	require.Contains(t, text(pm), "Lantern letters from Lantern Club · $9 a month · Active")
	require.Contains(t, text(pm), "Card on file: A sandbox card that pays")
	resp, body = send(t, env, "POST", pmURL, cookie, url.Values{"card": {"declines"}})
	require.Equal(t, http.StatusSeeOther, resp.StatusCode, "%s", body)
	require.Equal(t, "/library?done=payment_method&membership="+id+"#"+id, resp.Header.Get("Location"))
	require.True(t, strings.HasPrefix(*membershipRow(t, env, id).PaymentMethod, "sbx_pm_decline_"))
	e = text(entry(t, page(t, env, resp.Header.Get("Location"), cookie), id))
	require.Contains(t, e, "Your new payment method is saved: the next renewal charges it.")

	// The renewal, when it comes, charges the declining card: past due.
	renewNow(t, env, id)
	m = membershipRow(t, env, id)
	require.Equal(t, "past_due", m.Status)
	require.NotNil(t, m.NextActionAt)
	lib = page(t, env, "/library", cookie)
	dump(t, "library-past-due", lib)
	e = text(entry(t, lib, id))
	require.Contains(t, e, "Payment failed Your last payment failed on "+membership.Date(time.Now())+"; update your payment method.")
	require.Contains(t, e, "We will try again on "+membership.Date(*m.NextActionAt)+" with the payment method on file.")
	require.Contains(t, e, "Open the download page", "past due keeps access")

	// A paying card: the next attempt charges it.
	pm = page(t, env, pmURL, cookie)
	require.Contains(t, text(pm), "The card you save now is charged at the next attempt.")
	require.Contains(t, text(pm), "Card on file: A sandbox card that is declined")
	resp, body = send(t, env, "POST", pmURL, cookie, url.Values{"card": {"pays"}})
	require.Equal(t, http.StatusSeeOther, resp.StatusCode, "%s", body)
	e = text(entry(t, page(t, env, resp.Header.Get("Location"), cookie), id))
	require.Contains(t, e, "Your new payment method is saved: the next attempt, on "+membership.Date(*m.NextActionAt)+", charges it.")
	renewNow(t, env, id)
	require.Equal(t, "active", membershipRow(t, env, id).Status)

	// Past due again, then canceled: it ends at once, as the step says.
	require.Equal(t, "past_due", advance(t, env, id, "failed"))
	require.Contains(t, text(page(t, env, "/library/memberships/"+id+"/cancel", cookie)),
		"Your membership ends now, and the failed payment is not tried again. You lose access at once.")
	resp, body = send(t, env, "POST", "/library/memberships/"+id+"/cancel", cookie, url.Values{})
	require.Equal(t, http.StatusSeeOther, resp.StatusCode, "%s", body)
	require.Equal(t, "ended", membershipRow(t, env, id).Status)
	lib = page(t, env, resp.Header.Get("Location"), cookie)
	dump(t, "library-ended", lib)
	e = text(entry(t, lib, id))
	require.Contains(t, e, "Your membership has ended, and nothing more is charged.")
	require.Contains(t, e, "Ended Ended on "+membership.Date(time.Now())+": it was canceled. You no longer have access.")
	require.NotContains(t, e, "Open the download page")
	require.NotContains(t, e, "Update payment method")
	require.NotContains(t, e, "Resume")
	require.NotContains(t, e, "Cancel membership")
	// Ended: no more actions.
	resp, _ = send(t, env, "POST", "/library/memberships/"+id+"/resume", cookie, url.Values{})
	require.Equal(t, http.StatusConflict, resp.StatusCode)
	resp, _ = send(t, env, "POST", "/library/memberships/"+id+"/payment-method", cookie, url.Values{})
	require.Equal(t, http.StatusConflict, resp.StatusCode)
	_ = first
}

// A membership with a free trial: the library says when the trial ends
// and what the first renewal charges (a code's first-period price, then
// the price); after the last failed retry it has ended, without access.
func TestLibraryMembershipTrialAndTheEnd(t *testing.T) {
	t.Parallel()
	env := pagesEnv(t)
	s := newSeller(t, env, "Trial Club")
	l := membershipListing(t, env, s.Key, 1200, "month", 7, nil)
	r := env.Post("/v1/discounts", s.Key, map[string]any{"code": "HALF", "type": "percentage", "percent_off": 50})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	email := uniqueEmail("jun")
	orderID := buy(t, env, l["slug"].(string), url.Values{"email": {email}, "discount_code": {"HALF"}})
	var id string
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(), `SELECT id FROM memberships WHERE first_order_id = $1`, orderID).Scan(&id))
	cookie := signIn(t, env, email)

	m := membershipRow(t, env, id)
	require.Equal(t, "trialing", m.Status)
	lib := page(t, env, "/library", cookie)
	dump(t, "library-trial", lib)
	e := text(entry(t, lib, id))
	require.Contains(t, e, "Free trial Your free trial ends on "+membership.Date(m.PeriodEnd)+".")
	require.Contains(t, e, "Renews on "+membership.Date(m.PeriodEnd)+" for $6.00, then $12.00 a month.")
	require.Contains(t, e, "Payments (1) "+membership.Date(time.Now())+" · Free trial")
	require.Contains(t, text(page(t, env, "/library/memberships/"+id+"/cancel", cookie)),
		"Your free trial ends on "+membership.Date(m.PeriodEnd)+", and you will not be charged.")

	// Every attempt fails: ended, access closed.
	for range 5 {
		if advance(t, env, id, "failed") == "ended" {
			break
		}
	}
	require.Equal(t, "ended", membershipRow(t, env, id).Status)
	lib = page(t, env, "/library", cookie)
	e = text(entry(t, lib, id))
	require.Contains(t, e, "Ended on "+membership.Date(time.Now())+": its payments failed. You no longer have access.")
	require.NotContains(t, e, "Open the download page")
}

// Only the membership's buyer acts on it: another email's session, and a
// portal link's session of another store, get 404 on every action and
// page, as for a membership that does not exist; signed out, the actions
// go to the library's sign-in; a post from another site is refused
// (403); nothing changes.
func TestLibraryMembershipOwnership(t *testing.T) {
	t.Parallel()
	env := pagesEnv(t)
	s := newSeller(t, env, "Owner Club")
	other := newSeller(t, env, "Other Shop")
	l := membershipListing(t, env, s.Key, 900, "month", 0, nil)
	email := uniqueEmail("kim")
	_, id := joinMembership(t, env, l["slug"].(string), email)
	own := signIn(t, env, email)

	// Another buyer.
	stranger := uniqueEmail("lee")
	joinMembership(t, env, l["slug"].(string), stranger)
	theirs := signIn(t, env, stranger)
	// The same email's portal session of another store.
	o := publish(t, env, other.Key, map[string]any{"title": "Other thing", "price": 500,
		"deliverables": []map[string]any{{"type": "text", "value": "x"}}})
	buy(t, env, o["slug"].(string), url.Values{"email": {email}})
	var customerID string
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(), `SELECT id FROM customers WHERE account_id = $1 AND lower(email) = lower($2)`,
		other.ID, email).Scan(&customerID))
	link := env.Post("/v1/customers/"+customerID+"/portal-link", other.Key, nil)
	require.Equal(t, 200, link.Status, "%s", link.Body)
	portal := openSignIn(t, env, strings.TrimPrefix(link.JSON(t)["url"].(string), env.URL))

	before := membershipRow(t, env, id)
	for _, cookie := range []string{theirs, portal} {
		for _, target := range []string{id, "mem_01m8zzzzzzzzzzzzzzzzzzzzzz"} {
			resp, _ := send(t, env, "GET", "/library/memberships/"+target+"/cancel", cookie, nil)
			require.Equal(t, http.StatusNotFound, resp.StatusCode)
			resp, _ = send(t, env, "GET", "/sandbox/memberships/"+target+"/payment-method", cookie, nil)
			require.Equal(t, http.StatusNotFound, resp.StatusCode)
			for _, action := range []string{"/library/memberships/" + target + "/cancel", "/library/memberships/" + target + "/resume",
				"/library/memberships/" + target + "/payment-method"} {
				resp, body := send(t, env, "POST", action, cookie, url.Values{})
				require.Equal(t, http.StatusNotFound, resp.StatusCode, "%s %s", action, body)
			}
			resp, _ = send(t, env, "POST", "/sandbox/memberships/"+target+"/payment-method", cookie, url.Values{"card": {"declines"}})
			require.Equal(t, http.StatusNotFound, resp.StatusCode)
		}
	}
	// The portal session's library does not show it either.
	require.NotContains(t, page(t, env, "/library", portal), id)

	// Signed out: the actions send the buyer to sign in; the sandbox page
	// is the sign-in form.
	resp, _ := send(t, env, "POST", "/library/memberships/"+id+"/cancel", "", url.Values{})
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	require.Equal(t, "/library", resp.Header.Get("Location"))
	resp, body := send(t, env, "GET", "/sandbox/memberships/"+id+"/payment-method", "", nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Contains(t, body, "Sign in to update the payment method of your membership")
	require.Contains(t, body, `action="/library/sign-in"`)

	// Another site's post: 403, with the buyer's own cookie.
	for _, action := range []string{"/library/memberships/" + id + "/cancel", "/library/memberships/" + id + "/resume",
		"/library/memberships/" + id + "/payment-method", "/sandbox/memberships/" + id + "/payment-method"} {
		resp, _ := sendFrom(t, env, "POST", action, own, "https://evil.example", url.Values{"card": {"declines"}})
		require.Equal(t, http.StatusForbidden, resp.StatusCode, action)
	}
	require.Equal(t, before, membershipRow(t, env, id), "nothing changed")

	// The sandbox page refuses a post without a choice of card (422).
	resp, body = send(t, env, "POST", "/sandbox/memberships/"+id+"/payment-method", own, url.Values{"card": {"gold"}})
	require.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode)
	require.Contains(t, body, `<p id="card-error" class="error" role="alert">Choose the card to save`)
	requireAccessible(t, body)
}

// The sandbox checkout of a membership says what is charged now and
// every period after, and that the card is kept for the renewals.
func TestSandboxCheckoutOfAMembership(t *testing.T) {
	t.Parallel()
	env := pagesEnv(t)
	s := newSeller(t, env, "Checkout Club")
	trial := membershipListing(t, env, s.Key, 900, "month", 7, nil)
	plain := membershipListing(t, env, s.Key, 900, "month", 0, nil)
	yearly := membershipListing(t, env, s.Key, 9000, "year", 0, nil)
	r := env.Post("/v1/discounts", s.Key, map[string]any{"code": "QUARTER", "type": "percentage", "percent_off": 25})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)

	checkout, _ := startCheckout(t, env, trial["slug"].(string), url.Values{"email": {uniqueEmail("mo")}})
	p := page(t, env, checkout, "")
	dump(t, "sandbox-checkout-trial", p)
	requireAccessible(t, p)
	words := text(p)
	require.Contains(t, words, "7-day free trial, then $9 a month")
	require.Contains(t, words, "Charged today: Nothing")
	require.Contains(t, words, "Nothing today. Your card is charged $9.00 on "+membership.Date(time.Now().AddDate(0, 0, 7))+
		", at the end of the free trial, then $9.00 every month.")
	require.Contains(t, words, "The card is saved for the renewals")
	require.Contains(t, words, "Save the card (nothing is charged today)")
	// Paid (the card saved): the thank-you page says what comes next.
	resp, body := send(t, env, "POST", checkout, "", url.Values{"outcome": {"paid"}})
	require.Equal(t, http.StatusSeeOther, resp.StatusCode, "%s", body)
	thanks := page(t, env, resp.Header.Get("Location"), "")
	dump(t, "thank-you-trial", thanks)
	trialEnd := membership.Date(time.Now().AddDate(0, 0, 7))
	require.Contains(t, text(thanks), "Your membership: Free trial. Your free trial ends on "+trialEnd+". Renews on "+trialEnd+" for $9.00.")
	require.Contains(t, thanks, `<a href="/library">your library</a>`)

	checkout, _ = startCheckout(t, env, plain["slug"].(string), url.Values{"email": {uniqueEmail("mo")}, "discount_code": {"QUARTER"}})
	words = text(page(t, env, checkout, ""))
	require.Contains(t, words, "$6.75 for the first month, then $9 a month")
	require.Contains(t, words, "Charged today: $6.75")
	require.Contains(t, words, "$6.75 today, then $9.00 every month from "+membership.Date(membership.PeriodEndAt(time.Now(), "month", 1))+".")
	require.Contains(t, words, "Pay and save the card")

	checkout, _ = startCheckout(t, env, yearly["slug"].(string), url.Values{"email": {uniqueEmail("mo")}})
	words = text(page(t, env, checkout, ""))
	require.Contains(t, words, "Charged today: $90.00")
	require.Contains(t, words, "$90.00 today, then $90.00 every year from "+membership.Date(time.Now().AddDate(1, 0, 0))+".")
}

// The sandbox's payment-method page exists only in the sandbox: under
// Stripe (whose customer portal takes its place) it is 404, signed in or
// not, GET or POST.
func TestSandboxPaymentMethodPageIsSandboxOnly(t *testing.T) {
	t.Parallel()
	mock := testkit.StripeMock(t)
	env := pagesEnv(t, func(c *config.Config) {
		c.Processor = "stripe"
		c.StripeSecretKey = testkit.StripeMockKey
		c.StripeWebhookSecret = "whsec_pages"
		c.StripeAPIBase = mock
	})
	resp, _ := send(t, env, "GET", "/sandbox/memberships/mem_01m8zzzzzzzzzzzzzzzzzzzzzz/payment-method", "", nil)
	require.Equal(t, http.StatusNotFound, resp.StatusCode)
	resp, _ = send(t, env, "POST", "/sandbox/memberships/mem_01m8zzzzzzzzzzzzzzzzzzzzzz/payment-method", "", url.Values{"card": {"pays"}})
	require.Equal(t, http.StatusNotFound, resp.StatusCode)
}

// Under Stripe, which renews and retries a membership itself: the
// library's Update payment method leads to the customer portal Stripe
// makes for the buyer's customer on the seller's account, and a failed
// invoice shows when Stripe tries again (its event's next attempt).
func TestLibraryMembershipUnderStripe(t *testing.T) {
	t.Parallel()
	mock := testkit.StripeMock(t)
	env := pagesEnv(t, func(c *config.Config) {
		c.Processor = "stripe"
		c.StripeSecretKey = testkit.StripeMockKey
		c.StripeWebhookSecret = "whsec_pages"
		c.StripeAPIBase = mock
	})
	ctx, r := context.Background(), env.Server.Resolver
	apply := func(ev processor.Event) {
		t.Helper()
		ev.ID = "evt_pages_" + testkit.Unique()
		require.NoError(t, r.ApplyProcessorEvent(ctx, ev))
	}
	acc := env.NewAccount()
	require.Equal(t, 200, env.Post("/v1/account/processor/connect", acc.Key, nil).Status)
	acct := env.Get("/v1/account", acc.Key).JSON(t)["processor"].(map[string]any)["account_id"].(string)
	apply(processor.Event{Type: processor.AccountUpdated, RawType: "account.updated", Account: &processor.AccountStatus{
		AccountID: acct, ChargesEnabled: true, PayoutsEnabled: true, DetailsSubmitted: true, Currency: "usd"}})
	l := membershipListing(t, env, acc.Key, 900, "month", 0, map[string]any{"title": "Stripe letters"})

	email := uniqueEmail("pat")
	resp, body := send(t, env, "POST", "/p/"+l["slug"].(string)+"/checkout", "", url.Values{"email": {email}})
	require.Equal(t, http.StatusSeeOther, resp.StatusCode, "%s", body)
	var orderID string
	require.NoError(t, env.Server.DB.Pool.QueryRow(ctx, `SELECT id FROM orders WHERE buyer_email = $1`, email).Scan(&orderID))
	sub := "sub_" + testkit.Unique()
	apply(processor.Event{Type: processor.PaymentSucceeded, RawType: "checkout.session.completed", Payment: &processor.Payment{
		OrderID: orderID, PaymentIntentID: "pi_" + testkit.Unique(), Amount: 900, Currency: "usd", SubscriptionID: sub, CustomerID: "cus_pages"}})
	var id string
	require.NoError(t, env.Server.DB.Pool.QueryRow(ctx, `SELECT id FROM memberships WHERE first_order_id = $1`, orderID).Scan(&id))
	cookie := signIn(t, env, email)

	resp, body = send(t, env, "POST", "/library/memberships/"+id+"/payment-method", cookie, url.Values{})
	require.Equal(t, http.StatusSeeOther, resp.StatusCode, "%s", body)
	require.True(t, strings.HasPrefix(resp.Header.Get("Location"), "https://"), "Stripe's portal: %s", resp.Header.Get("Location"))

	next := time.Now().Add(72 * time.Hour).UTC().Truncate(time.Second)
	apply(processor.Event{Type: processor.MembershipRenewalFailed, RawType: "invoice.payment_failed", Membership: &processor.MembershipEvent{
		SubscriptionID: sub, InvoiceID: "in_" + testkit.Unique(), Amount: 900, Currency: "usd", AttemptCount: 1, NextAttemptAt: &next}})
	require.Equal(t, "past_due", membershipRow(t, env, id).Status)
	e := text(entry(t, page(t, env, "/library", cookie), id))
	require.Contains(t, e, "Your last payment failed on "+membership.Date(time.Now())+"; update your payment method.")
	require.Contains(t, e, "We will try again on "+membership.Date(next)+" with the payment method on file.")
}
