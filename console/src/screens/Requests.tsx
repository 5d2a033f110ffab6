// The request log (issue 29): the recent requests of the account's API
// keys — method, path, status, time, correlation id — like Stripe's, by
// key and status class, newest first.
import { useQuery } from 'urql';
import { RequestLogQuery } from '../ops';
import type { RequestStatusClass } from '../gql/graphql';
import { problemsOf } from '../problems';
import { Link, navigate, useLocation } from '../router';
import { CopyButton, Empty, FormErrors, Loading, Page, Pager, Select, useCursor, withQuery } from '../ui';

const classes: { value: '' | RequestStatusClass; label: string }[] = [
  { value: '', label: 'All' },
  { value: 'SUCCEEDED', label: 'Succeeded (2xx, 3xx)' },
  { value: 'CLIENT_ERROR', label: 'Client errors (4xx)' },
  { value: 'SERVER_ERROR', label: 'Server errors (5xx)' },
];

/** The colour class of a status: ok below 400, warn for 4xx, danger for 5xx. */
function statusClass(status: number): string {
  if (status >= 500) return 'badge badge-http-5xx';
  if (status >= 400) return 'badge badge-http-4xx';
  return 'badge badge-http-2xx';
}

const timeFormat = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
  timeZoneName: 'short',
});

/** When a request arrived, to the second, in the browser's locale and time zone; its RFC 3339 value in the title. */
function RequestTime({ value }: { value: string }) {
  const d = new Date(value);
  return (
    <time dateTime={value} title={value}>
      {Number.isNaN(d.getTime()) ? value : timeFormat.format(d)}
    </time>
  );
}

function duration(ms: number): string {
  return ms < 1000 ? `${new Intl.NumberFormat().format(ms)} ms` : `${new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 }).format(ms / 1000)} s`;
}

export function Requests() {
  const { query } = useLocation();
  const key = query.get('key') ?? '';
  const status = (query.get('status') ?? '') as '' | RequestStatusClass;
  const cursor = useCursor(query.toString());
  const [{ data, fetching, error }, refetch] = useQuery({
    query: RequestLogQuery,
    variables: { first: 25, after: cursor.after, apiKey: key || null, status: status || null },
    requestPolicy: 'cache-and-network',
  });
  const problems = problemsOf(error);
  const keys = data?.viewer?.apiKeys?.edges.map((e) => e.node) ?? [];
  const keyName = new Map(keys.map((k) => [k.id, k.name]));
  const conn = data?.viewer?.requestLog;
  const filtered = key !== '' || status !== '';
  const set = (changes: Record<string, string>) => navigate(withQuery('/requests', query, changes), true);

  return (
    <Page
      title="Requests"
      actions={
        <button type="button" className="secondary" onClick={() => refetch({ requestPolicy: 'network-only' })}>
          Refresh
        </button>
      }
    >
      <p className="muted">
        The requests your API keys made to <code>/v1</code>, <code>/graphql</code> and <code>/mcp</code>, newest first: the last 1,000
        of the past 7 days. The console’s own requests are not listed. Quote a request’s correlation id when you ask for help with it.
      </p>
      <div className="filters">
        <Select
          label="API key"
          param="apiKey"
          problems={problems}
          value={key}
          onValue={(v) => set({ key: v })}
          options={[{ value: '', label: 'All keys' }, ...keys.map((k) => ({ value: k.id, label: `${k.name} (${k.prefix}…)` }))]}
        />
        <Select label="Status" param="status" problems={problems} value={status} onValue={(v) => set({ status: v })} options={classes} />
      </div>
      <FormErrors problems={problems} shown={['apiKey', 'status']} />
      {!conn && fetching && <Loading what="Loading the requests" />}
      {conn && conn.edges.length === 0 && (
        <Empty>
          {filtered ? (
            <>
              No requests match these filters. <Link to="/requests">Show every request</Link>.
            </>
          ) : (
            <>
              No API requests yet. Send one with a key — <code>curl -H "Authorization: Bearer svc_…" {window.location.origin}/v1/account</code> — and it
              appears here within a second. Keys are on the <Link to="/api-keys">API keys</Link> screen.
            </>
          )}
        </Empty>
      )}
      {conn && conn.edges.length > 0 && (
        <div className="table-wrap">
          <table className="stack requests" role="table" aria-label="API requests, newest first">
            <thead>
              <tr>
                <th scope="col">Request</th>
                <th scope="col">Status</th>
                <th scope="col">Time</th>
                <th scope="col">Key</th>
                <th scope="col">Duration</th>
                <th scope="col">Correlation id</th>
              </tr>
            </thead>
            <tbody>
              {conn.edges.map(({ cursor: c, node: r }) => (
                <tr key={c}>
                  <td role="cell" data-label="Request" className="lead request-cell">
                    <span>
                      <code>
                        <strong>{r.method}</strong> {r.path}
                      </code>
                      {r.operation && <small className="muted">{r.operation}</small>}
                    </span>
                  </td>
                  <td role="cell" data-label="Status">
                    <span>
                      <span className={statusClass(r.status)}>{r.status}</span>
                    </span>
                  </td>
                  <td role="cell" data-label="Time" className="nowrap">
                    <RequestTime value={r.createdAt} />
                  </td>
                  <td role="cell" data-label="Key">
                    {keyName.get(r.apiKeyId) ?? <span className="muted" title={r.apiKeyId}>revoked key</span>}
                  </td>
                  <td role="cell" data-label="Duration" className="nowrap">
                    {duration(r.durationMs)}
                  </td>
                  <td role="cell" data-label="Correlation id" className="nowrap correlation-cell">
                    <span>
                      <code>{r.correlationId}</code> <CopyButton text={r.correlationId} small label={r.correlationId} />
                    </span>
                  </td>
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
