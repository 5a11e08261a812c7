// Apollo Client (GraphQLWsLink over the graphql-ws client), as an Apollo
// frontend with only a WebSocket link uses it: requests an issuance (the
// mutation over the WebSocket), follows it to SUCCESS, then its OCR task.
//
//   node web/test/ws-apollo.mjs <graphql-http-url> <token> <nestId>
//
// Output and exit codes: see ws-flow.mjs. The graphql-ws client does not
// reconnect (retryAttempts: 0): a dropped socket fails the run.
import { ApolloClient, InMemoryCache, gql } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { createClient } from 'graphql-ws/client';

import { wsURL } from './lib.mjs';
import { countingWebSocket, followIssuance, newStats, run, usage } from './ws-flow.mjs';

const args = process.argv.slice(2);
usage(args, 3, 'node web/test/ws-apollo.mjs <graphql-http-url> <token> <nestId>');
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
const client = new ApolloClient({ link: new GraphQLWsLink(ws), cache: new InMemoryCache() });

function subscribe(query, variables, sink) {
  client.subscribe({ query: gql(query), variables, fetchPolicy: 'no-cache' }).subscribe({
    next: (result) => (result.error ? sink.error(result.error) : sink.next(result.data)),
    error: (err) => sink.error(err),
    complete: () => sink.complete(),
  });
}

// Every operation goes over the WebSocket link, the mutation too.
async function mutate(mutation, variables) {
  const result = await client.mutate({ mutation: gql(mutation), variables });
  if (result.error) throw result.error;
  return result.data;
}

run('ws-apollo.mjs', 50_000, () => followIssuance(subscribe, mutate, nestId), async () => {
  client.stop();
  await ws.dispose();
});
