// Memberships (CONTRACT §26): the account's memberships filtered by status
// and found by buyer email; one membership in words with its orders, and
// cancel (at the period's end or now) and resume.
import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { CancelMembership, MembershipQuery, MembershipsQuery, ResumeMembership } from '../ops';
import type { MembershipFieldsFragment, MembershipRowFieldsFragment, MembershipStatus } from '../gql/graphql';
import {
  billingReasonOf,
  endedReasonText,
  intervalWord,
  membershipStatusText,
  membershipStatuses,
  perInterval,
} from '../membership';
import { problemsOf, type Problem } from '../problems';
import { Link, navigate, useLocation } from '../router';
import { Badge, Choice, Empty, Field, FormErrors, Loading, Notice, Page, Pager, Select, Time, formatDate, formatMoney, formatTime, useCursor } from '../ui';

type Row = MembershipRowFieldsFragment;

const statusFilter: { value: '' | MembershipStatus; label: string }[] = [
  { value: '', label: 'All' },
  ...membershipStatuses.map((s) => ({ value: s, label: membershipStatusText[s] })),
];

/** A membership's status as a word (its colour only repeats it). */
export function MembershipStatusBadge({ status }: { status: MembershipStatus }) {
  return <span className={`badge badge-membership-${status.toLowerCase()}`}>{membershipStatusText[status]}</span>;
}

/** What comes next for a membership: its renewal, the first charge of a trial, its end. */
export function NextStep({ m }: { m: Pick<Row, 'status' | 'currentPeriodEnd' | 'endedAt'> }) {
  switch (m.status) {
    case 'TRIALING':
      return <>First charge <Time value={m.currentPeriodEnd} /></>;
    case 'ACTIVE':
      return <>Renews <Time value={m.currentPeriodEnd} /></>;
    case 'PAST_DUE':
      return <>Renewal due <Time value={m.currentPeriodEnd} /> failed; retrying</>;
    case 'CANCELED':
      return <>Ends <Time value={m.currentPeriodEnd} /></>;
    case 'ENDED':
      return <>Ended <Time value={m.endedAt} /></>;
  }
}

function ListingTitle({ m }: { m: Pick<Row, 'listing' | 'listingId'> }) {
  return m.listing ? <Link to={`/listings/${m.listingId}`}>{m.listing.title}</Link> : <span className="muted">A deleted listing</span>;
}

/** Memberships as a table (one card a membership on a phone); the buyer column is left out on a customer's screen. */
export function MembershipTable({ rows, buyer = true, label }: { rows: Row[]; buyer?: boolean; label: string }) {
  return (
    <table className="stack memberships" role="table" aria-label={label}>
      <thead role="rowgroup">
        <tr role="row">
          {buyer && <th scope="col" role="columnheader">Buyer</th>}
          <th scope="col" role="columnheader">Listing</th>
          <th scope="col" role="columnheader">Status</th>
          <th scope="col" role="columnheader">Amount</th>
          <th scope="col" role="columnheader">Next renewal or end</th>
          <th scope="col" role="columnheader">Created</th>
        </tr>
      </thead>
      <tbody role="rowgroup">
        {rows.map((m) => (
          <tr key={m.id} role="row">
            {buyer && (
              <td role="cell" data-label="Buyer" className="lead break">
                <Link to={`/memberships/${m.id}`}>{m.buyerEmail}</Link>
              </td>
            )}
            <td role="cell" data-label="Listing" className={buyer ? undefined : 'lead'}>
              {buyer ? (
                <ListingTitle m={m} />
              ) : (
                <Link to={`/memberships/${m.id}`}>{m.listing?.title ?? 'A deleted listing'}</Link>
              )}
            </td>
            <td role="cell" data-label="Status"><span><MembershipStatusBadge status={m.status} /></span></td>
            <td role="cell" data-label="Amount" className="nowrap">{perInterval(m.amount, m.currency, m.interval)}</td>
            <td role="cell" data-label="Next"><span><NextStep m={m} /></span></td>
            <td role="cell" data-label="Created"><Time value={m.createdAt} /></td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The search box's email, or the problem to show at it. */
function emailOf(q: string): { email?: string; problem?: Problem } {
  const t = q.trim();
  if (!t) return {};
  if (!/^[^\s@]+@[^\s@]+$/.test(t)) {
    return { problem: { param: 'q', message: 'Type the buyer’s whole email address, such as ada@example.com.' } };
  }
  return { email: t };
}

/** The list: /memberships (?q= a buyer email, ?status=). */
export function Memberships() {
  const { query } = useLocation();
  const q = query.get('q') ?? '';
  const status = (query.get('status') ?? '') as '' | MembershipStatus;
  const [typed, setTyped] = useState(q);
  useEffect(() => setTyped(q), [q]);
  const search = emailOf(q);
  const cursor = useCursor(query.toString());
  const [{ data, fetching, error }] = useQuery({
    query: MembershipsQuery,
    variables: { first: 20, after: cursor.after, status: status || null, buyerEmail: search.email ?? null },
    pause: !!search.problem,
  });
  const problems = [
    ...(search.problem ? [search.problem] : []),
    ...problemsOf(error).map((p) => (p.param === 'buyer_email' ? { ...p, param: 'q' } : p)),
  ];
  const conn = search.problem ? undefined : data?.viewer?.memberships;
  const list = conn?.edges.map((e) => e.node) ?? [];
  const filtered = !!q || !!status || cursor.page > 1;
  const none = !!conn && list.length === 0 && !filtered;

  function go(nextQ: string, nextStatus: string) {
    const p = new URLSearchParams();
    if (nextQ.trim()) p.set('q', nextQ.trim());
    if (nextStatus) p.set('status', nextStatus);
    const s = p.toString();
    navigate(s ? `/memberships?${s}` : '/memberships', true);
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    go(typed, status);
  }

  const statusWords = status ? ` with the status ${membershipStatusText[status].toLowerCase()}` : '';
  return (
    <Page title="Memberships">
      {!none && (
        <form className="filters membership-filters" onSubmit={submit} role="search" aria-label="Find memberships">
          <Field
            label="Buyer email"
            param="q"
            problems={problems}
            type="search"
            autoComplete="off"
            spellCheck={false}
            maxLength={254}
            placeholder="ada@example.com"
            value={typed}
            onValue={setTyped}
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
          <p className="empty-title">No memberships yet.</p>
          <p>
            A listing sold as a membership charges its buyers every month or every year, with a free trial if you like: choose Membership
            under Billing in a draft listing. Each buyer’s membership shows here, with its renewals, until it ends.
          </p>
          <p>
            <Link className="button" to="/listings">Go to the listings</Link>
          </p>
        </Empty>
      )}
      {conn && list.length === 0 && filtered && (
        <Empty>
          {search.email
            ? `${search.email} has no membership${statusWords}.`
            : status
              ? `No membership is ${membershipStatusText[status].toLowerCase()}.`
              : 'No more memberships.'}
        </Empty>
      )}
      {list.length > 0 && <MembershipTable rows={list} label="Memberships" />}
      {conn && (
        <Pager page={cursor.page} hasNext={conn.pageInfo.hasNextPage} onNext={() => cursor.next(conn.pageInfo.endCursor)} onPrev={cursor.prev} />
      )}
    </Page>
  );
}

/** /memberships/{id}. */
export function MembershipScreen({ id }: { id: string }) {
  const cursor = useCursor(id);
  const [{ data, fetching, error }, refetch] = useQuery({ query: MembershipQuery, variables: { id, after: cursor.after } });
  if (!data && fetching) return <Page title="Membership"><Loading /></Page>;
  const problems = problemsOf(error);
  const m = data?.membership;
  if (!m) {
    const missing = problems.length === 0 || problems.some((p) => p.code === 'not_found');
    return (
      <Page title={missing ? 'Membership not found' : 'Membership'}>
        {!missing && <FormErrors problems={problems} />}
        {missing && (
          <p>
            No membership of your account has the id {id}. <Link to="/memberships">Back to the memberships</Link>.
          </p>
        )}
      </Page>
    );
  }
  const orders = m.orders;
  return (
    <Page title={`Membership of ${m.buyerEmail}`} actions={<MembershipStatusBadge status={m.status} />}>
      <MembershipFacts m={m} onChanged={() => refetch({ requestPolicy: 'network-only' })} />
      <section aria-labelledby="membership-orders">
        <h2 id="membership-orders">Orders</h2>
        {orders.edges.length === 0 ? (
          <p className="muted">No orders.</p>
        ) : (
          <table className="stack membership-orders" role="table" aria-labelledby="membership-orders">
            <thead role="rowgroup">
              <tr role="row">
                <th scope="col" role="columnheader">Order</th>
                <th scope="col" role="columnheader">Billing</th>
                <th scope="col" role="columnheader">Amount</th>
                <th scope="col" role="columnheader">Status</th>
                <th scope="col" role="columnheader">Paid</th>
              </tr>
            </thead>
            <tbody role="rowgroup">
              {orders.edges.map(({ node: o }) => (
                <tr key={o.id} role="row">
                  <td role="cell" data-label="Order" className="lead">
                    <Link to={`/orders/${o.id}`}><Time value={o.createdAt} /></Link>
                  </td>
                  <td role="cell" data-label="Billing">{o.billingReason ? billingReasonOf(o.billingReason, o.amount) : '—'}</td>
                  <td role="cell" data-label="Amount">
                    <span>
                      {formatMoney(o.amount, o.currency)}
                      {o.discount && <small className="muted block">with <code>{o.discount.code}</code></small>}
                    </span>
                  </td>
                  <td role="cell" data-label="Status"><span><Badge value={o.status} /></span></td>
                  <td role="cell" data-label="Paid">{o.paidAt ? <Time value={o.paidAt} /> : <span className="muted">Not paid</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pager page={cursor.page} hasNext={orders.pageInfo.hasNextPage} onNext={() => cursor.next(orders.pageInfo.endCursor)} onPrev={cursor.prev} />
      </section>
    </Page>
  );
}

/** Where the membership stands, as a sentence. */
function statusSentence(m: MembershipFieldsFragment): string {
  const amount = formatMoney(m.amount, m.currency);
  const at = (iso: string | null | undefined) =>
    iso ? formatDate(iso, { long: true }) : '';
  switch (m.status) {
    case 'TRIALING':
      return `In its free trial until ${at(m.trialEnd ?? m.currentPeriodEnd)}: the first charge of ${amount} is then, and every ${intervalWord[m.interval]} after.`;
    case 'ACTIVE':
      return `Paid up: it renews on ${at(m.currentPeriodEnd)} for ${amount}.`;
    case 'PAST_DUE':
      return `The renewal due on ${at(m.currentPeriodEnd)} could not be charged: it is being retried, and the buyer, emailed a link to update their payment method, keeps access meanwhile.`;
    case 'CANCELED':
      return `Canceled: it ends on ${at(m.currentPeriodEnd)} and the buyer keeps access until then. Resume it to keep it renewing.`;
    case 'ENDED':
      return `Ended on ${at(m.endedAt)} because ${m.endedReason ? endedReasonText[m.endedReason] : 'it was canceled'}: the buyer’s access is closed.`;
  }
}

/**
 * A refusal of cancel or resume, said for the seller: the service's
 * invalid_transition means the membership moved on (ended, or its period
 * is over); anything else is shown as the service says it.
 */
function refusalInWords(p: Problem, what: 'cancel' | 'resume', title: string): Problem {
  if (p.code !== 'invalid_transition') return p;
  return {
    ...p,
    message:
      what === 'resume'
        ? `This membership can no longer be resumed: its paid period is over. The buyer can buy ${title} again from its product page.`
        : `This membership has ended already, so there is nothing to cancel. The buyer can buy ${title} again from its product page.`,
  };
}

function MembershipFacts({ m, onChanged }: { m: MembershipFieldsFragment; onChanged: () => void }) {
  const [, cancel] = useMutation(CancelMembership);
  const [, resume] = useMutation(ResumeMembership);
  const [when, setWhen] = useState<'end' | 'now'>('end');
  const [problems, setProblems] = useState<Problem[]>([]);
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  const title = m.listing?.title ?? 'the listing';
  const ends = <Time value={m.currentPeriodEnd} />;
  const endsText = formatTime(m.currentPeriodEnd);

  async function run(what: 'cancel' | 'resume', fn: () => Promise<{ error?: Parameters<typeof problemsOf>[0]; data?: unknown }>, done: (after: MembershipFieldsFragment | null) => string) {
    setBusy(true);
    setProblems([]);
    setNotice('');
    const r = await fn();
    setBusy(false);
    if (r.error) {
      setProblems(problemsOf(r.error).map((p) => refusalInWords(p, what, title)));
    } else {
      const d = r.data as { cancelMembership?: MembershipFieldsFragment | null; resumeMembership?: MembershipFieldsFragment | null } | undefined;
      setNotice(done(d?.cancelMembership ?? d?.resumeMembership ?? null));
    }
    // The membership as it is now, refused or not (it may have moved on).
    onChanged();
  }

  function doCancel(now: boolean) {
    const question = now
      ? `End ${m.buyerEmail}’s membership of ${title} now? Their access closes at once, nothing more is charged, and it cannot be resumed.`
      : `Cancel ${m.buyerEmail}’s membership of ${title}? It is not renewed: it ends on ${endsText}, and they keep access until then. You or they can resume it before.`;
    if (!window.confirm(question)) return;
    run(
      'cancel',
      () => cancel({ id: m.id, atPeriodEnd: !now }),
      (after) =>
        after?.status === 'ENDED' ? 'Membership ended: nothing more is charged.' : 'Membership canceled: it will not renew.',
    );
  }

  function doResume() {
    run(
      'resume',
      () => resume({ id: m.id }),
      (after) => (after?.status === 'TRIALING' ? 'Membership resumed: the trial goes on.' : 'Membership resumed: it renews as before.'),
    );
  }

  return (
    <>
      {notice && <Notice>{notice}</Notice>}
      <FormErrors problems={problems} />
      <section aria-labelledby="membership-summary">
        <h2 id="membership-summary" className="sr-only">Summary</h2>
        <p data-testid="membership-status">{statusSentence(m)}</p>
        <dl className="facts">
          <dt>Listing</dt>
          <dd><ListingTitle m={m} /></dd>
          <dt>Buyer</dt>
          <dd><Link to={`/customers/${m.customerId}`}>{m.buyerEmail}</Link></dd>
          <dt>Amount</dt>
          <dd data-testid="membership-amount">{perInterval(m.amount, m.currency, m.interval)}</dd>
          <dt>{m.status === 'ENDED' ? 'Last period' : 'Current period'}</dt>
          <dd>
            <Time value={m.currentPeriodStart} /> to {ends}
          </dd>
          {m.trialEnd && (
            <>
              <dt>Free trial</dt>
              <dd>Until <Time value={m.trialEnd} /></dd>
            </>
          )}
          {m.status !== 'ENDED' && (
            <>
              <dt>{m.status === 'CANCELED' ? 'Ends' : m.status === 'TRIALING' ? 'First charge' : 'Next renewal'}</dt>
              <dd>{ends}</dd>
            </>
          )}
          {m.canceledAt && (
            <>
              <dt>Canceled</dt>
              <dd><Time value={m.canceledAt} /></dd>
            </>
          )}
          {m.endedAt && (
            <>
              <dt>Ended</dt>
              <dd>
                <Time value={m.endedAt} />
                {m.endedReason && <> · {endedReasonText[m.endedReason]}</>}
              </dd>
            </>
          )}
          <dt>Paid orders</dt>
          <dd>{new Intl.NumberFormat().format(m.ordersCount)}</dd>
          <dt>Latest order</dt>
          <dd><Link to={`/orders/${m.latestOrderId}`}>{m.latestOrderId}</Link></dd>
          <dt>Started</dt>
          <dd><Time value={m.createdAt} /></dd>
          <dt>Membership id</dt>
          <dd><code>{m.id}</code></dd>
        </dl>
      </section>
      <section aria-labelledby="membership-actions">
        <h2 id="membership-actions">{m.status === 'CANCELED' ? 'Resume or end' : m.status === 'ENDED' ? 'Ended' : 'Cancel'}</h2>
        {(m.status === 'ACTIVE' || m.status === 'TRIALING') && (
          <form
            aria-label="Cancel the membership"
            onSubmit={(e) => {
              e.preventDefault();
              doCancel(when === 'now');
            }}
          >
            <Choice
              legend="When should it end?"
              param="at_period_end"
              problems={problems}
              value={when}
              onValue={setWhen}
              disabled={busy}
              options={[
                { value: 'end', label: `At the end of the period, on ${endsText}`, hint: 'access until then; it can be resumed before' },
                { value: 'now', label: 'Now', hint: 'access closes at once; it cannot be undone' },
              ]}
            />
            <button type="submit" className="danger" disabled={busy}>Cancel membership</button>
          </form>
        )}
        {m.status === 'PAST_DUE' && (
          <>
            <p className="muted">Its paid period is over already, so canceling a past-due membership ends it now, with no further retries.</p>
            <button type="button" className="danger" disabled={busy} onClick={() => doCancel(true)}>End membership now</button>
          </>
        )}
        {m.status === 'CANCELED' && (
          <div className="row">
            <button type="button" disabled={busy} onClick={doResume}>Resume membership</button>
            <button type="button" className="danger" disabled={busy} onClick={() => doCancel(true)}>End it now</button>
          </div>
        )}
        {m.status === 'ENDED' && (
          <p className="muted">An ended membership cannot be resumed. The buyer can buy {title} again from its product page.</p>
        )}
      </section>
    </>
  );
}
