import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { CreateCustomerPortalLink, CustomerQuery, CustomersQuery, MembershipsQuery } from '../ops';
import { problemsOf, type Problem } from '../problems';
import { Link, navigate, useLocation } from '../router';
import { Empty, FormErrors, Loading, Money, Page, Pager, SearchField, Time, exportURL, useCursor, withQuery } from '../ui';
import { MembershipTable } from './Memberships';

export function Customers() {
  const { query } = useLocation();
  const q = query.get('q') ?? '';
  const cursor = useCursor(q);
  const [{ data, fetching, error }] = useQuery({
    query: CustomersQuery,
    variables: { first: 20, after: cursor.after, query: q || null },
  });
  const problems = problemsOf(error);
  const conn = data?.viewer?.customers;
  const [, createLink] = useMutation(CreateCustomerPortalLink);
  const [portal, setPortal] = useState<{ email: string; url: string; expiresAt: string; copied: boolean } | null>(null);
  const [linkProblems, setLinkProblems] = useState<Problem[]>([]);
  async function portalLink(id: string, customerEmail: string) {
    setLinkProblems([]);
    const r = await createLink({ customerId: id });
    const link = r.data?.createCustomerPortalLink;
    if (r.error || !link) {
      setPortal(null);
      setLinkProblems(problemsOf(r.error));
      return;
    }
    let copied = false;
    try {
      await navigator.clipboard.writeText(link.url);
      copied = true;
    } catch {
      copied = false;
    }
    setPortal({ email: customerEmail, url: link.url, expiresAt: link.expiresAt, copied });
  }
  return (
    <Page title="Customers">
      <div className="filters">
        <SearchField
          label="Search customers"
          hint="An email, or part of it."
          value={q}
          problems={problems}
          onSearch={(v) => navigate(withQuery('/customers', query, { q: v }), true)}
        />
      </div>
      <FormErrors problems={problems} shown={['query']} />
      <div className="row">
        <a className="button secondary" href={exportURL('/v1/customers/export', { query: q })} download>
          Export CSV
        </a>
        <small className="muted">Every customer this search matches, by first order, for a spreadsheet.</small>
      </div>
      {!conn && fetching && <Loading what="Loading the customers" />}
      {conn && conn.edges.length === 0 && (
        <Empty>
          {q ? <>No customers match “{q}”. <Link to="/customers">Show all customers</Link>.</> : 'No customers yet: buyers appear here once they pay.'}
        </Empty>
      )}
      {conn && conn.edges.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Orders</th>
                <th scope="col">Spent</th>
                <th scope="col">First order</th>
                <th scope="col">Last order</th>
                <th scope="col"><span className="sr-only">Portal link</span></th>
              </tr>
            </thead>
            <tbody>
              {conn.edges.map(({ node: c }) => (
                <tr key={c.id}>
                  <td><Link to={`/customers/${c.id}`}>{c.email}</Link></td>
                  <td>
                    <Link to={`/orders?buyer=${encodeURIComponent(c.email)}`}>
                      {c.ordersCount}
                      <span className="sr-only"> {c.ordersCount === 1 ? 'order' : 'orders'}</span>
                    </Link>
                  </td>
                  <td><Money amount={c.totalSpent} currency={c.currency} /></td>
                  <td><Time value={c.firstOrderAt} /></td>
                  <td><Time value={c.lastOrderAt} /></td>
                  <td>
                    <button type="button" className="secondary small nowrap" onClick={() => portalLink(c.id, c.email)} aria-label={`Copy portal link for ${c.email}`}>
                      Copy portal link
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <FormErrors problems={linkProblems} />
      {portal && (
        <section className="portal-link" aria-labelledby="portal-link">
          <h2 id="portal-link">Portal link for {portal.email}</h2>
          <p className="share-url">
            <code data-testid="portal-url">{portal.url}</code>
          </p>
          <p role="status" className={portal.copied ? 'copied' : undefined}>
            {portal.copied ? 'Link copied to the clipboard. ' : 'Select the link above and copy it. '}
            Send it to {portal.email}: it signs them in once to their purchases from your store, until <Time value={portal.expiresAt} />.
          </p>
        </section>
      )}
      {conn && <Pager page={cursor.page} hasNext={conn.pageInfo.hasNextPage} onNext={() => cursor.next(conn.pageInfo.endCursor)} onPrev={cursor.prev} />}
    </Page>
  );
}

/** /customers/{id}: one customer, their memberships, a link to their orders. */
export function CustomerScreen({ id }: { id: string }) {
  const [{ data, fetching, error }] = useQuery({ query: CustomerQuery, variables: { id } });
  const cursor = useCursor(id);
  const [{ data: mem, fetching: memFetching, error: memError }] = useQuery({
    query: MembershipsQuery,
    variables: { first: 20, after: cursor.after, customer: id },
    pause: !data?.customer,
  });
  const c = data?.customer;
  if (!c && fetching) return <Page title="Customer"><Loading /></Page>;
  const problems = problemsOf(error);
  if (!c) {
    const missing = problems.length === 0 || problems.some((p) => p.code === 'not_found');
    return (
      <Page title={missing ? 'Customer not found' : 'Customer'}>
        {!missing && <FormErrors problems={problems} />}
        {missing && (
          <p>
            No customer of your account has the id {id}. <Link to="/customers">Back to the customers</Link>.
          </p>
        )}
      </Page>
    );
  }
  const conn = mem?.viewer?.memberships;
  const rows = conn?.edges.map((e) => e.node) ?? [];
  return (
    <Page title={c.email}>
      <section aria-labelledby="customer-summary">
        <h2 id="customer-summary" className="sr-only">Summary</h2>
        <dl className="facts">
          <dt>Paid orders</dt>
          <dd><Link to={`/orders?buyer=${encodeURIComponent(c.email)}`}>{new Intl.NumberFormat().format(c.ordersCount)} {c.ordersCount === 1 ? 'order' : 'orders'}</Link></dd>
          <dt>Spent</dt>
          <dd><Money amount={c.totalSpent} currency={c.currency} /></dd>
          <dt>First order</dt>
          <dd><Time value={c.firstOrderAt} /></dd>
          <dt>Last order</dt>
          <dd><Time value={c.lastOrderAt} /></dd>
          <dt>Customer since</dt>
          <dd><Time value={c.createdAt} /></dd>
        </dl>
      </section>
      <section aria-labelledby="customer-memberships">
        <h2 id="customer-memberships">Memberships</h2>
        <FormErrors problems={problemsOf(memError)} />
        {!conn && memFetching && <Loading what="Loading the memberships" />}
        {conn && rows.length === 0 && cursor.page === 1 && <p className="muted">{c.email} has no memberships: they bought only one-time listings.</p>}
        {rows.length > 0 && <MembershipTable rows={rows} buyer={false} label={`Memberships of ${c.email}`} />}
        {conn && <Pager page={cursor.page} hasNext={conn.pageInfo.hasNextPage} onNext={() => cursor.next(conn.pageInfo.endCursor)} onPrev={cursor.prev} />}
      </section>
    </Page>
  );
}
