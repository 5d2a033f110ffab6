// Package currency is the table of the 29 currencies the service sells in,
// with their minor units, and money formatting for pages and mail.
package currency

import (
	"slices"
	"strconv"
	"strings"
)

// Currency is a supported currency.
type Currency struct {
	Code     string // lowercase ISO 4217
	Name     string
	Symbol   string
	Exponent int // minor units: 2 for cents, 0 for JPY and KRW
}

// All lists the 29 supported currencies, by code. Zero-decimal currencies
// (JPY, KRW) have exponent 0: their amounts are whole units.
var All = []Currency{
	{"aed", "UAE dirham", "AED", 2},
	{"aud", "Australian dollar", "A$", 2},
	{"bgn", "Bulgarian lev", "BGN", 2},
	{"brl", "Brazilian real", "R$", 2},
	{"cad", "Canadian dollar", "CA$", 2},
	{"chf", "Swiss franc", "CHF", 2},
	{"czk", "Czech koruna", "CZK", 2},
	{"dkk", "Danish krone", "DKK", 2},
	{"eur", "Euro", "€", 2},
	{"gbp", "Pound sterling", "£", 2},
	{"hkd", "Hong Kong dollar", "HK$", 2},
	{"huf", "Hungarian forint", "HUF", 2},
	{"idr", "Indonesian rupiah", "IDR", 2},
	{"ils", "Israeli new shekel", "₪", 2},
	{"inr", "Indian rupee", "₹", 2},
	{"jpy", "Japanese yen", "¥", 0},
	{"krw", "South Korean won", "₩", 0},
	{"mxn", "Mexican peso", "MX$", 2},
	{"myr", "Malaysian ringgit", "RM", 2},
	{"nok", "Norwegian krone", "NOK", 2},
	{"nzd", "New Zealand dollar", "NZ$", 2},
	{"php", "Philippine peso", "₱", 2},
	{"pln", "Polish złoty", "PLN", 2},
	{"ron", "Romanian leu", "RON", 2},
	{"sek", "Swedish krona", "SEK", 2},
	{"sgd", "Singapore dollar", "S$", 2},
	{"thb", "Thai baht", "THB", 2},
	{"usd", "US dollar", "$", 2},
	{"zar", "South African rand", "ZAR", 2},
}

// Lookup finds a supported currency by code, in any case.
func Lookup(code string) (Currency, bool) {
	code = strings.ToLower(code)
	i, ok := slices.BinarySearchFunc(All, code, func(c Currency, code string) int { return strings.Compare(c.Code, code) })
	if !ok {
		return Currency{}, false
	}
	return All[i], true
}

// Format renders an amount in minor units: 1999 usd → "$19.99",
// 1500 jpy → "¥1,500". An unknown currency is shown as "amount CODE".
func Format(amount int64, code string) string {
	c, ok := Lookup(code)
	if !ok {
		return strconv.FormatInt(amount, 10) + " " + strings.ToUpper(code)
	}
	neg := amount < 0
	if neg {
		amount = -amount
	}
	div := int64(1)
	for range c.Exponent {
		div *= 10
	}
	whole, frac := amount/div, amount%div
	s := groupThousands(strconv.FormatInt(whole, 10))
	if c.Exponent > 0 {
		f := strconv.FormatInt(frac, 10)
		s += "." + strings.Repeat("0", c.Exponent-len(f)) + f
	}
	sym := c.Symbol
	if len([]rune(sym)) == 3 && strings.ToUpper(sym) == sym && !strings.ContainsAny(sym, "$") {
		sym += " " // ISO-code symbols read better with a space: "CHF 10.00"
	}
	if neg {
		return "-" + sym + s
	}
	return sym + s
}

func groupThousands(digits string) string {
	if len(digits) <= 3 {
		return digits
	}
	var b strings.Builder
	pre := len(digits) % 3
	if pre > 0 {
		b.WriteString(digits[:pre])
	}
	for i := pre; i < len(digits); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(digits[i : i+3])
	}
	return b.String()
}
