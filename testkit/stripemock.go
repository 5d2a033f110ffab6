package testkit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// StripeMockKey is a secret key stripe-mock accepts (it accepts any sk_test_ key).
const StripeMockKey = "sk_test_123"

// StripeMockEndpointSecret is the signing secret of every webhook endpoint
// stripe-mock creates. Stripe returns an endpoint's secret in the response
// that creates it; stripe-mock's bundled fixture has none, so StripeMock
// serves this one.
const StripeMockEndpointSecret = "whsec_stripemock_endpoint_secret"

// StripeMockExpiresAt is the expires_at of every stripe-mock object that has
// one (account links, checkout sessions, …). stripe-mock's bundled fixtures
// say 2009-02-13, which would make every link and session born expired;
// StripeMock serves them with this date instead.
var StripeMockExpiresAt = time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)

const (
	stripeMockModule = "github.com/stripe/stripe-mock"
	// stripeMockBuildTimeout bounds locating (and on a cold cache, building)
	// the binary; stripeMockStartTimeout bounds starting it until it answers.
	stripeMockBuildTimeout = 5 * time.Minute
	stripeMockStartTimeout = 60 * time.Second
)

var stripeMock struct {
	once sync.Once
	url  string
	err  error
}

// StripeMock returns the base URL (http://127.0.0.1:PORT, no trailing slash)
// of a stripe-mock, started once per test binary from the version pinned by
// go.mod's tool directive (`go tool stripe-mock`), listening on free loopback
// ports. It runs until the test binary exits (it is killed with it). Use it
// with StripeMockKey as the secret key. stripe-mock is stateless: it checks
// requests against Stripe's OpenAPI spec and answers with fixtures.
//
// When stripe-mock cannot be started the test fails; it is never skipped.
func StripeMock(t testing.TB) string {
	t.Helper()
	stripeMock.once.Do(func() { stripeMock.url, stripeMock.err = startStripeMock(t) })
	if stripeMock.err != nil {
		t.Fatalf("stripe-mock: %v", stripeMock.err)
	}
	return stripeMock.url
}

func startStripeMock(t testing.TB) (string, error) {
	began := time.Now()
	goBin, err := exec.LookPath("go")
	if err != nil {
		root := os.Getenv("GOROOT")
		if root == "" {
			return "", fmt.Errorf("the go command is needed to run stripe-mock: %w", err)
		}
		goBin = filepath.Join(root, "bin", "go")
	}
	ctx, cancel := context.WithTimeout(context.Background(), stripeMockBuildTimeout)
	defer cancel()
	// `go tool -n` builds the tool if needed and prints the cached binary's path.
	bin, err := goOutput(ctx, goBin, "tool", "-n", "stripe-mock")
	if err != nil {
		return "", err
	}
	modDir, err := goOutput(ctx, goBin, "list", "-m", "-f", "{{.Dir}}", stripeMockModule)
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "stripe-mock-")
	if err != nil {
		return "", err
	}
	// stripe-mock reads its fixtures before it listens, so the file is no
	// longer needed once StripeMock returns.
	defer os.RemoveAll(dir)
	fixtures, err := writeStripeMockFixtures(filepath.Join(modDir, "embedded", "openapi", "fixtures3.json"), dir)
	if err != nil {
		return "", err
	}

	// Port 0 on both listeners: the system picks free ports and stripe-mock
	// prints them. (Without -https-addr it would also listen on :12112.)
	cmd := exec.Command(bin, "-http-addr", "127.0.0.1:0", "-https-addr", "127.0.0.1:0", "-fixtures", fixtures)
	// Linux kills stripe-mock when the thread that started it ends, which for
	// Go (whose runtime keeps the threads of unlocked goroutines) is when the
	// test binary exits, however it exits.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	var stderr LockedBuffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("start %s: %w", bin, err)
	}
	addrc := make(chan string, 1)
	exited := make(chan error, 1)
	go func() {
		// Read stdout to its end (stripe-mock logs every request there, and
		// must never block on a full pipe), then reap the process.
		r, found := bufio.NewReader(stdout), false
		for {
			line, err := r.ReadString('\n')
			if a, ok := strings.CutPrefix(strings.TrimSpace(line), "Listening for HTTP at address: "); ok && !found {
				found = true
				addrc <- a
			}
			if err != nil {
				break
			}
		}
		exited <- cmd.Wait()
	}()
	fail := func(err error) (string, error) {
		_ = cmd.Process.Kill()
		return "", fmt.Errorf("%w (stderr: %q)", err, stderr.String())
	}

	deadline := time.After(stripeMockStartTimeout)
	var base string
	select {
	case a := <-addrc:
		base = "http://" + a
	case err := <-exited:
		return fail(fmt.Errorf("exited before listening: %v", err))
	case <-deadline:
		return fail(fmt.Errorf("not listening after %s", stripeMockStartTimeout))
	}
	client := &http.Client{Timeout: 2 * time.Second}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for err := stripeMockAnswers(client, base); err != nil; err = stripeMockAnswers(client, base) {
		select {
		case err := <-exited:
			return fail(fmt.Errorf("exited: %v", err))
		case <-deadline:
			return fail(fmt.Errorf("%s does not answer after %s: %v", base, stripeMockStartTimeout, err))
		case <-tick.C:
		}
	}
	t.Logf("stripe-mock (%s) at %s, ready in %s", bin, base, time.Since(began).Round(time.Millisecond))
	return base, nil
}

// stripeMockAnswers is nil when stripe-mock at base answers an authenticated
// request with 200.
func stripeMockAnswers(client *http.Client, base string) error {
	req, err := http.NewRequest(http.MethodGet, base+"/v1/accounts", nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+StripeMockKey)
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET /v1/accounts: %s", resp.Status)
	}
	return nil
}

// writeStripeMockFixtures writes into dir a copy of stripe-mock's bundled
// fixtures in which every resource's expires_at is StripeMockExpiresAt and
// webhook endpoints have the secret StripeMockEndpointSecret, and returns
// its path.
func writeStripeMockFixtures(src, dir string) (string, error) {
	b, err := os.ReadFile(src)
	if err != nil {
		return "", fmt.Errorf("read stripe-mock's fixtures: %w", err)
	}
	var f struct {
		Resources map[string]json.RawMessage `json:"resources"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return "", fmt.Errorf("decode %s: %w", src, err)
	}
	if len(f.Resources) == 0 {
		return "", fmt.Errorf("%s has no resources", src)
	}
	expires := json.RawMessage(strconv.FormatInt(StripeMockExpiresAt.Unix(), 10))
	for name, raw := range f.Resources {
		var fields map[string]json.RawMessage
		if json.Unmarshal(raw, &fields) != nil {
			continue
		}
		if name == "webhook_endpoint" {
			fields["secret"], _ = json.Marshal(StripeMockEndpointSecret)
		} else if v, ok := fields["expires_at"]; !ok || string(v) == "null" {
			continue
		} else {
			fields["expires_at"] = expires
		}
		if f.Resources[name], err = json.Marshal(fields); err != nil {
			return "", err
		}
	}
	if b, err = json.Marshal(f); err != nil {
		return "", err
	}
	path := filepath.Join(dir, "fixtures.json")
	return path, os.WriteFile(path, b, 0o600)
}

// goOutput runs the go command and returns its trimmed standard output.
func goOutput(ctx context.Context, goBin string, args ...string) (string, error) {
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, goBin, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	s := strings.TrimSpace(string(out))
	if err == nil && s == "" {
		err = errors.New("no output")
	}
	if err != nil {
		return "", fmt.Errorf("go %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return s, nil
}
