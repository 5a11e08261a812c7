// Drives the console's registry watch in headless Chromium against a
// running server, as a tenant would: create a nest, issue its registry (the
// baseline read), set a watch on it, see the schedule and the budget; then,
// once the registry changed (the Go test registers a 가압류 in the simulator
// when told), issue again and see the alert appear live with the entries
// before and after side by side, and acknowledge it.
//
//   node web/test/watch.mjs <baseURL> <token> <screenshotPath>
//
// Handshake with the caller: after the baseline read it prints
// {"step":"baseline read","uniqueNo":…} and waits for one line on stdin
// (the registry has changed). stdout: one JSON line per step; exit 0 on
// success, 1 on a failed check (the reason on stderr), 2 on bad usage. Every
// wait is on the DOM with a deadline; there are no fixed sleeps.
import { createInterface } from 'node:readline';
import { check, runConsolePage, step } from './lib.mjs';

const args = process.argv.slice(2);
if (args.length !== 3) {
  process.stderr.write('usage: node web/test/watch.mjs <baseURL> <token> <screenshotPath>\n');
  process.exit(2);
}
const [base, token, shot] = args;
const STEP_MS = 60_000; // an issuance with its OCR and comparison, under -race

const stdinLines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();

// Dates as the server counts them: Seoul.
const seoulDate = (days) => {
  const d = new Date(Date.now() + days * 86_400_000);
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Seoul', year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
};

await runConsolePage(shot, STEP_MS, async (page) => {

  await page.goto(`${base}/#token=${encodeURIComponent(token)}`);
  await page.getByRole('heading', { level: 1, name: 'Your nests' }).waitFor();
  await page.locator('#conn[data-state="live"]').waitFor();

  const uniqueNo = '1101-2026-' + String(Date.now() % 1_000_000).padStart(6, '0');
  await page.getByLabel('Title').fill('Watched two-room');
  await page.getByLabel('Address', { exact: true }).fill('서울특별시 마포구 월드컵북로 400');
  await page.getByLabel('Registry unique number (고유번호)').fill(uniqueNo);
  await page.getByRole('button', { name: 'Create nest' }).click();
  await page.getByRole('heading', { level: 1, name: 'Watched two-room' }).waitFor();
  step('nest created');

  const watch = page.getByRole('region', { name: 'Registry watch' });
  await watch.waitFor();
  const budget = page.locator('#watch-budget');
  await budget.filter({ hasText: /0 of 20/ }).waitFor();
  check((await page.locator('#watch-schedule > li').innerText()).includes('No checks scheduled'), 'a schedule before any watch');
  await page.locator('#watch-alerts').filter({ hasText: 'No alerts.' }).waitFor();
  step('no watch yet', { budget: await budget.innerText() });

  // The baseline read: issue once and wait for its comparison in the
  // history of checks.
  const issue = page.getByRole('button', { name: 'Issue registry document' });
  await issue.click();
  const card = page.locator('.task-issuance').first();
  await card.locator('.task-ocr').first().locator(':scope > .task-head .status', { hasText: 'SUCCESS' }).waitFor();
  await page.locator('#watch-history > li[data-outcome="BASELINE"]').waitFor();
  step('baseline read', { uniqueNo: uniqueNo.replace(/-/g, '') });

  // Set the watch: a past date is refused with a clear message, then the
  // contract tomorrow and the balance payment in three days.
  await page.getByLabel('Contract date').fill(seoulDate(-2));
  await page.getByRole('button', { name: 'Save watch' }).click();
  const note = page.locator('#watch-note');
  await note.filter({ hasText: /past/i }).waitFor();
  step('past date refused', { message: await note.innerText() });
  await page.getByLabel('Contract date').fill(seoulDate(1));
  await page.getByLabel('Balance payment (잔금)').fill(seoulDate(3));
  await page.getByRole('button', { name: 'Save watch' }).click();
  await note.filter({ hasText: 'Watch saved.' }).waitFor();
  const schedule = page.locator('#watch-schedule > li[data-status="SCHEDULED"]');
  await schedule.nth(1).waitFor();
  const items = await schedule.allInnerTexts();
  check(items.length === 2, `the schedule lists ${JSON.stringify(items)}`);
  check(items[0].includes(seoulDate(1)) && /contract/i.test(items[0]), `the first check reads "${items[0]}"`);
  check(items[1].includes(seoulDate(3)) && /balance/i.test(items[1]), `the second check reads "${items[1]}"`);
  // Budget: the month of each check counts; both may fall in this month or
  // one in the next.
  const used = seoulDate(3).slice(0, 7) === seoulDate(0).slice(0, 7) ? 2 : 1;
  await budget.filter({ hasText: new RegExp(`${used} of 20`) }).waitFor();
  step('watch set', { schedule: items, budget: await budget.innerText() });

  // The registry changes (the caller registers a 가압류), and the tenant
  // issues again: the alert must appear without a reload.
  const next = await stdinLines.next();
  check(!next.done, 'stdin closed before the registry changed');
  await page.evaluate(() => {
    window.__noReload = true;
  });
  await issue.click();
  const alert = page.locator('#watch-alerts .alert-card[data-kind="NEW_ENTRY"]');
  await alert.waitFor();
  check(await page.evaluate(() => window.__noReload === true), 'the page reloaded');
  const before = alert.locator('.before-after .entry').nth(0);
  const after = alert.locator('.before-after .entry').nth(1);
  check((await before.locator('h5').innerText()) === 'Before', 'the left side is not "Before"');
  check((await after.locator('h5').innerText()) === 'After', 'the right side is not "After"');
  check(await before.evaluate((el) => el.classList.contains('none')), 'a new entry has a "before" entry');
  const afterText = await after.innerText();
  check(afterText.includes('가압류'), `the "after" entry reads "${afterText}"`);
  check(afterText.includes('35,000,000'), `the "after" entry lacks the claim: "${afterText}"`);
  // A box is null while its card is drawn again by a live update: ask
  // until both are laid out.
  let boxes = [];
  for (let i = 0; i < 50; i++) {
    boxes = await Promise.all([before.boundingBox(), after.boundingBox()]);
    if (boxes[0] && boxes[1]) break;
    await page.waitForTimeout(100);
  }
  check(boxes[0] && boxes[1] && Math.abs(boxes[0].y - boxes[1].y) < 2 && boxes[1].x > boxes[0].x + boxes[0].width - 1,
    `before and after are not side by side: ${JSON.stringify(boxes)}`);
  const heading = await alert.locator('h4').innerText();
  step('alert shown live', { heading, after: afterText });
  await page.locator('#watch-history > li[data-outcome="CHANGED"]').waitFor();

  await alert.getByRole('button', { name: 'Acknowledge' }).click();
  await alert.filter({ hasText: 'Acknowledged' }).waitFor();
  check(await alert.evaluate((el) => el.classList.contains('acknowledged')), 'the acknowledged alert is not marked so');
  check((await alert.getByRole('button', { name: 'Acknowledge' }).count()) === 0, 'the Acknowledge button stayed');
  step('alert acknowledged');
});
