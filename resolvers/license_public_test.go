package resolvers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/stretchr/testify/require"

	"commerce/config"
	"commerce/db"
	"commerce/licensing"
	"commerce/testkit"
)

// The public license API (CONTRACT §20) through the real routes: activate,
// validate and deactivate with no API key, the limits per client IP and
// per key, CORS, the GraphQL mutations, and the license_key.* events.

// licenseFixture is a seller with a published listing whose orders get
// license keys.
type licenseFixture struct {
	t         *testing.T
	env       *testkit.Env
	acc       testkit.Account
	listingID string
}

// scaled multiplies the rate limits by 10 (600 a minute per IP, 200 per
// key), for the tests that make more calls than the limits allow in a
// minute; TestLicenseRateLimits keeps the real ones.
var scaled = testkit.WithConfig(func(c *config.Config) { c.RateLimitScale = 10 })

func newLicenseFixture(t *testing.T, opts ...testkit.Option) *licenseFixture {
	t.Helper()
	env := testkit.New(t, opts...)
	acc := env.NewAccount()
	onb := env.Post("/v1/account/processor/connect", acc.Key, nil)
	require.Equal(t, 200, onb.Status, "%s", onb.Body)
	resp, err := noRedirect(env).PostForm(onb.JSON(t)["url"].(string), url.Values{"currency": {"usd"}})
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	r := env.Post("/v1/listings", acc.Key, map[string]any{"title": "App " + testkit.Unique(), "price": 2900,
		"deliverables": []any{map[string]any{"type": "text", "value": "Thanks for buying."}}})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	id := r.JSON(t)["id"].(string)
	r = env.Post("/v1/listings/"+id+"/publish", acc.Key, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return &licenseFixture{t: t, env: env, acc: acc, listingID: id}
}

func noRedirect(env *testkit.Env) *http.Client {
	c := *env.HTTP.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &c
}

// key buys the listing through the sandbox, as a buyer does, and returns
// the id and the key the order got at fulfilment. The key's activation
// limit is limit (nil: unlimited): the listing's terms are set for this
// purchase with SQL (a published listing's license cannot change through
// the API, and one listing serves every key of a test).
func (f *licenseFixture) key(limit *int) (id, key string) {
	t, env := f.t, f.env
	t.Helper()
	f.exec(`UPDATE listings SET license_enabled = true, license_activation_limit = ? WHERE id = ?`, limit, f.listingID)
	r := env.Post("/v1/checkouts", f.acc.Key, map[string]any{"listing_id": f.listingID,
		"buyer_email": "buyer-" + testkit.Unique() + "@example.com"})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	c := r.JSON(t)
	resp, err := noRedirect(env).PostForm(c["url"].(string), url.Values{"outcome": {"paid"}})
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	r = env.Get("/v1/license-keys?order="+c["order_id"].(string), f.acc.Key)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var list struct {
		Data []struct {
			ID  string `json:"id"`
			Key string `json:"key"`
		} `json:"data"`
	}
	r.Decode(t, &list)
	require.Len(t, list.Data, 1, "the paid order of a licensed listing has its key")
	return list.Data[0].ID, list.Data[0].Key
}

func intp(n int) *int { return &n }

// post calls a public license route (no API key).
func (f *licenseFixture) post(route string, body map[string]any) *testkit.Response {
	f.t.Helper()
	return f.env.Post("/v1/licenses/"+route, "", body)
}

// row reads a key's row and its activations.
func (f *licenseFixture) row(id string) (*db.LicenseKey, []*db.LicenseActivation) {
	f.t.Helper()
	ctx := context.Background()
	k := new(db.LicenseKey)
	require.NoError(f.t, f.env.Server.DB.NewSelect().Model(k).Where("id = ?", id).Scan(ctx))
	var acts []*db.LicenseActivation
	require.NoError(f.t, f.env.Server.DB.NewSelect().Model(&acts).Where("license_key_id = ?", id).Order("created_at").Scan(ctx))
	return k, acts
}

// exec runs SQL on the fixture's database (a seller's change the seller
// API will make).
func (f *licenseFixture) exec(query string, args ...any) {
	f.t.Helper()
	_, err := f.env.Server.DB.ExecContext(context.Background(), query, args...)
	require.NoError(f.t, err)
}

// problemOf checks a problem document's status and code and returns it.
func problemOf(t *testing.T, r *testkit.Response, status int, code string) map[string]any {
	t.Helper()
	require.Equal(t, status, r.Status, "%s", r.Body)
	p := r.JSON(t)
	require.Equal(t, code, p["code"], "%s", r.Body)
	return p
}

// Thirty devices at once on a key of three: exactly three activations,
// 27 refusals that say how to free a device, never a 500; the row counts
// three and holds three activations. The same device twice, one after the
// other or at once, is one activation; an unlimited key takes any number.
func TestLicenseActivateConcurrent(t *testing.T) {
	t.Parallel()
	f := newLicenseFixture(t, scaled)
	id, key := f.key(intp(3))

	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[int]int{}
	var refusals []map[string]any
	for i := range 30 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := f.post("activate", map[string]any{"key": key, "fingerprint": fmt.Sprintf("device-%02d", i), "label": "Device"})
			mu.Lock()
			defer mu.Unlock()
			statuses[r.Status]++
			if r.Status == http.StatusConflict {
				refusals = append(refusals, r.JSON(t))
			}
		}()
	}
	wg.Wait()
	require.Equal(t, map[int]int{201: 3, 409: 27}, statuses)
	for _, p := range refusals {
		require.Equal(t, "activation_limit_reached", p["code"])
		require.Equal(t, 3.0, p["current_count"])
		require.Equal(t, 3.0, p["max_count"])
		require.Equal(t, f.env.URL+"/library", p["manage_url"])
		require.Equal(t, "This license key is active on 3 of 3 devices; deactivate one at "+f.env.URL+
			"/library or ask the seller to raise the limit.", p["detail"])
	}
	k, acts := f.row(id)
	require.Equal(t, 3, k.ActivationsCount)
	require.Len(t, acts, 3)
	require.NotNil(t, k.LastValidatedAt)

	// The same fingerprint one after the other: 201, then 200 with the
	// same activation (label and metadata as first sent).
	_, key2 := f.key(intp(3))
	r := f.post("activate", map[string]any{"key": key2, "fingerprint": "laptop", "label": "Ada's laptop",
		"metadata": map[string]any{"os": "linux"}})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	first := r.JSON(t)
	require.Equal(t, true, first["valid"])
	require.Equal(t, "valid", first["code"])
	act := first["activation"].(map[string]any)
	require.Regexp(t, `^act_[0-9a-z]{26}$`, act["id"])
	require.Equal(t, map[string]any{"os": "linux"}, act["metadata"])
	require.Equal(t, 1.0, first["license_key"].(map[string]any)["activations_count"])
	r = f.post("activate", map[string]any{"key": key2, "fingerprint": "laptop", "label": "Renamed"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	again := r.JSON(t)
	require.Equal(t, act["id"], again["activation"].(map[string]any)["id"])
	require.Equal(t, "Ada's laptop", again["activation"].(map[string]any)["label"])
	require.Equal(t, 1.0, again["license_key"].(map[string]any)["activations_count"])

	// The same fingerprint ten times at once: one activation.
	id3, key3 := f.key(intp(3))
	ids := make(chan string, 10)
	codes := make(chan int, 10)
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := f.post("activate", map[string]any{"key": key3, "fingerprint": "same-device"})
			codes <- r.Status
			if r.Status < 300 {
				ids <- r.JSON(t)["activation"].(map[string]any)["id"].(string)
			}
		}()
	}
	wg.Wait()
	close(ids)
	close(codes)
	got := map[int]int{}
	for c := range codes {
		got[c]++
	}
	require.Equal(t, map[int]int{201: 1, 200: 9}, got)
	seen := map[string]bool{}
	for id := range ids {
		seen[id] = true
	}
	require.Len(t, seen, 1)
	k, acts = f.row(id3)
	require.Equal(t, 1, k.ActivationsCount)
	require.Len(t, acts, 1)

	// Unlimited.
	id4, key4 := f.key(nil)
	for i := range 12 {
		r := f.post("activate", map[string]any{"key": key4, "fingerprint": fmt.Sprint("box-", i)})
		require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
		require.Nil(t, r.JSON(t)["license_key"].(map[string]any)["activation_limit"])
	}
	k, _ = f.row(id4)
	require.Equal(t, 12, k.ActivationsCount)
	require.Nil(t, k.ActivationLimit)
}

// A disabled, revoked or expired key refuses activation (license_inactive
// with current_status), validates as not valid with its code and no token,
// and still frees its devices.
func TestLicenseInactiveKeys(t *testing.T) {
	t.Parallel()
	f := newLicenseFixture(t, scaled)
	for _, tc := range []struct{ status, change string }{
		{"disabled", `UPDATE license_keys SET status = 'disabled' WHERE id = ?`},
		{"revoked", `UPDATE license_keys SET status = 'revoked' WHERE id = ?`},
		{"expired", `UPDATE license_keys SET expires_at = now() - interval '1 hour' WHERE id = ?`},
	} {
		id, key := f.key(intp(2))
		r := f.post("activate", map[string]any{"key": key, "fingerprint": "before"})
		require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
		f.exec(tc.change, id)

		p := problemOf(t, f.post("activate", map[string]any{"key": key, "fingerprint": "after"}), 409, "license_inactive")
		require.Equal(t, tc.status, p["current_status"], tc.status)
		// The device already active is refused too: idempotency does not
		// revive a key.
		p = problemOf(t, f.post("activate", map[string]any{"key": key, "fingerprint": "before"}), 409, "license_inactive")
		require.Equal(t, tc.status, p["current_status"], tc.status)

		for _, body := range []map[string]any{{"key": key}, {"key": key, "fingerprint": "before"}} {
			r = f.post("validate", body)
			require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
			v := r.JSON(t)
			require.Equal(t, false, v["valid"])
			require.Equal(t, tc.status, v["code"])
			require.Nil(t, v["token"])
			require.Contains(t, v, "token")
			require.Equal(t, tc.status, v["license_key"].(map[string]any)["status"])
		}

		r = f.post("deactivate", map[string]any{"key": key, "fingerprint": "before"})
		require.Equal(t, http.StatusNoContent, r.Status, "%s", r.Body)
		k, acts := f.row(id)
		require.Equal(t, 0, k.ActivationsCount, tc.status)
		require.Empty(t, acts)
	}
}

// Keys are found however they are typed; an unknown or malformed key is
// not_found; a key of another listing is refused at listing_id by
// activate and is listing_mismatch for validate.
func TestLicenseKeysAndListings(t *testing.T) {
	t.Parallel()
	f := newLicenseFixture(t, scaled)
	id, key := f.key(intp(5))

	compact := strings.ReplaceAll(key, "-", "")
	typed := []string{strings.ToLower(key), compact, " " + strings.Join(strings.Split(key, "-"), " - ") + " ", strings.ToLower(compact)}
	for i, k := range typed {
		r := f.post("activate", map[string]any{"key": k, "fingerprint": "typed"})
		require.Contains(t, []int{200, 201}, r.Status, "%q: %s", k, r.Body)
		require.Equal(t, id, r.JSON(t)["license_key"].(map[string]any)["id"], "%d", i)
	}

	other, _ := licensing.NewKey("")
	for _, k := range []string{other, "nope", "", strings.Repeat("A", 5000), "ABCDE-ABCDE-ABCDE-ABCDU"} {
		for _, route := range []string{"activate", "validate", "deactivate"} {
			p := problemOf(t, f.post(route, map[string]any{"key": k, "fingerprint": "x"}), 404, "not_found")
			if k != "" {
				require.NotContains(t, p["detail"], k)
			}
		}
	}

	p := problemOf(t, f.post("activate", map[string]any{"key": key, "fingerprint": "d", "listing_id": "lst_01jdx0v3k7q8r9s0t1u2v3w4x5"}),
		422, "validation_error")
	require.Equal(t, "listing_id", p["param"])
	r := f.post("activate", map[string]any{"key": key, "fingerprint": "d2", "listing_id": f.listingID})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)

	r = f.post("validate", map[string]any{"key": key, "fingerprint": "typed", "listing_id": "lst_other"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	v := r.JSON(t)
	require.Equal(t, false, v["valid"])
	require.Equal(t, "listing_mismatch", v["code"])
	require.Nil(t, v["token"])

	// Field bounds: validation_error, never a 500.
	for _, tc := range []struct {
		body  map[string]any
		param string
	}{
		{map[string]any{"key": key, "fingerprint": ""}, "fingerprint"},
		{map[string]any{"key": key, "fingerprint": strings.Repeat("é", 201)}, "fingerprint"},
		{map[string]any{"key": key, "fingerprint": "f", "label": strings.Repeat("x", 201)}, "label"},
		{map[string]any{"key": key, "fingerprint": "f", "metadata": map[string]any{"k": 1}}, "metadata.k"},
		{map[string]any{"key": key, "fingerprint": "f", "metadata": map[string]any{"k": strings.Repeat("v", 501)}}, "metadata.k"},
		{map[string]any{"key": key, "fingerprint": "f", "unknown": true}, "unknown"},
	} {
		p := problemOf(t, f.env.Do(testkit.Request{Method: "POST", Path: "/v1/licenses/activate", Body: tc.body}), 422, "validation_error")
		require.Equal(t, tc.param, p["param"])
	}
	many := map[string]any{}
	for i := range 21 {
		many[fmt.Sprint("k", i)] = "v"
	}
	p = problemOf(t, f.post("activate", map[string]any{"key": key, "fingerprint": "f", "metadata": many}), 422, "validation_error")
	require.Equal(t, "metadata", p["param"])
	p = problemOf(t, f.post("validate", map[string]any{"key": key, "fingerprint": ""}), 422, "validation_error")
	require.Equal(t, "fingerprint", p["param"])
}

// jwks reads the key set the service publishes.
func jwks(t *testing.T, env *testkit.Env) jose.JSONWebKeySet {
	t.Helper()
	r := env.Get("/.well-known/jwks.json", "")
	require.Equal(t, http.StatusOK, r.Status)
	var set jose.JSONWebKeySet
	r.Decode(t, &set)
	return set
}

// Validate with and without a device; the token verifies offline against
// the published key set with the key's claims, and not once altered.
func TestLicenseValidateAndToken(t *testing.T) {
	t.Parallel()
	f := newLicenseFixture(t, scaled)
	id, key := f.key(intp(2))
	exp := time.Now().Add(30 * 24 * time.Hour).UTC().Truncate(time.Second)
	f.exec(`UPDATE license_keys SET expires_at = ? WHERE id = ?`, exp, id)

	r := f.post("activate", map[string]any{"key": key, "fingerprint": "desk"})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	act := r.JSON(t)["activation"].(map[string]any)
	set := jwks(t, f.env)
	require.NotEmpty(t, set.Keys)

	check := func(tok string, act, fpr *string) {
		t.Helper()
		c, err := licensing.Verify(tok, set, time.Now())
		require.NoError(t, err)
		require.Equal(t, f.env.URL, c.Issuer)
		require.Equal(t, id, c.Subject)
		require.Equal(t, f.listingID, c.Listing)
		require.Equal(t, act, c.Activation)
		require.Equal(t, fpr, c.Fingerprint)
		require.NotNil(t, c.LicenseExpiry)
		require.Equal(t, exp.Unix(), *c.LicenseExpiry)
		require.InDelta(t, time.Now().Add(licensing.DefaultTokenTTL).Unix(), c.Expiry, 60)
	}
	actID, fpr := act["id"].(string), "desk"
	check(r.JSON(t)["token"].(string), &actID, &fpr)

	// With the device: valid, its activation, a token about it.
	before := time.Now().Add(-time.Second)
	r = f.post("validate", map[string]any{"key": key, "fingerprint": "desk", "listing_id": f.listingID})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	v := r.JSON(t)
	require.Equal(t, true, v["valid"])
	require.Equal(t, "valid", v["code"])
	require.Equal(t, actID, v["activation"].(map[string]any)["id"])
	require.Equal(t, map[string]any{"object": "license_key", "id": id, "status": "active", "listing_id": f.listingID,
		"activation_limit": 2.0, "activations_count": 1.0, "expires_at": exp.Format(time.RFC3339)}, v["license_key"])
	check(v["token"].(string), &actID, &fpr)
	k, acts := f.row(id)
	require.True(t, k.LastValidatedAt.After(before))
	require.True(t, acts[0].LastSeenAt.After(before))

	// Without a device: the key itself.
	r = f.post("validate", map[string]any{"key": key})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	v = r.JSON(t)
	require.Equal(t, true, v["valid"])
	require.Contains(t, v, "activation")
	require.Nil(t, v["activation"])
	check(v["token"].(string), nil, nil)

	// A device the key is not active on.
	r = f.post("validate", map[string]any{"key": key, "fingerprint": "stranger"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	v = r.JSON(t)
	require.Equal(t, false, v["valid"])
	require.Equal(t, "not_activated", v["code"])
	require.Nil(t, v["activation"])
	require.Nil(t, v["token"])

	// One character changed: refused.
	tok := []byte(f.post("validate", map[string]any{"key": key}).JSON(t)["token"].(string))
	parts := strings.Split(string(tok), ".")
	sig := []byte(parts[2])
	i := len(sig) / 2
	if sig[i] == 'A' {
		sig[i] = 'B'
	} else {
		sig[i] = 'A'
	}
	_, err := licensing.Verify(parts[0]+"."+parts[1]+"."+string(sig), set, time.Now())
	require.ErrorIs(t, err, licensing.ErrSignature)
	payload := []byte(parts[1])
	payload[len(payload)/2] ^= 1
	_, err = licensing.Verify(parts[0]+"."+string(payload)+"."+parts[2], set, time.Now())
	require.Error(t, err)
}

// Deactivate by fingerprint or by activation id frees the slot at once;
// exactly one of the two is required; an unknown device is not_found.
func TestLicenseDeactivate(t *testing.T) {
	t.Parallel()
	f := newLicenseFixture(t, scaled)
	id, key := f.key(intp(1))

	r := f.post("activate", map[string]any{"key": key, "fingerprint": "a"})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	problemOf(t, f.post("activate", map[string]any{"key": key, "fingerprint": "b"}), 409, "activation_limit_reached")

	r = f.post("deactivate", map[string]any{"key": key, "fingerprint": "a"})
	require.Equal(t, http.StatusNoContent, r.Status, "%s", r.Body)
	require.Empty(t, r.Body)
	k, acts := f.row(id)
	require.Equal(t, 0, k.ActivationsCount)
	require.Empty(t, acts)
	problemOf(t, f.post("deactivate", map[string]any{"key": key, "fingerprint": "a"}), 404, "not_found")

	r = f.post("activate", map[string]any{"key": key, "fingerprint": "b"})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	actID := r.JSON(t)["activation"].(map[string]any)["id"].(string)
	problemOf(t, f.post("deactivate", map[string]any{"key": key, "activation_id": "act_01jdx0v3k7q8r9s0t1u2v3w4x5"}), 404, "not_found")
	problemOf(t, f.post("deactivate", map[string]any{"key": key, "activation_id": "nope"}), 404, "not_found")
	r = f.post("deactivate", map[string]any{"key": key, "activation_id": actID})
	require.Equal(t, http.StatusNoContent, r.Status, "%s", r.Body)
	k, _ = f.row(id)
	require.Equal(t, 0, k.ActivationsCount)

	p := problemOf(t, f.post("deactivate", map[string]any{"key": key}), 422, "validation_error")
	require.Equal(t, "fingerprint", p["param"])
	p = problemOf(t, f.post("deactivate", map[string]any{"key": key, "fingerprint": "b", "activation_id": actID}), 422, "validation_error")
	require.Equal(t, "activation_id", p["param"])

	// Another key's activation is not this key's.
	_, key2 := f.key(intp(1))
	r = f.post("activate", map[string]any{"key": key2, "fingerprint": "c"})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	otherAct := r.JSON(t)["activation"].(map[string]any)["id"].(string)
	problemOf(t, f.post("deactivate", map[string]any{"key": key, "activation_id": otherAct}), 404, "not_found")
}

// Any origin may call the public routes: the preflight says so, and so do
// the answers, refusals included.
func TestLicenseCORS(t *testing.T) {
	t.Parallel()
	f := newLicenseFixture(t, scaled)
	_, key := f.key(intp(1))
	for _, route := range []string{"activate", "validate", "deactivate"} {
		r := f.env.Do(testkit.Request{Method: "OPTIONS", Path: "/v1/licenses/" + route, Header: map[string]string{
			"Origin": "https://some-app.example", "Access-Control-Request-Method": "POST",
			"Access-Control-Request-Headers": "content-type, idempotency-key"}})
		require.Equal(t, http.StatusNoContent, r.Status, "%s", r.Body)
		require.Equal(t, "*", r.Header.Get("Access-Control-Allow-Origin"))
		require.Contains(t, r.Header.Get("Access-Control-Allow-Methods"), "POST")
		require.Contains(t, r.Header.Get("Access-Control-Allow-Headers"), "Content-Type")
		require.Contains(t, r.Header.Get("Access-Control-Allow-Headers"), "Idempotency-Key")
		require.Empty(t, r.Header.Get("Access-Control-Allow-Credentials"))
	}
	for _, tc := range []struct {
		route  string
		body   map[string]any
		status int
	}{
		{"activate", map[string]any{"key": key, "fingerprint": "web"}, 201},
		{"activate", map[string]any{"key": key, "fingerprint": "web2"}, 409},
		{"validate", map[string]any{"key": key}, 200},
		{"validate", map[string]any{"key": "nope"}, 404},
		{"deactivate", map[string]any{"key": key, "fingerprint": "web"}, 204},
	} {
		r := f.env.Do(testkit.Request{Method: "POST", Path: "/v1/licenses/" + tc.route, Body: tc.body,
			Header: map[string]string{"Origin": "https://some-app.example"}})
		require.Equal(t, tc.status, r.Status, "%s", r.Body)
		require.Equal(t, "*", r.Header.Get("Access-Control-Allow-Origin"))
		require.Contains(t, r.Header.Get("Access-Control-Expose-Headers"), "RateLimit-Remaining")
	}
}

// 60 a minute per client IP and 20 per key, the headers reporting the
// binding one: after 20 calls on one key its limit refuses while another
// key from the same address still works, until the address's limit binds.
func TestLicenseRateLimits(t *testing.T) {
	t.Parallel()
	f := newLicenseFixture(t)
	_, keyA := f.key(intp(1))
	_, keyB := f.key(intp(1))
	_, keyC := f.key(intp(1))

	limits := func(r *testkit.Response) (limit, remaining string) {
		return r.Header.Get("RateLimit-Limit"), r.Header.Get("RateLimit-Remaining")
	}
	for i := 1; i <= 20; i++ { // the key has fewer left than the address (40 left after 20)
		r := f.post("validate", map[string]any{"key": keyA})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		l, rem := limits(r)
		require.Equal(t, "20", l, "call %d", i)
		require.Equal(t, fmt.Sprint(20-i), rem, "call %d", i)
	}
	p := problemOf(t, f.post("validate", map[string]any{"key": keyA}), 429, "rate_limited") // address: 21 used
	require.GreaterOrEqual(t, p["retry_after"], 1.0)
	l, rem := limits(f.post("validate", map[string]any{"key": strings.ToLower(keyA)})) // address: 22
	require.Equal(t, "20", l)
	require.Equal(t, "0", rem)

	for i := 1; i <= 20; i++ { // key B: 20-i left, the address 38-i: the key binds
		r := f.post("validate", map[string]any{"key": keyB})
		require.Equal(t, http.StatusOK, r.Status, "call %d: %s", i, r.Body)
		l, rem := limits(r)
		require.Equal(t, "20", l, "call %d", i)
		require.Equal(t, fmt.Sprint(20-i), rem, "call %d", i)
	}
	// Address: 42 used. Key C: 20-i left, the address 18-i: the address binds.
	for i := 1; i <= 18; i++ {
		r := f.post("validate", map[string]any{"key": keyC})
		require.Equal(t, http.StatusOK, r.Status, "call %d: %s", i, r.Body)
		l, rem := limits(r)
		require.Equal(t, "60", l, "call %d", i)
		require.Equal(t, fmt.Sprint(18-i), rem, "call %d", i)
	}
	// The address is spent: refused before the key is looked at, with the
	// address's headers; a malformed key too.
	for _, k := range []string{keyC, "nope"} {
		r := f.post("validate", map[string]any{"key": k})
		problemOf(t, r, 429, "rate_limited")
		l, rem := limits(r)
		require.Equal(t, "60", l)
		require.Equal(t, "0", rem)
		require.NotEmpty(t, r.Header.Get("Retry-After"))
		require.Equal(t, "*", r.Header.Get("Access-Control-Allow-Origin"))
	}
}

// gqlAnon posts a GraphQL operation with no key and returns data and errors.
func gqlAnon(t *testing.T, env *testkit.Env, query string, vars map[string]any) (map[string]any, []map[string]any) {
	t.Helper()
	r := env.Post("/graphql", "", map[string]any{"query": query, "variables": vars})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var out struct {
		Data   map[string]any   `json:"data"`
		Errors []map[string]any `json:"errors"`
	}
	r.Decode(t, &out)
	return out.Data, out.Errors
}

// The GraphQL mutations work without a key and agree with REST: the same
// activation, the same answers, the same refusals.
func TestLicenseGraphQL(t *testing.T) {
	t.Parallel()
	f := newLicenseFixture(t, scaled)
	id, key := f.key(intp(1))
	const activate = `mutation($in: ActivateLicenseInput!) { activateLicense(input: $in) {
		object valid code token licenseKey { object id status listingId activationLimit activationsCount expiresAt }
		activation { object id fingerprint label metadata } } }`
	data, errs := gqlAnon(t, f.env, activate, map[string]any{"in": map[string]any{"key": strings.ToLower(key),
		"fingerprint": "gql-device", "label": "Console", "metadata": map[string]any{"os": "mac"}, "listingId": f.listingID}})
	require.Empty(t, errs)
	v := data["activateLicense"].(map[string]any)
	require.Equal(t, "license_validation", v["object"])
	require.Equal(t, true, v["valid"])
	require.Equal(t, "VALID", v["code"])
	require.NotEmpty(t, v["token"])
	require.Equal(t, map[string]any{"object": "license_key", "id": id, "status": "ACTIVE", "listingId": f.listingID,
		"activationLimit": 1.0, "activationsCount": 1.0, "expiresAt": nil}, v["licenseKey"])
	act := v["activation"].(map[string]any)
	require.Equal(t, "gql-device", act["fingerprint"])

	// REST sees the same activation (200: already active).
	r := f.post("activate", map[string]any{"key": key, "fingerprint": "gql-device"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Equal(t, act["id"], r.JSON(t)["activation"].(map[string]any)["id"])

	// The same refusal, with its members under extensions.
	data, errs = gqlAnon(t, f.env, activate, map[string]any{"in": map[string]any{"key": key, "fingerprint": "second"}})
	require.Len(t, errs, 1)
	require.Nil(t, data["activateLicense"])
	ext := errs[0]["extensions"].(map[string]any)
	require.Equal(t, "activation_limit_reached", ext["code"])
	require.Equal(t, 1.0, ext["current_count"])
	require.Equal(t, 1.0, ext["max_count"])
	require.Equal(t, f.env.URL+"/library", ext["manage_url"])

	const validate = `mutation($in: ValidateLicenseInput!) { validateLicense(input: $in) { valid code token activation { id } } }`
	data, errs = gqlAnon(t, f.env, validate, map[string]any{"in": map[string]any{"key": key, "fingerprint": "gql-device"}})
	require.Empty(t, errs)
	v = data["validateLicense"].(map[string]any)
	require.Equal(t, true, v["valid"])
	require.Equal(t, "VALID", v["code"])
	require.Equal(t, act["id"], v["activation"].(map[string]any)["id"])
	data, errs = gqlAnon(t, f.env, validate, map[string]any{"in": map[string]any{"key": key, "fingerprint": "other"}})
	require.Empty(t, errs)
	require.Equal(t, map[string]any{"valid": false, "code": "NOT_ACTIVATED", "token": nil, "activation": nil}, data["validateLicense"])
	_, errs = gqlAnon(t, f.env, validate, map[string]any{"in": map[string]any{"key": "nope"}})
	require.Len(t, errs, 1)
	require.Equal(t, "not_found", errs[0]["extensions"].(map[string]any)["code"])

	const deactivate = `mutation($in: DeactivateLicenseInput!) { deactivateLicense(input: $in) }`
	data, errs = gqlAnon(t, f.env, deactivate, map[string]any{"in": map[string]any{"key": key, "activationId": act["id"]}})
	require.Empty(t, errs)
	require.Equal(t, true, data["deactivateLicense"])
	_, errs = gqlAnon(t, f.env, deactivate, map[string]any{"in": map[string]any{"key": key}})
	require.Len(t, errs, 1)
	require.Equal(t, "validation_error", errs[0]["extensions"].(map[string]any)["code"])
	k, _ := f.row(id)
	require.Equal(t, 0, k.ActivationsCount)
}

// license_key.activated and license_key.deactivated are recorded with the
// change and reach only the endpoints that list them (an endpoint with
// the default events gets none), with the key
// as its seller sees it and the device as data.activation.
func TestLicenseEvents(t *testing.T) {
	t.Parallel()
	f := newLicenseFixture(t, scaled, testkit.WithWorkers())
	type hit struct {
		endpoint string
		body     map[string]any
	}
	var mu sync.Mutex
	var hits []hit
	got := make(chan struct{}, 16)
	srv := httptestServer(t, func(path string, body map[string]any) {
		mu.Lock()
		hits = append(hits, hit{path, body})
		mu.Unlock()
		got <- struct{}{}
	})
	r := f.env.Post("/v1/webhooks", f.acc.Key, map[string]any{"url": srv + "/default"})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	defaultID := r.JSON(t)["id"].(string)
	require.NotContains(t, r.JSON(t)["events"], "license_key.activated")
	r = f.env.Post("/v1/webhooks", f.acc.Key, map[string]any{"url": srv + "/licenses",
		"events": []string{"license_key.activated", "license_key.deactivated"}})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	require.Equal(t, []any{"license_key.activated", "license_key.deactivated"}, r.JSON(t)["events"])

	id, key := f.key(intp(2))
	k, _ := f.row(id)
	r = f.post("activate", map[string]any{"key": key, "fingerprint": "hooked", "label": "Hooked"})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	actID := r.JSON(t)["activation"].(map[string]any)["id"]
	r = f.post("activate", map[string]any{"key": key, "fingerprint": "hooked"}) // no event: nothing changed
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	r = f.post("deactivate", map[string]any{"key": key, "fingerprint": "hooked"})
	require.Equal(t, http.StatusNoContent, r.Status, "%s", r.Body)

	var license []hit
	deadline := time.After(20 * time.Second)
	for len(license) < 2 {
		select {
		case <-got:
		case <-deadline:
			t.Fatalf("license events not delivered: %v", hits)
		}
		mu.Lock()
		license = license[:0]
		for _, h := range hits {
			if h.endpoint == "/licenses" {
				license = append(license, h)
			}
		}
		mu.Unlock()
	}
	require.Len(t, license, 2)
	// The dispatcher may post one endpoint's events concurrently: they
	// are found by type, not by arrival.
	byType := map[any]map[string]any{}
	for _, h := range license {
		byType[h.body["type"]] = h.body
	}
	for _, typ := range []string{"license_key.activated", "license_key.deactivated"} {
		ev := byType[typ]
		require.NotNil(t, ev, "%s delivered", typ)
		require.Equal(t, typ, ev["type"])
		require.Equal(t, k.OrderID, ev["order_id"])
		require.Equal(t, f.listingID, ev["listing_id"])
		data := ev["data"].(map[string]any)
		require.Equal(t, "license_key", data["object"])
		require.Equal(t, id, data["id"])
		require.Equal(t, key, data["key"])
		require.Equal(t, k.OrderID, data["order_id"])
		require.Equal(t, "active", data["status"])
		a := data["activation"].(map[string]any)
		require.Equal(t, actID, a["id"])
		require.Equal(t, "hooked", a["fingerprint"])
		require.Equal(t, "Hooked", a["label"])
		if typ == "license_key.activated" {
			require.Equal(t, 1.0, data["activations_count"])
			require.Len(t, data["activations"], 1)
		} else {
			require.Equal(t, 0.0, data["activations_count"])
			require.Empty(t, data["activations"])
		}
	}

	// The default endpoint has no delivery of them; the log has both, once.
	var n int
	require.NoError(t, f.env.Server.DB.NewSelect().Table("webhook_deliveries").ColumnExpr("count(*)").
		Where("endpoint_id = ?", defaultID).Where("type LIKE 'license_key.%'").Scan(context.Background(), &n))
	require.Zero(t, n)
	for _, typ := range []string{"license_key.activated", "license_key.deactivated"} {
		r = f.env.Get("/v1/events?type="+typ, f.acc.Key)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.Len(t, r.JSON(t)["data"], 1, typ)
	}
	mu.Lock()
	for _, h := range hits {
		if h.endpoint == "/default" {
			require.True(t, strings.HasPrefix(h.body["type"].(string), "order."), h.body["type"])
		}
	}
	mu.Unlock()
}

// httptestServer is a webhook receiver answering 200 that hands each
// delivery's path and decoded body to got; it returns its URL.
func httptestServer(t *testing.T, got func(path string, body map[string]any)) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		if err := json.NewDecoder(r.Body).Decode(&body); err == nil {
			got(r.URL.Path, body)
		}
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}
