// GraphQL over HTTP with the bearer token: queries and mutations, and the
// polling fallback when the WebSocket cannot connect.

import type { TypedDocumentString } from './gql/graphql';
import { has, t } from './i18n';
import { token } from './session';

/**
 * Document is an operation of the console, written as graphql(`…`) and typed
 * by graphql-codegen (src/gql/, `npm run codegen`) from the served schema:
 * its result type R and its variables V.
 */
export type Document<R, V> = TypedDocumentString<R, V>;

/** The variables of an operation: may be left out when none is required. */
export type Variables<V> = {} extends V ? V | undefined : V;

/** ApiError is a failed operation: a GraphQL error code or NETWORK. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** userMessage is the error as the user should read it. */
  userMessage(): string {
    const key = `api.${this.code}`;
    return has(key) ? t(key, { message: this.message }) : t('api.other', { message: this.message });
  }
}

interface GraphQLError {
  message: string;
  extensions?: { code?: string; field?: string };
}

let onUnauthenticated: (err: ApiError) => void = () => {};

/** setUnauthenticatedHandler is called when the server refuses the token. */
export function setUnauthenticatedHandler(fn: (err: ApiError) => void): void {
  onUnauthenticated = fn;
}

export const GRAPHQL_PATH = '/graphql';
const REQUEST_TIMEOUT_MS = 15_000;

/**
 * gqlUpload runs one operation with files, sent as the GraphQL multipart
 * request spec has it (operations, map, the files): one file as the
 * variable fileVar, or a list of them as its items (fileVar.0, fileVar.1, …).
 */
export function gqlUpload<R, V, K extends keyof V & string>(
  doc: Document<R, V>,
  variables: Omit<V, K>,
  fileVar: K,
  files: V[K] & (File | File[]),
): Promise<R> {
  const list = Array.isArray(files) ? files : [files];
  const form = new FormData();
  form.append('operations', JSON.stringify({ query: doc.toString(), variables: { ...variables, [fileVar]: Array.isArray(files) ? list.map(() => null) : null } }));
  form.append('map', JSON.stringify(Object.fromEntries(list.map((_, i) => [i, [Array.isArray(files) ? `variables.${fileVar}.${i}` : `variables.${fileVar}`]]))));
  list.forEach((f, i) => form.append(String(i), f, f.name));
  return gql(doc, variables as Variables<V>, token(), form, uploadTimeout(list.reduce((n, f) => n + f.size, 0)));
}

/**
 * How long an upload of size bytes may take: at least 2 minutes, and as
 * long as it takes at the slowest rate the server takes a body (32 KiB/s,
 * a weak mobile uplink), with a minute to spare.
 */
export function uploadTimeout(size: number): number {
  return Math.max(120_000, 60_000 + Math.ceil(size / (32 * 1024)) * 1000);
}

/**
 * gql runs one operation and returns its data, or throws an ApiError. An
 * operation without variables takes undefined (none are sent).
 */
export async function gql<R, V>(
  doc: Document<R, V>,
  variables: Variables<V>,
  tok = token(),
  form?: FormData,
  timeout = REQUEST_TIMEOUT_MS,
): Promise<R> {
  let resp: Response;
  try {
    resp = await fetch(GRAPHQL_PATH, {
      method: 'POST',
      headers: {
        // A form sets its own multipart Content-Type with the boundary.
        ...(form ? {} : { 'Content-Type': 'application/json' }),
        Accept: 'application/graphql-response+json, application/json',
        ...(tok ? { Authorization: `Bearer ${tok}` } : {}),
      },
      body: form ?? JSON.stringify({ query: doc.toString(), variables }),
      // A request that never answers must not stall polling for good.
      signal: AbortSignal.timeout(timeout),
    });
  } catch (e) {
    throw new ApiError('NETWORK', e instanceof Error ? e.message : String(e));
  }
  let body: { data?: R | null; errors?: GraphQLError[] };
  try {
    body = await resp.json();
  } catch {
    throw new ApiError(resp.status >= 500 ? 'INTERNAL' : 'NETWORK', `HTTP ${resp.status}`);
  }
  const first = body.errors?.[0];
  if (first) {
    const err = new ApiError(first.extensions?.code ?? 'INTERNAL', first.message, first.extensions?.field);
    // Only the session's own token signs the user out; sign-in checks others.
    if (err.code === 'UNAUTHENTICATED' && tok !== '' && tok === token()) onUnauthenticated(err);
    throw err;
  }
  if (body.data == null) throw new ApiError('INTERNAL', `HTTP ${resp.status} without data`);
  return body.data;
}
