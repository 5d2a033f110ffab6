// The one GraphQL client: same-origin /graphql, authenticated by the
// console's session cookie (commerce_session); subscriptions over graphql-ws
// on the same path. No request ever goes to another host.
import { Client, cacheExchange, fetchExchange, subscriptionExchange } from 'urql';
import { createClient as createWSClient } from 'graphql-ws';

export const graphqlPath = '/graphql';

function wsURL(): string {
  const u = new URL(graphqlPath, window.location.href);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  return u.toString();
}

const ws = createWSClient({
  url: wsURL,
  lazy: true,
  retryAttempts: 20,
  shouldRetry: () => true,
});

export function restartSubscriptions(): void {
  // After signing in or out the websocket must carry the new cookie.
  ws.terminate();
}

export const client = new Client({
  url: graphqlPath,
  fetchOptions: { credentials: 'same-origin' },
  // POST always: GET /graphql is the IDE.
  preferGetMethod: false,
  requestPolicy: 'cache-and-network',
  exchanges: [
    cacheExchange,
    fetchExchange,
    subscriptionExchange({
      forwardSubscription(request) {
        const input = { ...request, query: request.query || '' };
        return {
          subscribe(sink) {
            const unsubscribe = ws.subscribe(input, sink);
            return { unsubscribe };
          },
        };
      },
    }),
  ],
});
