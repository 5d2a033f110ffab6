// Command licenseclient is the license check of a desktop app sold on
// commerce, as docs/licenses.md explains it: activate the buyer's key on
// this device once, keep the signed token the service returns, verify it
// offline at every start, and refresh it while the network is there.
//
// It uses only the standard library and go-jose (a maintained JOSE
// library) and nothing of the service's own code: copy it into your app.
//
//	licenseclient -service https://shop.example.com -key ACME-7K2QW-… -state ~/.config/myapp/license.json
//
// Exit status: 0 the app may start, 1 it may not (the reason is printed),
// 2 a usage error.
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// listingID is the product this app is: a key bought for another of the
// seller's listings does not unlock it. Set it at build time
// (-ldflags "-X main.listingID=lst_…") or with -listing.
var listingID = ""

// refreshBefore: with the network there, a token with less than this left
// is exchanged for a fresh one (tokens live 14 days by default), so that a
// laptop that goes offline tomorrow still starts for two weeks.
const refreshBefore = 7 * 24 * time.Hour

// leeway forgives a device clock that is a little off.
const leeway = 5 * time.Minute

// state is what the app keeps on disk between starts: the last token and
// the key set that verifies it.
type state struct {
	Key   string             `json:"key"`
	Token string             `json:"token"`
	JWKS  jose.JSONWebKeySet `json:"jwks"`
}

// claims are the token's claims (docs/licenses.md, "The token").
type claims struct {
	Issuer      string  `json:"iss"`
	Subject     string  `json:"sub"`
	Listing     string  `json:"lst"`
	Activation  *string `json:"act"`
	Fingerprint *string `json:"fpr"`
	// LicenseExpiry is when the license key itself expires (null: never).
	LicenseExpiry *int64 `json:"lexp"`
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout))
}

func run(args []string, out io.Writer) int {
	fs := flag.NewFlagSet("licenseclient", flag.ContinueOnError)
	service := fs.String("service", "", "the store's service URL (the iss of its tokens)")
	key := fs.String("key", "", "the buyer's license key (only needed the first time)")
	statePath := fs.String("state", "license.json", "where the token is kept")
	offline := fs.Bool("offline", false, "never use the network (as on a plane)")
	fs.StringVar(&listingID, "listing", listingID, "the listing this app is (lst_…)")
	device := fs.String("device", "", "a name for this device, shown to the buyer (default: the host name)")
	fpr := fs.String("fingerprint", "", "this device's id (default: a hash of the machine id)")
	if err := fs.Parse(args); err != nil || *service == "" {
		fmt.Fprintln(out, "usage: licenseclient -service URL [-key KEY] [-state FILE] [-listing lst_…] [-offline]")
		return 2
	}
	c := &client{service: strings.TrimRight(*service, "/"), http: &http.Client{Timeout: 10 * time.Second},
		fingerprint: fingerprint(), device: *device, now: time.Now}
	if *fpr != "" {
		c.fingerprint = *fpr
	}
	if c.device == "" {
		c.device, _ = os.Hostname()
	}
	st, _ := load(*statePath)
	if *key != "" && *key != st.Key {
		st = state{Key: *key} // a new key: forget the old token
	}
	if st.Key == "" {
		fmt.Fprintln(out, "not licensed: enter your license key (it is in your download email)")
		return 1
	}
	ok, msg := c.check(context.Background(), &st, *offline)
	if err := save(*statePath, st); err != nil {
		fmt.Fprintln(out, "warning: cannot keep the token:", err)
	}
	fmt.Fprintln(out, msg)
	if !ok {
		return 1
	}
	return 0
}

type client struct {
	service     string
	http        *http.Client
	fingerprint string
	device      string
	now         func() time.Time
}

// check decides whether the app may start: a token that verifies offline
// is enough; online, a token near its end (or none, or one that no longer
// verifies) is refreshed by validating the key on this device, and a key
// not active here yet is activated.
func (c *client) check(ctx context.Context, st *state, offline bool) (bool, string) {
	cl, exp, err := c.verify(st.Token, st.JWKS)
	if err == nil && (offline || exp.Sub(c.now()) > refreshBefore) {
		return true, fmt.Sprintf("licensed (offline check): %s until %s", cl.Subject, exp.UTC().Format(time.RFC3339))
	}
	if offline {
		if st.Token == "" {
			return false, "not licensed: connect to the internet once to activate this device"
		}
		return false, "not licensed: " + err.Error() + "; connect to the internet to refresh the license"
	}
	v, err := c.validate(ctx, st.Key)
	if err == nil && v.Code == "not_activated" {
		v, err = c.activate(ctx, st.Key)
	}
	if err != nil {
		return false, "not licensed: " + err.Error()
	}
	if !v.Valid || v.Token == nil {
		st.Token = ""
		return false, "not licensed: this key is " + strings.ReplaceAll(v.Code, "_", " ")
	}
	st.Token = *v.Token
	cl, exp, err = c.verify(st.Token, st.JWKS)
	if errors.Is(err, jose.ErrJWKSKidNotFound) {
		// The service signs with a new key: fetch the key set again.
		if st.JWKS, err = c.keys(ctx); err == nil {
			cl, exp, err = c.verify(st.Token, st.JWKS)
		}
	}
	if err != nil {
		st.Token = ""
		return false, "not licensed: the service's token does not verify: " + err.Error()
	}
	return true, fmt.Sprintf("licensed (online check, token refreshed): %s until %s", cl.Subject, exp.UTC().Format(time.RFC3339))
}

// verify checks a token offline: EdDSA only, signed by a key of jwks,
// issued by this service for this listing and this device, not expired,
// and the license key itself not expired. It returns the claims and when
// the token ends.
func (c *client) verify(token string, jwks jose.JSONWebKeySet) (claims, time.Time, error) {
	if token == "" {
		return claims{}, time.Time{}, errors.New("no token yet")
	}
	tok, err := jwt.ParseSigned(token, []jose.SignatureAlgorithm{jose.EdDSA})
	if err != nil {
		return claims{}, time.Time{}, fmt.Errorf("the token is damaged: %w", err)
	}
	var std jwt.Claims
	var cl claims
	if err := tok.Claims(jwks, &std, &cl); err != nil {
		return claims{}, time.Time{}, fmt.Errorf("the token's signature does not verify: %w", err)
	}
	if err := std.ValidateWithLeeway(jwt.Expected{Issuer: c.service, Time: c.now()}, leeway); err != nil || std.Expiry == nil {
		return claims{}, time.Time{}, fmt.Errorf("the token has expired or is not this service's: %v", err)
	}
	switch {
	case listingID != "" && cl.Listing != listingID:
		return claims{}, time.Time{}, errors.New("the key is for another product")
	case cl.Fingerprint == nil || *cl.Fingerprint != c.fingerprint:
		return claims{}, time.Time{}, errors.New("the token is for another device")
	case cl.LicenseExpiry != nil && c.now().Unix() >= *cl.LicenseExpiry:
		return claims{}, time.Time{}, errors.New("the license has expired")
	}
	return cl, std.Expiry.Time(), nil
}

// validation is the service's answer to activate and validate.
type validation struct {
	Valid bool    `json:"valid"`
	Code  string  `json:"code"`
	Token *string `json:"token"`
}

// problem is the service's error (RFC 9457).
type problem struct {
	Code      string `json:"code"`
	Detail    string `json:"detail"`
	ManageURL string `json:"manage_url"`
}

func (c *client) validate(ctx context.Context, key string) (validation, error) {
	return c.post(ctx, "/v1/licenses/validate", map[string]any{"key": key, "fingerprint": c.fingerprint, "listing_id": optional(listingID)})
}

func (c *client) activate(ctx context.Context, key string) (validation, error) {
	return c.post(ctx, "/v1/licenses/activate", map[string]any{"key": key, "fingerprint": c.fingerprint,
		"label": c.device, "listing_id": optional(listingID)})
}

func (c *client) post(ctx context.Context, path string, body map[string]any) (validation, error) {
	b, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.service+path, bytes.NewReader(b))
	if err != nil {
		return validation{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return validation{}, fmt.Errorf("cannot reach the license service: %w", err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode >= 300 {
		var p problem
		_ = json.Unmarshal(data, &p)
		switch {
		case p.Code == "activation_limit_reached":
			return validation{}, fmt.Errorf("this key is in use on as many devices as it allows; free one at %s", p.ManageURL)
		case p.Detail != "":
			return validation{}, errors.New(p.Detail)
		}
		return validation{}, fmt.Errorf("the license service answered %s", resp.Status)
	}
	var v validation
	if err := json.Unmarshal(data, &v); err != nil {
		return validation{}, fmt.Errorf("the license service's answer is not readable: %w", err)
	}
	return v, nil
}

// keys fetches the service's published key set.
func (c *client) keys(ctx context.Context) (jose.JSONWebKeySet, error) {
	var set jose.JSONWebKeySet
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.service+"/.well-known/jwks.json", nil)
	if err != nil {
		return set, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return set, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return set, fmt.Errorf("the key set answered %s", resp.Status)
	}
	return set, json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&set)
}

// fingerprint tells this device apart without saying anything about it:
// a hash of the machine id (Linux), else of the host name.
func fingerprint() string {
	id, err := os.ReadFile("/etc/machine-id")
	if err != nil || len(bytes.TrimSpace(id)) == 0 {
		h, _ := os.Hostname()
		id = []byte(h)
	}
	sum := sha256.Sum256(append([]byte("licenseclient:"), bytes.TrimSpace(id)...))
	return hex.EncodeToString(sum[:16])
}

func optional(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func load(path string) (state, error) {
	var st state
	b, err := os.ReadFile(path)
	if err != nil {
		return st, err
	}
	return st, json.Unmarshal(b, &st)
}

func save(path string, st state) error {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}
