package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
)

// requestTimeout bounds one HTTP request.
const requestTimeout = 10 * time.Second

// httpScenario is the setup of a scenario that sends method path to the
// service with its API key.
func httpScenario(method, path string) func(context.Context, *env) (opFactory, func(), error) {
	return func(_ context.Context, e *env) (opFactory, func(), error) {
		newOp, cleanup := httpOps(method, e.cfg.endpoint(path), e.cfg.key, e.cfg.concurrency)
		return newOp, cleanup, nil
	}
}

// endpoint is the URL of path on the service.
func (c config) endpoint(path string) string {
	return strings.TrimRight(c.url, "/") + path
}

// httpOps returns a factory of operations sending method url (with key as a
// bearer token unless empty) and a cleanup closing their connections. Each
// worker has its own Transport, hence its own keep-alive connection; a
// response other than 2xx is an error.
func httpOps(method, url, key string, concurrency int) (opFactory, func()) {
	var transports []*http.Transport
	newOp := func(int) op {
		tr := newTransport(concurrency)
		transports = append(transports, tr) // the factory runs on one goroutine
		client := &http.Client{Transport: tr, Timeout: requestTimeout}
		return func(ctx context.Context) error { return doRequest(ctx, client, method, url, key) }
	}
	cleanup := func() {
		for _, tr := range transports {
			tr.CloseIdleConnections()
		}
	}
	return newOp, cleanup
}

// newTransport returns a worker's Transport.
func newTransport(concurrency int) *http.Transport {
	return &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        concurrency,
		MaxIdleConnsPerHost: concurrency,
		IdleConnTimeout:     time.Minute,
		DisableCompression:  true,
	}
}

// getJSON sends GET url with key as a bearer token and decodes the JSON
// body into v; a status other than 200 is an error. Setups use it to check
// what a scenario will read.
func getJSON(ctx context.Context, url, key string, v any) error {
	return sendJSON(ctx, http.MethodGet, url, key, nil, http.StatusOK, v)
}

// sendJSON sends method url with key as a bearer token and body (when not
// nil) as JSON, and decodes the response into v (when not nil); a status
// other than want is an error. Setups use it to create what a scenario uses.
func sendJSON(ctx context.Context, method, url, key string, body any, want int, v any) error {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+key)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Close = true // a one-off: keep no idle connection to the service
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return fmt.Errorf("%s %s: read response: %w", method, url, err)
	}
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: HTTP %d, want %d: %.300s", method, url, resp.StatusCode, want, b)
	}
	if v != nil {
		if err := json.Unmarshal(b, v); err != nil {
			return fmt.Errorf("%s %s: %w", method, url, err)
		}
	}
	return nil
}

// doRequest sends one request and reads the whole response, so that the
// connection is reused.
func doRequest(ctx context.Context, client *http.Client, method, url, key string) error {
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		return err
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return fmt.Errorf("read response: %w", err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	return nil
}
