// Drives the console's check of an uploaded copy in headless Chromium
// against a running server, as a tenant would: open a nest, upload the
// landlord's copy (a PDF the Go test made without a 근저당권 the registry
// has), see that it is called a copy, not the registry, and its best verdict
// a copy's; verify it; see the banner, the missing entry beside the
// registry's, and the CRITICAL alert arrive live, without a reload.
//
//   node web/test/verify.mjs <baseURL> <token> <nestId> <copy.pdf> <screenshotPath>
//
// stdout: one JSON line per step; exit 0 on success, 1 on a failed check
// (the reason on stderr), 2 on bad usage. Every wait is on the DOM with a
// deadline; there are no fixed sleeps.
import { check, openNest, runConsolePage, step, uploadScriptArgs } from './lib.mjs';

const { base, token, nestId, copyPath, shot } = uploadScriptArgs('verify.mjs');
const STEP_MS = 120_000; // a copy read from its text layer and its page images, under -race

await runConsolePage(shot, STEP_MS, async (page) => {
  await openNest(page, base, token, nestId, 'Landlord’s copy');

  await page.locator('#upload-file').setInputFiles(copyPath);
  await page.locator('#upload-note', { hasText: 'Uploaded landlord-copy.pdf' }).waitFor();
  const source = page.locator('#analysis .source[data-source="UPLOADED"]');
  await source.waitFor();
  // The note follows the read to its end: not "being read" once it is read.
  await page.locator('#upload-note', { hasText: 'Uploaded landlord-copy.pdf: read. This copy: ' }).waitFor();
  const sourceText = await source.innerText();
  check(sourceText.includes('not the registry itself'), `the analysis's source reads "${sourceText}"`);
  const verdict = page.locator('#analysis [data-verdict]').first();
  const v = await verdict.getAttribute('data-verdict');
  check(v !== 'COMPLETE', `an uploaded copy's verdict is ${v}`);
  const verdictText = await verdict.innerText();
  // Each reason says what its code means, then the analysis's own words.
  const reasons = verdict.locator('.verdict-reasons li');
  const shown = [];
  for (let i = 0; i < (await reasons.count()); i++) {
    const li = reasons.nth(i);
    check((await li.locator('.reason-head').count()) === 1 && (await li.locator('.reason-detail').count()) === 1,
      `reason ${await li.getAttribute('data-code')} reads "${await li.innerText()}", without its meaning and detail`);
    shown.push(await li.getAttribute('data-code'));
  }
  step('copy read', { verdict: v, head: verdictText.split('\n')[0], source: sourceText, reasons: shown });

  await page.evaluate(() => {
    window.__noReload = true;
  });
  const button = page.locator('#verify-copy');
  check((await button.innerText()) === 'Verify this copy against the registry', `the button reads "${await button.innerText()}"`);
  // What a check costs, and what is left of the month's budget (none used yet).
  const note = await page.locator('#verify-note').innerText();
  check(note.includes('Each check buys one: 20 of 20 left this month.'), `the note beside the button reads "${note}"`);
  await button.click();
  await page.locator('.verification[data-status="PENDING"], .verification[data-status="DIFFERS"]').first().waitFor();
  step('verification started');

  const differs = page.locator('.verification[data-status="DIFFERS"]');
  await differs.waitFor();
  const banner = await differs.locator('.verify-banner').innerText();
  check(banner.includes('This copy differs from the registry'), `the banner reads "${banner}"`);
  const row = differs.locator('tr.difference.serious[data-kind="MISSING"]');
  check((await row.count()) === 1, `${await row.count()} serious missing rows`);
  const copySide = row.locator('td.copy-side');
  const registrySide = row.locator('td.registry-side');
  const copyText = await copySide.innerText();
  const registryText = await registrySide.innerText();
  check(copyText.includes('nothing'), `the copy's side reads "${copyText}"`);
  check(registryText.includes('근저당') && registryText.includes('240,000,000') && registryText.includes('새벽캐피탈'),
    `the registry's side reads "${registryText}"`);
  const rowHead = await row.locator('th').innerText();
  check(rowHead.includes('hidden risk'), `the row reads "${rowHead}"`);
  const boxes = await Promise.all([copySide.boundingBox(), registrySide.boundingBox()]);
  check(boxes[0] && boxes[1] && Math.abs(boxes[0].y - boxes[1].y) < 2 && boxes[1].x > boxes[0].x + boxes[0].width - 1,
    `the copy and the registry are not side by side: ${JSON.stringify(boxes)}`);
  const head = await differs.locator('.verify-head').count() ? await differs.locator('.verify-head').innerText() : '';
  step('differences shown', { banner, copy: copyText, registry: registryText, head });

  const alert = page.locator('#watch-alerts .alert-card[data-kind="COPY_DIFFERS"]');
  await alert.waitFor();
  check(await alert.evaluate((el) => el.classList.contains('severity-critical')), 'the alert is not CRITICAL');
  const alertText = await alert.innerText();
  check(alertText.includes('근저당'), `the alert reads "${alertText}"`);
  check(await page.evaluate(() => window.__noReload === true), 'the page reloaded');
  step('alert shown live', { alert: alertText.split('\n').slice(0, 3).join(' | ') });
});
