package resolvers

// The checkout's discount helpers, for the tests of package resolvers_test.
var (
	ReserveDiscount = reserveDiscount
	ConfirmDiscount = confirmDiscount
	ReleaseDiscount = releaseDiscount
)

// LookupDiscountForCheckout is lookupDiscountForCheckout.
var LookupDiscountForCheckout = (*Resolver).lookupDiscountForCheckout

// IssueLicenseKey is issueLicenseKey (its idempotence is tested directly).
var IssueLicenseKey = (*Resolver).issueLicenseKey
