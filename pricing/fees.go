package pricing

import (
	"fmt"
	"strconv"
	"strings"
)

// feeBasisPoints is each plan's platform fee in hundredths of a percent
// (spec: free 15 %, growth 5 %, scale 3 %).
var feeBasisPoints = map[string]int64{"free": 1500, "growth": 500, "scale": 300}

// PlatformFee is round_half_up(amount × fee_rate) of a plan, in the
// amount's minor units (CONTRACT §9); 0 for an unknown plan or a
// non-positive amount.
func PlatformFee(amount int64, plan string) int64 {
	if amount <= 0 {
		return 0
	}
	return (amount*feeBasisPoints[plan] + 5000) / 10000
}

// FeeRate is a plan's fee rate as the API writes it ("0.15"), false for an
// unknown plan.
func FeeRate(plan string) (string, bool) {
	bp, ok := feeBasisPoints[plan]
	if !ok {
		return "", false
	}
	frac := strconv.FormatInt(10000+bp%10000, 10)[1:] // four digits
	frac = strings.TrimRight(frac, "0")
	for len(frac) < 2 {
		frac += "0"
	}
	return strconv.FormatInt(bp/10000, 10) + "." + frac, true
}

// FeePercent is a plan's fee rate in percent, as a processor that bills
// renewals itself takes it (Stripe's application_fee_percent): "15", "5",
// "2.5"; false for an unknown plan.
func FeePercent(plan string) (string, bool) {
	bp, ok := feeBasisPoints[plan]
	if !ok {
		return "", false
	}
	s := strconv.FormatInt(bp/100, 10)
	if frac := strings.TrimRight(fmt.Sprintf("%02d", bp%100), "0"); frac != "" {
		s += "." + frac
	}
	return s, true
}
