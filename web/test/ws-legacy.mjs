// The legacy subscriptions-transport-ws client (SubscriptionClient, the
// "graphql-ws" subprotocol) against the server, with ws as its WebSocket.
//
//   node web/test/ws-legacy.mjs follow  <graphql-http-url> <token> <nestId>
//   node web/test/ws-legacy.mjs refused <graphql-http-url> <token>
//
// follow: requests an issuance (a mutation over the socket), follows it to
// SUCCESS, then its OCR task (output and exit codes: see ws-flow.mjs).
// refused: connects with a token the server refuses and prints, besides the
// socket lines, {"event":"connection_error","payload":…} when the client
// reports the refusal through its connectionCallback; it then waits a
// second for reconnects and ends (exit 0 once the refusal was reported).
// The client is built with reconnect: false, its default: with reconnect
// true it reconnects after any close, whatever the code.
import stws from 'subscriptions-transport-ws';

import { describeError, wsURL } from './lib.mjs';
import { countingWebSocket, emit, followIssuance, newStats, run, usage } from './ws-flow.mjs';

const { SubscriptionClient } = stws;
const SETTLE_MS = 1_000;

const [mode, ...args] = process.argv.slice(2);
if (mode === 'follow') {
  usage(args, 3, 'node web/test/ws-legacy.mjs follow <graphql-http-url> <token> <nestId>');
} else if (mode === 'refused') {
  usage(args, 2, 'node web/test/ws-legacy.mjs refused <graphql-http-url> <token>');
} else {
  usage([], 1, 'node web/test/ws-legacy.mjs follow|refused <graphql-http-url> <token> [nestId]');
}
const [url, token, nestId] = args;

let connectionError;
let reported;
const refusal = new Promise((resolve) => (reported = resolve));

const client = new SubscriptionClient(
  wsURL(url),
  {
    connectionParams: { Authorization: `Bearer ${token}` },
    reconnect: false,
    connectionCallback: (err) => {
      if (!err) return;
      connectionError = err;
      emit({ event: 'connection_error', payload: err });
      reported();
    },
  },
  countingWebSocket(newStats()),
);

function subscribe(query, variables, sink) {
  client.request({ query, variables }).subscribe({
    next: (result) => (result.errors ? sink.error(result.errors) : sink.next(result.data)),
    error: (err) => sink.error(err),
    complete: () => sink.complete(),
  });
}

// A mutation is an operation like any other on this protocol: data, then
// complete.
function mutate(query, variables) {
  return new Promise((resolve, reject) => {
    let data;
    subscribe(query, variables, {
      next: (d) => (data = d),
      error: reject,
      complete: () => (data ? resolve(data) : reject(new Error('the mutation completed without data'))),
    });
  });
}

if (mode === 'follow') {
  run('ws-legacy.mjs', 50_000, () => followIssuance(subscribe, mutate, nestId), () => client.close());
} else {
  run('ws-legacy.mjs', 15_000, async () => {
    subscribe("subscription { ocrTaskUpdated(id: \"0\") { id } }", {}, {
      next: (data) => process.stderr.write(`ws-legacy.mjs: unexpected data ${JSON.stringify(data)}\n`),
      error: (err) => process.stderr.write(`ws-legacy.mjs: operation error: ${describeError(err)}\n`),
      complete: () => {},
    });
    await refusal;
    // Stay a while: a client that reconnects would open more sockets now.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    if (!connectionError) throw new Error('no connection_error');
  }, () => client.close());
}
