// Package licensing holds the rules of license keys (CONTRACT §20) that need
// no database and no request:
//
//   - the key's format: an optional seller prefix, then four groups of five
//     Crockford base32 characters (100 random bits), made by NewKey; what a
//     buyer types goes through Normalize, and a key is found by Hash;
//   - a listing's license settings (Settings.Check, Settings.KeyExpiry);
//   - the offline token: a compact JWS (EdDSA, Ed25519) that a Signer makes
//     with the newest of a set of signing keys and that Verify checks
//     against the published JSON Web Key Set (Signer.JWKS). The JOSE work is
//     go-jose's; this package chooses the keys, the claims and the rules.
//
// Storing the signing keys (sealed, in PostgreSQL) and refreshing them is
// resolvers/licensing.go's.
package licensing
