// Create and edit a listing: fields, cover and deliverable uploads (with a
// progress bar), checkout-schema editor, license keys, UTM fields; publish,
// pause, resume, delete; the product page's link.
import { ShareCard } from '../ShareCard';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import {
  AddDeliverable,
  CreateListing,
  DeleteListing,
  ListingAnalyticsQuery,
  ListingQuery,
  PublishListing,
  RemoveDeliverable,
  UpdateListing,
  ViewerQuery,
} from '../ops';
import type {
  CheckoutFieldKind,
  CoverBlur,
  DeliverableInput,
  DeliverableType,
  ExternalDelivery,
  FilePurpose,
  LicenseSettingsInput,
  ListingBilling,
  ListingFieldsFragment,
  ListingPricing,
  MembershipInterval,
} from '../gql/graphql';
import { intervalAdjective, intervalWord, perInterval, trialText } from '../membership';
import { ActionList } from '../actions';
import {
  daysMessage,
  keyPrefixPattern,
  limitMessage,
  maxActivationLimit,
  maxExpiresAfterDays,
  prefixMessage,
  wholeNumber,
} from '../license';
import { problemsOf, type Problem } from '../problems';
import { navigate, useLocation } from '../router';
import { changeText, rangeKey, rangeOf, rateChangeText, rateText } from '../dashboard';
import { ChartFigure, RangeControl, Stat } from '../sales';
import { uploadFile, type Uploaded } from '../upload';
import {
  Badge,
  Choice,
  Empty,
  Field,
  FormErrors,
  Loading,
  Money,
  Notice,
  Page,
  Progress,
  Select,
  Switch,
  TextArea,
  errorFor,
  formatCount,
  formatMoney,
  moneyExample,
  moneyText,
  parseMoney,
} from '../ui';

// A pay-what-you-want listing's maximum when the seller sets none (CONTRACT §19).
const defaultMaximum = 99_999_999;

/** How a listing is priced, in words: "$12.50", "$9.00 / month", "$5.00 or more", "Free, or pay what you want". */
export function priceText(l: {
  price: number;
  pricing: ListingPricing;
  currency?: string | null;
  billing?: ListingBilling;
  interval?: MembershipInterval | null;
}): string {
  if (l.billing === 'MEMBERSHIP' && l.interval) return perInterval(l.price, l.currency, l.interval);
  if (l.pricing !== 'PAY_WHAT_YOU_WANT') return formatMoney(l.price, l.currency);
  return l.price === 0 ? 'Free, or pay what you want' : `${formatMoney(l.price, l.currency)} or more`;
}

/**
 * A listing's license terms in words: "Up to 3 devices per key · keys
 * expire 365 days after purchase · keys start with ACME-".
 */
export function licenseText(l: NonNullable<ListingFieldsFragment['license']>, membership = false): string {
  const n = new Intl.NumberFormat();
  const parts = [
    l.activationLimit == null
      ? 'Any number of devices per key'
      : `Up to ${n.format(l.activationLimit)} ${l.activationLimit === 1 ? 'device' : 'devices'} per key`,
    membership
      ? 'keys last as long as the membership'
      : l.expiresAfterDays == null
        ? 'keys never expire'
        : `keys expire ${n.format(l.expiresAfterDays)} ${l.expiresAfterDays === 1 ? 'day' : 'days'} after purchase`,
  ];
  if (l.keyPrefix) parts.push(`keys start with ${l.keyPrefix}-`);
  return parts.join(' · ');
}

/** A membership listing's billing in words: "Membership, billed monthly · 14-day free trial". */
export function billingText(l: Pick<ListingFieldsFragment, 'billing' | 'interval' | 'trialDays'>): string {
  if (l.billing !== 'MEMBERSHIP' || !l.interval) return 'One-time purchase';
  return `Membership, billed ${intervalAdjective[l.interval].toLowerCase()} · ${trialText(l.trialDays)}`;
}

// A membership's free trial, in days (CONTRACT §26).
const maxTrialDays = 90;
const trialMessage = 'A free trial lasts a whole number of days from 0 to 90; leave it empty or 0 for none.';

// What a key looks like: the prefix, then four groups of five characters.
const keyShape = 'XXXXX-XXXXX-XXXXX-XXXXX';

type SchemaRow = { key: string; label: string; kind: CheckoutFieldKind; required: boolean; options: string };

const kinds: { value: CheckoutFieldKind; label: string }[] = [
  { value: 'TEXT', label: 'Text' },
  { value: 'SELECT', label: 'Choice' },
  { value: 'DATE', label: 'Date' },
  { value: 'ADDRESS', label: 'Address' },
];

export function ListingScreen({ id }: { id: string | null }) {
  const [{ data, fetching, error }, refetch] = useQuery({
    query: ListingQuery,
    variables: { id: id ?? '' },
    pause: !id,
  });
  if (!id) return <NewListing />;
  if (!data && fetching) return <Page title="Listing"><Loading /></Page>;
  if (error && !data?.listing) return <Page title="Listing"><FormErrors problems={problemsOf(error)} /></Page>;
  if (!data?.listing) {
    return (
      <Page title="Listing not found">
        <p>No listing of your account has the id {id}.</p>
      </Page>
    );
  }
  return (
    <ListingForm
      key={data.listing.id}
      listing={data.listing}
      currency={data.viewer?.currency ?? null}
      onChanged={() => refetch({ requestPolicy: 'network-only' })}
    />
  );
}

// A new listing's amounts are in the account's currency (by its exponent:
// "2900" is ¥2,900 but $29.00).
function NewListing() {
  const [{ data, fetching }] = useQuery({ query: ViewerQuery });
  if (!data && fetching) return <Page title="New listing"><Loading /></Page>;
  return <ListingForm listing={null} currency={data?.viewer?.currency ?? null} onChanged={() => {}} />;
}

function ListingForm({
  listing,
  currency: accountCurrency,
  onChanged,
}: {
  listing: ListingFieldsFragment | null;
  currency: string | null;
  onChanged: () => void;
}) {
  const currency = listing?.currency ?? accountCurrency;
  const editable = !listing || listing.status === 'DRAFT';
  const cur = currency ? ` (${currency.toUpperCase()})` : '';
  const [title, setTitle] = useState(listing?.title ?? '');
  const [description, setDescription] = useState(listing?.description ?? '');
  const [pricing, setPricing] = useState<ListingPricing>(listing?.pricing ?? 'FIXED');
  const [billing, setBilling] = useState<ListingBilling>(listing?.billing ?? 'ONE_TIME');
  const [billingInterval, setBillingInterval] = useState<MembershipInterval>(listing?.interval ?? 'MONTH');
  const [trialDays, setTrialDays] = useState(listing && listing.trialDays > 0 ? String(listing.trialDays) : '');
  const [price, setPrice] = useState(listing ? moneyText(listing.price, currency) : '');
  const [suggested, setSuggested] = useState(listing?.suggestedPrice != null ? moneyText(listing.suggestedPrice, currency) : '');
  const [maximum, setMaximum] = useState(
    listing?.maximumPrice != null && listing.maximumPrice !== defaultMaximum ? moneyText(listing.maximumPrice, currency) : '',
  );
  const [slug, setSlug] = useState(listing?.slug ?? '');
  const [cover, setCover] = useState<Uploaded | null>(null);
  const [removeCover, setRemoveCover] = useState(false);
  const [coverBlur, setCoverBlur] = useState<CoverBlur>(listing?.coverBlur ?? 'AUTO');
  const [externalDelivery, setExternalDelivery] = useState<ExternalDelivery>(listing?.externalDelivery ?? 'WEBHOOK');
  const [utmSource, setUtmSource] = useState(listing?.utmSource ?? '');
  const [utmMedium, setUtmMedium] = useState(listing?.utmMedium ?? '');
  const [utmCampaign, setUtmCampaign] = useState(listing?.utmCampaign ?? '');
  const [schema, setSchema] = useState<SchemaRow[]>(
    (listing?.checkoutSchema ?? []).map((f) => ({
      key: f.key,
      label: f.label,
      kind: f.kind,
      required: f.required,
      options: (f.options ?? []).join(', '),
    })),
  );
  const [licensed, setLicensed] = useState(listing?.license != null);
  const [activationLimit, setActivationLimit] = useState(listing?.license?.activationLimit != null ? String(listing.license.activationLimit) : '');
  const [expiresAfterDays, setExpiresAfterDays] = useState(
    listing?.license?.expiresAfterDays != null ? String(listing.license.expiresAfterDays) : '',
  );
  const [keyPrefix, setKeyPrefix] = useState(listing?.license?.keyPrefix ?? '');
  const [pending, setPending] = useState<(DeliverableInput & { name: string })[]>([]);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  const [, create] = useMutation(CreateListing);
  const [, update] = useMutation(UpdateListing);
  const [, publish] = useMutation(PublishListing);
  const [, del] = useMutation(DeleteListing);
  const [, addDeliverable] = useMutation(AddDeliverable);
  const [, removeDeliverable] = useMutation(RemoveDeliverable);

  const blank = (s: string) => (s.trim() === '' ? null : s.trim());

  function schemaInput() {
    return schema.map((r) => ({
      key: r.key.trim(),
      label: r.label.trim(),
      kind: r.kind,
      required: r.required,
      options:
        r.kind === 'SELECT'
          ? r.options
              .split(',')
              .map((o) => o.trim())
              .filter(Boolean)
          : null,
    }));
  }

  async function save(e: FormEvent) {
    e.preventDefault();
    setNotice('');
    const pwyw = pricing === 'PAY_WHAT_YOU_WANT';
    const cents = parseMoney(price, currency);
    const local: Problem[] = [];
    if (Number.isNaN(cents)) {
      local.push({
        message: pwyw
          ? `Enter the minimum price as a number, such as ${moneyExample(currency)}, or 0 to let buyers get it free.`
          : `Enter the price as a number, such as ${moneyExample(currency)}.`,
        param: 'price',
      });
    }
    const optionalMoney = (text: string, param: string, what: string): number | null => {
      if (!pwyw || text.trim() === '') return null;
      const n = parseMoney(text, currency);
      if (Number.isNaN(n)) local.push({ message: `Enter the ${what} as a number, such as ${moneyExample(currency)}, or leave it empty.`, param });
      return n;
    };
    const suggestedPrice = optionalMoney(suggested, 'suggested_price', 'suggested price');
    const maximumPrice = optionalMoney(maximum, 'maximum_price', 'maximum price');
    // The license terms are checked here against CONTRACT §20's bounds, so
    // a person reads what to type; the API's own messages, written for its
    // callers ("activation_limit must be …"), are only a last line.
    // A membership's key lasts as long as the membership (§26): it takes no expiry.
    const license: LicenseSettingsInput | null = licensed
      ? {
          activationLimit: wholeNumber(activationLimit, 1, maxActivationLimit, 'license.activation_limit', limitMessage, local),
          expiresAfterDays:
            billing === 'MEMBERSHIP'
              ? null
              : wholeNumber(expiresAfterDays, 1, maxExpiresAfterDays, 'license.expires_after_days', daysMessage, local),
          keyPrefix: keyPrefix.trim(),
        }
      : null;
    if (license && !keyPrefixPattern.test(license.keyPrefix ?? '')) local.push({ message: prefixMessage, param: 'license.key_prefix' });
    // A membership's trial, in words for a person like the license terms;
    // the rest of the billing (pay what you want refused, the interval) is
    // the service's to say, at its field.
    const membership = billing === 'MEMBERSHIP';
    const trial = membership ? wholeNumber(trialDays, 0, maxTrialDays, 'trial_days', trialMessage, local) ?? 0 : null;
    // One-time is the default: it is sent only to change a membership back.
    const billingInput = membership
      ? { billing, interval: billingInterval, trialDays: trial }
      : listing?.billing === 'MEMBERSHIP'
        ? { billing }
        : {};
    if (local.length) {
      setProblems(local);
      return;
    }
    setBusy(true);
    setProblems([]);
    if (!listing) {
      const r = await create({
        input: {
          title: title.trim(),
          price: cents,
          pricing,
          ...(pwyw ? { suggestedPrice, maximumPrice } : {}),
          ...billingInput,
          description: blank(description),
          slug: blank(slug),
          cover: cover?.token ?? null,
          coverBlur,
          externalDelivery,
          deliverables: pending.map(({ type, token, value }) => ({ type, token, value })),
          checkoutSchema: schemaInput(),
          license,
          utmSource: blank(utmSource),
          utmMedium: blank(utmMedium),
          utmCampaign: blank(utmCampaign),
        },
      });
      setBusy(false);
      if (r.error) setProblems(problemsOf(r.error));
      else if (r.data?.createListing) navigate(`/listings/${r.data.createListing.id}`, true);
      return;
    }
    const r = await update({
      id: listing.id,
      input: {
        title: title.trim(),
        price: cents,
        pricing,
        // Null removes the suggestion and restores the default maximum;
        // changing to fixed pricing removes both.
        ...(pwyw ? { suggestedPrice, maximumPrice } : {}),
        // Changing to one-time removes the interval and the trial.
        ...billingInput,
        description: blank(description),
        slug: slug.trim() || undefined,
        ...(cover ? { cover: cover.token } : removeCover ? { cover: null } : {}),
        coverBlur,
        externalDelivery,
        checkoutSchema: schema.length ? schemaInput() : null,
        // Null removes the license.
        license,
        utmSource: blank(utmSource),
        utmMedium: blank(utmMedium),
        utmCampaign: blank(utmCampaign),
      },
    });
    setBusy(false);
    if (r.error) setProblems(problemsOf(r.error));
    else {
      // The amounts as saved: "3" reads "3.00".
      setPrice(moneyText(cents, currency));
      setSuggested(suggestedPrice != null ? moneyText(suggestedPrice, currency) : '');
      setMaximum(maximumPrice != null ? moneyText(maximumPrice, currency) : '');
      // The license as saved: "1,000" reads "1000".
      setActivationLimit(license?.activationLimit != null ? String(license.activationLimit) : '');
      setExpiresAfterDays(license?.expiresAfterDays != null ? String(license.expiresAfterDays) : '');
      setTrialDays(trial ? String(trial) : '');
      setCover(null);
      setRemoveCover(false);
      setNotice('Saved.');
      onChanged();
    }
  }

  async function act(fn: () => Promise<{ error?: Parameters<typeof problemsOf>[0] }>, done: string) {
    setBusy(true);
    setProblems([]);
    setNotice('');
    const r = await fn();
    setBusy(false);
    if (r.error) setProblems(problemsOf(r.error));
    else {
      setNotice(done);
      onChanged();
    }
  }

  async function doDelete() {
    if (!listing || !window.confirm(`Delete “${listing.title}”? Its files are deleted; orders are kept.`)) return;
    setBusy(true);
    const r = await del({ id: listing.id });
    setBusy(false);
    if (r.error) setProblems(problemsOf(r.error));
    else navigate('/listings', true);
  }

  const shown = [
    'title',
    'price',
    'pricing',
    'billing',
    'interval',
    'trial_days',
    'suggested_price',
    'maximum_price',
    'description',
    'slug',
    'cover',
    'utm_source',
    'utm_medium',
    'utm_campaign',
    'license.activation_limit',
    'license.expires_after_days',
    'license.key_prefix',
    ...schema.flatMap((_, i) => ['key', 'label', 'kind', 'options'].map((f) => `checkout_schema[${i}].${f}`)),
  ];

  return (
    <Page
      title={listing ? listing.title : 'New listing'}
      actions={
        listing && (
          <>
            <Badge value={listing.status} />
            <a href={listing.url} target="_blank" rel="noopener">Product page</a>
          </>
        )
      }
    >
      {notice && <Notice>{notice}</Notice>}
      <FormErrors problems={problems} shown={shown} />
      {listing && <ShareCard url={listing.url} title={listing.title} description={listing.description} coverUrl={listing.coverUrl} />}
      {listing && (
        <section aria-labelledby="state">
          <h2 id="state">{listing.readiness.sellable ? 'On sale' : 'Not on sale'}</h2>
          <dl className="facts" data-testid="pricing">
            <dt>Price</dt>
            <dd>{priceText(listing)}</dd>
            <dt>Billing</dt>
            <dd data-testid="billing">{billingText(listing)}</dd>
            {listing.pricing === 'PAY_WHAT_YOU_WANT' && (
              <>
                <dt>Suggested</dt>
                <dd>{listing.suggestedPrice != null ? formatMoney(listing.suggestedPrice, currency) : 'None'}</dd>
                <dt>Maximum</dt>
                <dd>
                  {listing.maximumPrice == null || listing.maximumPrice === defaultMaximum
                    ? 'No maximum'
                    : formatMoney(listing.maximumPrice, currency)}
                </dd>
              </>
            )}
            {listing.license && (
              <>
                <dt>License keys</dt>
                <dd data-testid="license-terms">{licenseText(listing.license, listing.billing === 'MEMBERSHIP')}</dd>
              </>
            )}
          </dl>
          {listing.readiness.actions.length > 0 && <ActionList actions={listing.readiness.actions} onDone={onChanged} />}
          <div className="row">
            {listing.status === 'DRAFT' && (
              <button type="button" disabled={busy} onClick={() => act(() => publish({ id: listing.id }), 'Published.')}>
                Publish
              </button>
            )}
            {listing.status === 'PUBLISHED' && (
              <button
                type="button"
                className="secondary"
                disabled={busy}
                onClick={() => act(() => update({ id: listing.id, input: { status: 'PAUSED' } }), 'Paused.')}
              >
                Pause
              </button>
            )}
            {listing.status === 'PAUSED' && (
              <button
                type="button"
                disabled={busy}
                onClick={() => act(() => update({ id: listing.id, input: { status: 'PUBLISHED' } }), 'Back on sale.')}
              >
                Resume
              </button>
            )}
            <button type="button" className="danger" disabled={busy} onClick={doDelete}>
              Delete
            </button>
          </div>
          {listing.status !== 'DRAFT' && (
            <p className="muted">A {listing.status.toLowerCase()} listing can only be paused, resumed or deleted.</p>
          )}
        </section>
      )}
      {listing && listing.publishedAt && <ListingSales id={listing.id} title={listing.title} />}
      <form onSubmit={save} noValidate>
        <fieldset disabled={!editable || busy}>
          <legend>Details</legend>
          <Field label="Title" param="title" problems={problems} required maxLength={200} value={title} onValue={setTitle} />
          <Choice
            legend="Billing"
            param="billing"
            problems={problems}
            value={billing}
            onValue={setBilling}
            options={[
              { value: 'ONE_TIME', label: 'One-time', hint: 'buyers pay once and keep it' },
              { value: 'MEMBERSHIP', label: 'Membership', hint: 'buyers pay every month or year, and keep access while they do' },
            ]}
          />
          {billing === 'MEMBERSHIP' && (
            <>
              <Choice
                legend="Interval"
                param="interval"
                problems={problems}
                value={billingInterval}
                onValue={setBillingInterval}
                options={[
                  { value: 'MONTH', label: intervalAdjective.MONTH, hint: 'charged every month' },
                  { value: 'YEAR', label: intervalAdjective.YEAR, hint: 'charged every year' },
                ]}
              />
              <Field
                label="Free trial (days, optional)"
                short
                param="trial_days"
                problems={problems}
                inputMode="numeric"
                maxLength={3}
                placeholder="14"
                value={trialDays}
                onValue={setTrialDays}
                hint="0 to 90 days before the first charge; the buyer’s card is stored at checkout and charged when the trial ends. Empty: no trial."
              />
            </>
          )}
          <Choice
            legend="Pricing"
            param="pricing"
            problems={problems}
            value={pricing}
            onValue={setPricing}
            options={[
              { value: 'FIXED', label: 'A fixed price' },
              {
                value: 'PAY_WHAT_YOU_WANT',
                label: 'Pay what you want',
                hint: billing === 'MEMBERSHIP' ? 'not for memberships' : 'buyers name the amount, from your minimum',
              },
            ]}
          />
          <Field
            label={`${pricing === 'PAY_WHAT_YOU_WANT' ? 'Minimum price' : billing === 'MEMBERSHIP' ? `Price per ${intervalWord[billingInterval]}` : 'Price'}${cur}`}
            short
            param="price"
            problems={problems}
            inputMode="decimal"
            required
            maxLength={12}
            value={price}
            onValue={setPrice}
            hint={
              !currency
                ? 'The currency is set when the processor is connected.'
                : pricing === 'PAY_WHAT_YOU_WANT'
                  ? 'The least a buyer may pay; 0 lets buyers get it free (they may still pay).'
                  : undefined
            }
          />
          {pricing === 'PAY_WHAT_YOU_WANT' && (
            <>
              <Field
                label={`Suggested price${cur} (optional)`}
                short
                param="suggested_price"
                problems={problems}
                inputMode="decimal"
                maxLength={12}
                value={suggested}
                onValue={setSuggested}
                hint="Shown in the product page’s amount field."
              />
              <Field
                label={`Maximum price${cur} (optional)`}
                short
                param="maximum_price"
                problems={problems}
                inputMode="decimal"
                maxLength={12}
                value={maximum}
                onValue={setMaximum}
                hint={`The most a buyer may pay. Empty: ${formatMoney(defaultMaximum, currency)}.`}
              />
            </>
          )}
          <TextArea label="Description" param="description" problems={problems} maxLength={5000} value={description} onValue={setDescription} />
          <Field
            label="Product page slug"
            param="slug"
            problems={problems}
            maxLength={100}
            value={slug}
            onValue={setSlug}
            hint={listing ? undefined : 'Derived from the title when empty.'}
          />
          {/* A licensed listing's key is its content: nobody else fulfils it. */}
          {!licensed && (
            <Select
              label="Orders without deliverables are fulfilled by"
              param="external_delivery"
              problems={problems}
              value={externalDelivery}
              onValue={setExternalDelivery}
              options={[
                { value: 'WEBHOOK', label: 'Your webhook (order.paid)' },
                { value: 'GENERATED', label: 'You, generating the content per order' },
              ]}
            />
          )}
        </fieldset>
        <fieldset disabled={!editable || busy}>
          <legend>License keys</legend>
          <Switch
            label="Issue a license key with each order"
            checked={licensed}
            onChecked={setLicensed}
            hint="Each paid order gets a key, shown on the download page and in the download email; your app activates it on the buyer’s devices."
          />
          {licensed && (
            <>
              <Field
                label="Devices per key (optional)"
                short
                param="license.activation_limit"
                problems={problems}
                inputMode="numeric"
                maxLength={6}
                placeholder="3"
                value={activationLimit}
                onValue={setActivationLimit}
                hint="How many devices one key can be active on at once, 1 to 10,000. Empty: no limit."
              />
              {billing === 'MEMBERSHIP' ? (
                <p className="muted" data-testid="membership-key-expiry">
                  A member’s key works while the membership lasts and expires when it ends.
                </p>
              ) : (
                <Field
                  label="Keys expire after, in days (optional)"
                  short
                  param="license.expires_after_days"
                  problems={problems}
                  inputMode="numeric"
                  maxLength={5}
                  placeholder="365"
                  value={expiresAfterDays}
                  onValue={setExpiresAfterDays}
                  hint="Counted from the purchase, 1 to 3,650 days. Empty: keys never expire."
                />
              )}
              <Field
                label="Key prefix (optional)"
                short
                param="license.key_prefix"
                problems={problems}
                maxLength={20}
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                placeholder="ACME"
                value={keyPrefix}
                onValue={(v) => setKeyPrefix(v.toUpperCase())}
                hint={`Up to 12 letters A–Z and digits; keys then look like ${keyPrefix.trim() && keyPrefixPattern.test(keyPrefix.trim()) ? `${keyPrefix.trim()}-` : ''}${keyShape}.`}
              />
            </>
          )}
        </fieldset>
        <fieldset disabled={!editable || busy}>
          <legend>Cover</legend>
          {listing?.coverUrl && !removeCover && !cover && (
            <p>
              <img className="cover" src={listing.coverUrl} alt={`Cover of ${listing.title}`} />
            </p>
          )}
          {editable && (
            <FileUpload purpose="COVER" accept="image/*" label="Cover image" problems={problems} param="cover" onUploaded={setCover} />
          )}
          {!editable && !listing?.coverUrl && <p className="muted">No cover.</p>}
          {cover && <p className="muted">New cover: {cover.filename}</p>}
          {editable && listing?.coverUrl && !cover && (
            <label className="check">
              <input type="checkbox" checked={removeCover} onChange={(e) => setRemoveCover(e.target.checked)} /> Remove the cover
            </label>
          )}
          <Select
            label="Blur the cover"
            param="cover_blur"
            problems={problems}
            value={coverBlur}
            onValue={setCoverBlur}
            options={[
              { value: 'AUTO', label: 'Automatic' },
              { value: 'TRUE', label: 'Always' },
              { value: 'FALSE', label: 'Never' },
            ]}
          />
        </fieldset>
        <fieldset disabled={!editable || busy}>
          <legend>Checkout fields</legend>
          {editable && <p className="muted">Questions buyers answer at checkout (at most 10).</p>}
          {schema.map((row, i) => (
            <SchemaEditorRow
              key={i}
              index={i}
              row={row}
              problems={problems}
              onChange={(r) => setSchema(schema.map((x, j) => (j === i ? r : x)))}
              onRemove={editable ? () => setSchema(schema.filter((_, j) => j !== i)) : undefined}
            />
          ))}
          {!editable && schema.length === 0 && <p className="muted">None.</p>}
          {editable && schema.length < 10 && (
            <button
              type="button"
              className="secondary"
              onClick={() => setSchema([...schema, { key: '', label: '', kind: 'TEXT', required: false, options: '' }])}
            >
              Add a checkout field
            </button>
          )}
        </fieldset>
        <fieldset disabled={!editable || busy}>
          <legend>Analytics (UTM)</legend>
          <Field label="utm_source" param="utm_source" problems={problems} maxLength={100} placeholder="commerce" value={utmSource} onValue={setUtmSource} />
          <Field label="utm_medium" param="utm_medium" problems={problems} maxLength={100} placeholder="product_page" value={utmMedium} onValue={setUtmMedium} />
          <Field label="utm_campaign" param="utm_campaign" problems={problems} maxLength={100} placeholder="the slug" value={utmCampaign} onValue={setUtmCampaign} />
        </fieldset>
        {!listing && (
          <fieldset disabled={busy}>
            <legend>Deliverables</legend>
            <PendingDeliverables items={pending} onRemove={(i) => setPending(pending.filter((_, j) => j !== i))} />
            {pending.length < 3 && (
              <DeliverableAdder problems={problems} index={pending.length} onAdd={(d) => setPending([...pending, d])} />
            )}
          </fieldset>
        )}
        {editable && (
          <button type="submit" disabled={busy}>
            {listing ? 'Save changes' : 'Create listing'}
          </button>
        )}
      </form>
      {listing && (
        <section aria-labelledby="deliverables-title" id="deliverables">
          <h2 id="deliverables-title">Deliverables</h2>
          {listing.deliverables.length === 0 && listing.license ? (
            <p className="muted">
              No deliverables: each order gets a license key, shown on the download page and in the download email.
              {editable && ' Add a file or a link if buyers should also download something.'}
            </p>
          ) : listing.deliverables.length === 0 ? (
            <p className="muted">
              No deliverables: orders are fulfilled {listing.externalDelivery === 'WEBHOOK' ? 'by your order.paid webhook' : 'by you'}.
            </p>
          ) : (
            <ul className="items">
              {listing.deliverables.map((d) => (
                <li key={d.id}>
                  <span>
                    <Badge value={d.type} /> {d.file ? `${d.file.name} (${formatBytes(d.file.size)})` : d.value}
                  </span>
                  {editable && (
                    <button
                      type="button"
                      className="secondary"
                      disabled={busy}
                      onClick={() => act(() => removeDeliverable({ listingId: listing.id, deliverableId: d.id }), 'Deliverable removed.')}
                    >
                      Remove
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
          {editable && listing.deliverables.length < 3 && (
            <DeliverableAdder
              problems={problems}
              index={0}
              onAdd={(d) =>
                act(
                  () => addDeliverable({ listingId: listing.id, input: { type: d.type, token: d.token, value: d.value } }),
                  'Deliverable added.',
                )
              }
            />
          )}
        </section>
      )}
    </Page>
  );
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

function SchemaEditorRow({
  index,
  row,
  problems,
  onChange,
  onRemove,
}: {
  index: number;
  row: SchemaRow;
  problems: Problem[];
  onChange: (r: SchemaRow) => void;
  onRemove?: () => void;
}) {
  const p = `checkout_schema[${index}]`;
  return (
    <div className="schema-row" role="group" aria-label={`Checkout field ${index + 1}`}>
      <Field label="Key" param={`${p}.key`} problems={problems} maxLength={40} pattern="[a-z][a-z0-9_]*" value={row.key} onValue={(key) => onChange({ ...row, key })} />
      <Field label="Label" param={`${p}.label`} problems={problems} maxLength={100} value={row.label} onValue={(l) => onChange({ ...row, label: l })} />
      <Select label="Kind" param={`${p}.kind`} problems={problems} value={row.kind} onValue={(kind) => onChange({ ...row, kind })} options={kinds} />
      {row.kind === 'SELECT' && (
        <Field
          label="Choices (comma-separated)"
          param={`${p}.options`}
          problems={problems}
          maxLength={2000}
          value={row.options}
          onValue={(options) => onChange({ ...row, options })}
        />
      )}
      <label className="check">
        <input type="checkbox" checked={row.required} onChange={(e) => onChange({ ...row, required: e.target.checked })} /> Required
      </label>
      {onRemove && (
        <button type="button" className="secondary" onClick={onRemove}>
          Remove field {index + 1}
        </button>
      )}
    </div>
  );
}

function PendingDeliverables({ items, onRemove }: { items: { type: DeliverableType; name: string }[]; onRemove: (i: number) => void }) {
  if (!items.length) return <p className="muted">No deliverables yet (at most 3).</p>;
  return (
    <ul className="items">
      {items.map((d, i) => (
        <li key={i}>
          <span>
            <Badge value={d.type} /> {d.name}
          </span>
          <button type="button" className="secondary" onClick={() => onRemove(i)}>
            Remove
          </button>
        </li>
      ))}
    </ul>
  );
}

/** Uploads the chosen file at once, showing its progress. */
export function FileUpload({
  purpose,
  accept,
  label: text,
  problems,
  param,
  onUploaded,
}: {
  purpose: FilePurpose;
  accept?: string;
  label: string;
  problems: Problem[];
  param: string;
  onUploaded: (u: Uploaded) => void;
}) {
  const id = useId();
  const [progress, setProgress] = useState<number | null>(null);
  const [own, setOwn] = useState<Problem[]>([]);
  const [done, setDone] = useState('');
  const err = own[0]?.message ?? errorFor(problems, param);
  useEffect(() => setOwn([]), [purpose]);
  async function pick(f: File | undefined) {
    if (!f) return;
    setOwn([]);
    setDone('');
    setProgress(0);
    try {
      const u = await uploadFile(f, purpose, setProgress);
      setDone(`Uploaded ${u.filename} (${formatBytes(u.size)}).`);
      onUploaded(u);
    } catch (e) {
      setOwn(Array.isArray(e) ? (e as Problem[]) : [{ message: String(e) }]);
      setProgress(null);
    }
  }
  return (
    <div className="field">
      <label htmlFor={id}>{text}</label>
      <input
        id={id}
        type="file"
        accept={accept}
        onChange={(e) => pick(e.target.files?.[0])}
        aria-invalid={err ? true : undefined}
        aria-describedby={err ? `${id}-error` : undefined}
      />
      {progress !== null && <Progress value={progress} label={`Upload of ${text.toLowerCase()}`} />}
      {done && <small role="status">{done}</small>}
      {err && (
        <small id={`${id}-error`} className="error">
          {err}
        </small>
      )}
    </div>
  );
}

/** One deliverable to add: an uploaded file, a URL or a text. */
export function DeliverableAdder({
  problems,
  index,
  onAdd,
  submitText = 'Add deliverable',
}: {
  problems: Problem[];
  index: number;
  onAdd: (d: DeliverableInput & { name: string }) => void;
  submitText?: string;
}) {
  const [type, setType] = useState<DeliverableType>('FILE');
  const [value, setValue] = useState('');
  const [file, setFile] = useState<Uploaded | null>(null);
  const [resetKey, setResetKey] = useState(0);
  const p = `deliverables[${index}]`;
  const scoped = problems.map((x) => (x.param === 'value' || x.param === 'token' ? { ...x, param: `${p}.${x.param}` } : x));
  function add() {
    if (type === 'FILE') {
      if (!file) return;
      onAdd({ type, token: file.token, name: file.filename });
      setFile(null);
      setResetKey(resetKey + 1);
    } else {
      onAdd({ type, value, name: type === 'URL' ? value : value.slice(0, 60) });
      setValue('');
    }
  }
  return (
    <div className="adder" role="group" aria-label="New deliverable">
      <Select
        label="Deliverable type"
        param={`${p}.type`}
        problems={scoped}
        value={type}
        onValue={(t) => {
          setType(t);
          setValue('');
        }}
        options={[
          { value: 'FILE', label: 'File' },
          { value: 'URL', label: 'Link' },
          { value: 'TEXT', label: 'Text' },
        ]}
      />
      {type === 'FILE' && (
        <FileUpload key={resetKey} purpose="DELIVERABLE" label="Deliverable file" problems={scoped} param={`${p}.token`} onUploaded={setFile} />
      )}
      {type === 'URL' && (
        <Field label="Link (https)" param={`${p}.value`} problems={scoped} type="url" maxLength={2048} value={value} onValue={setValue} />
      )}
      {type === 'TEXT' && (
        <TextArea label="Text" param={`${p}.value`} problems={scoped} maxLength={10000} value={value} onValue={setValue} />
      )}
      <button type="button" className="secondary" onClick={add} disabled={type === 'FILE' ? !file : !value.trim()}>
        {submitText}
      </button>
    </div>
  );
}

/** A published listing's own sales over a range (viewer.analytics with listingId): totals with changes, and the chart. */
function ListingSales({ id, title }: { id: string; title: string }) {
  const { query } = useLocation();
  const range = rangeOf(rangeKey(query.get('range')));
  const [{ data, fetching, error }] = useQuery({
    query: ListingAnalyticsQuery,
    variables: { listingId: id, from: range.from, to: range.to, prevFrom: range.prevFrom, prevTo: range.prevTo, interval: range.interval },
  });
  const cur = data?.viewer?.current;
  const t = cur?.totals;
  const p = data?.viewer?.previous?.totals;
  return (
    <section aria-labelledby="sales" className="dashboard" aria-busy={fetching}>
      <div className="section-head">
        <h2 id="sales">Sales</h2>
        <RangeControl current={range.key} />
      </div>
      <FormErrors problems={problemsOf(error)} />
      {!cur && fetching && <Loading what="Loading the sales" />}
      {cur && t && p && (
        <>
          <dl className="stats">
            <Stat label="Revenue" testid="listing-revenue" value={<Money amount={t.revenue} currency={cur.currency} />} change={changeText(t.revenue, p.revenue)} previous={range.previous} />
            <Stat label="Orders" testid="listing-orders" value={formatCount(t.orders)} change={changeText(t.orders, p.orders)} previous={range.previous} />
            <Stat label="Views" testid="listing-views" value={formatCount(t.views)} change={changeText(t.views, p.views)} previous={range.previous} />
            <Stat label="Conversion" testid="listing-conversion" value={rateText(t.conversionRate)} change={rateChangeText(t.conversionRate, p.conversionRate)} previous={range.previous} />
          </dl>
          {t.orders === 0 && t.views === 0 && t.refunds === 0 ? (
            <Empty>No views or sales of this listing in this range yet.</Empty>
          ) : (
            <ChartFigure name={`${range.chartName.replace('Revenue and orders', `Revenue and orders of ${title}`)}`} buckets={cur.series} currency={cur.currency} monthly={range.interval === 'MONTH'} />
          )}
        </>
      )}
    </section>
  );
}
