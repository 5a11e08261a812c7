// Checks that a refused connection_init stops the real graphql-ws client
// instead of sending it into a reconnect storm.
//
//   node web/test/refused.mjs <graphql-http-url> <token> [want-close-code]
//
// Connects with the given token (an empty string sends no Authorization),
// subscribes, and waits for the client to give up. Then it waits a further
// second to count any reconnects and prints one JSON line:
//   {"closeCode": 4403, "reason": "Forbidden", "connections": 1}
// Exit 0 iff the close code is want-close-code (default 4403: a bad token;
// the server closes with 4401 for a missing one) and the client opened
// exactly one socket; 1 otherwise, 2 on bad usage.
//
// With retryAttempts: 0 the client still reconnects at once, without limit,
// after a close with 1000 while a subscription is pending (gqlgen's default
// close code for a refused connection_init); so one connection here means
// the server used a code the client treats as final.
import { createClient } from 'graphql-ws/client';
import WebSocket from 'ws';

import { describeError, wsURL } from './lib.mjs';

const TIMEOUT_MS = 15_000;
const SETTLE_MS = 1_000;

const args = process.argv.slice(2);
if (args.length < 2 || args.length > 3) {
  process.stderr.write('usage: node web/test/refused.mjs <graphql-http-url> <token> [want-close-code]\n');
  process.exit(2);
}
const [url, token] = args;
const want = Number(args[2] ?? 4403);

let connections = 0;
let closeCode = null;
let reason = '';

const client = createClient({
  url: wsURL(url),
  webSocketImpl: WebSocket,
  connectionParams: token ? { Authorization: `Bearer ${token}` } : {},
  retryAttempts: 0,
  on: {
    connecting: () => {
      connections++;
    },
    closed: (event) => {
      closeCode = event?.code ?? null;
      reason = event?.reason ?? '';
    },
  },
});

function report(extra) {
  clearTimeout(timer);
  const ok = closeCode === want && connections === 1;
  process.stdout.write(JSON.stringify({ closeCode, reason, connections, ...extra }) + '\n', () => {
    Promise.resolve(client.dispose()).finally(() => process.exit(ok ? 0 : 1));
  });
}

const timer = setTimeout(() => {
  process.stderr.write(`refused.mjs: the client did not stop within ${TIMEOUT_MS / 1000} s (${connections} connections)\n`);
  report({ stopped: false });
}, TIMEOUT_MS);

client.subscribe(
  { query: '{ __typename }' },
  {
    next: (payload) => {
      process.stderr.write(`refused.mjs: unexpected data ${JSON.stringify(payload)}\n`);
    },
    complete: () => {
      process.stderr.write('refused.mjs: the operation completed: the connection was accepted\n');
      setTimeout(() => report({ stopped: true, accepted: true }), SETTLE_MS);
    },
    error: (err) => {
      process.stderr.write(`refused.mjs: ${describeError(err)}\n`);
      // Stay a while: a client in a reconnect storm opens more sockets now.
      setTimeout(() => report({ stopped: true }), SETTLE_MS);
    },
  },
);
