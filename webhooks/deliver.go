package webhooks

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"commerce/netguard"
)

// Limits of one delivery attempt.
const (
	// Timeout bounds a whole attempt: connecting, sending and receiving
	// the response headers and the kept part of the body.
	Timeout = 10 * time.Second
	// MaxResponseBody is how much of the response body an Attempt keeps.
	MaxResponseBody = 4096
	// MaxRetryAfter caps the Retry-After an endpoint can ask for.
	MaxRetryAfter = 24 * time.Hour
	// maxDrain is how much more of the body is read and discarded so the
	// connection can be reused; a longer body is cut off by closing.
	maxDrain = 64 << 10
)

var (
	errInvalidURL = errors.New("webhooks: invalid endpoint URL")
	errNilClient  = errors.New("webhooks: nil HTTP client")
	errBadSecret  = errors.New("webhooks: invalid signing secret")
)

// Attempt is the outcome of one delivery attempt.
type Attempt struct {
	StatusCode int           // 0 when no response
	Body       string        // the response body, first 4 KiB (4096 bytes), valid UTF-8 (invalid bytes replaced)
	Duration   time.Duration // from the start of the attempt until the response (and its kept body) or the error
	Err        error         // transport error (timeout, refused, forbidden address…), nil when a response came
	RetryAfter time.Duration // from a Retry-After header (seconds or HTTP-date) on 429/503; 0 otherwise; capped at 24 h

	// limit is the time the attempt was allowed, for ErrorText.
	limit time.Duration
}

// Success reports whether the endpoint answered with a 2xx status.
func (a Attempt) Success() bool {
	return a.Err == nil && a.StatusCode >= 200 && a.StatusCode <= 299
}

// Permanent reports whether the failure must not be retried: the endpoint
// answered 410 Gone.
func (a Attempt) Permanent() bool {
	return a.Err == nil && a.StatusCode == http.StatusGone
}

// ErrorText is a short description of the failure, fit to show an API user
// (last_error, the test result's error): "HTTP 500", "timeout after 10s",
// "connection refused", "address not allowed (private or loopback)", ….
// It is empty for a success (and for the zero Attempt).
func (a Attempt) ErrorText() string {
	if a.Err != nil {
		return errorText(a.Err, a.limit)
	}
	switch {
	case a.StatusCode == 0 || a.Success():
		return ""
	case a.StatusCode >= 300 && a.StatusCode <= 399:
		return fmt.Sprintf("HTTP %d (redirects are not followed)", a.StatusCode)
	default:
		return fmt.Sprintf("HTTP %d", a.StatusCode)
	}
}

// errorText turns a transport error into a phrase for an API user.
func errorText(err error, limit time.Duration) string {
	var (
		dnsErr  *net.DNSError
		certErr *tls.CertificateVerificationError
		hdrErr  tls.RecordHeaderError
		alert   tls.AlertError
		netErr  net.Error
	)
	switch {
	case errors.Is(err, netguard.ErrForbiddenAddress):
		return "address not allowed (private or loopback)"
	case errors.Is(err, errInvalidURL):
		return "invalid URL"
	case errors.Is(err, errBadSecret):
		return "invalid signing secret"
	case errors.Is(err, errNilClient):
		return "internal error"
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		if limit <= 0 {
			return "timeout"
		}
		// A limit from ctx is a little less than the caller chose:
		// round 9.9997s to 10s and 199.98ms to 200ms.
		if limit >= time.Second {
			limit = limit.Round(100 * time.Millisecond)
		} else {
			limit = max(limit.Round(10*time.Millisecond), time.Millisecond)
		}
		return "timeout after " + limit.String()
	case errors.As(err, &dnsErr):
		if dnsErr.IsNotFound {
			return "host name does not resolve"
		}
		return "DNS lookup failed"
	case errors.As(err, &certErr):
		return "TLS certificate not trusted or not valid for the host"
	case errors.As(err, &hdrErr):
		return "endpoint does not speak TLS"
	case errors.As(err, &alert):
		return "TLS handshake failed"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	case errors.Is(err, syscall.EHOSTUNREACH):
		return "host unreachable"
	case errors.Is(err, syscall.ENETUNREACH):
		return "network unreachable"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "connection closed without a response"
	default:
		return "request failed"
	}
}

// Deliver makes one delivery attempt: it POSTs body to rawURL with the
// signed headers of Headers (msgID as webhook-id, now as webhook-timestamp)
// through client, which should come from netguard.NewClient so the address
// policy applies. Redirects are never followed, whatever client does: a 3xx
// is a failure with its status code. The attempt is bounded by Timeout
// (10 s), or less when ctx ends sooner or client.Timeout is shorter. At most
// MaxResponseBody bytes of the response are kept and at most 64 KiB more
// are drained before the body is closed. On 429 and 503 a Retry-After
// header (delay-seconds, or an HTTP-date taken relative to now plus the
// time elapsed) sets RetryAfter.
func Deliver(ctx context.Context, client *http.Client, rawURL, secret, msgID string, body []byte, now time.Time) Attempt {
	return attempt(ctx, client, rawURL, body, now, func() (http.Header, error) { return Headers(secret, msgID, now, body) })
}

// DeliverACP makes one delivery attempt to an agent platform (ACP's order
// webhooks, CONTRACT §25): as Deliver, but signed with Merchant-Signature
// (MerchantSignature: the HMAC of "{t}.{body}" keyed with secret as it
// is) instead of Standard Webhooks' headers, and with Request-Id (msgID)
// and Timestamp (now, RFC 3339) as ACP's webhook API names them.
func DeliverACP(ctx context.Context, client *http.Client, rawURL, secret, msgID string, body []byte, now time.Time) Attempt {
	return attempt(ctx, client, rawURL, body, now, func() (http.Header, error) {
		if secret == "" {
			return nil, errBadSecret
		}
		h := make(http.Header, 5)
		h.Set(HeaderMerchantSignature, MerchantSignature(secret, now, body))
		h.Set("Request-Id", msgID)
		h.Set("Timestamp", now.UTC().Format(time.RFC3339))
		h.Set("Content-Type", "application/json")
		h.Set("User-Agent", UserAgent)
		return h, nil
	})
}

// attempt is one delivery attempt (Deliver, DeliverACP): the time limit,
// the URL's check, the signed headers from headers, then post.
func attempt(ctx context.Context, client *http.Client, rawURL string, body []byte, now time.Time, headers func() (http.Header, error)) Attempt {
	start := time.Now()
	limit := Timeout
	if client != nil && client.Timeout > 0 && client.Timeout < limit {
		limit = client.Timeout
	}
	if dl, ok := ctx.Deadline(); ok {
		if left := dl.Sub(start); left < limit {
			limit = left
		}
	}
	a := Attempt{limit: limit}
	fail := func(err error) Attempt {
		a.Err = err
		a.Duration = time.Since(start)
		return a
	}
	if client == nil {
		return fail(errNilClient)
	}
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fail(errInvalidURL)
	}
	hdr, err := headers()
	if err != nil {
		return fail(err)
	}
	return post(ctx, client, u, hdr, body, now, start, a)
}

// post sends one attempt's request (see Deliver).
func post(ctx context.Context, client *http.Client, u *url.URL, hdr http.Header, body []byte, now, start time.Time, a Attempt) Attempt {
	fail := func(err error) Attempt {
		a.Err = err
		a.Duration = time.Since(start)
		return a
	}
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return fail(fmt.Errorf("%w: %w", errInvalidURL, err))
	}
	req.Header = hdr

	c := *client // a shallow copy, so as never to follow redirects
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Do(req)
	if err != nil {
		return fail(err)
	}
	defer func() {
		_, _ = io.CopyN(io.Discard, resp.Body, maxDrain)
		_ = resp.Body.Close()
	}()
	a.StatusCode = resp.StatusCode
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
		a.RetryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), now.Add(time.Since(start)))
	}
	// A failure while reading the body keeps what was read: the status
	// code, which decides the outcome, has arrived.
	kept, _ := io.ReadAll(io.LimitReader(resp.Body, MaxResponseBody))
	a.Body = responseText(kept, len(kept) == MaxResponseBody)
	a.Duration = time.Since(start)
	return a
}

// responseText makes the kept part of a response body valid UTF-8 of at
// most MaxResponseBody bytes. When the body was cut, a character split by
// the cut is dropped rather than replaced.
func responseText(b []byte, cut bool) string {
	if cut {
		for i := 1; i < utf8.UTFMax && i <= len(b); i++ {
			if utf8.RuneStart(b[len(b)-i]) {
				if !utf8.FullRune(b[len(b)-i:]) {
					b = b[:len(b)-i]
				}
				break
			}
		}
	}
	s := strings.ToValidUTF8(string(b), "\uFFFD")
	for len(s) > MaxResponseBody { // replacement characters can lengthen it
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	return s
}

// parseRetryAfter reads a Retry-After value, delay-seconds or an HTTP-date
// (relative to at), as a duration in [0, MaxRetryAfter]. An absent or
// malformed value is 0.
func parseRetryAfter(v string, at time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if strings.Trim(v, "0123456789") == "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n > int64(MaxRetryAfter/time.Second) {
			return MaxRetryAfter // only overflow fails: all digits
		}
		return time.Duration(n) * time.Second
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0
	}
	return min(max(t.Sub(at), 0), MaxRetryAfter)
}
