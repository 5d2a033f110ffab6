// Webhook endpoints: create (the signing secret shown once), enable and
// disable, test, delete; each endpoint's delivery log with retry.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { CreateWebhook, DeleteWebhook, RetryWebhookEvent, TestWebhook, UpdateWebhook, WebhooksQuery } from '../ops';
import type { EventType, TestWebhookMutation, WebhooksQuery as WebhooksData } from '../gql/graphql';
import { problemsOf, type Problem } from '../problems';
import { Badge, Empty, Field, FormErrors, Loading, Notice, Page, Secret, Time, eventName, label } from '../ui';

// The six order events are what an endpoint gets by default; the license
// key events only when ticked (CONTRACT §20).
const orderEvents: EventType[] = ['ORDER_PAID', 'ORDER_FULFILLED', 'ORDER_REFUNDED', 'ORDER_DISPUTED', 'ORDER_DISPUTE_CLOSED', 'ORDER_CANCELED'];
const eventTypes: EventType[] = [...orderEvents, 'LICENSE_KEY_ACTIVATED', 'LICENSE_KEY_DEACTIVATED'];

type Endpoint = NonNullable<NonNullable<WebhooksData['viewer']>['webhooks']>['edges'][number]['node'];

export function Webhooks() {
  const [{ data, fetching, error }, refetch] = useQuery({ query: WebhooksQuery });
  const [, create] = useMutation(CreateWebhook);
  const [url, setUrl] = useState('');
  const [name, setName] = useState('');
  const [events, setEvents] = useState<EventType[]>(orderEvents);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const list = data?.viewer?.webhooks?.edges.map((e) => e.node);
  const again = () => refetch({ requestPolicy: 'network-only' });

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setProblems([]);
    setSecret(null);
    const r = await create({ input: { url: url.trim(), name: name.trim() || null, events } });
    setBusy(false);
    if (r.error) setProblems(problemsOf(r.error));
    else if (r.data?.createWebhook) {
      setSecret({ url: r.data.createWebhook.url, secret: r.data.createWebhook.secret });
      setUrl('');
      setName('');
      again();
    }
  }

  return (
    <Page title="Webhooks" actions={<button type="button" className="secondary" onClick={again}>Refresh</button>}>
      <FormErrors problems={problemsOf(error)} />
      {secret && (
        <Secret title="Signing secret" value={secret.secret}>
          <p>The endpoint {secret.url} signs every delivery with this secret. It is shown once: store it now.</p>
        </Secret>
      )}
      <section aria-labelledby="new-endpoint">
        <h2 id="new-endpoint">New endpoint</h2>
        <form onSubmit={submit} noValidate>
          <FormErrors problems={problems} shown={['url', 'name', 'events']} />
          <Field label="URL" param="url" problems={problems} type="url" required maxLength={2048} placeholder="https://example.com/webhooks" value={url} onValue={setUrl} />
          <Field label="Name (optional)" param="name" problems={problems} maxLength={100} value={name} onValue={setName} />
          <fieldset className="checks">
            <legend>Events</legend>
            {eventTypes.map((t) => (
              <label key={t} className="check">
                <input
                  type="checkbox"
                  checked={events.includes(t)}
                  onChange={(e) => setEvents(e.target.checked ? [...events, t] : events.filter((x) => x !== t))}
                />{' '}
                {eventName(t)}
              </label>
            ))}
          </fieldset>
          <button type="submit" disabled={busy}>Create endpoint</button>
        </form>
      </section>
      <section aria-labelledby="endpoints">
        <h2 id="endpoints">Endpoints</h2>
        {!list && fetching && <Loading />}
        {list && list.length === 0 && <Empty>No endpoints yet. Create one to receive order events.</Empty>}
        {list?.map((w) => <EndpointCard key={w.id} endpoint={w} onChanged={again} />)}
      </section>
    </Page>
  );
}

function EndpointCard({ endpoint: w, onChanged }: { endpoint: Endpoint; onChanged: () => void }) {
  const [, update] = useMutation(UpdateWebhook);
  const [, del] = useMutation(DeleteWebhook);
  const [, test] = useMutation(TestWebhook);
  const [, retry] = useMutation(RetryWebhookEvent);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [notice, setNotice] = useState('');
  const [result, setResult] = useState<TestWebhookMutation['testWebhook']>(null);
  const [busy, setBusy] = useState(false);

  async function run(fn: () => Promise<{ error?: Parameters<typeof problemsOf>[0] }>, done: string) {
    setBusy(true);
    setProblems([]);
    setNotice('');
    const r = await fn();
    setBusy(false);
    if (r.error) setProblems(problemsOf(r.error));
    else {
      if (done) setNotice(done);
      onChanged();
    }
  }

  async function doTest() {
    setBusy(true);
    setProblems([]);
    setResult(null);
    const r = await test({ id: w.id });
    setBusy(false);
    if (r.error) setProblems(problemsOf(r.error));
    else setResult(r.data?.testWebhook ?? null);
  }

  const deliveries = w.deliveries?.edges.map((e) => e.node) ?? [];
  return (
    <article className="card" aria-label={`Endpoint ${w.name ?? w.url}`}>
      <header className="card-head">
        <h3>{w.name ?? w.url}</h3>
        <Badge value={w.status} />
      </header>
      <p className="break"><code>{w.url}</code></p>
      <p className="muted">
        {w.events.map(eventName).join(', ')}
        {w.disabledReason && ` · disabled: ${label(w.disabledReason).toLowerCase()}`}
        {w.consecutiveFailures > 0 && ` · ${w.consecutiveFailures} failures in a row`}
      </p>
      {notice && <Notice>{notice}</Notice>}
      <FormErrors problems={problems} />
      <div className="row">
        <button type="button" className="secondary" disabled={busy} onClick={doTest}>Send test event</button>
        {w.status === 'DISABLED' ? (
          <button type="button" disabled={busy} onClick={() => run(() => update({ id: w.id, input: { status: 'ENABLED' } }), 'Enabled.')}>Enable</button>
        ) : (
          <button type="button" className="secondary" disabled={busy} onClick={() => run(() => update({ id: w.id, input: { status: 'DISABLED' } }), 'Disabled.')}>Disable</button>
        )}
        <button
          type="button"
          className="danger"
          disabled={busy}
          onClick={() => window.confirm(`Delete the endpoint ${w.url}? Its pending deliveries are canceled.`) && run(() => del({ id: w.id }), '')}
        >
          Delete
        </button>
      </div>
      {result && (
        <div className="notice" role="status">
          <p>
            Test answered {result.statusCode ?? 'nothing'} in {result.durationMs} ms{result.error ? `: ${result.error}` : '.'}
          </p>
          {result.body && <pre>{result.body}</pre>}
        </div>
      )}
      <h4>Delivery log</h4>
      {deliveries.length === 0 ? (
        <p className="muted">No deliveries yet.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last answer</th>
                <th scope="col">Created</th>
                <th scope="col"><span className="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((d) => (
                <tr key={d.id}>
                  <td>
                    {eventName(d.type)}
                    <br />
                    <small className="muted">{d.id}</small>
                  </td>
                  <td><Badge value={d.status} /></td>
                  <td>{d.attempts}</td>
                  <td>{d.lastStatusCode ?? d.lastError ?? '—'}</td>
                  <td><Time value={d.createdAt} /></td>
                  <td>
                    <button type="button" className="secondary small" disabled={busy} onClick={() => run(() => retry({ webhookId: w.id, eventId: d.id }), `Retried ${d.id}.`)}>
                      Retry
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </article>
  );
}
