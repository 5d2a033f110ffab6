package db_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/testkit"
)

// OrderColumns names every column bun knows of db.Order, in the struct's
// order, and ScanDest gives a destination for each.
func TestOrderColumnsAreBunsColumns(t *testing.T) {
	t.Parallel()
	d := open(t, testkit.DatabaseURL)
	var want []string
	for _, f := range d.Table(reflect.TypeFor[db.Order]()).Fields {
		want = append(want, f.Name)
	}
	got := strings.Fields(strings.ReplaceAll(db.OrderColumns, ",", " "))
	require.Equal(t, want, got)
	require.Len(t, new(db.Order).ScanDest(nil), len(got))
}

// A row read with pgx through OrderColumns and ScanDest is the db.Order bun
// reads: an order with every optional column set, and one with none.
func TestOrderScanDestReadsWhatBunReads(t *testing.T) {
	t.Parallel()
	d := open(t, testkit.DatabaseURL)
	ctx := context.Background()
	at := func(s int) *time.Time {
		x := time.Date(2026, 11, 27, 1, 2, s, 123456000, time.UTC)
		return &x
	}
	str := func(s string) *string { return &s }
	i64 := func(n int64) *int64 { return &n }
	cycle := 2
	acc, lst, cus := db.NewID("acc"), db.NewID("lst"), db.NewID("cus")
	full := &db.Order{ID: db.NewID("ord"), AccountID: acc, ListingID: lst, ListingSlug: "scan-" + lst, CustomerID: &cus,
		BuyerEmail: "Buyer@Example.com", Subtotal: 1500, DiscountID: str(db.NewID("dsc")), DiscountCode: str("SAVE5"),
		DiscountAmount: i64(500), Amount: 1000, Currency: "USD", PlatformFee: 150, NetAmount: 850, ContentType: "generated",
		Status: db.OrderRefunded, PaymentStatus: db.PaymentRefunded, PaymentIntentID: str("pi_1"), CheckoutSessionID: str("cs_1"),
		CheckoutExpiresAt: at(1), CheckoutData: map[string]any{"name": "Ada", "n": 1.5, "list": []any{"a", true, nil}},
		ListingSnapshot: json.RawMessage(`{"title": "Scan", "access": {"days": 3}}`), SellerSnapshot: json.RawMessage(`{"display_name": "S"}`),
		Deliverables: []db.OrderDeliverable{{ID: db.NewID("del"), Type: "text", Value: str("v")},
			{ID: db.NewID("del"), Type: "file", FileKey: str("k"), FileName: str("f.pdf"), FileSize: i64(42), FileContentType: str("application/pdf")}},
		HasDeliverables: true, TestMode: true, DisputeStatus: str("lost"), DisputeLostAt: at(2), RefundAmount: i64(1000),
		ViewToken: "view-full", PurchaseTrackedAt: at(3), HandedOffAt: at(4), FulfillmentNote: str("note \u2028 é"), AccessExpiresAt: at(5),
		MembershipID: str(db.NewID("mem")), BillingReason: str("membership_cycle"), MembershipCycle: &cycle, ProcessorInvoiceID: str("in_1"),
		CreatedAt: *at(6), PaidAt: at(7), FulfilledAt: at(8), CanceledAt: at(9), RefundedAt: at(10), UpdatedAt: *at(11)}
	bare := &db.Order{ID: db.NewID("ord"), AccountID: acc, ListingID: lst, ListingSlug: "scan-" + lst, BuyerEmail: "b@example.com",
		Subtotal: 700, Amount: 700, Currency: "EUR", PlatformFee: 105, NetAmount: 595, ContentType: "static", Status: db.OrderPending,
		PaymentStatus: db.PaymentUnpaid, CheckoutData: map[string]any{}, ListingSnapshot: json.RawMessage(`{}`),
		SellerSnapshot: json.RawMessage(`{}`), Deliverables: []db.OrderDeliverable{}, ViewToken: "view-bare",
		CreatedAt: *at(12), UpdatedAt: *at(13)}

	// Everything in one transaction, rolled back (the membership's foreign
	// key is deferred, so it is never checked).
	rollback := errors.New("rollback")
	err := d.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		_, err := tx.NewInsert().Model(&db.Account{ID: acc, Email: acc + "@example.com", Plan: "free", BillingStatus: "active"}).Exec(ctx)
		require.NoError(t, err)
		_, err = tx.River.Exec(ctx, `INSERT INTO listings (id, account_id, title, price, slug, status) VALUES ($1, $2, 'Scan', 1500, $3, 'published')`,
			lst, acc, "scan-"+lst)
		require.NoError(t, err)
		_, err = tx.River.Exec(ctx, `INSERT INTO customers (id, account_id, email) VALUES ($1, $2, 'buyer@example.com')`, cus, acc)
		require.NoError(t, err)
		_, err = tx.NewInsert().Model(&[]*db.Order{full, bare}).Exec(ctx)
		require.NoError(t, err)

		var byBun []*db.Order
		require.NoError(t, tx.NewSelect().Model(&byBun).Where("account_id = ?", acc).OrderExpr("id").Scan(ctx))
		rows, err := tx.River.Query(ctx, `SELECT `+db.OrderColumns+` FROM orders WHERE account_id = $1 ORDER BY id`, acc)
		require.NoError(t, err)
		var byPgx []*db.Order
		for rows.Next() {
			o := new(db.Order)
			require.NoError(t, rows.Scan(o.ScanDest(nil)...))
			byPgx = append(byPgx, o)
		}
		require.NoError(t, rows.Err())
		require.Len(t, byBun, 2)
		require.Equal(t, byBun, byPgx)
		// And what was written, so that neither read hides a column.
		for _, o := range byPgx {
			want := bare
			if o.ID == full.ID {
				want = full
			}
			a, _ := json.Marshal(want)
			b, _ := json.Marshal(o)
			require.JSONEq(t, string(a), string(b))
		}
		return rollback
	})
	require.ErrorIs(t, err, rollback)
}
