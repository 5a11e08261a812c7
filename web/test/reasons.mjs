// Drives the console in headless Chromium as a Korean tenant would: open a
// nest, upload a copy of its registry printed 40 days ago (PARTIAL:
// OLD_COPY), and read why in English, then in Korean: each reason says what
// its code means in the console's language, then the analysis's own words.
//
//   node web/test/reasons.mjs <baseURL> <token> <nestId> <copy.pdf> <screenshotPath>
//
// stdout: one JSON line per step; exit 0 on success, 1 on a failed check
// (the reason on stderr), 2 on bad usage. Every wait is on the DOM with a
// deadline; there are no fixed sleeps.
import { check, openNest, runConsolePage, step, uploadScriptArgs } from './lib.mjs';

const { base, token, nestId, copyPath, shot } = uploadScriptArgs('reasons.mjs');
const STEP_MS = 120_000; // a copy read from its text layer and its page images, under -race

await runConsolePage(shot, STEP_MS, async (page) => {
  await openNest(page, base, token, nestId, 'Old copy');

  await page.locator('#upload-file').setInputFiles(copyPath);
  const verdict = page.locator('#analysis [data-verdict="PARTIAL"]').first();
  await verdict.waitFor();
  const reason = verdict.locator('.verdict-reasons li[data-code="OLD_COPY"]');
  await reason.waitFor();
  const head = await reason.locator('.reason-head').innerText();
  const detail = await reason.locator('.reason-detail').innerText();
  check(head === 'The copy was printed long ago: later entries are not on it.', `the reason's meaning reads "${head}"`);
  check(detail.includes('printed') && (await reason.locator('.reason-detail').getAttribute('lang')) === 'en',
    `the reason's detail reads "${detail}"`);
  step('reason in English', { head, detail });

  await page.getByRole('button', { name: '한국어' }).click();
  const koReason = page.locator('#analysis [data-verdict="PARTIAL"] .verdict-reasons li[data-code="OLD_COPY"]').first();
  await koReason.locator('.reason-head', { hasText: '오래전에 출력된 사본입니다' }).waitFor();
  const koHead = await koReason.locator('.reason-head').innerText();
  check(koHead === '오래전에 출력된 사본입니다. 그 뒤의 등기는 실려 있지 않습니다.', `the reason's meaning in Korean reads "${koHead}"`);
  check((await koReason.locator('.reason-detail').innerText()) === detail, 'the detail changed with the language');
  step('reason in Korean', { head: koHead });
});
