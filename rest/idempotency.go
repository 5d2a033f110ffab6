package rest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"io"
	"mime"
	"net/http"
	"strconv"
	"time"

	"commerce/db"
	"commerce/problem"
	"commerce/resolvers"
)

// replayedHeaders are the response headers kept with an idempotent response.
var replayedHeaders = []string{"Content-Type", "Location", "Cache-Control"}

// Idempotent implements CONTRACT §5 on POST requests that carry an
// Idempotency-Key: the first request executes and its 2xx/4xx response is
// stored for 24 h; the same request again replays it byte for byte with
// Idempotent-Replayed: true; the key with another request is 422
// idempotency_key_reuse; the key while the first is running is 409
// idempotency_request_in_progress. A 5xx releases the key.
func (a *API) Idempotent(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := r.Header.Get("Idempotency-Key")
		if r.Method != http.MethodPost || key == "" {
			next.ServeHTTP(w, r)
			return
		}
		if !validIdempotencyKey(key) {
			p := problem.New(problem.InvalidRequest, "Idempotency-Key must be 1 to 255 printable ASCII characters.")
			p.Param = "Idempotency-Key"
			a.Problems.Write(w, r, p)
			return
		}
		scope := "ip:" + ClientIP(r.Context())
		if p, ok := resolvers.PrincipalFrom(r.Context()); ok {
			scope = p.AccountID
		}
		h := sha256.New()
		io.WriteString(h, r.Method+"\n"+r.URL.Path+"\n")
		if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "multipart/form-data" {
			// Uploads stream: they are never read ahead to be hashed. Their
			// fingerprint is the declared length (multipart boundaries
			// differ from one try to the next).
			io.WriteString(h, "multipart\n"+strconv.FormatInt(r.ContentLength, 10))
		} else {
			body, tooLarge, err := ReadBody(r, maxJSONBody)
			if err != nil {
				a.Problems.Write(w, r, problem.New(problem.InvalidRequest, "The request body could not be read."))
				return
			}
			if tooLarge {
				a.Problems.Write(w, r, problem.New(problem.InvalidRequest, "The request body is larger than 1 MB."))
				return
			}
			BufferBody(r, body)
			h.Write(body)
		}
		fp := h.Sum(nil)

		claim := time.Now()
		state, stored, err := a.DB.ClaimIdempotencyKey(r.Context(), scope, key, fp, claim)
		if err != nil {
			// The claim may have committed with its answer lost (the
			// database failed over under it): released, the client's
			// retry is not refused as in progress until it goes stale.
			a.releaseIdempotencyKey(context.WithoutCancel(r.Context()), scope, key, claim)
			a.Problems.Write(w, r, err)
			return
		}
		switch state {
		case db.IdemReplay:
			for k, v := range stored.Headers {
				w.Header().Set(k, v)
			}
			w.Header().Set("Idempotent-Replayed", "true")
			w.WriteHeader(stored.Status)
			_, _ = w.Write(stored.Body)
			return
		case db.IdemMismatch:
			a.Problems.Write(w, r, problem.New(problem.IdempotencyKeyReuse,
				"This Idempotency-Key was already used with a different request; use a new key for a new request."))
			return
		case db.IdemInFlight:
			a.Problems.Write(w, r, problem.New(problem.IdempotencyRequestInProgress,
				"A request with this Idempotency-Key is still in progress; retry shortly."))
			return
		}

		rec := &recorder{ResponseWriter: w}
		finished := false
		defer func() {
			ctx := context.WithoutCancel(r.Context())
			if !finished || rec.status >= 500 {
				a.releaseIdempotencyKey(ctx, scope, key, claim)
				return
			}
			resp := db.StoredResponse{Status: rec.status, Body: rec.body.Bytes(), Headers: map[string]string{}}
			for _, k := range replayedHeaders {
				if v := rec.Header().Get(k); v != "" {
					resp.Headers[k] = v
				}
			}
			if err := a.DB.FinishIdempotencyKey(ctx, scope, key, resp); err != nil {
				a.Problems.Log.ErrorContext(ctx, "store idempotent response", "error", err)
			}
		}()
		next.ServeHTTP(rec, r)
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		finished = true
	})
}

// releaseRetryFor is how long a release that failed is tried again: the
// claim of a request that failed with the database (a failover) would
// otherwise answer the client's retries with 409 until it goes stale
// (minutes). A late release deletes only its own claim, never a later
// request's.
const releaseRetryFor = time.Minute

// releaseIdempotencyKey forgets this request's claim of a key (stamped
// claim) so that the client's retry runs. When the database refuses the release (the request failed because
// it was down or failing over), the release is tried again in the
// background, with backoff, for releaseRetryFor.
func (a *API) releaseIdempotencyKey(ctx context.Context, scope, key string, claim time.Time) {
	release := func() error {
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		return a.DB.ReleaseIdempotencyKey(rctx, scope, key, claim)
	}
	err := release()
	if err == nil {
		return
	}
	a.Problems.Log.WarnContext(ctx, "release idempotency key; trying again", "error", err)
	go func() {
		deadline := time.Now().Add(releaseRetryFor)
		for pause := 100 * time.Millisecond; time.Now().Before(deadline); pause = min(2*pause, 2*time.Second) {
			time.Sleep(pause)
			if err = release(); err == nil {
				return
			}
		}
		a.Problems.Log.ErrorContext(ctx, "release idempotency key", "error", err)
	}()
}

func validIdempotencyKey(k string) bool {
	if len(k) < 1 || len(k) > 255 {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < 0x20 || k[i] > 0x7e {
			return false
		}
	}
	return true
}

// recorder passes a response through while keeping a copy for replay.
type recorder struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (rec *recorder) WriteHeader(code int) {
	if rec.status == 0 {
		rec.status = code
	}
	rec.ResponseWriter.WriteHeader(code)
}

func (rec *recorder) Write(b []byte) (int, error) {
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	rec.body.Write(b)
	return rec.ResponseWriter.Write(b)
}
