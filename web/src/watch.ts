// A nest's registry watch: the dates that matter (contract, balance,
// move-in, every N days), the schedule of checks, the history of checks
// (each read compared with the previous complete one) and the alerts, with
// the entries before and after side by side. New alerts arrive live.

import { ApiError, gql } from './api';
import { h, replace } from './dom';
import { graphql } from './gql';
import type { WatchAlertFragment, WatchEntryFragment, WatchInput, WatchQuery } from './gql/graphql';
import { formatTime, formatWon, t, type Key } from './i18n';
import type { Live } from './live';

graphql(`fragment WatchEntry on RegistryEntry { section rank purpose amountLabel amount holders { name } cancelled }`);

graphql(`fragment WatchAlert on Alert {
  id kind severity message before { ...WatchEntry } after { ...WatchEntry } reasons { code message } createdAt acknowledgedAt
}`);

const QUERY = graphql(`query Watch($nestId: ID!) {
  nest(id: $nestId) {
    watch { contractDate balanceDate moveInDate everyDays until checks { id purpose date runAt status note } }
    registryChecks { id verdict outcome createdAt alerts { id } }
    alerts(first: 20) { nodes { ...WatchAlert } }
  }
  watchBudget { month limit used remaining }
}`);

const SET_WATCH = graphql(`mutation SetWatch($nestId: ID!, $input: WatchInput!) { setWatch(nestId: $nestId, input: $input) { contractDate } }`);
const CANCEL_WATCH = graphql(`mutation CancelWatch($nestId: ID!) { cancelWatch(nestId: $nestId) { contractDate } }`);
const ACK = graphql(`mutation Ack($id: ID!) { acknowledgeAlert(id: $id) { id acknowledgedAt } }`);
const SUBSCRIPTION = graphql(`subscription Alerts($nestId: ID) { alertRaised(nestId: $nestId) { id } }`);

type Entry = WatchEntryFragment;
type Alert = WatchAlertFragment;

export interface WatchView {
  el: HTMLElement;
  refresh(): void;
  dispose(): void;
}

function tr(key: string, fallback: string): string {
  try {
    const v = t(key as Key);
    return v === key ? fallback : v;
  } catch {
    return fallback;
  }
}

function entryView(e: Entry | null, label: string): HTMLElement {
  if (!e) return h('div', { class: 'entry none' }, h('h5', null, label), h('p', { class: 'muted' }, '—'));
  return h(
    'div',
    { class: 'entry' + (e.cancelled ? ' cancelled' : '') },
    h('h5', null, label),
    h('p', null, `${e.section === 'ownership' ? '갑구' : '을구'} ${e.rank} · ${e.purpose}`),
    e.amount != null ? h('p', null, `${e.amountLabel ?? ''} ${formatWon(e.amount)}`) : null,
    e.holders.length ? h('p', null, e.holders.map((x) => x.name).join(', ')) : null,
    e.cancelled ? h('p', { class: 'muted' }, t('watch.cancelledEntry')) : null,
  );
}

export function watchView(nestId: string, live: Live, onAlerts?: () => void): WatchView {
  let disposed = false;
  let alertIds: string | null = null; // the alerts of the last render, to tell onAlerts of new ones
  const note = h('p', { class: 'note', role: 'status', id: 'watch-note' });
  const date = (id: string, label: string) => {
    const input = h('input', { type: 'date', id, name: id });
    return { input, el: h('label', { for: id }, label, input) };
  };
  const contract = date('watch-contract', t('watch.contract'));
  const balance = date('watch-balance', t('watch.balance'));
  const moveIn = date('watch-movein', t('watch.moveIn'));
  const until = date('watch-until', t('watch.until'));
  const every = h('input', { type: 'number', id: 'watch-every', min: 1, max: 90 });
  const save = h('button', { type: 'submit', class: 'primary', id: 'watch-save' }, t('watch.save'));
  const cancel = h('button', { type: 'button', id: 'watch-cancel' }, t('watch.cancel'));
  const budget = h('p', { class: 'muted', id: 'watch-budget' });
  const schedule = h('ol', { class: 'watch-schedule', id: 'watch-schedule' });
  const history = h('ol', { class: 'watch-history', id: 'watch-history' });
  const alerts = h('div', { class: 'watch-alerts', id: 'watch-alerts' });

  const form = h(
    'form',
    { class: 'watch-form' },
    contract.el,
    balance.el,
    moveIn.el,
    h('label', { for: 'watch-every' }, t('watch.every'), every),
    until.el,
    h('div', { class: 'actions' }, save, cancel),
  );
  const el = h(
    'section',
    { class: 'watch', 'aria-labelledby': 'watch-title' },
    h('h2', { id: 'watch-title' }, t('watch.title')),
    h('p', { class: 'intro' }, t('watch.intro')),
    form,
    note,
    budget,
    h('h3', null, t('watch.schedule')),
    schedule,
    h('h3', null, t('watch.alerts')),
    alerts,
    h('h3', null, t('watch.history')),
    history,
  );

  const value = (i: HTMLInputElement) => (i.value === '' ? null : i.value);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    note.textContent = '';
    const input: WatchInput = {
      contractDate: value(contract.input),
      balanceDate: value(balance.input),
      moveInDate: value(moveIn.input),
      until: value(until.input),
      everyDays: every.value === '' ? null : Number(every.value),
    };
    try {
      await gql(SET_WATCH, { nestId, input });
      note.textContent = t('watch.saved');
      refresh();
    } catch (e) {
      note.textContent = e instanceof ApiError ? e.userMessage() : String(e);
    }
  });
  cancel.addEventListener('click', async () => {
    try {
      await gql(CANCEL_WATCH, { nestId });
      note.textContent = t('watch.cancelled');
      refresh();
    } catch (e) {
      note.textContent = e instanceof ApiError ? e.userMessage() : String(e);
    }
  });

  function alertCard(a: Alert): HTMLElement {
    const ack = h('button', { type: 'button', class: 'ack', 'data-alert': a.id }, t('watch.ack'));
    ack.addEventListener('click', async () => {
      ack.disabled = true;
      try {
        await gql(ACK, { id: a.id });
        refresh();
      } catch (e) {
        note.textContent = e instanceof ApiError ? e.userMessage() : String(e);
        ack.disabled = false;
      }
    });
    return h(
      'article',
      { class: `alert-card severity-${a.severity.toLowerCase()}` + (a.acknowledgedAt ? ' acknowledged' : ''), 'data-kind': a.kind },
      h('h4', null, `${tr(`watch.kind.${a.kind}`, a.kind)} · ${a.severity}`),
      h('p', null, a.message),
      a.kind === 'COULD_NOT_VERIFY'
        ? h('ul', { class: 'reasons' }, a.reasons.map((r) => h('li', null, r.message)))
        : a.kind === 'COPY_DIFFERS'
          ? h('div', { class: 'before-after' }, entryView(a.before, t('verify.copy')), entryView(a.after, t('verify.registry')))
          : h('div', { class: 'before-after' }, entryView(a.before, t('watch.before')), entryView(a.after, t('watch.after'))),
      h('p', { class: 'muted' }, formatTime(a.createdAt)),
      a.acknowledgedAt ? h('p', { class: 'muted' }, t('watch.acked', { at: formatTime(a.acknowledgedAt) })) : ack,
    );
  }

  let lastChecks = -1; // registry checks in the last render
  function render(d: WatchQuery): void {
    const w = d.nest.watch;
    lastChecks = d.nest.registryChecks.length;
    contract.input.value = w.contractDate ?? '';
    balance.input.value = w.balanceDate ?? '';
    moveIn.input.value = w.moveInDate ?? '';
    until.input.value = w.until ?? '';
    every.value = w.everyDays == null ? '' : String(w.everyDays);
    budget.textContent = t('watch.budget', { month: d.watchBudget.month, used: d.watchBudget.used, limit: d.watchBudget.limit });
    replace(
      schedule,
      w.checks.length
        ? w.checks.map((c) =>
            h('li', { 'data-status': c.status }, `${c.date} · ${tr(`watch.purpose.${c.purpose}`, c.purpose)} · ${c.status}`,
              c.note ? ` (${c.note})` : ''),
          )
        : h('li', { class: 'muted' }, t('watch.noChecks')),
    );
    const list = d.nest.alerts.nodes;
    replace(alerts, list.length ? list.map(alertCard) : h('p', { class: 'muted' }, t('watch.noAlerts')));
    // A new alert may be about the read the analysis shows (an uploaded
    // copy lacking an issued entry): the analysis shows it too.
    const ids = list.map((a) => a.id).join(',');
    if (alertIds !== null && ids !== alertIds) onAlerts?.();
    alertIds = ids;
    replace(
      history,
      d.nest.registryChecks.length
        ? d.nest.registryChecks.map((c) =>
            h('li', { 'data-outcome': c.outcome }, `${formatTime(c.createdAt)} · ${tr(`watch.outcome.${c.outcome}`, c.outcome)} · ${c.verdict === 'NONE' ? t('watch.noRead') : tr(`analysis.verdict.${c.verdict}`, c.verdict)}`,
              c.alerts.length ? ` · ${c.alerts.length} ${t('watch.alertCount')}` : ''),
          )
        : h('li', { class: 'muted' }, t('watch.noHistory')),
    );
  }

  let running = false;
  let again = false;
  async function refresh(): Promise<void> {
    if (disposed) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        const d = await gql(QUERY, { nestId });
        if (!disposed) render(d);
      } while (again && !disposed);
    } catch (e) {
      note.textContent = e instanceof ApiError ? e.userMessage() : String(e);
    } finally {
      running = false;
    }
  }

  const unsubscribe = live.subscribe(SUBSCRIPTION, { nestId }, {
    next: () => void refresh(),
    error: () => {},
  });
  void refresh(); // the page opens with the watch as it is

  // A read is compared by a job of its own after its OCR task succeeds, and
  // a comparison without an alert is pushed by nothing: after a new read,
  // read the history again (1 s apart, up to 20 times) until it grows.
  let followTimer: ReturnType<typeof setTimeout> | undefined;
  async function followComparison(): Promise<void> {
    clearTimeout(followTimer);
    const known = lastChecks;
    let tries = 0;
    const tick = async () => {
      if (disposed || tries++ >= 20) return;
      await refresh();
      if (lastChecks <= known) followTimer = setTimeout(() => void tick(), 1000);
    };
    await tick();
  }

  return {
    el,
    refresh: () => void followComparison(),
    dispose: () => {
      disposed = true;
      clearTimeout(followTimer);
      unsubscribe();
    },
  };
}
