// License keys (CONTRACT §20): the keys issued with orders of licensed
// listings, found by key or by buyer email and filtered by status; a key's
// devices (each removable), turning it off and on, its device limit and
// its expiry.
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { DeleteLicenseActivation, LicenseKeyContextQuery, LicenseKeyQuery, LicenseKeysQuery, UpdateLicenseKey } from '../ops';
import type { LicenseKeyFieldsFragment, LicenseKeyQuery as LicenseKeyResult, LicenseKeyStatus, UpdateLicenseKeyInput } from '../gql/graphql';
import { belowDevicesMessage, keyLimitMessage, maxActivationLimit, wholeNumber } from '../license';
import { problemsOf, type Problem } from '../problems';
import { Link, navigate, useLocation } from '../router';
import {
  CopyButton,
  Empty,
  Field,
  FormErrors,
  Loading,
  Notice,
  Page,
  Pager,
  Select,
  Time,
  timeInput,
  timeValue,
  useCursor,
} from '../ui';

type Key = LicenseKeyFieldsFragment;
type KeyDetail = NonNullable<LicenseKeyResult['licenseKey']>;
type Activation = KeyDetail['activations'][number];

const statusText: Record<LicenseKeyStatus, string> = {
  ACTIVE: 'Active',
  DISABLED: 'Disabled',
  EXPIRED: 'Expired',
  REVOKED: 'Revoked',
};

const statusFilter: { value: '' | LicenseKeyStatus; label: string }[] = [
  { value: '', label: 'All' },
  ...(['ACTIVE', 'DISABLED', 'EXPIRED', 'REVOKED'] as LicenseKeyStatus[]).map((s) => ({ value: s, label: statusText[s] })),
];

/** A key's status as a word (its colour only repeats it). */
export function KeyStatusBadge({ status }: { status: LicenseKeyStatus }) {
  return <span className={`badge badge-key-${status.toLowerCase()}`}>{statusText[status]}</span>;
}

/** How many devices a key is on, and may be on: "2 of 3 devices", "1 device · no limit". */
export function devicesText(k: Pick<Key, 'activationsCount' | 'activationLimit'>): string {
  const n = new Intl.NumberFormat();
  if (k.activationLimit == null) return `${n.format(k.activationsCount)} ${k.activationsCount === 1 ? 'device' : 'devices'} · no limit`;
  return `${n.format(k.activationsCount)} of ${n.format(k.activationLimit)} ${k.activationLimit === 1 ? 'device' : 'devices'}`;
}

// Crockford's base32, as licensing.Normalize reads a key a buyer typed.
const keyBodyLen = 20;

/**
 * What a person typed → the key in its canonical form, or null when it
 * cannot be a key: spaces and dashes anywhere, any case, O for 0 and I or L
 * for 1 in the random part, a prefix of at most 12 letters and digits
 * (licensing.Normalize on the service).
 */
export function normalizeKey(typed: string): string | null {
  if (typed.length > 200) return null;
  const compact = typed.replace(/[\s\-\u2010-\u2015\u2212]/g, '').toUpperCase();
  if (!/^[A-Z0-9]+$/.test(compact) || compact.length < keyBodyLen || compact.length > keyBodyLen + 12) return null;
  const prefix = compact.slice(0, compact.length - keyBodyLen);
  const body = compact.slice(compact.length - keyBodyLen).replace(/O/g, '0').replace(/[IL]/g, '1');
  if (body.includes('U')) return null;
  const groups = body.match(/.{5}/g)!;
  return (prefix ? `${prefix}-` : '') + groups.join('-');
}

/** The one search box: an email (it has an @) or a key; anything else is a problem to show. */
function searchOf(q: string): { key?: string; email?: string; problem?: Problem } {
  const t = q.trim();
  if (!t) return {};
  if (t.includes('@')) return { email: t };
  const key = normalizeKey(t);
  if (key) return { key };
  return {
    problem: {
      param: 'q',
      message: 'Type a whole license key (such as ACME-7K2QF-9XW3M-PV4TA-HD2RB) or a buyer’s email address.',
    },
  };
}

/** The buyers (order emails) and listing titles of keys, by id; null while they load. */
function useKeyContext(keys: Pick<Key, 'orderId' | 'listingId'>[]) {
  const key = [...new Set(keys.flatMap((k) => [k.orderId, k.listingId]))].slice(0, 100).join(' ');
  const ids = useMemo(() => (key ? key.split(' ') : []), [key]);
  const [{ data, operation }] = useQuery({ query: LicenseKeyContextQuery, variables: { ids }, pause: ids.length === 0 });
  // Only an answer for these ids (not one for the ids before) names them.
  const answered = operation?.variables.ids.join(' ') === key ? data?.nodes : undefined;
  return useMemo(() => {
    if (ids.length === 0) return { emails: new Map<string, string>(), titles: new Map<string, string | null>() };
    if (!answered) return null;
    const emails = new Map<string, string>();
    const titles = new Map<string, string | null>();
    for (const n of answered) {
      if (n && 'buyerEmail' in n && n.buyerEmail) emails.set(n.id, n.buyerEmail);
      if (n && 'title' in n) titles.set(n.id, n.title);
    }
    for (const k of keys) if (!titles.has(k.listingId)) titles.set(k.listingId, null);
    return { emails, titles };
  }, [answered, ids]);
}

type Context = ReturnType<typeof useKeyContext>;

function ListingName({ id, ctx }: { id: string; ctx: Context }) {
  const title = ctx?.titles.get(id);
  if (title) return <Link to={`/listings/${id}`}>{title}</Link>;
  if (ctx) return <span className="muted">A deleted listing</span>;
  return <span className="muted">{id}</span>;
}

/** The buyer's email, linked to the order; the order's id while it is not known. */
function Buyer({ orderId, ctx }: { orderId: string; ctx: Context }) {
  const email = ctx?.emails.get(orderId);
  return <Link to={`/orders/${orderId}`}>{email ?? `Order ${orderId}`}</Link>;
}

/** The list: /license-keys (?q= a key or a buyer email, ?status=). */
export function LicenseKeys() {
  const { query } = useLocation();
  const q = query.get('q') ?? '';
  const status = (query.get('status') ?? '') as '' | LicenseKeyStatus;
  const [typed, setTyped] = useState(q);
  useEffect(() => setTyped(q), [q]);
  const search = searchOf(q);
  const cursor = useCursor(query.toString());
  const [{ data, fetching, error }] = useQuery({
    query: LicenseKeysQuery,
    variables: { first: 20, after: cursor.after, status: status || null, key: search.key ?? null, email: search.email ?? null },
    pause: !!search.problem,
    requestPolicy: 'cache-and-network',
  });
  // The API's refusals of the key or email are the search box's.
  const problems = [
    ...(search.problem ? [search.problem] : []),
    ...problemsOf(error).map((p) => (p.param === 'key' || p.param === 'email' ? { ...p, param: 'q' } : p)),
  ];
  const conn = search.problem ? undefined : data?.viewer?.licenseKeys;
  const list = conn?.edges.map((e) => e.node) ?? [];
  const ctx = useKeyContext(list);
  const filtered = !!q || !!status || cursor.page > 1;
  const none = !!conn && list.length === 0 && !filtered;

  function go(nextQ: string, nextStatus: string) {
    const p = new URLSearchParams();
    if (nextQ.trim()) p.set('q', nextQ.trim());
    if (nextStatus) p.set('status', nextStatus);
    const s = p.toString();
    navigate(s ? `/license-keys?${s}` : '/license-keys', true);
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    go(typed, status);
  }

  return (
    <Page title="License keys">
      {!none && (
        <form className="filters key-filters" onSubmit={submit} role="search" aria-label="Find license keys">
          <Field
            label="Key or buyer email"
            param="q"
            problems={problems}
            type="search"
            autoComplete="off"
            spellCheck={false}
            maxLength={254}
            placeholder="ACME-7K2QF-… or ada@example.com"
            value={typed}
            onValue={setTyped}
            hint="A whole key (case, spaces and dashes do not matter), or the email the buyer paid with."
          />
          <Select label="Status" param="status" problems={[]} value={status} onValue={(v) => go(q, v)} options={statusFilter} />
          <div className="field field-button">
            <span aria-hidden="true">&nbsp;</span>
            <button type="submit">Search</button>
          </div>
        </form>
      )}
      <FormErrors problems={problems} shown={['q']} />
      {!conn && fetching && <Loading />}
      {none && (
        <Empty>
          <p className="empty-title">No license keys yet.</p>
          <p>
            A listing can issue a license key with each order: turn it on in the License keys section of a draft listing, with how many
            devices a key may be active on and when keys expire. Each paid order then gets a key, shown to the buyer on the download page
            and in the download email, and listed here.
          </p>
          <p>
            <Link className="button" to="/listings">Go to the listings</Link>
          </p>
        </Empty>
      )}
      {conn && list.length === 0 && filtered && (
        <Empty>
          {search.key
            ? `No license key matches ${search.key}${status ? ` with the status ${statusText[status].toLowerCase()}` : ''}.`
            : search.email
              ? `No license key was issued to ${search.email}${status ? ` with the status ${statusText[status].toLowerCase()}` : ''}.`
              : 'No license key has this status.'}
        </Empty>
      )}
      {list.length > 0 && (
        // On a phone each row is a card of labelled cells (table.stack).
        <table className="stack keys" role="table">
          <thead role="rowgroup">
            <tr role="row">
              <th scope="col" role="columnheader">Key</th>
              <th scope="col" role="columnheader">Listing</th>
              <th scope="col" role="columnheader">Buyer</th>
              <th scope="col" role="columnheader">Status</th>
              <th scope="col" role="columnheader">Devices</th>
              <th scope="col" role="columnheader">Expires</th>
              <th scope="col" role="columnheader">Last validated</th>
            </tr>
          </thead>
          <tbody role="rowgroup">
            {list.map((k) => (
              <tr key={k.id} role="row">
                <td role="cell" data-label="Key" className="lead key-cell">
                  <Link to={`/license-keys/${k.id}`} className="key">
                    {k.key}
                  </Link>
                  <CopyButton text={k.key} label={k.key} small />
                </td>
                <td role="cell" data-label="Listing">
                  <ListingName id={k.listingId} ctx={ctx} />
                </td>
                <td role="cell" data-label="Buyer" className="break">
                  <Buyer orderId={k.orderId} ctx={ctx} />
                </td>
                <td role="cell" data-label="Status">
                  <KeyStatusBadge status={k.status} />
                </td>
                <td role="cell" data-label="Devices" className="nowrap">{devicesText(k)}</td>
                <td role="cell" data-label="Expires">{k.expiresAt ? <Time value={k.expiresAt} /> : 'Never'}</td>
                <td role="cell" data-label="Last validated">{k.lastValidatedAt ? <Time value={k.lastValidatedAt} /> : 'Never'}</td>
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

/** /license-keys/{id}. */
export function LicenseKeyScreen({ id }: { id: string }) {
  const [{ data, fetching, error }, refetch] = useQuery({ query: LicenseKeyQuery, variables: { id }, requestPolicy: 'cache-and-network' });
  if (!data && fetching) return <Page title="License key"><Loading /></Page>;
  const problems = problemsOf(error);
  if (!data?.licenseKey) {
    const missing = problems.length === 0 || problems.some((p) => p.code === 'not_found');
    return (
      <Page title={missing ? 'License key not found' : 'License key'}>
        {!missing && <FormErrors problems={problems} />}
        {missing && (
          <p>
            No license key of your account has the id {id}. <Link to="/license-keys">Back to the license keys</Link>.
          </p>
        )}
      </Page>
    );
  }
  return <KeyDetailView key={data.licenseKey.id} k={data.licenseKey} onChanged={() => refetch({ requestPolicy: 'network-only' })} />;
}

function KeyDetailView({ k, onChanged }: { k: KeyDetail; onChanged: () => void }) {
  const [, update] = useMutation(UpdateLicenseKey);
  const [, removeActivation] = useMutation(DeleteLicenseActivation);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  const ctx = useKeyContext([k]);

  async function setStatus(status: LicenseKeyStatus) {
    setBusy(true);
    setProblems([]);
    setNotice('');
    const r = await update({ id: k.id, input: { status } });
    setBusy(false);
    if (r.error) setProblems(problemsOf(r.error));
    else {
      setNotice(
        status === 'DISABLED'
          ? 'Disabled: the key no longer activates or validates, on any device, until you enable it again.'
          : 'Enabled: the key activates and validates again.',
      );
      onChanged();
    }
  }

  async function remove(a: Activation) {
    const name = a.label ? `“${a.label}”` : `the device ${a.fingerprint}`;
    if (!window.confirm(`Remove ${name} from this key? The app on it stops validating, and the key can be activated on another device.`)) return;
    setBusy(true);
    setProblems([]);
    setNotice('');
    const r = await removeActivation({ licenseKeyId: k.id, activationId: a.id });
    setBusy(false);
    if (r.error) setProblems(problemsOf(r.error));
    else {
      setNotice(`Removed ${name}.`);
      onChanged();
    }
  }

  return (
    <Page title="License key" actions={<KeyStatusBadge status={k.status} />}>
      {notice && <Notice>{notice}</Notice>}
      <FormErrors problems={problems} />
      <section aria-labelledby="summary">
        <h2 id="summary" className="sr-only">Summary</h2>
        <div className="key-value">
          <code data-testid="license-key">{k.key}</code>
          <CopyButton text={k.key} what="Copy the key" />
        </div>
        <dl className="facts">
          <dt>Listing</dt>
          <dd><ListingName id={k.listingId} ctx={ctx} /></dd>
          <dt>Buyer</dt>
          <dd>
            {ctx?.emails.get(k.orderId) ? (
              <Link to={`/customers?q=${encodeURIComponent(ctx.emails.get(k.orderId)!)}`}>{ctx.emails.get(k.orderId)}</Link>
            ) : (
              <span className="muted">—</span>
            )}
          </dd>
          <dt>Order</dt>
          <dd><Link to={`/orders/${k.orderId}`}>{k.orderId}</Link></dd>
          <dt>Devices</dt>
          <dd data-testid="key-devices">{devicesText(k)}</dd>
          <dt>Expires</dt>
          <dd data-testid="key-expires">{k.expiresAt ? <Time value={k.expiresAt} /> : 'Never'}</dd>
          <dt>Last validated</dt>
          <dd>{k.lastValidatedAt ? <Time value={k.lastValidatedAt} /> : 'Never'}</dd>
          <dt>Issued</dt>
          <dd><Time value={k.createdAt} /></dd>
        </dl>
        {k.status === 'REVOKED' ? (
          <p className="muted">Revoked: its order was refunded or its dispute lost, so the key cannot be enabled again.</p>
        ) : (
          <div className="row">
            {k.status === 'DISABLED' ? (
              <button type="button" disabled={busy} onClick={() => setStatus('ACTIVE')}>Enable</button>
            ) : (
              <button type="button" className="secondary" disabled={busy} onClick={() => setStatus('DISABLED')}>Disable</button>
            )}
          </div>
        )}
        {k.status === 'EXPIRED' && <p className="muted">Expired: set a later expiry below to make it work again.</p>}
      </section>
      <section aria-labelledby="devices">
        <h2 id="devices">Devices</h2>
        {k.activations.length === 0 ? (
          <p className="muted" data-testid="no-devices">
            No device has activated this key yet. Your app activates it on a device with the public license API (POST
            /v1/licenses/activate), and the device shows here.
          </p>
        ) : (
          // Dates on one line, a long fingerprint broken anywhere, a short
          // label kept whole (table.devices); on a phone, one card a device.
          <table className="stack devices" role="table" aria-labelledby="devices">
            <thead role="rowgroup">
              <tr role="row">
                <th scope="col" role="columnheader">Device</th>
                <th scope="col" role="columnheader">Fingerprint</th>
                <th scope="col" role="columnheader">Activated</th>
                <th scope="col" role="columnheader">Last seen</th>
                <th scope="col" role="columnheader"><span className="sr-only">Remove</span></th>
              </tr>
            </thead>
            <tbody role="rowgroup">
              {k.activations.map((a) => (
                <tr key={a.id} role="row">
                  <td role="cell" data-label="Device" className="lead device">{a.label || <span className="muted">No label</span>}</td>
                  <td role="cell" data-label="Fingerprint"><code className="break">{a.fingerprint}</code></td>
                  <td role="cell" data-label="Activated" className="nowrap"><Time value={a.createdAt} /></td>
                  <td role="cell" data-label="Last seen" className="nowrap"><Time value={a.lastSeenAt} /></td>
                  <td role="cell" data-label="" className="actions">
                    <button
                      type="button"
                      className="danger small"
                      disabled={busy}
                      aria-label={`Remove ${a.label || a.fingerprint}`}
                      onClick={() => remove(a)}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-labelledby="terms">
        <h2 id="terms">Limit and expiry</h2>
        <TermsForm
          k={k}
          onStart={() => setNotice('')}
          onSaved={(what) => {
            setNotice(what);
            setProblems([]);
            onChanged();
          }}
          onRefused={onChanged}
        />
      </section>
    </Page>
  );
}

/**
 * The service's refusal of a device limit within the bounds is that the key
 * is on more devices ("The key is active on 2 devices, more than 1: remove
 * activations first (DELETE /v1/license-keys/…)…", written for API
 * callers): said instead for the seller, who removes devices on this page.
 * Any other refusal is shown as the service says it.
 */
function refusalInWords(p: Problem, limit: number | null | undefined): Problem {
  if (p.param !== 'activation_limit' || p.code !== 'validation_error' || limit == null) return p;
  const count = /active on ([\d,]+) devices?/.exec(p.message)?.[1];
  return count ? { ...p, message: belowDevicesMessage(Number(count.replace(/,/g, '')), limit) } : p;
}

/** The key's device limit and expiry: what PUT /v1/license-keys/{id} changes besides the status. */
function TermsForm({
  k,
  onStart,
  onSaved,
  onRefused,
}: {
  k: KeyDetail;
  onStart: () => void;
  onSaved: (what: string) => void;
  onRefused: () => void;
}) {
  const [, update] = useMutation(UpdateLicenseKey);
  const version = `${k.id} ${k.updatedAt}`;
  const initial = useMemo(
    () => ({ limit: k.activationLimit != null ? String(k.activationLimit) : '', expires: timeInput(k.expiresAt) }),
    [version],
  );
  const [limit, setLimit] = useState(initial.limit);
  const [expires, setExpires] = useState(initial.expires);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setLimit(initial.limit);
    setExpires(initial.expires);
  }, [initial]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    onStart();
    const input: UpdateLicenseKeyInput = {};
    const local: Problem[] = [];
    if (limit.trim() !== initial.limit) {
      // The bounds checked here, in words for a person; whether the key is
      // on more devices than that is the service's to say (a device may
      // have activated since the page was read).
      const n = wholeNumber(limit, 1, maxActivationLimit, 'activation_limit', keyLimitMessage, local);
      if (n != null || limit.trim() === '') input.activationLimit = n;
    }
    if (expires !== initial.expires) {
      const at = timeValue(expires);
      if (expires && !at) local.push({ param: 'expires_at', message: 'Enter a date and time, or leave it empty for a key that never expires.' });
      else if (at && new Date(at).getUTCFullYear() > 9999) {
        local.push({ param: 'expires_at', message: 'Choose an expiry before the year 10000, or leave it empty for a key that never expires.' });
      } else input.expiresAt = at;
    }
    if (local.length) {
      setProblems(local);
      return;
    }
    if (Object.keys(input).length === 0) {
      setProblems([{ message: 'Nothing changed.' }]);
      return;
    }
    setBusy(true);
    setProblems([]);
    const r = await update({ id: k.id, input });
    setBusy(false);
    if (r.error) {
      setProblems(problemsOf(r.error).map((p) => refusalInWords(p, input.activationLimit)));
      // The devices as they are now: the refusal may come from one activated since.
      onRefused();
    } else onSaved('Saved.');
  }

  const used = k.activationsCount;
  return (
    <form onSubmit={submit} noValidate aria-label="Limit and expiry">
      <FormErrors problems={problems} shown={['activation_limit', 'expires_at']} />
      <fieldset disabled={busy || k.status === 'REVOKED'}>
        <legend className="sr-only">Limit and expiry</legend>
        <Field
          label="Devices allowed (optional)"
          short
          param="activation_limit"
          problems={problems}
          inputMode="numeric"
          maxLength={6}
          value={limit}
          onValue={setLimit}
          hint={
            used > 0
              ? `1 to 10,000, and at least the ${used} ${used === 1 ? 'device' : 'devices'} it is active on now (remove devices above to go lower). Empty: any number of devices.`
              : '1 to 10,000. Empty: any number of devices.'
          }
        />
        <Field
          label="Expires (UTC, optional)"
          short
          param="expires_at"
          problems={problems}
          type="datetime-local"
          value={expires}
          onValue={setExpires}
          hint="Empty: never. A time already past makes the key expired."
        />
        <button type="submit" disabled={busy}>Save changes</button>
      </fieldset>
    </form>
  );
}
