package webhooks

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Header names of Standard Webhooks, and the User-Agent deliveries carry.
const (
	HeaderID        = "webhook-id"
	HeaderTimestamp = "webhook-timestamp"
	HeaderSignature = "webhook-signature"
	UserAgent       = "commerce-webhooks/1"
	// HeaderMerchantSignature signs a delivery to an agent platform (ACP).
	HeaderMerchantSignature = "Merchant-Signature"
)

// MerchantSignature is the Merchant-Signature value of an ACP webhook
// (CONTRACT §25): "t={unix seconds},v1={hex HMAC-SHA256 of "{t}.{body}"}",
// keyed with the webhook secret's bytes as the agent platform was shown
// them (the whole string, prefix included).
func MerchantSignature(secret string, ts time.Time, body []byte) string {
	t := strconv.FormatInt(ts.Unix(), 10)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(t))
	mac.Write([]byte{'.'})
	mac.Write(body)
	return "t=" + t + ",v1=" + hex.EncodeToString(mac.Sum(nil))
}

// signingKey is the HMAC key of a secret: the standard base64 decoding of
// the part after "whsec_". The prefix is required: every secret NewSecret
// makes has it, and its absence points at a mix-up (a sealed value, say).
func signingKey(secret string) ([]byte, error) {
	enc, ok := strings.CutPrefix(secret, SecretPrefix)
	if !ok {
		return nil, fmt.Errorf(`%w: does not start with "whsec_"`, errBadSecret)
	}
	key, err := base64.StdEncoding.DecodeString(enc)
	if err != nil {
		return nil, fmt.Errorf(`%w: not valid base64 after "whsec_"`, errBadSecret)
	}
	if len(key) == 0 {
		return nil, fmt.Errorf(`%w: empty after "whsec_"`, errBadSecret)
	}
	return key, nil
}

// Sign returns the webhook-signature value for a message: "v1," followed by
// the standard base64 of HMAC-SHA256 over "{msgID}.{unix seconds of ts}.{body}",
// keyed with the base64-decoded part of secret after "whsec_".
func Sign(secret, msgID string, ts time.Time, body []byte) (string, error) {
	key, err := signingKey(secret)
	if err != nil {
		return "", err
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(msgID))
	mac.Write([]byte{'.'})
	mac.Write(strconv.AppendInt(nil, ts.Unix(), 10))
	mac.Write([]byte{'.'})
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}

// Headers returns the headers of a delivery: webhook-id, webhook-timestamp
// (unix seconds), webhook-signature, Content-Type: application/json and
// User-Agent: commerce-webhooks/1.
func Headers(secret, msgID string, ts time.Time, body []byte) (http.Header, error) {
	sig, err := Sign(secret, msgID, ts, body)
	if err != nil {
		return nil, err
	}
	h := make(http.Header, 5)
	h.Set(HeaderID, msgID)
	h.Set(HeaderTimestamp, strconv.FormatInt(ts.Unix(), 10))
	h.Set(HeaderSignature, sig)
	h.Set("Content-Type", "application/json")
	h.Set("User-Agent", UserAgent)
	return h, nil
}
