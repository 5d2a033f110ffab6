// The live event feed: subscription { events } over graphql-ws.
import { useState } from 'react';
import { useSubscription } from 'urql';
import { EventsSubscription } from '../ops';
import type { EventsSubscription as EventsData } from '../gql/graphql';
import { problemsOf } from '../problems';
import { Link } from '../router';
import { Empty, FormErrors, Page, Time, formatMoney } from '../ui';

type Ev = EventsData['events'];

export function Events() {
  const [paused, setPaused] = useState(false);
  const [{ data: feed, error }] = useSubscription<EventsData, Ev[]>(
    { query: EventsSubscription, pause: paused },
    (prev = [], data) => (prev.some((e) => e.id === data.events.id) ? prev : [data.events, ...prev].slice(0, 200)),
  );
  const events = feed ?? [];
  return (
    <Page
      title="Events"
      actions={
        <button type="button" className="secondary" onClick={() => setPaused(!paused)} aria-pressed={paused}>
          {paused ? 'Resume feed' : 'Pause feed'}
        </button>
      }
    >
      <p className="muted">
        Live: each order event appears here as it happens{paused ? ' (paused)' : ''}.
      </p>
      <FormErrors problems={problemsOf(error)} />
      {events.length === 0 ? (
        <Empty>Waiting for events. Buy one of your listings to see order.paid arrive.</Empty>
      ) : (
        <ul className="feed" aria-live="polite" aria-label="Event feed">
          {events.map((e) => {
            const d = e.data as Record<string, unknown>;
            const amount = typeof d.amount === 'number' ? d.amount : null;
            const currency = typeof d.currency === 'string' ? d.currency : null;
            return (
              <li key={e.id} data-testid="event">
                <strong>{e.type.toLowerCase().replace('_', '.')}</strong>{' '}
                {e.orderId && <Link to={`/orders/${e.orderId}`}>{e.orderId}</Link>}{' '}
                {typeof d.buyer_email === 'string' && <span>{d.buyer_email}</span>}{' '}
                {amount !== null && <span>{formatMoney(amount, currency)}</span>}{' '}
                <Time value={e.createdAt} />
              </li>
            );
          })}
        </ul>
      )}
    </Page>
  );
}
