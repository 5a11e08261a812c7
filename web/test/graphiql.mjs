// Loads GraphiQL (/graphiql) in headless Chromium with every request to
// another origin refused, as on a machine without internet: the Docs
// explorer lists the Query type's fields, the editor offers a field as one
// types, and one query runs; the page's scripts, style and React must come
// from the server itself and work under its Content Security Policy.
//
//   node web/test/graphiql.mjs <baseURL> <token>
//
// stdout: one JSON line per step; exit 0 on success, 1 on a failed check
// (the reason on stderr), 2 on bad usage. Waits are on the DOM with a
// deadline.
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from './lib.mjs';

const args = process.argv.slice(2);
if (args.length < 2 || args.length > 3) {
  process.stderr.write('usage: node web/test/graphiql.mjs <baseURL> <token> [docsScreenshot.png]\n');
  process.exit(2);
}
const [base, token, shot] = args;
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

  // What a person sees of the schema: the Docs explorer lists the Query
  // type's fields (GraphiQL fetched and built the schema; it said "Error
  // fetching schema" when introspection was refused), and the editor
  // offers a field as one types.
  const docs = page.locator('button[aria-label="Show Documentation Explorer"]');
  await docs.click();
  const explorer = page.locator('.graphiql-doc-explorer');
  await explorer.locator('a.graphiql-doc-explorer-type-name', { hasText: /^Query$/ }).first().click();
  await explorer.locator('.graphiql-doc-explorer-field-name', { hasText: /^nests$/ }).waitFor();
  const fields = await explorer.locator('.graphiql-doc-explorer-field-name').allInnerTexts();
  step('docs explorer lists Query', { fields: fields.slice(0, 8) });
  if (shot) {
    await page.screenshot({ path: shot });
    step('screenshot', { path: shot });
  }
  const editor = page.locator('.graphiql-query-editor .CodeMirror').first();
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.type('{ ne');
  const hint = page.locator('.CodeMirror-hints .CodeMirror-hint', { hasText: /^nests$/ });
  await hint.waitFor();
  step('autocomplete offers a field', { hints: await page.locator('.CodeMirror-hints .CodeMirror-hint').allInnerTexts() });
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText('{ nests(first: 1) { nodes { id } pageInfo { hasNextPage } } }');
  const shown = await page.locator('body').innerText();
  if (/Error fetching schema|DEPTH_LIMIT_EXCEEDED/.test(shown)) throw new Error(`the page says: ${shown.match(/.*(Error fetching schema|DEPTH_LIMIT_EXCEEDED).*/)[0]}`);

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
