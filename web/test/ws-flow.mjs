// Shared by the WebSocket client-library scripts (ws-*.mjs): the issuance →
// OCR flow every client follows, a WebSocket class that records every socket
// a client opens and how it closed, and the scripts' output and exit rules.
//
// Output: one JSON object per line on stdout, for the Go test to check:
//   {"event":"open","connection":1}
//   {"event":"requested","task":"…","over":"websocket"} the issuance requested
//   {"event":"next","op":"issuanceTaskUpdated","task":{"id":…,"status":…,"version":…}}
//   {"event":"complete","op":"issuanceTaskUpdated"}
//   {"event":"keepalive","connection":1,"type":"ping"}  ping, pong or ka received
//   {"event":"closed","connection":1,"code":1000,"reason":"","at":<unix ms>}
//   {"event":"done"}            the flow reached its end
// Diagnostics go to stderr. Exit 0 when the flow ends, 1 on an error or
// after the time limit, 2 on bad usage.
import WebSocket from 'ws';

import { describeError } from './lib.mjs';

export const ISSUANCE = `subscription($id: ID!) {
  issuanceTaskUpdated(id: $id) { id status version ocrTask { id } }
}`;

export const OCR = `subscription($id: ID!) {
  ocrTaskUpdated(id: $id) { id status version pageCount }
}`;

// emit prints one output line.
export function emit(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

// countingWebSocket returns a subclass of ws's WebSocket that numbers each
// socket a client opens and reports its close (event "closed") to stdout
// and to onClose. stats.connections counts sockets, stats.closes their codes.
export function countingWebSocket(stats, onClose = () => {}) {
  return class CountingWebSocket extends WebSocket {
    constructor(...args) {
      super(...args);
      const n = ++stats.connections;
      emit({ event: 'open', connection: n });
      // Keep-alive messages of either protocol, for the test to see them
      // pass (the client answers them itself).
      this.addEventListener('message', (e) => {
        let type;
        try {
          type = JSON.parse(String(e.data)).type;
        } catch {
          return; // the client reports what it cannot parse
        }
        if (type === 'ping' || type === 'pong' || type === 'ka') emit({ event: 'keepalive', connection: n, type });
        else if (stats.trace) emit({ event: 'message', connection: n, type, id: msgId(e.data) });
      });
      this.addEventListener('close', (e) => {
        stats.closes.push(e.code);
        emit({ event: 'closed', connection: n, code: e.code, reason: String(e.reason || ''), at: Date.now() });
        onClose(e, n);
      });
    }
  };
}

// newStats returns the counters countingWebSocket fills; with trace set,
// every other message the server sends is printed too
// ({"event":"message","connection":1,"type":"next","id":"op-1"}).
export function newStats(trace = false) {
  return { connections: 0, closes: [], trace };
}

function msgId(data) {
  try {
    return JSON.parse(String(data)).id ?? null;
  } catch {
    return null;
  }
}

// follow runs one task subscription to its completion and resolves with the
// states received. subscribe(query, variables, sink) is the client under
// test, adapted so that sink.next receives the result's data object and
// sink.error any error (GraphQL errors in a result included).
export function follow(subscribe, field, query, id) {
  return new Promise((resolve, reject) => {
    const seen = [];
    subscribe(query, { id }, {
      next(data) {
        const task = data?.[field];
        emit({ event: 'next', op: field, task: task ?? null });
        if (!task) {
          reject(new Error(`a ${field} result without its task: ${JSON.stringify(data)}`));
          return;
        }
        seen.push(task);
      },
      error(err) {
        reject(new Error(`${field}: ${describeError(err)}`));
      },
      complete() {
        emit({ event: 'complete', op: field });
        resolve(seen);
      },
    });
  });
}

const REQUEST_ISSUANCE = 'mutation($id: ID!) { requestIssuance(nestId: $id) { task { id } } }';

// requestIssuance asks for the nest's registry document over HTTP (POST
// requestIssuance, the token as Bearer) and returns the task's id.
export async function requestIssuance(url, token, nestId) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: REQUEST_ISSUANCE, variables: { id: nestId } }),
  });
  const text = await res.text();
  let id;
  try {
    id = JSON.parse(text)?.data?.requestIssuance?.task?.id;
  } catch {
    // reported below
  }
  if (!id) throw new Error(`requestIssuance answered ${res.status} ${text}`);
  emit({ event: 'requested', task: id, over: 'http' });
  return id;
}

// followIssuance requests an issuance of the nest through the client under
// test (mutate(query, variables) resolves with the result's data: the
// mutation goes over the WebSocket too), follows the task to its end, then
// the OCR task it started to its end. The subscription starts right after
// the request, while the bot still works, so the client sees the task
// change live.
export async function followIssuance(subscribe, mutate, nestId) {
  const data = await mutate(REQUEST_ISSUANCE, { id: nestId });
  const taskId = data?.requestIssuance?.task?.id;
  if (!taskId) throw new Error(`requestIssuance over the WebSocket answered ${JSON.stringify(data)}`);
  emit({ event: 'requested', task: taskId, over: 'websocket' });
  const issuance = await follow(subscribe, 'issuanceTaskUpdated', ISSUANCE, taskId);
  const last = issuance.at(-1);
  if (!last) throw new Error('issuanceTaskUpdated completed without a single state');
  if (last.status !== 'SUCCESS' || !last.ocrTask?.id) {
    throw new Error(`issuanceTaskUpdated ended with ${JSON.stringify(last)}, not SUCCESS with an OCR task`);
  }
  await follow(subscribe, 'ocrTaskUpdated', OCR, last.ocrTask.id);
}

export const NEST = `subscription($nest: ID!) {
  nestTasksUpdated(nestId: $nest) {
    __typename
    ... on IssuanceTask { id status version ocrTask { id } }
    ... on OcrTask { id status version }
  }
}`;

// followNest follows a nest (NEST) until the OCR task of the issuance that
// requestTask() starts is SUCCESS. subscribeNest(sink) subscribes with the
// client under test, its sink.next receiving the whole result ({data,
// errors}); connected resolves once the client's first socket is
// acknowledged, and the issuance is requested then. onState(task) sees
// every state received. States may arrive before requestTask's answer:
// the end is decided on every change.
export function followNest({ subscribeNest, connected, requestTask, onState = () => {} }) {
  return new Promise((resolve, reject) => {
    let issuance;
    const ocrOf = new Map(); // issuance id → its OCR task's id
    const ocrSucceeded = new Set();
    const check = () => {
      if (issuance && ocrSucceeded.has(ocrOf.get(issuance))) resolve();
    };
    subscribeNest({
      next(result) {
        if (result.errors) {
          reject(new Error(`nestTasksUpdated errors: ${JSON.stringify(result.errors)}`));
          return;
        }
        const task = result.data?.nestTasksUpdated;
        emit({ event: 'next', op: 'nestTasksUpdated', task: task ?? null });
        if (!task) return;
        if (task.status === 'FAILED') reject(new Error(`a task failed: ${JSON.stringify(task)}`));
        if (task.__typename === 'IssuanceTask' && task.ocrTask?.id) ocrOf.set(task.id, task.ocrTask.id);
        if (task.__typename === 'OcrTask' && task.status === 'SUCCESS') ocrSucceeded.add(task.id);
        onState(task);
        check();
      },
      error: (err) => reject(err),
      complete: () => reject(new Error('nestTasksUpdated completed; it should stay open')),
    });
    connected
      .then(requestTask)
      .then((id) => {
        issuance = id;
        check();
      })
      .catch(reject);
  });
}

// run runs flow() within timeoutMs, prints {"event":"done"} when it ends,
// calls cleanup, and exits: 0 done, 1 failed or timed out.
export function run(name, timeoutMs, flow, cleanup = async () => {}) {
  let finished = false;
  const finish = (code, err) => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    if (err !== undefined) process.stderr.write(`${name}: ${describeError(err)}\n`);
    else emit({ event: 'done' });
    Promise.resolve()
      .then(cleanup)
      .catch((e) => process.stderr.write(`${name}: cleanup: ${describeError(e)}\n`))
      .finally(() => process.stdout.write('', () => process.exit(code)));
  };
  const timer = setTimeout(() => finish(1, new Error(`not done within ${timeoutMs / 1000} s`)), timeoutMs);
  Promise.resolve()
    .then(flow)
    .then(() => finish(0), (err) => finish(1, err));
}

// usage exits 2 with a usage line unless args has n values, non-empty but
// for the positions in mayBeEmpty.
export function usage(args, n, line, mayBeEmpty = []) {
  if (args.length < n || args.slice(0, n).some((a, i) => !a && !mayBeEmpty.includes(i))) {
    process.stderr.write(`usage: ${line}\n`);
    process.exit(2);
  }
}
