// Follows one issuance to its OCR result with the real graphql-sse client,
// in either of its modes, and prints every payload the server pushes.
//
//   node web/test/sse.mjs <graphql-http-url> <distinct|single> <taskId> <token> [<token> ...]
//
// The client subscribes to issuanceTaskUpdated until the server completes
// it, then to ocrTaskUpdated of the task's OCR task until that completes.
// Its headers function hands out the tokens in order, the last one for
// every later call: a first short-lived token shows that the stream ends at
// its expiry and the client carries on with a fresh one.
//
// stdout: one JSON line per payload, {"field": "issuanceTaskUpdated" |
// "ocrTaskUpdated", "payload": {...}, "calls": <headers calls so far>},
// then {"headersCalls": n}.
// Exit 0 when both subscriptions complete, 1 on an error (printed on
// stderr) or when nothing completes within 90 s, 2 on bad usage.
import { createClient } from 'graphql-sse';

const TIMEOUT_MS = 90_000;

const [url, mode, taskId, ...tokens] = process.argv.slice(2);
if (!url || !['distinct', 'single'].includes(mode) || !taskId || tokens.length === 0) {
  process.stderr.write('usage: node web/test/sse.mjs <graphql-http-url> <distinct|single> <taskId> <token> [<token> ...]\n');
  process.exit(2);
}

let headersCalls = 0;
const client = createClient({
  url,
  singleConnection: mode === 'single',
  headers: () => {
    const token = tokens[Math.min(headersCalls, tokens.length - 1)];
    headersCalls++;
    return { Authorization: `Bearer ${token}` };
  },
  // The library's default backoff; a stream dropped at the token's expiry
  // is retried (so is a refused request, up to retryAttempts times).
  retryAttempts: 5,
});

function describe(err) {
  if (Array.isArray(err)) return `GraphQL errors: ${JSON.stringify(err)}`;
  if (err instanceof Error) return err.message || String(err);
  return JSON.stringify(err);
}

function follow(field, query, variables) {
  return new Promise((resolve, reject) => {
    let last;
    client.subscribe({ query, variables }, {
      next: (payload) => {
        process.stdout.write(JSON.stringify({ field, payload, calls: headersCalls }) + '\n');
        if (payload.errors) reject(payload.errors);
        last = payload.data?.[field];
      },
      error: reject,
      complete: () => resolve(last),
    });
  });
}

const timer = setTimeout(() => {
  process.stderr.write(`sse.mjs: no completion within ${TIMEOUT_MS / 1000} s\n`);
  process.exit(1);
}, TIMEOUT_MS);

try {
  const issuance = await follow('issuanceTaskUpdated',
    'subscription($id: ID!) { issuanceTaskUpdated(id: $id) { id status version ocrTask { id } } }', { id: taskId });
  if (issuance?.status !== 'SUCCESS' || !issuance.ocrTask?.id) {
    throw new Error(`the issuance ended as ${JSON.stringify(issuance)}`);
  }
  await follow('ocrTaskUpdated',
    'subscription($id: ID!) { ocrTaskUpdated(id: $id) { id status version } }', { id: issuance.ocrTask.id });
  process.stdout.write(JSON.stringify({ headersCalls }) + '\n');
  clearTimeout(timer);
  client.dispose();
  process.stdout.write('', () => process.exit(0));
} catch (err) {
  process.stderr.write(`sse.mjs: ${describe(err)}\n`);
  clearTimeout(timer);
  client.dispose();
  process.stdout.write('', () => process.exit(1));
}
