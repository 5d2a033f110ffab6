import { useState, type FormEvent } from 'react';
import { useQuery } from 'urql';
import { CustomersQuery } from '../ops';
import { problemsOf } from '../problems';
import { Link, navigate, useLocation } from '../router';
import { Empty, Field, FormErrors, Loading, Page, Pager, Time, formatMoney, useCursor } from '../ui';

export function Customers() {
  const { query } = useLocation();
  const email = query.get('email') ?? '';
  const [form, setForm] = useState(email);
  const cursor = useCursor(email);
  const [{ data, fetching, error }] = useQuery({
    query: CustomersQuery,
    variables: { first: 20, after: cursor.after, email: email || null },
  });
  const problems = problemsOf(error);
  const conn = data?.viewer?.customers;
  function apply(e: FormEvent) {
    e.preventDefault();
    navigate(form.trim() ? `/customers?email=${encodeURIComponent(form.trim())}` : '/customers', true);
  }
  return (
    <Page title="Customers">
      <form className="filters" onSubmit={apply} aria-label="Find a customer">
        <Field label="Email" param="email" problems={problems} type="email" autoComplete="off" maxLength={254} value={form} onValue={setForm} />
        <div className="field">
          <span aria-hidden="true">&nbsp;</span>
          <button type="submit">Find</button>
        </div>
      </form>
      <FormErrors problems={problems} shown={['email']} />
      {!conn && fetching && <Loading />}
      {conn && conn.edges.length === 0 && <Empty>{email ? 'No customer has this email.' : 'No customers yet: buyers appear here once they pay.'}</Empty>}
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
              </tr>
            </thead>
            <tbody>
              {conn.edges.map(({ node: c }) => (
                <tr key={c.id}>
                  <td><Link to={`/orders?buyer=${encodeURIComponent(c.email)}`}>{c.email}</Link></td>
                  <td>{c.ordersCount}</td>
                  <td>{formatMoney(c.totalSpent, c.currency)}</td>
                  <td><Time value={c.firstOrderAt} /></td>
                  <td><Time value={c.lastOrderAt} /></td>
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
