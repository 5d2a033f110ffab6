// Agent connections (CONTRACT §25): one per agent platform whose buyers'
// assistants buy the store's listings through the Agentic Commerce
// Protocol. Create (the token and the webhook secret shown once), disable
// and enable, delete; each connection's recent webhook deliveries.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { AgentConnectionsQuery, CreateAgentConnection, DeleteAgentConnection, UpdateAgentConnection } from '../ops';
import type { AgentConnectionsQuery as AgentConnectionsData, CreateAgentConnectionMutation } from '../gql/graphql';
import { problemsOf, type Problem } from '../problems';
import { Badge, CopyButton, Empty, Field, FormErrors, Loading, Notice, Page, Time, eventName } from '../ui';

type Connection = NonNullable<NonNullable<AgentConnectionsData['viewer']>['agentConnections']>['edges'][number]['node'];
type Created = NonNullable<CreateAgentConnectionMutation['createAgentConnection']>;

export function Agents() {
  const [{ data, fetching, error }, refetch] = useQuery({ query: AgentConnectionsQuery });
  const [, create] = useMutation(CreateAgentConnection);
  const [name, setName] = useState('');
  const [webhookUrl, setWebhookUrl] = useState('');
  const [problems, setProblems] = useState<Problem[]>([]);
  const [created, setCreated] = useState<Created | null>(null);
  const [busy, setBusy] = useState(false);
  const list = data?.viewer?.agentConnections?.edges.map((e) => e.node);
  const again = () => refetch({ requestPolicy: 'network-only' });

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setProblems([]);
    setCreated(null);
    const r = await create({ input: { name: name.trim(), webhookUrl: webhookUrl.trim() } });
    setBusy(false);
    if (r.error) setProblems(problemsOf(r.error));
    else if (r.data?.createAgentConnection) {
      setCreated(r.data.createAgentConnection);
      setName('');
      setWebhookUrl('');
      again();
    }
  }

  return (
    <Page title="Agents" actions={<button type="button" className="secondary" onClick={again}>Refresh</button>}>
      <p>
        Buyers ask AI assistants to find and buy things. An agent connection lets one agent platform&rsquo;s assistants
        buy your published listings through the Agentic Commerce Protocol (ACP): create one per platform, then give the
        platform its token and webhook secret. The platform is told about the orders it made at its webhook URL.
      </p>
      <FormErrors problems={problemsOf(error)} />
      {created && <ShownOnce connection={created} onDismiss={() => setCreated(null)} />}
      <section aria-labelledby="new-connection">
        <h2 id="new-connection">New connection</h2>
        <form onSubmit={submit} noValidate>
          <FormErrors problems={problems} shown={['name', 'webhook_url']} />
          <Field label="Platform name" param="name" problems={problems} required maxLength={100} placeholder="My agent platform" value={name} onValue={setName} />
          <Field
            label="Webhook URL"
            param="webhook_url"
            problems={problems}
            type="url"
            required
            maxLength={2048}
            placeholder="https://platform.example/acp/webhooks"
            hint="The https address the platform gave you for order events."
            value={webhookUrl}
            onValue={setWebhookUrl}
          />
          <button type="submit" disabled={busy}>Create connection</button>
        </form>
      </section>
      <section aria-labelledby="connections">
        <h2 id="connections">Connections</h2>
        {!list && fetching && <Loading />}
        {list && list.length === 0 && <Empty>No agent connections yet. Create one for each agent platform you sell through.</Empty>}
        {list?.map((c) => <ConnectionCard key={c.id} connection={c} onChanged={again} />)}
      </section>
    </Page>
  );
}

// The token and the webhook secret of a new connection: this is the only
// time they are shown.
function ShownOnce({ connection: c, onDismiss }: { connection: Created; onDismiss: () => void }) {
  return (
    <section className="secret" aria-labelledby="shown-once">
      <h2 id="shown-once">Give these to {c.name}</h2>
      <p>
        <strong>Shown once:</strong> copy the token and the webhook secret now and hand them to the platform. They cannot
        be shown again; if they are lost, delete the connection and create a new one.
      </p>
      <h3 id="token-label">Token</h3>
      <p className="muted">The platform sends it as <code>Authorization: Bearer …</code> on every ACP request.</p>
      <div className="secret-value">
        <code data-testid="agent-token" aria-labelledby="token-label">{c.token}</code>
      </div>
      <div className="row">
        <CopyButton text={c.token} label="token" />
      </div>
      <h3 id="webhook-secret-label">Webhook secret</h3>
      <p className="muted break">
        The platform checks the <code>Merchant-Signature</code> of each event sent to {c.webhookUrl} with it.
      </p>
      <div className="secret-value">
        <code data-testid="agent-webhook-secret" aria-labelledby="webhook-secret-label">{c.webhookSecret}</code>
      </div>
      <div className="row">
        <CopyButton text={c.webhookSecret} label="webhook secret" />
      </div>
      <div className="row">
        <button type="button" className="secondary" onClick={onDismiss}>I have stored them</button>
      </div>
    </section>
  );
}

function ConnectionCard({ connection: c, onChanged }: { connection: Connection; onChanged: () => void }) {
  const [, update] = useMutation(UpdateAgentConnection);
  const [, del] = useMutation(DeleteAgentConnection);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [notice, setNotice] = useState('');
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

  const deliveries = c.deliveries?.edges.map((e) => e.node) ?? [];
  return (
    <article className="card" aria-label={`Connection ${c.name}`}>
      <header className="card-head">
        <h3>{c.name}</h3>
        <Badge value={c.status} />
      </header>
      <dl className="facts">
        <dt>Webhook URL</dt>
        <dd className="break"><code>{c.webhookUrl}</code></dd>
        <dt>Created</dt>
        <dd><Time value={c.createdAt} /></dd>
        <dt>Last used</dt>
        <dd>{c.lastUsedAt ? <Time value={c.lastUsedAt} /> : <span className="muted">Never</span>}</dd>
      </dl>
      {c.status === 'DISABLED' && <p className="muted">Disabled: the platform&rsquo;s token is refused and no order events are sent.</p>}
      {notice && <Notice>{notice}</Notice>}
      <FormErrors problems={problems} />
      <div className="row">
        {c.status === 'DISABLED' ? (
          <button type="button" disabled={busy} onClick={() => run(() => update({ id: c.id, input: { status: 'ACTIVE' } }), 'Enabled: the token works again.')}>
            Enable
          </button>
        ) : (
          <button
            type="button"
            className="secondary"
            disabled={busy}
            onClick={() => run(() => update({ id: c.id, input: { status: 'DISABLED' } }), 'Disabled: the token is refused from now on.')}
          >
            Disable
          </button>
        )}
        <button
          type="button"
          className="danger"
          disabled={busy}
          onClick={() =>
            window.confirm(`Delete the connection ${c.name}? Its token stops working at once and its pending deliveries are canceled.`) &&
            run(() => del({ id: c.id }), '')
          }
        >
          Delete
        </button>
      </div>
      <h4>Recent deliveries</h4>
      {deliveries.length === 0 ? (
        <p className="muted">No deliveries yet. Order events of this platform&rsquo;s orders appear here.</p>
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
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </article>
  );
}
