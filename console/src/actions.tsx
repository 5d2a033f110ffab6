// A readiness action as a control: an API action that needs no input from
// the seller (resolve.inputs empty) runs its resolve.graphql operation as
// given, then the readiness is read again (connect instead opens the
// onboarding url its result carries); an API action
// with inputs opens the screen with its form; a HUMAN action opens its page.
import { useState, type ReactElement } from 'react';
import { useClient, useMutation } from 'urql';
import type { ActionFieldsFragment } from './gql/graphql';
import { ConnectProcessor, PublishListing, UpdateWebhook } from './ops';
import { problemsOf, type Problem } from './problems';
import { Link, navigate } from './router';
import { FormErrors } from './ui';

function idIn(endpoint: string | null | undefined, re: RegExp): string | null {
  const m = endpoint?.match(re);
  return m ? decodeURIComponent(m[1]) : null;
}

// urlIn: the url of an operation's single root field's result, if any (for
// connect, the processor's onboarding page the seller goes on to).
function urlIn(data: unknown): string | null {
  if (!data || typeof data !== 'object') return null;
  const roots = Object.values(data as Record<string, unknown>);
  const root = roots.length === 1 ? roots[0] : null;
  const url = root && typeof root === 'object' ? (root as Record<string, unknown>).url : null;
  return typeof url === 'string' && /^https?:\/\//.test(url) ? url : null;
}

const controlText: Record<string, string> = {
  CONNECT_STRIPE: 'Connect the processor',
  ENABLE_CHARGES: 'Finish onboarding',
  UPDATE_BILLING: 'Update billing',
  WEBHOOK_DISABLED: 'Enable the endpoint',
  FULFILL_ORDER: 'Fulfill the order',
  PUBLISH_LISTING: 'Publish',
  CONFIGURE_FULFILLMENT: 'Add a deliverable',
  ENABLE_DISCOUNT: 'Turn the code on',
  EXTEND_DISCOUNT: 'Extend it by 30 days',
  RAISE_DISCOUNT_LIMIT: 'Allow 100 more',
  AWAIT_DISCOUNT_START: 'Check again',
  OFFER_TO_AGENTS: 'Connect an agent platform',
};

export function ActionControl({ action, onDone }: { action: ActionFieldsFragment; onDone?: () => void }) {
  const [, connect] = useMutation(ConnectProcessor);
  const [, publish] = useMutation(PublishListing);
  const [, updateWebhook] = useMutation(UpdateWebhook);
  const client = useClient();
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<Problem[]>([]);
  const r = action.resolve;
  const text = controlText[action.code] ?? 'Do it';

  if (action.kind === 'HUMAN') {
    if (!r.url) return null;
    return (
      <a className="button" href={r.url}>
        {text}
      </a>
    );
  }

  async function perform(fn: () => Promise<{ error?: Parameters<typeof problemsOf>[0] }>, after?: () => void) {
    setBusy(true);
    setProblems([]);
    const res = await fn();
    setBusy(false);
    if (res.error) setProblems(problemsOf(res.error));
    else {
      after?.();
      onDone?.();
    }
  }

  const call = r.graphql;
  if (call && r.inputs.length === 0) {
    return (
      <>
        <button
          type="button"
          disabled={busy}
          onClick={() =>
            perform(async () => {
              const vars = call.variables as Record<string, unknown>;
              const res = /^\s*query\b/.test(call.query)
                ? await client.query(call.query, vars, { requestPolicy: 'network-only' }).toPromise()
                : await client.mutation(call.query, vars).toPromise();
              // Connect's result is the onboarding page to go on to; any
              // other result (a listing's url is its product page) is not.
              const url = action.code === 'CONNECT_STRIPE' ? urlIn(res.data) : null;
              if (!res.error && url) window.location.assign(url);
              return res;
            })
          }
        >
          {text}
        </button>
        <FormErrors problems={problems} />
      </>
    );
  }

  let control: ReactElement | null = null;
  switch (action.code) {
    case 'CONNECT_STRIPE':
      control = (
        <button
          type="button"
          disabled={busy}
          onClick={() =>
            perform(async () => {
              const res = await connect({});
              if (res.data?.connectProcessor) window.location.assign(res.data.connectProcessor.url);
              return res;
            })
          }
        >
          {text}
        </button>
      );
      break;
    case 'WEBHOOK_DISABLED': {
      const id = idIn(r.endpoint, /^\/v1\/webhooks\/([^/]+)$/);
      control = id ? (
        <button type="button" disabled={busy} onClick={() => perform(() => updateWebhook({ id, input: { status: 'ENABLED' } }))}>
          {text}
        </button>
      ) : (
        <Link className="button" to="/webhooks">{text}</Link>
      );
      break;
    }
    case 'FULFILL_ORDER': {
      const id = idIn(r.endpoint, /^\/v1\/orders\/([^/]+)\/fulfill$/);
      control = <Link className="button" to={id ? `/orders/${id}` : '/orders?status=PAID'}>{text}</Link>;
      break;
    }
    case 'PUBLISH_LISTING': {
      const id = idIn(r.endpoint, /^\/v1\/listings\/([^/]+)\/publish$/);
      control = id ? (
        <button type="button" disabled={busy} onClick={() => perform(() => publish({ id }), () => navigate(`/listings/${id}`))}>
          {text}
        </button>
      ) : (
        <Link className="button" to="/listings/new">Create a listing</Link>
      );
      break;
    }
    case 'OFFER_TO_AGENTS':
      control = <Link className="button" to="/agents">{text}</Link>;
      break;
    case 'CONFIGURE_FULFILLMENT': {
      const id = idIn(r.endpoint, /^\/v1\/listings\/([^/]+)\/deliverables/);
      control = <Link className="button" to={id ? `/listings/${id}#deliverables` : '/listings'}>{text}</Link>;
      break;
    }
    default:
      control = (
        <code>
          {r.method} {r.endpoint}
        </code>
      );
  }
  return (
    <>
      {control}
      <FormErrors problems={problems} />
    </>
  );
}

export function ActionList({ actions, onDone }: { actions: ActionFieldsFragment[]; onDone?: () => void }) {
  return (
    <ol className="checklist">
      {actions.map((a, i) => (
        <li key={`${a.code}-${i}`} className={a.priority === 'REQUIRED' ? 'required' : 'suggested'}>
          <div>
            <span className={`badge badge-${a.priority.toLowerCase()}`}>{a.priority.toLowerCase()}</span>{' '}
            <span>{a.message}</span>
          </div>
          <div className="row">
            <ActionControl action={a} onDone={onDone} />
          </div>
        </li>
      ))}
    </ol>
  );
}
