// What the graphql-ws client does after a close: it subscribes with STATIC
// connectionParams (the same token every time) and counts the sockets it
// opens until it gives up and reports the close to the subscriber.
//
//   node web/test/ws-retry.mjs <graphql-http-url> <token|""> <nestId> <retryAttempts> [initDelayMs]
//
// An empty token sends no Authorization. initDelayMs > 0 delays every
// connection_init (connectionParams waits), to meet the server's init
// timeout. Retries wait 50 ms · 2^n instead of the default seconds, so the
// run stays short; the number of attempts is the one given.
//
// Output: ws-flow.mjs's socket lines, {"event":"connected"} per
// acknowledged socket, then one line
//   {"event":"result","connections":6,"connected":1,"closes":[4403,…],
//    "error":{"code":4403,"reason":"…"},"gaveUp":true}
// where error is what the subscriber's error callback received. Exit 0
// when the client gave up with a close event, 1 otherwise.
import { createClient } from 'graphql-ws/client';

import { describeError, wsURL } from './lib.mjs';
import { countingWebSocket, emit, newStats, run, usage } from './ws-flow.mjs';

const SETTLE_MS = 500;

const args = process.argv.slice(2);
usage(args, 4, 'node web/test/ws-retry.mjs <graphql-http-url> <token|""> <nestId> <retryAttempts> [initDelayMs]', [1]);
const [url, token, nestId] = args;
const retryAttempts = Number(args[3]);
const initDelayMs = Number(args[4] ?? 0);

const stats = newStats();
let connected = 0;
const params = token ? { Authorization: `Bearer ${token}` } : {};

const client = createClient({
  url: wsURL(url),
  webSocketImpl: countingWebSocket(stats),
  connectionParams: initDelayMs > 0
    ? () => new Promise((resolve) => setTimeout(() => resolve(params), initDelayMs))
    : params,
  retryAttempts,
  retryWait: (n) => new Promise((resolve) => setTimeout(resolve, 50 * 2 ** n)),
  on: {
    connected: () => {
      connected++;
      emit({ event: 'connected' });
    },
  },
});

run('ws-retry.mjs', 40_000, () => new Promise((resolve, reject) => {
  client.subscribe({
    query: 'subscription($nest: ID!) { nestTasksUpdated(nestId: $nest) { __typename } }',
    variables: { nest: nestId },
  }, {
    next: (result) => emit({ event: 'next', op: 'nestTasksUpdated', task: result.data?.nestTasksUpdated ?? null }),
    complete: () => reject(new Error('the subscription completed instead of failing')),
    error: (err) => {
      const isClose = err && typeof err === 'object' && 'code' in err && 'reason' in err;
      // Stay a while: a client that had not given up would open more sockets now.
      setTimeout(() => {
        emit({
          event: 'result',
          connections: stats.connections,
          connected,
          closes: stats.closes,
          error: isClose ? { code: err.code, reason: String(err.reason || '') } : describeError(err),
          gaveUp: true,
        });
        if (isClose) resolve();
        else reject(new Error(`the client gave up with ${describeError(err)}, not a close`));
      }, SETTLE_MS);
    },
  });
}), () => client.dispose());
