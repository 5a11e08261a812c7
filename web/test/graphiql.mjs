// Loads GraphiQL (/graphiql) in headless Chromium with every request to
// another origin refused, as on a machine without internet, and runs one
// query from it: the page's scripts, style and React must come from the
// server itself and work under its Content Security Policy.
//
//   node web/test/graphiql.mjs <baseURL> <token>
//
// stdout: one JSON line per step; exit 0 on success, 1 on a failed check
// (the reason on stderr), 2 on bad usage. Waits are on the DOM with a
// deadline.
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from './lib.mjs';

const args = process.argv.slice(2);
if (args.length !== 2) {
  process.stderr.write('usage: node web/test/graphiql.mjs <baseURL> <token>\n');
  process.exit(2);
}
const [base, token] = args;
const origin = new URL(base).origin;
const step = (name, extra = {}) => process.stdout.write(JSON.stringify({ step: name, ...extra }) + '\n');

const browser = await chromium.launch(await chromiumLaunchOptions());
let code = 0;
try {
  const context = await browser.newContext();
  context.setDefaultTimeout(30_000);
  const offsite = [];
  const problems = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (new URL(url).origin !== origin && !url.startsWith('data:')) {
      offsite.push(url);
      return route.abort('internetdisconnected');
    }
    return route.continue();
  });
  // The headers and the query GraphiQL starts with (its own storage keys).
  await context.addInitScript(([tok]) => {
    localStorage.setItem('graphiql:headers', JSON.stringify({ Authorization: `Bearer ${tok}` }));
    localStorage.setItem('graphiql:query', '{ nests(first: 1) { nodes { id } pageInfo { hasNextPage } } }');
  }, [token]);
  const page = await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(String(e)));
  const loaded = [];
  page.on('response', (r) => loaded.push({ url: r.url(), status: r.status() }));

  await page.goto(`${base}/graphiql`);
  await page.locator('.graphiql-container').waitFor();
  await page.locator('.graphiql-query-editor .CodeMirror').first().waitFor();
  step('rendered', { requests: loaded.length });

  await page.locator('.graphiql-execute-button').click();
  const result = page.locator('.result-window');
  await result.filter({ hasText: 'hasNextPage' }).waitFor();
  step('query answered', { result: (await result.innerText()).replace(/\s+/g, ' ').slice(0, 120) });

  const failed = loaded.filter((r) => r.status >= 400);
  if (offsite.length) throw new Error(`GraphiQL requested other origins: ${offsite.join(', ')}`);
  if (failed.length) throw new Error(`requests failed: ${JSON.stringify(failed)}`);
  if (problems.length) throw new Error(`browser errors: ${problems.join(' | ')}`);
  step('offline and same-origin', { assets: loaded.filter((r) => r.url.includes('/graphiql/')).map((r) => new URL(r.url).pathname) });
} catch (err) {
  process.stderr.write(`${err.stack || err}\n`);
  code = 1;
} finally {
  await browser.close();
}
process.exit(code);
