package webhooks

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// SecretPrefix starts every endpoint secret.
const SecretPrefix = "whsec_"

// KeySize is the size in bytes of a SecretBox key (AES-256).
const KeySize = 32

// secretBytes is the number of random bytes in a secret.
const secretBytes = 32

// sealAD binds sealed values to their purpose, so that a value sealed for
// something else under the same key does not open as a webhook secret.
var sealAD = []byte("commerce/webhooks endpoint secret v1")

// NewSecret returns a new endpoint signing secret: "whsec_" followed by the
// standard base64 encoding of 32 random bytes.
func NewSecret() string {
	b := make([]byte, secretBytes)
	if _, err := rand.Read(b); err != nil { // never fails since Go 1.24; kept for clarity
		panic(err)
	}
	return SecretPrefix + base64.StdEncoding.EncodeToString(b)
}

// SecretBox encrypts endpoint secrets at rest with AES-256-GCM under a key
// from configuration. It is safe for concurrent use.
type SecretBox struct {
	aead cipher.AEAD
}

// NewSecretBox returns a SecretBox using key, which must be 32 bytes.
func NewSecretBox(key []byte) (*SecretBox, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("webhooks: secret key is %d bytes; want %d", len(key), KeySize)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("webhooks: %w", err)
	}
	aead, err := cipher.NewGCMWithRandomNonce(block)
	if err != nil {
		return nil, fmt.Errorf("webhooks: %w", err)
	}
	return &SecretBox{aead: aead}, nil
}

// ParseKey decodes the configuration form of a SecretBox key: base64
// (standard or URL alphabet, padded or not) of 32 bytes, surrounding white
// space ignored. A key can be made with `openssl rand -base64 32`. The error
// says what is wrong without repeating the value.
func ParseKey(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, errors.New("webhooks: key is empty; want base64 of 32 random bytes (e.g. `openssl rand -base64 32`)")
	}
	var (
		key []byte
		err error
	)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if key, err = enc.DecodeString(s); err == nil {
			break
		}
	}
	if err != nil {
		return nil, errors.New("webhooks: key is not valid base64; want base64 of 32 random bytes (e.g. `openssl rand -base64 32`)")
	}
	if len(key) != KeySize {
		return nil, fmt.Errorf("webhooks: key decodes to %d bytes; want %d (e.g. `openssl rand -base64 32`)", len(key), KeySize)
	}
	return key, nil
}

// Seal encrypts secret. The result is a random 12-byte nonce followed by the
// ciphertext and its 16-byte tag.
func (b *SecretBox) Seal(secret string) ([]byte, error) {
	if b == nil || b.aead == nil {
		return nil, errors.New("webhooks: SecretBox not initialised")
	}
	return b.aead.Seal(nil, nil, []byte(secret), sealAD), nil
}

// Open decrypts what Seal returned. It fails when sealed was made under
// another key or has been altered.
func (b *SecretBox) Open(sealed []byte) (string, error) {
	if b == nil || b.aead == nil {
		return "", errors.New("webhooks: SecretBox not initialised")
	}
	if len(sealed) < b.aead.NonceSize()+b.aead.Overhead() {
		return "", errors.New("webhooks: sealed secret is too short")
	}
	plain, err := b.aead.Open(nil, nil, sealed, sealAD)
	if err != nil {
		return "", errors.New("webhooks: sealed secret cannot be opened (wrong key or corrupted)")
	}
	return string(plain), nil
}
