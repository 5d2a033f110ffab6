// Package export is the shape of CONTRACT §23's CSV exports: the columns,
// one record per order or customer (money in minor units, timestamps as
// the API writes them, empty for null, currencies lowercase), the guard
// against spreadsheet formulas, and a writer that streams records (RFC 4180,
// CRLF) and flushes every few hundred of them.
package export

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"
	"time"
)

// OrderColumns are the header of the orders export: §23's columns, then
// the membership's (issue 24).
var OrderColumns = []string{"id", "created_at", "paid_at", "status", "listing_id", "listing_title", "buyer_email", "currency",
	"subtotal", "discount_code", "discount_amount", "amount", "platform_fee", "net_amount", "refund_amount", "refunded_at",
	"membership_id", "billing_reason"}

// CustomerColumns are the header of the customers export.
var CustomerColumns = []string{"id", "email", "orders_count", "total_spent", "currency", "first_order_at", "last_order_at"}

// Order is one row of the orders export.
type Order struct {
	ID             string
	CreatedAt      time.Time
	PaidAt         *time.Time
	Status         string
	ListingID      string
	ListingTitle   string
	BuyerEmail     string
	Currency       string
	Subtotal       int64
	DiscountCode   *string
	DiscountAmount int64 // 0 without a discount
	Amount         int64
	PlatformFee    int64
	NetAmount      int64
	RefundAmount   *int64
	RefundedAt     *time.Time
	MembershipID   *string
	BillingReason  *string
}

// Record is the order's CSV record, in OrderColumns' order.
func (o *Order) Record() []string {
	return []string{o.ID, Time(&o.CreatedAt), Time(o.PaidAt), strings.ToLower(o.Status), o.ListingID, Text(o.ListingTitle),
		Text(o.BuyerEmail), strings.ToLower(o.Currency), Int(o.Subtotal), Text(deref(o.DiscountCode)), Int(o.DiscountAmount),
		Int(o.Amount), Int(o.PlatformFee), Int(o.NetAmount), IntOrEmpty(o.RefundAmount), Time(o.RefundedAt),
		deref(o.MembershipID), strings.ToLower(deref(o.BillingReason))}
}

// Customer is one row of the customers export.
type Customer struct {
	ID           string
	Email        string
	OrdersCount  int
	TotalSpent   int64
	Currency     *string
	FirstOrderAt *time.Time
	LastOrderAt  *time.Time
}

// Record is the customer's CSV record, in CustomerColumns' order.
func (c *Customer) Record() []string {
	return []string{c.ID, Text(c.Email), strconv.Itoa(c.OrdersCount), Int(c.TotalSpent), strings.ToLower(deref(c.Currency)),
		Time(c.FirstOrderAt), Time(c.LastOrderAt)}
}

// Time writes t as the API's JSON does (RFC 3339 in UTC, fractional
// seconds when there are any); nil is empty.
func Time(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// Int writes an integer (money in minor units, counts).
func Int(n int64) string { return strconv.FormatInt(n, 10) }

// IntOrEmpty is Int, empty for nil.
func IntOrEmpty(n *int64) string {
	if n == nil {
		return ""
	}
	return Int(*n)
}

// Text guards a cell of free text (an email, a title, a code) against
// CSV formula injection (OWASP): text a spreadsheet would read as a formula,
// starting with =, +, -, @, a tab or a carriage return, is prefixed with a
// single quote, which spreadsheets show as text.
func Text(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// FlushEvery is how many records Writer buffers before it flushes them to
// the client.
const FlushEvery = 200

// Writer streams records as RFC 4180 CSV with CRLF line ends, flushing
// every FlushEvery records (and the header at once, so the client sees the
// download start).
type Writer struct {
	csv   *csv.Writer
	flush func()
	n     int
}

// NewWriter writes to w; flush (may be nil) pushes written bytes to the
// client (http.Flusher's Flush).
func NewWriter(w io.Writer, flush func()) *Writer {
	c := csv.NewWriter(w)
	c.UseCRLF = true
	return &Writer{csv: c, flush: flush}
}

// Header writes the header row and flushes it.
func (w *Writer) Header(columns []string) error {
	if err := w.csv.Write(columns); err != nil {
		return err
	}
	return w.Flush()
}

// Write writes one record, flushing every FlushEvery records.
func (w *Writer) Write(record []string) error {
	if err := w.csv.Write(record); err != nil {
		return err
	}
	if w.n++; w.n%FlushEvery == 0 {
		return w.Flush()
	}
	return nil
}

// Flush pushes what is buffered to the client. Errors: the underlying
// writer's (the client went away).
func (w *Writer) Flush() error {
	w.csv.Flush()
	if err := w.csv.Error(); err != nil {
		return err
	}
	if w.flush != nil {
		w.flush()
	}
	return nil
}
