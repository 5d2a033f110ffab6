// An order: its facts, the listing and seller snapshots, deliverables;
// fulfill (deliverables and note), refund, redeliver.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { DiscountExistsQuery, FulfillOrder, OrderQuery, RedeliverOrder, RefundOrder } from '../ops';
import type { DeliverableInput } from '../gql/graphql';
import { problemsOf, type Problem } from '../problems';
import { Link } from '../router';
import { Badge, FormErrors, Loading, Notice, Page, TextArea, Time, formatMoney } from '../ui';
import { DeliverableAdder, formatBytes } from './Listing';
import { billingReasonOf, perInterval } from '../membership';
import { MembershipStatusBadge } from './Memberships';

// Snapshot members that are amounts in the smallest unit of the snapshot's currency.
const moneyKeys = new Set(['price', 'suggested_price', 'maximum_price']);

function Snapshot({ title, value }: { title: string; value: Record<string, unknown> }) {
  const entries = Object.entries(value);
  const currency = typeof value.currency === 'string' ? value.currency : null;
  const shown = (k: string, v: unknown) =>
    moneyKeys.has(k) && typeof v === 'number' && currency ? formatMoney(v, currency) : String(v);
  return (
    <section aria-label={title}>
      <h2>{title}</h2>
      {entries.length === 0 ? (
        <p className="muted">Empty.</p>
      ) : (
        <dl className="facts">
          {entries.map(([k, v]) => (
            <div key={k} className="fact">
              <dt>{k}</dt>
              <dd>{v === null || v === undefined ? '—' : typeof v === 'object' ? <code>{JSON.stringify(v)}</code> : shown(k, v)}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}

export function OrderScreen({ id }: { id: string }) {
  const [{ data, fetching, error }, refetch] = useQuery({ query: OrderQuery, variables: { id } });
  // The discount links to its page while it exists (orders keep theirs when it is deleted).
  const discountId = data?.order?.discount?.id ?? '';
  const [{ data: exists }] = useQuery({ query: DiscountExistsQuery, variables: { id: discountId }, pause: !discountId });
  const [, fulfill] = useMutation(FulfillOrder);
  const [, refund] = useMutation(RefundOrder);
  const [, redeliver] = useMutation(RedeliverOrder);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState('');
  const [items, setItems] = useState<(DeliverableInput & { name: string })[]>([]);
  const o = data?.order;

  if (!o && fetching) return <Page title="Order"><Loading /></Page>;
  if (!o) {
    return (
      <Page title="Order not found">
        <FormErrors problems={problemsOf(error)} />
        <p>No order of your account has the id {id}.</p>
      </Page>
    );
  }
  const order = o;

  async function run(fn: () => Promise<{ error?: Parameters<typeof problemsOf>[0] }>, done: string) {
    setBusy(true);
    setProblems([]);
    setNotice('');
    const r = await fn();
    setBusy(false);
    if (r.error) setProblems(problemsOf(r.error));
    else {
      setNotice(done);
      refetch({ requestPolicy: 'network-only' });
    }
  }

  function doFulfill(e: FormEvent) {
    e.preventDefault();
    run(
      () =>
        fulfill({
          id: order.id,
          input: {
            deliverables: items.length ? items.map(({ type, token, value }) => ({ type, token, value })) : null,
            note: note.trim() || null,
          },
        }),
      'Fulfilled: the buyer was sent the content.',
    );
  }

  const awaiting = order.readiness.next === 'FULFILL_ORDER';
  const refundable = order.status === 'PAID' || order.status === 'FULFILLED';

  return (
    <Page title={`Order ${order.id}`} actions={<Badge value={order.status} />}>
      {notice && <Notice>{notice}</Notice>}
      <FormErrors problems={problems} shown={['note', ...items.map((_, i) => `deliverables[${i}].value`)]} />
      <section aria-labelledby="summary">
        <h2 id="summary">Summary</h2>
        <dl className="facts">
          <dt>Listing</dt>
          <dd>
            <Link to={`/listings/${order.listingId}`}>{String(order.listingSnapshot.title ?? order.listingSlug)}</Link>
          </dd>
          <dt>Buyer</dt>
          <dd>{order.buyerEmail}</dd>
          {order.billingReason && (
            <>
              <dt>Billing</dt>
              <dd data-testid="order-billing-reason">{billingReasonOf(order.billingReason, order.amount)}</dd>
            </>
          )}
          {order.membershipId && (
            <>
              <dt>Membership</dt>
              <dd data-testid="order-membership">
                <Link to={`/memberships/${order.membershipId}`}>
                  {order.membership ? perInterval(order.membership.amount, order.membership.currency, order.membership.interval) : order.membershipId}
                </Link>
                {order.membership && <> <MembershipStatusBadge status={order.membership.status} /></>}
              </dd>
            </>
          )}
          {order.discount ? (
            <>
              <dt>Subtotal</dt>
              <dd>{formatMoney(order.subtotal, order.currency)}</dd>
              <dt>Discount</dt>
              <dd data-testid="order-discount">
                {exists?.node ? (
                  <Link to={`/discounts/${order.discount.id}`}><code>{order.discount.code}</code></Link>
                ) : (
                  <>
                    <code>{order.discount.code}</code>
                    {exists && <span className="muted"> (a deleted discount)</span>}
                  </>
                )}{' '}
                −{formatMoney(order.discount.amount, order.currency)}
              </dd>
              <dt>Amount</dt>
              <dd className="strong">{formatMoney(order.amount, order.currency)}</dd>
            </>
          ) : (
            <>
              <dt>Amount</dt>
              <dd>{formatMoney(order.amount, order.currency)}</dd>
            </>
          )}
          <dt>Platform fee</dt>
          <dd>{formatMoney(order.platformFee, order.currency)}</dd>
          <dt>Net</dt>
          <dd>{formatMoney(order.netAmount, order.currency)}</dd>
          <dt>Payment</dt>
          <dd>
            <Badge value={order.paymentStatus} /> {order.paymentIntentId ?? ''}
          </dd>
          <dt>Content</dt>
          <dd>{order.contentType.toLowerCase()}</dd>
          {order.refundAmount != null && (
            <>
              <dt>Refunded</dt>
              <dd>{formatMoney(order.refundAmount, order.currency)}</dd>
            </>
          )}
          {order.disputeStatus && (
            <>
              <dt>Dispute</dt>
              <dd><Badge value={order.disputeStatus} /></dd>
            </>
          )}
          <dt>Created</dt>
          <dd><Time value={order.createdAt} /></dd>
          <dt>Paid</dt>
          <dd><Time value={order.paidAt} /></dd>
          <dt>Fulfilled</dt>
          <dd><Time value={order.fulfilledAt} /></dd>
          {order.refundedAt && (
            <>
              <dt>Refund confirmed</dt>
              <dd><Time value={order.refundedAt} /></dd>
            </>
          )}
          {order.customerId && (
            <>
              <dt>Customer</dt>
              <dd><Link to={`/customers/${order.customerId}`}>{order.customerId}</Link></dd>
            </>
          )}
        </dl>
        <div className="row">
          {refundable && (
            <button
              type="button"
              className="danger"
              disabled={busy}
              onClick={() => window.confirm(`Refund ${formatMoney(order.amount, order.currency)} to ${order.buyerEmail}?`) && run(() => refund({ id: order.id }), 'Refund requested: the order turns refunded when the processor confirms.')}
            >
              Refund
            </button>
          )}
          <button type="button" className="secondary" disabled={busy} onClick={() => run(() => redeliver({ id: order.id }), 'The order’s events were queued again to your webhooks.')}>
            Redeliver webhooks
          </button>
        </div>
      </section>
      {awaiting && (
        <section aria-labelledby="fulfill">
          <h2 id="fulfill">Fulfill</h2>
          <form onSubmit={doFulfill} noValidate>
            {order.contentType === 'GENERATED' && (
              <>
                <p className="muted">Add the content you made for this buyer (1 to 3 deliverables).</p>
                <ul className="items">
                  {items.map((d, i) => (
                    <li key={i}>
                      <span><Badge value={d.type} /> {d.name}</span>
                      <button type="button" className="secondary" onClick={() => setItems(items.filter((_, j) => j !== i))}>Remove</button>
                    </li>
                  ))}
                </ul>
                {items.length < 3 && <DeliverableAdder problems={problems} index={items.length} onAdd={(d) => setItems([...items, d])} />}
              </>
            )}
            <TextArea label="Note for the buyer" param="note" problems={problems} maxLength={1000} value={note} onValue={setNote} rows={3} />
            <button type="submit" disabled={busy || (order.contentType === 'GENERATED' && items.length === 0)}>Fulfill order</button>
          </form>
        </section>
      )}
      <section aria-labelledby="delivered">
        <h2 id="delivered">Deliverables</h2>
        {order.deliverables.length === 0 && order.billingReason === 'MEMBERSHIP_CYCLE' ? (
          <p className="muted">A renewal: the buyer keeps the access of the membership’s first order, so nothing new is sent.</p>
        ) : order.deliverables.length === 0 ? (
          <p className="muted">None delivered.</p>
        ) : (
          <ul className="items">
            {order.deliverables.map((d) => (
              <li key={d.id}>
                <span><Badge value={d.type} /> {d.file ? `${d.file.name} (${formatBytes(d.file.size)})` : d.value}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      {Object.keys(order.checkoutData).length > 0 && <Snapshot title="Checkout answers" value={order.checkoutData} />}
      <Snapshot title="Listing when bought" value={order.listingSnapshot} />
      <Snapshot title="Seller when bought" value={order.sellerSnapshot} />
    </Page>
  );
}
