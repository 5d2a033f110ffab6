package acp

// Fingerprint is the idempotency fingerprint of a body (the conformance
// suite claims a key as a request in flight would).
var Fingerprint = fingerprint
