// Drives the console as a tenant whose nest already has the registry's own
// document, issued and read in full, and who then uploads the landlord's
// copy, printed later, that leaves out a 근저당권 the registry has: the
// copy's analysis leads (it is the newest read), and must say, above its
// totals, that the copy lacks what the registry has, naming the entry,
// without a check bought and without a reload; the CRITICAL alert is in the
// watch.
//
//   node web/test/copydiffers.mjs <baseURL> <token> <nestId> <copy.pdf> <screenshotPath>
//
// stdout: one JSON line per step; exit 0 on success, 1 on a failed check
// (the reason on stderr), 2 on bad usage. Every wait is on the DOM with a
// deadline; there are no fixed sleeps.
import { check, openNest, runConsolePage, step, uploadScriptArgs } from './lib.mjs';

const { base, token, nestId, copyPath, shot } = uploadScriptArgs('copydiffers.mjs');
const STEP_MS = 120_000; // a copy read from its text layer and its page images, under -race

await runConsolePage(shot, STEP_MS, async (page) => {
  await openNest(page, base, token, nestId, 'Issued, then a copy');
  await page.locator('#analysis .source[data-source="ISSUED"]').waitFor();
  check((await page.locator('#analysis .copy-differs').count()) === 0, 'the issued document shows a copy banner');
  step('issued document shown');
  await page.evaluate(() => {
    window.__noReload = true;
  });

  await page.locator('#upload-file').setInputFiles(copyPath);
  await page.locator('#analysis .source[data-source="UPLOADED"]').waitFor();
  const banner = page.locator('#analysis .copy-differs[data-status="COPY_DIFFERS"]');
  await banner.waitFor();
  const text = await banner.innerText();
  check(text.includes('This copy lacks what the registry has'), `the banner reads "${text}"`);
  check(text.includes('근저당'), `the banner does not name the 근저당권: "${text}"`);
  check((await banner.getAttribute('role')) === 'alert', 'the banner is not an alert');
  // Above the copy's totals, not below them.
  const signals = page.locator('#analysis .signals, #analysis [data-verdict]').first();
  const [b, s] = await Promise.all([banner.boundingBox(), signals.boundingBox()]);
  check(b && s && b.y < s.y, `the banner is not above the analysis: ${JSON.stringify([b, s])}`);
  const note = await page.locator('#upload-note', { hasText: 'Uploaded altered-copy.pdf: read. This copy: ' }).innerText();
  step('copy banner shown', { banner: text.split('\n').slice(0, 2).join(' | '), note });

  const alert = page.locator('#watch-alerts .alert-card[data-kind="COPY_DIFFERS"]');
  await alert.waitFor();
  check(await alert.evaluate((el) => el.classList.contains('severity-critical')), 'the alert is not CRITICAL');
  check(await page.evaluate(() => window.__noReload === true), 'the page reloaded');
  step('alert shown live');
});
