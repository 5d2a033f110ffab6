package resolvers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/problem"
	"commerce/processor/sandbox"
	"commerce/resolvers"
	"commerce/testkit"
)

// The buyer's memberships through the resolvers the library's pages call
// (CONTRACT §26 and §21), on real memberships bought through the sandbox:
// the library lists a membership once, on its first order, with its
// renewals as payments; every action is the session's email's (and its
// store's, for a portal session) or not_found.

type libraryMembershipFixture struct {
	t       *testing.T
	env     *testkit.Env
	r       *resolvers.Resolver
	acc     testkit.Account
	slug    string
	storeID string
}

func newLibraryMembershipFixture(t *testing.T) *libraryMembershipFixture {
	t.Helper()
	env := testkit.New(t)
	acc := env.NewAccount()
	onb := env.Post("/v1/account/processor/connect", acc.Key, nil)
	require.Equal(t, 200, onb.Status, "%s", onb.Body)
	resp, err := noRedirect(env).PostForm(onb.JSON(t)["url"].(string), url.Values{"currency": {"usd"}})
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	r := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Letters " + testkit.Unique(), "price": 900,
		"deliverables": []any{map[string]any{"type": "text", "value": "Welcome."}},
		"billing":      "membership", "interval": "month"})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	id := r.JSON(t)["id"].(string)
	r = env.Post("/v1/listings/"+id+"/publish", acc.Key, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return &libraryMembershipFixture{t: t, env: env, r: env.Server.Resolver, acc: acc, slug: r.JSON(t)["slug"].(string), storeID: acc.ID}
}

// join buys the membership as email through the product page's checkout
// and the sandbox, and returns the membership id.
func (f *libraryMembershipFixture) join(email string) string {
	f.t.Helper()
	ctx := context.Background()
	out, err := f.r.StartCheckout(ctx, f.slug, url.Values{"email": {email}})
	require.NoError(f.t, err)
	require.Empty(f.t, out.Errors)
	sid := out.RedirectURL[strings.LastIndex(out.RedirectURL, "/")+1:]
	orderID, ok := sandbox.SessionOrderID(sid)
	require.True(f.t, ok)
	_, err = f.r.CompleteSandboxCheckout(ctx, sid, "paid", "")
	require.NoError(f.t, err)
	var id string
	require.NoError(f.t, f.env.Server.DB.Pool.QueryRow(ctx, `SELECT id FROM memberships WHERE first_order_id = $1`, orderID).Scan(&id))
	return id
}

func (f *libraryMembershipFixture) advance(id, outcome string) {
	f.t.Helper()
	resp, err := noRedirect(f.env).PostForm(f.env.URL+"/sandbox/memberships/"+id+"/advance", url.Values{"outcome": {outcome}})
	require.NoError(f.t, err)
	resp.Body.Close()
	require.Equal(f.t, http.StatusOK, resp.StatusCode)
}

func requireCode(t *testing.T, err error, code problem.Code) {
	t.Helper()
	p := problem.From(err)
	require.NotNil(t, p, "%v", err)
	require.Equal(t, code, p.Code, "%v", err)
}

// A renewed membership is one entry of the library, on its first order,
// with both payments; ended, it has no access there.
func TestLibraryListsAMembershipOnce(t *testing.T) {
	t.Parallel()
	f := newLibraryMembershipFixture(t)
	ctx := context.Background()
	email := "Nia-" + testkit.Unique() + "@Example.com"
	id := f.join(email)
	f.advance(id, "paid")
	f.advance(id, "paid")
	sess := &resolvers.BuyerSession{Email: strings.ToLower(email)}

	p, err := f.r.Library(ctx, sess, "", "")
	require.NoError(t, err)
	require.Len(t, p.Groups, 1)
	require.Len(t, p.Groups[0].Orders, 1, "the renewals are not purchases of their own")
	o := p.Groups[0].Orders[0]
	require.NotNil(t, o.Membership)
	require.Equal(t, id, o.Membership.ID)
	require.Equal(t, "Active", o.Membership.Status)
	require.Equal(t, 3, o.Membership.PaymentsCount)
	require.Len(t, o.Membership.Payments, 3)
	for _, pay := range o.Membership.Payments {
		require.Equal(t, "$9.00", pay.Paid)
	}
	require.True(t, o.Access)
	require.NotEmpty(t, o.DownloadURL)

	_, err = f.r.CancelMembershipFromLibrary(ctx, sess, id)
	require.NoError(t, err)
	f.advance(id, "paid") // past the period's end: a canceled membership ends
	p, err = f.r.Library(ctx, sess, "", "")
	require.NoError(t, err)
	o = p.Groups[0].Orders[0]
	require.Equal(t, "Ended", o.Membership.Status)
	require.False(t, o.Access)
	require.Empty(t, o.DownloadURL)
	require.Empty(t, o.LicenseKeys)
}

// Every action on a membership is its buyer's: another email, or a portal
// session of another store, is not_found, like an unknown id; the email
// is compared without regard to case; an ended membership refuses with
// invalid_transition; the sandbox's card is one of two choices.
func TestLibraryMembershipActionsAreTheBuyers(t *testing.T) {
	t.Parallel()
	f := newLibraryMembershipFixture(t)
	ctx := context.Background()
	email := "ola-" + testkit.Unique() + "@example.com"
	id := f.join(email)
	elsewhere := "acc_01m8zzzzzzzzzzzzzzzzzzzzzz"
	strangers := []*resolvers.BuyerSession{
		{Email: "someone-" + testkit.Unique() + "@example.com"},
		{Email: email, AccountID: &elsewhere},
		nil,
	}
	for _, s := range strangers {
		for _, target := range []string{id, "mem_01m8zzzzzzzzzzzzzzzzzzzzzz", "not-an-id"} {
			_, err := f.r.MembershipCancelPage(ctx, s, target)
			requireCode(t, err, problem.NotFound)
			_, err = f.r.CancelMembershipFromLibrary(ctx, s, target)
			requireCode(t, err, problem.NotFound)
			_, err = f.r.ResumeMembershipFromLibrary(ctx, s, target)
			requireCode(t, err, problem.NotFound)
			_, err = f.r.MembershipPaymentMethodURL(ctx, s, target, "/library")
			requireCode(t, err, problem.NotFound)
			_, err = f.r.SandboxPaymentMethodPage(ctx, s, target)
			requireCode(t, err, problem.NotFound)
			_, err = f.r.SaveSandboxPaymentMethod(ctx, s, target, resolvers.SandboxCardDeclines)
			requireCode(t, err, problem.NotFound)
		}
	}

	// The buyer, in another case, and a portal session of the right store.
	own := &resolvers.BuyerSession{Email: strings.ToUpper(email)}
	portal := &resolvers.BuyerSession{Email: email, AccountID: &f.storeID}
	u, err := f.r.MembershipPaymentMethodURL(ctx, own, id, "/library#"+id)
	require.NoError(t, err)
	require.Equal(t, f.env.URL+"/sandbox/memberships/"+id+"/payment-method", u)
	_, err = f.r.SaveSandboxPaymentMethod(ctx, portal, id, "platinum")
	requireCode(t, err, problem.ValidationError)
	m, err := f.r.SaveSandboxPaymentMethod(ctx, portal, id, resolvers.SandboxCardDeclines)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(*m.PaymentMethod, "sbx_pm_decline_"))
	a, err := f.r.SandboxPaymentMethodPage(ctx, own, id)
	require.NoError(t, err)
	require.Contains(t, a.PaymentMethod, "A sandbox card that is declined")

	// Resume before any cancel: refused, as the table says nothing to do.
	_, err = f.r.ResumeMembershipFromLibrary(ctx, own, id)
	requireCode(t, err, problem.InvalidTransition)
	_, err = f.r.CancelMembershipFromLibrary(ctx, own, id)
	require.NoError(t, err)
	_, err = f.r.CancelMembershipFromLibrary(ctx, own, id)
	requireCode(t, err, problem.InvalidTransition)
	_, err = f.r.ResumeMembershipFromLibrary(ctx, portal, id)
	require.NoError(t, err)

	// Ended: every action is refused with what happened.
	_, err = f.r.CancelMembershipFromLibrary(ctx, own, id)
	require.NoError(t, err)
	f.advance(id, "paid")
	for _, err := range []error{
		func() error { _, err := f.r.CancelMembershipFromLibrary(ctx, own, id); return err }(),
		func() error { _, err := f.r.ResumeMembershipFromLibrary(ctx, own, id); return err }(),
		func() error { _, err := f.r.MembershipPaymentMethodURL(ctx, own, id, "/library"); return err }(),
		func() error {
			_, err := f.r.SaveSandboxPaymentMethod(ctx, own, id, resolvers.SandboxCardPays)
			return err
		}(),
	} {
		requireCode(t, err, problem.InvalidTransition)
		require.Contains(t, problem.From(err).Detail, "You no longer have access.")
	}
}
