// The bearer token, kept for this tab only (sessionStorage).

const TOKEN_KEY = 'dungji.token';

export function token(): string {
  try {
    return sessionStorage.getItem(TOKEN_KEY) ?? '';
  } catch {
    return memory;
  }
}

let memory = '';

export function setToken(tok: string): void {
  memory = tok;
  try {
    sessionStorage.setItem(TOKEN_KEY, tok);
  } catch {
    // storage disabled: the token lives until the tab reloads
  }
}

export function clearToken(): void {
  memory = '';
  try {
    sessionStorage.removeItem(TOKEN_KEY);
  } catch {
    // nothing stored
  }
}

/**
 * tokenSubject reads the user id (sub) from a JWT for display only; the
 * server checks the token, the console never trusts this value.
 */
export function tokenSubject(tok: string): string {
  const part = tok.split('.')[1];
  if (!part) return '';
  try {
    const json = atob(part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '='));
    const bytes = Uint8Array.from(json, (c) => c.charCodeAt(0));
    const claims = JSON.parse(new TextDecoder().decode(bytes)) as { sub?: unknown };
    return typeof claims.sub === 'string' ? claims.sub : '';
  } catch {
    return '';
  }
}
