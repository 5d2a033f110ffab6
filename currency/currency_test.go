package currency

import (
	"slices"
	"strings"
	"testing"
)

func TestTable(t *testing.T) {
	t.Parallel()
	if len(All) != 29 {
		t.Fatalf("%d currencies, want 29", len(All))
	}
	if !slices.IsSortedFunc(All, func(a, b Currency) int { return strings.Compare(a.Code, b.Code) }) {
		t.Fatal("All must be sorted by code (Lookup searches it)")
	}
	for _, c := range All {
		if got, ok := Lookup(strings.ToUpper(c.Code)); !ok || got != c {
			t.Errorf("Lookup(%q) = %v, %v", c.Code, got, ok)
		}
	}
	if _, ok := Lookup("xxx"); ok {
		t.Error("xxx is not supported")
	}
}

func TestFormat(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		amount int64
		code   string
		want   string
	}{
		{1999, "usd", "$19.99"},
		{5, "usd", "$0.05"},
		{123456789, "eur", "€1,234,567.89"},
		{1500, "jpy", "¥1,500"},
		{1000, "KRW", "₩1,000"},
		{1000, "chf", "CHF 10.00"},
		{-250, "gbp", "-£2.50"},
		{42, "xyz", "42 XYZ"},
	} {
		if got := Format(tc.amount, tc.code); got != tc.want {
			t.Errorf("Format(%d, %q) = %q, want %q", tc.amount, tc.code, got, tc.want)
		}
	}
}
