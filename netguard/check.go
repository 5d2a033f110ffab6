package netguard

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"syscall"
	"time"
)

// checkTimeout bounds CheckURL: the spec's "within 5 s".
const checkTimeout = 5 * time.Second

// URLError is why CheckURL refused a URL. Reason, and so Error, is a short
// phrase suitable for showing to an API user ("must use https", "answered
// 404"); Err is the underlying error, if any.
type URLError struct {
	URL    string
	Reason string
	Err    error
}

func (e *URLError) Error() string { return e.Reason }

func (e *URLError) Unwrap() error { return e.Err }

// CheckURL verifies that rawURL is usable as a deliverable URL: absolute,
// https (http too when allowHTTP, which the service passes together with
// ALLOW_PRIVATE_TARGETS), and answering HEAD, or GET when HEAD answers with
// an error status, with a status below 400 within 5 s (or c.Timeout, if
// shorter). c should come from NewClient, which applies the address policy;
// redirects are followed only if c follows them. The error is a *URLError,
// or ctx's error when ctx ends first.
func CheckURL(ctx context.Context, c *http.Client, rawURL string, allowHTTP bool) error {
	u, err := url.Parse(rawURL)
	switch {
	case err != nil || u.Host == "" || u.Opaque != "":
		return &URLError{URL: rawURL, Reason: "is not a valid absolute URL", Err: err}
	case u.Scheme == "https":
	case u.Scheme == "http" && allowHTTP:
	default:
		return &URLError{URL: rawURL, Reason: "must use https"}
	}
	limit := checkTimeout
	if c.Timeout > 0 && c.Timeout < limit {
		limit = c.Timeout
	}
	cctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()

	status, err := probe(cctx, c, http.MethodHead, u.String())
	if err == nil && status >= 400 {
		status, err = probe(cctx, c, http.MethodGet, u.String())
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &URLError{URL: rawURL, Reason: reason(err, limit), Err: err}
	}
	if status >= 400 {
		return &URLError{URL: rawURL, Reason: fmt.Sprintf("answered %d", status)}
	}
	return nil
}

// probe sends one request and returns the status, reading at most 4 KB of
// the body.
func probe(ctx context.Context, c *http.Client, method, u string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, method, u, nil)
	if err != nil {
		return 0, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	_, _ = io.CopyN(io.Discard, resp.Body, 4<<10)
	_ = resp.Body.Close()
	return resp.StatusCode, nil
}

// reason turns a request error into a phrase for an API user.
func reason(err error, limit time.Duration) string {
	var (
		dnsErr  *net.DNSError
		certErr *tls.CertificateVerificationError
		hdrErr  tls.RecordHeaderError
		netErr  net.Error
	)
	switch {
	case errors.Is(err, ErrForbiddenAddress):
		return "resolves to a private or loopback address"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return fmt.Sprintf("did not answer within %s", seconds(limit))
	case errors.As(err, &dnsErr):
		return "has a host name that does not resolve"
	case errors.As(err, &certErr):
		return "has a TLS certificate that is not trusted or does not match the host"
	case errors.Is(err, errTooManyRedirects):
		return fmt.Sprintf("redirects more than %d times", maxRedirects)
	case errors.As(err, &hdrErr):
		return "does not speak TLS"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "refused the connection"
	default:
		return "could not be reached"
	}
}

// seconds formats a limit as "5 s" or "250 ms".
func seconds(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%d s", d/time.Second)
	}
	return fmt.Sprintf("%d ms", d.Milliseconds())
}
