// Uploads registry copies with Apollo Client and apollo-upload-client's
// UploadHttpLink, as an Apollo frontend does (the GraphQL multipart request
// spec, built by the library, not by hand): one file with uploadRegistry,
// the photos of a copy's pages with uploadRegistryPages (a list variable),
// and a file the server refuses.
//
//   node web/test/upload-apollo.mjs <graphql-http-url> <token> <nestId> <copy.pdf> <page.png>...
//
// stdout: one JSON line per operation, {"op", "data"} or {"op", "error":
// {"code", "message", "field"}}. Exit 0 when every operation ran (the Go
// test judges the answers), 1 on a transport failure, 2 on bad usage.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';

import { ApolloClient, CombinedGraphQLErrors, InMemoryCache, gql } from '@apollo/client';
import UploadHttpLink from 'apollo-upload-client/UploadHttpLink.mjs';

const [url, token, nestId, pdfPath, ...pagePaths] = process.argv.slice(2);
if (!url || !token || !nestId || !pdfPath || pagePaths.length === 0) {
  process.stderr.write('usage: node web/test/upload-apollo.mjs <graphql-http-url> <token> <nestId> <copy.pdf> <page.png>...\n');
  process.exit(2);
}

const client = new ApolloClient({
  link: new UploadHttpLink({ uri: url, headers: { Authorization: `Bearer ${token}` } }),
  cache: new InMemoryCache(),
});

const file = async (path, type) => new File([await readFile(path)], basename(path), { type });

const UPLOAD = gql`
  mutation Upload($nestId: ID!, $file: Upload!) {
    uploadRegistry(nestId: $nestId, file: $file) { file { id size } ocrTask { id status pageCount } }
  }
`;
const UPLOAD_PAGES = gql`
  mutation UploadPages($nestId: ID!, $pages: [Upload!]!) {
    uploadRegistryPages(nestId: $nestId, pages: $pages) { file { id size } ocrTask { id status pageCount } }
  }
`;

async function run(op, mutation, variables) {
  try {
    const { data } = await client.mutate({ mutation, variables });
    process.stdout.write(JSON.stringify({ op, data }) + '\n');
  } catch (err) {
    if (!CombinedGraphQLErrors.is(err)) throw err;
    const first = err.errors[0];
    process.stdout.write(JSON.stringify({ op, error: { code: first.extensions?.code, message: first.message, field: first.extensions?.field } }) + '\n');
  }
}

try {
  await run('pdf', UPLOAD, { nestId, file: await file(pdfPath, 'application/pdf') });
  const pages = await Promise.all(pagePaths.map((p) => file(p, 'image/png')));
  await run('pages', UPLOAD_PAGES, { nestId, pages });
  await run('refused', UPLOAD, { nestId, file: new File(['not a registry'], 'notes.txt', { type: 'text/plain' }) });
  await run('refusedPage', UPLOAD_PAGES, { nestId, pages: [pages[0], new File(['%PDF-1.4\n'], 'copy.pdf', { type: 'application/pdf' })] });
} catch (err) {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
}
