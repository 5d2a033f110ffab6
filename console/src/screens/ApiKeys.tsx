import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { ApiKeysQuery, CreateApiKey, DeleteApiKey } from '../ops';
import type { ApiKeyScope } from '../gql/graphql';
import { problemsOf, type Problem } from '../problems';
import { Link } from '../router';
import { Empty, Field, FormErrors, Loading, Notice, Page, Secret, Select, Time } from '../ui';

export function ApiKeys() {
  const [{ data, fetching, error }, refetch] = useQuery({ query: ApiKeysQuery });
  const [, create] = useMutation(CreateApiKey);
  const [, revoke] = useMutation(DeleteApiKey);
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiKeyScope>('FULL');
  const [expires, setExpires] = useState('');
  const [problems, setProblems] = useState<Problem[]>([]);
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  const keys = data?.viewer?.apiKeys?.edges.map((e) => e.node);
  const again = () => refetch({ requestPolicy: 'network-only' });

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setProblems([]);
    setCreated(null);
    setNotice('');
    const expiresAt = /^\d{4}-\d{2}-\d{2}$/.test(expires) ? `${expires}T00:00:00Z` : null;
    const r = await create({ input: { name: name.trim(), scope, expiresAt } });
    setBusy(false);
    if (r.error) setProblems(problemsOf(r.error));
    else if (r.data?.createApiKey) {
      setCreated({ name: r.data.createApiKey.name, key: r.data.createApiKey.key });
      setName('');
      setExpires('');
      again();
    }
  }

  async function doRevoke(id: string, keyName: string) {
    if (!window.confirm(`Revoke the key “${keyName}”? Programs using it stop working at once.`)) return;
    setBusy(true);
    setProblems([]);
    const r = await revoke({ id });
    setBusy(false);
    if (r.error) setProblems(problemsOf(r.error));
    else {
      setNotice(`Revoked “${keyName}”.`);
      again();
    }
  }

  return (
    <Page title="API keys">
      <FormErrors problems={problemsOf(error)} />
      {created && (
        <Secret title={`New key “${created.name}”`} value={created.key}>
          <p>This key is shown once. Store it now.</p>
        </Secret>
      )}
      {notice && <Notice>{notice}</Notice>}
      <section aria-labelledby="new-key">
        <h2 id="new-key">New key</h2>
        <form onSubmit={submit} noValidate>
          <FormErrors problems={problems} shown={['name', 'scope', 'expires_at']} />
          <Field label="Name" param="name" problems={problems} required maxLength={100} value={name} onValue={setName} />
          <Select
            label="Scope"
            param="scope"
            problems={problems}
            value={scope}
            onValue={setScope}
            options={[
              { value: 'FULL', label: 'Full access' },
              { value: 'READ_ONLY', label: 'Read only' },
            ]}
          />
          <Field label="Expires (optional)" param="expires_at" problems={problems} type="date" value={expires} onValue={setExpires} />
          <button type="submit" disabled={busy}>Create key</button>
        </form>
      </section>
      <section aria-labelledby="keys">
        <h2 id="keys">Keys</h2>
        {!keys && fetching && <Loading />}
        {keys && keys.length === 0 && <Empty>No live keys.</Empty>}
        {keys && keys.length > 0 && (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Scope</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Expires</th>
                  <th scope="col"><span className="sr-only">Actions</span></th>
                </tr>
              </thead>
              <tbody>
                {keys.map((k) => (
                  <tr key={k.id}>
                    <td>{k.name}</td>
                    <td><code>{k.prefix}…</code></td>
                    <td>{k.scope === 'FULL' ? 'full' : 'read only'}</td>
                    <td><Time value={k.createdAt} /></td>
                    <td><Time value={k.lastUsedAt} /></td>
                    <td><Time value={k.expiresAt} /></td>
                    <td className="nowrap">
                      <Link to={`/requests?key=${encodeURIComponent(k.id)}`} className="button secondary small" aria-label={`Requests of ${k.name}`}>
                        Requests
                      </Link>{' '}
                      <button type="button" className="danger small" disabled={busy} onClick={() => doRevoke(k.id, k.name)} aria-label={`Revoke ${k.name}`}>
                        Revoke
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </Page>
  );
}
