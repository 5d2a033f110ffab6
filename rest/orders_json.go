package rest

import (
	"strconv"
	"time"
	"unicode/utf8"

	"commerce/graph/model"
)

// The order page's encoder (issue 27 item 3): GET /v1/orders writes its
// page of 100 summaries with these functions instead of encoding/json's
// reflection, byte for byte what json.Marshal writes for the same values
// (TestOrderListEncoding compares the two over every field set and unset).
// A field added to model.OrderSummary or model.OrderList must be added
// here too; that test fails until it is.

// appendOrderList appends l as json.Marshal encodes it.
func appendOrderList(b []byte, l *model.OrderList) []byte {
	if l == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"object":`...)
	b = appendJSONString(b, l.Object)
	b = append(b, `,"data":`...)
	if l.Data == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, o := range l.Data {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendOrderSummary(b, o)
		}
		b = append(b, ']')
	}
	b = append(b, `,"has_more":`...)
	b = strconv.AppendBool(b, l.HasMore)
	b = append(b, `,"next_cursor":`...)
	b = appendJSONStringPtr(b, l.NextCursor)
	return append(b, '}')
}

// appendOrderSummary appends o as json.Marshal encodes it.
func appendOrderSummary(b []byte, o *model.OrderSummary) []byte {
	if o == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"object":`...)
	b = appendJSONString(b, o.Object)
	b = append(b, `,"id":`...)
	b = appendJSONString(b, o.ID)
	b = append(b, `,"listing_id":`...)
	b = appendJSONString(b, o.ListingID)
	b = append(b, `,"buyer_email":`...)
	b = appendJSONString(b, o.BuyerEmail)
	b = append(b, `,"subtotal":`...)
	b = strconv.AppendInt(b, o.Subtotal, 10)
	b = append(b, `,"discount":`...)
	if d := o.Discount; d == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, `{"id":`...)
		b = appendJSONString(b, d.ID)
		b = append(b, `,"code":`...)
		b = appendJSONString(b, d.Code)
		b = append(b, `,"amount":`...)
		b = strconv.AppendInt(b, d.Amount, 10)
		b = append(b, '}')
	}
	b = append(b, `,"amount":`...)
	b = strconv.AppendInt(b, o.Amount, 10)
	b = append(b, `,"currency":`...)
	b = appendJSONString(b, o.Currency)
	b = append(b, `,"status":`...)
	b = appendJSONString(b, string(o.Status))
	b = append(b, `,"payment_status":`...)
	b = appendJSONString(b, string(o.PaymentStatus))
	b = append(b, `,"content_type":`...)
	b = appendJSONString(b, string(o.ContentType))
	b = append(b, `,"created_at":`...)
	b = appendJSONTime(b, o.CreatedAt)
	b = append(b, `,"paid_at":`...)
	if o.PaidAt == nil {
		b = append(b, "null"...)
	} else {
		b = appendJSONTime(b, *o.PaidAt)
	}
	b = append(b, `,"membership_id":`...)
	b = appendJSONStringPtr(b, o.MembershipID)
	b = append(b, `,"billing_reason":`...)
	b = appendJSONStringPtr(b, (*string)(o.BillingReason))
	return append(b, '}')
}

// appendJSONTime appends t as time.Time's MarshalJSON writes it (RFC 3339
// with nanoseconds, quoted). Years outside 0..9999, which MarshalJSON
// refuses, cannot come from PostgreSQL through input.Time's bounds; they
// are written as MarshalJSON's error would panic in writeJSON.
func appendJSONTime(b []byte, t time.Time) []byte {
	if y := t.Year(); y < 0 || y > 9999 {
		panic("encode response: time " + t.String() + " outside the years 0..9999")
	}
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}

func appendJSONStringPtr(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return appendJSONString(b, *s)
}

const jsonHex = "0123456789abcdef"

// jsonPlain marks the bytes appendJSONString copies unescaped: ASCII
// but control characters, '"', '\\', '<', '>' and '&' (a byte of a
// multi-byte rune is not: the rune is checked whole).
var jsonPlain = func() (t [256]bool) {
	for c := byte(0x20); c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// appendJSONString appends s quoted as encoding/json quotes a string: '"',
// '\\' and control characters escaped (\b \f \n \r \t by name), '<', '>'
// and '&' as \u003c \u003e \u0026 (HTML-safe, as json.Marshal and
// json.Encoder by default), U+2028 and U+2029 as \u2028 and \u2029, and
// each byte of invalid UTF-8 as \ufffd.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if jsonPlain[c] {
				// Ids, enums, emails: a run of bytes copied as they are,
				// one table load per byte.
				i++
				for i < len(s) && jsonPlain[s[i]] {
					i++
				}
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', jsonHex[c>>4], jsonHex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', jsonHex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
