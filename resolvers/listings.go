package resolvers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/99designs/gqlgen/graphql"
	"github.com/uptrace/bun"

	"commerce/db"
	"commerce/graph/model"
	"commerce/licensing"
	"commerce/membership"
	"commerce/netguard"
	"commerce/pricing"
	"commerce/problem"
	"commerce/search"
)

// Limits of CONTRACT §8 and the spec's Limits table.
const (
	maxTitle          = 200
	maxDescription    = 5000
	maxDeliverables   = 3
	maxCheckoutFields = 10
	maxUTM            = 100
	maxMetadata       = 20
	maxMetadataKey    = 40
	maxMetadataValue  = 500
	maxTextDelivery   = 100 << 10
	maxURLLen         = 2048
	maxLabel          = 100
	maxOptions        = 50
)

var checkoutKeyPattern = regexp.MustCompile(`^[a-z][a-z0-9_]{0,39}$`)

// reservedFormFields are the product page form's own fields (CONTRACT §10,
// §19), which no checkout field may be named.
var reservedFormFields = map[string]bool{"email": true, "amount": true, "discount_code": true}

// listing fields validated once for create and update.
type listingFields struct {
	f problem.Fields
}

func (v *listingFields) title(s string) string {
	t := strings.TrimSpace(s)
	if t == "" || utf8.RuneCountInString(t) > maxTitle {
		v.f.Add("title", "title is required, 1 to 200 characters")
	}
	return t
}

// prices adds the refusals of a listing's price settings to v: their
// rules among themselves (pricing.CheckListing); the currency's minimum
// charge is checked where the account's currency is read.
func (v *listingFields) prices(lp pricing.ListingPrice) {
	if p := problem.From(pricing.CheckListing(lp, "")); p != nil {
		for _, e := range p.Errors {
			v.f.Add(e.Param, e.Detail)
		}
	}
}

// listingPrice is a listing's price settings as the pricing rules take them.
func listingPrice(l *db.Listing) pricing.ListingPrice {
	return pricing.ListingPrice{Pricing: l.Pricing, Price: l.Price, Suggested: l.SuggestedPrice, Maximum: l.MaximumPrice}
}

// withDefaultMaximum gives a pay-what-you-want listing without a maximum
// price the default one, pricing.MaxAmount (CONTRACT §19), as it is stored.
func withDefaultMaximum(lp pricing.ListingPrice) pricing.ListingPrice {
	if lp.PayWhatYouWant() && lp.Maximum == nil {
		top := int64(pricing.MaxAmount)
		lp.Maximum = &top
	}
	return lp
}

func (v *listingFields) description(s *string) {
	if s != nil && utf8.RuneCountInString(*s) > maxDescription {
		v.f.Add("description", "description must be at most 5000 characters")
	}
}

func (v *listingFields) coverBlur(s *model.CoverBlur) {
	if s != nil && !s.Valid() {
		v.f.Add("cover_blur", `cover_blur must be "true", "false" or "auto"`)
	}
}

func (v *listingFields) externalDelivery(s *model.ExternalDelivery) {
	if s != nil && !s.Valid() {
		v.f.Add("external_delivery", `external_delivery must be "webhook" or "generated"`)
	}
}

func (v *listingFields) utm(name string, s *string) {
	if s != nil && utf8.RuneCountInString(*s) > maxUTM {
		v.f.Addf(name, "%s must be at most 100 characters", name)
	}
}

func (v *listingFields) slug(s *string) string {
	if s == nil {
		return ""
	}
	return slugOf(&v.f, *s)
}

// license checks a listing's license (CONTRACT §20: errors name
// license.<member>) and returns it as stored; nil is no license.
func (v *listingFields) license(in *model.LicenseSettingsInput) *licensing.Settings {
	if in == nil {
		return nil
	}
	s := &licensing.Settings{ActivationLimit: in.ActivationLimit, ExpiresAfterDays: in.ExpiresAfterDays, KeyPrefix: deref(in.KeyPrefix, "")}
	s.Check(&v.f)
	return s
}

// setLicense writes a license (nil: none) into a listing row.
func setLicense(l *db.Listing, s *licensing.Settings) {
	l.LicenseEnabled, l.LicenseActivationLimit, l.LicenseExpiresAfterDays, l.LicenseKeyPrefix = false, nil, nil, ""
	if s != nil {
		l.LicenseEnabled, l.LicenseActivationLimit, l.LicenseExpiresAfterDays, l.LicenseKeyPrefix = true, s.ActivationLimit, s.ExpiresAfterDays, s.KeyPrefix
	}
}

// billingTermsOf is a listing's billing as the membership rules take it.
func billingTermsOf(l *db.Listing) membership.Terms {
	return membership.Terms{Billing: l.Billing, Interval: deref(l.BillingInterval, ""), TrialDays: l.TrialDays,
		Pricing: l.Pricing, LicenseExpires: l.LicenseEnabled && l.LicenseExpiresAfterDays != nil}
}

// setTerms writes checked billing terms into a listing row: a one-time
// listing has no interval and no trial.
func setTerms(l *db.Listing, t membership.Terms) {
	l.Billing, l.BillingInterval, l.TrialDays = t.Billing, nil, 0
	if t.Billing == membership.BillingMembership {
		iv := t.Interval
		l.BillingInterval, l.TrialDays = &iv, t.TrialDays
	}
}

// updatedTerms are a listing's billing terms after an update: the given
// fields over the stored ones; changing to one_time clears the interval
// and the trial (given with it, they are refused). pricing and
// licenseExpires are the listing's as the update leaves them.
func updatedTerms(l *db.Listing, in model.UpdateListingInput, pricing string, licenseExpires bool) membership.Terms {
	t := billingTermsOf(l)
	if in.Billing != nil {
		t.Billing = string(*in.Billing)
		if t.Billing == membership.BillingOneTime {
			t.Interval, t.TrialDays = "", 0
		}
	}
	if in.Interval != nil {
		t.Interval = string(*in.Interval)
	}
	if in.TrialDays != nil {
		t.TrialDays = *in.TrialDays
	}
	t.Pricing, t.LicenseExpires = pricing, licenseExpires
	return t
}

func (v *listingFields) metadata(m map[string]any) map[string]string { return checkMetadata(&v.f, m) }

// checkMetadata validates a resource's metadata (listings, discounts): at
// most 20 keys of 1 to 40 characters, string values of at most 500. It
// adds every failure to f (param metadata, or metadata.KEY) and returns the
// pairs to store.
func checkMetadata(f *problem.Fields, m map[string]any) map[string]string {
	out := map[string]string{}
	if len(m) > maxMetadata {
		f.Add("metadata", "metadata holds at most 20 keys")
		return out
	}
	for k, val := range m {
		s, ok := val.(string)
		switch {
		case k == "" || utf8.RuneCountInString(k) > maxMetadataKey:
			f.Addf("metadata", "metadata keys must be 1 to %d characters", maxMetadataKey)
		case !ok:
			f.Addf("metadata."+k, "metadata values must be strings")
		case utf8.RuneCountInString(s) > maxMetadataValue:
			f.Addf("metadata."+k, "metadata values must be at most %d characters", maxMetadataValue)
		default:
			out[k] = s
		}
	}
	return out
}

func (v *listingFields) checkoutSchema(in []*model.CheckoutFieldInput) []db.CheckoutField {
	out := []db.CheckoutField{}
	if len(in) > maxCheckoutFields {
		v.f.Add("checkout_schema", "checkout_schema holds at most 10 fields")
		return out
	}
	seen := map[string]bool{}
	for i, c := range in {
		p := fmt.Sprintf("checkout_schema[%d]", i)
		if c == nil {
			v.f.Add(p, "a checkout field must be an object")
			continue
		}
		if !checkoutKeyPattern.MatchString(c.Key) {
			v.f.Add(p+".key", "key must match ^[a-z][a-z0-9_]{0,39}$")
		} else if seen[c.Key] || reservedFormFields[c.Key] {
			v.f.Add(p+".key", "keys must be unique and not email, amount or discount_code (the form has them)")
		}
		seen[c.Key] = true
		label := strings.TrimSpace(c.Label)
		if label == "" || utf8.RuneCountInString(label) > maxLabel {
			v.f.Add(p+".label", "label is required, 1 to 100 characters")
		}
		switch c.Kind {
		case "text", "date", "address":
			if c.Options != nil {
				v.f.Add(p+".options", "options are only for select fields")
			}
		case "select":
			if len(c.Options) == 0 || len(c.Options) > maxOptions {
				v.f.Add(p+".options", "a select field needs 1 to 50 options")
			}
			for j, o := range c.Options {
				if strings.TrimSpace(o) == "" || utf8.RuneCountInString(o) > maxLabel {
					v.f.Addf(fmt.Sprintf("%s.options[%d]", p, j), "options must be 1 to 100 characters")
				}
			}
		default:
			v.f.Add(p+".kind", "kind must be text, select, date or address")
		}
		out = append(out, db.CheckoutField{Key: c.Key, Label: label, Kind: string(c.Kind), Required: c.Required != nil && *c.Required, Options: c.Options})
	}
	return out
}

// checkedDeliverable is a validated deliverable input.
type checkedDeliverable struct {
	typ   string
	token string
	value string
	param string
}

// deliverables validates deliverable inputs; url deliverables are checked
// for reachability through the SSRF-safe client (outside any transaction).
func (r *Resolver) deliverables(ctx context.Context, v *listingFields, in []*model.DeliverableInput, prefix string) []checkedDeliverable {
	var out []checkedDeliverable
	for i, d := range in {
		p := fmt.Sprintf("%s[%d]", prefix, i)
		if prefix == "" {
			p = ""
		}
		field := func(name string) string {
			if p == "" {
				return name
			}
			return p + "." + name
		}
		if d == nil {
			v.f.Add(p, "a deliverable must be an object")
			continue
		}
		c := checkedDeliverable{typ: string(d.Type), param: p}
		switch d.Type {
		case "file":
			if d.Token == nil || *d.Token == "" {
				v.f.Add(field("token"), "a file deliverable needs the token of a deliverable upload")
				continue
			}
			if d.Value != nil {
				v.f.Add(field("value"), "a file deliverable takes a token, not a value")
			}
			c.token = *d.Token
		case "url":
			if d.Value == nil || *d.Value == "" || len(*d.Value) > maxURLLen {
				v.f.Add(field("value"), "a url deliverable needs its https URL in value (at most 2048 characters)")
				continue
			}
			if err := netguard.CheckURL(ctx, r.HTTP, *d.Value, r.AllowPrivateTargets); err != nil {
				v.f.Add(field("value"), "The URL cannot be used: "+err.Error())
			}
			c.value = *d.Value
		case "text":
			if d.Value == nil || *d.Value == "" || len(*d.Value) > maxTextDelivery {
				v.f.Add(field("value"), "a text deliverable needs its content in value (at most 100 KB)")
				continue
			}
			c.value = *d.Value
		default:
			v.f.Add(field("type"), "type must be file, url or text")
			continue
		}
		if d.Type != "file" && d.Token != nil {
			v.f.Add(field("token"), "only file deliverables take a token")
		}
		out = append(out, c)
	}
	return out
}

// insertDeliverables stores checked deliverables of a listing in tx,
// attaching file tokens; it returns how many there are now.
func (r *Resolver) insertDeliverables(ctx context.Context, tx db.Tx, accountID, listingID string, ds []checkedDeliverable) error {
	for _, c := range ds {
		row := &db.Deliverable{ID: db.NewID("del"), AccountID: accountID, ListingID: listingID, Type: c.typ}
		switch c.typ {
		case "file":
			param := "token"
			if c.param != "" {
				param = c.param + ".token"
			}
			f, key, err := r.claimFile(ctx, tx, accountID, c.token, "deliverable", param,
				func(*db.File) string { return privatePrefix + "deliverables/" + listingID + "/" + row.ID })
			if err != nil {
				return err
			}
			row.FileKey, row.FileName, row.FileSize, row.FileContentType = &key, &f.Filename, &f.Size, &f.ContentType
		default:
			v := c.value
			row.Value = &v
		}
		if _, err := tx.NewInsert().Model(row).Exec(ctx); err != nil {
			return fmt.Errorf("insert deliverable: %w", err)
		}
	}
	return nil
}

// CreateListing creates a draft listing. Errors: authentication_error,
// permission_denied, validation_error (every field, listed in errors; the
// price below the minimum charge of the account's currency, once it has
// one, on its own).
func (r *Resolver) CreateListing(ctx context.Context, in model.CreateListingInput) (*model.Listing, error) {
	p, err := writer(ctx)
	if err != nil {
		return nil, err
	}
	var v listingFields
	title := v.title(in.Title)
	lp := pricing.ListingPrice{Pricing: pricing.Fixed, Price: in.Price, Suggested: in.SuggestedPrice, Maximum: in.MaximumPrice}
	if in.Pricing != nil {
		lp.Pricing = string(*in.Pricing)
	}
	v.prices(lp)
	lp = withDefaultMaximum(lp)
	v.description(in.Description)
	slug := v.slug(in.Slug)
	v.coverBlur(in.CoverBlur)
	v.externalDelivery(in.ExternalDelivery)
	v.utm("utm_source", in.UtmSource)
	v.utm("utm_medium", in.UtmMedium)
	v.utm("utm_campaign", in.UtmCampaign)
	meta := v.metadata(in.Metadata)
	schema := v.checkoutSchema(in.CheckoutSchema)
	if len(in.Deliverables) > maxDeliverables {
		v.f.Add("deliverables", "a listing has at most 3 deliverables")
	}
	lic := v.license(in.License)
	acc := v.access(in.Access)
	terms := membership.Terms{Billing: membership.BillingOneTime, Pricing: lp.Pricing, LicenseExpires: lic != nil && lic.ExpiresAfterDays != nil}
	if in.Billing != nil {
		terms.Billing = string(*in.Billing)
	}
	if in.Interval != nil {
		terms.Interval = string(*in.Interval)
	}
	if in.TrialDays != nil {
		terms.TrialDays = *in.TrialDays
	}
	terms.Check(&v.f)
	ds := r.deliverables(ctx, &v, in.Deliverables, "deliverables")
	if err := v.f.Err(); err != nil {
		return nil, err
	}
	l := &db.Listing{ID: db.NewID("lst"), AccountID: p.AccountID, Title: title, Description: in.Description,
		Price: lp.Price, Pricing: lp.Pricing, SuggestedPrice: lp.Suggested, MaximumPrice: lp.Maximum, Status: db.ListingDraft, CoverBlur: deref((*string)(in.CoverBlur), "auto"),
		ExternalDelivery: deref((*string)(in.ExternalDelivery), "webhook"), CheckoutSchema: schema,
		UTMSource: in.UtmSource, UTMMedium: in.UtmMedium, UTMCampaign: in.UtmCampaign, Metadata: meta,
		DeliverablesCount: len(ds)}
	setLicense(l, lic)
	setAccess(l, acc)
	setTerms(l, terms)
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		if l.Slug, err = claimSlug(ctx, tx, "listings", l.ID, slug, title, "listing"); err != nil {
			return err
		}
		if in.Cover != nil {
			_, key, err := r.claimFile(ctx, tx, p.AccountID, *in.Cover, "cover", "cover", coverKey(l.ID))
			if err != nil {
				return err
			}
			l.CoverKey = &key
		}
		if _, err := tx.NewInsert().Model(l).Returning("created_at, updated_at").Exec(ctx); err != nil {
			if db.IsUniqueViolation(err, "listings_slug_key") {
				return problem.Validation("slug", fmt.Sprintf("The slug %q is taken; choose another.", l.Slug))
			}
			return fmt.Errorf("insert listing: %w", err)
		}
		if err := r.insertDeliverables(ctx, tx, p.AccountID, l.ID, ds); err != nil {
			return err
		}
		// The count, and the account's currency for the price's minimum
		// charge (CONTRACT §19), in one statement; a refusal rolls all back.
		var cur *string
		if err := tx.QueryRowContext(ctx, "UPDATE accounts SET listings_count = listings_count + 1 WHERE id = ? RETURNING currency",
			p.AccountID).Scan(&cur); err != nil {
			return err
		}
		return pricing.CheckListing(lp, deref(cur, ""))
	})
	if err != nil {
		return nil, err
	}
	if l.CoverKey != nil {
		r.sizeNewCover(ctx, *l.CoverKey)
	}
	return r.Listing(ctx, l.ID)
}

// coverKey names a listing's cover in the public key space.
func coverKey(listingID string) func(*db.File) string {
	return func(f *db.File) string {
		return publicPrefix + "covers/" + listingID + "/" + randomName() + extFor(f.ContentType)
	}
}

type graphqlOmittableString = graphql.Omittable[*string]

// jsonb encodes v for a jsonb column (SET col = ?::jsonb).
func jsonb(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func deref(s *string, def string) string {
	if s == nil {
		return def
	}
	return *s
}

// lockListing loads a live listing of the account for update. Errors: not_found.
func lockListing(ctx context.Context, tx db.Tx, accountID, id string) (*db.Listing, error) {
	l := new(db.Listing)
	err := tx.NewSelect().Model(l).Where("id = ?", id).Where("account_id = ?", accountID).
		Where("deleted_at IS NULL").For("UPDATE").Scan(ctx)
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return nil, problem.NotFoundf("No listing %q on this account.", id)
	}
	return l, err
}

func notInDraft(l *db.Listing) *problem.Problem {
	return problem.Newf(problem.NotInDraft, "The listing is %s; only a draft can change that way.", l.Status).
		With("current_status", l.Status).With("required_status", db.ListingDraft)
}

// Listing returns one of the caller's listings in full. Errors:
// authentication_error, not_found.
func (r *Resolver) Listing(ctx context.Context, id string) (*model.Listing, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	if !db.ValidID("lst", id) {
		return nil, problem.NotFoundf("No listing %q on this account.", id)
	}
	l, ds, reviews, facts, err := r.readListing(ctx, p.AccountID, id)
	if err != nil {
		return nil, err
	}
	if l == nil {
		return nil, problem.NotFoundf("No listing %q on this account.", id)
	}
	m := r.toListingModel(l, ds, facts)
	m.Reviews = reviews
	return m, nil
}

// deliverablesOf loads the deliverables of listings in one query.
func (r *Resolver) deliverablesOf(ctx context.Context, ids []string) (map[string][]*model.Deliverable, error) {
	out := make(map[string][]*model.Deliverable, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var rows []db.Deliverable
	if err := r.DB.NewSelect().Model(&rows).Where("listing_id IN (?)", bun.List(ids)).OrderExpr("listing_id, id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("load deliverables: %w", err)
	}
	for i := range rows {
		out[rows[i].ListingID] = append(out[rows[i].ListingID], toDeliverableModel(&rows[i]))
	}
	return out, nil
}

// DeliverablesByListing is the batch function of the GraphQL deliverables
// dataloader: the deliverables of each listing, in the order of ids.
func (r *Resolver) DeliverablesByListing(ctx context.Context, ids []string) ([][]*model.Deliverable, error) {
	m, err := r.deliverablesOf(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([][]*model.Deliverable, len(ids))
	for i, id := range ids {
		out[i] = m[id]
		if out[i] == nil {
			out[i] = []*model.Deliverable{}
		}
	}
	return out, nil
}

func toDeliverableModel(d *db.Deliverable) *model.Deliverable {
	m := &model.Deliverable{Object: "deliverable", ID: d.ID, Type: model.DeliverableType(d.Type), CreatedAt: d.CreatedAt.UTC()}
	if d.Type == "file" {
		m.File = &model.DeliverableFile{Name: deref(d.FileName, ""), ContentType: deref(d.FileContentType, "")}
		if d.FileSize != nil {
			m.File.Size = *d.FileSize
		}
	} else {
		m.Value = d.Value
	}
	return m
}

// sellerFacts are the account facts a listing's readiness depends on.
type sellerFacts struct {
	account        *db.Account
	facts          accountFacts
	accountActions []*model.Action
}

func (r *Resolver) sellerFacts(ctx context.Context, accountID string) (*sellerFacts, error) {
	a, ex, err := r.loadAccount(ctx, accountID)
	if err != nil {
		return nil, err
	}
	f := r.accountFactsOf(a, ex)
	return &sellerFacts{account: a, facts: f, accountActions: accountActions(f)}, nil
}

// fulfillmentOf is a listing's fulfillment: managed with deliverables or a
// license (CONTRACT §20: the key is the content), else external.
func fulfillmentOf(l *db.Listing) string {
	if l.DeliverablesCount > 0 || l.LicenseEnabled {
		return "managed"
	}
	return "external"
}

func (r *Resolver) toListingModel(l *db.Listing, ds []*model.Deliverable, f *sellerFacts) *model.Listing {
	m := r.listingModel(l, ds, f)
	m.Readiness = listingReadiness(l, f)
	return m
}

// toLazyListingModel is toListingModel for GraphQL alone: the readiness is
// derived only if the query selects it (about a tenth of a page of 100's
// cost when it was derived for every listing).
func (r *Resolver) toLazyListingModel(l *db.Listing, f *sellerFacts) *model.Listing {
	m := r.listingModel(l, nil, f)
	m.SetLazyReadiness(func() *model.ListingReadiness { return listingReadiness(l, f) })
	return m
}

// listingModel is a listing's model without its readiness.
func (r *Resolver) listingModel(l *db.Listing, ds []*model.Deliverable, f *sellerFacts) *model.Listing {
	url := r.BaseURL + "/p/" + l.Slug
	m := &model.Listing{
		Object: "listing", ID: l.ID, AccountID: l.AccountID, Title: l.Title, Description: l.Description, Price: l.Price,
		Pricing: model.ListingPricing(l.Pricing), SuggestedPrice: l.SuggestedPrice, MaximumPrice: l.MaximumPrice,
		Currency: f.account.Currency, Slug: l.Slug, Status: model.ListingStatus(l.Status), URL: url, CheckoutURL: url,
		CoverBlur: model.CoverBlur(l.CoverBlur), Fulfillment: model.Fulfillment(fulfillmentOf(l)), ExternalDelivery: model.ExternalDelivery(l.ExternalDelivery),
		Deliverables: ds, CheckoutSchema: make([]*model.CheckoutField, len(l.CheckoutSchema)),
		UtmSource: l.UTMSource, UtmMedium: l.UTMMedium, UtmCampaign: l.UTMCampaign, Metadata: map[string]any{},
		License: licenseSettingsOf(l), Access: listingAccessOf(l),
		Billing: listingBillingOf(l), Interval: (*model.MembershipInterval)(l.BillingInterval), TrialDays: l.TrialDays,
		CreatedAt: l.CreatedAt.UTC(), UpdatedAt: l.UpdatedAt.UTC(), PublishedAt: utc(l.PublishedAt),
	}
	if m.Deliverables == nil {
		m.Deliverables = []*model.Deliverable{}
	}
	if l.CoverKey != nil {
		u := r.MediaURL(*l.CoverKey)
		m.CoverURL = &u
	}
	for i, c := range l.CheckoutSchema {
		m.CheckoutSchema[i] = &model.CheckoutField{Key: c.Key, Label: c.Label, Kind: model.CheckoutFieldKind(c.Kind), Required: c.Required, Options: c.Options}
	}
	for k, v := range l.Metadata {
		m.Metadata[k] = v
	}
	return m
}

// licenseSettingsOf is a listing's license as the API shows it (nil: none).
func licenseSettingsOf(l *db.Listing) *model.LicenseSettings {
	if !l.LicenseEnabled {
		return nil
	}
	return &model.LicenseSettings{ActivationLimit: l.LicenseActivationLimit, ExpiresAfterDays: l.LicenseExpiresAfterDays, KeyPrefix: l.LicenseKeyPrefix}
}

func (r *Resolver) toSummary(l *db.Listing, currency *string) *model.ListingSummary {
	return &model.ListingSummary{Object: "listing", ID: l.ID, Title: l.Title, Price: l.Price, Pricing: model.ListingPricing(l.Pricing), Currency: currency,
		Slug: l.Slug, Status: model.ListingStatus(l.Status), URL: r.BaseURL + "/p/" + l.Slug, Fulfillment: model.Fulfillment(fulfillmentOf(l)),
		CreatedAt: l.CreatedAt.UTC(), PublishedAt: utc(l.PublishedAt)}
}

// listingsPageQuery reads a keyset page of an account's listings with the
// account's currency, on the pgx pool: the one query path of the REST list
// and the GraphQL connection. %s is the column list (listingSummaryColumns
// or listingColumns); $3 = ” means no status filter, $5 = ” no search
// (else a search.Contains pattern: LIKE's escape character is \ by
// default).
const listingsPageQuery = `
SELECT %s, a.currency
FROM listings l JOIN accounts a ON a.id = l.account_id
WHERE l.account_id = $1 AND l.deleted_at IS NULL AND ($2 = '' OR l.id < $2) AND ($3 = '' OR l.status = $3)
  AND ($5 = '' OR l.title ILIKE $5)
ORDER BY l.id DESC
LIMIT $4`

// The columns of a page: a summary's (REST list items, and GraphQL nodes
// that select only summaryListingFields), or every column (GraphQL nodes
// are full listings), or every column but the description and the JSON
// ones, read as NULL (GraphQL nodes that select none of the fields made of
// them: leanListingFields). The summary and the lean page leave the JSON
// columns out: decoding them is most of a page's cost.
const (
	listingSummaryColumns = "l.id, l.title, l.price, l.pricing, l.slug, l.status, l.deliverables_count, l.created_at, l.published_at, l.license_enabled, l.updated_at"
	listingLeanColumns    = listingSummaryColumns + `,
       l.billing, l.billing_interval, l.trial_days, l.license_activation_limit, l.license_expires_after_days, l.license_key_prefix, l.access_download_limit, l.access_days, l.suggested_price, l.maximum_price, NULL::text, l.cover_key, l.cover_blur, l.external_delivery, NULL::jsonb, l.utm_source, l.utm_medium,
       l.utm_campaign, NULL::jsonb`
	listingFullColumns = listingSummaryColumns + `,
       l.billing, l.billing_interval, l.trial_days, l.license_activation_limit, l.license_expires_after_days, l.license_key_prefix, l.access_download_limit, l.access_days, l.suggested_price, l.maximum_price, l.description, l.cover_key, l.cover_blur, l.external_delivery, l.checkout_schema, l.utm_source, l.utm_medium,
       l.utm_campaign, l.metadata`
)

var (
	listingSummaryPageQuery = fmt.Sprintf(listingsPageQuery, listingSummaryColumns)
	listingLeanPageQuery    = fmt.Sprintf(listingsPageQuery, listingLeanColumns)
	listingFullPageQuery    = fmt.Sprintf(listingsPageQuery, listingFullColumns)
)

// ListingColumns chooses the columns of a page of listings.
type ListingColumns int

const (
	SummaryColumns ListingColumns = iota // a REST list item's
	LeanColumns                          // a full listing's but the description and the JSON ones (NULL)
	FullColumns                          // a full listing's
)

func validStatus(s string) bool {
	return s == db.ListingDraft || s == db.ListingPublished || s == db.ListingPaused
}

// listingsPage reads a keyset page of the caller's listings, newest first,
// with the account's currency. limitParam and cursorParam name the paging
// arguments in errors (limit/cursor in REST, first/after in GraphQL).
// query is the search box: listings whose title contains it.
// Errors: authentication_error, validation_error (limit, cursor, status,
// query).
func (r *Resolver) listingsPage(ctx context.Context, limit *int, cursor *string, status *model.ListingStatus, query *string, columns ListingColumns, limitParam, cursorParam string) ([]*db.Listing, bool, *string, *string, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, false, nil, nil, err
	}
	pg, err := parsePage(limit, cursor, "lst")
	if err != nil {
		return nil, false, nil, nil, renameParam(err, map[string]string{"limit": limitParam, "cursor": cursorParam})
	}
	st := ""
	if status != nil {
		st = string(*status)
		if !validStatus(st) {
			return nil, false, nil, nil, problem.Validation("status", "status must be draft, published or paused")
		}
	}
	title := ""
	if query != nil {
		text, err := searchQuery(*query)
		if err != nil {
			return nil, false, nil, nil, err
		}
		title = search.Contains(text)
	}
	sql, full := listingSummaryPageQuery, columns != SummaryColumns
	switch columns {
	case LeanColumns:
		sql = listingLeanPageQuery
	case FullColumns:
		sql = listingFullPageQuery
	}
	rows, err := r.DB.Pool.Query(ctx, sql, p.AccountID, pg.after, st, pg.limit+1, title)
	if err != nil {
		return nil, false, nil, nil, fmt.Errorf("list listings: %w", err)
	}
	defer rows.Close()
	// One block for the page's rows and one destination list reused for
	// each: a page of 100 allocates its listings once.
	var currency *string
	block := make([]db.Listing, 0, pg.limit+1)
	ls := make([]*db.Listing, 0, pg.limit+1)
	dest := make([]any, 0, 31)
	for rows.Next() {
		if len(block) == cap(block) { // a page is at most limit+1 rows
			return nil, false, nil, nil, fmt.Errorf("list listings: more than %d rows", cap(block))
		}
		block = append(block, db.Listing{AccountID: p.AccountID})
		l := &block[len(block)-1]
		dest = append(dest[:0], &l.ID, &l.Title, &l.Price, &l.Pricing, &l.Slug, &l.Status, &l.DeliverablesCount, &l.CreatedAt, &l.PublishedAt, &l.LicenseEnabled, &l.UpdatedAt)
		if full {
			dest = append(dest, &l.Billing, &l.BillingInterval, &l.TrialDays, &l.LicenseActivationLimit, &l.LicenseExpiresAfterDays, &l.LicenseKeyPrefix, &l.AccessDownloadLimit, &l.AccessDays, &l.SuggestedPrice, &l.MaximumPrice, &l.Description, &l.CoverKey, &l.CoverBlur, &l.ExternalDelivery, &l.CheckoutSchema,
				&l.UTMSource, &l.UTMMedium, &l.UTMCampaign, &l.Metadata)
		}
		if err := rows.Scan(append(dest, &currency)...); err != nil {
			return nil, false, nil, nil, fmt.Errorf("list listings: %w", err)
		}
		ls = append(ls, l)
	}
	if err := rows.Err(); err != nil {
		return nil, false, nil, nil, fmt.Errorf("list listings: %w", err)
	}
	ls, more, next := trim(ls, pg.limit, func(l *db.Listing) string { return l.ID })
	return ls, more, next, currency, nil
}

// renameParam renames the param of a validation problem (REST and GraphQL
// name the paging arguments differently).
func renameParam(err error, names map[string]string) error {
	var pr *problem.Problem
	if errors.As(err, &pr) {
		if to, ok := names[pr.Param]; ok && to != "" {
			pr.Param = to
			for i := range pr.Errors {
				if to, ok := names[pr.Errors[i].Param]; ok {
					pr.Errors[i].Param = to
				}
			}
		}
	}
	return err
}

// Listings lists the caller's listings (summaries), newest first. Errors:
// authentication_error, validation_error (limit, cursor, status).
func (r *Resolver) Listings(ctx context.Context, limit *int, cursor *string, status *model.ListingStatus, query *string) (*model.ListingList, error) {
	ls, more, next, currency, err := r.listingsPage(ctx, limit, cursor, status, query, SummaryColumns, "limit", "cursor")
	if err != nil {
		return nil, err
	}
	out := &model.ListingList{Object: "list", Data: make([]*model.ListingSummary, len(ls)), HasMore: more, NextCursor: next}
	for i, l := range ls {
		out.Data[i] = r.toSummary(l, currency)
	}
	return out, nil
}

// ListingsConnection is viewer.listings in GraphQL: the same page as
// Listings, as a Relay connection of full listings; their deliverables come
// from the dataloader. columns says which columns the page reads (the
// fields of the others are left empty: the caller selected none of them);
// without facts the nodes have no readiness and the account is not read.
// Errors: as Listings, with params first and after.
func (r *Resolver) ListingsConnection(ctx context.Context, first *int, after *string, status *model.ListingStatus, query *string, columns ListingColumns, facts bool) (*model.ListingConnection, error) {
	ls, more, _, currency, err := r.listingsPage(ctx, first, after, status, query, columns, "first", "after")
	if err != nil {
		return nil, err
	}
	p, _ := caller(ctx)
	// Without facts the nodes have no readiness (the caller's selection
	// holds none): a node's currency comes with the page.
	f := &sellerFacts{account: &db.Account{ID: p.AccountID, Currency: currency}}
	if facts {
		if f, err = r.sellerFacts(ctx, p.AccountID); err != nil {
			return nil, err
		}
	}
	edges, pi := connection(ls, func(l *db.Listing) string { return idCursor(l.ID) },
		func(cur string, l *db.Listing) *model.ListingEdge {
			var m *model.Listing
			if facts {
				m = r.toLazyListingModel(l, f)
			} else {
				m = r.listingModel(l, nil, f)
			}
			m.Deliverables = nil // resolved by the dataloader
			return &model.ListingEdge{Cursor: cur, Node: m}
		}, after, more)
	return &model.ListingConnection{Edges: edges, PageInfo: pi}, nil
}

// UpdateListing changes the given fields. A draft takes any field; a
// published or paused listing only status (published ↔ paused). Errors:
// authentication_error, permission_denied, not_found, not_in_draft,
// validation_error (a price below the minimum charge of the account's
// currency included).
func (r *Resolver) UpdateListing(ctx context.Context, id string, in model.UpdateListingInput) (*model.Listing, error) {
	p, err := writer(ctx)
	if err != nil {
		return nil, err
	}
	var v listingFields
	var title string
	if in.Title != nil {
		title = v.title(*in.Title)
	}
	// The price settings are checked as they will be (the stored ones
	// with the given ones) once the listing is read.
	pricesSet := in.Price != nil || in.Pricing != nil || in.SuggestedPrice.IsSet() || in.MaximumPrice.IsSet()
	desc, descSet := in.Description.ValueOK()
	v.description(desc)
	slug := v.slug(in.Slug)
	v.coverBlur(in.CoverBlur)
	v.externalDelivery(in.ExternalDelivery)
	utms := map[string]graphqlOmittableString{"utm_source": in.UtmSource, "utm_medium": in.UtmMedium, "utm_campaign": in.UtmCampaign}
	for name, u := range utms {
		val, _ := u.ValueOK()
		v.utm(name, val)
	}
	var meta map[string]string
	metaIn, metaSet := in.Metadata.ValueOK()
	if metaSet {
		meta = v.metadata(metaIn)
	}
	schemaIn, schemaSet := in.CheckoutSchema.ValueOK()
	schema := v.checkoutSchema(schemaIn)
	licIn, licSet := in.License.ValueOK()
	lic := v.license(licIn)
	accIn, accSet := in.Access.ValueOK()
	acc := v.access(accIn)
	if in.Status != nil && !validStatus(string(*in.Status)) {
		v.f.Add("status", "status must be published or paused (publish a draft with POST /v1/listings/{id}/publish)")
	}
	if err := v.f.Err(); err != nil {
		return nil, err
	}
	termsSet := in.Billing != nil || in.Interval != nil || in.TrialDays != nil
	onlyStatus := in.Title == nil && !pricesSet && !descSet && in.Slug == nil && !in.Cover.IsSet() &&
		in.CoverBlur == nil && !schemaSet && !in.UtmSource.IsSet() && !in.UtmMedium.IsSet() &&
		!in.UtmCampaign.IsSet() && !metaSet && in.ExternalDelivery == nil && !licSet && !accSet && !termsSet
	var newCover *string // a cover uploaded by this update, sized once committed
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		l, err := lockListing(ctx, tx, p.AccountID, id)
		if err != nil {
			return err
		}
		q := tx.NewUpdate().Model(l).Set("updated_at = now()").WherePK()
		if l.Status != db.ListingDraft {
			if !onlyStatus {
				return notInDraft(l)
			}
			if in.Status != nil {
				if *in.Status == db.ListingDraft {
					return problem.Validation("status", "a published listing cannot go back to draft; pause it instead")
				}
				q = q.Set("status = ?", *in.Status)
			}
			_, err = q.Exec(ctx)
			return err
		}
		if in.Status != nil && *in.Status != db.ListingDraft {
			return problem.Validation("status", "publish a draft with POST /v1/listings/{id}/publish")
		}
		if in.Title != nil {
			q = q.Set("title = ?", title)
		}
		// The billing terms as the update leaves the listing (CONTRACT
		// §26): a membership refuses pay what you want and an expiring
		// license whichever field changed.
		if termsSet || pricesSet || licSet {
			pricing := l.Pricing
			if pricesSet {
				pricing = updatedPrice(listingPrice(l), in).Pricing
			}
			licExpires := l.LicenseEnabled && l.LicenseExpiresAfterDays != nil
			if licSet {
				licExpires = lic != nil && lic.ExpiresAfterDays != nil
			}
			t := updatedTerms(l, in, pricing, licExpires)
			var f problem.Fields
			t.Check(&f)
			if err := f.Err(); err != nil {
				return err
			}
			setTerms(l, t)
			q = q.Set("billing = ?", l.Billing).Set("billing_interval = ?", l.BillingInterval).Set("trial_days = ?", l.TrialDays)
		}
		if pricesSet {
			var cur *string
			if err := tx.NewSelect().Table("accounts").Column("currency").Where("id = ?", p.AccountID).Scan(ctx, &cur); err != nil {
				return fmt.Errorf("read the account's currency: %w", err)
			}
			lp := updatedPrice(listingPrice(l), in)
			if err := pricing.CheckListing(lp, deref(cur, "")); err != nil {
				return err
			}
			q = q.Set("price = ?", lp.Price).Set("pricing = ?", lp.Pricing).
				Set("suggested_price = ?", lp.Suggested).Set("maximum_price = ?", lp.Maximum)
		}
		if descSet {
			q = q.Set("description = ?", desc)
		}
		if in.Slug != nil {
			s, err := claimSlug(ctx, tx, "listings", l.ID, slug, "", "listing")
			if err != nil {
				return err
			}
			q = q.Set("slug = ?", s)
		}
		if cover, ok := in.Cover.ValueOK(); ok {
			var newKey *string
			if cover != nil {
				_, key, err := r.claimFile(ctx, tx, p.AccountID, *cover, "cover", "cover", coverKey(l.ID))
				if err != nil {
					return err
				}
				newKey = &key
			}
			if l.CoverKey != nil {
				if err := r.deleteBlobsAfterCommit(ctx, tx, coverBlobs(*l.CoverKey)...); err != nil {
					return err
				}
			}
			q = q.Set("cover_key = ?", newKey)
			newCover = newKey
		}
		if in.CoverBlur != nil {
			q = q.Set("cover_blur = ?", *in.CoverBlur)
		}
		if schemaSet {
			q = q.Set("checkout_schema = ?::jsonb", jsonb(schema))
		}
		for col, u := range utms {
			if val, ok := u.ValueOK(); ok {
				q = q.Set(col+" = ?", val)
			}
		}
		if metaSet {
			q = q.Set("metadata = ?::jsonb", jsonb(meta))
		}
		if in.ExternalDelivery != nil {
			q = q.Set("external_delivery = ?", *in.ExternalDelivery)
		}
		if licSet {
			setLicense(l, lic)
			q = q.Set("license_enabled = ?", l.LicenseEnabled).Set("license_activation_limit = ?", l.LicenseActivationLimit).
				Set("license_expires_after_days = ?", l.LicenseExpiresAfterDays).Set("license_key_prefix = ?", l.LicenseKeyPrefix)
		}
		if accSet {
			setAccess(l, acc)
			q = q.Set("access_download_limit = ?", l.AccessDownloadLimit).Set("access_days = ?", l.AccessDays)
		}
		if _, err := q.Exec(ctx); err != nil {
			if db.IsUniqueViolation(err, "listings_slug_key") {
				return problem.Validation("slug", fmt.Sprintf("The slug %q is taken; choose another.", slug))
			}
			return fmt.Errorf("update listing: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if newCover != nil {
		r.sizeNewCover(ctx, *newCover)
	}
	return r.Listing(ctx, id)
}

// updatedPrice is a listing's price settings after an update: the given
// fields over the stored ones. Changing to fixed drops the bounds (unless
// given, which is refused); a pay-what-you-want maximum removed (null) or
// never set is the default.
func updatedPrice(lp pricing.ListingPrice, in model.UpdateListingInput) pricing.ListingPrice {
	if in.Price != nil {
		lp.Price = *in.Price
	}
	if in.Pricing != nil {
		lp.Pricing = string(*in.Pricing)
		if lp.Pricing == pricing.Fixed {
			lp.Suggested, lp.Maximum = nil, nil
		}
	}
	if v, ok := in.SuggestedPrice.ValueOK(); ok {
		lp.Suggested = v
	}
	if v, ok := in.MaximumPrice.ValueOK(); ok {
		lp.Maximum = v
	}
	return withDefaultMaximum(lp)
}

// DeleteListing deletes a listing irreversibly: its product page answers 410,
// its stored content (cover and files) is removed once the deletion commits;
// orders are untouched. Errors: authentication_error, permission_denied, not_found.
func (r *Resolver) DeleteListing(ctx context.Context, id string) (bool, error) {
	p, err := writer(ctx)
	if err != nil {
		return false, err
	}
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		l, err := lockListing(ctx, tx, p.AccountID, id)
		if err != nil {
			return err
		}
		var keys []string
		if err := tx.NewSelect().Table("deliverables").Column("file_key").Where("listing_id = ?", l.ID).
			Where("file_key IS NOT NULL").Scan(ctx, &keys); err != nil {
			return err
		}
		if l.CoverKey != nil {
			keys = append(keys, coverBlobs(*l.CoverKey)...)
		}
		if _, err := tx.NewUpdate().Model(l).Set("deleted_at = now(), updated_at = now()").WherePK().Exec(ctx); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "UPDATE accounts SET listings_count = listings_count - 1 WHERE id = ?", p.AccountID); err != nil {
			return err
		}
		return r.deleteBlobsAfterCommit(ctx, tx, keys...)
	})
	return err == nil, err
}

// PublishListing puts a draft on sale. Requirements: a title, a price of
// at least the currency's minimum charge and an operational account.
// Errors: authentication_error, permission_denied, not_found, not_in_draft,
// publish_failed (actions, next), validation_error (price).
func (r *Resolver) PublishListing(ctx context.Context, id string) (*model.Listing, error) {
	p, err := writer(ctx)
	if err != nil {
		return nil, err
	}
	facts, err := r.sellerFacts(ctx, p.AccountID)
	if err != nil {
		return nil, err
	}
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		l, err := lockListing(ctx, tx, p.AccountID, id)
		if err != nil {
			return err
		}
		if l.Status != db.ListingDraft {
			return notInDraft(l)
		}
		blocking := requiredOnly(facts.accountActions)
		// A price of 0 is only a pay-what-you-want minimum (CONTRACT §19).
		if len(blocking) > 0 || l.Title == "" || (l.Price < 1 && l.Pricing != pricing.PayWhatYouWant) {
			pr := problem.New(problem.PublishFailed, "The listing cannot be published yet: see actions.").
				With("actions", blocking).With("next", nil)
			if len(blocking) > 0 {
				pr = pr.With("next", blocking[0].Code)
			}
			return pr
		}
		// A price set before the account had a currency meets its minimum
		// charge now (validation_error param price).
		if err := pricing.CheckListing(listingPrice(l), deref(facts.account.Currency, "")); err != nil {
			return err
		}
		now := r.Now()
		_, err = tx.NewUpdate().Model(l).Set("status = ?", db.ListingPublished).Set("published_at = ?", now).
			Set("updated_at = now()").WherePK().Exec(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return r.Listing(ctx, id)
}

// editDeliverables runs fn on a draft listing of the caller, locked, and
// keeps deliverables_count. Errors: not_found, not_in_draft.
func (r *Resolver) editDeliverables(ctx context.Context, id string, fn func(ctx context.Context, tx db.Tx, l *db.Listing, p Principal) error) (*model.Listing, error) {
	p, err := writer(ctx)
	if err != nil {
		return nil, err
	}
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		l, err := lockListing(ctx, tx, p.AccountID, id)
		if err != nil {
			return err
		}
		if l.Status != db.ListingDraft {
			return notInDraft(l)
		}
		if err := fn(ctx, tx, l, p); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE listings SET updated_at = now(),
			deliverables_count = (SELECT count(*) FROM deliverables WHERE listing_id = ?) WHERE id = ?`, l.ID, l.ID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return r.Listing(ctx, id)
}

// removeDeliverableRows deletes deliverable rows (all of a listing, or one)
// and schedules their files' deletion. It reports how many went.
func (r *Resolver) removeDeliverableRows(ctx context.Context, tx db.Tx, listingID, deliverableID string) (int, error) {
	var keys []*string
	q := tx.NewDelete().Table("deliverables").Where("listing_id = ?", listingID).Returning("file_key")
	if deliverableID != "" {
		q = q.Where("id = ?", deliverableID)
	}
	if err := q.Scan(ctx, &keys); err != nil && !errors.Is(db.NotFound(err), db.ErrNotFound) {
		return 0, err
	}
	// A text or URL deliverable has no file: nothing to delete.
	var files []string
	for _, k := range keys {
		if k != nil && *k != "" {
			files = append(files, *k)
		}
	}
	return len(keys), r.deleteBlobsAfterCommit(ctx, tx, files...)
}

// SetDeliverables replaces all deliverables of a draft (old files removed
// from storage). Errors: not_found, not_in_draft, validation_error.
func (r *Resolver) SetDeliverables(ctx context.Context, id string, in model.SetDeliverablesInput) (*model.Listing, error) {
	var v listingFields
	if len(in.Deliverables) > maxDeliverables {
		v.f.Add("deliverables", "a listing has at most 3 deliverables")
	}
	ds := r.deliverables(ctx, &v, in.Deliverables, "deliverables")
	if err := v.f.Err(); err != nil {
		return nil, err
	}
	return r.editDeliverables(ctx, id, func(ctx context.Context, tx db.Tx, l *db.Listing, p Principal) error {
		if _, err := r.removeDeliverableRows(ctx, tx, l.ID, ""); err != nil {
			return err
		}
		return r.insertDeliverables(ctx, tx, p.AccountID, l.ID, ds)
	})
}

// AddDeliverable appends a deliverable to a draft. Errors: not_found,
// not_in_draft, conflict (current_count, max_count), validation_error.
func (r *Resolver) AddDeliverable(ctx context.Context, id string, in model.DeliverableInput) (*model.Deliverable, error) {
	var v listingFields
	ds := r.deliverables(ctx, &v, []*model.DeliverableInput{&in}, "")
	if err := v.f.Err(); err != nil {
		return nil, err
	}
	var newID string
	l, err := r.editDeliverables(ctx, id, func(ctx context.Context, tx db.Tx, l *db.Listing, p Principal) error {
		n, err := tx.NewSelect().Table("deliverables").Where("listing_id = ?", l.ID).Count(ctx)
		if err != nil {
			return err
		}
		if n >= maxDeliverables {
			return problem.Newf(problem.Conflict, "A listing has at most %d deliverables; remove one first.", maxDeliverables).
				With("current_count", n).With("max_count", maxDeliverables)
		}
		if err := r.insertDeliverables(ctx, tx, p.AccountID, l.ID, ds); err != nil {
			return err
		}
		return tx.NewSelect().Table("deliverables").Column("id").Where("listing_id = ?", l.ID).
			OrderExpr("id DESC").Limit(1).Scan(ctx, &newID)
	})
	if err != nil {
		return nil, err
	}
	for _, d := range l.Deliverables {
		if d.ID == newID {
			// The listing changed: its readiness travels with the result.
			d.Readiness = l.Readiness
			return d, nil
		}
	}
	return nil, fmt.Errorf("added deliverable %s not found", newID)
}

// RemoveDeliverable removes one deliverable of a draft (its file removed from
// storage). Errors: not_found (listing or deliverable), not_in_draft.
func (r *Resolver) RemoveDeliverable(ctx context.Context, id, deliverableID string) (bool, error) {
	_, err := r.editDeliverables(ctx, id, func(ctx context.Context, tx db.Tx, l *db.Listing, _ Principal) error {
		n, err := r.removeDeliverableRows(ctx, tx, l.ID, deliverableID)
		if err != nil {
			return err
		}
		if n == 0 {
			return problem.NotFoundf("No deliverable %q on listing %q.", deliverableID, id)
		}
		return nil
	})
	return err == nil, err
}

// RemoveAllDeliverables removes every deliverable of a draft: it switches to
// external fulfillment. Errors: not_found, not_in_draft.
func (r *Resolver) RemoveAllDeliverables(ctx context.Context, id string) (*model.Listing, error) {
	return r.editDeliverables(ctx, id, func(ctx context.Context, tx db.Tx, l *db.Listing, _ Principal) error {
		_, err := r.removeDeliverableRows(ctx, tx, l.ID, "")
		return err
	})
}
