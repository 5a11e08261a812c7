// A graphql-ws client whose server shuts down while it follows a nest: the
// instance closes the socket with 1001 (going away); the client retries
// (its defaults: 5 attempts, randomised exponential backoff), its url
// function names the other instance, it resubscribes there and still
// receives the final state.
//
//   node web/test/ws-failover.mjs <graphql-url-1> <graphql-url-2> <token> <nestId> <stop-url>
//
// The first socket goes to instance 1. Once it is acknowledged the script
// requests an issuance from instance 2; at the issuance's first state it
// GETs <stop-url>, which shuts instance 1 down (SIGTERM). It follows
// nestTasksUpdated until the issuance's OCR task is SUCCESS.
//
// Output: ws-flow.mjs's lines, plus {"event":"url","connection":2,"url":…}
// per socket and {"event":"stop","status":202} when the shutdown was asked.
// Exit 0 once the OCR task's SUCCESS arrived, 1 otherwise.
import { createClient } from 'graphql-ws/client';

import { wsURL } from './lib.mjs';
import { NEST, countingWebSocket, emit, followNest, newStats, requestIssuance, run, usage } from './ws-flow.mjs';

const args = process.argv.slice(2);
usage(args, 5, 'node web/test/ws-failover.mjs <graphql-url-1> <graphql-url-2> <token> <nestId> <stop-url>');
const [url1, url2, token, nestId, stopURL] = args;

const urls = [wsURL(url1), wsURL(url2)];
let dialed = 0;
let firstConnected;
const connected = new Promise((resolve) => (firstConnected = resolve));

const client = createClient({
  // A client-side list of instances: each new socket goes to the next one.
  url: () => {
    const url = urls[dialed % urls.length];
    emit({ event: 'url', connection: ++dialed, url });
    return url;
  },
  webSocketImpl: countingWebSocket(newStats()),
  connectionParams: { Authorization: `Bearer ${token}` },
  on: {
    connected: (_socket, _payload, retrying) => {
      emit({ event: 'connected', retrying: Boolean(retrying) });
      firstConnected();
    },
  },
});

let stopped = false;
async function stopFirst() {
  if (stopped) return;
  stopped = true;
  const res = await fetch(stopURL);
  emit({ event: 'stop', status: res.status });
}

run('ws-failover.mjs', 55_000, () => followNest({
  subscribeNest: (sink) => client.subscribe({ query: NEST, variables: { nest: nestId } }, sink),
  connected,
  requestTask: () => requestIssuance(url2, token, nestId),
  onState: (task) => {
    if (task.__typename === 'IssuanceTask') stopFirst().catch((e) => emit({ event: 'stop', error: String(e) }));
  },
}), () => client.dispose());
