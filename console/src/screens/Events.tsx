// The event feed: the newest events (viewer.events(last:)), then every
// later one live (subscription events(after:) over graphql-ws, from the
// newest shown, so nothing is missed or shown twice).
import { useState } from 'react';
import { useQuery, useSubscription } from 'urql';
import { EventsSubscription, LatestEventsQuery } from '../ops';
import type { EventsSubscription as EventsData } from '../gql/graphql';
import { problemsOf } from '../problems';
import { Link } from '../router';
import { Empty, FormErrors, Loading, Page, Time, eventName, formatMoney } from '../ui';

type Ev = EventsData['events'];

// history is how many of the newest events the screen starts with.
const history = 50;

export function Events() {
  const [paused, setPaused] = useState(false);
  const [{ data: latest, error: latestError }] = useQuery({
    query: LatestEventsQuery,
    variables: { last: history },
    requestPolicy: 'network-only',
  });
  const past = latest?.viewer?.events;
  const [{ data: feed, error }] = useSubscription<EventsData, Ev[]>(
    { query: EventsSubscription, variables: { after: past?.pageInfo.endCursor ?? null }, pause: paused || !past },
    (prev = [], data) => (prev.some((e) => e.id === data.events.id) ? prev : [data.events, ...prev].slice(0, 200)),
  );
  const live = feed ?? [];
  const older = (past?.edges ?? [])
    .map((e) => e.node)
    .reverse()
    .filter((e) => !live.some((l) => l.id === e.id));
  const events: Ev[] = [...live, ...older];
  if (!latest && !latestError) {
    return (
      <Page title="Events">
        <Loading />
      </Page>
    );
  }
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
        The latest events, newest first; each new one appears here as it happens{paused ? ' (paused)' : ''}.
        {past?.pageInfo.hasPreviousPage && ` Older events: GET /v1/events.`}
      </p>
      <FormErrors problems={[...problemsOf(latestError), ...problemsOf(error)]} />
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
                <strong>{eventName(e.type)}</strong>{' '}
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
