// The live connection: one graphql-ws client per signed-in tab, and the
// connection state the header always shows.
//
//   connecting    the first connection is being made
//   live          the socket is open and acknowledged: subscriptions push
//   reconnecting  a live socket dropped; graphql-ws is reconnecting
//   polling       the WebSocket cannot connect (or did not come back within
//                 RECONNECT_GRACE_MS): pages re-read their queries every
//                 POLL_INTERVAL_MS, while the client keeps trying in the
//                 background and goes live again by itself.

import { createClient, type Client } from 'graphql-ws/client';

import { GRAPHQL_PATH, type Document, type Variables } from './api';

export type ConnState = 'connecting' | 'live' | 'reconnecting' | 'polling';

export const POLL_INTERVAL_MS = 2000;
/** How long the first connection may take before the console polls. */
const CONNECT_GRACE_MS = 5000;
/** How long a dropped connection may take to come back before polling. */
const RECONNECT_GRACE_MS = 4000;
/** The longest wait between reconnection attempts. */
const MAX_RETRY_WAIT_MS = 10_000;

/** Close codes with which the server refuses connection_init's token. */
const AUTH_CLOSE_CODES = [4401, 4403];

interface CloseLike {
  code: number;
  reason: string;
}

function isCloseLike(v: unknown): v is CloseLike {
  return typeof v === 'object' && v !== null && 'code' in v && 'reason' in v;
}

/** describe renders what graphql-ws hands to error callbacks. */
export function describe(err: unknown): string {
  if (isCloseLike(err)) return `socket closed: ${err.code} ${err.reason || ''}`.trim();
  if (Array.isArray(err)) return err.map((e) => (e && typeof e === 'object' && 'message' in e ? String(e.message) : String(e))).join('; ');
  if (err instanceof Error) return err.message;
  return String(err);
}

/** errorCode is the GraphQL error code in a subscription's error, if any. */
export function errorCode(err: unknown): string | undefined {
  if (Array.isArray(err)) {
    const ext = (err[0] as { extensions?: { code?: unknown } } | undefined)?.extensions;
    return typeof ext?.code === 'string' ? ext.code : undefined;
  }
  return undefined;
}

export interface Sink<T> {
  next(data: T): void;
  error(err: unknown): void;
}

export class Live {
  private client: Client;
  private state_: ConnState = 'connecting';
  private graceTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  private readonly stateListeners = new Set<(s: ConnState) => void>();
  private readonly resyncListeners = new Set<() => void>();

  /**
   * onAuthRejected runs when the server closes the socket because of the
   * token (4401 missing, 4403 refused): retrying would not help.
   */
  constructor(tok: string, private readonly onAuthRejected: (reason: string) => void) {
    const url = new URL(GRAPHQL_PATH, location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    this.client = createClient({
      url: url.toString(),
      lazy: false,
      connectionParams: { Authorization: `Bearer ${tok}` },
      keepAlive: 10_000,
      connectionAckWaitTimeout: 10_000,
      retryAttempts: Infinity,
      retryWait: (retries) =>
        new Promise((resolve) =>
          setTimeout(resolve, Math.min(1000 * 2 ** retries, MAX_RETRY_WAIT_MS) * (0.75 + Math.random() / 2)),
        ),
      // A refused token is final; every other close is worth another try
      // (graphql-ws would retry 4403 and give up on 4500).
      shouldRetry: (e) => isCloseLike(e) && !AUTH_CLOSE_CODES.includes(e.code),
      onNonLazyError: (e) => this.fatal(e),
      on: {
        connected: () => this.connected(),
        closed: (e) => this.closed(e),
      },
    });
    this.graceTimer = setTimeout(() => {
      if (this.state_ === 'connecting') this.set('polling');
    }, CONNECT_GRACE_MS);
  }

  get state(): ConnState {
    return this.state_;
  }

  /** onState calls fn on every change of state; returns the unsubscriber. */
  onState(fn: (s: ConnState) => void): () => void {
    this.stateListeners.add(fn);
    return () => this.stateListeners.delete(fn);
  }

  /**
   * onResync calls fn when the socket is back after being down: the page
   * re-reads the current state (subscriptions also send it again).
   */
  onResync(fn: () => void): () => void {
    this.resyncListeners.add(fn);
    return () => this.resyncListeners.delete(fn);
  }

  /** subscribe runs a subscription; it survives reconnects. */
  subscribe<R, V>(doc: Document<R, V>, variables: Variables<V>, sink: Sink<R>): () => void {
    return this.client.subscribe<R>(
      { query: doc.toString(), variables: variables as Record<string, unknown> | undefined },
      {
        next: (r) => {
          if (r.errors?.length) sink.error(r.errors);
          else if (r.data) sink.next(r.data as R);
        },
        error: (e) => sink.error(e),
        complete: () => {},
      },
    );
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.graceTimer);
    this.stateListeners.clear();
    this.resyncListeners.clear();
    void this.client.dispose();
  }

  private set(s: ConnState): void {
    if (this.disposed || s === this.state_) return;
    this.state_ = s;
    for (const fn of this.stateListeners) fn(s);
  }

  private connected(): void {
    clearTimeout(this.graceTimer);
    const wasDown = this.state_ !== 'connecting' && this.state_ !== 'live';
    this.set('live');
    if (wasDown) for (const fn of this.resyncListeners) fn();
  }

  private closed(e: unknown): void {
    if (this.disposed) return;
    if (isCloseLike(e) && AUTH_CLOSE_CODES.includes(e.code)) {
      this.onAuthRejected(e.reason || String(e.code));
      return;
    }
    switch (this.state_) {
      case 'live':
        this.set('reconnecting');
        clearTimeout(this.graceTimer);
        this.graceTimer = setTimeout(() => {
          if (this.state_ === 'reconnecting') this.set('polling');
        }, RECONNECT_GRACE_MS);
        break;
      case 'connecting':
        // The first connection failed outright: the WebSocket cannot
        // connect here (a proxy, a firewall). Poll at once.
        clearTimeout(this.graceTimer);
        this.set('polling');
        break;
    }
  }

  private fatal(e: unknown): void {
    if (this.disposed) return;
    if (isCloseLike(e) && AUTH_CLOSE_CODES.includes(e.code)) return; // handled in closed
    // The client gave up for good (a protocol error): stay on polling.
    clearTimeout(this.graceTimer);
    this.set('polling');
    console.warn('dungji: live connection failed, polling instead:', describe(e));
  }
}
