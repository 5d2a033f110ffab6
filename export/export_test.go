package export_test

import (
	"bytes"
	"encoding/csv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/export"
)

func TestText(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"":                  "",
		"ada@example.com":   "ada@example.com",
		"=HYPERLINK(\"x\")": "'=HYPERLINK(\"x\")",
		"+1 guide":          "'+1 guide",
		"-50% sale":         "'-50% sale",
		"@SUM(A1)":          "'@SUM(A1)",
		"\tTab":             "'\tTab",
		"\rCR":              "'\rCR",
		"a=b":               "a=b",
		"'quoted":           "'quoted",
	} {
		require.Equal(t, want, export.Text(in), "%q", in)
	}
}

func TestRecords(t *testing.T) {
	t.Parallel()
	created := time.Date(2026, 11, 22, 9, 30, 0, 0, time.FixedZone("CET", 3600))
	paid := time.Date(2026, 11, 22, 9, 31, 0, 500_000_000, time.UTC)
	code, reason, mem := "SPRING", "cycle", "mem_01"
	refund := int64(2000)
	o := export.Order{ID: "ord_1", CreatedAt: created, PaidAt: &paid, Status: "refunded", ListingID: "lst_1",
		ListingTitle: "Guide, \"the\"\nbook", BuyerEmail: "=ada@example.com", Currency: "USD", Subtotal: 2900,
		DiscountCode: &code, DiscountAmount: 900, Amount: 2000, PlatformFee: 300, NetAmount: 1700,
		RefundAmount: &refund, RefundedAt: &paid, MembershipID: &mem, BillingReason: &reason}
	require.Len(t, o.Record(), len(export.OrderColumns))
	require.Equal(t, []string{"ord_1", "2026-11-22T08:30:00Z", "2026-11-22T09:31:00.5Z", "refunded", "lst_1", "Guide, \"the\"\nbook",
		"'=ada@example.com", "usd", "2900", "SPRING", "900", "2000", "300", "1700", "2000", "2026-11-22T09:31:00.5Z", "mem_01", "cycle"}, o.Record())
	one := export.Order{ID: "ord_2", CreatedAt: created, Status: "pending", Currency: "JPY"}
	require.Equal(t, []string{"ord_2", "2026-11-22T08:30:00Z", "", "pending", "", "", "", "jpy", "0", "", "0", "0", "0", "0", "", "", "", ""}, one.Record())

	c := export.Customer{ID: "cus_1", Email: "ada@example.com", OrdersCount: 2, TotalSpent: 5800}
	require.Equal(t, []string{"cus_1", "ada@example.com", "2", "5800", "", "", ""}, c.Record())
	require.Len(t, c.Record(), len(export.CustomerColumns))
}

func TestWriter(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	flushes := 0
	w := export.NewWriter(&buf, func() { flushes++ })
	require.NoError(t, w.Header([]string{"a", "b"}))
	require.Equal(t, "a,b\r\n", buf.String())
	require.Equal(t, 1, flushes)
	for i := 0; i < export.FlushEvery*2+1; i++ {
		require.NoError(t, w.Write([]string{"x,y", "say \"hi\"\nthere"}))
	}
	require.Equal(t, 3, flushes)
	require.NoError(t, w.Flush())
	// Quoted as RFC 4180 says; a line break inside a field is written CRLF
	// too (encoding/csv's UseCRLF), which readers take as the field's break.
	require.Contains(t, buf.String(), "\"x,y\",\"say \"\"hi\"\"\r\nthere\"\r\n")
	rows, err := csv.NewReader(&buf).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, export.FlushEvery*2+2)
	require.Equal(t, []string{"x,y", "say \"hi\"\nthere"}, rows[1])
}
