// A readiness action as a control: an API action runs the console's own
// operation for it (the same use case its resolve.endpoint names); a HUMAN
// action opens its page.
import { useState, type ReactElement } from 'react';
import { useMutation } from 'urql';
import type { ActionFieldsFragment } from './gql/graphql';
import { ConnectProcessor, PublishListing, UpdateWebhook } from './ops';
import { problemsOf, type Problem } from './problems';
import { Link, navigate } from './router';
import { FormErrors } from './ui';

function idIn(endpoint: string | null | undefined, re: RegExp): string | null {
  const m = endpoint?.match(re);
  return m ? decodeURIComponent(m[1]) : null;
}

const controlText: Record<string, string> = {
  CONNECT_STRIPE: 'Connect the processor',
  ENABLE_CHARGES: 'Finish onboarding',
  UPDATE_BILLING: 'Update billing',
  WEBHOOK_DISABLED: 'Enable the endpoint',
  FULFILL_ORDER: 'Fulfill the order',
  PUBLISH_LISTING: 'Publish',
  CONFIGURE_FULFILLMENT: 'Add a deliverable',
};

export function ActionControl({ action, onDone }: { action: ActionFieldsFragment; onDone?: () => void }) {
  const [, connect] = useMutation(ConnectProcessor);
  const [, publish] = useMutation(PublishListing);
  const [, updateWebhook] = useMutation(UpdateWebhook);
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
