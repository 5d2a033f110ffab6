package requestlog_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"commerce/requestlog"
)

var client *redis.Client

func TestMain(m *testing.M) {
	url := os.Getenv("REDIS_URL")
	if url == "" {
		fmt.Fprintln(os.Stderr, "FAIL: REDIS_URL is not set; run make test")
		os.Exit(1)
	}
	opts, err := redis.ParseURL(url)
	if err != nil {
		fmt.Fprintln(os.Stderr, "FAIL: REDIS_URL:", err)
		os.Exit(1)
	}
	client = redis.NewClient(opts)
	os.Exit(m.Run())
}

// setup returns a store of its own keys and an account id.
func setup(t *testing.T, opts ...requestlog.Option) (*requestlog.Store, string) {
	t.Helper()
	var b [6]byte
	_, _ = rand.Read(b[:])
	return requestlog.New(client, "t"+hex.EncodeToString(b[:])+":", opts...), "acc_" + hex.EncodeToString(b[:])
}

func entry(i int, key string, status int) requestlog.Entry {
	return requestlog.Entry{Time: time.Now(), KeyID: key, Method: "GET", Path: fmt.Sprintf("/v1/orders/%d", i),
		Status: status, CorrelationID: fmt.Sprintf("corr-%d", i), Duration: 3 * time.Millisecond}
}

// Recording does no I/O; a flush writes what was recorded, read back newest
// first with every field, in pages whose cursors chain.
func TestRecordFlushList(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, acc := setup(t)
	for i := range 5 {
		s.Record(acc, entry(i, "key_a", 200))
	}
	got, more, err := s.List(ctx, acc, requestlog.Query{Limit: 10})
	require.NoError(t, err)
	require.Empty(t, got, "nothing is written before the flush")
	require.False(t, more)

	require.NoError(t, s.Flush(ctx))
	got, more, err = s.List(ctx, acc, requestlog.Query{Limit: 2})
	require.NoError(t, err)
	require.True(t, more)
	require.Len(t, got, 2)
	require.Equal(t, "/v1/orders/4", got[0].Path)
	require.Equal(t, "corr-4", got[0].CorrelationID)
	require.Equal(t, "key_a", got[0].KeyID)
	require.Equal(t, "GET", got[0].Method)
	require.Equal(t, 200, got[0].Status)
	require.Equal(t, 3*time.Millisecond, got[0].Duration)
	require.WithinDuration(t, time.Now(), got[0].Time, 5*time.Second)

	var paths []string
	after := ""
	for {
		page, more, err := s.List(ctx, acc, requestlog.Query{Limit: 2, After: after})
		require.NoError(t, err)
		for _, e := range page {
			paths = append(paths, e.Path)
		}
		if !more {
			break
		}
		after = page[len(page)-1].Cursor
	}
	require.Equal(t, []string{"/v1/orders/4", "/v1/orders/3", "/v1/orders/2", "/v1/orders/1", "/v1/orders/0"}, paths)

	_, _, err = s.List(ctx, acc, requestlog.Query{Limit: 2, After: "nope"})
	require.ErrorIs(t, err, requestlog.ErrCursor)
}

// The log keeps an account's MaxEntries newest requests, however many were
// made.
func TestBoundedByCount(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, acc := setup(t)
	for i := range requestlog.MaxEntries + 150 {
		s.Record(acc, entry(i, "key_a", 200))
		if i%400 == 0 {
			require.NoError(t, s.Flush(ctx))
		}
	}
	require.NoError(t, s.Flush(ctx))
	n, err := client.XLen(ctx, s.Key(acc)).Result()
	require.NoError(t, err)
	require.Equal(t, int64(requestlog.MaxEntries), n, "entries stored")
	var total int
	after := ""
	for {
		page, more, err := s.List(ctx, acc, requestlog.Query{Limit: 100, After: after})
		require.NoError(t, err)
		total += len(page)
		if !more {
			require.Equal(t, fmt.Sprintf("/v1/orders/%d", 150), page[len(page)-1].Path, "the oldest kept")
			break
		}
		after = page[len(page)-1].Cursor
	}
	require.Equal(t, requestlog.MaxEntries, total)

	// More than MaxEntries in one flush: its newest are kept.
	one := acc + "b"
	for i := range requestlog.MaxEntries + 200 {
		s.Record(one, entry(i, "key_a", 200))
	}
	require.NoError(t, s.Flush(ctx))
	n, err = client.XLen(ctx, s.Key(one)).Result()
	require.NoError(t, err)
	require.Equal(t, int64(requestlog.MaxEntries), n)
	first, err := client.XRangeN(ctx, s.Key(one), "-", "+", 1).Result()
	require.NoError(t, err)
	require.Equal(t, "/v1/orders/200", first[0].Values["p"])
}

// A request older than MaxAge is neither listed nor kept: the next flush
// trims it, and a quiet account's log expires whole.
func TestBoundedByAge(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, acc := setup(t)
	old := entry(1, "key_a", 200)
	old.Time = time.Now().Add(-requestlog.MaxAge - time.Minute)
	s.Record(acc, old)
	s.Record(acc, entry(2, "key_a", 200))
	require.NoError(t, s.Flush(ctx))
	got, _, err := s.List(ctx, acc, requestlog.Query{Limit: 10})
	require.NoError(t, err)
	require.Len(t, got, 1, "the request older than MaxAge is not listed")
	require.Equal(t, "/v1/orders/2", got[0].Path)
	ttl, err := client.PTTL(ctx, s.Key(acc)).Result()
	require.NoError(t, err)
	require.InDelta(t, requestlog.MaxAge.Seconds(), ttl.Seconds(), 60, "the log expires MaxAge after its last write")

	// MaxAge later (the store's clock moved on), both are past it: not
	// listed, and the next flush trims them before adding its own.
	later := requestlog.New(client, prefixOf(s, acc), requestlog.WithClock(func() time.Time { return time.Now().Add(requestlog.MaxAge + time.Minute) }))
	got, _, err = later.List(ctx, acc, requestlog.Query{Limit: 10})
	require.NoError(t, err)
	require.Empty(t, got)
	fresh := entry(3, "key_a", 200)
	fresh.Time = time.Now().Add(requestlog.MaxAge + time.Minute)
	later.Record(acc, fresh)
	require.NoError(t, later.Flush(ctx))
	msgs, err := client.XRange(ctx, s.Key(acc), "-", "+").Result()
	require.NoError(t, err)
	require.Len(t, msgs, 1, "the old entries trimmed")
	require.Equal(t, "/v1/orders/3", msgs[0].Values["p"])
}

// prefixOf is the prefix s was built with.
func prefixOf(s *requestlog.Store, acc string) string {
	k := s.Key(acc)
	return k[:len(k)-len("rq:{"+acc+"}")]
}

// One account's log never shows another's requests; filters by key and
// status class page through the log.
func TestScopedAndFiltered(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, acc := setup(t)
	other := acc + "x"
	statuses := []int{200, 201, 404, 422, 500, 302}
	for i := range 60 {
		s.Record(acc, entry(i, []string{"key_a", "key_b"}[i%2], statuses[i%len(statuses)]))
	}
	s.Record(other, entry(1000, "key_o", 200))
	require.NoError(t, s.Flush(ctx))

	all := func(q requestlog.Query) []requestlog.Stored {
		var out []requestlog.Stored
		for {
			page, more, err := s.List(ctx, acc, q)
			require.NoError(t, err)
			out = append(out, page...)
			if !more {
				return out
			}
			q.After = page[len(page)-1].Cursor
		}
	}
	got := all(requestlog.Query{Limit: 7})
	require.Len(t, got, 60)
	for _, e := range got {
		require.NotEqual(t, "key_o", e.KeyID, "another account's request")
	}
	require.Empty(t, all(requestlog.Query{Limit: 7, KeyID: "key_o"}), "another account's key")
	b := all(requestlog.Query{Limit: 7, KeyID: "key_b"})
	require.Len(t, b, 30)
	for _, e := range b {
		require.Equal(t, "key_b", e.KeyID)
	}
	for class, want := range map[requestlog.StatusClass]int{requestlog.Succeeded: 30, requestlog.ClientError: 20, requestlog.ServerError: 10} {
		got := all(requestlog.Query{Limit: 3, Status: class})
		require.Len(t, got, want, "class %d", class)
	}
	both := all(requestlog.Query{Limit: 4, KeyID: "key_a", Status: requestlog.ServerError})
	require.Len(t, both, 10)

	o, _, err := s.List(ctx, other, requestlog.Query{Limit: 100})
	require.NoError(t, err)
	require.Len(t, o, 1)
}

// A full buffer drops requests instead of growing; a long field is cut.
func TestBoundedMemoryAndFields(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, acc := setup(t)
	for range requestlog.MaxPending + 5 {
		s.Record(acc+"y", requestlog.Entry{Time: time.Now()})
	}
	require.Equal(t, int64(5), s.Dropped())
	require.NoError(t, s.Flush(ctx))
	e := entry(1, "key_a", 200)
	e.Path = "/v1/" + string(make([]byte, 5000))
	s.Record(acc, e)
	require.NoError(t, s.Flush(ctx))
	got, _, err := s.List(ctx, acc, requestlog.Query{Limit: 1})
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.LessOrEqual(t, len(got[0].Path), 200)
}

// What a request pays (Record) and what a flush pays per entry, on one
// account as the bench's key is.
func BenchmarkRecord(b *testing.B) {
	s := requestlog.New(client, "bench:")
	e := entry(1, "key_01jdx0000000000000000000zz", 200)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s.Record("acc_bench", e)
		if i%10000 == 9999 {
			b.StopTimer()
			_ = s.Flush(context.Background())
			b.StartTimer()
		}
	}
}

func BenchmarkFlushPerEntry(b *testing.B) {
	ctx := context.Background()
	s := requestlog.New(client, "bench:")
	e := entry(1, "key_01jdx0000000000000000000zz", 200)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		for range 500 {
			s.Record("acc_bench", e)
		}
		b.StartTimer()
		if err := s.Flush(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*500), "ns/entry")
}
