package db

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
)

// IdempotencyTTL is how long a key and its stored response are kept.
const IdempotencyTTL = 24 * time.Hour

// idempotencyStale is how long an in-flight claim may stay unfinished before
// a retry with the same request may take it over (its process died). A
// claim whose owner process stopped beating is taken over sooner
// (ProcessGone: processes.go).
const idempotencyStale = 5 * time.Minute

// IdempotencyState is the outcome of claiming an idempotency key.
type IdempotencyState int

const (
	// IdemClaimed: the caller owns the key and must execute the request.
	IdemClaimed IdempotencyState = iota
	// IdemReplay: a finished response is stored; replay it.
	IdemReplay
	// IdemInFlight: another request with the key is executing.
	IdemInFlight
	// IdemMismatch: the key was used with a different request.
	IdemMismatch
)

// StoredResponse is a finished response kept for replay.
type StoredResponse struct {
	Status  int
	Headers map[string]string
	Body    []byte
}

// ClaimIdempotencyKey claims (scope, key) for a request with fingerprint fp,
// the claim stamped with at (its locked_at, to the microsecond: what
// ReleaseIdempotencyKey names it by). An expired record, or a stale claim
// of the same request, is taken over.
func (d *DB) ClaimIdempotencyKey(ctx context.Context, scope, key string, fp []byte, at time.Time) (IdempotencyState, *StoredResponse, error) {
	for attempt := 0; attempt < 3; attempt++ {
		var claimed bool
		err := d.Pool.QueryRow(ctx, `
INSERT INTO idempotency_keys (scope, key, fingerprint, locked_at, expires_at, owner)
VALUES ($1, $2, $3, $8, now() + make_interval(secs => $4), NULLIF($6, ''))
ON CONFLICT (scope, key) DO UPDATE
   SET fingerprint = EXCLUDED.fingerprint, locked_at = EXCLUDED.locked_at, expires_at = EXCLUDED.expires_at,
       status_code = NULL, headers = NULL, body = NULL, created_at = now(), owner = EXCLUDED.owner
 WHERE idempotency_keys.expires_at < now()
    OR (idempotency_keys.status_code IS NULL AND idempotency_keys.fingerprint = EXCLUDED.fingerprint
        AND (idempotency_keys.locked_at < now() - make_interval(secs => $5)
             -- its process died: no heartbeat for ProcessGone (processes.go)
             OR (idempotency_keys.owner IS NOT NULL AND NOT EXISTS (
                   SELECT 1 FROM service_processes p
                    WHERE p.id = idempotency_keys.owner AND p.seen_at > now() - make_interval(secs => $7)))))
RETURNING true`, scope, key, fp, IdempotencyTTL.Seconds(), idempotencyStale.Seconds(), d.owner(), ProcessGone.Seconds(),
			at.Truncate(time.Microsecond)).Scan(&claimed)
		if err == nil {
			return IdemClaimed, nil, nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return 0, nil, err
		}
		var (
			storedFP []byte
			status   *int
			headers  []byte
			body     []byte
		)
		err = d.Pool.QueryRow(ctx, `SELECT fingerprint, status_code, headers, body FROM idempotency_keys
			WHERE scope = $1 AND key = $2`, scope, key).Scan(&storedFP, &status, &headers, &body)
		if errors.Is(err, pgx.ErrNoRows) {
			continue // released meanwhile: claim again
		}
		if err != nil {
			return 0, nil, err
		}
		switch {
		case string(storedFP) != string(fp):
			return IdemMismatch, nil, nil
		case status == nil:
			return IdemInFlight, nil, nil
		}
		sr := &StoredResponse{Status: *status, Body: body}
		if len(headers) > 0 {
			if err := json.Unmarshal(headers, &sr.Headers); err != nil {
				return 0, nil, err
			}
		}
		return IdemReplay, sr, nil
	}
	return IdemInFlight, nil, nil
}

// FinishIdempotencyKey stores the response of a claimed key for replay.
func (d *DB) FinishIdempotencyKey(ctx context.Context, scope, key string, resp StoredResponse) error {
	headers, err := json.Marshal(resp.Headers)
	if err != nil {
		return err
	}
	_, err = d.Pool.Exec(ctx, `UPDATE idempotency_keys SET status_code = $3, headers = $4, body = $5, locked_at = NULL
		WHERE scope = $1 AND key = $2`, scope, key, resp.Status, headers, resp.Body)
	return err
}

// ReleaseIdempotencyKey forgets the claim of a key stamped at (see
// ClaimIdempotencyKey) so the client may retry (after a 5xx). Another
// request's claim of the key is left alone, so a claim whose outcome is
// unknown (its answer was lost) can be released safely.
func (d *DB) ReleaseIdempotencyKey(ctx context.Context, scope, key string, at time.Time) error {
	_, err := d.Pool.Exec(ctx, `DELETE FROM idempotency_keys
		WHERE scope = $1 AND key = $2 AND status_code IS NULL AND locked_at = $3`, scope, key, at.Truncate(time.Microsecond))
	return err
}

// DeleteExpiredIdempotencyKeys removes expired keys, at most limit at a time,
// and returns how many it removed.
func (d *DB) DeleteExpiredIdempotencyKeys(ctx context.Context, limit int) (int64, error) {
	tag, err := d.Pool.Exec(ctx, `DELETE FROM idempotency_keys WHERE ctid IN (
		SELECT ctid FROM idempotency_keys WHERE expires_at < now() LIMIT $1)`, limit)
	if err != nil {
		return 0, err
	}
	return tag.RowsAffected(), nil
}
