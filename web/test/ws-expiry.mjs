// A client whose token expires while it follows a nest: the server closes
// the socket with 4403 at the token's exp; the client re-runs its
// connectionParams FUNCTION (which fetches a fresh token), reconnects,
// resubscribes and still receives the final state.
//
//   node web/test/ws-expiry.mjs graphql-ws|legacy <graphql-http-url> <token-url> <nestId>
//
// graphql-ws: the graphql-ws client with its defaults for retries (5
// attempts, randomised exponential backoff). legacy: subscriptions-transport-ws's
// SubscriptionClient with reconnect: true (it reconnects after any close and
// sends its running operations' start again).
// <token-url> answers GET with a fresh short-lived token (text/plain).
// Once the first socket is acknowledged
// the script requests an issuance (POST requestIssuance with a fresh token)
// and follows nestTasksUpdated until that issuance's OCR task is SUCCESS.
//
// Output (besides ws-flow.mjs's socket lines, "next" lines with op
// nestTasksUpdated and the task's __typename):
//   {"event":"params","call":2,"exp":…}  connectionParams ran: a token was fetched (its exp, Unix s)
//   {"event":"connected","retrying":true} a socket was acknowledged
//   {"event":"requested","task":"…"}      the issuance the run follows
// Exit 0 once the OCR task's SUCCESS arrived, 1 otherwise (see ws-flow.mjs).
import { createClient } from 'graphql-ws/client';
import stws from 'subscriptions-transport-ws';

import { wsURL } from './lib.mjs';
import { NEST, countingWebSocket, emit, followNest, newStats, requestIssuance, run, usage } from './ws-flow.mjs';

const args = process.argv.slice(2);
usage(args, 4, 'node web/test/ws-expiry.mjs graphql-ws|legacy <graphql-http-url> <token-url> <nestId>');
const [kind, url, tokenURL, nestId] = args;
if (kind !== 'graphql-ws' && kind !== 'legacy') usage([], 1, 'node web/test/ws-expiry.mjs graphql-ws|legacy …');

async function freshToken() {
  const res = await fetch(tokenURL);
  if (!res.ok) throw new Error(`GET ${tokenURL}: ${res.status} ${await res.text()}`);
  return (await res.text()).trim();
}

// tokenExp returns a JWT's exp claim (Unix seconds), read without checking.
function tokenExp(token) {
  const payload = token.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')).exp;
}

let calls = 0;
let firstConnected;
const connected = new Promise((resolve) => (firstConnected = resolve));

async function connectionParams() {
  const call = ++calls;
  const token = await freshToken();
  emit({ event: 'params', call, exp: tokenExp(token) });
  return { Authorization: `Bearer ${token}` };
}

function onConnected(retrying) {
  emit({ event: 'connected', retrying });
  firstConnected();
}

// subscribeNest(sink) and dispose() for the client under test; sink.next
// receives the whole result ({data, errors}).
let subscribeNest;
let dispose;
if (kind === 'graphql-ws') {
  const client = createClient({
    url: wsURL(url),
    webSocketImpl: countingWebSocket(newStats()),
    connectionParams,
    on: { connected: (_socket, _payload, retrying) => onConnected(Boolean(retrying)) },
  });
  subscribeNest = (sink) => client.subscribe({ query: NEST, variables: { nest: nestId } }, sink);
  dispose = () => client.dispose();
} else {
  const client = new stws.SubscriptionClient(
    wsURL(url),
    { reconnect: true, lazy: true, connectionParams },
    countingWebSocket(newStats()),
  );
  client.onConnected(() => onConnected(false));
  client.onReconnected(() => onConnected(true));
  subscribeNest = (sink) => client.request({ query: NEST, variables: { nest: nestId } }).subscribe(sink);
  dispose = () => client.close();
}

run('ws-expiry.mjs', 55_000, () => followNest({
  subscribeNest,
  connected,
  requestTask: async () => requestIssuance(url, await freshToken(), nestId),
}), () => dispose());
