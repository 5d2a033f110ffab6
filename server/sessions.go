package server

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"commerce/problem"
	"commerce/resolvers"
	"commerce/rest"
)

// The developer console's session cookie on /graphql (CONTRACT §15). The
// use cases (resolvers/console.go) hand the session's token to a
// resolvers.SessionSink; this file turns it into the cookie, and the cookie
// back into the request's principal.

// SessionCookie is the name of the console session's cookie.
const SessionCookie = "commerce_session"

// consoleSessions authenticates /graphql requests by the session cookie
// when no API key did.
type consoleSessions struct {
	res    *resolvers.Resolver
	ps     rest.Problems
	secure bool // BASE_URL is https: the cookie is Secure
	cop    *http.CrossOriginProtection
}

func newConsoleSessions(res *resolvers.Resolver, ps rest.Problems, baseURL, consoleURL string) *consoleSessions {
	cop := http.NewCrossOriginProtection()
	for _, o := range ownOrigins(baseURL, consoleURL) {
		_ = cop.AddTrustedOrigin(o) // ownOrigins gives scheme://host, which it accepts
	}
	u, _ := url.Parse(baseURL)
	return &consoleSessions{res: res, ps: ps, secure: u != nil && u.Scheme == "https", cop: cop}
}

// sessionAuthKey carries the outcome of the cookie of a websocket upgrade to
// connection_init (websocketTransport), which decides only when the payload
// brings no key.
type sessionAuthKey struct{}

type sessionAuth struct {
	p   resolvers.Principal
	err error
}

// authenticate runs after the API key's authentication. A request that no
// key authenticated and that carries the cookie is authenticated by it:
// from another origin (Sec-Fetch-Site, Origin: http.CrossOriginProtection)
// it is refused with 403 permission_denied, and a session that is unknown,
// signed out or expired gets 401 authentication_error with the cookie
// cleared. A same-origin POST also gets the sink through which signIn and
// signOut set and clear the cookie. A websocket upgrade is not refused here
// (its Origin was checked, and connection_init may bring a key): the
// cookie's outcome waits for connection_init.
func (c *consoleSessions) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		sameOrigin := c.cop.Check(r) == nil
		_, keyed := resolvers.PrincipalFrom(ctx)
		if ck, err := r.Cookie(SessionCookie); err == nil && ck.Value != "" && !keyed {
			if isWebsocketUpgrade(r) {
				p, err := c.res.AuthenticateSession(ctx, ck.Value)
				ctx = context.WithValue(ctx, sessionAuthKey{}, sessionAuth{p: p, err: err})
				next.ServeHTTP(w, r.WithContext(ctx))
				return
			}
			if !sameOrigin {
				c.ps.Write(w, r, problem.New(problem.PermissionDenied,
					"A request authenticated by the console session cookie must come from the service's own origin."))
				return
			}
			p, err := c.res.AuthenticateSession(ctx, ck.Value)
			if err != nil && ctx.Err() != nil {
				return // the client went away (a navigation canceled it): nobody to answer, nothing to log
			}
			if err != nil {
				if problem.From(err) != nil {
					http.SetCookie(w, c.cookie("", -1))
				}
				c.ps.Write(w, r, err)
				return
			}
			ctx = resolvers.WithPrincipal(ctx, p)
		}
		if sameOrigin && r.Method == http.MethodPost {
			ctx = resolvers.WithSessionSink(ctx, &cookieSink{w: w, c: c})
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// readSession authenticates a REST GET of a Session route (the CSV
// exports, rest.Route.Session) by the cookie when no key did, so that the
// console's "Export CSV" control can be a plain download link.
// http.CrossOriginProtection lets every GET through (a GET changes
// nothing), but an export's GET reads the seller's data: the request is
// checked as an unsafe one would be, so one whose Sec-Fetch-Site or Origin
// shows another origin gets 403 permission_denied (CONTRACT §15), and
// the response is never readable by another origin (no CORS headers). An
// unknown, signed-out or expired session gets 401 with the cookie cleared.
func (c *consoleSessions) readSession(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		ck, err := r.Cookie(SessionCookie)
		if _, keyed := resolvers.PrincipalFrom(ctx); keyed || err != nil || ck.Value == "" {
			next.ServeHTTP(w, r)
			return
		}
		probe := *r
		probe.Method = http.MethodPost
		if c.cop.Check(&probe) != nil {
			c.ps.Write(w, r, problem.New(problem.PermissionDenied,
				"A request authenticated by the console session cookie must come from the service's own origin."))
			return
		}
		p, err := c.res.AuthenticateSession(ctx, ck.Value)
		if err != nil && ctx.Err() != nil {
			return // the client went away
		}
		if err != nil {
			if problem.From(err) != nil {
				http.SetCookie(w, c.cookie("", -1))
			}
			c.ps.Write(w, r, err)
			return
		}
		rest.NoteAccount(ctx, p.AccountID)
		next.ServeHTTP(w, r.WithContext(resolvers.WithPrincipal(ctx, p)))
	})
}

// cookie is the session cookie with value, living maxAge seconds (negative:
// delete it now).
func (c *consoleSessions) cookie(value string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: SessionCookie, Value: value, Path: "/", MaxAge: maxAge,
		HttpOnly: true, Secure: c.secure, SameSite: http.SameSiteLaxMode}
}

// cookieSink sets and clears the cookie on the response of the request
// whose operation opened or ended a session. The GraphQL POST transport
// writes the response after the operation ran, so the header is in time.
type cookieSink struct {
	mu sync.Mutex
	w  http.ResponseWriter
	c  *consoleSessions
}

// SessionOpened sets the cookie; it lives as long as the session
// (resolvers.ConsoleSessionLife).
func (s *cookieSink) SessionOpened(token string, _ time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.setCookie(s.c.cookie(token, int(resolvers.ConsoleSessionLife/time.Second)))
}

// SessionEnded deletes the cookie.
func (s *cookieSink) SessionEnded() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.setCookie(s.c.cookie("", -1))
}

// setCookie replaces an earlier session cookie of this response.
func (s *cookieSink) setCookie(ck *http.Cookie) {
	h := s.w.Header()
	var keep []string
	for _, v := range h.Values("Set-Cookie") {
		if !strings.HasPrefix(v, SessionCookie+"=") {
			keep = append(keep, v)
		}
	}
	h.Del("Set-Cookie")
	for _, v := range keep {
		h.Add("Set-Cookie", v)
	}
	h.Add("Set-Cookie", ck.String())
}

// sessionFromUpgrade is the principal of a websocket's session cookie,
// for a connection_init without a key: ok is false when the upgrade
// carried no cookie.
func sessionFromUpgrade(ctx context.Context) (resolvers.Principal, bool, error) {
	sa, ok := ctx.Value(sessionAuthKey{}).(sessionAuth)
	if !ok {
		return resolvers.Principal{}, false, nil
	}
	return sa.p, true, sa.err
}
