// Follows one issuance to its OCR result with Apollo Client's HttpLink,
// which subscribes over Apollo's multipart HTTP protocol, and prints every
// payload the server pushes.
//
//   node web/test/apollo-multipart.mjs <graphql-http-url> <token> <taskId>
//
// stdout: one JSON line per result, {"field": "issuanceTaskUpdated" |
// "ocrTaskUpdated", "payload": {"data": ...}}. Exit 0 when both
// subscriptions complete, 1 on an error (printed on stderr) or when
// nothing completes within 90 s, 2 on bad usage.
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';

const TIMEOUT_MS = 90_000;

const [url, token, taskId] = process.argv.slice(2);
if (!url || !token || !taskId) {
  process.stderr.write('usage: node web/test/apollo-multipart.mjs <graphql-http-url> <token> <taskId>\n');
  process.exit(2);
}

const client = new ApolloClient({
  link: new HttpLink({ uri: url, headers: { Authorization: `Bearer ${token}` } }),
  cache: new InMemoryCache(),
});

function follow(field, query, variables) {
  return new Promise((resolve, reject) => {
    let last;
    client.subscribe({ query, variables }).subscribe({
      next: (result) => {
        process.stdout.write(JSON.stringify({ field, payload: { data: result.data } }) + '\n');
        if (result.error) reject(result.error);
        last = result.data?.[field];
      },
      error: reject,
      complete: () => resolve(last),
    });
  });
}

const timer = setTimeout(() => {
  process.stderr.write(`apollo-multipart.mjs: no completion within ${TIMEOUT_MS / 1000} s\n`);
  process.exit(1);
}, TIMEOUT_MS);

try {
  const issuance = await follow('issuanceTaskUpdated',
    gql`subscription($id: ID!) { issuanceTaskUpdated(id: $id) { id status version ocrTask { id } } }`, { id: taskId });
  if (issuance?.status !== 'SUCCESS' || !issuance.ocrTask?.id) {
    throw new Error(`the issuance ended as ${JSON.stringify(issuance)}`);
  }
  await follow('ocrTaskUpdated',
    gql`subscription($id: ID!) { ocrTaskUpdated(id: $id) { id status version } }`, { id: issuance.ocrTask.id });
  clearTimeout(timer);
  client.stop();
  process.stdout.write('', () => process.exit(0));
} catch (err) {
  process.stderr.write(`apollo-multipart.mjs: ${err?.message || JSON.stringify(err)}\n`);
  clearTimeout(timer);
  process.stdout.write('', () => process.exit(1));
}
