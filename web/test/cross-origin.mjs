// Uses the API from a browser page served on another origin, as a frontend
// on its own dev server does: four clients each follow a live issuance,
// and a page on an origin that BROWSER_ORIGINS does not list is refused.
//
//   node web/test/cross-origin.mjs <apiBase> <token> <pagePort>
//
// <apiBase> is the server (http://127.0.0.1:<apiPort>), <token> a user's
// bearer token, <pagePort> a free port whose origin, http://localhost:<pagePort>,
// the server lists in BROWSER_ORIGINS. localhost and 127.0.0.1 are different
// origins, so every request of the page is cross-origin.
//
// A small browser entry importing graphql-ws, graphql-sse, @apollo/client
// (HttpLink) and @apollo/client/link/batch-http (BatchHttpLink) is bundled
// in memory with esbuild's JS API (nothing is written to disk) and served
// with a blank page by a node HTTP server on that port. In Chromium
// (CHROMIUM_PATH, default Debian's, see lib.mjs; driven by playwright-core),
// on that page:
//
// 1. for each client, a nest is created and its issuance requested through
//    the API by that client, then the task followed live to SUCCESS:
//    graphql-ws (WebSocket), graphql-sse in single-connection mode (PUT,
//    X-GraphQL-Event-Stream-Token), Apollo Client over HttpLink (a multipart
//    subscription), Apollo Client over BatchHttpLink (polling the task and
//    its nest, two queries batched into one POST each time). The statuses
//    must come in order (PENDING, PROCESSING, SUCCESS as seen: at least
//    PROCESSING then SUCCESS), versions must grow, the last must be SUCCESS;
//    the batch client's POSTs must really carry arrays of two operations.
// 2. extensions.cost {requested, limit} of a plain query is read from the
//    page, by fetch and through Apollo Client (a link that reads the
//    result's extensions), and from a mutation's result.
// 3. the same page on a second origin that is not listed
//    (http://localhost:<another port>): fetch to /graphql must fail as the
//    browser refuses it (CORS), and a graphql-ws client must fail to
//    connect (the server answers the handshake 403), receiving nothing.
//
// stdout: one JSON line per step; each client's line has its statuses,
// versions and when each arrived. Exit 0 on success, 1 on a failed check
// (the reason on stderr, with the browser's console and the page's
// /graphql requests and their answers), 2 on bad usage. Every wait has a
// deadline.
import { createServer, request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { CheckError, check, chromiumLaunchOptions, step } from './lib.mjs';

const args = process.argv.slice(2);
if (args.length !== 3 || !/^https?:\/\//.test(args[0]) || !/^\d+$/.test(args[2])) {
  process.stderr.write('usage: node web/test/cross-origin.mjs <apiBase> <token> <pagePort>\n');
  process.exit(2);
}
const [apiBase, token, pagePortArg] = args;
const api = apiBase.replace(/\/+$/, '');
const graphqlURL = `${api}/graphql`;
const pagePort = Number(pagePortArg);

// One client's flow: two mutations and a task's few seconds of simulated
// work, under -race on shared cores.
const FLOW_MS = 60_000;
// A refusal is immediate; this only bounds a wait that should not happen.
const REFUSAL_MS = 15_000;
// The whole run.
const TOTAL_MS = 240_000;

const webDir = fileURLToPath(new URL('..', import.meta.url));


// withDeadline bounds a promise (a page.evaluate, a server start).
function withDeadline(promise, ms, what) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new CheckError(`${what}: no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

// The page's code. Each function of window.crossOrigin runs one client's
// flow and resolves to what it saw, or rejects with what went wrong; each
// has its own deadline.
const entry = `
import { createClient as createWsClient } from 'graphql-ws';
import { createClient as createSseClient } from 'graphql-sse';
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { BatchHttpLink } from '@apollo/client/link/batch-http';
import { tap } from 'rxjs';

const CREATE_NEST = 'mutation CreateNest($in: CreateNestInput!) { createNest(input: $in) { id } }';
const REQUEST_ISSUANCE = 'mutation RequestIssuance($id: ID!) { requestIssuance(nestId: $id) { task { id status version } reused } }';
const FOLLOW = 'subscription Follow($id: ID!) { issuanceTaskUpdated(id: $id) { id status version } }';
const TASK = 'query Task($id: ID!) { issuanceTask(id: $id) { id status version } }';
const NEST = 'query NestLatest($id: ID!) { nest(id: $id) { id latestIssuance { id status version } } }';
const NEST_TASKS = 'subscription NestTasks($id: ID!) { nestTasksUpdated(nestId: $id) { __typename ... on IssuanceTask { id status version } } }';
const PLAIN = 'query Plain { nests(first: 5) { nodes { id title } } }';
const FINAL = ['SUCCESS', 'FAILED'];

let nests = 0;
function nestInput(client) {
  nests++;
  // 14 digits, distinct per nest and per run.
  const no = '1101' + String(Date.now() % 1e6).padStart(6, '0') + String(nests).padStart(4, '0');
  return { title: 'cross-origin ' + client, address: '서울특별시 마포구 월드컵북로 400', registryUniqueNo: no };
}

function describe(err) {
  if (err && typeof err === 'object' && 'code' in err && 'reason' in err) {
    return 'socket closed: ' + err.code + ' ' + (err.reason || '(no reason)');
  }
  if (Array.isArray(err)) return 'GraphQL errors: ' + JSON.stringify(err);
  // graphql-ws hands a failed socket's error event; graphql-sse a
  // NetworkError with the refused response, if there was one.
  if (typeof Event !== 'undefined' && err instanceof Event) return 'a WebSocket ' + err.type + ' event: the connection failed';
  if (err instanceof Error && err.response) return err.name + ': ' + err.response.status + ' ' + err.response.statusText;
  if (err instanceof Error) return (err.name || 'Error') + ': ' + (err.message || String(err));
  if (err && typeof err === 'object' && 'message' in err) return String(err.message);
  return String(err);
}

function bounded(ms, what, run) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(what + ': no end within ' + ms / 1000 + ' s')), ms);
    Promise.resolve().then(run).then(
      (v) => { clearTimeout(timer); resolve(v); },
      (e) => { clearTimeout(timer); reject(e instanceof Error ? e : new Error(describe(e))); });
  });
}

// A task's states as one client sees them, in order. A subscription never
// repeats a version; a poll sees the same state until it changes.
function tracker(client, polling) {
  const t0 = performance.now();
  const seen = [];
  return {
    seen,
    add(task) {
      if (!task || typeof task.version !== 'number' || typeof task.status !== 'string') {
        throw new Error(client + ': a task without status or version: ' + JSON.stringify(task));
      }
      const last = seen[seen.length - 1];
      if (last && polling && task.version === last.version) return;
      if (last && task.version <= last.version) {
        throw new Error(client + ': version ' + task.version + ' (' + task.status + ') after ' + last.version + ' (' + last.status + ')');
      }
      seen.push({ status: task.status, version: task.version, ms: Math.round(performance.now() - t0) });
    },
    done() { const last = seen[seen.length - 1]; return !!last && FINAL.includes(last.status); },
  };
}

function data(result, field) {
  if (result?.errors?.length) throw new Error(field + ': ' + JSON.stringify(result.errors));
  if (result?.error) throw new Error(field + ': ' + describe(result.error));
  const v = result?.data?.[field];
  if (v == null) throw new Error(field + ': no data in ' + JSON.stringify(result));
  return v;
}

function wsURL(url) { return url.replace(/^http/, 'ws'); }

// graphql-ws: both mutations and the subscription on one socket.
async function graphqlWs({ url, token }) {
  const client = createWsClient({
    url: wsURL(url), connectionParams: { Authorization: 'Bearer ' + token },
    retryAttempts: 0, lazyCloseTimeout: 5000,
  });
  const once = (query, variables) => new Promise((resolve, reject) => {
    let result;
    client.subscribe({ query, variables }, {
      next: (r) => { result = r; }, error: (e) => reject(new Error(describe(e))), complete: () => resolve(result),
    });
  });
  try {
    return await bounded(${FLOW_MS}, 'graphql-ws', async () => {
      const nest = data(await once(CREATE_NEST, { in: nestInput('graphql-ws') }), 'createNest').id;
      const task = data(await once(REQUEST_ISSUANCE, { id: nest }), 'requestIssuance').task;
      const t = tracker('graphql-ws', false);
      await new Promise((resolve, reject) => {
        client.subscribe({ query: FOLLOW, variables: { id: task.id } }, {
          next: (r) => { try { t.add(data(r, 'issuanceTaskUpdated')); } catch (e) { reject(e); } },
          error: (e) => reject(new Error(describe(e))),
          complete: resolve,
        });
      });
      return { nest, task: task.id, seen: t.seen };
    });
  } finally {
    await client.dispose();
  }
}

// graphql-sse in single-connection mode: one reservation (PUT), its stream,
// and every operation POSTed with the reservation's token; then a nest
// subscription (it stays open) stopped by the client, which DELETEs it.
async function graphqlSse({ url, token }) {
  const client = createSseClient({
    url, singleConnection: true, headers: { Authorization: 'Bearer ' + token },
    retryAttempts: 0, lazyCloseTimeout: 5000,
  });
  const once = (query, variables) => new Promise((resolve, reject) => {
    let result;
    client.subscribe({ query, variables }, {
      next: (r) => { result = r; }, error: (e) => reject(new Error(describe(e))), complete: () => resolve(result),
    });
  });
  try {
    return await bounded(${FLOW_MS}, 'graphql-sse', async () => {
      const nest = data(await once(CREATE_NEST, { in: nestInput('graphql-sse') }), 'createNest').id;
      const task = data(await once(REQUEST_ISSUANCE, { id: nest }), 'requestIssuance').task;
      const t = tracker('graphql-sse', false);
      await new Promise((resolve, reject) => {
        client.subscribe({ query: FOLLOW, variables: { id: task.id } }, {
          next: (r) => { try { t.add(data(r, 'issuanceTaskUpdated')); } catch (e) { reject(e); } },
          error: (e) => reject(new Error(describe(e))),
          complete: resolve,
        });
      });
      // The client stops it after its first result: graphql-sse then sends
      // DELETE ?operationId= and completes the sink when that is answered 200.
      const stoppedAfter = await new Promise((resolve, reject) => {
        let got = 0;
        const stop = client.subscribe({ query: NEST_TASKS, variables: { id: nest } }, {
          next: (r) => {
            try { data(r, 'nestTasksUpdated'); } catch (e) { reject(e); return; }
            if (got++ === 0) setTimeout(() => stop(), 0);
          },
          error: (e) => reject(new Error('stopping nestTasksUpdated: ' + describe(e))),
          complete: () => resolve(got),
        });
      });
      return { nest, task: task.id, seen: t.seen, stoppedAfter };
    });
  } finally {
    client.dispose();
  }
}

function apolloClient(link) {
  return new ApolloClient({
    link, cache: new InMemoryCache(),
    // Sent as apollographql-client-name and -version: the preflight must allow them.
    clientAwareness: { name: 'dungji-cross-origin-test', version: '1' },
  });
}

// Apollo Client over HttpLink: the mutations as JSON, the subscription as
// Apollo's multipart HTTP subscription.
async function apolloHttp({ url, token }) {
  const client = apolloClient(new HttpLink({ uri: url, headers: { Authorization: 'Bearer ' + token } }));
  try {
    return await bounded(${FLOW_MS}, 'apollo-http', async () => {
      const created = await client.mutate({ mutation: gql(CREATE_NEST), variables: { in: nestInput('apollo-http') } });
      const nest = data(created, 'createNest').id;
      const requested = await client.mutate({ mutation: gql(REQUEST_ISSUANCE), variables: { id: nest } });
      const task = data(requested, 'requestIssuance').task;
      const t = tracker('apollo-http', false);
      await new Promise((resolve, reject) => {
        client.subscribe({ query: gql(FOLLOW), variables: { id: task.id }, fetchPolicy: 'no-cache' }).subscribe({
          next: (r) => { try { t.add(data(r, 'issuanceTaskUpdated')); } catch (e) { reject(e); } },
          error: (e) => reject(new Error(describe(e))),
          complete: resolve,
        });
      });
      return { nest, task: task.id, seen: t.seen, mutationCost: created.extensions?.cost ?? null };
    });
  } finally {
    client.stop();
  }
}

// Apollo Client over BatchHttpLink: the mutations, then a poll every 250 ms
// of the task and of its nest, the two queries sent together so that the
// link batches them into one POST.
async function apolloBatch({ url, token }) {
  const client = apolloClient(new BatchHttpLink({
    uri: url, headers: { Authorization: 'Bearer ' + token }, batchMax: 10, batchInterval: 20,
  }));
  try {
    return await bounded(${FLOW_MS}, 'apollo-batch', async () => {
      const nest = data(await client.mutate({ mutation: gql(CREATE_NEST), variables: { in: nestInput('apollo-batch') } }), 'createNest').id;
      const task = data(await client.mutate({ mutation: gql(REQUEST_ISSUANCE), variables: { id: nest } }), 'requestIssuance').task;
      const t = tracker('apollo-batch', true);
      let polls = 0;
      while (!t.done()) {
        const [a, b] = await Promise.all([
          client.query({ query: gql(TASK), variables: { id: task.id }, fetchPolicy: 'network-only' }),
          client.query({ query: gql(NEST), variables: { id: nest }, fetchPolicy: 'network-only' }),
        ]);
        polls++;
        const got = data(a, 'issuanceTask');
        const latest = data(b, 'nest').latestIssuance;
        if (latest?.id !== task.id) throw new Error('apollo-batch: the nest\\'s latest issuance is ' + JSON.stringify(latest) + ', not ' + task.id);
        t.add(got);
        if (!t.done()) await new Promise((r) => setTimeout(r, 250));
      }
      return { nest, task: task.id, seen: t.seen, polls };
    });
  } finally {
    client.stop();
  }
}

// extensions.cost of a plain query, as the page reads it: from fetch's
// answer, and from Apollo Client (a link before HttpLink reads each
// result's extensions, which is where Apollo has them for a query).
async function cost({ url, token }) {
  return bounded(${FLOW_MS}, 'cost', async () => {
    const resp = await fetch(url, {
      method: 'POST',
      headers: { Authorization: 'Bearer ' + token, 'Content-Type': 'application/json', Accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query: PLAIN }),
    });
    const body = await resp.json();
    let seen;
    const capture = new ApolloLink((operation, forward) => forward(operation).pipe(tap((r) => { seen = r.extensions; })));
    const client = apolloClient(ApolloLink.from([capture, new HttpLink({ uri: url, headers: { Authorization: 'Bearer ' + token } })]));
    try {
      const r = await client.query({ query: gql(PLAIN), fetchPolicy: 'network-only' });
      data(r, 'nests');
    } finally {
      client.stop();
    }
    return {
      fetch: { status: resp.status, contentType: resp.headers.get('Content-Type'), cost: body.extensions?.cost ?? null, errors: body.errors ?? null },
      apollo: { cost: seen?.cost ?? null },
    };
  });
}

// From an origin that is not listed: fetch must be refused by the browser.
async function refusedFetch({ url, token }) {
  try {
    const resp = await fetch(url, {
      method: 'POST',
      headers: { Authorization: 'Bearer ' + token, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: PLAIN }),
    });
    return { refused: false, status: resp.status, body: await resp.text() };
  } catch (e) {
    return { refused: true, name: e.name, message: e.message };
  }
}

// From an origin that is not listed: graphql-ws must fail to connect and
// receive nothing.
function refusedWs({ url, token, taskId }) {
  return new Promise((resolve) => {
    const events = [];
    const client = createWsClient({
      url: wsURL(url), connectionParams: { Authorization: 'Bearer ' + token }, retryAttempts: 0,
      on: {
        connecting: () => events.push('connecting'),
        opened: () => events.push('opened'),
        connected: () => events.push('connected'),
        closed: (e) => events.push('closed ' + (e?.code ?? '?')),
        error: () => events.push('error'),
      },
    });
    const end = (outcome) => { clearTimeout(timer); client.dispose(); resolve({ ...outcome, events }); };
    const timer = setTimeout(() => end({ outcome: 'no end within ${REFUSAL_MS / 1000} s' }), ${REFUSAL_MS});
    client.subscribe({ query: FOLLOW, variables: { id: taskId } }, {
      next: (r) => events.push('next ' + JSON.stringify(r)),
      error: (e) => end({ outcome: 'error', error: describe(e), code: e?.code ?? null }),
      complete: () => end({ outcome: 'complete' }),
    });
  });
}

window.crossOrigin = { graphqlWs, graphqlSse, apolloHttp, apolloBatch, cost, refusedFetch, refusedWs };
`;

const PAGE = '<!doctype html><meta charset="utf-8"><title>cross-origin</title><script src="/app.js"></script>';

// serve starts the page's origin on port (0: any free one) and returns it.
function serve(bundle, port) {
  const server = createServer((req, res) => {
    if (req.url === '/') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(PAGE);
    } else if (req.url === '/app.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store' }).end(bundle);
    } else if (req.url === '/favicon.ico') {
      res.writeHead(204).end();
    } else {
      res.writeHead(404).end();
    }
  });
  return withDeadline(new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  }), 10_000, `listening on port ${port}`);
}

// handshake opens a WebSocket handshake to /graphql with the given Origin
// from node and returns the status the server answers.
function handshake(origin) {
  return withDeadline(new Promise((resolve, reject) => {
    const req = httpRequest(`${graphqlURL}`, {
      headers: {
        Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Protocol': 'graphql-transport-ws', Origin: origin,
      },
    });
    req.on('upgrade', (res, socket) => { socket.destroy(); resolve(res.statusCode); });
    req.on('response', (res) => { res.resume(); resolve(res.statusCode); });
    req.on('error', reject);
    req.end();
  }), 10_000, `WebSocket handshake with Origin ${origin}`);
}

// The statuses' order: a later status never comes before an earlier one.
const RANK = { PENDING: 0, PROCESSING: 1, SUCCESS: 2 };

function checkSequence(client, seen) {
  const statuses = seen.map((s) => s.status);
  check(seen.length > 0, `${client}: no state seen`);
  check(statuses[statuses.length - 1] === 'SUCCESS', `${client}: the statuses ${statuses.join(' → ')} do not end with SUCCESS`);
  check(statuses.every((s) => s in RANK), `${client}: an unexpected status in ${statuses.join(' → ')}`);
  for (let i = 1; i < seen.length; i++) {
    check(seen[i].version > seen[i - 1].version, `${client}: version ${seen[i].version} after ${seen[i - 1].version}`);
    check(RANK[seen[i].status] >= RANK[seen[i - 1].status], `${client}: ${seen[i].status} after ${seen[i - 1].status}`);
  }
  const processing = statuses.indexOf('PROCESSING');
  check(processing >= 0 && processing < statuses.length - 1,
    `${client}: PROCESSING was not seen before SUCCESS (${statuses.join(' → ')}): the task was not followed live`);
}

function checkCost(where, c) {
  check(c && Number.isInteger(c.requested) && c.requested > 0 && Number.isInteger(c.limit) && c.limit >= c.requested,
    `${where}: extensions.cost is ${JSON.stringify(c)}, not {requested, limit}`);
}

const overall = setTimeout(() => {
  process.stderr.write(`cross-origin.mjs: not done within ${TOTAL_MS / 1000} s\n`);
  process.exit(1);
}, TOTAL_MS);

let browser;
const servers = [];
// What the pages did, for a failure's report.
const consoleLines = [];
const exchanges = [];
let code = 0;
try {
  const started = Date.now();
  const out = await withDeadline(build({
    stdin: { contents: entry, resolveDir: webDir, sourcefile: 'cross-origin-entry.js', loader: 'js' },
    bundle: true, write: false, format: 'iife', platform: 'browser', target: ['es2020'],
    define: { 'process.env.NODE_ENV': '"production"' }, logLevel: 'silent',
  }), 60_000, 'esbuild');
  const bundle = out.outputFiles[0].text;
  step('bundle', { bytes: bundle.length, ms: Date.now() - started });

  const listed = await serve(bundle, pagePort);
  servers.push(listed);
  const unlisted = await serve(bundle, 0);
  servers.push(unlisted);
  const pageOrigin = `http://localhost:${pagePort}`;
  const otherOrigin = `http://localhost:${unlisted.address().port}`;
  step('origins', { api, page: pageOrigin, unlisted: otherOrigin });

  browser = await withDeadline(chromium.launch(await chromiumLaunchOptions()), 60_000, 'launching Chromium');
  const context = await browser.newContext();
  context.setDefaultTimeout(FLOW_MS);

  // Every request the pages make to the API, and what came back.
  const requests = [];
  const watch = (page, label) => {
    page.on('console', (msg) => consoleLines.push(`[${label} ${msg.type()}] ${msg.text()}`));
    page.on('pageerror', (err) => consoleLines.push(`[${label} pageerror] ${err}`));
    page.on('request', (req) => {
      if (!req.url().startsWith(graphqlURL)) return;
      const rec = { page: label, method: req.method(), url: req.url(), body: req.postData() };
      rec.headers = req.allHeaders().catch(() => ({}));
      requests.push(rec);
    });
    page.on('response', (resp) => {
      if (!resp.url().startsWith(graphqlURL)) return;
      exchanges.push(resp.allHeaders().then((h) => `[${label}] ${resp.request().method()} ${resp.url()} → ${resp.status()} ` +
        Object.entries(h).filter(([k]) => k.startsWith('access-control') || k === 'content-type' || k === 'vary').map(([k, v]) => `${k}: ${v}`).join('; '))
        .catch(() => `[${label}] ${resp.request().method()} ${resp.url()} → ${resp.status()}`));
    });
    page.on('requestfailed', (req) => {
      if (req.url().startsWith(graphqlURL)) exchanges.push(Promise.resolve(`[${label}] ${req.method()} ${req.url()} failed: ${req.failure()?.errorText}`));
    });
    page.on('websocket', (ws) => {
      exchanges.push(Promise.resolve(`[${label}] WebSocket ${ws.url()} opened by the page`));
      ws.on('socketerror', (e) => exchanges.push(Promise.resolve(`[${label}] WebSocket ${ws.url()} error: ${e}`)));
      ws.on('close', () => exchanges.push(Promise.resolve(`[${label}] WebSocket ${ws.url()} closed`)));
    });
  };

  const page = await context.newPage();
  watch(page, 'listed');
  await page.goto(`${pageOrigin}/`);
  await page.waitForFunction(() => !!window.crossOrigin, null, { timeout: 30_000 });
  check(await page.evaluate(() => location.origin) === pageOrigin, 'the page is not on its origin');

  const run = (p, fn, arg) => withDeadline(p.evaluate(([f, a]) => window.crossOrigin[f](a), [fn, arg]), FLOW_MS + 10_000, fn);
  const arg = { url: graphqlURL, token };

  // 1. Four clients, each a live issuance.
  const clients = [['graphql-ws', 'graphqlWs'], ['graphql-sse-single', 'graphqlSse'], ['apollo-httplink-multipart', 'apolloHttp'], ['apollo-batchhttplink-polling', 'apolloBatch']];
  let lastTask;
  for (const [name, fn] of clients) {
    const from = requests.length;
    const r = await run(page, fn, arg);
    checkSequence(name, r.seen);
    lastTask = r.task;
    const mine = requests.slice(from);
    const extra = {};
    const headers = await Promise.all(mine.map((q) => q.headers));
    // A WebSocket is no request event; the handshake's Origin is checked below.
    if (fn !== 'graphqlWs') {
      check(headers.some((h) => h.origin === pageOrigin), `${name}: no request to the API carried Origin: ${pageOrigin}`);
    }
    if (fn === 'graphqlSse') {
      extra.reservations = mine.filter((q) => q.method === 'PUT').length;
      extra.withToken = headers.filter((h) => h['x-graphql-event-stream-token']).length;
      extra.deletes = mine.filter((q) => q.method === 'DELETE').length;
      check(extra.reservations >= 1 && extra.withToken >= 5,
        `${name}: single-connection mode was not used (${extra.reservations} PUT, ${extra.withToken} requests with X-GraphQL-Event-Stream-Token)`);
      check(extra.deletes === 1 && r.stoppedAfter >= 1, `${name}: ${extra.deletes} DELETE to stop a subscription after ${r.stoppedAfter} results`);
    }
    if (fn === 'apolloHttp' || fn === 'apolloBatch') {
      check(headers.some((h) => h['apollographql-client-name'] === 'dungji-cross-origin-test'),
        `${name}: apollographql-client-name was not sent`);
    }
    if (fn === 'apolloHttp') {
      const accept = headers.map((h) => h.accept || '').find((a) => a.includes('subscriptionSpec'));
      check(accept, `${name}: no request asked for a multipart subscription`);
      extra.subscriptionAccept = accept;
      checkCost(`${name} createNest`, r.mutationCost);
      extra.mutationCost = r.mutationCost;
    }
    if (fn === 'apolloBatch') {
      const sizes = mine.filter((q) => q.method === 'POST').map((q) => {
        try {
          const b = JSON.parse(q.body);
          return Array.isArray(b) ? b.length : 0;
        } catch {
          return 0;
        }
      });
      extra.polls = r.polls;
      extra.posts = sizes.length;
      extra.batchedPosts = sizes.filter((n) => n >= 2).length;
      extra.singlePosts = sizes.filter((n) => n < 2).length;
      check(sizes.every((n) => n >= 1), `${name}: a POST without an array body (sizes ${JSON.stringify(sizes)})`);
      check(extra.batchedPosts >= r.polls,
        `${name}: ${r.polls} polls of two queries but ${extra.batchedPosts} POSTs with an array of two or more (sizes ${JSON.stringify(sizes)})`);
    }
    step('client', {
      client: name, task: r.task, statuses: r.seen.map((s) => s.status), versions: r.seen.map((s) => s.version),
      ms: r.seen.map((s) => s.ms), ...extra,
    });
  }

  // 2. extensions.cost on a plain query, read by the page.
  const c = await run(page, 'cost', arg);
  check(c.fetch.status === 200 && !c.fetch.errors, `cost: the plain query answered ${c.fetch.status} ${JSON.stringify(c.fetch.errors)}`);
  checkCost('cost (fetch)', c.fetch.cost);
  checkCost('cost (Apollo Client)', c.apollo.cost);
  step('cost', c);

  // 3. The same page on an origin that is not listed.
  const other = await context.newPage();
  watch(other, 'unlisted');
  await other.goto(`${otherOrigin}/`);
  await other.waitForFunction(() => !!window.crossOrigin, null, { timeout: 30_000 });
  const f = await withDeadline(other.evaluate((a) => window.crossOrigin.refusedFetch(a), arg), REFUSAL_MS + 5_000, 'refusedFetch');
  check(f.refused, `fetch from ${otherOrigin} was answered (${f.status}: ${f.body}): the browser should have refused it`);
  check(f.name === 'TypeError', `fetch from ${otherOrigin} failed with ${f.name}: ${f.message}, not the TypeError of a refused request`);
  const corsLine = () => consoleLines.find((l) => l.startsWith('[unlisted') && l.includes('blocked by CORS policy'));
  await withDeadline((async () => { while (!corsLine()) await new Promise((r) => setTimeout(r, 50)); })(), 5_000, "the browser's CORS message");
  step('refused-fetch', { origin: otherOrigin, error: `${f.name}: ${f.message}`, browser: corsLine() });

  const w = await withDeadline(other.evaluate((a) => window.crossOrigin.refusedWs(a), { ...arg, taskId: lastTask }), REFUSAL_MS + 5_000, 'refusedWs');
  check(w.outcome === 'error', `graphql-ws from ${otherOrigin}: ${w.outcome} (${w.events.join(', ')}), not an error`);
  check(!w.events.some((e) => e === 'connected' || e.startsWith('next')), `graphql-ws from ${otherOrigin} connected or received: ${w.events.join(', ')}`);
  const refusedStatus = await handshake(otherOrigin);
  const listedStatus = await handshake(pageOrigin);
  check(refusedStatus === 403, `the server answered a WebSocket handshake with Origin ${otherOrigin} ${refusedStatus}, not 403`);
  check(listedStatus === 101, `the server answered a WebSocket handshake with Origin ${pageOrigin} ${listedStatus}, not 101`);
  const wsLine = () => consoleLines.find((l) => l.startsWith('[unlisted') && l.includes('WebSocket connection'));
  await withDeadline((async () => { while (!wsLine()) await new Promise((r) => setTimeout(r, 50)); })(), 5_000, "the browser's WebSocket message");
  step('refused-websocket', { origin: otherOrigin, error: w.error, events: w.events, browser: wsLine(),
    handshake: { [otherOrigin]: refusedStatus, [pageOrigin]: listedStatus } });
  step('done', { ms: Date.now() - started });
} catch (err) {
  code = 1;
  const lines = await Promise.all(exchanges);
  process.stderr.write(`cross-origin.mjs: ${err instanceof CheckError ? err.message : err?.stack || err}\n` +
    `browser console:\n${consoleLines.map((l) => `  ${l}\n`).join('') || '  (nothing)\n'}` +
    `API requests and answers (the preflights are not shown; the console names a refused one):\n${lines.slice(-40).map((l) => `  ${l}\n`).join('') || '  (none)\n'}`);
} finally {
  await browser?.close().catch(() => {});
  for (const s of servers) s.close();
  clearTimeout(overall);
}
process.stdout.write('', () => process.exit(code));
