package main_test

import (
	"cmp"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// The guide's Go client (docs/licenses.md), built and run as a seller's
// app would run it, against the real service: a buyer's key bought through
// the sandbox activates this device; the app then starts offline from the
// stored token, refuses a token with one character changed, refreshes it
// online, follows a rotation of the service's signing key (old tokens keep
// verifying), and is told where to free a device when the key's limit is
// reached.
func TestLicenseClientExample(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	noRedirect := env.HTTP.Client()
	noRedirect.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

	// A seller sells an app with license keys: two devices per key.
	onb := env.Post("/v1/account/processor/connect", acc.Key, nil)
	require.Equal(t, 200, onb.Status, "%s", onb.Body)
	resp, err := noRedirect.PostForm(onb.JSON(t)["url"].(string), url.Values{"currency": {"usd"}})
	require.NoError(t, err)
	resp.Body.Close()
	r := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Acme Draw " + testkit.Unique(), "price": 4900,
		"license": map[string]any{"activation_limit": 2, "key_prefix": "ACME"}})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	listing := r.JSON(t)["id"].(string)
	require.Equal(t, 200, env.Post("/v1/listings/"+listing+"/publish", acc.Key, nil).Status)

	// A buyer pays in the sandbox; the order's key is issued.
	r = env.Post("/v1/checkouts", acc.Key, map[string]any{"listing_id": listing, "buyer_email": "ada@example.com"})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	var co struct {
		URL     string `json:"url"`
		OrderID string `json:"order_id"`
	}
	r.Decode(t, &co)
	resp, err = noRedirect.PostForm(co.URL, url.Values{"outcome": {"paid"}})
	require.NoError(t, err)
	resp.Body.Close()
	var key string
	require.Eventually(t, func() bool {
		var list struct {
			Data []struct {
				Key string `json:"key"`
			} `json:"data"`
		}
		env.Get("/v1/license-keys?order="+co.OrderID, acc.Key).Decode(t, &list)
		if len(list.Data) == 1 {
			key = list.Data[0].Key
		}
		return key != ""
	}, 10*time.Second, 50*time.Millisecond, "the order's license key is issued")
	require.True(t, strings.HasPrefix(key, "ACME-"), key)

	bin := filepath.Join(t.TempDir(), "licenseclient")
	out, err := exec.Command(cmp.Or(os.Getenv("GO"), "go"), "build", "-o", bin, "commerce/docs/examples/licenseclient").CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	state := filepath.Join(t.TempDir(), "license.json")
	app := func(fingerprint string, args ...string) (int, string) {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"-service", env.URL, "-listing", listing, "-state", state,
			"-fingerprint", fingerprint, "-device", "test " + fingerprint}, args...)...)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if err != nil {
			require.ErrorAs(t, err, &exit, "%s", out)
			return exit.ExitCode(), string(out)
		}
		return 0, string(out)
	}
	readState := func() map[string]any {
		b, err := os.ReadFile(state)
		require.NoError(t, err)
		var st map[string]any
		require.NoError(t, json.Unmarshal(b, &st))
		return st
	}
	writeState := func(st map[string]any) {
		b, err := json.Marshal(st)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(state, b, 0o600))
	}

	// Offline before any activation: the app asks for the network.
	code, msg := app("laptop", "-key", key, "-offline")
	require.Equal(t, 1, code, msg)
	require.Contains(t, msg, "connect to the internet once")

	// Online: the key, typed in lower case, activates this device.
	code, msg = app("laptop", "-key", strings.ToLower(key))
	require.Equal(t, 0, code, msg)
	require.Contains(t, msg, "licensed (online check")
	firstToken := readState()["token"].(string)
	require.NotEmpty(t, firstToken)
	var keys struct {
		Data []struct {
			ActivationsCount int `json:"activations_count"`
		} `json:"data"`
	}
	env.Get("/v1/license-keys?order="+co.OrderID, acc.Key).Decode(t, &keys)
	require.Equal(t, 1, keys.Data[0].ActivationsCount)

	// Every later start needs no network: the token verifies offline.
	code, msg = app("laptop", "-offline")
	require.Equal(t, 0, code, msg)
	require.Contains(t, msg, "licensed (offline check)")

	// A token with one character of its signature changed is refused.
	st := readState()
	tok := st["token"].(string)
	i := len(tok) - 10 // inside the signature
	swap := byte('A')
	if tok[i] == 'A' {
		swap = 'B'
	}
	st["token"] = tok[:i] + string(swap) + tok[i+1:]
	writeState(st)
	code, msg = app("laptop", "-offline")
	require.Equal(t, 1, code, msg)
	require.Contains(t, msg, "signature does not verify")
	// Online, the app validates the key on this device and gets a good token again.
	code, msg = app("laptop")
	require.Equal(t, 0, code, msg)
	require.Contains(t, msg, "token refreshed")
	env.Get("/v1/license-keys?order="+co.OrderID, acc.Key).Decode(t, &keys)
	require.Equal(t, 1, keys.Data[0].ActivationsCount, "validating does not take a second slot")

	// The service rotates its signing key: a new token names a kid the
	// app's copy of the key set lacks, so the app fetches the set again;
	// the first token still verifies against it.
	_, err = env.Server.Resolver.RotateLicenseSigningKey(context.Background())
	require.NoError(t, err)
	st = readState()
	delete(st, "token")
	writeState(st)
	code, msg = app("laptop")
	require.Equal(t, 0, code, msg)
	st = readState()
	require.NotEqual(t, firstToken, st["token"])
	require.Len(t, st["jwks"].(map[string]any)["keys"], 2, "the app holds the new key and the old one")
	st["token"] = firstToken
	writeState(st)
	code, msg = app("laptop", "-offline")
	require.Equal(t, 0, code, "a token signed before the rotation still verifies: %s", msg)

	// A second device fits the limit of two; a third is told where to free one.
	state2 := state
	state = filepath.Join(t.TempDir(), "license.json")
	code, msg = app("desktop", "-key", key)
	require.Equal(t, 0, code, msg)
	state = filepath.Join(t.TempDir(), "license.json")
	code, msg = app("tablet", "-key", key)
	require.Equal(t, 1, code, msg)
	require.Contains(t, msg, "free one at "+env.URL+"/library")
	state = state2

	// The service answers the example's exact requests from any origin
	// (a web app): the JWKS is public.
	resp, err = env.HTTP.Client().Get(env.URL + "/.well-known/jwks.json")
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
	require.Contains(t, string(body), `"crv":"Ed25519"`)
}
