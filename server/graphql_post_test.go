package server

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// appendCompactData writes marshalled data exactly as encoding/json's
// Marshal writes the same bytes held in a json.RawMessage (what gqlgen's
// transport did): on values with every ASCII byte, escapes, <, >, &,
// U+2028 and U+2029 and multi-byte text in strings, nested, and spread with
// whitespace outside strings (as a Map value's encoder leaves a newline).
func TestAppendCompactDataAsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var alphabet []string
	for c := 0; c < 128; c++ {
		alphabet = append(alphabet, string(rune(c)))
	}
	alphabet = append(alphabet, "\u2028", "\u2029", "é", "€", "😀", "\u2027", "\u202a")
	str := func() string {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	var value func(depth int) any
	value = func(depth int) any {
		switch k := rng.IntN(7); {
		case depth > 3 || k == 0:
			return str()
		case k == 1:
			return rng.IntN(1000) - 500
		case k == 2:
			return rng.IntN(2) == 0
		case k == 3:
			return nil
		case k == 4:
			arr := make([]any, rng.IntN(4))
			for i := range arr {
				arr[i] = value(depth + 1)
			}
			return arr
		default:
			obj := map[string]any{}
			for range rng.IntN(4) {
				obj[str()] = value(depth + 1)
			}
			return obj
		}
	}
	for i := range 3000 {
		v := value(0)
		var src bytes.Buffer
		enc := json.NewEncoder(&src)
		enc.SetEscapeHTML(false) // gqlgen's marshallers do not escape HTML
		if i%2 == 1 {
			enc.SetIndent(" ", "\t") // whitespace outside strings
		}
		require.NoError(t, enc.Encode(v))
		want, err := json.Marshal(json.RawMessage(src.Bytes()))
		require.NoError(t, err)
		got := appendCompactData(nil, src.Bytes())
		require.Equal(t, string(want), string(got), "value %d: %s", i, src.Bytes())
	}
}

// BenchmarkAppendCompactData: a page of 100 listings' data, as the fast
// path marshals it (about 30 KB).
func BenchmarkAppendCompactData(b *testing.B) {
	var src bytes.Buffer
	src.WriteString(`{"viewer":{"listings":{"edges":[`)
	for i := range 100 {
		if i > 0 {
			src.WriteByte(',')
		}
		src.WriteString(`{"cursor":"bHN0XzAxbThkZzBoeXNrYnZieTIzMzZ0dGRyNnhu","node":{"id":"lst_01m8dg0hyskbvby2336ttdr6xn","title":"Bench listing 12345 & co <b>","price":1200,"currency":"usd","slug":"bench-listing-12345","status":"PUBLISHED","url":"http://127.0.0.1:8080/p/bench-listing-12345","checkoutUrl":"http://127.0.0.1:8080/p/bench-listing-12345","fulfillment":"MANAGED","createdAt":"2026-11-27T03:04:08.123456Z","updatedAt":"2026-11-27T03:04:08.123456Z","publishedAt":null}}`)
	}
	src.WriteString(`]}}}`)
	b.SetBytes(int64(src.Len()))
	var dst []byte
	for b.Loop() {
		dst = appendCompactData(dst[:0], src.Bytes())
	}
}
