// A nest's registry analysis (nest.registryAnalysis): the current owner(s),
// the live mortgages and 전세권, the risk flags with the entries behind
// them, the parser's notes, and the debt ratio for a deposit and a price the
// user enters. Read on load and again whenever the page learns that an OCR
// task succeeded (a newer text of the document), or the amounts change.

import { ApiError, gql } from './api';
import { h, replace, swap, type Child } from './dom';
import { graphql } from './gql';
import type { AnalysisEntryFragment, AnalysisRefFragment, CopyCheckFragment, RegistryAnalysisQuery, RegistryAnalysisQueryVariables, VerdictReasonCode } from './gql/graphql';
import { formatDate, formatPercent, formatTime, formatWon, formatWonWords, has, lang, t, tIn, type Key } from './i18n';

const VERIFY_COPY = graphql(`mutation VerifyCopy($fileId: ID!) { verifyCopy(fileId: $fileId) { reused verification { id status } } }`);
/** While a copy's check runs, the analysis is read again this often (no event says it ended without an alert). */
const VERIFY_POLL_MS = 2000;

graphql(`fragment AnalysisRef on RegistryEntryRef { section rank purpose kind }`);

graphql(`fragment AnalysisEntry on RegistryEntry { section rank purpose kind received amountLabel amount cancelled holders { role name share } }`);

graphql(`fragment CopyCheck on CopyVerification { id status message file { id } differences {
  kind section rank purpose afterCopy serious message copyEntry { ...AnalysisEntry } registryEntry { ...AnalysisEntry } } }`);

const REGISTRY_ANALYSIS = graphql(`query RegistryAnalysis($id: ID!, $deposit: Int64, $price: Int64) {
  nest(id: $id) {
    id
    copyVerification { ...CopyCheck }
    alerts(first: 20) { nodes { id kind message ocrTask { id } } }
    registryAnalysis(deposit: $deposit, price: $price) {
      ocrTask { id } source file { id } parserVersion analyzedAt verdict reasons { code message section rank note } advice error
      verification { ...CopyCheck }
      registry {
        title { address uniqueNo buildingName buildingNumber unitNumber areaM2 }
        ownership { ...AnalysisEntry } rights { ...AnalysisEntry } warnings printedAt
      }
      findings {
        ownership { owners { name role share } since recentTransfer entries { ...AnalysisRef } }
        mortgages { total entries { ...AnalysisRef } }
        jeonse { total entries { ...AnalysisRef } }
        flags { kind total entries { ...AnalysisRef } }
        ratio { value mortgages jeonse leases deposit price }
      }
    }
  }
  watchBudget { verificationLimit verificationsRemaining }
}`);

// The shapes read, as graphql-codegen types them from the documents above.

/** A registry entry named by a finding (AnalysisRef). */
export type EntryRef = AnalysisRefFragment;
type Entry = AnalysisEntryFragment;
/** The latest check of an uploaded copy against the registry (CopyCheck). */
type Verification = CopyCheckFragment;
/** The analysis of the newest OCR read of the nest's registry. */
export type RegistryAnalysis = NonNullable<RegistryAnalysisQuery['nest']['registryAnalysis']>;
export type Verdict = RegistryAnalysis['verdict'];
export type VerdictReason = RegistryAnalysis['reasons'][number];
/** What was read, whatever the verdict (signals is the same, but only on a COMPLETE read). */
type Signals = RegistryAnalysis['findings'];
type Total = Signals['mortgages'];

/** Above this share of the price, mortgages plus the deposit put the deposit at risk. */
export const RATIO_WARN = 0.7;
/** The amounts are re-sent this long after the user stops typing. */
const INPUT_DEBOUNCE_MS = 400;
/** 15 digits: far above any price in won, and exact in a JavaScript number. */
const MAX_WON = 999_999_999_999_999;

/**
 * The amounts typed on a nest's page, kept while the tab lives: a language
 * switch rebuilds the page, and must not lose them.
 */
const remembered = new Map<string, { deposit: string; price: string }>();

export interface AnalysisView {
  el: HTMLElement;
  /** refresh re-reads the analysis: on load, and when an OCR task succeeded. */
  refresh(): void;
  /** recover re-reads it if the last read failed (the page is reachable again). */
  recover(): void;
  dispose(): void;
}

type AmountName = 'deposit' | 'price';

interface AmountField {
  input: HTMLInputElement;
  hint: HTMLElement;
  error: HTMLElement;
  wrap: HTMLElement;
}

/** An amount as typed: null when empty, bad when not a whole number of won. */
interface Amount {
  value: number | null;
  bad: boolean;
}

export function analysisView(nestId: string): AnalysisView {
  let data: RegistryAnalysis | null = null;
  /** The latest check of one of the nest's copies: shown above the registry's own read once it is the analysis. */
  let nestCheck: Verification | null = null;
  /** The nest's newest alerts: those about the copy shown are shown with it. */
  let nestAlerts: RegistryAnalysisQuery['nest']['alerts']['nodes'] = [];
  /** The caller's checks of copies left this month, of the most a month. */
  let verifyBudget: RegistryAnalysisQuery['watchBudget'] | null = null;
  let loaded = false;
  let failure = '';
  let disposed = false;
  let running = false;
  let pending = false;
  let debounce: ReturnType<typeof setTimeout> | undefined;
  let bodySig = '';
  let verifyPoll: ReturnType<typeof setTimeout> | undefined;

  const fields: Record<AmountName, AmountField> = {
    deposit: amountField('deposit', 'analysis.deposit'),
    price: amountField('price', 'analysis.price'),
  };
  const saved = remembered.get(nestId);
  if (saved) {
    fields.deposit.input.value = saved.deposit;
    fields.price.input.value = saved.price;
  }
  for (const name of ['deposit', 'price'] as const) showHint(name);

  const ratioOut = h('div', { class: 'ratio', id: 'analysis-ratio', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' });
  const form = h(
    'form',
    { class: 'ratio-form', novalidate: true, 'aria-labelledby': 'ratio-title', hidden: true },
    h('h3', { id: 'ratio-title' }, t('analysis.ratioTitle')),
    h('p', { class: 'muted' }, t('analysis.ratioIntro')),
    h('div', { class: 'amounts' }, fields.deposit.wrap, fields.price.wrap),
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, t('analysis.calculate'))),
    ratioOut,
  );
  const source = h('p', { class: 'muted source', hidden: true });
  let body: HTMLElement = h('div', { class: 'analysis-body' });

  const el = h(
    'section',
    { class: 'analysis card', id: 'analysis', 'aria-labelledby': 'analysis-title' },
    h('h2', { id: 'analysis-title' }, t('analysis.title')),
    source,
    body,
    form,
  );

  for (const name of ['deposit', 'price'] as const) {
    const f = fields[name];
    f.input.addEventListener('input', () => {
      remembered.set(nestId, { deposit: fields.deposit.input.value, price: fields.price.input.value });
      showHint(name);
      // A mark goes away as the user fixes the field, and not while they first type.
      if (f.input.getAttribute('aria-invalid') === 'true' && !amount(name).bad) showError(name, '');
      stopDebounce();
      if (!amount('deposit').bad && !amount('price').bad) {
        debounce = setTimeout(() => {
          debounce = undefined;
          refresh();
        }, INPUT_DEBOUNCE_MS);
      }
      renderRatio();
    });
    f.input.addEventListener('change', () => showError(name, amount(name).bad ? t('analysis.amountInvalid') : ''));
  }
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    stopDebounce();
    let firstBad: HTMLInputElement | null = null;
    for (const name of ['deposit', 'price'] as const) {
      const bad = amount(name).bad;
      showError(name, bad ? t('analysis.amountInvalid') : '');
      if (bad && !firstBad) firstBad = fields[name].input;
    }
    if (firstBad) {
      firstBad.focus();
      return;
    }
    refresh();
  });

  function stopDebounce(): void {
    clearTimeout(debounce);
    debounce = undefined;
  }

  function amount(name: AmountName): Amount {
    const input = fields[name].input;
    if (input.validity.badInput) return { value: null, bad: true };
    const raw = input.value.trim();
    if (raw === '') return { value: null, bad: false };
    const n = Number(raw);
    if (!Number.isSafeInteger(n) || n < 0 || n > MAX_WON) return { value: null, bad: true };
    return { value: n, bad: false };
  }

  function showHint(name: AmountName): void {
    const a = amount(name);
    const f = fields[name];
    if (a.value != null && !a.bad) {
      const words = formatWonWords(a.value);
      replace(f.hint, '= ', h('span', { class: 'won' }, formatWon(a.value)), words ? h('span', { lang: 'ko' }, ` (${words})`) : null);
    } else {
      replace(f.hint, t('analysis.amountHint'));
    }
  }

  function showError(name: AmountName, message: string): void {
    const f = fields[name];
    f.error.textContent = message;
    if (message) f.input.setAttribute('aria-invalid', 'true');
    else f.input.removeAttribute('aria-invalid');
  }

  /**
   * refresh asks for the analysis with the amounts as they are now.
   * Requests never overlap: one asked for while another is in flight runs
   * after it (with the amounts of that moment), so the newest answer is
   * always the last applied, and a burst of asks costs at most two reads.
   */
  function refresh(): void {
    if (disposed) return;
    pending = true;
    if (!running) void loop();
  }

  async function loop(): Promise<void> {
    running = true;
    el.setAttribute('aria-busy', 'true');
    renderRatio();
    try {
      while (pending && !disposed) {
        pending = false;
        await readOnce();
      }
    } finally {
      running = false;
      el.removeAttribute('aria-busy');
      render();
    }
  }

  async function readOnce(): Promise<void> {
    const vars: RegistryAnalysisQueryVariables = { id: nestId };
    for (const name of ['deposit', 'price'] as const) {
      const a = amount(name);
      if (a.value != null && !a.bad) vars[name] = a.value;
    }
    try {
      const res = await gql(REGISTRY_ANALYSIS, vars);
      data = res.nest.registryAnalysis;
      nestCheck = res.nest.copyVerification;
      nestAlerts = res.nest.alerts.nodes;
      verifyBudget = res.watchBudget;
      loaded = true;
      failure = '';
    } catch (e) {
      failure = e instanceof ApiError ? e.userMessage() : String(e);
      if (e instanceof ApiError) {
        // The nest's page says it is missing or someone else's already.
        if (e.code === 'NOT_FOUND' || e.code === 'FORBIDDEN') el.hidden = true;
        if (e.code === 'BAD_USER_INPUT' && (e.field === 'deposit' || e.field === 'price')) showError(e.field, e.message);
      }
    }
    render();
  }

  function render(): void {
    if (disposed) return;
    // The body is rebuilt only when what it shows changed (the ratio has its
    // own live region), and swapped so that focus and open <details> stay.
    const sig = JSON.stringify([lang(), loaded, failure, nestCheck, nestAlerts, verifyBudget, data && { ...data, findings: { ...data.findings, ratio: null } }]);
    if (sig !== bodySig) {
      bodySig = sig;
      const next = h('div', { class: 'analysis-body' }, bodyContent());
      swap(body, next);
      body = next;
      if (data) {
        source.hidden = false;
        source.textContent = t(data.source === 'UPLOADED' ? 'analysis.sourceUploaded' : 'analysis.sourceIssued') + ' ' +
          t('analysis.source', { id: data.ocrTask.id, at: formatTime(data.analyzedAt), v: data.parserVersion }) +
          ' ' + (data.registry?.printedAt ? t('analysis.printed', { at: formatTime(data.registry.printedAt) }) : t('analysis.undated'));
        source.dataset.source = data.source;
        source.title = data.ocrTask.id;
      } else {
        source.hidden = true;
      }
    }
    // A ratio from a partial read would understate the debt: only a complete read gets one.
    form.hidden = !data?.registry || data.verdict !== 'COMPLETE';
    renderRatio();
    clearTimeout(verifyPoll);
    if ((data?.verification?.status === 'PENDING' || nestCheck?.status === 'PENDING') && !disposed) verifyPoll = setTimeout(refresh, VERIFY_POLL_MS);
  }

  async function verify(button: HTMLButtonElement, note: HTMLElement, checkedFile?: string): Promise<void> {
    if (!data) return;
    button.disabled = true;
    note.textContent = t('verify.pending');
    try {
      await gql(VERIFY_COPY, { fileId: checkedFile ?? data.file.id });
      refresh();
    } catch (e) {
      note.textContent = e instanceof ApiError ? e.userMessage() : String(e);
      button.disabled = false;
    }
  }

  /**
   * verificationView shows an uploaded copy's check against the registry, or
   * offers it. Once the registry's own document is read it is the nest's
   * analysis: the check of the copy (the nest's latest) is shown above it.
   */
  function verificationView(a: RegistryAnalysis): HTMLElement | null {
    const v = a.source === 'UPLOADED' ? a.verification : nestCheck;
    if (a.source === 'UPLOADED' ? !a.registry : !v) return null;
    const left = verifyBudget ? ' ' + t('verify.left', { left: verifyBudget.verificationsRemaining, limit: verifyBudget.verificationLimit }) : '';
    const note = h('p', { class: 'muted', role: 'status', id: 'verify-note' }, t('verify.hint') + left);
    const button = h('button', { type: 'button', id: 'verify-copy' }, t(v ? 'verify.again' : 'verify.button'));
    button.addEventListener('click', () => void verify(button, note, a.source === 'UPLOADED' ? undefined : v?.file.id));
    // Above the registry's own read, say whose check this is.
    const head = a.source === 'UPLOADED' ? null : h('h4', { class: 'verify-head' }, t('verify.checkedCopy'));
    if (!v || v.status === 'COULD_NOT_VERIFY') {
      return h(
        'section',
        { class: 'verification', 'data-status': v?.status ?? 'NONE' },
        head,
        v ? h('p', { class: 'warn-note', role: 'alert' }, h('strong', null, t('verify.COULD_NOT_VERIFY')), ' ', v.message ?? '') : null,
        h('div', { class: 'actions' }, button),
        note,
      );
    }
    if (v.status === 'PENDING') {
      return h('section', { class: 'verification', 'data-status': v.status, 'aria-busy': 'true' }, head, h('p', { class: 'muted', role: 'status' }, t('verify.pending')));
    }
    if (v.status === 'MATCHES') {
      return h('section', { class: 'verification', 'data-status': v.status }, head, h('p', { role: 'status' }, t('verify.MATCHES')));
    }
    return h(
      'section',
      { class: 'verification verification-differs', 'data-status': v.status, role: 'alert' },
      head,
      h('p', { class: 'verify-banner' }, h('strong', null, t('verify.DIFFERS')), ' ', v.message ?? ''),
      h(
        'table',
        { class: 'side-by-side' },
        h('thead', null, h('tr', null, h('th', null, ''), h('th', null, t('verify.copy')), h('th', null, t('verify.registry')))),
        h(
          'tbody',
          null,
          v.differences.map((d) =>
            h(
              'tr',
              { class: d.serious ? 'difference serious' : 'difference', 'data-kind': d.kind, 'data-rank': d.rank },
              h(
                'th',
                { scope: 'row' },
                sectionName(d.section),
                ' ',
                t('analysis.rank', { rank: d.rank }),
                d.serious ? h('span', { class: 'badge badge-danger' }, '⚠ ', t('verify.serious')) : null,
                d.afterCopy ? h('span', { class: 'badge badge-muted' }, t('verify.afterCopy')) : null,
              ),
              h('td', { class: 'copy-side' }, differenceEntry(d.copyEntry)),
              h('td', { class: 'registry-side' }, differenceEntry(d.registryEntry)),
            ),
          ),
        ),
      ),
      h('ul', { class: 'difference-messages', lang: 'en' }, v.differences.map((d) => h('li', null, d.message))),
    );
  }

  function bodyContent(): Child {
    if (!data) {
      if (failure) return h('p', { class: 'error', role: 'alert' }, t('analysis.failed', { reason: failure }));
      return h('p', { class: 'muted', 'data-state': loaded ? 'waiting' : 'loading' }, t(loaded ? 'analysis.waiting' : 'analysis.loading'));
    }
    return [
      h('p', { class: 'muted intro' }, t('analysis.intro')),
      failure ? h('p', { class: 'error', role: 'alert' }, t('analysis.failed', { reason: failure })) : null,
      copyDiffersView(data),
      verificationView(data),
      signalsView(data),
    ];
  }

  /**
   * copyDiffersView shows, above an uploaded copy's analysis, the COPY_DIFFERS
   * alerts raised on its read: it lacks an entry the registry's own document
   * (issued here and read in full) has, so its totals leave that entry out.
   * A check against the registry that found the same shows its own table.
   */
  function copyDiffersView(a: RegistryAnalysis): HTMLElement | null {
    if (a.source !== 'UPLOADED' || a.verification?.status === 'DIFFERS') return null;
    const found = nestAlerts.filter((x) => x.kind === 'COPY_DIFFERS' && x.ocrTask?.id === a.ocrTask.id);
    if (!found.length) return null;
    return h(
      'section',
      { class: 'verification verification-differs copy-differs', 'data-status': 'COPY_DIFFERS', role: 'alert' },
      h('p', { class: 'verify-banner' }, h('strong', null, t('analysis.copyDiffers')), ' ', t('analysis.copyDiffersHint')),
      h('ul', { class: 'difference-messages', lang: 'en' }, found.map((x) => h('li', null, x.message))),
    );
  }

  function renderRatio(): void {
    if (!data?.registry) {
      replace(ratioOut);
      return;
    }
    const d = amount('deposit');
    const p = amount('price');
    const ratio = data.findings.ratio;
    delete ratioOut.dataset.warning;
    if (d.bad || p.bad) {
      ratioOut.dataset.state = 'invalid';
      replace(ratioOut);
    } else if (!d.value || !p.value) {
      ratioOut.dataset.state = 'empty';
      replace(ratioOut, h('p', { class: 'muted' }, t('analysis.ratioNeedBoth')));
    } else if (!ratio || ratio.deposit !== d.value || ratio.price !== p.value) {
      // What is shown was computed for other amounts: a read is due or under way.
      ratioOut.dataset.state = 'busy';
      replace(
        ratioOut,
        !running && failure && !pending && debounce === undefined
          ? h('p', { class: 'error' }, t('analysis.failed', { reason: failure }))
          : h('p', { class: 'muted' }, t('analysis.ratioBusy')),
      );
    } else {
      const high = ratio.value > RATIO_WARN;
      ratioOut.dataset.state = 'shown';
      ratioOut.dataset.warning = String(high);
      replace(
        ratioOut,
        h(
          'p',
          { class: 'ratio-value' },
          h('strong', { class: 'percent' }, t('analysis.ratio', { p: formatPercent(ratio.value) })),
          high ? h('span', { class: 'badge badge-danger' }, '⚠ ', t('analysis.ratioHigh')) : null,
        ),
        h(
          'p',
          { class: 'muted formula' },
          t('analysis.ratioFormula', {
            m: formatWon(ratio.mortgages),
            j: formatWon(ratio.jeonse),
            l: formatWon(ratio.leases),
            d: formatWon(ratio.deposit),
            p: formatWon(ratio.price),
          }),
        ),
        h('p', { class: high ? 'warn-note' : 'muted' }, t(high ? 'analysis.ratioHighHelp' : 'analysis.ratioOk')),
      );
    }
  }

  render();

  return {
    el,
    refresh,
    recover: () => {
      if (failure && !running) refresh();
    },
    dispose: () => {
      disposed = true;
      stopDebounce();
      clearTimeout(verifyPoll);
    },
  };
}

function amountField(name: AmountName, label: Key): AmountField {
  const id = `analysis-${name}`;
  const input = h('input', {
    id,
    name,
    type: 'number',
    inputmode: 'numeric',
    min: 0,
    max: MAX_WON,
    step: 1,
    autocomplete: 'off',
    placeholder: t('analysis.example', { n: name === 'deposit' ? '200000000' : '500000000' }),
    'aria-describedby': `${id}-hint ${id}-error`,
  });
  const hint = h('p', { id: `${id}-hint`, class: 'hint' });
  const error = h('p', { id: `${id}-error`, class: 'field-error' });
  const wrap = h(
    'div',
    { class: 'field' },
    h('label', { for: id }, t(label)),
    h('div', { class: 'won-input' }, input, h('span', { 'aria-hidden': 'true' }, '원')),
    hint,
    error,
  );
  return { input, hint, error, wrap };
}

/**
 * verdictView says first how far the read can be trusted: plainly, and with
 * what to do, when the document was not read in full or is another
 * property's.
 */
// Every reason code the API can send has its meaning in i18n.ts: tsc fails
// here on a code added to the schema without one.
type ReasonWithoutMeaning = Exclude<`reason.${VerdictReasonCode}`, Key>;
type Nothing<T extends never> = T;
export type EveryReasonHasItsMeaning = Nothing<ReasonWithoutMeaning>;

// reasonItem is a reason: what its code means, in the console's language,
// then the analysis's own words (English), which name the entry and the
// figures.
function reasonItem(r: VerdictReason): HTMLElement {
  const key = `reason.${r.code}`;
  return h(
    'li',
    { 'data-code': r.code },
    has(key) ? h('strong', { class: 'reason-head' }, t(key as Key)) : null,
    has(key) ? ' ' : null,
    h('span', { class: 'reason-detail', lang: 'en' }, r.message),
  );
}

function verdictView(a: RegistryAnalysis): HTMLElement {
  // A read in full says how much was read, not that the property is safe:
  // it is drawn plainly, never as a green light.
  const readInFull = a.verdict === 'COMPLETE' || a.verdict === 'COPY_COMPLETE';
  const reasons = a.reasons.filter((r) => !r.note);
  const notes = a.reasons.filter((r) => r.note);
  const key = `analysis.verdict.${a.verdict}`;
  return h(
    'div',
    {
      class: readInFull ? 'verdict verdict-read' : 'verdict error',
      'data-verdict': a.verdict,
      role: readInFull ? 'status' : 'alert',
    },
    h('p', { class: 'verdict-head' }, h('strong', null, readInFull ? '' : '⚠ ', has(key) ? t(key as Key) : a.verdict)),
    h('p', { class: 'verdict-help' }, t(has(`${key}.help`) ? (`${key}.help` as Key) : 'analysis.verdict.PARTIAL.help')),
    reasons.length ? h('ul', { class: 'verdict-reasons' }, reasons.map(reasonItem)) : null,
    notes.length
      ? h(
          'details',
          { class: 'verdict-notes' },
          h('summary', null, t('analysis.verdict.notes', { n: notes.length })),
          h('ul', null, notes.map(reasonItem)),
        )
      : null,
  );
}

function signalsView(a: RegistryAnalysis): Child {
  const s = a.findings;
  const reg = a.registry;
  const verdict = verdictView(a);
  // Without entries every signal would read "none": say why instead.
  if (!reg) return [verdict, a.error ? h('p', { class: 'muted' }, t('analysis.unreadable', { error: a.error })) : null];
  // On a read that is not complete, "none" means "none found in what was read".
  const complete = a.verdict === 'COMPLETE';
  if (a.verdict === 'WRONG_DOCUMENT' || a.verdict === 'NOT_A_REGISTRY') return [verdict, titleLine(reg.title)];
  return [
    verdict,
    titleLine(reg.title),
    complete ? null : h('p', { class: 'warn-note', 'data-findings': 'partial' }, t('analysis.partialFindings')),
    h(
      'dl',
      { class: 'signals' },
      h(
        'div',
        { class: 'signal', 'data-signal': 'ownership' },
        h('dt', null, t('analysis.owner')),
        h(
          'dd',
          null,
          s.ownership.owners.length
            ? h(
                'ul',
                { class: 'owners' },
                s.ownership.owners.map((o) =>
                  h(
                    'li',
                    null,
                    h('strong', { lang: 'ko', class: 'owner' }, o.name),
                    ' ',
                    h('span', { class: 'muted', lang: 'ko' }, o.role),
                    o.share ? h('span', { class: 'muted' }, ' · ', t('analysis.share', { share: o.share })) : null,
                  ),
                ),
              )
            : h('p', { class: 'muted' }, t('analysis.ownerUnknown')),
          s.ownership.since || s.ownership.recentTransfer
            ? h(
                'p',
                { class: 'since' },
                s.ownership.since ? h('span', null, t('analysis.since', { date: formatDate(s.ownership.since) })) : null,
                s.ownership.recentTransfer ? h('span', { class: 'badge badge-warn', 'data-badge': 'recent-transfer' }, '⚠ ', t('analysis.recentTransfer')) : null,
              )
            : null,
          s.ownership.recentTransfer ? h('p', { class: 'warn-note' }, t('analysis.recentTransferHelp')) : null,
          refs(s.ownership.entries),
        ),
      ),
      totalSignal('mortgages', 'analysis.mortgages', s.mortgages, t('analysis.mortgagesHelp'), complete),
      totalSignal('jeonse', 'analysis.jeonse', s.jeonse, null, complete),
    ),
    h(
      'section',
      { class: 'flags', 'aria-labelledby': 'flags-title' },
      h('h3', { id: 'flags-title' }, t('analysis.flags'), s.flags.length ? h('span', { class: 'count' }, ` (${s.flags.length})`) : null),
      s.flags.length
        ? h('ul', { class: 'flag-list' }, s.flags.map((f) => flagItem(f)))
        : complete
          ? h('p', { class: 'muted', 'data-flags': 'none' }, '✓ ', t('analysis.noFlags'))
          : h('p', { class: 'warn-note', 'data-flags': 'not-read' }, t('analysis.noFlagsFound')),
    ),
    reg.warnings.length
      ? h(
          'details',
          { class: 'parser-warnings', 'data-open': 'analysis-warnings' },
          h('summary', { 'data-focus': 'analysis-warnings' }, t('analysis.warnings', { n: reg.warnings.length })),
          h('ul', { lang: 'en' }, reg.warnings.map((w) => h('li', null, w))),
        )
      : null,
    reg.ownership.length + reg.rights.length > 0
      ? h(
          'details',
          { class: 'all-entries', 'data-open': 'analysis-entries' },
          h('summary', { 'data-focus': 'analysis-entries' }, t('analysis.allEntries', { a: reg.ownership.length, b: reg.rights.length })),
          entryTable('ownership', reg.ownership),
          entryTable('rights', reg.rights),
        )
      : null,
  ];
}

function titleLine(title: NonNullable<RegistryAnalysis['registry']>['title']): HTMLElement | null {
  const parts = [
    title.address,
    [title.buildingName, title.buildingNumber, title.unitNumber].filter(Boolean).join(' '),
    title.areaM2 > 0 ? `${title.areaM2}㎡` : '',
    title.uniqueNo ? t('nests.uniqueNo', { no: title.uniqueNo }) : '',
  ].filter(Boolean);
  return parts.length ? h('p', { class: 'muted registry-title', lang: 'ko' }, parts.join(' · ')) : null;
}

function totalSignal(name: string, label: Key, total: Total, help: string | null, complete: boolean): HTMLElement {
  const words = total.total > 0 ? formatWonWords(total.total) : '';
  return h(
    'div',
    { class: 'signal', 'data-signal': name },
    h('dt', null, t(label)),
    h(
      'dd',
      null,
      h('strong', { class: 'amount' }, formatWon(total.total)),
      words ? h('span', { class: 'muted', lang: 'ko' }, ` (${words})`) : null,
      total.entries.length === 0 ? h('span', { class: 'muted' }, ' · ', t(complete ? 'analysis.none' : 'analysis.noneFound')) : null,
      help && total.total > 0 ? h('p', { class: 'muted help' }, help) : null,
      refs(total.entries),
    ),
  );
}

function flagItem(f: Signals['flags'][number]): HTMLElement {
  const key = `flag.${f.kind}`;
  const known = has(key) && has(`${key}.help`);
  const other = lang() === 'ko' ? 'en' : 'ko';
  return h(
    'li',
    { class: 'flag', 'data-kind': f.kind },
    h(
      'p',
      { class: 'flag-head' },
      h(
        'span',
        { class: 'badge badge-danger' },
        '⚠ ',
        known ? t(key as Key) : f.kind,
        known ? h('span', { class: 'alt', lang: other }, tIn(other, key as Key)) : null,
      ),
      f.total ? h('span', { class: 'muted' }, t('analysis.flagTotal', { amount: formatWon(f.total) })) : null,
    ),
    known ? h('p', { class: 'flag-help' }, t(`${key}.help` as Key)) : null,
    refs(f.entries),
  );
}

function refs(entries: EntryRef[]): HTMLElement | null {
  if (entries.length === 0) return null;
  return h(
    'ul',
    { class: 'refs', 'aria-label': t('analysis.entries') },
    entries.map((e) =>
      h(
        'li',
        { 'data-rank': e.rank },
        h('span', { class: 'rank' }, sectionName(e.section), ' ', t('analysis.rank', { rank: e.rank })),
        ' · ',
        h('span', { lang: 'ko', class: 'purpose' }, e.purpose),
      ),
    ),
  );
}

function differenceEntry(e: Entry | null): Child {
  if (!e) return h('span', { class: 'muted' }, t('verify.nothing'));
  return [
    h('span', { lang: 'ko', class: 'purpose' }, e.purpose || '?'),
    e.cancelled ? h('span', { class: 'badge badge-muted' }, t('analysis.cancelled')) : null,
    e.received ? h('span', { class: 'muted' }, ' · ', formatDate(e.received)) : null,
    e.amount != null ? h('span', { class: 'muted' }, ' · ', e.amountLabel ? h('span', { lang: 'ko' }, e.amountLabel, ' ') : null, formatWon(e.amount)) : null,
    e.holders.length > 0
      ? h('span', { class: 'holders', lang: 'ko' }, ' · ', e.holders.map((p) => `${p.role} ${p.name}`.trim()).join(', '))
      : null,
  ];
}

function sectionName(section: string): string {
  const key = `analysis.section.${section}`;
  return has(key) ? t(key) : section;
}

function entryTable(section: 'ownership' | 'rights', entries: Entry[]): HTMLElement | null {
  if (entries.length === 0) return null;
  return h(
    'div',
    { class: 'entry-table' },
    h('h4', { lang: 'ko' }, sectionName(section)),
    h(
      'ol',
      { class: 'entries' },
      entries.map((e) =>
        h(
          'li',
          { class: e.cancelled || e.kind === 'cancellation' ? 'cancelled' : null, 'data-kind': e.kind },
          h('span', { class: 'rank' }, e.rank || '?'),
          h(
            'span',
            null,
            h('span', { lang: 'ko', class: 'purpose' }, e.purpose || '?'),
            e.cancelled ? h('span', { class: 'badge badge-muted' }, t('analysis.cancelled')) : null,
            e.received ? h('span', { class: 'muted' }, ' · ', formatDate(e.received)) : null,
            e.amount != null ? h('span', { class: 'muted' }, ' · ', e.amountLabel ? h('span', { lang: 'ko' }, e.amountLabel, ' ') : null, formatWon(e.amount)) : null,
          ),
        ),
      ),
    ),
  );
}
