// The Go side of graph/schema/enums.graphqls: one string type per GraphQL
// enum, whose constants are the lowercase strings REST encodes. gqlgen.yml
// binds every GraphQL value to its constant (enum_values), so `make generate`
// fails if the two disagree.

package model

// PlanID: a pricing plan.
type PlanID string

// The values of PlanID.
const (
	PlanIDFree   PlanID = "free"   // No monthly price; a 15 % platform fee.
	PlanIDGrowth PlanID = "growth" // 29 USD a month; a 5 % platform fee.
	PlanIDScale  PlanID = "scale"  // 99 USD a month; a 3 % platform fee.
)

// Valid reports whether v is one of the values of PlanID.
func (v PlanID) Valid() bool {
	switch v {
	case PlanIDFree, PlanIDGrowth, PlanIDScale:
		return true
	}
	return false
}

// BillingStatus: whether the account's plan is paid up.
type BillingStatus string

// The values of BillingStatus.
const (
	BillingStatusActive  BillingStatus = "active"   // The plan is paid (or free).
	BillingStatusPastDue BillingStatus = "past_due" // A renewal failed; the account keeps selling during the grace period.
	BillingStatusUnpaid  BillingStatus = "unpaid"   // The grace period ended unpaid; the account cannot sell until billing is updated.
)

// Valid reports whether v is one of the values of BillingStatus.
func (v BillingStatus) Valid() bool {
	switch v {
	case BillingStatusActive, BillingStatusPastDue, BillingStatusUnpaid:
		return true
	}
	return false
}

// ProcessorConnectionStatus: the state of the account's connection to the payment processor.
type ProcessorConnectionStatus string

// The values of ProcessorConnectionStatus.
const (
	ProcessorConnectionStatusNotConnected ProcessorConnectionStatus = "not_connected" // No processor account yet.
	ProcessorConnectionStatusOnboarding   ProcessorConnectionStatus = "onboarding"    // Connect was called; the seller has not finished the processor's onboarding.
	ProcessorConnectionStatusConnected    ProcessorConnectionStatus = "connected"     // The processor account is linked (charges may still be disabled).
	ProcessorConnectionStatusDisconnected ProcessorConnectionStatus = "disconnected"  // The processor account was disconnected; connect again to sell.
)

// Valid reports whether v is one of the values of ProcessorConnectionStatus.
func (v ProcessorConnectionStatus) Valid() bool {
	switch v {
	case ProcessorConnectionStatusNotConnected, ProcessorConnectionStatusOnboarding, ProcessorConnectionStatusConnected, ProcessorConnectionStatusDisconnected:
		return true
	}
	return false
}

// ActionCode: what a readiness action asks for.
type ActionCode string

// The values of ActionCode.
const (
	ActionCodeConnectStripe        ActionCode = "connect_stripe"        // Connect a payment processor account.
	ActionCodeEnableCharges        ActionCode = "enable_charges"        // Finish the processor's onboarding so it enables charges.
	ActionCodeUpdateBilling        ActionCode = "update_billing"        // Pay for the plan: a renewal failed.
	ActionCodeWebhookDisabled      ActionCode = "webhook_disabled"      // Re-enable a webhook endpoint that was disabled after consecutive failures.
	ActionCodeWebhookFailing       ActionCode = "webhook_failing"       // Fix a webhook endpoint that keeps failing, then test it.
	ActionCodeFulfillOrder         ActionCode = "fulfill_order"         // Fulfill a paid order that waits for the seller's system.
	ActionCodePublishListing       ActionCode = "publish_listing"       // Publish a listing (or create one).
	ActionCodeConfigureFulfillment ActionCode = "configure_fulfillment" // Give the listing a way to be fulfilled: deliverables or an order.paid webhook.
	ActionCodeEnableDiscount       ActionCode = "enable_discount"       // Turn a disabled discount code back on.
	ActionCodeExtendDiscount       ActionCode = "extend_discount"       // Give an expired discount code a later end.
	ActionCodeRaiseDiscountLimit   ActionCode = "raise_discount_limit"  // Raise the limit of a discount code that paid orders used up.
	ActionCodeAwaitDiscountStart   ActionCode = "await_discount_start"  // Wait for a scheduled discount code to start, then read it again.
	ActionCodeOfferToAgents        ActionCode = "offer_to_agents"       // Connect an agent platform so buyers' agents can buy the listings (CONTRACT §25).
)

// Valid reports whether v is one of the values of ActionCode.
func (v ActionCode) Valid() bool {
	switch v {
	case ActionCodeConnectStripe, ActionCodeEnableCharges, ActionCodeUpdateBilling, ActionCodeWebhookDisabled, ActionCodeWebhookFailing, ActionCodeFulfillOrder, ActionCodePublishListing, ActionCodeConfigureFulfillment,
		ActionCodeEnableDiscount, ActionCodeExtendDiscount, ActionCodeRaiseDiscountLimit, ActionCodeAwaitDiscountStart, ActionCodeOfferToAgents:
		return true
	}
	return false
}

// ActionKind: who carries out a readiness action.
type ActionKind string

// The values of ActionKind.
const (
	ActionKindAPI   ActionKind = "api"   // A call to this API (resolve gives the method, endpoint and an example body).
	ActionKindHuman ActionKind = "human" // A person must open a page (resolve gives the url).
)

// Valid reports whether v is one of the values of ActionKind.
func (v ActionKind) Valid() bool {
	switch v {
	case ActionKindAPI, ActionKindHuman:
		return true
	}
	return false
}

// ActionPriority: how much a readiness action matters.
type ActionPriority string

// The values of ActionPriority.
const (
	ActionPriorityRequired  ActionPriority = "required"  // Nothing sells until it is done.
	ActionPrioritySuggested ActionPriority = "suggested" // Recommended; selling works without it.
)

// Valid reports whether v is one of the values of ActionPriority.
func (v ActionPriority) Valid() bool {
	switch v {
	case ActionPriorityRequired, ActionPrioritySuggested:
		return true
	}
	return false
}

// ResolveMethod: how to carry out a readiness action.
type ResolveMethod string

// The values of ResolveMethod.
const (
	ResolveMethodGet      ResolveMethod = "GET"      // HTTP GET on the endpoint.
	ResolveMethodPost     ResolveMethod = "POST"     // HTTP POST on the endpoint.
	ResolveMethodPut      ResolveMethod = "PUT"      // HTTP PUT on the endpoint.
	ResolveMethodDelete   ResolveMethod = "DELETE"   // HTTP DELETE on the endpoint.
	ResolveMethodRedirect ResolveMethod = "redirect" // Send a person to the url.
)

// Valid reports whether v is one of the values of ResolveMethod.
func (v ResolveMethod) Valid() bool {
	switch v {
	case ResolveMethodGet, ResolveMethodPost, ResolveMethodPut, ResolveMethodDelete, ResolveMethodRedirect:
		return true
	}
	return false
}

// APIKeyScope: what an API key may do.
type APIKeyScope string

// The values of APIKeyScope.
const (
	APIKeyScopeFull     APIKeyScope = "full"      // Every operation.
	APIKeyScopeReadOnly APIKeyScope = "read_only" // Queries only (REST: GET only); mutations are refused with permission_denied.
)

// Valid reports whether v is one of the values of APIKeyScope.
func (v APIKeyScope) Valid() bool {
	switch v {
	case APIKeyScopeFull, APIKeyScopeReadOnly:
		return true
	}
	return false
}

// ListingStatus: the lifecycle state of a listing.
type ListingStatus string

// The values of ListingStatus.
const (
	ListingStatusDraft     ListingStatus = "draft"     // Being edited; not for sale. Every field can change.
	ListingStatusPublished ListingStatus = "published" // On sale at its product page.
	ListingStatusPaused    ListingStatus = "paused"    // Off sale; only status can change (back to PUBLISHED).
)

// Valid reports whether v is one of the values of ListingStatus.
func (v ListingStatus) Valid() bool {
	switch v {
	case ListingStatusDraft, ListingStatusPublished, ListingStatusPaused:
		return true
	}
	return false
}

// CoverBlur: when the product page blurs the cover image.
type CoverBlur string

// The values of CoverBlur.
const (
	CoverBlurTrue  CoverBlur = "true"  // Always.
	CoverBlurFalse CoverBlur = "false" // Never.
	CoverBlurAuto  CoverBlur = "auto"  // When the cover image is also one of the deliverables (the default).
)

// Valid reports whether v is one of the values of CoverBlur.
func (v CoverBlur) Valid() bool {
	switch v {
	case CoverBlurTrue, CoverBlurFalse, CoverBlurAuto:
		return true
	}
	return false
}

// Fulfillment: how a listing's orders are fulfilled (computed from its deliverables).
type Fulfillment string

// The values of Fulfillment.
const (
	FulfillmentManaged  Fulfillment = "managed"  // The service delivers the listing's deliverables when an order is paid.
	FulfillmentExternal Fulfillment = "external" // The seller's system fulfills (the listing has no deliverables).
)

// Valid reports whether v is one of the values of Fulfillment.
func (v Fulfillment) Valid() bool {
	switch v {
	case FulfillmentManaged, FulfillmentExternal:
		return true
	}
	return false
}

// ListingPricing: how a listing is priced.
type ListingPricing string

// The values of ListingPricing.
const (
	ListingPricingFixed          ListingPricing = "fixed"             // The listing's price is what a buyer pays.
	ListingPricingPayWhatYouWant ListingPricing = "pay_what_you_want" // The buyer names the amount: at least the listing's price (its minimum; 0 allows free orders), at most its maximum price.
)

// Valid reports whether v is one of the values of ListingPricing.
func (v ListingPricing) Valid() bool {
	switch v {
	case ListingPricingFixed, ListingPricingPayWhatYouWant:
		return true
	}
	return false
}

// ExternalDelivery: how an external listing's orders get their content.
type ExternalDelivery string

// The values of ExternalDelivery.
const (
	ExternalDeliveryWebhook   ExternalDelivery = "webhook"   // The order.paid webhook hands the order off to the seller's system (the default).
	ExternalDeliveryGenerated ExternalDelivery = "generated" // The seller's system pushes the content with fulfillOrder.
)

// Valid reports whether v is one of the values of ExternalDelivery.
func (v ExternalDelivery) Valid() bool {
	switch v {
	case ExternalDeliveryWebhook, ExternalDeliveryGenerated:
		return true
	}
	return false
}

// DeliverableType: the kind of content a deliverable holds.
type DeliverableType string

// The values of DeliverableType.
const (
	DeliverableTypeFile DeliverableType = "file" // An uploaded file, downloaded from the buyer's download page.
	DeliverableTypeURL  DeliverableType = "url"  // An https link the buyer is redirected to.
	DeliverableTypeText DeliverableType = "text" // Text shown to the buyer.
)

// Valid reports whether v is one of the values of DeliverableType.
func (v DeliverableType) Valid() bool {
	switch v {
	case DeliverableTypeFile, DeliverableTypeURL, DeliverableTypeText:
		return true
	}
	return false
}

// CheckoutFieldKind: the input kind of a checkout form field.
type CheckoutFieldKind string

// The values of CheckoutFieldKind.
const (
	CheckoutFieldKindText    CheckoutFieldKind = "text"    // Free text.
	CheckoutFieldKindSelect  CheckoutFieldKind = "select"  // One of the field's options.
	CheckoutFieldKindDate    CheckoutFieldKind = "date"    // A date, YYYY-MM-DD.
	CheckoutFieldKindAddress CheckoutFieldKind = "address" // A postal address: line1, line2, city, postal_code, state, country.
)

// Valid reports whether v is one of the values of CheckoutFieldKind.
func (v CheckoutFieldKind) Valid() bool {
	switch v {
	case CheckoutFieldKindText, CheckoutFieldKindSelect, CheckoutFieldKindDate, CheckoutFieldKindAddress:
		return true
	}
	return false
}

// OrderContentType: where an order's content comes from.
type OrderContentType string

// The values of OrderContentType.
const (
	OrderContentTypeStatic    OrderContentType = "static"    // The listing's deliverables, delivered by the service.
	OrderContentTypeGenerated OrderContentType = "generated" // Content the seller's system pushes with fulfillOrder.
	OrderContentTypeWebhook   OrderContentType = "webhook"   // Handed off to the seller's system by the order.paid webhook.
)

// Valid reports whether v is one of the values of OrderContentType.
func (v OrderContentType) Valid() bool {
	switch v {
	case OrderContentTypeStatic, OrderContentTypeGenerated, OrderContentTypeWebhook:
		return true
	}
	return false
}

// OrderStatus: the lifecycle state of an order.
type OrderStatus string

// The values of OrderStatus.
const (
	OrderStatusPending   OrderStatus = "pending"   // Checkout started; not paid yet.
	OrderStatusPaid      OrderStatus = "paid"      // Paid; waiting for fulfillment (external listings) or being delivered.
	OrderStatusFulfilled OrderStatus = "fulfilled" // The buyer has the content.
	OrderStatusCanceled  OrderStatus = "canceled"  // The checkout was canceled or expired.
	OrderStatusFailed    OrderStatus = "failed"    // The payment failed.
	OrderStatusRefunded  OrderStatus = "refunded"  // The payment was refunded.
)

// Valid reports whether v is one of the values of OrderStatus.
func (v OrderStatus) Valid() bool {
	switch v {
	case OrderStatusPending, OrderStatusPaid, OrderStatusFulfilled, OrderStatusCanceled, OrderStatusFailed, OrderStatusRefunded:
		return true
	}
	return false
}

// PaymentStatus: the state of an order's payment.
type PaymentStatus string

// The values of PaymentStatus.
const (
	PaymentStatusUnpaid   PaymentStatus = "unpaid"   // Not paid.
	PaymentStatusPaid     PaymentStatus = "paid"     // Captured.
	PaymentStatusRefunded PaymentStatus = "refunded" // Refunded.
)

// Valid reports whether v is one of the values of PaymentStatus.
func (v PaymentStatus) Valid() bool {
	switch v {
	case PaymentStatusUnpaid, PaymentStatusPaid, PaymentStatusRefunded:
		return true
	}
	return false
}

// DisputeStatus: the state of a dispute (chargeback) on an order.
type DisputeStatus string

// The values of DisputeStatus.
const (
	DisputeStatusNeedsResponse DisputeStatus = "needs_response" // Opened by the buyer's bank; evidence may be submitted at the processor.
	DisputeStatusUnderReview   DisputeStatus = "under_review"   // The bank is reviewing the evidence.
	DisputeStatusWon           DisputeStatus = "won"            // Closed in the seller's favour.
	DisputeStatusLost          DisputeStatus = "lost"           // Closed in the buyer's favour: access is revoked and the amount leaves revenue.
)

// Valid reports whether v is one of the values of DisputeStatus.
func (v DisputeStatus) Valid() bool {
	switch v {
	case DisputeStatusNeedsResponse, DisputeStatusUnderReview, DisputeStatusWon, DisputeStatusLost:
		return true
	}
	return false
}

// EventType: the type of an event of the log (and of a webhook delivery).
type EventType string

// The values of EventType.
const (
	EventTypeOrderPaid          EventType = "order.paid"           // order.paid: the payment was captured.
	EventTypeOrderFulfilled     EventType = "order.fulfilled"      // order.fulfilled: the buyer has the content.
	EventTypeOrderRefunded      EventType = "order.refunded"       // order.refunded: the refund was confirmed.
	EventTypeOrderDisputed      EventType = "order.disputed"       // order.disputed: a dispute was opened or changed.
	EventTypeOrderDisputeClosed EventType = "order.dispute_closed" // order.dispute_closed: a dispute was won or lost.
	EventTypeOrderCanceled      EventType = "order.canceled"       // order.canceled: the checkout was canceled or expired.
	// license_key.activated: a license key was activated on a device (data: the license key, with the activation as data.activation). Only to endpoints that list it.
	EventTypeLicenseKeyActivated EventType = "license_key.activated"
	// license_key.deactivated: a device was freed from a license key (data: the license key, with the removed activation as data.activation). Only to endpoints that list it.
	EventTypeLicenseKeyDeactivated EventType = "license_key.deactivated"
	// membership.created: a membership's first order was paid.
	EventTypeMembershipCreated EventType = "membership.created"
	// membership.renewed: a renewal was paid and the period moved on.
	EventTypeMembershipRenewed EventType = "membership.renewed"
	// membership.payment_failed: a renewal attempt failed.
	EventTypeMembershipPaymentFailed EventType = "membership.payment_failed"
	// membership.canceled: a membership was canceled.
	EventTypeMembershipCanceled EventType = "membership.canceled"
	// membership.resumed: a cancel was undone.
	EventTypeMembershipResumed EventType = "membership.resumed"
	// membership.ended: a membership ended and its access closed.
	EventTypeMembershipEnded EventType = "membership.ended"
)

// Valid reports whether v is one of the values of EventType.
func (v EventType) Valid() bool {
	switch v {
	case EventTypeOrderPaid, EventTypeOrderFulfilled, EventTypeOrderRefunded, EventTypeOrderDisputed, EventTypeOrderDisputeClosed, EventTypeOrderCanceled,
		EventTypeLicenseKeyActivated, EventTypeLicenseKeyDeactivated,
		EventTypeMembershipCreated, EventTypeMembershipRenewed, EventTypeMembershipPaymentFailed,
		EventTypeMembershipCanceled, EventTypeMembershipResumed, EventTypeMembershipEnded:
		return true
	}
	return false
}

// WebhookStatus: whether a webhook endpoint receives deliveries.
type WebhookStatus string

// The values of WebhookStatus.
const (
	WebhookStatusEnabled  WebhookStatus = "enabled"  // Deliveries are sent.
	WebhookStatusDisabled WebhookStatus = "disabled" // Nothing is sent; disabledReason says why.
)

// Valid reports whether v is one of the values of WebhookStatus.
func (v WebhookStatus) Valid() bool {
	switch v {
	case WebhookStatusEnabled, WebhookStatusDisabled:
		return true
	}
	return false
}

// WebhookDisabledReason: why a webhook endpoint is disabled.
type WebhookDisabledReason string

// The values of WebhookDisabledReason.
const (
	WebhookDisabledReasonManual              WebhookDisabledReason = "manual"               // The seller disabled it.
	WebhookDisabledReasonConsecutiveFailures WebhookDisabledReason = "consecutive_failures" // Three deliveries in a row failed permanently.
	WebhookDisabledReasonAccountDeleted      WebhookDisabledReason = "account_deleted"      // The account was deleted.
)

// Valid reports whether v is one of the values of WebhookDisabledReason.
func (v WebhookDisabledReason) Valid() bool {
	switch v {
	case WebhookDisabledReasonManual, WebhookDisabledReasonConsecutiveFailures, WebhookDisabledReasonAccountDeleted:
		return true
	}
	return false
}

// WebhookDeliveryStatus: the state of one event's delivery to one endpoint.
type WebhookDeliveryStatus string

// The values of WebhookDeliveryStatus.
const (
	WebhookDeliveryStatusPending   WebhookDeliveryStatus = "pending"   // Not delivered yet; nextAttemptAt says when the next attempt runs.
	WebhookDeliveryStatusDelivered WebhookDeliveryStatus = "delivered" // The endpoint answered 2xx.
	WebhookDeliveryStatusFailed    WebhookDeliveryStatus = "failed"    // Every attempt failed (or the endpoint answered 410 Gone).
)

// Valid reports whether v is one of the values of WebhookDeliveryStatus.
func (v WebhookDeliveryStatus) Valid() bool {
	switch v {
	case WebhookDeliveryStatusPending, WebhookDeliveryStatusDelivered, WebhookDeliveryStatusFailed:
		return true
	}
	return false
}

// FilePurpose: what an uploaded file is for; each purpose has its size limit and types.
type FilePurpose string

// The values of FilePurpose.
const (
	FilePurposeDeliverable FilePurpose = "deliverable" // Content a buyer receives (at most 25 MB).
	FilePurposeCover       FilePurpose = "cover"       // A listing's cover image (at most 5 MB; JPEG, PNG, GIF or WebP).
	FilePurposeAvatar      FilePurpose = "avatar"      // The seller's profile picture (at most 2 MB; JPEG, PNG, GIF or WebP).
)

// Valid reports whether v is one of the values of FilePurpose.
func (v FilePurpose) Valid() bool {
	switch v {
	case FilePurposeDeliverable, FilePurposeCover, FilePurposeAvatar:
		return true
	}
	return false
}

// BootstrapStatus: the state of a bootstrap session.
type BootstrapStatus string

// The values of BootstrapStatus.
const (
	BootstrapStatusPending   BootstrapStatus = "pending"   // A passcode was emailed; verify it.
	BootstrapStatusVerified  BootstrapStatus = "verified"  // The passcode was verified; complete the store.
	BootstrapStatusCompleted BootstrapStatus = "completed" // The store was completed; the session cannot be used again.
	BootstrapStatusDead      BootstrapStatus = "dead"      // Too many wrong passcodes; start again.
)

// Valid reports whether v is one of the values of BootstrapStatus.
func (v BootstrapStatus) Valid() bool {
	switch v {
	case BootstrapStatusPending, BootstrapStatusVerified, BootstrapStatusCompleted, BootstrapStatusDead:
		return true
	}
	return false
}

// DiscountType: how a discount code takes money off.
type DiscountType string

// The values of DiscountType.
const (
	DiscountTypePercentage DiscountType = "percentage" // A percentage of the subtotal (percentOff), rounded half up.
	DiscountTypeFixed      DiscountType = "fixed"      // A fixed amount (amountOff), never more than the subtotal.
)

// Valid reports whether v is one of the values of DiscountType.
func (v DiscountType) Valid() bool {
	switch v {
	case DiscountTypePercentage, DiscountTypeFixed:
		return true
	}
	return false
}

// DiscountStatus: the status of a discount code, computed now (in this precedence).
type DiscountStatus string

// The values of DiscountStatus.
const (
	DiscountStatusDisabled  DiscountStatus = "disabled"  // Turned off by the seller.
	DiscountStatusExpired   DiscountStatus = "expired"   // Its expiresAt has passed.
	DiscountStatusExhausted DiscountStatus = "exhausted" // Paid orders reached its maxRedemptions.
	DiscountStatusScheduled DiscountStatus = "scheduled" // Its startsAt is still ahead.
	DiscountStatusActive    DiscountStatus = "active"    // Buyers can use it.
)

// Valid reports whether v is one of the values of DiscountStatus.
func (v DiscountStatus) Valid() bool {
	switch v {
	case DiscountStatusDisabled, DiscountStatusExpired, DiscountStatusExhausted, DiscountStatusScheduled, DiscountStatusActive:
		return true
	}
	return false
}

// LicenseKeyStatus: the status of a license key (CONTRACT §20).
type LicenseKeyStatus string

// The values of LicenseKeyStatus.
const (
	LicenseKeyStatusActive   LicenseKeyStatus = "active"   // The key activates and validates.
	LicenseKeyStatusDisabled LicenseKeyStatus = "disabled" // Turned off by the seller.
	LicenseKeyStatusRevoked  LicenseKeyStatus = "revoked"  // The order was refunded or its dispute lost.
	LicenseKeyStatusExpired  LicenseKeyStatus = "expired"  // Its expiresAt has passed.
)

// Valid reports whether v is one of the values of LicenseKeyStatus.
func (v LicenseKeyStatus) Valid() bool {
	switch v {
	case LicenseKeyStatusActive, LicenseKeyStatusDisabled, LicenseKeyStatusRevoked, LicenseKeyStatusExpired:
		return true
	}
	return false
}

// LicenseValidationCode: what a license validation found (CONTRACT §20).
type LicenseValidationCode string

// The values of LicenseValidationCode.
const (
	LicenseValidationCodeValid           LicenseValidationCode = "valid"            // The key is active (on the device, for the listing given).
	LicenseValidationCodeExpired         LicenseValidationCode = "expired"          // The key's expiresAt has passed.
	LicenseValidationCodeDisabled        LicenseValidationCode = "disabled"         // The seller turned the key off.
	LicenseValidationCodeRevoked         LicenseValidationCode = "revoked"          // The order was refunded or its dispute lost.
	LicenseValidationCodeNotActivated    LicenseValidationCode = "not_activated"    // The key is not active on the fingerprint given.
	LicenseValidationCodeListingMismatch LicenseValidationCode = "listing_mismatch" // The key is for another listing.
)

// Valid reports whether v is one of the values of LicenseValidationCode.
func (v LicenseValidationCode) Valid() bool {
	switch v {
	case LicenseValidationCodeValid, LicenseValidationCodeExpired, LicenseValidationCodeDisabled,
		LicenseValidationCodeRevoked, LicenseValidationCodeNotActivated, LicenseValidationCodeListingMismatch:
		return true
	}
	return false
}

// ListingBilling: how a listing is billed (CONTRACT §26).
type ListingBilling string

// The values of ListingBilling.
const (
	ListingBillingOneTime    ListingBilling = "one_time"   // Bought once.
	ListingBillingMembership ListingBilling = "membership" // Charged every interval.
)

// Valid reports whether v is one of the values of ListingBilling.
func (v ListingBilling) Valid() bool {
	return v == ListingBillingOneTime || v == ListingBillingMembership
}

// MembershipInterval: how often a membership is billed.
type MembershipInterval string

// The values of MembershipInterval.
const (
	MembershipIntervalMonth MembershipInterval = "month" // Every month.
	MembershipIntervalYear  MembershipInterval = "year"  // Every year.
)

// Valid reports whether v is one of the values of MembershipInterval.
func (v MembershipInterval) Valid() bool {
	return v == MembershipIntervalMonth || v == MembershipIntervalYear
}

// MembershipStatus: the lifecycle state of a membership (CONTRACT §26).
type MembershipStatus string

// The values of MembershipStatus.
const (
	MembershipStatusTrialing MembershipStatus = "trialing" // In its free trial.
	MembershipStatusActive   MembershipStatus = "active"   // Paid up.
	MembershipStatusPastDue  MembershipStatus = "past_due" // A renewal failed and is being retried.
	MembershipStatusCanceled MembershipStatus = "canceled" // Ends at the period's end.
	MembershipStatusEnded    MembershipStatus = "ended"    // Over: access closed.
)

// Valid reports whether v is one of the values of MembershipStatus.
func (v MembershipStatus) Valid() bool {
	switch v {
	case MembershipStatusTrialing, MembershipStatusActive, MembershipStatusPastDue, MembershipStatusCanceled, MembershipStatusEnded:
		return true
	}
	return false
}

// MembershipEndedReason: why a membership ended.
type MembershipEndedReason string

// The values of MembershipEndedReason.
const (
	MembershipEndedReasonCanceled      MembershipEndedReason = "canceled"       // Canceled.
	MembershipEndedReasonPaymentFailed MembershipEndedReason = "payment_failed" // The last renewal attempt failed.
	MembershipEndedReasonRefunded      MembershipEndedReason = "refunded"       // The latest order was refunded.
	MembershipEndedReasonDisputeLost   MembershipEndedReason = "dispute_lost"   // A dispute was lost.
)

// Valid reports whether v is one of the values of MembershipEndedReason.
func (v MembershipEndedReason) Valid() bool {
	switch v {
	case MembershipEndedReasonCanceled, MembershipEndedReasonPaymentFailed, MembershipEndedReasonRefunded, MembershipEndedReasonDisputeLost:
		return true
	}
	return false
}

// BillingReason: why an order was created (CONTRACT §26).
type BillingReason string

// The values of BillingReason.
const (
	BillingReasonMembershipCreate BillingReason = "membership_create" // A membership's first order.
	BillingReasonMembershipCycle  BillingReason = "membership_cycle"  // A renewal.
)

// Valid reports whether v is one of the values of BillingReason.
func (v BillingReason) Valid() bool {
	return v == BillingReasonMembershipCreate || v == BillingReasonMembershipCycle
}
