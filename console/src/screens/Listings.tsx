import { useQuery } from 'urql';
import { ListingsQuery } from '../ops';
import type { ListingStatus } from '../gql/graphql';
import { problemsOf } from '../problems';
import { Link, navigate, useLocation } from '../router';
import { Badge, Empty, FormErrors, Loading, Page, Pager, SearchField, Select, Time, useCursor, withQuery } from '../ui';
import { priceText } from './Listing';

const statuses: { value: '' | ListingStatus; label: string }[] = [
  { value: '', label: 'All' },
  { value: 'DRAFT', label: 'Draft' },
  { value: 'PUBLISHED', label: 'Published' },
  { value: 'PAUSED', label: 'Paused' },
];

export function Listings() {
  const { query } = useLocation();
  const status = (query.get('status') ?? '') as '' | ListingStatus;
  const q = query.get('q') ?? '';
  const cursor = useCursor(query.toString());
  const [{ data, fetching, error }] = useQuery({
    query: ListingsQuery,
    variables: { first: 20, after: cursor.after, status: status || null, query: q || null },
  });
  const problems = problemsOf(error);
  const conn = data?.viewer?.listings;
  return (
    <Page title="Listings" actions={<Link className="button" to="/listings/new">New listing</Link>}>
      <form className="filters" onSubmit={(e) => e.preventDefault()} aria-label="Find listings">
        <SearchField
          label="Search listings"
          hint="A title, or part of it."
          value={q}
          problems={problems}
          onSearch={(v) => navigate(withQuery('/listings', query, { q: v }), true)}
        />
        <Select
          label="Status"
          param="status"
          problems={[]}
          value={status}
          onValue={(v) => navigate(withQuery('/listings', query, { status: v }), true)}
          options={statuses}
        />
      </form>
      <FormErrors problems={problems} shown={['query']} />
      {!conn && fetching && <Loading what="Loading the listings" />}
      {conn && conn.edges.length === 0 && (
        <Empty>
          {q ? (
            <>No listings match “{q}”{status ? ' with this status' : ''}. <Link to="/listings">Show all listings</Link>.</>
          ) : status ? (
            <>No listing has this status. <Link to="/listings">Show all listings</Link>.</>
          ) : (
            <>No listings yet. <Link to="/listings/new">Create a listing</Link>.</>
          )}
        </Empty>
      )}
      {conn && conn.edges.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Price</th>
                <th scope="col">Status</th>
                <th scope="col">Sellable</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {conn.edges.map(({ node: l }) => (
                <tr key={l.id}>
                  <td><Link to={`/listings/${l.id}`}>{l.title}</Link></td>
                  <td>{priceText(l)}</td>
                  <td><Badge value={l.status} /></td>
                  <td>{l.readiness.sellable ? 'yes' : 'no'}</td>
                  <td><Time value={l.updatedAt} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {conn && (
        <Pager
          page={cursor.page}
          hasNext={conn.pageInfo.hasNextPage}
          onNext={() => cursor.next(conn.pageInfo.endCursor)}
          onPrev={cursor.prev}
        />
      )}
    </Page>
  );
}
