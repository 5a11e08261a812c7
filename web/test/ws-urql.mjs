// urql (@urql/core's subscriptionExchange over the graphql-ws client, with
// enableAllOperations), as a urql frontend uses it: requests an issuance
// (the mutation over the WebSocket), follows it to SUCCESS, then its OCR
// task.
//
//   node web/test/ws-urql.mjs <graphql-http-url> <token> <nestId>
//
// Output and exit codes: see ws-flow.mjs. The graphql-ws client does not
// reconnect (retryAttempts: 0): a dropped socket fails the run.
import { Client, subscriptionExchange } from '@urql/core';
import { createClient } from 'graphql-ws/client';
import { onEnd, pipe, subscribe as forEach } from 'wonka';

import { wsURL } from './lib.mjs';
import { countingWebSocket, followIssuance, newStats, run, usage } from './ws-flow.mjs';

const args = process.argv.slice(2);
usage(args, 3, 'node web/test/ws-urql.mjs <graphql-http-url> <token> <nestId>');
const [url, token, nestId] = args;

const ws = createClient({
  url: wsURL(url),
  webSocketImpl: countingWebSocket(newStats()),
  connectionParams: { Authorization: `Bearer ${token}` },
  retryAttempts: 0,
  // Keep the socket between the two subscriptions (by default a lazy client
  // closes it as soon as none runs).
  lazyCloseTimeout: 2_000,
  // Ping the server too (it answers pong), as clients behind proxies do.
  keepAlive: 300,
});
// The exchange as urql's documentation wires graphql-ws.
const client = new Client({
  url,
  exchanges: [
    subscriptionExchange({
      // Queries and mutations over the WebSocket too.
      enableAllOperations: true,
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

// When the server completes a subscription, urql emits the last result once
// more with hasNext: false (its end marker, not a new state from the server):
// it is not passed on as a state.
function subscribe(query, variables, sink) {
  pipe(
    client.subscription(query, variables),
    onEnd(() => sink.complete()),
    forEach((result) => {
      if (result.error) sink.error(result.error);
      else if (result.hasNext !== false) sink.next(result.data);
    }),
  );
}

async function mutate(mutation, variables) {
  const result = await client.mutation(mutation, variables).toPromise();
  if (result.error) throw result.error;
  return result.data;
}

run('ws-urql.mjs', 50_000, () => followIssuance(subscribe, mutate, nestId), () => ws.dispose());
