package ratelimit

import "time"

// Rule allows at most Limit requests in any rolling Window.
type Rule struct {
	Limit  int
	Window time.Duration
}

// Group is a named rate-limit group; a request is allowed only if every rule
// of the group allows it.
type Group struct {
	Name  string
	Rules []Rule
}

func perMinute(n int) []Rule { return []Rule{{Limit: n, Window: time.Minute}} }
func perHour(n int) []Rule   { return []Rule{{Limit: n, Window: time.Hour}} }

// per is n requests in any rolling window.
func per(n int, window time.Duration) []Rule { return []Rule{{Limit: n, Window: window}} }

// Groups is the table of CONTRACT §4 that routes join by name. The subject a
// caller passes decides the scope (an API key, a client IP, an order).
var Groups = map[string]Group{
	"listings":              {Name: "listings", Rules: perMinute(120)},
	"orders":                {Name: "orders", Rules: perMinute(120)},
	"order_redelivery":      {Name: "order_redelivery", Rules: perHour(10)},      // per order
	"order_redelivery_key":  {Name: "order_redelivery_key", Rules: perHour(100)}, // per API key
	"events":                {Name: "events", Rules: perMinute(120)},
	"account_update":        {Name: "account_update", Rules: perMinute(10)},
	"processor_connect":     {Name: "processor_connect", Rules: perMinute(5)},
	"files":                 {Name: "files", Rules: perMinute(60)},
	"webhooks":              {Name: "webhooks", Rules: perMinute(60)},
	"agent_connections":     {Name: "agent_connections", Rules: perMinute(60)}, // the seller's agent connections (CONTRACT §25), as webhooks
	"discounts":             {Name: "discounts", Rules: perMinute(60)},
	"license_keys":          {Name: "license_keys", Rules: perMinute(120)},            // the seller's license keys (CONTRACT §20)
	"memberships":           {Name: "memberships", Rules: perMinute(120)},             // the seller's memberships (CONTRACT §26)
	"analytics":             {Name: "analytics", Rules: perMinute(60)},                // sales over time: an aggregate read (CONTRACT §23)
	"bootstrap_email":       {Name: "bootstrap_email", Rules: perHour(5)},             // per email
	"bootstrap_ip":          {Name: "bootstrap_ip", Rules: perHour(20)},               // per client IP
	"library_sign_in_email": {Name: "library_sign_in_email", Rules: perHour(5)},       // library sign-in mails per email (CONTRACT §21)
	"library_sign_in_ip":    {Name: "library_sign_in_ip", Rules: perHour(20)},         // library sign-in requests per client IP (CONTRACT §21)
	"free_orders":           {Name: "free_orders", Rules: perHour(5)},                 // per email and listing (CONTRACT §19)
	"discount_tries":        {Name: "discount_tries", Rules: per(10, 10*time.Minute)}, // a buyer's code tries per IP (CONTRACT §19)
	"public":                {Name: "public", Rules: perMinute(300)},                  // plans, ping: per IP
	"licenses":              {Name: "licenses", Rules: perMinute(60)},                 // public license routes: per client IP (CONTRACT §20)
	"license_key":           {Name: "license_key", Rules: perMinute(20)},              // public license routes: per license key (its hash)
	"exports":               {Name: "exports", Rules: perMinute(10)},                  // CSV exports (CONTRACT §23): each reads every matching row
	"acp":                   {Name: "acp", Rules: perMinute(600)},                     // /acp per agent connection (CONTRACT §25)
	"default":               {Name: "default", Rules: perMinute(120)},
}

// Lookup returns a group of the table.
func Lookup(name string) (Group, bool) {
	g, ok := Groups[name]
	return g, ok
}
