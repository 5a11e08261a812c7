// The graphql-ws client against the per-connection operation limit
// (WS_MAX_SUBSCRIPTIONS, 2 in the test) and its own complete, on one socket:
//
//   node web/test/ws-limits.mjs <graphql-http-url> <token> <emptyNestId>
//
//   op-1, op-2: nestTasksUpdated of the (empty) nest: both run;
//   op-3: the same, one too many: the subscriber's error callback gets the
//         GraphQL error (RATE_LIMITED), the socket stays open;
//   op-1 is then completed by the client ("unsubscribed" line), and
//   op-4: the same again: it runs (the slot was freed);
//   then an issuance is requested over HTTP: op-2 and op-4 receive its
//   states, op-1 nothing.
// Every server message but keep-alives is printed ("message" lines, see
// ws-flow.mjs), so the test can check what was sent for each id, and
// {"event":"error","op":"op-3","errors":[…]} for op-3's error.
// Exit 0 when op-2 and op-4 each received a state of the issuance.
import { createClient } from 'graphql-ws/client';

import { describeError, wsURL } from './lib.mjs';
import { countingWebSocket, emit, newStats, requestIssuance, run, usage } from './ws-flow.mjs';

const args = process.argv.slice(2);
usage(args, 3, 'node web/test/ws-limits.mjs <graphql-http-url> <token> <emptyNestId>');
const [url, token, nestId] = args;

let seq = 0;
const client = createClient({
  url: wsURL(url),
  webSocketImpl: countingWebSocket(newStats(true)),
  connectionParams: { Authorization: `Bearer ${token}` },
  retryAttempts: 0,
  generateID: () => `op-${++seq}`,
});

const NEST = 'subscription($nest: ID!) { nestTasksUpdated(nestId: $nest) { __typename ... on IssuanceTask { id status version } } }';

// open subscribes to the nest; received resolves with the first state,
// failed with the error callback's argument.
function open(name) {
  let received;
  let failed;
  const first = new Promise((resolve, reject) => ((received = resolve), (failed = reject)));
  const unsubscribe = client.subscribe({ query: NEST, variables: { nest: nestId } }, {
    next: (result) => {
      emit({ event: 'next', op: name, task: result.data?.nestTasksUpdated ?? null });
      received(result);
    },
    error: (err) => {
      emit({ event: 'error', op: name, errors: Array.isArray(err) ? err : describeError(err) });
      failed(err);
    },
    complete: () => emit({ event: 'complete', op: name }),
  });
  return { first, unsubscribe };
}

run('ws-limits.mjs', 30_000, async () => {
  const op1 = open('op-1');
  const op2 = open('op-2');
  const op3 = open('op-3');
  await op3.first.then(
    () => {
      throw new Error('op-3 received data: the limit of 2 operations did not hold');
    },
    (err) => {
      if (!Array.isArray(err)) throw new Error(`op-3 failed with ${describeError(err)}, not GraphQL errors`);
    },
  );
  op1.unsubscribe();
  emit({ event: 'unsubscribed', op: 'op-1' });
  const op4 = open('op-4');
  await requestIssuance(url, token, nestId);
  await Promise.all([op2.first, op4.first]);
  // Give a message sent for op-1 despite its complete the time to arrive.
  await new Promise((resolve) => setTimeout(resolve, 300));
}, () => client.dispose());
