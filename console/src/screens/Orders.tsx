import { useState, type FormEvent } from 'react';
import { useQuery } from 'urql';
import { OrdersQuery } from '../ops';
import type { OrderStatus } from '../gql/graphql';
import { problemsOf } from '../problems';
import { Link, navigate, useLocation } from '../router';
import { billingReasonOf } from '../membership';
import { Badge, Empty, Field, FormErrors, Loading, Money, Page, Pager, SearchField, Select, Time, exportURL, useCursor, withQuery } from '../ui';

const statuses: { value: '' | OrderStatus; label: string }[] = [
  { value: '', label: 'All' },
  ...(['PENDING', 'PAID', 'FULFILLED', 'REFUNDED', 'CANCELED', 'FAILED'] as OrderStatus[]).map((s) => ({
    value: s,
    label: s.charAt(0) + s.slice(1).toLowerCase(),
  })),
];

/** A date input's day → the RFC 3339 start of that UTC day (or of the next one). */
function dayToTime(day: string, next = false): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const d = new Date(`${day}T00:00:00Z`);
  if (next) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().replace('.000Z', 'Z');
}

/** The filters of GET /v1/orders (and its export) as the REST API names them. */
function exportParams(f: { status: string; listing: string; buyer: string; from: string; to: string; q: string }): Record<string, string> {
  return {
    status: f.status.toLowerCase(),
    listing: f.listing,
    buyer_email: f.buyer,
    created_after: dayToTime(f.from) ?? '',
    created_before: dayToTime(f.to, true) ?? '',
    query: f.q,
  };
}

export function Orders() {
  const { query } = useLocation();
  const filters = {
    status: (query.get('status') ?? '') as '' | OrderStatus,
    listing: query.get('listing') ?? '',
    buyer: query.get('buyer') ?? '',
    from: query.get('from') ?? '',
    to: query.get('to') ?? '',
    q: query.get('q') ?? '',
  };
  const [form, setForm] = useState(filters);
  const cursor = useCursor(query.toString());
  const [{ data, fetching, error }] = useQuery({
    query: OrdersQuery,
    variables: {
      first: 20,
      after: cursor.after,
      status: filters.status || null,
      listing: filters.listing || null,
      buyerEmail: filters.buyer || null,
      createdAfter: dayToTime(filters.from),
      createdBefore: dayToTime(filters.to, true),
      query: filters.q || null,
    },
  });
  const problems = problemsOf(error);
  const conn = data?.viewer?.orders;

  function apply(e: FormEvent) {
    e.preventDefault();
    const q = new URLSearchParams();
    if (filters.q) q.set('q', filters.q);
    if (form.status) q.set('status', form.status);
    if (form.listing.trim()) q.set('listing', form.listing.trim());
    if (form.buyer.trim()) q.set('buyer', form.buyer.trim());
    if (form.from) q.set('from', form.from);
    if (form.to) q.set('to', form.to);
    const s = q.toString();
    navigate(s ? `/orders?${s}` : '/orders', true);
  }

  return (
    <Page title="Orders">
      <SearchField
        label="Search orders"
        hint="A buyer's email, or part of it, or an order id (ord_…)."
        value={filters.q}
        problems={problems}
        onSearch={(q) => navigate(withQuery('/orders', query, { q }), true)}
      />
      <form className="filters" onSubmit={apply} aria-label="Filter orders">
        <Select label="Status" param="status" problems={problems} value={form.status} onValue={(status) => setForm({ ...form, status })} options={statuses} />
        <Field label="Listing id" param="listing" problems={problems} maxLength={64} placeholder="lst_…" value={form.listing} onValue={(listing) => setForm({ ...form, listing })} />
        <Field label="Buyer email" param="buyer_email" problems={problems} type="email" maxLength={254} value={form.buyer} onValue={(buyer) => setForm({ ...form, buyer })} />
        <Field label="From" param="created_after" problems={problems} type="date" value={form.from} onValue={(from) => setForm({ ...form, from })} />
        <Field label="To" param="created_before" problems={problems} type="date" value={form.to} onValue={(to) => setForm({ ...form, to })} />
        <div className="field">
          <span aria-hidden="true">&nbsp;</span>
          <button type="submit">Filter</button>
        </div>
      </form>
      <FormErrors problems={problems} shown={['status', 'listing', 'buyer_email', 'created_after', 'created_before', 'query']} />
      <div className="row">
        <a className="button secondary" href={exportURL('/v1/orders/export', exportParams(filters))} download>
          Export CSV
        </a>
        <small className="muted">Every order these filters match, oldest first, for a spreadsheet.</small>
      </div>
      {!conn && fetching && <Loading what="Loading the orders" />}
      {conn && conn.edges.length === 0 && (
        <Empty>
          {filters.q ? `No orders match “${filters.q}”.` : query.toString() ? 'No orders match these filters.' : 'No orders yet: they appear here once buyers check out.'}
          {query.toString() && <> <Link to="/orders">Show all orders</Link>.</>}
        </Empty>
      )}
      {conn && conn.edges.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Buyer</th>
                <th scope="col">Amount</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {conn.edges.map(({ node: o }) => (
                <tr key={o.id}>
                  <td><Link to={`/orders/${o.id}`}>{String(o.listingSnapshot.title ?? o.id)}</Link></td>
                  <td>{o.buyerEmail}</td>
                  <td>
                    <Money amount={o.amount} currency={o.currency} />
                    {o.billingReason && <small className="muted block">{billingReasonOf(o.billingReason, o.amount)}</small>}
                    {o.discount && (
                      <small className="muted block">
                        with <code>{o.discount.code}</code>
                      </small>
                    )}
                  </td>
                  <td><Badge value={o.status} /></td>
                  <td><Time value={o.createdAt} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {conn && <Pager page={cursor.page} hasNext={conn.pageInfo.hasNextPage} onNext={() => cursor.next(conn.pageInfo.endCursor)} onPrev={cursor.prev} />}
    </Page>
  );
}
