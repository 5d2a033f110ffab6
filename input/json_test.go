package input_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/input"
)

func TestJSONDepth(t *testing.T) {
	t.Parallel()
	nest := func(n int, open, close string) string { return strings.Repeat(open, n) + strings.Repeat(close, n) }
	for name, doc := range map[string]string{
		"scalar":                      `"x"`,
		"empty":                       ``,
		"32 arrays":                   nest(32, "[", "]"),
		"32 objects":                  strings.Repeat(`{"a":`, 31) + `{}` + strings.Repeat("}", 31),
		"brackets in strings":         `[` + `"` + strings.Repeat("[{", 100) + `"]`,
		"escaped quote then brackets": `["\"` + strings.Repeat("[", 100) + `"]`,
		"escaped backslash":           `["\\",` + nest(31, "[", "]") + `]`,
		"siblings do not add up":      strings.Repeat(nest(32, "[", "]")+",", 100),
		"malformed within the depth":  `[[[}}}`,
		"closers first":               `]]]]` + nest(32, "[", "]"),
	} {
		require.NoError(t, input.JSONDepth([]byte(doc)), name)
	}
	for name, doc := range map[string]string{
		"33 arrays":                  nest(33, "[", "]"),
		"33 objects":                 strings.Repeat(`{"a":`, 32) + `{}` + strings.Repeat("}", 32),
		"mixed":                      strings.Repeat(`[{"k":`, 17),
		"1 MiB of [":                 strings.Repeat("[", 1<<20),
		"100,000 levels":             nest(100_000, "[", "]"),
		"deep after a string":        `["]",` + nest(33, "[", "]") + `]`,
		"unterminated deep prefix":   strings.Repeat("{\"a\":", 40),
		"deep inside a later member": `{"a":"}}}}",` + `"b":` + nest(32, "[", "]") + `}`,
	} {
		require.ErrorIs(t, input.JSONDepth([]byte(doc)), input.ErrJSONDepth, name)
	}
}

// The scan allocates nothing, whatever the input.
func TestJSONDepthAllocatesNothing(t *testing.T) {
	doc := []byte(strings.Repeat("[", 1<<20))
	require.Zero(t, testing.AllocsPerRun(10, func() { _ = input.JSONDepth(doc) }))
}

func TestCheckJSON(t *testing.T) {
	t.Parallel()
	for name, doc := range map[string]string{
		"plain":              `{"a":"b","c":[1,2,"d"]}`,
		"multi-byte":         `{"title":"Crème brûlée 🍮"}`,
		"escaped backslash":  `{"a":"\\u0000"}`,
		"escaped unicode":    `{"a":"\u00e9\u0001"}`,
		"bad bytes as value": `{"a":1}` + "\xff", // outside a string: the decoder's to refuse
	} {
		require.NoError(t, input.CheckJSON([]byte(doc)), name)
	}
	for name, c := range map[string]struct {
		doc  string
		want error
	}{
		"NUL in a value":         {`{"a":"x\u0000y"}`, input.ErrNUL},
		"NUL in a key":           {`{"\u0000":1}`, input.ErrNUL},
		"bad UTF-8 in a value":   {"{\"a\":\"\xff\"}", input.ErrUTF8},
		"bad UTF-8 in a key":     {"{\"\xed\xa0\x80\":1}", input.ErrUTF8},
		"too deep wins":          {`["\u0000",` + strings.Repeat("[", 40), input.ErrJSONDepth},
		"unterminated bad bytes": {"[\"\xff", input.ErrUTF8},
	} {
		require.ErrorIs(t, input.CheckJSON([]byte(c.doc)), c.want, name)
	}
}

func TestCheckJSONAllocatesNothing(t *testing.T) {
	doc := []byte(`{"k":"` + strings.Repeat("€", 1<<18) + `","m":{` + strings.Repeat(`"key":"\u0001",`, 1000) + `"z":1}}`)
	require.Zero(t, testing.AllocsPerRun(10, func() { _ = input.CheckJSON(doc) }))
}
