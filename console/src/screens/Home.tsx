import { useQuery } from 'urql';
import { DashboardQuery, HomeQuery } from '../ops';
import { ActionList } from '../actions';
import { changeText, rangeKey, rangeOf, rateChangeText, rateText, type Range } from '../dashboard';
import { ChartFigure, RangeControl, Stat } from '../sales';
import { problemsOf } from '../problems';
import { Link, useLocation } from '../router';
import { Badge, Empty, FormErrors, Loading, Money, Notice, Page, Time, formatCount } from '../ui';

export function Home() {
  const [{ data, fetching, error }, refetch] = useQuery({ query: HomeQuery });
  const v = data?.viewer;
  const again = () => refetch({ requestPolicy: 'network-only' });
  const { query } = useLocation();
  const sellsMemberships = !!v && (v.membershipStats.activeMemberships > 0 || (v.anyMembership?.edges.length ?? 0) > 0);
  // Sales: revenue kept, or a recent order that was paid (refunded since or not).
  const hasSales = !!v && (v.stats.totalRevenue !== 0 || v.orders?.edges.some((e) => e.node.paidAt) === true);

  const checklist = v && (
    <section aria-labelledby="readiness" key="readiness">
      <h2 id="readiness">{v.readiness.operational ? 'Your store can sell' : 'Before you can sell'}</h2>
      {v.readiness.actions.length === 0 ? (
        <Empty>Everything is set up: nothing to do.</Empty>
      ) : (
        <ActionList actions={v.readiness.actions} onDone={again} />
      )}
    </section>
  );

  const recent = v && (
    <section aria-labelledby="recent" key="recent">
      <h2 id="recent">Recent orders</h2>
      {v.orders && v.orders.edges.length > 0 ? (
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
              {v.orders.edges.map(({ node: o }) => (
                <tr key={o.id}>
                  <td>
                    <Link to={`/orders/${o.id}`}>{String(o.listingSnapshot.title ?? o.id)}</Link>
                  </td>
                  <td>{o.buyerEmail}</td>
                  <td className="num"><Money amount={o.amount} currency={o.currency} /></td>
                  <td><Badge value={o.status} /></td>
                  <td><Time value={o.createdAt} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <Empty>No orders yet. They appear here once buyers check out.</Empty>
      )}
      <p><Link to="/orders">All orders</Link></p>
    </section>
  );

  return (
    <Page title="Home">
      {query.get('processor') === 'connected' && <Notice>Processor connected: onboarding is complete.</Notice>}
      <FormErrors problems={problemsOf(error)} />
      {!v && fetching && <Loading />}
      {v && hasSales && (
        <>
          <Dashboard range={rangeOf(rangeKey(query.get('range')))} memberships={sellsMemberships} />
          {checklist}
          {recent}
        </>
      )}
      {v && !hasSales && (
        <>
          {checklist}
          <section aria-labelledby="stats">
            <h2 id="stats">Stats</h2>
            <dl className="stats">
              <div>
                <dt>Revenue</dt>
                <dd><Money amount={v.stats.totalRevenue} currency={v.currency} /></dd>
                {!v.currency && <dd className="stat-note">Connect the payment processor to set your currency.</dd>}
              </div>
              <div>
                <dt>Orders this month</dt>
                <dd>{formatCount(v.stats.totalOrders)}</dd>
              </div>
              <div>
                <dt>Listings</dt>
                <dd>{formatCount(v.stats.totalListings)}</dd>
              </div>
            </dl>
          </section>
          {recent}
        </>
      )}
    </Page>
  );
}

/** The seller's numbers over a range (CONTRACT §15): totals with changes, the chart, top listings. */
function Dashboard({ range, memberships }: { range: Range; memberships: boolean }) {
  const [{ data, fetching, error }] = useQuery({
    query: DashboardQuery,
    variables: { from: range.from, to: range.to, prevFrom: range.prevFrom, prevTo: range.prevTo, interval: range.interval },
  });
  const cur = data?.viewer?.current;
  const prev = data?.viewer?.previous;
  const stale = !!cur && (cur.from !== range.from || cur.to !== range.to);
  const t = cur?.totals;
  const p = prev?.totals;
  return (
    <section aria-labelledby="numbers" className="dashboard" aria-busy={fetching || stale}>
      <div className="section-head">
        <h2 id="numbers">Your numbers</h2>
        <RangeControl current={range.key} />
      </div>
      <FormErrors problems={problemsOf(error)} />
      {!cur && fetching && <Loading what="Loading your numbers" />}
      {cur && t && p && (
        <>
          <dl className="stats">
            <Stat label="Revenue" testid="total-revenue" value={<Money amount={t.revenue} currency={cur.currency} />} change={changeText(t.revenue, p.revenue)} previous={range.previous} />
            <Stat label="Orders" testid="total-orders" value={formatCount(t.orders)} change={changeText(t.orders, p.orders)} previous={range.previous} />
            <Stat label="Views" testid="total-views" value={formatCount(t.views)} change={changeText(t.views, p.views)} previous={range.previous} />
            <Stat label="Conversion" testid="total-conversion" value={rateText(t.conversionRate)} change={rateChangeText(t.conversionRate, p.conversionRate)} previous={range.previous} />
            {memberships && (
              <>
                <Stat label="Monthly recurring revenue" testid="mrr" value={<Money amount={t.mrr} currency={cur.currency} />} note="Now. Yearly ones count a twelfth; trials once they pay." />
                <Stat label="Active memberships" testid="active-memberships" value={formatCount(t.activeMemberships)} note="Now." />
              </>
            )}
          </dl>
          <p className="muted small">
            Changes compare with {range.previous}. Conversion is paid orders per product-page view.
            {memberships && <> <Link to="/memberships">All memberships</Link>.</>}
          </p>
          <ChartFigure name={range.chartName} buckets={cur.series} currency={cur.currency} monthly={range.interval === 'MONTH'} />
          <h3 id="top-listings">Top listings by revenue</h3>
          {cur.topListings.length === 0 ? (
            <Empty>No listing sold in this range.</Empty>
          ) : (
            <div className="table-wrap">
              <table aria-labelledby="top-listings">
                <thead>
                  <tr>
                    <th scope="col">Listing</th>
                    <th scope="col" className="num">Revenue</th>
                    <th scope="col" className="num">Orders</th>
                    <th scope="col" className="num">Views</th>
                    <th scope="col" className="num">Conversion</th>
                  </tr>
                </thead>
                <tbody>
                  {cur.topListings.map((l) => (
                    <tr key={l.listingId}>
                      <td>
                        {l.listing ? <Link to={`/listings/${l.listingId}`}>{l.title}</Link> : <>{l.title} <small className="muted">(deleted)</small></>}
                      </td>
                      <td className="num"><Money amount={l.revenue} currency={cur.currency} /></td>
                      <td className="num">{formatCount(l.orders)}</td>
                      <td className="num">{formatCount(l.views)}</td>
                      <td className="num">{rateText(l.conversionRate)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}
