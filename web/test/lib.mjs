// Shared by the client test scripts in this folder.

// wsURL turns the GraphQL HTTP URL (http://host/graphql) into its WebSocket
// URL (ws://host/graphql); https becomes wss.
export function wsURL(httpURL) {
  const u = new URL(httpURL);
  if (u.protocol === 'http:') u.protocol = 'ws:';
  else if (u.protocol === 'https:') u.protocol = 'wss:';
  else if (u.protocol !== 'ws:' && u.protocol !== 'wss:') {
    throw new Error(`not an http(s) or ws(s) URL: ${httpURL}`);
  }
  return u.toString();
}

// describeError renders what graphql-ws hands to a sink's error callback:
// a CloseEvent (code, reason), a list of GraphQL errors, or an Error.
export function describeError(err) {
  if (err && typeof err === 'object' && 'code' in err && 'reason' in err) {
    return `socket closed: ${err.code} ${err.reason || '(no reason)'}`;
  }
  if (Array.isArray(err)) return `GraphQL errors: ${JSON.stringify(err)}`;
  if (err instanceof Error) return err.message || String(err);
  if (err && typeof err === 'object' && 'message' in err) return String(err.message);
  return String(err);
}

// chromiumLaunchOptions launches Debian's Chromium for playwright-core:
// CHROMIUM_PATH, else the browser binary itself (/usr/lib/chromium/chromium)
// rather than the /usr/bin/chromium shell wrapper, whose /etc/chromium.d
// scripts print shell errors on some machines; the one flag the wrapper
// would add for a small /dev/shm is passed here instead.
export async function chromiumLaunchOptions(extraArgs = []) {
  const { access } = await import('node:fs/promises');
  let executablePath = process.env.CHROMIUM_PATH;
  if (!executablePath) {
    executablePath = '/usr/bin/chromium';
    try {
      await access('/usr/lib/chromium/chromium');
      executablePath = '/usr/lib/chromium/chromium';
    } catch {}
  }
  return {
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
      '--disable-component-update', '--no-first-run', '--disable-sync', ...extraArgs],
  };
}
