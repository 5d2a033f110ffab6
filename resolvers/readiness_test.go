package resolvers

import (
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/graph/model"
)

type actionT = model.Action

func codes(actions []*actionT) []string {
	out := make([]string, len(actions))
	for i, a := range actions {
		out[i] = string(a.Code) + "/" + string(a.Priority)
	}
	return out
}

// Each account action's condition, and the order of next (CONTRACT §7).
func TestAccountActions(t *testing.T) {
	t.Parallel()
	ready := accountFacts{ProcessorStatus: db.ProcessorConnected, ChargesEnabled: true, BillingStatus: "active",
		HasPublishedListing: true, OnboardingURL: "https://x/onb", BillingURL: "https://x/billing"}
	with := func(change func(*accountFacts)) accountFacts {
		f := ready
		change(&f)
		return f
	}
	for name, tc := range map[string]struct {
		facts       accountFacts
		want        []string
		operational bool
	}{
		"ready":                {ready, []string{}, true},
		"never connected":      {with(func(f *accountFacts) { f.ProcessorStatus = db.ProcessorNotConnected; f.ChargesEnabled = false }), []string{"connect_stripe/required"}, false},
		"onboarding":           {with(func(f *accountFacts) { f.ProcessorStatus = db.ProcessorOnboarding; f.ChargesEnabled = false }), []string{"connect_stripe/required"}, false},
		"disconnected":         {with(func(f *accountFacts) { f.ProcessorStatus = db.ProcessorDisconnected }), []string{"connect_stripe/required"}, false},
		"charges not enabled":  {with(func(f *accountFacts) { f.ChargesEnabled = false }), []string{"enable_charges/required"}, false},
		"past due":             {with(func(f *accountFacts) { f.BillingStatus = "past_due" }), []string{"update_billing/suggested"}, true},
		"unpaid":               {with(func(f *accountFacts) { f.BillingStatus = "unpaid" }), []string{"update_billing/required"}, false},
		"webhook disabled":     {with(func(f *accountFacts) { f.DisabledWebhookID = "wh_1" }), []string{"webhook_disabled/suggested"}, true},
		"order awaiting":       {with(func(f *accountFacts) { f.AwaitingFulfillmentOrderID = "ord_1" }), []string{"fulfill_order/suggested"}, true},
		"no published listing": {with(func(f *accountFacts) { f.HasPublishedListing = false }), []string{"publish_listing/suggested"}, true},
		"everything at once": {accountFacts{ProcessorStatus: db.ProcessorNotConnected, BillingStatus: "unpaid",
			DisabledWebhookID: "wh_1", AwaitingFulfillmentOrderID: "ord_1"},
			[]string{"connect_stripe/required", "update_billing/required", "webhook_disabled/suggested", "fulfill_order/suggested", "publish_listing/suggested"}, false},
		"suggested before suggested, in table order": {with(func(f *accountFacts) {
			f.BillingStatus = "past_due"
			f.HasPublishedListing = false
			f.DisabledWebhookID = "wh_1"
		}), []string{"update_billing/suggested", "webhook_disabled/suggested", "publish_listing/suggested"}, true},
	} {
		t.Run(name, func(t *testing.T) {
			actions := accountActions(tc.facts)
			require.Equal(t, tc.want, codes(actions))
			r := accountReadiness(actions)
			require.Equal(t, tc.operational, r.Operational)
			if len(tc.want) == 0 {
				require.Nil(t, r.Next)
				require.NotNil(t, r.Actions, "actions is [] not null")
			} else {
				require.Equal(t, actions[0].Code, *r.Next)
			}
		})
	}
}

// Each action resolves the way CONTRACT §7 says.
func TestActionResolves(t *testing.T) {
	t.Parallel()
	all := accountActions(accountFacts{ProcessorStatus: db.ProcessorConnected, BillingStatus: "past_due",
		OnboardingURL: "https://x/onb", BillingURL: "https://x/billing", DisabledWebhookID: "wh_1",
		AwaitingFulfillmentOrderID: "ord_1", DraftListingID: "lst_1"})
	byCode := map[string]*actionT{}
	for _, a := range all {
		byCode[string(a.Code)] = a
		require.NotEmpty(t, a.Message)
	}
	require.Equal(t, model.ActionKindHuman, byCode["enable_charges"].Kind)
	require.Equal(t, model.ResolveMethodRedirect, byCode["enable_charges"].Resolve.Method)
	require.Equal(t, "https://x/onb", *byCode["enable_charges"].Resolve.URL)
	require.Equal(t, "https://x/billing", *byCode["update_billing"].Resolve.URL)
	require.Equal(t, model.ResolveMethodPut, byCode["webhook_disabled"].Resolve.Method)
	require.Equal(t, "/v1/webhooks/wh_1", *byCode["webhook_disabled"].Resolve.Endpoint)
	require.Equal(t, map[string]any{"status": "enabled"}, byCode["webhook_disabled"].Resolve.Params)
	require.Equal(t, "/v1/orders/ord_1/fulfill", *byCode["fulfill_order"].Resolve.Endpoint)
	require.Equal(t, "/v1/listings/lst_1/publish", *byCode["publish_listing"].Resolve.Endpoint)
	for _, a := range all {
		if a.Kind == "api" {
			require.Nil(t, a.Resolve.URL)
			require.NotNil(t, a.Resolve.Endpoint)
		} else {
			require.Nil(t, a.Resolve.Endpoint)
		}
	}
	noDraft := accountActions(accountFacts{ProcessorStatus: db.ProcessorConnected, ChargesEnabled: true})
	require.Equal(t, "/v1/listings", *noDraft[0].Resolve.Endpoint)
	require.Equal(t, model.ResolveMethodPost, noDraft[0].Resolve.Method)
}
