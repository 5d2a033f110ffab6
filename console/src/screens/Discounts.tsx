// Discount codes (CONTRACT §19): the list with what each takes off, where
// it applies, its status and use; create and edit (the fields the API lets
// change, the frozen ones shown disabled with the reason), turn off and on,
// delete, the share link, and what to do when buyers cannot use a code.
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import {
  CreateDiscount,
  DeleteDiscount,
  DiscountQuery,
  DiscountsQuery,
  ListingChoicesQuery,
  ListingTitlesQuery,
  UpdateDiscount,
  ViewerQuery,
} from '../ops';
import type {
  CreateDiscountInput,
  DiscountFieldsFragment,
  DiscountStatus,
  DiscountType,
  ListingStatus,
  UpdateDiscountInput,
} from '../gql/graphql';
import { ActionList } from '../actions';
import { problemsOf, type Problem } from '../problems';
import { Link, navigate, useLocation } from '../router';
import {
  Badge,
  Choice,
  Empty,
  Field,
  FormErrors,
  Loading,
  Notice,
  Page,
  Pager,
  Select,
  Time,
  errorFor,
  formatMoney,
  formatPercent,
  moneyExample,
  moneyText,
  parseMoney,
  timeInput,
  timeValue,
  useCursor,
} from '../ui';

type Discount = DiscountFieldsFragment;

const statusText: Record<DiscountStatus, string> = {
  ACTIVE: 'Active',
  SCHEDULED: 'Scheduled',
  EXPIRED: 'Expired',
  EXHAUSTED: 'Used up',
  DISABLED: 'Turned off',
};

const statusFilter: { value: '' | DiscountStatus; label: string }[] = [
  { value: '', label: 'All' },
  ...(['ACTIVE', 'SCHEDULED', 'EXPIRED', 'EXHAUSTED', 'DISABLED'] as DiscountStatus[]).map((s) => ({ value: s, label: statusText[s] })),
];

export function DiscountStatusBadge({ status }: { status: DiscountStatus }) {
  return <span className={`badge badge-discount-${status.toLowerCase()}`}>{statusText[status]}</span>;
}

/** What a discount takes off: "25% off", "$5.00 off". */
export function takesOff(d: Pick<Discount, 'type' | 'percentOff' | 'amountOff'>, currency: string | null | undefined): string {
  if (d.type === 'PERCENTAGE') return `${formatPercent(d.percentOff ?? 0)} off`;
  return `${formatMoney(d.amountOff ?? 0, currency)} off`;
}

function redemptions(d: Discount): string {
  return d.maxRedemptions == null ? `${d.redemptionsCount} / no limit` : `${d.redemptionsCount} / ${d.maxRedemptions}`;
}

/** Listing titles by id for the ids given (null: deleted or not the account's). */
function useListingTitles(ids: string[]): Map<string, string | null> | null {
  const key = [...new Set(ids)].slice(0, 100).join(' ');
  const unique = useMemo(() => (key ? key.split(' ') : []), [key]);
  const [{ data, operation }] = useQuery({ query: ListingTitlesQuery, variables: { ids: unique }, pause: unique.length === 0 });
  // Only an answer for these ids (not one for the ids before) names them.
  const answered = operation?.variables.ids.join(' ') === key ? data?.nodes : undefined;
  return useMemo(() => {
    if (unique.length === 0) return new Map();
    if (!answered) return null;
    const titles = new Map<string, string>();
    for (const n of answered) if (n && 'title' in n) titles.set(n.id, n.title);
    return new Map(unique.map((id) => [id, titles.get(id) ?? null]));
  }, [answered, unique]);
}

function appliesTo(d: Discount, titles: Map<string, string | null> | null): string {
  if (d.listingIds.length === 0) return 'All listings';
  if (!titles) return d.listingIds.length === 1 ? '1 listing' : `${d.listingIds.length} listings`;
  const names = d.listingIds.map((id) => titles.get(id) ?? 'a deleted listing');
  if (names.length <= 3) return names.join(', ');
  return `${names.slice(0, 2).join(', ')} and ${names.length - 2} more`;
}

/** The list: /discounts (filter ?status=). */
export function Discounts() {
  const { query } = useLocation();
  const status = (query.get('status') ?? '') as '' | DiscountStatus;
  const deleted = query.get('deleted');
  const cursor = useCursor(status);
  const [{ data, fetching, error }] = useQuery({
    query: DiscountsQuery,
    variables: { first: 20, after: cursor.after, status: status || null },
    requestPolicy: 'cache-and-network',
  });
  const conn = data?.viewer?.discounts;
  const currency = data?.viewer?.currency ?? null;
  const list = conn?.edges.map((e) => e.node) ?? [];
  const titles = useListingTitles(list.flatMap((d) => d.listingIds));
  // No code at all (not merely none of a status): say what codes are for.
  const none = !!conn && list.length === 0 && !status && cursor.page === 1;
  return (
    <Page title="Discounts" actions={<Link className="button" to="/discounts/new">New discount</Link>}>
      {deleted && <Notice>Deleted the discount code {deleted}. Orders that used it keep their discount.</Notice>}
      {!none && (
        <form className="filters" onSubmit={(e) => e.preventDefault()} aria-label="Filter discounts">
          <Select
            label="Status"
            param="status"
            problems={[]}
            value={status}
            onValue={(v) => navigate(v ? `/discounts?status=${v}` : '/discounts', true)}
            options={statusFilter}
          />
        </form>
      )}
      <FormErrors problems={problemsOf(error)} />
      {!conn && fetching && <Loading />}
      {none && (
        <Empty>
          <p className="empty-title">No discount codes yet.</p>
          <p>
            A discount code takes a percentage or a fixed amount off a purchase, for every listing or the ones you choose. Buyers type
            it on the product page, or open its share link, which fills it in: give one to a newsletter, a launch or returning
            customers, with dates and limits if you like.
          </p>
          <p>
            <Link className="button" to="/discounts/new">Create a discount code</Link>
          </p>
        </Empty>
      )}
      {conn && list.length === 0 && (status || cursor.page > 1) && <Empty>No discount code has this status.</Empty>}
      {list.length > 0 && (
        // On a phone each row is a card of labelled cells (styles.css,
        // table.stack); the roles keep it a table for assistive technology
        // whatever its display.
        <table className="stack" role="table">
          <thead role="rowgroup">
            <tr role="row">
              <th scope="col" role="columnheader">Name</th>
              <th scope="col" role="columnheader">Code</th>
              <th scope="col" role="columnheader">Takes off</th>
              <th scope="col" role="columnheader">Applies to</th>
              <th scope="col" role="columnheader">Status</th>
              <th scope="col" role="columnheader">Used</th>
              <th scope="col" role="columnheader">Expires</th>
            </tr>
          </thead>
          <tbody role="rowgroup">
            {list.map((d) => (
              <tr key={d.id} role="row">
                <td role="cell" data-label="Name" className="lead">
                  <Link to={`/discounts/${d.id}`}>{d.name || d.code}</Link>
                </td>
                <td role="cell" data-label="Code">
                  <code>{d.code}</code>
                </td>
                <td role="cell" data-label="Takes off" className="nowrap">{takesOff(d, currency)}</td>
                <td role="cell" data-label="Applies to">{appliesTo(d, titles)}</td>
                <td role="cell" data-label="Status" className="status-cell">
                  <div>
                    <DiscountStatusBadge status={d.status} />
                    {!d.readiness.usable && d.readiness.actions[0] && (
                      <small className="muted block">{d.readiness.actions[0].message}</small>
                    )}
                  </div>
                </td>
                <td role="cell" data-label="Used" className="nowrap">{redemptions(d)}</td>
                <td role="cell" data-label="Expires">{d.expiresAt ? <Time value={d.expiresAt} /> : 'Never'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {conn && (
        <Pager page={cursor.page} hasNext={conn.pageInfo.hasNextPage} onNext={() => cursor.next(conn.pageInfo.endCursor)} onPrev={cursor.prev} />
      )}
    </Page>
  );
}

/** /discounts/new and /discounts/{id}. */
export function DiscountScreen({ id }: { id: string | null }) {
  const [{ data, fetching, error }, refetch] = useQuery({
    query: DiscountQuery,
    variables: { id: id ?? '' },
    pause: !id,
    requestPolicy: 'cache-and-network',
  });
  const { query } = useLocation();
  if (!id) return <NewDiscount />;
  if (!data && fetching) return <Page title="Discount"><Loading /></Page>;
  const problems = problemsOf(error);
  if (!data?.discount) {
    const missing = problems.length === 0 || problems.some((p) => p.code === 'not_found');
    return (
      <Page title={missing ? 'Discount not found' : 'Discount'}>
        {!missing && <FormErrors problems={problems} />}
        {missing && (
          <p>
            No discount code of your account has the id {id}. <Link to="/discounts">Back to the discounts</Link>.
          </p>
        )}
      </Page>
    );
  }
  return (
    <DiscountDetail
      key={data.discount.id}
      discount={data.discount}
      currency={data.viewer?.currency ?? null}
      created={query.get('created') === '1'}
      onChanged={() => refetch({ requestPolicy: 'network-only' })}
    />
  );
}

function NewDiscount() {
  const [{ data }] = useQuery({ query: ViewerQuery });
  const currency = data?.viewer?.currency ?? null;
  return (
    <Page title="New discount">
      <p className="muted">
        Buyers type the code on the product page, or open its share link. It takes a percentage or an amount off the price (on a
        pay-what-you-want listing, off the amount the buyer names; never below its minimum).
      </p>
      <DiscountForm discount={null} currency={currency} onSaved={(d) => navigate(`/discounts/${d.id}?created=1`, true)} />
    </Page>
  );
}

function DiscountDetail({
  discount: d,
  currency,
  created,
  onChanged,
}: {
  discount: Discount;
  currency: string | null;
  created: boolean;
  onChanged: () => void;
}) {
  const [, update] = useMutation(UpdateDiscount);
  const [, del] = useMutation(DeleteDiscount);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [notice, setNotice] = useState(created ? `Created the discount code ${d.code}.` : '');
  const [busy, setBusy] = useState(false);
  const titles = useListingTitles(d.listingIds);
  const disabled = d.status === 'DISABLED';

  async function setStatus(status: DiscountStatus) {
    setBusy(true);
    setProblems([]);
    setNotice('');
    const r = await update({ id: d.id, input: { status } });
    setBusy(false);
    if (r.error) setProblems(problemsOf(r.error));
    else {
      setNotice(status === 'DISABLED' ? 'Turned off: buyers who type the code are told it is disabled.' : 'Turned on.');
      onChanged();
    }
  }

  async function doDelete() {
    if (!window.confirm(`Delete the discount code ${d.code}? Buyers can no longer use it; orders that used it keep their discount.`)) return;
    setBusy(true);
    setProblems([]);
    const r = await del({ id: d.id });
    setBusy(false);
    if (r.error) setProblems(problemsOf(r.error));
    else navigate(`/discounts?deleted=${encodeURIComponent(d.code)}`, true);
  }

  return (
    <Page title={d.name || d.code} actions={<DiscountStatusBadge status={d.status} />}>
      {notice && <Notice>{notice}</Notice>}
      <FormErrors problems={problems} />
      <section aria-labelledby="summary">
        <h2 id="summary" className="sr-only">Summary</h2>
        <dl className="facts">
          <dt>Code</dt>
          <dd><code>{d.code}</code></dd>
          <dt>Takes off</dt>
          <dd>{takesOff(d, currency)}</dd>
          <dt>Applies to</dt>
          <dd>
            {d.listingIds.length === 0 ? (
              'All listings'
            ) : (
              <ul className="inline-list">
                {d.listingIds.map((lid) => (
                  <li key={lid}>
                    {titles?.get(lid) ? <Link to={`/listings/${lid}`}>{titles.get(lid)}</Link> : titles ? `Deleted listing ${lid}` : lid}
                  </li>
                ))}
              </ul>
            )}
          </dd>
          <dt>Used</dt>
          <dd>
            {d.redemptionsCount} paid {d.redemptionsCount === 1 ? 'order' : 'orders'}
            {d.maxRedemptions != null ? ` of at most ${d.maxRedemptions}` : ' (no limit)'}
          </dd>
          <dt>Per buyer</dt>
          <dd>{d.maxRedemptionsPerCustomer != null ? `At most ${d.maxRedemptionsPerCustomer}` : 'No limit'}</dd>
          <dt>Minimum order</dt>
          <dd>{d.minimumAmount != null ? formatMoney(d.minimumAmount, currency) : 'None'}</dd>
          <dt>Starts</dt>
          <dd>{d.startsAt ? <Time value={d.startsAt} /> : <>At creation, <Time value={d.createdAt} /></>}</dd>
          <dt>Expires</dt>
          <dd>{d.expiresAt ? <Time value={d.expiresAt} /> : 'Never'}</dd>
        </dl>
        <div className="row">
          {disabled ? (
            <button type="button" disabled={busy} onClick={() => setStatus('ACTIVE')}>Turn on</button>
          ) : (
            <button type="button" className="secondary" disabled={busy} onClick={() => setStatus('DISABLED')}>Turn off</button>
          )}
          <button type="button" className="danger" disabled={busy} onClick={doDelete}>Delete</button>
        </div>
      </section>
      <section aria-labelledby="readiness">
        <h2 id="readiness">{d.readiness.usable ? 'Buyers can use it' : 'Buyers cannot use it now'}</h2>
        {d.readiness.usable ? (
          <p className="muted">The code is active and at least one of its listings is on sale.</p>
        ) : d.readiness.actions.length > 0 ? (
          <ActionList actions={d.readiness.actions} onDone={onChanged} />
        ) : null}
      </section>
      <ShareLink url={d.shareUrl} single={d.listingIds.length === 1} />
      <section aria-labelledby="edit">
        <h2 id="edit">Edit</h2>
        <DiscountForm
          discount={d}
          currency={currency}
          onSaved={() => {
            setNotice('Saved.');
            setProblems([]);
            onChanged();
          }}
        />
      </section>
    </Page>
  );
}

function ShareLink({ url, single }: { url: string | null | undefined; single: boolean }) {
  const [state, setState] = useState<'' | 'copied' | 'failed'>('');
  async function copy() {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      setState('copied');
    } catch {
      setState('failed');
    }
  }
  return (
    <section aria-labelledby="share">
      <h2 id="share">Share link</h2>
      {url ? (
        <>
          <p className="muted">
            Opens {single ? 'the product page' : 'your store page'} with the code filled in and applied.
          </p>
          <p className="share-url">
            <code data-testid="share-url">{url}</code>
          </p>
          <div className="row">
            <button type="button" className="secondary" onClick={copy}>
              Copy link
            </button>
            <a href={url} target="_blank" rel="noopener">Open the page</a>
          </div>
        </>
      ) : (
        <p>
          A code for several or all listings links to your store page, and the store has no address yet:{' '}
          <Link to="/settings">set the store’s slug in Settings</Link>.
        </p>
      )}
      <p role="status" className={state === 'copied' ? 'copied' : state === 'failed' ? 'error' : 'sr-only'}>
        {state === 'copied'
          ? 'Link copied to the clipboard.'
          : state === 'failed'
            ? 'The browser did not allow copying: select the link above and copy it.'
            : ''}
      </p>
    </section>
  );
}

// The form's fields as typed; parsed on submit.
type FormState = {
  name: string;
  code: string;
  type: DiscountType;
  percent: string;
  amount: string;
  scope: 'ALL' | 'SOME';
  listingIds: string[];
  startsAt: string;
  expiresAt: string;
  maxRedemptions: string;
  perCustomer: string;
  minimum: string;
};

function formOf(d: Discount | null, currency: string | null): FormState {
  return {
    name: d?.name ?? '',
    code: d?.code ?? '',
    type: d?.type ?? 'PERCENTAGE',
    percent: d?.percentOff != null ? String(d.percentOff) : '',
    amount: d?.amountOff != null ? moneyText(d.amountOff, currency) : '',
    scope: d && d.listingIds.length > 0 ? 'SOME' : 'ALL',
    listingIds: d?.listingIds ?? [],
    startsAt: timeInput(d?.startsAt),
    expiresAt: timeInput(d?.expiresAt),
    maxRedemptions: d?.maxRedemptions != null ? String(d.maxRedemptions) : '',
    perCustomer: d?.maxRedemptionsPerCustomer != null ? String(d.maxRedemptionsPerCustomer) : '',
    minimum: d?.minimumAmount != null ? moneyText(d.minimumAmount, currency) : '',
  };
}

type Parsed = {
  name: string | null;
  code: string;
  type: DiscountType;
  percentOff: number | null;
  amountOff: number | null;
  listingIds: string[];
  startsAt: string | null;
  expiresAt: string | null;
  maxRedemptions: number | null;
  maxRedemptionsPerCustomer: number | null;
  minimumAmount: number | null;
};

/** The form's values for the API, or the problems of what could not be read. */
function parse(f: FormState, currency: string | null): { values: Parsed; problems: Problem[] } {
  const problems: Problem[] = [];
  const count = (text: string, param: string, what: string): number | null => {
    const t = text.trim();
    if (t === '') return null;
    if (!/^\d+$/.test(t)) {
      problems.push({ param, message: `Enter ${what} as a whole number, such as 100, or leave it empty for no limit.` });
      return null;
    }
    return Number(t);
  };
  const money = (text: string, param: string, what: string, optional: boolean): number | null => {
    if (text.trim() === '') {
      if (!optional) problems.push({ param, message: `Enter ${what} in ${currency ? currency.toUpperCase() : 'your currency'}, such as ${moneyExample(currency)}.` });
      return null;
    }
    const n = parseMoney(text, currency);
    if (Number.isNaN(n)) {
      problems.push({ param, message: `Enter ${what} as an amount such as ${moneyExample(currency)}.` });
      return null;
    }
    return n;
  };
  let percentOff: number | null = null;
  let amountOff: number | null = null;
  if (f.type === 'PERCENTAGE') {
    const t = f.percent.trim().replace(/\s*%$/, '');
    if (!/^\d+$/.test(t)) problems.push({ param: 'percent_off', message: 'Enter a whole percentage from 1 to 100, such as 25.' });
    else percentOff = Number(t);
  } else {
    amountOff = money(f.amount, 'amount_off', 'the amount off', false);
  }
  if (f.scope === 'SOME' && f.listingIds.length === 0) {
    problems.push({ param: 'listing_ids', message: 'Choose at least one listing, or apply the code to all listings.' });
  }
  const values: Parsed = {
    name: f.name.trim() || null,
    code: f.code.trim(),
    type: f.type,
    percentOff,
    amountOff,
    listingIds: f.scope === 'ALL' ? [] : f.listingIds,
    startsAt: timeValue(f.startsAt),
    expiresAt: timeValue(f.expiresAt),
    maxRedemptions: count(f.maxRedemptions, 'max_redemptions', 'the limit'),
    maxRedemptionsPerCustomer: count(f.perCustomer, 'max_redemptions_per_customer', 'the limit per buyer'),
    minimumAmount: money(f.minimum, 'minimum_amount', 'the minimum order', true),
  };
  return { values, problems };
}

/** The fields of an edit that differ from the discount (PUT changes only what it is given). */
function changes(before: FormState, after: FormState, v: Parsed): UpdateDiscountInput {
  const input: UpdateDiscountInput = {};
  if (after.name !== before.name) input.name = v.name;
  if (after.code !== before.code) input.code = v.code;
  if (after.type !== before.type) input.type = v.type;
  if (after.type !== before.type || after.percent !== before.percent || after.amount !== before.amount) {
    if (v.type === 'PERCENTAGE') input.percentOff = v.percentOff;
    else input.amountOff = v.amountOff;
  }
  const ids = (f: FormState) => (f.scope === 'ALL' ? '' : [...f.listingIds].sort().join(' '));
  if (ids(after) !== ids(before)) input.listingIds = v.listingIds;
  if (after.expiresAt !== before.expiresAt) input.expiresAt = v.expiresAt;
  if (after.maxRedemptions !== before.maxRedemptions) input.maxRedemptions = v.maxRedemptions;
  if (after.perCustomer !== before.perCustomer) input.maxRedemptionsPerCustomer = v.maxRedemptionsPerCustomer;
  return input;
}

const formParams = [
  'name',
  'code',
  'type',
  'percent_off',
  'amount_off',
  'listing_ids',
  'starts_at',
  'expires_at',
  'max_redemptions',
  'max_redemptions_per_customer',
  'minimum_amount',
];

function DiscountForm({
  discount,
  currency,
  onSaved,
}: {
  discount: Discount | null;
  currency: string | null;
  onSaved: (d: Discount) => void;
}) {
  // The form starts from the discount as saved, and starts again when it
  // changes (saved, turned off or on), not on every read of the same one.
  const version = discount ? `${discount.id} ${discount.updatedAt} ${discount.redemptionsCount}` : '';
  const initial = useMemo(() => formOf(discount, currency), [version, currency]);
  const [f, setF] = useState<FormState>(initial);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [busy, setBusy] = useState(false);
  const [, create] = useMutation(CreateDiscount);
  const formRef = useRef<HTMLFormElement>(null);
  // A refused form brings its first field in error into view, focused.
  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [problems]);
  const [, update] = useMutation(UpdateDiscount);
  // A refetched discount (after saving, turning it off or on) shows as saved.
  useEffect(() => {
    setF(initial);
    setProblems([]);
  }, [initial]);
  const set = <K extends keyof FormState>(k: K) => (v: FormState[K]) => setF((x) => ({ ...x, [k]: v }));
  const editing = discount !== null;
  const used = discount?.redemptionsCount ?? 0;
  const frozen = used > 0;
  const frozenWhy = frozen
    ? `Paid orders have used this code (${used}), so its code, type and amount can no longer change: create another code instead.`
    : undefined;
  const frozenShort = frozen ? 'Cannot change after the first paid order (see the code above).' : undefined;
  const cur = currency ? ` (${currency.toUpperCase()})` : '';

  async function submit(e: FormEvent) {
    e.preventDefault();
    const { values, problems: local } = parse(f, currency);
    if (local.length) {
      setProblems(local);
      return;
    }
    setBusy(true);
    setProblems([]);
    if (!discount) {
      const input: CreateDiscountInput = {
        name: values.name,
        code: values.code,
        type: values.type,
        percentOff: values.percentOff,
        amountOff: values.amountOff,
        listingIds: values.listingIds,
        startsAt: values.startsAt,
        expiresAt: values.expiresAt,
        maxRedemptions: values.maxRedemptions,
        maxRedemptionsPerCustomer: values.maxRedemptionsPerCustomer,
        minimumAmount: values.minimumAmount,
      };
      const r = await create({ input });
      setBusy(false);
      if (r.error) setProblems(problemsOf(r.error));
      else if (r.data?.createDiscount) onSaved(r.data.createDiscount);
      return;
    }
    const input = changes(initial, f, values);
    if (Object.keys(input).length === 0) {
      setBusy(false);
      setProblems([{ message: 'Nothing changed.' }]);
      return;
    }
    const r = await update({ id: discount.id, input });
    setBusy(false);
    if (r.error) setProblems(problemsOf(r.error));
    else if (r.data?.updateDiscount) onSaved(r.data.updateDiscount);
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-label={editing ? 'Edit the discount' : 'New discount'}>
      <FormErrors problems={problems} shown={formParams} />
      <fieldset disabled={busy}>
        <legend>Name and code</legend>
        <Field
          label="Name (optional)"
          param="name"
          problems={problems}
          maxLength={100}
          value={f.name}
          onValue={set('name')}
          hint="For you: buyers do not see it."
        />
        <Field
          label="Code"
          param="code"
          problems={problems}
          required
          maxLength={40}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          pattern="[A-Za-z0-9_\-]{3,40}"
          placeholder="LAUNCH25"
          value={f.code}
          onValue={set('code')}
          disabled={frozen}
          hint={frozenWhy ?? 'What buyers type: 3 to 40 letters, digits, _ or -. Upper and lower case are the same code.'}
        />
      </fieldset>
      <fieldset disabled={busy}>
        <legend>Amount off</legend>
        <Choice
          legend="Type"
          param="type"
          problems={problems}
          value={f.type}
          onValue={set('type')}
          disabled={frozen}
          hint={frozenShort}
          options={[
            { value: 'PERCENTAGE', label: 'A percentage of the price' },
            {
              value: 'FIXED',
              label: 'A fixed amount',
              hint: currency ? `in ${currency.toUpperCase()}, never more than the price` : 'connect the processor first: it sets your currency',
              disabled: !currency,
            },
          ]}
        />
        {f.type === 'PERCENTAGE' ? (
          <Field
            label="Percent off"
            short
            param="percent_off"
            problems={problems}
            inputMode="numeric"
            required
            maxLength={4}
            placeholder="25"
            value={f.percent}
            onValue={set('percent')}
            disabled={frozen}
            hint={frozenShort ?? '1 to 100; 100 makes the listing free with the code.'}
          />
        ) : (
          <Field
            label={`Amount off${cur}`}
            short
            param="amount_off"
            problems={problems}
            inputMode="decimal"
            required
            maxLength={12}
            placeholder={moneyExample(currency)}
            value={f.amount}
            onValue={set('amount')}
            disabled={frozen}
            hint={frozenShort}
          />
        )}
      </fieldset>
      <fieldset disabled={busy}>
        <legend>Applies to</legend>
        <ListingPicker
          key={version}
          scope={f.scope}
          onScope={set('scope')}
          ids={f.listingIds}
          onIds={set('listingIds')}
          problems={problems}
        />
      </fieldset>
      <fieldset disabled={busy}>
        <legend>When and how often</legend>
        <Field
          label="Starts (UTC, optional)"
          short
          param="starts_at"
          problems={problems}
          type="datetime-local"
          value={f.startsAt}
          onValue={set('startsAt')}
          disabled={editing}
          hint={editing ? 'The start cannot change: to start at another time, create another code.' : 'Empty: at once.'}
        />
        <Field
          label="Expires (UTC, optional)"
          short
          param="expires_at"
          problems={problems}
          type="datetime-local"
          value={f.expiresAt}
          onValue={set('expiresAt')}
          hint="Empty: never."
        />
        <Field
          label="Most paid orders (optional)"
          short
          param="max_redemptions"
          problems={problems}
          inputMode="numeric"
          maxLength={9}
          value={f.maxRedemptions}
          onValue={set('maxRedemptions')}
          hint={used > 0 ? `Empty: no limit. Not below ${used}, the orders that used it.` : 'Empty: no limit.'}
        />
        <Field
          label="Most uses per buyer (optional)"
          short
          param="max_redemptions_per_customer"
          problems={problems}
          inputMode="numeric"
          maxLength={9}
          value={f.perCustomer}
          onValue={set('perCustomer')}
          hint="Counted by email address. Empty: no limit."
        />
        <Field
          label={`Minimum order${cur} (optional)`}
          short
          param="minimum_amount"
          problems={problems}
          inputMode="decimal"
          maxLength={12}
          value={f.minimum}
          onValue={set('minimum')}
          disabled={editing || !currency}
          hint={
            editing
              ? 'The minimum cannot change: to use another, create another code.'
              : currency
                ? 'The code applies only to prices of at least this much. Empty: any price.'
                : 'Connect the processor first: it sets your currency.'
          }
        />
      </fieldset>
      <button type="submit" disabled={busy}>
        {editing ? 'Save changes' : 'Create discount'}
      </button>
    </form>
  );
}

type ListingChoice = { id: string; title: string; status: ListingStatus };

/** All listings, or the ones chosen by title. */
function ListingPicker({
  scope,
  onScope,
  ids,
  onIds,
  problems,
}: {
  scope: 'ALL' | 'SOME';
  onScope: (s: 'ALL' | 'SOME') => void;
  ids: string[];
  onIds: (ids: string[]) => void;
  problems: Problem[];
}) {
  const [after, setAfter] = useState<string | null>(null);
  const [loaded, setLoaded] = useState<ListingChoice[]>([]);
  const [search, setSearch] = useState('');
  const [{ data, fetching, error }] = useQuery({ query: ListingChoicesQuery, variables: { after }, requestPolicy: 'cache-and-network' });
  const page = data?.viewer?.listings;
  // Read once: the listings of the first page are known (kept while the next loads).
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (!page) return;
    setReady(true);
    setLoaded((prev) => {
      const seen = new Set(prev.map((l) => l.id));
      return [...prev, ...page.edges.map((e) => e.node).filter((n) => !seen.has(n.id))];
    });
  }, [page]);
  const titles = useListingTitles(ready ? ids.filter((id) => !loaded.some((l) => l.id === id)) : []);
  const err = errorFor(problems, 'listing_ids');
  const q = search.trim().toLowerCase();
  const shown = q ? loaded.filter((l) => l.title.toLowerCase().includes(q) || ids.includes(l.id)) : loaded;
  // Chosen listings not among those loaded: beyond the pages read, or deleted since.
  const unknown = ready ? ids.filter((id) => !loaded.some((l) => l.id === id)) : [];
  // A deleted listing cannot stay chosen (the API refuses it): it is dropped
  // from the choice, and saving the form drops it from the code.
  const [dropped, setDropped] = useState<string[]>([]);
  useEffect(() => {
    const gone = titles ? unknown.filter((id) => titles.get(id) === null) : [];
    if (gone.length === 0) return;
    setDropped((d) => [...d, ...gone.filter((id) => !d.includes(id))]);
    onIds(ids.filter((id) => !gone.includes(id)));
  }, [titles]);
  const toggle = (id: string, on: boolean) => onIds(on ? [...ids, id] : ids.filter((x) => x !== id));

  return (
    <>
      <Choice
        legend="Listings the code works for"
        param={scope === 'ALL' ? 'listing_ids' : 'scope'}
        problems={problems}
        value={scope}
        onValue={onScope}
        options={[
          { value: 'ALL', label: 'All listings', hint: 'also the ones you add later' },
          { value: 'SOME', label: 'Only the listings I choose' },
        ]}
      />
      {scope === 'SOME' && (
        <fieldset className="picker" aria-describedby={err ? 'listing-ids-error' : undefined}>
          <legend>
            Chosen listings <span className="muted">({ids.length} chosen)</span>
          </legend>
          <FormErrors problems={problemsOf(error)} />
          {loaded.length > 6 && (
            <div className="field">
              <label htmlFor="listing-search">Find a listing by title</label>
              <input id="listing-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} autoComplete="off" />
            </div>
          )}
          {loaded.length === 0 && fetching && <Loading what="Loading your listings" />}
          {loaded.length === 0 && !fetching && !error && (
            <p className="muted">
              You have no listings yet: <Link to="/listings/new">create one</Link>, or let the code work for all listings.
            </p>
          )}
          <ul className="picker-list">
            {shown.map((l) => (
              <li key={l.id}>
                <label className="check">
                  <input type="checkbox" checked={ids.includes(l.id)} onChange={(e) => toggle(l.id, e.target.checked)} />
                  <span>{l.title}</span>
                  {l.status !== 'PUBLISHED' && <Badge value={l.status} />}
                </label>
              </li>
            ))}
            {unknown.map((id) => (
              <li key={id}>
                <label className="check">
                  <input type="checkbox" checked onChange={() => toggle(id, false)} />
                  <span>{titles?.get(id) ?? id}</span>
                </label>
              </li>
            ))}
          </ul>
          {q && shown.length === 0 && <p className="muted">No listing title contains “{search.trim()}”.</p>}
          {dropped.length > 0 && (
            <p className="muted" data-testid="dropped-listings">
              Deleted since, so no longer chosen (saving removes {dropped.length === 1 ? 'it' : 'them'} from the code):{' '}
              {dropped.join(', ')}.
            </p>
          )}
          {page?.pageInfo.hasNextPage && (
            <button type="button" className="secondary" disabled={fetching} onClick={() => setAfter(page.pageInfo.endCursor ?? null)}>
              Load more listings
            </button>
          )}
          {err && (
            <small id="listing-ids-error" className="error block">
              {err}
            </small>
          )}
        </fieldset>
      )}
    </>
  );
}
