// Package requestlog is the seller's request log (issue 29 item 5): the
// recent API requests each account's keys made, like Stripe's request log.
// A request is recorded in memory (Record: no I/O on the request path) and
// written in batches to a Redis stream per account (Run, Flush), which holds
// at most MaxEntries entries no older than MaxAge; List reads a page of it,
// newest first, filtered by key and status class.
//
// Decisions (docs/decisions.md, "The seller's request log"):
//
//   - Redis, not PostgreSQL: a log line per API request is the hottest write
//     the service would have, and nothing in it must survive Redis (it is
//     best effort, like the rate limits: lost when Redis is down). A stream
//     per account bounds itself: XTRIM by MINID (age) and MAXLEN (count) at
//     every flush, and a key TTL of MaxAge for an account that went quiet.
//   - Off the request path: Record appends to a bounded buffer under a
//     mutex; one pipeline every FlushEvery writes every account's entries.
//     A full buffer drops entries (Dropped counts them) rather than wait.
//   - An entry holds the key's id (never the secret), the method, the path
//     without its query string, the GraphQL operation or MCP tool, the
//     status, the correlation id, the time and the duration: nothing of the
//     body, query string or headers.
package requestlog

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/redis/go-redis/v9"
)

const (
	// MaxEntries is the most requests an account's log keeps: its newest.
	MaxEntries = 1000
	// MaxAge is how long a request stays in the log.
	MaxAge = 7 * 24 * time.Hour
	// FlushEvery is how often Run writes the recorded requests.
	FlushEvery = 500 * time.Millisecond
	// MaxPending bounds the requests held in memory between flushes; more
	// are dropped (Dropped).
	MaxPending = 20000
	// maxField bounds every stored string.
	maxField = 200
)

// Entry is one request.
type Entry struct {
	// Time is when the request arrived.
	Time time.Time
	// KeyID is the API key that made it (key_…).
	KeyID string
	// Method and Path are the HTTP method and the path (no query string).
	Method, Path string
	// Operation is the GraphQL operation or the MCP tool ("" for /v1).
	Operation string
	// Status is the response's HTTP status.
	Status int
	// CorrelationID is the response's x-correlation-id.
	CorrelationID string
	// Duration is how long the service took to answer.
	Duration time.Duration
}

// Stored is an entry read back, with its cursor.
type Stored struct {
	Entry
	// Cursor is the opaque position of the entry: List's After returns
	// the entries older than it.
	Cursor string
}

// Store records requests and reads them back, per account.
type Store struct {
	client redis.UniversalClient
	prefix string
	now    func() time.Time

	mu      sync.Mutex
	pending map[string][]Entry
	count   int
	dropped atomic.Int64
}

// Option configures a Store.
type Option func(*Store)

// WithClock replaces the store's clock (tests move it past MaxAge).
func WithClock(now func() time.Time) Option { return func(s *Store) { s.now = now } }

// New returns a Store on client; prefix namespaces its keys.
func New(client redis.UniversalClient, prefix string, opts ...Option) *Store {
	s := &Store{client: client, prefix: prefix, now: time.Now, pending: map[string][]Entry{}}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Key is the Redis key of accountID's log. The hash tag keeps it in one
// Redis Cluster slot.
func (s *Store) Key(accountID string) string { return s.prefix + "rq:{" + accountID + "}" }

// Record adds e to accountID's log at the next flush. It does no I/O; when
// MaxPending requests are already waiting, e is dropped and counted.
func (s *Store) Record(accountID string, e Entry) {
	if s == nil || accountID == "" {
		return
	}
	s.mu.Lock()
	if s.count >= MaxPending {
		s.mu.Unlock()
		s.dropped.Add(1)
		return
	}
	s.pending[accountID] = append(s.pending[accountID], e)
	s.count++
	s.mu.Unlock()
}

// Dropped is how many requests were not logged: the buffer was full, or
// Redis failed their flush.
func (s *Store) Dropped() int64 { return s.dropped.Load() }

// Run flushes every FlushEvery until ctx ends, then once more. The first
// failed flush of an outage is reported to warn (not every one while Redis
// stays down); the entries of a failed flush are dropped.
func (s *Store) Run(ctx context.Context, warn func(error)) {
	t := time.NewTicker(FlushEvery)
	defer t.Stop()
	failing := false
	flush := func(ctx context.Context) {
		err := s.Flush(ctx)
		if err != nil && !failing && warn != nil {
			warn(err)
		}
		failing = err != nil
	}
	for {
		select {
		case <-ctx.Done():
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
			flush(fctx)
			cancel()
			return
		case <-t.C:
			flush(ctx)
		}
	}
}

// Flush writes the recorded requests in one Redis round trip (a pipeline;
// on a Redis Cluster, one per node): per account, the entries older than
// MaxAge trimmed, the new ones added, the log cut to its MaxEntries newest
// and its TTL set to MaxAge.
func (s *Store) Flush(ctx context.Context) error {
	s.mu.Lock()
	batch, n := s.pending, s.count
	if n == 0 {
		s.mu.Unlock()
		return nil
	}
	s.pending, s.count = make(map[string][]Entry, len(batch)), 0
	s.mu.Unlock()

	cutoff := minID(s.now())
	pipe := s.client.Pipeline()
	for acc, entries := range batch {
		// Only the newest MaxEntries can outlive this flush's trim.
		if len(entries) > MaxEntries {
			entries = entries[len(entries)-MaxEntries:]
		}
		key := s.Key(acc)
		pipe.XTrimMinID(ctx, key, cutoff)
		for _, e := range entries {
			pipe.XAdd(ctx, &redis.XAddArgs{Stream: key, Values: encode(e)})
		}
		pipe.XTrimMaxLen(ctx, key, MaxEntries)
		pipe.PExpire(ctx, key, MaxAge)
	}
	if _, err := pipe.Exec(ctx); err != nil {
		s.dropped.Add(int64(n))
		return fmt.Errorf("requestlog: flush %d requests: %w", n, err)
	}
	return nil
}

// StatusClass narrows List to a class of statuses.
type StatusClass int

const (
	// AnyStatus lists every request.
	AnyStatus StatusClass = iota
	// Succeeded is a status below 400.
	Succeeded
	// ClientError is 4xx.
	ClientError
	// ServerError is 5xx.
	ServerError
)

func (c StatusClass) has(status int) bool {
	switch c {
	case Succeeded:
		return status < 400
	case ClientError:
		return status >= 400 && status < 500
	case ServerError:
		return status >= 500
	}
	return true
}

// Query is a page of List.
type Query struct {
	// Limit is the page size (at least 1).
	Limit int
	// After is the cursor of the last entry of the previous page ("" for
	// the first page).
	After string
	// KeyID keeps only this key's requests ("" for every key).
	KeyID string
	// Status keeps only this class of statuses.
	Status StatusClass
}

// ErrCursor is List's error for an After it did not issue.
var ErrCursor = errors.New("requestlog: not a cursor of the request log")

// scanChunk is how many entries List reads per round trip while filtering.
const scanChunk = 250

// List returns accountID's requests, newest first, that q's filters keep:
// at most q.Limit, and whether more follow. It reads at most the log's
// MaxEntries newest entries younger than MaxAge, so a filter costs a
// bounded scan. Errors: ErrCursor, and Redis's.
func (s *Store) List(ctx context.Context, accountID string, q Query) ([]Stored, bool, error) {
	limit := max(q.Limit, 1)
	start := "+"
	if q.After != "" {
		id, ok := decodeCursor(q.After)
		if !ok {
			return nil, false, ErrCursor
		}
		start = "(" + id
	}
	now := s.now()
	end, oldest := minID(now), now.Add(-MaxAge)
	filtered := q.KeyID != "" || q.Status != AnyStatus
	chunk := int64(limit + 1)
	if filtered {
		chunk = scanChunk
	}
	var out []Stored
	for scanned := 0; scanned < MaxEntries; {
		msgs, err := s.client.XRevRangeN(ctx, s.Key(accountID), start, end, chunk).Result()
		if err != nil {
			return nil, false, fmt.Errorf("requestlog: read: %w", err)
		}
		for _, m := range msgs {
			scanned++
			e, ok := decode(m.Values)
			if !ok || e.Time.Before(oldest) {
				continue
			}
			if (q.KeyID != "" && e.KeyID != q.KeyID) || !q.Status.has(e.Status) {
				continue
			}
			if len(out) == limit {
				return out, true, nil
			}
			out = append(out, Stored{Entry: e, Cursor: encodeCursor(m.ID)})
		}
		if int64(len(msgs)) < chunk {
			break
		}
		start = "(" + msgs[len(msgs)-1].ID
	}
	return out, false, nil
}

// minID is the smallest stream id younger than MaxAge at now.
func minID(now time.Time) string {
	return strconv.FormatInt(now.Add(-MaxAge).UnixMilli(), 10) + "-0"
}

// encode is an entry's stream fields.
func encode(e Entry) []any {
	return []any{
		"t", strconv.FormatInt(e.Time.UnixMilli(), 10),
		"k", clip(e.KeyID),
		"m", clip(e.Method),
		"p", clip(e.Path),
		"o", clip(e.Operation),
		"s", strconv.Itoa(e.Status),
		"c", clip(e.CorrelationID),
		"d", strconv.FormatInt(e.Duration.Milliseconds(), 10),
	}
}

// decode reads an entry's stream fields back.
func decode(v map[string]any) (Entry, bool) {
	str := func(k string) string { s, _ := v[k].(string); return s }
	t, err1 := strconv.ParseInt(str("t"), 10, 64)
	status, err2 := strconv.Atoi(str("s"))
	d, err3 := strconv.ParseInt(str("d"), 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return Entry{}, false
	}
	return Entry{
		Time: time.UnixMilli(t).UTC(), KeyID: str("k"), Method: str("m"), Path: str("p"), Operation: str("o"),
		Status: status, CorrelationID: str("c"), Duration: time.Duration(d) * time.Millisecond,
	}, true
}

// clip bounds a stored string and makes it valid UTF-8.
func clip(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= maxField {
		return s
	}
	s = s[:maxField]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

const cursorTag = "rq1:"

// encodeCursor is the opaque cursor of a stream id.
func encodeCursor(id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(cursorTag + id))
}

// decodeCursor is the stream id of a cursor encodeCursor issued.
func decodeCursor(c string) (string, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return "", false
	}
	id, ok := strings.CutPrefix(string(raw), cursorTag)
	if !ok {
		return "", false
	}
	ms, seq, ok := strings.Cut(id, "-")
	if !ok {
		return "", false
	}
	if _, err := strconv.ParseUint(ms, 10, 64); err != nil {
		return "", false
	}
	if _, err := strconv.ParseUint(seq, 10, 64); err != nil {
		return "", false
	}
	return id, true
}
