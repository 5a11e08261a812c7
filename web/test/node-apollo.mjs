// Apollo Client over HTTP, as a Relay-minded frontend uses the typed
// schema: creates 100 nests through the API and lists them (nests(first:
// 100); nests(last: 10) is the list's end), refetches one through node(id:)
// with an inline fragment (the cache keeps one Nest for both), asks
// node(id:) for another user's nest (null, no error), and follows an
// issuance the simulator fails until it reads its errorCode, a
// TaskErrorCode value.
//
//   node web/test/node-apollo.mjs <graphql-http-url> <token> <another user's nest id> <expected error code>
//
// stdout: one JSON line {"nests", "refetched", "foreign", "errorCode",
// "errorCodes"}. Exit 0 when every check passes, 1 on a failure (on
// stderr), 2 on bad usage.
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';

const TIMEOUT_MS = 120_000;
const [url, token, foreignNest, expectedCode] = process.argv.slice(2);
if (!url || !token || !foreignNest || !expectedCode) {
  process.stderr.write('usage: node web/test/node-apollo.mjs <graphql-http-url> <token> <another user\'s nest id> <expected error code>\n');
  process.exit(2);
}

const client = new ApolloClient({
  link: new HttpLink({ uri: url, headers: { Authorization: `Bearer ${token}` } }),
  cache: new InMemoryCache(),
});

async function query(doc, variables, fetchPolicy = 'network-only') {
  const result = await client.query({ query: doc, variables, fetchPolicy });
  if (result.error) throw result.error;
  return result.data;
}

async function mutate(doc, variables) {
  const result = await client.mutate({ mutation: doc, variables });
  if (result.error) throw result.error;
  return result.data;
}

function check(ok, message) {
  if (!ok) throw new Error(message);
}

const CREATE = gql`mutation Create($in: CreateNestInput!) { createNest(input: $in) { id title } }`;
// The page of 100 asks for nodes alone: with edges or pageInfo beside them
// (and the __typename Apollo adds to each) it is over the complexity limit
// of 1000 as lists are priced today.
const PAGE = gql`query Nests { nests(first: 100) { nodes { id title } } }`;
const TAIL = gql`query Tail { nests(last: 10) { nodes { id } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;
const NODE = gql`query Refetch($id: ID!) { node(id: $id) { id ... on Nest { title registryUniqueNo } } }`;
const REQUEST = gql`mutation Request($nest: ID!) { requestIssuance(nestId: $nest) { task { id status } } }`;
const TASK = gql`query Task($id: ID!) { node(id: $id) { id ... on IssuanceTask { status errorCode attempt } } }`;
const CODES = gql`query Codes { __type(name: "TaskErrorCode") { enumValues { name } } }`;

async function main() {
  // 100 nests, ten requests at a time; registry numbers this run alone uses.
  const prefix = `1101${String(Date.now() % 1_000_000).padStart(6, '0')}`;
  const created = [];
  for (let i = 0; i < 100; i += 10) {
    const batch = await Promise.all(Array.from({ length: 10 }, (_, k) => mutate(CREATE, {
      in: { title: `집 ${i + k}`, address: '서울특별시 마포구 월드컵북로 400', registryUniqueNo: prefix + String(i + k).padStart(4, '0') },
    })));
    created.push(...batch.map((d) => d.createNest));
  }

  const page = (await query(PAGE, {})).nests;
  const listed = page.nodes.map((n) => n.id);
  check(listed.length === 100, `nests(first: 100) listed ${listed.length} nests`);
  check(created.every((n) => listed.includes(n.id)), 'nests(first: 100) lacks a nest just created');
  const tail = (await query(TAIL, {})).nests;
  check(JSON.stringify(tail.nodes.map((n) => n.id)) === JSON.stringify(listed.slice(90)),
    'nests(last: 10) is not the end of nests(first: 100)');
  check(tail.pageInfo.hasPreviousPage && !tail.pageInfo.hasNextPage && tail.pageInfo.startCursor && tail.pageInfo.endCursor,
    `pageInfo of nests(last: 10): ${JSON.stringify(tail.pageInfo)}`);

  // Refetch one through node(id:): the same Nest, one cache entry.
  const one = page.nodes[42];
  const node = (await query(NODE, { id: one.id })).node;
  check(node?.__typename === 'Nest' && node.id === one.id && node.title === one.title, `node(id:) gave ${JSON.stringify(node)}`);
  const cached = client.cache.readFragment({
    id: client.cache.identify({ __typename: 'Nest', id: one.id }),
    fragment: gql`fragment Cached on Nest { id title registryUniqueNo }`,
  });
  check(cached?.title === one.title && cached.registryUniqueNo === node.registryUniqueNo, `the cache's Nest: ${JSON.stringify(cached)}`);

  // Another user's nest: null, and no error (query would have thrown).
  const foreign = (await query(NODE, { id: foreignNest })).node;
  check(foreign === null, `another user's nest through node(id:): ${JSON.stringify(foreign)}`);

  // An issuance the simulator fails: its errorCode, an enum value.
  const task = (await mutate(REQUEST, { nest: created[0].id })).requestIssuance.task;
  const deadline = Date.now() + 90_000;
  let seen;
  for (;;) {
    seen = (await query(TASK, { id: task.id })).node;
    if (seen?.status === 'FAILED' || seen?.status === 'SUCCESS' || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  check(seen?.status === 'FAILED', `the issuance ended as ${JSON.stringify(seen)}`);
  const codes = (await query(CODES, {})).__type.enumValues.map((v) => v.name);
  check(seen.errorCode === expectedCode && codes.includes(seen.errorCode),
    `errorCode ${seen.errorCode}: want ${expectedCode}, one of ${codes.join(', ')}`);

  process.stdout.write(JSON.stringify({ nests: listed.length, refetched: node.id, foreign, errorCode: seen.errorCode, errorCodes: codes }) + '\n');
}

const timer = setTimeout(() => {
  process.stderr.write(`node-apollo.mjs: not done within ${TIMEOUT_MS / 1000} s\n`);
  process.exit(1);
}, TIMEOUT_MS);

try {
  await main();
  clearTimeout(timer);
  client.stop();
  process.stdout.write('', () => process.exit(0));
} catch (err) {
  process.stderr.write(`node-apollo.mjs: ${err?.message || JSON.stringify(err)}\n`);
  clearTimeout(timer);
  process.stdout.write('', () => process.exit(1));
}
