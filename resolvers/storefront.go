package resolvers

import (
	"context"
	"fmt"
	"strconv"

	"commerce/db"
	"commerce/membership"
)

// The storefront's extras (issue 25): what a product page says the buyer
// gets.

// included is a listing's "What's included": its deliverables in order,
// then its license key, its membership and its access limits.
func (r *Resolver) included(ctx context.Context, l *db.Listing) ([]IncludedItem, error) {
	var ds []db.Deliverable
	if err := r.DB.NewSelect().Model(&ds).Where("listing_id = ?", l.ID).OrderExpr("created_at, id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("included deliverables: %w", err)
	}
	out := make([]IncludedItem, 0, len(ds)+3)
	for _, d := range ds {
		switch d.Type {
		case "file":
			out = append(out, IncludedItem{Kind: "File", Name: deref(d.FileName, "file"), Detail: ByteSize(deref64(d.FileSize, 0))})
		case "url":
			out = append(out, IncludedItem{Kind: "Link", Detail: "A link, on your download page"})
		default:
			out = append(out, IncludedItem{Kind: "Text", Detail: "A message from the seller, on your download page"})
		}
	}
	if l.LicenseEnabled {
		detail := "Activates on any number of devices"
		if n := l.LicenseActivationLimit; n != nil {
			detail = "Activates on up to " + count(*n, "device")
		}
		if d := l.LicenseExpiresAfterDays; d != nil {
			detail += "; valid for " + count(*d, "day")
		}
		out = append(out, IncludedItem{Kind: "License key", Detail: detail})
	}
	if l.Billing == db.BillingMembership {
		iv := deref(l.BillingInterval, membership.Month)
		detail := "Renews every " + membership.Noun(iv) + " until you cancel"
		if t := (membership.Offer{TrialDays: l.TrialDays}).TrialText(); t != "" {
			detail = t + "; then renews every " + membership.Noun(iv) + " until you cancel"
		}
		out = append(out, IncludedItem{Kind: "Membership", Detail: detail})
	}
	if l.AccessDownloadLimit != nil || l.AccessDays != nil {
		var parts []string
		if n := l.AccessDownloadLimit; n != nil {
			parts = append(parts, count(*n, "download"))
		}
		if n := l.AccessDays; n != nil {
			parts = append(parts, "for "+count(*n, "day"))
		}
		detail := parts[0]
		if len(parts) == 2 {
			detail += ", " + parts[1]
		}
		out = append(out, IncludedItem{Kind: "Access", Detail: detail})
	}
	return out, nil
}

// count is "1 device", "3 devices".
func count(n int, noun string) string {
	return strconv.Itoa(n) + " " + plural(n, noun, noun+"s")
}

// ByteSize is a file's size as people read it: "812 bytes", "4.2 KB",
// "12.5 MB", "1.1 GB" (powers of 1000).
func ByteSize(n int64) string {
	switch {
	case n < 1000:
		return count(int(n), "byte")
	case n < 1000_000:
		return strconv.FormatFloat(float64(n)/1e3, 'f', 1, 64) + " KB"
	case n < 1000_000_000:
		return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + " MB"
	}
	return strconv.FormatFloat(float64(n)/1e9, 'f', 1, 64) + " GB"
}
