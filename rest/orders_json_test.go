package rest

import (
	"net/http/httptest"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/graph/model"
)

// jsonTricky are strings whose encoding has every escape of encoding/json:
// quotes, backslashes, control characters (\b and \f by name), HTML's
// <, > and &, U+2028 and U+2029, invalid UTF-8, multi-byte runes.
var jsonTricky = []string{
	"", "plain", `"q" \ /`, "\b\f\n\r\t\x00\x01\x1f\x7f", "<script>&amp;</script>", "a\u2028b\u2029c",
	"bad \xff \xc3 \xe2\x80 end", "é 日本 🎉 \u00a0", "buyer+tag@example.com",
}

// fillAll sets every field of the struct v points to, recursively, to a
// value that is not the zero one (pointers allocated), taking strings in
// turn from jsonTricky: a field added to the model is set here without
// this test knowing its name.
func fillAll(t *testing.T, v reflect.Value, n *int) {
	t.Helper()
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fillAll(t, v.Elem(), n)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			*n++
			v.Set(reflect.ValueOf(time.Date(2026, 11, 27, 1, 2, 3, *n*1000, time.UTC)))
			return
		}
		for i := 0; i < v.NumField(); i++ {
			fillAll(t, v.Field(i), n)
		}
	case reflect.String:
		*n++
		v.SetString(jsonTricky[*n%len(jsonTricky)] + "x")
	case reflect.Int, reflect.Int64:
		*n++
		v.SetInt(int64(*n) * 1_000_003)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Slice:
		// Data: three summaries, each filled.
		s := reflect.MakeSlice(v.Type(), 3, 3)
		for i := 0; i < 3; i++ {
			fillAll(t, s.Index(i), n)
		}
		v.Set(s)
	default:
		t.Fatalf("fillAll: a field of kind %s: teach this test and appendOrderSummary about it", v.Kind())
	}
}

// The order page's encoder writes what writeJSON (encoding/json) writes
// for the same page: every field set (and every string with escapes), every
// optional field unset, an empty and a nil page, times with and without
// nanoseconds and outside UTC.
func TestOrderListEncoding(t *testing.T) {
	t.Parallel()
	var full model.OrderList
	n := 0
	fillAll(t, reflect.ValueOf(&full).Elem(), &n)

	cursor := "Yzpvcm"
	bare := &model.OrderSummary{Object: "order", ID: "ord_01jdx0v3k7q8r9s0t1u2v3w4x5", ListingID: "lst_01jdx0v3k7q8r9s0t1u2v3w4x5",
		BuyerEmail: "b@example.com", Amount: 0, Currency: "USD", Status: model.OrderStatusPending,
		PaymentStatus: model.PaymentStatusUnpaid, ContentType: model.OrderContentTypeStatic,
		CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	paris := time.FixedZone("Paris", 3600)
	paidAt := time.Date(1, 1, 1, 0, 0, 0, 123456789, paris)
	reason := model.BillingReason("membership_cycle")
	set := &model.OrderSummary{Object: "order", ID: "ord_x", ListingID: "lst_x", BuyerEmail: "A&B <b@example.com>", Subtotal: -5,
		Discount: &model.OrderDiscount{ID: "dsc_x", Code: "SAVE\u2028", Amount: 9223372036854775807}, Amount: -9223372036854775808,
		Currency: "EUR", Status: "refunded", PaymentStatus: "refunded", ContentType: "webhook",
		CreatedAt: time.Date(9999, 12, 31, 23, 59, 59, 999999000, time.UTC), PaidAt: &paidAt,
		MembershipID: &cursor, BillingReason: &reason}
	pages := map[string]*model.OrderList{
		"every field filled": &full,
		"unset and set":      {Object: "list", Data: []*model.OrderSummary{bare, set, bare}, HasMore: true, NextCursor: &cursor},
		"empty":              {Object: "list", Data: []*model.OrderSummary{}},
		"nil data":           {Object: "list"},
		"nil item":           {Object: "list", Data: []*model.OrderSummary{nil, bare}},
	}
	for _, s := range jsonTricky {
		pages["strings "+s] = &model.OrderList{Object: s, Data: []*model.OrderSummary{{Object: s, ID: s, ListingID: s, BuyerEmail: s,
			Currency: s, Status: model.OrderStatus(s), PaymentStatus: model.PaymentStatus(s), ContentType: model.OrderContentType(s),
			Discount: &model.OrderDiscount{ID: s, Code: s}, MembershipID: &s, BillingReason: (*model.BillingReason)(&s)}}, NextCursor: &s}
	}
	requireEncodesAsWriteJSON(t, pages, appendOrderList)
	require.Contains(t, pages["every field filled"].Data[0].BuyerEmail, "x", "filled")
}

// requireEncodesAsWriteJSON holds a hand encoder to writeJSON's headers and
// bytes on every page.
func requireEncodesAsWriteJSON[T any](t *testing.T, pages map[string]T, appendJSON func([]byte, T) []byte) {
	t.Helper()
	for name, page := range pages {
		old := httptest.NewRecorder()
		writeJSON(old, 200, page)
		now := httptest.NewRecorder()
		writeJSONAppended(now, 200, page, appendJSON)
		require.Equal(t, old.Header(), now.Header(), name)
		require.Equal(t, old.Body.String(), now.Body.String(), name)
	}
}
