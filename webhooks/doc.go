// Package webhooks holds the pure pieces of outbound webhook delivery
// (CONTRACT §12): endpoint secrets and their encryption at rest, Standard
// Webhooks signing, a single delivery attempt and the retry schedule. It
// knows nothing of the database or the job queue; the worker and the
// resolvers combine these pieces.
//
// Decisions:
//
//   - Secrets are "whsec_" + standard base64 of 32 random bytes, the form the
//     Standard Webhooks libraries accept. They are stored sealed with
//     AES-256-GCM (SecretBox) under a 32-byte key from configuration; the
//     12-byte random nonce is prepended to the ciphertext.
//   - Signing follows Standard Webhooks exactly: webhook-signature is
//     "v1," + base64 HMAC-SHA256 over "{id}.{timestamp}.{body}", keyed with
//     the base64-decoded part of the secret after "whsec_". The tests verify
//     it with the official Go library.
//   - Deliver makes one POST within 10 s (less when ctx ends sooner or the
//     client's own timeout is shorter). It never follows redirects, whatever
//     the client is configured to do: a 3xx is a failure carrying its status
//     code. It keeps the first 4 KiB of the response, as valid UTF-8, and
//     drains at most 64 KiB more so the connection can be reused; a larger
//     response is cut off by closing the connection.
//   - A failure is retried on a fixed, deterministic schedule (no jitter);
//     a 429 or 503 with a Retry-After longer than the scheduled delay waits
//     for Retry-After instead (capped at 24 h). 410 Gone is permanent.
package webhooks
