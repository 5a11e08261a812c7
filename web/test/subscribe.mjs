// Follows one issuance task with the real graphql-ws client, as the web and
// app frontends do, and prints every payload the server pushes.
//
//   node web/test/subscribe.mjs <graphql-http-url> <token> <taskId>
//
// stdout: one JSON line per received payload ({"data": {...}} as sent).
// Exit 0 when the server completes the subscription, 1 on an error (a
// GraphQL error, a refused or dropped socket; printed on stderr), 2 on bad
// usage, 1 when nothing completes within 60 s. The client never reconnects
// (retryAttempts: 0): a dropped socket is an error here, not a retry.
import { createClient } from 'graphql-ws/client';
import WebSocket from 'ws';

import { describeError, wsURL } from './lib.mjs';

const TIMEOUT_MS = 60_000;

const query = `subscription($id: ID!) {
  issuanceTaskUpdated(id: $id) { id status version attempt file { id } }
}`;

const [url, token, taskId] = process.argv.slice(2);
if (!url || !token || !taskId) {
  process.stderr.write('usage: node web/test/subscribe.mjs <graphql-http-url> <token> <taskId>\n');
  process.exit(2);
}

const client = createClient({
  url: wsURL(url),
  webSocketImpl: WebSocket,
  connectionParams: { Authorization: `Bearer ${token}` },
  retryAttempts: 0,
});

function finish(code, err) {
  if (err !== undefined) process.stderr.write(`subscribe.mjs: ${describeError(err)}\n`);
  clearTimeout(timer);
  // dispose closes the socket (1000); exit only once stdout is flushed.
  Promise.resolve(client.dispose()).finally(() => {
    process.stdout.write('', () => process.exit(code));
  });
}

const timer = setTimeout(() => finish(1, new Error(`no completion within ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS);

client.subscribe(
  { query, variables: { id: taskId } },
  {
    next: (payload) => process.stdout.write(JSON.stringify(payload) + '\n'),
    error: (err) => finish(1, err),
    complete: () => finish(0),
  },
);
