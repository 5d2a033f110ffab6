package analytics

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"hash"
	"sort"
	"sync"
	"time"
)

// ViewWindow is how long a client's view of a listing stands for all its
// views of it: one view per client (IP and user agent) per listing per 30
// minutes (CONTRACT §23).
const ViewWindow = 30 * time.Minute

// Defaults of CounterOptions.
const (
	DefaultFlushEvery = 5 * time.Second
	// DefaultMaxClients bounds the clients remembered (about 80 bytes
	// each: some 20 MB at most).
	DefaultMaxClients = 250_000
	// DefaultMaxCounts is how many (listing, day) counters wait before a
	// flush is started early.
	DefaultMaxCounts = 10_000
)

// maxUserAgent bounds the user agent hashed.
const maxUserAgent = 512

// ViewKey is a listing's UTC day.
type ViewKey struct {
	ListingID string
	Day       time.Time // UTC midnight
}

// ViewCount is the views of a listing's day counted since the last flush.
type ViewCount struct {
	ViewKey
	Views int64
}

// CounterOptions configure a Counter.
type CounterOptions struct {
	// Flush writes a batch (sorted by listing and day) at once; a batch
	// that fails is kept and added to the next one.
	Flush func(ctx context.Context, batch []ViewCount) error
	// Every is how often Run flushes (DefaultFlushEvery).
	Every time.Duration
	// MaxClients bounds the clients remembered (DefaultMaxClients). Past
	// it a view is counted without its client being remembered, so that
	// client's next view counts again: the count errs high, never low,
	// and memory stays bounded.
	MaxClients int
	// MaxCounts starts a flush early (DefaultMaxCounts).
	MaxCounts int
	// Now is the clock (time.Now).
	Now func() time.Time
}

// clientID is a keyed hash of (listing, IP, user agent): nothing personal
// is kept, and the key is forgotten within an hour.
type clientID [16]byte

// generation is the clients first seen under one hash key. The key
// rotates every ViewWindow, so a generation's entries have all expired
// one rotation after it stops taking new ones, and it is dropped whole.
type generation struct {
	mac     hash.Hash
	clients map[clientID]time.Time // expiry
}

func newGeneration() *generation {
	var key [32]byte
	_, _ = rand.Read(key[:])
	return &generation{mac: hmac.New(sha256.New, key[:]), clients: map[clientID]time.Time{}}
}

func (g *generation) id(listingID, ip, userAgent string) clientID {
	g.mac.Reset()
	g.mac.Write([]byte(listingID))
	g.mac.Write([]byte{0})
	g.mac.Write([]byte(ip))
	g.mac.Write([]byte{0})
	g.mac.Write([]byte(userAgent))
	var id clientID
	copy(id[:], g.mac.Sum(nil))
	return id
}

// Counter counts product-page views in memory, one per client per listing
// per ViewWindow, and hands per-day counts to its flush function in
// batches (no write per view). Safe for concurrent use.
type Counter struct {
	opts CounterOptions
	kick chan struct{}

	mu        sync.Mutex
	cur, prev *generation
	rotatedAt time.Time
	counts    map[ViewKey]int64
	flushMu   sync.Mutex // one flush at a time
}

// NewCounter returns a Counter with opts.
func NewCounter(opts CounterOptions) *Counter {
	if opts.Every <= 0 {
		opts.Every = DefaultFlushEvery
	}
	if opts.MaxClients <= 0 {
		opts.MaxClients = DefaultMaxClients
	}
	if opts.MaxCounts <= 0 {
		opts.MaxCounts = DefaultMaxCounts
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Counter{opts: opts, kick: make(chan struct{}, 1), cur: newGeneration(), prev: newGeneration(),
		rotatedAt: opts.Now(), counts: map[ViewKey]int64{}}
}

// Record counts a view of listingID by the client (ip, userAgent) unless
// the client's view of it in the last ViewWindow was counted.
func (c *Counter) Record(listingID, ip, userAgent string) {
	if listingID == "" {
		return
	}
	if len(userAgent) > maxUserAgent {
		userAgent = userAgent[:maxUserAgent]
	}
	now := c.opts.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rotate(now)
	if exp, ok := c.prev.clients[c.prev.id(listingID, ip, userAgent)]; ok && now.Before(exp) {
		return
	}
	id := c.cur.id(listingID, ip, userAgent)
	if exp, ok := c.cur.clients[id]; ok && now.Before(exp) {
		return
	}
	if len(c.cur.clients)+len(c.prev.clients) < c.opts.MaxClients {
		c.cur.clients[id] = now.Add(ViewWindow)
	}
	u := now.UTC()
	k := ViewKey{ListingID: listingID, Day: time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.UTC)}
	c.counts[k]++
	if len(c.counts) >= c.opts.MaxCounts {
		select {
		case c.kick <- struct{}{}:
		default:
		}
	}
}

// rotate starts a new key every ViewWindow, dropping the generation whose
// entries have all expired. Called with mu held.
func (c *Counter) rotate(now time.Time) {
	switch since := now.Sub(c.rotatedAt); {
	case since >= 2*ViewWindow:
		c.prev, c.cur, c.rotatedAt = newGeneration(), newGeneration(), now
	case since >= ViewWindow:
		c.prev, c.cur, c.rotatedAt = c.cur, newGeneration(), now
	}
}

// Clients is how many clients are remembered.
func (c *Counter) Clients() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rotate(c.opts.Now())
	return len(c.cur.clients) + len(c.prev.clients)
}

// Flush hands the counts since the last flush to the flush function in
// one batch; when it fails they are kept for the next flush.
func (c *Counter) Flush(ctx context.Context) error {
	c.flushMu.Lock()
	defer c.flushMu.Unlock()
	c.mu.Lock()
	counts := c.counts
	if len(counts) == 0 {
		c.mu.Unlock()
		return nil
	}
	c.counts = make(map[ViewKey]int64, len(counts))
	c.mu.Unlock()
	batch := make([]ViewCount, 0, len(counts))
	for k, n := range counts {
		batch = append(batch, ViewCount{ViewKey: k, Views: n})
	}
	// One order for every process's batch: concurrent upserts of the same
	// rows take their locks in the same order.
	sort.Slice(batch, func(i, j int) bool {
		if batch[i].ListingID != batch[j].ListingID {
			return batch[i].ListingID < batch[j].ListingID
		}
		return batch[i].Day.Before(batch[j].Day)
	})
	if err := c.opts.Flush(ctx, batch); err != nil {
		c.mu.Lock()
		for k, n := range counts {
			c.counts[k] += n
		}
		c.mu.Unlock()
		return err
	}
	return nil
}

// Run flushes every opts.Every (and early when many counts wait) until ctx
// ends, then once more, within 5 seconds, so the last views are kept.
// Failures go to onError (may be nil).
func (c *Counter) Run(ctx context.Context, onError func(error)) {
	report := func(err error) {
		if err != nil && onError != nil {
			onError(err)
		}
	}
	t := time.NewTicker(c.opts.Every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			report(c.Flush(fctx))
			cancel()
			return
		case <-t.C:
		case <-c.kick:
		}
		report(c.Flush(ctx))
	}
}
