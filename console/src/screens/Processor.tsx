import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { ConnectProcessor, DisconnectProcessor, ProcessorQuery, SetTestKey } from '../ops';
import { problemsOf, type Problem } from '../problems';
import { Badge, Field, FormErrors, Loading, Notice, Page } from '../ui';

export function Processor() {
  const [{ data, fetching, error }, refetch] = useQuery({ query: ProcessorQuery });
  const [, connect] = useMutation(ConnectProcessor);
  const [, disconnect] = useMutation(DisconnectProcessor);
  const [, setKey] = useMutation(SetTestKey);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [notice, setNotice] = useState('');
  const [testKey, setTestKey] = useState('');
  const [busy, setBusy] = useState(false);
  const p = data?.viewer?.processor;

  async function doConnect() {
    setBusy(true);
    setProblems([]);
    const r = await connect({});
    setBusy(false);
    if (r.error) setProblems(problemsOf(r.error));
    else if (r.data?.connectProcessor) window.location.assign(r.data.connectProcessor.url);
  }

  async function doDisconnect() {
    if (!window.confirm('Disconnect the processor? Your published listings stop selling.')) return;
    setBusy(true);
    setProblems([]);
    const r = await disconnect({});
    setBusy(false);
    if (r.error) setProblems(problemsOf(r.error));
    else {
      setNotice(`Disconnected. ${r.data?.disconnectProcessor?.affectedListings ?? 0} published listings can no longer sell.`);
      refetch({ requestPolicy: 'network-only' });
    }
  }

  async function saveKey(e: FormEvent, value: string | null) {
    e.preventDefault();
    setBusy(true);
    setProblems([]);
    const r = await setKey({ input: { processorTestKey: value } });
    setBusy(false);
    if (r.error) setProblems(problemsOf(r.error));
    else {
      setTestKey('');
      setNotice(value ? 'Test key saved: checkouts run in test mode.' : 'Test key removed.');
    }
  }

  return (
    <Page title="Processor">
      <FormErrors problems={[...problemsOf(error), ...problems]} shown={['processor_test_key']} />
      {notice && <Notice>{notice}</Notice>}
      {!p && fetching && <Loading />}
      {p && (
        <>
          <section aria-labelledby="status">
            <h2 id="status">Status</h2>
            <dl className="facts">
              <dt>Connection</dt>
              <dd><Badge value={p.status} /></dd>
              <dt>Charges</dt>
              <dd>{p.chargesEnabled ? 'enabled' : 'not enabled'}</dd>
              <dt>Payouts</dt>
              <dd>{p.payoutsEnabled ? 'enabled' : 'not enabled'}</dd>
              <dt>Processor account</dt>
              <dd>{p.accountId ?? '—'}</dd>
              <dt>Currency</dt>
              <dd>{data?.viewer?.currency?.toUpperCase() ?? '—'}</dd>
              <dt>Test mode</dt>
              <dd>{p.testMode ? 'on (a test key is set)' : 'off'}</dd>
            </dl>
            <div className="row">
              {p.status !== 'CONNECTED' || !p.chargesEnabled ? (
                <button type="button" onClick={doConnect} disabled={busy}>
                  {p.status === 'ONBOARDING' ? 'Continue onboarding' : 'Connect the processor'}
                </button>
              ) : null}
              {(p.status === 'CONNECTED' || p.status === 'ONBOARDING') && (
                <button type="button" className="danger" onClick={doDisconnect} disabled={busy}>
                  Disconnect
                </button>
              )}
            </div>
          </section>
          <section aria-labelledby="testkey">
            <h2 id="testkey">Test key</h2>
            <p className="muted">
              With a Stripe test key (sk_test_… or rk_test_…) your checkouts run in the processor's test mode. The key
              is never shown again.
            </p>
            <form onSubmit={(e) => saveKey(e, testKey.trim())} noValidate>
              <Field
                label="Stripe test key"
                param="processor_test_key"
                problems={problems.map((x) => (x.param === 'processorTestKey' ? { ...x, param: 'processor_test_key' } : x))}
                autoComplete="off"
                spellCheck={false}
                maxLength={255}
                value={testKey}
                onValue={setTestKey}
              />
              <div className="row">
                <button type="submit" disabled={busy || !testKey.trim()}>Save test key</button>
                {p.testMode && (
                  <button type="button" className="secondary" disabled={busy} onClick={(e) => saveKey(e, null)}>
                    Remove test key
                  </button>
                )}
              </div>
            </form>
          </section>
        </>
      )}
    </Page>
  );
}
