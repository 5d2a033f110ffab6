import { useQuery } from 'urql';
import { HomeQuery } from '../ops';
import { ActionList } from '../actions';
import { problemsOf } from '../problems';
import { Link, useLocation } from '../router';
import { Badge, Empty, FormErrors, Loading, Notice, Page, Time, formatMoney } from '../ui';

export function Home() {
  const [{ data, fetching, error }, refetch] = useQuery({ query: HomeQuery });
  const v = data?.viewer;
  const again = () => refetch({ requestPolicy: 'network-only' });
  const { query } = useLocation();
  const sellsMemberships = !!v && (v.membershipStats.activeMemberships > 0 || (v.anyMembership?.edges.length ?? 0) > 0);
  return (
    <Page title="Home">
      {query.get('processor') === 'connected' && <Notice>Processor connected: onboarding is complete.</Notice>}
      <FormErrors problems={problemsOf(error)} />
      {!v && fetching && <Loading />}
      {v && (
        <>
          <section aria-labelledby="readiness">
            <h2 id="readiness">
              {v.readiness.operational ? 'Your store can sell' : 'Before you can sell'}
            </h2>
            {v.readiness.actions.length === 0 ? (
              <Empty>Everything is set up: nothing to do.</Empty>
            ) : (
              <ActionList actions={v.readiness.actions} onDone={again} />
            )}
          </section>
          <section aria-labelledby="stats">
            <h2 id="stats">Stats</h2>
            <dl className="stats">
              <div>
                <dt>Revenue</dt>
                <dd>{formatMoney(v.stats.totalRevenue, v.currency)}</dd>
              </div>
              <div>
                <dt>Orders this month</dt>
                <dd>{v.stats.totalOrders}</dd>
              </div>
              <div>
                <dt>Listings</dt>
                <dd>{v.stats.totalListings}</dd>
              </div>
              {/* Recurring revenue once the account has had a membership: before, the tiles would only say 0 about nothing. */}
              {sellsMemberships && (
                <>
                  <div>
                    <dt>Monthly recurring revenue</dt>
                    <dd data-testid="mrr">{formatMoney(v.membershipStats.mrr, v.membershipStats.currency ?? v.currency)}</dd>
                    <dd className="stat-note">Yearly ones count a twelfth; trials once they pay.</dd>
                  </div>
                  <div>
                    <dt>Active memberships</dt>
                    <dd data-testid="active-memberships">{new Intl.NumberFormat().format(v.membershipStats.activeMemberships)}</dd>
                    <dd className="stat-note"><Link to="/memberships">All memberships</Link></dd>
                  </div>
                </>
              )}
            </dl>
          </section>
          <section aria-labelledby="recent">
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
                        <td>{formatMoney(o.amount, o.currency)}</td>
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
        </>
      )}
    </Page>
  );
}
