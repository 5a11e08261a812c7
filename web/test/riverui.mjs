// Drives River UI in headless Chromium as an operator would, and a page of
// another origin as an attacker would: the operator logs in through the
// form and opens a scheduled job; while logged in, a page on another port
// of the same host (the same site, so a SameSite=Strict cookie still goes
// with its requests) posts a text/plain cancel of that job, by form and by
// fetch; the job must still be scheduled. Then the operator presses River
// UI's own Cancel button, and the job is cancelled.
//
//   node web/test/riverui.mjs <baseURL> <user> <password> <jobId> <evilPageURL> <screenshotPath>
//
// stdout: one JSON line per step; exit 0 on success, 1 on a failed check
// (the reason on stderr), 2 on bad usage. Every wait is on the DOM or the
// network with a deadline; there are no fixed sleeps.
import { chromium } from 'playwright-core';
import { CheckError, check, chromiumLaunchOptions, step } from './lib.mjs';

const args = process.argv.slice(2);
if (args.length !== 6) {
  process.stderr.write('usage: node web/test/riverui.mjs <baseURL> <user> <password> <jobId> <evilPageURL> <screenshotPath>\n');
  process.exit(2);
}
const [base, user, password, jobId, evilURL, shot] = args;
const STEP_MS = 60_000;


const browser = await chromium.launch(await chromiumLaunchOptions());
let page;
let code = 0;
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  context.setDefaultTimeout(STEP_MS);
  page = await context.newPage();

  // The state of the job as River UI's API reports it to the logged-in page.
  const jobState = () => page.evaluate(async (id) => {
    const r = await fetch(`/riverui/api/jobs/${id}`, { headers: { Accept: 'application/json' } });
    if (!r.ok) return `HTTP ${r.status}`;
    return (await r.json()).state;
  }, jobId);

  // 1. The job's page sends a stranger to the login form.
  await page.goto(`${base}/riverui/jobs/${jobId}`);
  await page.waitForURL(/\/riverui\/login/);
  await page.getByRole('heading', { name: 'River UI' }).waitFor();
  step('login form shown', { url: page.url() });

  await page.getByLabel('User').fill(user);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('alert').filter({ hasText: 'Wrong user or password' }).waitFor();
  step('a wrong password is refused');

  await page.getByLabel('User').fill(user);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(new RegExp(`/riverui/jobs/${jobId}$`));
  // What the operator sees: River UI's job page, with its actions.
  await page.getByRole('button', { name: 'Cancel' }).first().waitFor();
  check(await jobState() === 'scheduled', `the job is ${await jobState()} before anything was done`);
  step('logged in: the job page shows its actions', { url: page.url() });

  // 2. Another origin of the same site posts a cancel, by form and by fetch.
  const evil = await context.newPage();
  const formAnswer = evil.waitForResponse((r) => r.url().endsWith('/riverui/api/jobs/cancel') && r.request().resourceType() === 'document');
  await evil.goto(evilURL);
  const answer = await formAnswer;
  await evil.waitForFunction(() => document.title === 'sent' || location.pathname.endsWith('/cancel'));
  check(answer.status() === 403, `the cross-site form's cancel was answered ${answer.status()}, want 403`);
  const refusal = await answer.text();
  check(/another site|not this origin/.test(refusal), `the refusal does not say why: ${refusal}`);
  await evil.close();
  check(await jobState() === 'scheduled', `after the cross-site posts the job is ${await jobState()}`);
  step('a cross-site cancel is refused; the job is still scheduled', { status: answer.status() });

  // 3. River UI's own Cancel button still works.
  const cancelled = page.waitForResponse((r) => r.url().endsWith('/riverui/api/jobs/cancel') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Cancel' }).first().click();
  const own = await cancelled;
  check(own.status() === 200, `River UI's own cancel was answered ${own.status()}: ${await own.text()}`);
  await page.waitForFunction(async (id) => {
    const r = await fetch(`/riverui/api/jobs/${id}`);
    return r.ok && (await r.json()).state === 'cancelled';
  }, jobId, { polling: 200 });
  step('River UI\'s own Cancel button cancels the job');
  await page.screenshot({ path: shot, fullPage: true });
  step('screenshot', { path: shot });

  // 4. Logging out ends the session: the API refuses the browser again.
  const status = await page.evaluate(async () => {
    await fetch('/riverui/logout', { method: 'POST' });
    return (await fetch('/riverui/api/queues')).status;
  });
  check(status === 401, `after logging out the API answered ${status}, want 401`);
  step('logged out');
} catch (err) {
  code = 1;
  process.stderr.write(`${err instanceof CheckError ? 'check failed' : 'error'}: ${err.stack || err}\n`);
  if (page) {
    try {
      process.stderr.write(`page ${page.url()}:\n${(await page.locator('body').innerText()).slice(0, 2000)}\n`);
    } catch {}
  }
} finally {
  await browser.close();
}
process.exit(code);
