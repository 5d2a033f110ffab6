package resolvers

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/validator"

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
	ready := accountFacts{ProcessorStatus: db.ProcessorConnected, ChargesEnabled: true, Currency: "usd", BillingStatus: "active",
		HasPublishedListing: true, HasAgentConnection: true, OnboardingURL: "https://x/processor/onboarding/t", BillingURL: "https://x/console/settings/billing"}
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
		"ready": {ready, []string{}, true},
		"never connected": {with(func(f *accountFacts) {
			f.ProcessorStatus, f.ChargesEnabled, f.OnboardingURL, f.Currency = db.ProcessorNotConnected, false, "", ""
		}), []string{"connect_stripe/required"}, false},
		"onboarding: a human finishes, no loop back to connect": {with(func(f *accountFacts) {
			f.ProcessorStatus, f.ChargesEnabled, f.Currency = db.ProcessorOnboarding, false, ""
		}), []string{"enable_charges/required"}, false},
		"disconnected": {with(func(f *accountFacts) {
			f.ProcessorStatus, f.OnboardingURL = db.ProcessorDisconnected, ""
		}), []string{"connect_stripe/required"}, false},
		"charges not enabled":           {with(func(f *accountFacts) { f.ChargesEnabled = false }), []string{"enable_charges/required"}, false},
		"no currency the service sells": {with(func(f *accountFacts) { f.Currency = "" }), []string{"enable_charges/required"}, false},
		"unsupported currency":          {with(func(f *accountFacts) { f.Currency = "xof" }), []string{"enable_charges/required"}, false},
		"past due":                      {with(func(f *accountFacts) { f.BillingStatus = "past_due" }), []string{"update_billing/suggested"}, true},
		"unpaid":                        {with(func(f *accountFacts) { f.BillingStatus = "unpaid" }), []string{"update_billing/required"}, false},
		"webhook disabled":              {with(func(f *accountFacts) { f.DisabledWebhookID = "wh_1" }), []string{"webhook_disabled/suggested"}, true},
		"webhook failing":               {with(func(f *accountFacts) { f.FailingWebhookID = "wh_2" }), []string{"webhook_failing/suggested"}, true},
		"order awaiting":                {with(func(f *accountFacts) { f.AwaitingFulfillmentOrderID = "ord_1" }), []string{"fulfill_order/suggested"}, true},
		"no published listing":          {with(func(f *accountFacts) { f.HasPublishedListing = false }), []string{"publish_listing/suggested"}, true},
		// CONTRACT §25: an operational account with a published listing and no agent connection.
		"no agent connection": {with(func(f *accountFacts) { f.HasAgentConnection = false }), []string{"offer_to_agents/suggested"}, true},
		"no agent connection, nothing published": {with(func(f *accountFacts) { f.HasAgentConnection, f.HasPublishedListing = false, false }),
			[]string{"publish_listing/suggested"}, true},
		"no agent connection, not operational": {with(func(f *accountFacts) { f.HasAgentConnection, f.ChargesEnabled = false, false }),
			[]string{"enable_charges/required"}, false},
		"no agent connection, past due": {with(func(f *accountFacts) { f.HasAgentConnection, f.BillingStatus = false, "past_due" }),
			[]string{"update_billing/suggested", "offer_to_agents/suggested"}, true},
		"everything at once": {accountFacts{ProcessorStatus: db.ProcessorNotConnected, BillingStatus: "unpaid",
			DisabledWebhookID: "wh_1", FailingWebhookID: "wh_2", AwaitingFulfillmentOrderID: "ord_1"},
			[]string{"connect_stripe/required", "update_billing/required", "webhook_disabled/suggested", "webhook_failing/suggested", "fulfill_order/suggested", "publish_listing/suggested"}, false},
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
			require.Equal(t, !tc.operational, accountBlocked(tc.facts), "the product page's rule agrees")
			require.Equal(t, "/v1/account", r.Refresh.Endpoint)
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
	all := accountActions(accountFacts{ProcessorStatus: db.ProcessorConnected, BillingStatus: "past_due", Currency: "usd",
		OnboardingURL: "https://x/onb", BillingURL: "https://x/billing", DisabledWebhookID: "wh_1", FailingWebhookID: "wh_2",
		AwaitingFulfillmentOrderID: "ord_1", AwaitingContentType: "generated", DraftListingID: "lst_1"})
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
	require.Equal(t, map[string]any{"status": "ENABLED"}, byCode["webhook_disabled"].Resolve.GraphQL.Variables["input"])
	require.Equal(t, "update_webhook", byCode["webhook_disabled"].Resolve.MCP.Tool)
	require.Equal(t, model.ResolveMethodPost, byCode["webhook_failing"].Resolve.Method)
	require.Equal(t, "/v1/webhooks/wh_2/test", *byCode["webhook_failing"].Resolve.Endpoint)
	require.Nil(t, byCode["webhook_failing"].Resolve.Params)
	require.Equal(t, map[string]any{"id": "wh_2"}, byCode["webhook_failing"].Resolve.GraphQL.Variables)
	require.Contains(t, byCode["webhook_failing"].Resolve.GraphQL.Query, "testWebhook(id: $id) { statusCode durationMs error }")
	require.Equal(t, "test_webhook", byCode["webhook_failing"].Resolve.MCP.Tool)
	require.NotContains(t, byCode["webhook_failing"].Message, "human")
	require.Equal(t, "/v1/orders/ord_1/fulfill", *byCode["fulfill_order"].Resolve.Endpoint)
	require.Contains(t, byCode["fulfill_order"].Message, "ord_1 is the oldest, and the orders list filtered to paid ones shows them all", "the account's action names where the other paid orders are")
	require.Equal(t, "/v1/listings/lst_1/publish", *byCode["publish_listing"].Resolve.Endpoint)
	require.Equal(t, "publish_listing", byCode["publish_listing"].Resolve.MCP.Tool)
	require.Equal(t, map[string]any{"id": "lst_1"}, byCode["publish_listing"].Resolve.MCP.Arguments)
	for _, a := range all {
		if a.Kind == "api" {
			require.Nil(t, a.Resolve.URL)
			require.NotNil(t, a.Resolve.Endpoint)
		} else {
			require.Nil(t, a.Resolve.Endpoint)
		}
	}
	offer := accountActions(accountFacts{ProcessorStatus: db.ProcessorConnected, ChargesEnabled: true, Currency: "usd", OnboardingURL: "u",
		BillingStatus: "active", HasPublishedListing: true})
	require.Equal(t, []string{"offer_to_agents/suggested"}, codes(offer))
	require.Equal(t, model.ActionKindAPI, offer[0].Kind)
	require.Equal(t, model.ResolveMethodPost, offer[0].Resolve.Method)
	require.Equal(t, "/v1/agent-connections", *offer[0].Resolve.Endpoint)
	require.Equal(t, []string{"name", "webhook_url"}, inputNames(offer[0]))
	require.Equal(t, "create_agent_connection", offer[0].Resolve.MCP.Tool)
	require.Equal(t, offer[0].Resolve.Params["webhook_url"], offer[0].Resolve.GraphQL.Variables["input"].(map[string]any)["webhookUrl"])
	require.Contains(t, offer[0].Resolve.GraphQL.Query, "createAgentConnection(input: $input) { id name webhookUrl status token webhookSecret }")
	require.Contains(t, offer[0].Message, "token and webhook secret")
	noDraft := accountActions(accountFacts{ProcessorStatus: db.ProcessorConnected, ChargesEnabled: true, Currency: "usd", OnboardingURL: "u"})
	require.Equal(t, "/v1/listings", *noDraft[0].Resolve.Endpoint)
	require.Equal(t, model.ResolveMethodPost, noDraft[0].Resolve.Method)
	require.Equal(t, "create_listing", noDraft[0].Resolve.MCP.Tool)
	require.Equal(t, []string{"title", "price"}, inputNames(noDraft[0]))

	// fulfill_order's example body fits the order's content type.
	gen := orderActions(&db.Order{ID: "ord_1", Status: db.OrderPaid, ContentType: "generated"})
	require.Len(t, gen, 1)
	require.Equal(t, []string{"deliverables[0].type", "deliverables[0].value"}, inputNames(gen[0]))
	require.Equal(t, "TEXT", gen[0].Resolve.GraphQL.Variables["input"].(map[string]any)["deliverables"].([]any)[0].(map[string]any)["type"])
	hook := orderActions(&db.Order{ID: "ord_1", Status: db.OrderPaid, ContentType: "webhook"})
	require.Equal(t, map[string]any{}, hook[0].Resolve.Params, "a webhook order takes no deliverables")
	require.Equal(t, map[string]any{}, hook[0].Resolve.GraphQL.Variables["input"])
	require.Empty(t, hook[0].Resolve.Inputs)
	require.Empty(t, orderActions(&db.Order{ID: "ord_1", Status: db.OrderFulfilled, ContentType: "webhook"}))

	// A draft with nothing to deliver and no order.paid subscriber: add a deliverable.
	sf := &sellerFacts{facts: accountFacts{ProcessorStatus: db.ProcessorConnected, ChargesEnabled: true, Currency: "usd", OnboardingURL: "u"}}
	sf.accountActions = accountActions(sf.facts)
	draft := listingActions(&db.Listing{ID: "lst_1", Status: db.ListingDraft}, sf)
	require.Equal(t, []string{"publish_listing/required", "configure_fulfillment/suggested"}, codes(draft))
	require.Equal(t, "/v1/listings/lst_1/deliverables", *draft[1].Resolve.Endpoint)
	require.Equal(t, "add_deliverable", draft[1].Resolve.MCP.Tool)
	require.Equal(t, "lst_1", draft[1].Resolve.MCP.Arguments["listingId"])
	require.Equal(t, []string{"type", "value"}, inputNames(draft[1]))
	sf.facts.HasOrderPaidHook = true
	require.Equal(t, []string{"publish_listing/required"}, codes(listingActions(&db.Listing{ID: "lst_1", Status: db.ListingDraft}, sf)))
}

func inputNames(a *actionT) []string {
	out := []string{}
	for _, in := range a.Resolve.Inputs {
		out = append(out, in.Name)
	}
	return out
}

var pathStep = regexp.MustCompile(`^([A-Za-z_]+)(?:\[(\d+)\])?$`)

// at reads a value at a param-notation path (deliverables[0].value).
func at(t *testing.T, v any, path string) any {
	t.Helper()
	for _, step := range regexp.MustCompile(`\.`).Split(path, -1) {
		m := pathStep.FindStringSubmatch(step)
		require.NotNil(t, m, "path step %q", step)
		obj, ok := v.(map[string]any)
		require.True(t, ok, "%s: %q is not in an object", path, step)
		v, ok = obj[m[1]]
		require.True(t, ok, "%s: no %q", path, m[1])
		if m[2] != "" {
			i, _ := strconv.Atoi(m[2])
			list, ok := v.([]any)
			require.True(t, ok && i < len(list), "%s: no item %d", path, i)
			v = list[i]
		}
	}
	return v
}

// checkOperation validates a derived GraphQL call against the schema and
// its MCP twin against the contract: the tool is the snake_case name of
// the operation's root field and its arguments are the variables.
func checkOperation(t *testing.T, schema *ast.Schema, g *model.GraphQLCall, m *model.MCPCall) {
	t.Helper()
	require.NotNil(t, g, "graphql form")
	require.NotNil(t, m, "mcp form")
	doc, errs := gqlparser.LoadQueryWithRules(schema, g.Query, nil)
	require.Empty(t, errs, "query does not validate: %s", g.Query)
	require.Len(t, doc.Operations, 1)
	op := doc.Operations[0]
	require.Len(t, op.SelectionSet, 1, "one root field")
	root := op.SelectionSet[0].(*ast.Field)
	_, err := validator.VariableValues(schema, op, g.Variables)
	require.Nil(t, err, "variables %v of %s", g.Variables, g.Query)
	require.Equal(t, SnakeCase(root.Name), m.Tool, "the MCP tool is the root field's snake_case name")
	rootType := schema.Query
	if op.Operation == ast.Mutation {
		rootType = schema.Mutation
	}
	require.NotNil(t, rootType.Fields.ForName(root.Name), "the MCP tool %s is a root field", m.Tool)
	require.Equal(t, g.Variables, m.Arguments, "MCP arguments are the field's arguments")
	for name := range m.Arguments {
		require.NotNil(t, rootType.Fields.ForName(root.Name).Arguments.ForName(name), "%s is an argument of %s", name, root.Name)
	}
}

// Every row of the table has all three forms: REST, a GraphQL operation
// that validates against the schema, and an MCP tool call of a root field;
// every input names a value in params, variables.input and arguments.input.
func TestEveryActionHasThreeForms(t *testing.T) {
	t.Parallel()
	schema := apiSchema()
	actions := ExampleActions()
	require.Len(t, actions, len(actionTable))
	for i, a := range actions {
		t.Run(strconv.Itoa(i)+"_"+string(a.Code), func(t *testing.T) {
			require.NotEmpty(t, a.Message)
			require.NotNil(t, a.Resolve.Inputs, "inputs is [] not null")
			if a.Kind == kindHuman {
				require.Equal(t, model.ResolveMethodRedirect, a.Resolve.Method)
				require.NotEmpty(t, *a.Resolve.URL)
				require.Nil(t, a.Resolve.GraphQL)
				return
			}
			require.Regexp(t, `^/v1/[a-z0-9_/-]+$`, *a.Resolve.Endpoint, "the path's placeholders are all filled")
			checkOperation(t, schema, a.Resolve.GraphQL, a.Resolve.MCP)
			// REST params and GraphQL's input carry the same body.
			if a.Resolve.Params != nil {
				require.Contains(t, a.Resolve.GraphQL.Variables, "input")
			}
			// Round trip through JSON: what an agent reads.
			var wire struct {
				Params  map[string]any `json:"params"`
				GraphQL struct {
					Variables map[string]any `json:"variables"`
				} `json:"graphql"`
				MCP struct {
					Arguments map[string]any `json:"arguments"`
				} `json:"mcp"`
			}
			b, err := json.Marshal(a.Resolve)
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(b, &wire))
			for _, in := range a.Resolve.Inputs {
				require.NotEmpty(t, in.Description)
				ex, _ := json.Marshal(in.Example)
				got, _ := json.Marshal(at(t, wire.Params, in.Name))
				require.JSONEq(t, string(ex), string(got), "params carry the example of %s", in.Name)
				// GraphQL names fields in camelCase (webhook_url is webhookUrl):
				// the same path, each step as GraphQL writes it.
				at(t, wire.GraphQL.Variables["input"], camel(in.Name))
				at(t, wire.MCP.Arguments["input"], camel(in.Name))
			}
		})
	}
	for _, r := range ExampleRefreshes() {
		require.Equal(t, model.ResolveMethodGet, r.Method)
		require.Regexp(t, `^/v1/(account|listings/lst_\w+|orders/ord_\w+|discounts/dsc_\w+)$`, r.Endpoint)
		checkOperation(t, schema, r.GraphQL, r.MCP)
	}
}

func TestSnakeCase(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"createListing": "create_listing", "viewer": "viewer",
		"connectProcessor": "connect_processor", "addDeliverable": "add_deliverable"} {
		require.Equal(t, want, SnakeCase(in))
	}
}

// A discount's readiness: what its status asks for first, then, while
// none of its listings sells, their required actions (the account's once);
// usable only when active with a sellable listing.
func TestDiscountReadiness(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	seller := func(f accountFacts) *sellerFacts {
		return &sellerFacts{account: &db.Account{}, facts: f, accountActions: accountActions(f)}
	}
	operational := seller(accountFacts{ProcessorStatus: db.ProcessorConnected, ChargesEnabled: true, Currency: "usd",
		OnboardingURL: "u", HasPublishedListing: true, HasOrderPaidHook: true})
	blocked := seller(accountFacts{ProcessorStatus: db.ProcessorNotConnected, HasOrderPaidHook: true})
	published := &db.Listing{ID: "lst_2", Status: db.ListingPublished}
	draft := &db.Listing{ID: "lst_1", Status: db.ListingDraft}
	paused := &db.Listing{ID: "lst_3", Status: db.ListingPaused}
	named := func(ls ...*db.Listing) map[string]*db.Listing {
		out := map[string]*db.Listing{}
		for _, l := range ls {
			out[l.ID] = l
		}
		return out
	}
	later := now.Add(time.Hour)
	before := now.Add(-time.Hour)
	for name, tc := range map[string]struct {
		d      db.Discount
		links  discountLinks
		usable bool
		want   []string
	}{
		"active, every listing, one sells": {db.Discount{}, discountLinks{seller: operational, every: []*db.Listing{published, draft}}, true, []string{}},
		"active, its listing sells":        {db.Discount{ListingIDs: []string{"lst_2"}}, discountLinks{seller: operational, named: named(published)}, true, []string{}},
		"active, its listing is a draft": {db.Discount{ListingIDs: []string{"lst_1"}}, discountLinks{seller: operational, named: named(draft, published)},
			false, []string{"publish_listing/required"}},
		"active, drafts and paused": {db.Discount{ListingIDs: []string{"lst_1", "lst_3"}}, discountLinks{seller: operational, named: named(draft, paused)},
			false, []string{"publish_listing/required", "publish_listing/required"}},
		"the account blocks: its actions once, then the listings'": {db.Discount{ListingIDs: []string{"lst_1", "lst_2"}},
			discountLinks{seller: blocked, named: named(draft, published)}, false, []string{"connect_stripe/required", "publish_listing/required"}},
		"no listing at all: create one": {db.Discount{}, discountLinks{seller: seller(accountFacts{ProcessorStatus: db.ProcessorConnected,
			ChargesEnabled: true, Currency: "usd", OnboardingURL: "u"})}, false, []string{"publish_listing/suggested"}},
		"disabled":  {db.Discount{Disabled: true}, discountLinks{seller: operational, every: []*db.Listing{published}}, false, []string{"enable_discount/required"}},
		"expired":   {db.Discount{ExpiresAt: &before}, discountLinks{seller: operational, every: []*db.Listing{published}}, false, []string{"extend_discount/required"}},
		"scheduled": {db.Discount{StartsAt: &later}, discountLinks{seller: operational, every: []*db.Listing{published}}, false, []string{"await_discount_start/required"}},
		"exhausted, and nothing sells": {db.Discount{MaxRedemptions: ptr(int64(5)), RedemptionsCount: 5},
			discountLinks{seller: blocked, every: []*db.Listing{published}}, false, []string{"raise_discount_limit/required", "connect_stripe/required"}},
	} {
		t.Run(name, func(t *testing.T) {
			d := tc.d
			d.ID = "dsc_1"
			if tc.links.named == nil {
				tc.links.named = map[string]*db.Listing{}
			}
			r := discountReadiness(&d, termsOf(&d).Status(now), now, &tc.links)
			require.Equal(t, tc.usable, r.Usable)
			require.Equal(t, tc.want, codes(r.Actions))
			require.NotNil(t, r.Actions)
			if len(tc.want) > 0 {
				require.Equal(t, r.Actions[0].Code, *r.Next)
			} else {
				require.Nil(t, r.Next)
			}
			require.Equal(t, "/v1/discounts/dsc_1", r.Refresh.Endpoint)
		})
	}

	// The status actions resolve to the discount's own calls.
	d := db.Discount{ID: "dsc_1", ExpiresAt: &before}
	r := discountReadiness(&d, termsOf(&d).Status(now), now, &discountLinks{seller: operational, every: []*db.Listing{published}})
	extend := r.Actions[0].Resolve
	require.Equal(t, model.ResolveMethodPut, extend.Method)
	require.Equal(t, "/v1/discounts/dsc_1", *extend.Endpoint)
	require.Equal(t, map[string]any{"expires_at": "2026-12-31T12:00:00Z"}, extend.Params, "30 days on, in the future")
	require.Equal(t, map[string]any{"expiresAt": "2026-12-31T12:00:00Z"}, extend.GraphQL.Variables["input"])
	d = db.Discount{ID: "dsc_1", Disabled: true}
	r = discountReadiness(&d, termsOf(&d).Status(now), now, &discountLinks{seller: operational, every: []*db.Listing{published}})
	require.Equal(t, map[string]any{"status": "ACTIVE"}, r.Actions[0].Resolve.GraphQL.Variables["input"])
	d = db.Discount{ID: "dsc_1", StartsAt: &later}
	r = discountReadiness(&d, termsOf(&d).Status(now), now, &discountLinks{seller: operational, every: []*db.Listing{published}})
	require.Equal(t, model.ResolveMethodGet, r.Actions[0].Resolve.Method)
	require.Equal(t, "discount", r.Actions[0].Resolve.MCP.Tool)
	require.Contains(t, r.Actions[0].Message, "2026-12-01T13:00:00Z")
}

func ptr[T any](v T) *T { return &v }

// Every readiness message says what to do in words a person and an agent
// both act on (issue 26 item 4): it starts with what to do or why, never
// sends the reader to "a person" or "your human" (what an agent needs from
// its human is in resolve.inputs), and names no API path or field (the
// resolve carries those).
func TestActionMessagesForPeople(t *testing.T) {
	t.Parallel()
	f := &facts{
		accountFacts: accountFacts{AwaitingFulfillmentOrderID: "ord_1"},
		Listing:      &listingFacts{ID: "lst_1"},
		Order:        &orderFacts{ID: "ord_1"},
		Discount:     &discountFacts{ID: "dsc_1", StartsAt: time.Date(2026, 12, 1, 13, 0, 0, 0, time.UTC), RedemptionsCount: 7},
	}
	api := regexp.MustCompile(`/v1/|\b(GET|POST|PUT)\b|\b[a-z]{2,}_[a-z]{2,}\b|\bstatus (active|paid|published)\b|\bset it\b`)
	seen := map[string]bool{}
	for _, processor := range []string{db.ProcessorNotConnected, db.ProcessorDisconnected, db.ProcessorOnboarding, db.ProcessorConnected} {
		f.ProcessorStatus = processor
		for _, row := range actionTable {
			msg := row.Message(f)
			if seen[msg] {
				continue
			}
			seen[msg] = true
			t.Run(msg, func(t *testing.T) {
				require.Regexp(t, `^[A-Z].*[.)]$`, msg, "a sentence")
				for _, word := range []string{"human", "a person", "ask your", "your system"} {
					require.NotContains(t, strings.ToLower(msg), word)
				}
				require.False(t, api.MatchString(msg), "names an API detail: %q", api.FindString(msg))
			})
		}
	}
	require.GreaterOrEqual(t, len(seen), 19, "every message of the table")
}
