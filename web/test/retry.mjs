// Opens a nest in the console whose registry bot fails every attempt (the
// server runs with two attempts, retried after a few seconds) and checks
// what the task card says: during the scheduled retry the headline names
// the coming attempt and the details the one that failed, never two
// numbers that seem to disagree; at FAILED the request's note is gone.
//
//   node web/test/retry.mjs <baseURL> <token> <nestId>
//
// stdout: one JSON line per step; exit 0 on success, 1 on a failed check
// (the reason on stderr), 2 on bad usage. Waits are on the DOM with a
// deadline.
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from './lib.mjs';

const args = process.argv.slice(2);
if (args.length !== 3) {
  process.stderr.write('usage: node web/test/retry.mjs <baseURL> <token> <nestId>\n');
  process.exit(2);
}
const [base, token, nestId] = args;
const step = (name, extra = {}) => process.stdout.write(JSON.stringify({ step: name, ...extra }) + '\n');
const check = (ok, message) => {
  if (!ok) throw new Error(message);
};

const browser = await chromium.launch(await chromiumLaunchOptions());
let code = 0;
try {
  const context = await browser.newContext({ locale: 'en-US' });
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  await page.goto(`${base}/#token=${encodeURIComponent(token)}`);
  await page.getByRole('heading', { level: 1, name: 'Your nests' }).waitFor();
  await page.goto(`${base}/#/nest/${nestId}`);
  await page.getByRole('button', { name: 'Issue registry document' }).click();
  const note = page.locator('#issue-note');
  await note.filter({ hasText: 'Started a new issuance' }).waitFor();

  const card = page.locator('.task-issuance').first();
  const countdown = card.locator('.countdown');
  await countdown.filter({ hasText: /attempt 2\/2/ }).waitFor();
  const headline = await countdown.innerText();
  const details = await card.locator('.attempt').innerText();
  step('retry scheduled', { headline, details });
  check(/retrying (in \d+ s|now), attempt 2\/2/.test(headline), `the retry headline reads "${headline}"`);
  check(details === 'attempt 1/2 failed', `during the retry the details read "${details}", want "attempt 1/2 failed"`);

  await card.locator(':scope > .task-head .status').filter({ hasText: 'FAILED' }).waitFor();
  const final = await card.locator('.attempt').innerText();
  check(final === 'attempt 2/2', `after the last attempt the details read "${final}", want "attempt 2/2"`);
  await page.waitForFunction(() => document.getElementById('issue-note').textContent === '', null, { timeout: 30_000 });
  step('FAILED shown, request note cleared', { details: final });
} catch (err) {
  process.stderr.write(`${err.stack || err}\n`);
  code = 1;
} finally {
  await browser.close();
}
process.exit(code);
