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

// A step of a console script: one JSON line on stdout.
export function step(name, extra = {}) {
  process.stdout.write(JSON.stringify({ step: name, ...extra }) + '\n');
}

// CheckError is a failed check, as opposed to an error of the script.
export class CheckError extends Error {}

export function check(ok, message) {
  if (!ok) throw new CheckError(message);
}

// uploadScriptArgs reads the arguments of a console script that uploads a
// copy to a nest: <baseURL> <token> <nestId> <copy.pdf> <screenshotPath>;
// other arguments exit 2 with the usage.
export function uploadScriptArgs(script) {
  const args = process.argv.slice(2);
  if (args.length !== 5) {
    process.stderr.write(`usage: node web/test/${script} <baseURL> <token> <nestId> <copy.pdf> <screenshotPath>\n`);
    process.exit(2);
  }
  const [base, token, nestId, copyPath, shot] = args;
  return { base, token, nestId, copyPath, shot };
}

// openNest signs in with token and opens the nest titled title, live.
export async function openNest(page, base, token, nestId, title) {
  await page.goto(`${base}/#token=${encodeURIComponent(token)}`);
  await page.getByRole('heading', { level: 1, name: 'Your nests' }).waitFor();
  await page.evaluate((id) => (location.hash = `#/nest/${encodeURIComponent(id)}`), nestId);
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  await page.locator('#conn[data-state="live"]').waitFor();
  step('nest opened');
}

// runConsolePage runs drive(page) in a headless Chromium page (1280 × 1000,
// en-US, Seoul time) whose every wait has stepMs as its deadline, then
// saves a screenshot at shot and fails if the page logged an error. On a
// failure it says why on stderr with the page's text and a screenshot
// beside shot (-failed.png). It exits the process: 0, or 1 on a failure.
export async function runConsolePage(shot, stepMs, drive) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch(await chromiumLaunchOptions());
  let page;
  let code = 0;
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 }, locale: 'en-US', timezoneId: 'Asia/Seoul' });
    context.setDefaultTimeout(stepMs);
    page = await context.newPage();
    const consoleErrors = [];
    page.on('pageerror', (err) => consoleErrors.push(String(err)));
    page.on('console', (msg) => {
      if (msg.type() === 'error') consoleErrors.push(msg.text());
    });
    await drive(page);
    await page.screenshot({ path: shot, fullPage: true });
    step('screenshot', { path: shot });
    check(consoleErrors.length === 0, `the page logged errors: ${consoleErrors.join(' | ')}`);
  } catch (err) {
    code = 1;
    process.stderr.write(`${err instanceof CheckError ? 'check failed' : 'error'}: ${err.stack ?? err}\n`);
    if (page) {
      try {
        await page.screenshot({ path: shot.replace(/(\.png)?$/, '-failed.png'), fullPage: true });
        process.stderr.write(`page text:\n${(await page.locator('body').innerText()).slice(0, 4000)}\n`);
      } catch {}
    }
  } finally {
    await browser.close();
  }
  process.exit(code);
}
