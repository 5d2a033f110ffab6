package model

import (
	"time"

	"github.com/99designs/gqlgen/graphql"
)

// Listing is a product for sale, in full.
type Listing struct {
	Object           string           `json:"object"`
	ID               string           `json:"id"`
	AccountID        string           `json:"-"`
	Title            string           `json:"title"`
	Description      *string          `json:"description"`
	Price            int64            `json:"price"`
	Pricing          ListingPricing   `json:"pricing"`
	SuggestedPrice   *int64           `json:"suggested_price"`
	MaximumPrice     *int64           `json:"maximum_price"`
	Currency         *string          `json:"currency"`
	Slug             string           `json:"slug"`
	Status           ListingStatus    `json:"status"`
	URL              string           `json:"url"`
	CheckoutURL      string           `json:"checkout_url"`
	CoverURL         *string          `json:"cover_url"`
	CoverBlur        CoverBlur        `json:"cover_blur"`
	Fulfillment      Fulfillment      `json:"fulfillment"`
	ExternalDelivery ExternalDelivery `json:"external_delivery"`
	Deliverables     []*Deliverable   `json:"deliverables"`
	CheckoutSchema   []*CheckoutField `json:"checkout_schema"`
	// License is null without one (CONTRACT §20).
	License *LicenseSettings `json:"license"`
	// Access is null without limits (CONTRACT §21).
	Access *ListingAccess `json:"access"`
	// Billing, Interval (null on a one-time listing) and TrialDays are the
	// listing's billing (CONTRACT §26).
	Billing     ListingBilling      `json:"billing"`
	Interval    *MembershipInterval `json:"interval"`
	TrialDays   int                 `json:"trial_days"`
	UtmSource   *string             `json:"utm_source"`
	UtmMedium   *string             `json:"utm_medium"`
	UtmCampaign *string             `json:"utm_campaign"`
	Metadata    map[string]any      `json:"metadata"`
	Reviews     *Reviews            `json:"reviews"`
	Readiness   *ListingReadiness   `json:"readiness"`
	CreatedAt   time.Time           `json:"created_at"`
	UpdatedAt   time.Time           `json:"updated_at"`
	PublishedAt *time.Time          `json:"published_at"`
	// lazyReadiness derives Readiness when GraphQL selects it (SetLazyReadiness).
	lazyReadiness func() *ListingReadiness
}

// SetLazyReadiness leaves the listing's readiness to be derived by f when a
// GraphQL query selects it (GraphQLReadiness), instead of for every listing
// of a page. Only for models that GraphQL alone renders: REST encodes the
// Readiness field.
func (l *Listing) SetLazyReadiness(f func() *ListingReadiness) { l.lazyReadiness = f }

// GraphQLReadiness is Listing.readiness in GraphQL (gqlgen.yml binds it):
// Readiness when set, else derived now. It writes nothing, since one model
// may be rendered by several goroutines at once (a dataloader's listing
// under several orders).
func (l *Listing) GraphQLReadiness() *ListingReadiness {
	if l.Readiness == nil && l.lazyReadiness != nil {
		return l.lazyReadiness()
	}
	return l.Readiness
}

// ListingSummary is a listing in a list.
type ListingSummary struct {
	Object      string         `json:"object"`
	ID          string         `json:"id"`
	Title       string         `json:"title"`
	Price       int64          `json:"price"`
	Pricing     ListingPricing `json:"pricing"`
	Currency    *string        `json:"currency"`
	Slug        string         `json:"slug"`
	Status      ListingStatus  `json:"status"`
	URL         string         `json:"url"`
	Fulfillment Fulfillment    `json:"fulfillment"`
	CreatedAt   time.Time      `json:"created_at"`
	PublishedAt *time.Time     `json:"published_at"`
}

// ListingList is a page of listing summaries, newest first.
type ListingList struct {
	Object     string            `json:"object"`
	Data       []*ListingSummary `json:"data"`
	HasMore    bool              `json:"has_more"`
	NextCursor *string           `json:"next_cursor"`
}

// ListingReadiness says whether the listing can be bought, and what to do next.
type ListingReadiness struct {
	Sellable bool              `json:"sellable"`
	Actions  []*Action         `json:"actions"`
	Next     *ActionCode       `json:"next"`
	Refresh  *ReadinessRefresh `json:"refresh"`
}

// Reviews summarizes buyers' reviews of a listing.
type Reviews struct {
	Count         int       `json:"count"`
	AverageRating *float64  `json:"average_rating"`
	Items         []*Review `json:"items"`
}

// Review is one buyer's review.
type Review struct {
	Object    string    `json:"object"`
	ID        string    `json:"id"`
	Rating    int       `json:"rating"`
	Text      *string   `json:"text"`
	BuyerName string    `json:"buyer_name"`
	CreatedAt time.Time `json:"created_at"`
}

// ReviewList is a page of GET /v1/listings/{id}/reviews.
type ReviewList struct {
	Object     string    `json:"object"`
	Data       []*Review `json:"data"`
	HasMore    bool      `json:"has_more"`
	NextCursor *string   `json:"next_cursor"`
}

// ReviewConnection is a Relay connection of reviews.
type ReviewConnection struct {
	Edges    []*ReviewEdge `json:"edges"`
	PageInfo *PageInfo     `json:"page_info"`
}

// ReviewEdge is one review of a connection.
type ReviewEdge struct {
	Cursor string  `json:"cursor"`
	Node   *Review `json:"node"`
}

// Deliverable is content a buyer receives.
type Deliverable struct {
	Object    string           `json:"object"`
	ID        string           `json:"id"`
	Type      DeliverableType  `json:"type"`
	Value     *string          `json:"value"`
	File      *DeliverableFile `json:"file"`
	CreatedAt time.Time        `json:"created_at"`
	// Readiness is the listing's, on the response of adding a deliverable
	// (null inside a listing or an order).
	Readiness *ListingReadiness `json:"readiness"`
}

// DeliverableFile describes a file deliverable.
type DeliverableFile struct {
	Name        string `json:"name"`
	Size        int64  `json:"size"`
	ContentType string `json:"content_type"`
}

// CheckoutField is a custom buyer field of the checkout form.
type CheckoutField struct {
	Key      string            `json:"key"`
	Label    string            `json:"label"`
	Kind     CheckoutFieldKind `json:"kind"`
	Required bool              `json:"required"`
	Options  []string          `json:"options"`
}

// DeliverableInput is a deliverable to add (AddDeliverableRequest).
type DeliverableInput struct {
	Type  DeliverableType `json:"type"`
	Token *string         `json:"token"`
	Value *string         `json:"value"`
}

// SetDeliverablesInput replaces all deliverables of a listing.
type SetDeliverablesInput struct {
	Deliverables []*DeliverableInput `json:"deliverables"`
}

// CheckoutFieldInput is a checkout field in a create or update body.
type CheckoutFieldInput struct {
	Key      string            `json:"key"`
	Label    string            `json:"label"`
	Kind     CheckoutFieldKind `json:"kind"`
	Required *bool             `json:"required"`
	Options  []string          `json:"options"`
}

// CreateListingInput is the body of POST /v1/listings.
type CreateListingInput struct {
	Title            string                `json:"title"`
	Price            int64                 `json:"price"`
	Pricing          *ListingPricing       `json:"pricing"`
	SuggestedPrice   *int64                `json:"suggested_price"`
	MaximumPrice     *int64                `json:"maximum_price"`
	Description      *string               `json:"description"`
	Slug             *string               `json:"slug"`
	Cover            *string               `json:"cover"`
	CoverBlur        *CoverBlur            `json:"cover_blur"`
	Deliverables     []*DeliverableInput   `json:"deliverables"`
	CheckoutSchema   []*CheckoutFieldInput `json:"checkout_schema"`
	UtmSource        *string               `json:"utm_source"`
	UtmMedium        *string               `json:"utm_medium"`
	UtmCampaign      *string               `json:"utm_campaign"`
	Metadata         map[string]any        `json:"metadata"`
	ExternalDelivery *ExternalDelivery     `json:"external_delivery"`
	License          *LicenseSettingsInput `json:"license"`
	Access           *ListingAccessInput   `json:"access"`
	Billing          *ListingBilling       `json:"billing"`
	Interval         *MembershipInterval   `json:"interval"`
	TrialDays        *int                  `json:"trial_days"`
}

// UpdateListingInput is the body of PUT /v1/listings/{id}: only given
// fields change; null clears a nullable one.
type UpdateListingInput struct {
	Title            *string                                  `json:"title"`
	Price            *int64                                   `json:"price"`
	Pricing          *ListingPricing                          `json:"pricing"`
	SuggestedPrice   graphql.Omittable[*int64]                `json:"suggested_price"`
	MaximumPrice     graphql.Omittable[*int64]                `json:"maximum_price"`
	Description      graphql.Omittable[*string]               `json:"description"`
	Slug             *string                                  `json:"slug"`
	Cover            graphql.Omittable[*string]               `json:"cover"`
	CoverBlur        *CoverBlur                               `json:"cover_blur"`
	CheckoutSchema   graphql.Omittable[[]*CheckoutFieldInput] `json:"checkout_schema"`
	UtmSource        graphql.Omittable[*string]               `json:"utm_source"`
	UtmMedium        graphql.Omittable[*string]               `json:"utm_medium"`
	UtmCampaign      graphql.Omittable[*string]               `json:"utm_campaign"`
	Metadata         graphql.Omittable[map[string]any]        `json:"metadata"`
	ExternalDelivery *ExternalDelivery                        `json:"external_delivery"`
	License          graphql.Omittable[*LicenseSettingsInput] `json:"license"`
	Access           graphql.Omittable[*ListingAccessInput]   `json:"access"`
	Billing          *ListingBilling                          `json:"billing"`
	Interval         *MembershipInterval                      `json:"interval"`
	TrialDays        *int                                     `json:"trial_days"`
	Status           *ListingStatus                           `json:"status"`
}

// ListingConnection is a Relay connection of listings.
type ListingConnection struct {
	Edges    []*ListingEdge `json:"edges"`
	PageInfo *PageInfo      `json:"page_info"`
}

// ListingEdge is one listing of a connection.
type ListingEdge struct {
	Cursor string   `json:"cursor"`
	Node   *Listing `json:"node"`
}

// PageInfo is a Relay connection's paging state.
type PageInfo struct {
	HasNextPage     bool    `json:"has_next_page"`
	EndCursor       *string `json:"end_cursor"`
	HasPreviousPage bool    `json:"has_previous_page"`
	StartCursor     *string `json:"start_cursor"`
}

// File is an upload, usable once as a token until it expires.
type File struct {
	Object      string      `json:"object"`
	Token       string      `json:"token"`
	Purpose     FilePurpose `json:"purpose"`
	Filename    string      `json:"filename"`
	Size        int64       `json:"size"`
	ContentType string      `json:"content_type"`
	ExpiresAt   time.Time   `json:"expires_at"`
}
