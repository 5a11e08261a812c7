// A nest's page: "Issue registry document", the registry analysis of the
// newest OCR result, and the live timeline of its issuance and OCR tasks
// (nestTasksUpdated), re-read by query on load, on reconnect and, when the
// WebSocket cannot connect, every 2 s.

import { analysisView } from './analysis';
import { watchView } from './watch';
import { ApiError, gql, gqlUpload } from './api';
import { h, replace, swap, type Child } from './dom';
import { graphql } from './gql';
import { explainCode, formatBytes, formatClock, formatTime, lang, t } from './i18n';
import { describe, errorCode, type Live } from './live';
import type { Nest } from './nests';
import {
  Timeline,
  isFinal,
  type IssuanceTask,
  type OcrPage,
  type OcrTask,
  type Status,
  type Task,
  type TaskEvent,
} from './tasks';

/** How many issuance tasks the page re-reads (the subscription sends 20). */
const LIST_SIZE = 10;
/** Presigned file URLs live 15 minutes; read a new one after 10. */
const URL_MAX_AGE_MS = 10 * 60 * 1000;

const NEST_TASKS = graphql(`query NestTasks($id: ID!, $first: Int) {
  nest(id: $id) {
    id title address registryUniqueNo createdAt
    issuanceTasks(first: $first) { nodes { id version ocrTask { id version } } }
  }
}`);
const ISSUANCE_TASK = graphql(`query IssuanceTask($id: ID!) { issuanceTask(id: $id) { ...IssuanceFields } }`);
const OCR_TASK = graphql(`query OcrTask($id: ID!) { ocrTask(id: $id) { ...OcrFields } }`);
const OCR_PAGES = graphql(`query OcrPages($id: ID!) { ocrTask(id: $id) { id pages { page text confidence } } }`);
const UPLOAD_VERDICT = graphql(`query UploadVerdict($id: ID!) { ocrTask(id: $id) { id analysis { verdict reasons { message } } } }`);
const FILE_URL = graphql(`query FileURL($id: ID!) { issuanceTask(id: $id) { id file { id url } } }`);
const UPLOAD_URL = graphql(`query UploadURL($id: ID!) { ocrTask(id: $id) { id file { id url } } }`);
const SUBSCRIPTION = graphql(`subscription NestTasksUpdated($nestId: ID!) {
  nestTasksUpdated(nestId: $nestId) { ...IssuanceFields ...OcrFields }
}`);
const REQUEST_ISSUANCE = graphql(`mutation RequestIssuance($nestId: ID!) {
  requestIssuance(nestId: $nestId) { reused task { ...IssuanceFields } }
}`);
const UPLOAD_REGISTRY = graphql(`mutation UploadRegistry($nestId: ID!, $file: Upload!) {
  uploadRegistry(nestId: $nestId, file: $file) { reused ocrTask { ...OcrFields } }
}`);
/** The largest upload the server takes (jobs.MaxUploadBytes), a file or the pages' photos together. */
const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
const UPLOAD_REGISTRY_PAGES = graphql(`mutation UploadRegistryPages($nestId: ID!, $pages: [Upload!]!) {
  uploadRegistryPages(nestId: $nestId, pages: $pages) { reused ocrTask { ...OcrFields } }
}`);
const REQUEST_OCR = graphql(`mutation RequestOcr($fileId: ID!) {
  requestOcr(fileId: $fileId) { reused task { ...OcrFields } }
}`);

export interface PageView {
  el: HTMLElement;
  /** poll re-reads the page's data (polling mode). */
  poll?(): void;
  /** polls tells whether the page must poll even while the socket is live. */
  polls?(): boolean;
  /** tick runs every second (countdowns). */
  tick?(): void;
  dispose?(): void;
}

export function nestView(nestId: string, live: Live): PageView {
  const timeline = new Timeline();
  let nest: Nest | null = null;
  let failure = '';
  let reading: Promise<void> | null = null;
  let disposed = false;
  const pagesReading = new Set<string>();
  const rerunBusy = new Set<string>();
  const rerunNote = new Map<string, string>();

  const title = h('h1', { id: 'page-title', tabindex: -1 }, t('nest.loading'));
  const details = h('div', { class: 'nest-details' });
  const issueButton = h('button', { type: 'button', class: 'primary', id: 'issue', disabled: true }, t('nest.issue'));
  const issueNote = h('p', { class: 'note', role: 'status', id: 'issue-note' });
  // A copy the tenant already has: read by the same OCR and analysis.
  const uploadInput = h('input', {
    type: 'file',
    id: 'upload-file',
    accept: '.pdf,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg',
    // Several photos are the pages of one copy, in the order chosen.
    multiple: true,
    'aria-describedby': 'upload-note',
  });
  const uploadNote = h('p', { class: 'note', role: 'status', id: 'upload-note' }, t('nest.uploadHint'));
  const cards = h('div', { class: 'cards' });
  const empty = h('p', { class: 'muted', hidden: true }, t('timeline.empty'));
  const subscriptionNote = h('p', { class: 'error', role: 'alert', hidden: true });
  const announcer = h('p', { class: 'visually-hidden', role: 'status', 'aria-live': 'polite' });
  let subscriptionFailed = false;
  const rendered = new Map<string, { sig: string; el: HTMLElement }>();
  // Read on load and whenever an OCR task turns SUCCESS (see merge).
  const analysis = analysisView(nestId);
  const watch = watchView(nestId, live, () => analysis.refresh());

  const el = h(
    'section',
    { class: 'page', 'aria-labelledby': 'page-title' },
    h('nav', { class: 'crumbs' }, h('a', { href: '#/' }, '← ', t('nest.back'))),
    title,
    details,
    h('div', { class: 'actions issue' }, issueButton, issueNote),
    h('div', { class: 'actions upload' }, h('label', { for: 'upload-file' }, t('nest.upload')), uploadInput, uploadNote),
    analysis.el,
    watch.el,
    h(
      'section',
      { class: 'timeline', 'aria-labelledby': 'timeline-title' },
      h('h2', { id: 'timeline-title' }, t('timeline.title')),
      subscriptionNote,
      announcer,
      empty,
      cards,
    ),
  );

  let issuing = false;
  issueButton.addEventListener('click', async () => {
    issuing = true;
    issueButton.disabled = true;
    issueButton.textContent = t('nest.issuing');
    issueNote.textContent = '';
    try {
      const res = orRefused((await gql(REQUEST_ISSUANCE, { nestId })).requestIssuance);
      merge(res.task);
      issueNote.textContent = res.reused ? t('nest.reused') : t('nest.issued');
      issueNote.dataset.reused = String(res.reused);
      issueNote.dataset.taskId = res.task.id;
      clearIssueNoteWhenFinal(res.task);
    } catch (e) {
      issueNote.textContent = e instanceof ApiError ? e.userMessage() : String(e);
    } finally {
      issuing = false;
      issueButton.disabled = false;
      issueButton.textContent = t('nest.issue');
    }
  });

  // The note about the request ("Started a new issuance.") holds while its
  // task is active; its card tells the rest.
  function clearIssueNoteWhenFinal(task: Task): void {
    if (task.__typename === 'IssuanceTask' && issueNote.dataset.taskId === task.id && (task.status === 'SUCCESS' || task.status === 'FAILED')) {
      issueNote.textContent = '';
      delete issueNote.dataset.taskId;
      delete issueNote.dataset.reused;
    }
  }

  /** The copy just uploaded whose read the note follows, until it ends. */
  let uploadRead: { id: string; name: string; reused: boolean } | null = null;
  /** uploadVerdict adds the uploaded copy's own verdict (and its first reason) to the note. */
  async function uploadVerdict(id: string, said: string): Promise<void> {
    try {
      const a = (await gql(UPLOAD_VERDICT, { id })).ocrTask.analysis;
      if (!a || disposed || uploadNote.textContent !== said) return;
      const reason = a.verdict === 'COMPLETE' || a.verdict === 'COPY_COMPLETE' ? '' : a.reasons[0]?.message ?? '';
      uploadNote.textContent = `${said} ${t('nest.uploadVerdict', { verdict: t(`analysis.verdict.${a.verdict}`) })}${reason ? ` ${reason}` : ''}`;
    } catch {
      // the note keeps "read"; the task's card has the rest
    }
  }
  uploadInput.addEventListener('change', async () => {
    const files = [...(uploadInput.files ?? [])];
    if (files.length === 0) return;
    // One file is a copy; several are the photos of its pages, in order.
    const name = files.length === 1 ? files[0].name : t('nest.uploadPages', { n: files.length });
    const tooLarge = files.find((f) => f.size > MAX_UPLOAD_BYTES);
    if (tooLarge || files.reduce((n, f) => n + f.size, 0) > MAX_UPLOAD_BYTES) {
      // Refused here, as the server would refuse it, without sending 20 MiB
      // first: the file that is too large, or the photos together.
      uploadNote.textContent = tooLarge
        ? t('nest.uploadRefused', { name: tooLarge.name, message: t('nest.uploadTooLarge') })
        : t('nest.uploadPagesRefused', { n: files.length, message: t('nest.uploadPagesTooLarge') });
      uploadInput.value = '';
      return;
    }
    uploadInput.disabled = true;
    uploadNote.textContent = t('nest.uploading', { name });
    try {
      const res = orRefused(
        files.length === 1
          ? (await gqlUpload(UPLOAD_REGISTRY, { nestId }, 'file', files[0])).uploadRegistry
          : (await gqlUpload(UPLOAD_REGISTRY_PAGES, { nestId }, 'pages', files)).uploadRegistryPages,
      );
      uploadNote.textContent = t(res.reused ? 'nest.uploadReused' : 'nest.uploaded', { name });
      // The note follows its read to the end (merge), not "being read" for
      // good, and then says the copy's own verdict: the analysis below is
      // the nest's newest read, which need not be this copy.
      uploadRead = { id: res.ocrTask.id, name, reused: res.reused };
      merge(res.ocrTask);
    } catch (e) {
      // A refused file: the server says which rule it broke (too large,
      // password-protected, …), in words written for the tenant.
      uploadNote.textContent =
        e instanceof ApiError && e.code === 'BAD_USER_INPUT'
          ? files.length === 1
            ? t('nest.uploadRefused', { name, message: e.message })
            : t('nest.uploadPagesRefused', { n: files.length, message: e.message })
          : e instanceof ApiError
            ? e.userMessage()
            : String(e);
    } finally {
      uploadInput.disabled = false;
      uploadInput.value = '';
    }
  });

  function merge(task: Task): void {
    if (disposed) return;
    if (task.__typename === 'OcrTask' && task.id === uploadRead?.id && (task.status === 'SUCCESS' || task.status === 'FAILED')) {
      const u = uploadRead;
      uploadRead = null;
      const prefix = u.reused ? 'nest.uploadReused' : 'nest.uploadRead';
      uploadNote.textContent = task.status === 'SUCCESS' ? t(prefix, { name: u.name }) : t('nest.uploadFailed', { name: u.name });
      if (task.status === 'SUCCESS') void uploadVerdict(u.id, t(prefix, { name: u.name }));
    }
    const before = task.__typename === 'IssuanceTask' ? timeline.issuance.get(task.id) : timeline.ocr.get(task.id);
    if (!timeline.merge(task)) return;
    clearIssueNoteWhenFinal(task);
    if (before && before.status !== task.status) {
      // Screen readers hear each status change once, not the whole card.
      announcer.textContent = `${t(task.__typename === 'IssuanceTask' ? 'task.issuance' : 'task.ocr')}: ${t(`status.${task.status}`)}`;
    }
    if (task.__typename === 'OcrTask' && task.status === 'SUCCESS') {
      // A newer text of the document: its pages, and the analysis made of it.
      void readPages(task.id);
      analysis.refresh();
      watch.refresh();
    }
    render();
  }

  async function readPages(id: string): Promise<void> {
    if (timeline.pages.has(id) || pagesReading.has(id)) return;
    pagesReading.add(id);
    try {
      const data = await gql(OCR_PAGES, { id });
      timeline.pages.set(id, data.ocrTask.pages ?? []);
      render();
    } catch {
      // read again on the next merge, poll or resync
    } finally {
      pagesReading.delete(id);
    }
  }

  /**
   * read re-reads the current state by query: the nest, its latest tasks'
   * versions, then in full only the tasks that changed. Calls overlapping
   * one in flight share it.
   */
  function read(): Promise<void> {
    reading ??= (async () => {
      try {
        const data = await gql(NEST_TASKS, { id: nestId, first: LIST_SIZE });
        nest = data.nest;
        failure = '';
        const wanted: Promise<unknown>[] = [];
        const ocrSeen = new Set<string>();
        for (const n of data.nest.issuanceTasks.nodes) {
          if (n.version > timeline.version('IssuanceTask', n.id)) wanted.push(fetchTask('IssuanceTask', n.id));
          if (n.ocrTask) {
            ocrSeen.add(n.ocrTask.id);
            if (n.ocrTask.version > timeline.version('OcrTask', n.ocrTask.id)) wanted.push(fetchTask('OcrTask', n.ocrTask.id));
          }
        }
        // OCR tasks the list does not name (an older run, a run the user
        // started here) are read while they are not final.
        for (const o of timeline.ocr.values()) {
          if (!ocrSeen.has(o.id) && !isFinal(o.status)) wanted.push(fetchTask('OcrTask', o.id));
        }
        for (const o of timeline.ocr.values()) if (o.status === 'SUCCESS') wanted.push(readPages(o.id));
        await Promise.all(wanted);
        analysis.recover();
      } catch (e) {
        if (!nest) failure = e instanceof ApiError ? e.userMessage() : String(e);
      } finally {
        reading = null;
        render();
      }
    })();
    return reading;
  }

  async function fetchTask(kind: Task['__typename'], id: string): Promise<void> {
    if (kind === 'IssuanceTask') {
      const data = await gql(ISSUANCE_TASK, { id });
      merge(data.issuanceTask);
    } else {
      const data = await gql(OCR_TASK, { id });
      merge(data.ocrTask);
    }
  }

  async function rerunOcr(issuance: IssuanceTask): Promise<void> {
    if (!issuance.file || rerunBusy.has(issuance.id)) return;
    rerunBusy.add(issuance.id);
    rerunNote.delete(issuance.id);
    render();
    try {
      const res = orRefused((await gql(REQUEST_OCR, { fileId: issuance.file.id })).requestOcr);
      rerunNote.set(issuance.id, res.reused ? t('ocr.rerunReused') : t('ocr.rerunStarted'));
      timeline.merge(res.task);
    } catch (e) {
      rerunNote.set(issuance.id, e instanceof ApiError ? e.userMessage() : String(e));
    } finally {
      rerunBusy.delete(issuance.id);
      render();
    }
  }

  async function openFile(ev: MouseEvent, task: IssuanceTask): Promise<void> {
    const readAt = timeline.urlReadAt.get(task.id) ?? 0;
    if (Date.now() - readAt < URL_MAX_AGE_MS) return; // the link's URL is still valid
    ev.preventDefault();
    try {
      const data = await gql(FILE_URL, { id: task.id });
      if (data.issuanceTask.file) location.assign(data.issuanceTask.file.url);
    } catch (e) {
      rerunNote.set(task.id, e instanceof ApiError ? e.userMessage() : String(e));
      render();
    }
  }

  function render(): void {
    if (disposed) return;
    if (nest) {
      title.textContent = nest.title;
      replace(
        details,
        h('p', { class: 'address' }, nest.address),
        h('p', { class: 'muted' }, t('nests.uniqueNo', { no: nest.registryUniqueNo }), ' · ', t('nest.created', { at: formatTime(nest.createdAt) })),
      );
      issueButton.disabled = issuing;
    } else if (failure) {
      title.textContent = failure;
    }
    const order: HTMLElement[] = [];
    const keep = new Set<string>();
    for (const task of timeline.issuances()) {
      const ocrs = timeline.ocrOf(task);
      const sig = [
        lang(),
        task.version,
        ocrs.map((o) => `${o.id}:${o.version}:${timeline.pages.has(o.id)}`).join(','),
        rerunBusy.has(task.id),
        rerunNote.get(task.id) ?? '',
      ].join('|');
      order.push(card(`i:${task.id}`, sig, () => issuanceCard(task, ocrs)));
      keep.add(`i:${task.id}`);
    }
    for (const o of timeline.orphanOcr()) {
      const sig = [lang(), o.version, timeline.pages.has(o.id)].join('|');
      order.push(card(`o:${o.id}`, sig, () => ocrCard(o, timeline.pages.get(o.id))));
      keep.add(`o:${o.id}`);
    }
    for (const [key, r] of rendered) {
      if (!keep.has(key)) {
        r.el.remove();
        rendered.delete(key);
      }
    }
    // Insert in order without moving what is already in place: moving a
    // node would take the keyboard focus away from it.
    order.forEach((node, i) => {
      if (cards.children[i] !== node) cards.insertBefore(node, cards.children[i] ?? null);
    });
    empty.hidden = order.length > 0 || !nest;
    tick();
  }

  function card(key: string, sig: string, build: () => HTMLElement): HTMLElement {
    const old = rendered.get(key);
    if (old && old.sig === sig) return old.el;
    const next = build();
    next.dataset.key = key;
    if (old && old.el.isConnected) swap(old.el, next);
    rendered.set(key, { sig, el: next });
    return next;
  }

  function issuanceCard(task: IssuanceTask, ocrs: OcrTask[]): HTMLElement {
    const note = rerunNote.get(task.id);
    return h(
      'article',
      { class: 'task task-issuance', 'data-status': task.status, 'data-task-id': task.id, 'aria-labelledby': `h-${task.id}` },
      taskHead('h3', `h-${task.id}`, t('task.issuance'), task),
      taskBody('issuance', task),
      task.status === 'SUCCESS' && task.file
        ? h(
            'p',
            { class: 'download' },
            h(
              'a',
              {
                href: task.file.url,
                target: '_blank',
                rel: 'noopener',
                class: 'button-link',
                'data-focus': `pdf-${task.id}`,
                onclick: (ev: Event) => void openFile(ev as MouseEvent, task),
              },
              '⬇ ',
              t('task.download'),
            ),
            ' ',
            h('span', { class: 'muted' }, 'PDF · ', formatBytes(task.file.size)),
          )
        : null,
      task.status === 'SUCCESS' || ocrs.length > 0
        ? h(
            'div',
            { class: 'ocr-list' },
            ocrs.length > 0 ? ocrSection(ocrs[0], timeline.pages.get(ocrs[0].id), true) : null,
            ocrs.length > 1
              ? h(
                  'details',
                  { class: 'older-runs', 'data-open': `older-${task.id}` },
                  h('summary', { 'data-focus': `older-${task.id}` }, t('ocr.olderRuns', { n: ocrs.length - 1 })),
                  ocrs.slice(1).map((o) => ocrSection(o, timeline.pages.get(o.id), false)),
                )
              : null,
            task.file
              ? h(
                  'div',
                  { class: 'actions' },
                  h(
                    'button',
                    {
                      type: 'button',
                      class: 'rerun',
                      'data-focus': `rerun-${task.id}`,
                      disabled: rerunBusy.has(task.id),
                      onclick: () => void rerunOcr(task),
                    },
                    rerunBusy.has(task.id) ? t('ocr.rerunning') : t('ocr.rerun'),
                  ),
                  h('p', { class: 'note', role: 'status' }, note ?? ''),
                )
              : null,
          )
        : isFinal(task.status)
          ? null
          : h('p', { class: 'muted' }, t('ocr.waiting')),
    );
  }

  /**
   * ocrCard shows an OCR task of no known issuance: a copy the tenant
   * uploaded (no issuance at all), labelled so and with a link to the
   * file as stored, beside the issued documents.
   */
  function ocrCard(task: OcrTask, pages: OcrPage[] | undefined): HTMLElement {
    const uploaded = !task.issuanceTask;
    return h(
      'article',
      { class: uploaded ? 'task task-upload' : 'task' },
      uploaded
        ? h(
            'p',
            { class: 'upload-label' },
            t('task.upload'),
            ' · ',
            h('a', { href: '#', class: 'upload-link', onclick: (ev: Event) => void openUpload(ev, task) }, t('task.openUpload')),
          )
        : null,
      ocrSection(task, pages, true),
    );
  }

  async function openUpload(ev: Event, task: OcrTask): Promise<void> {
    ev.preventDefault();
    try {
      const data = await gql(UPLOAD_URL, { id: task.id });
      location.assign(data.ocrTask.file.url);
    } catch (e) {
      uploadNote.textContent = e instanceof ApiError ? e.userMessage() : String(e);
    }
  }

  // The countdowns are text that tick() rewrites every second.
  function tick(): void {
    el.querySelectorAll<HTMLElement>('[data-retry-at]').forEach((node) => {
      node.textContent = retryText(node.dataset.retryAt!, Number(node.dataset.next), Number(node.dataset.max));
    });
  }

  function dispose(): void {
    disposed = true;
    analysis.dispose();
    watch.dispose();
    unsubscribe();
    stopResync();
  }

  const unsubscribe = live.subscribe(SUBSCRIPTION, { nestId }, {
    next: (data) => merge(data.nestTasksUpdated),
    error: (err) => {
      if (disposed) return;
      const code = errorCode(err);
      if (code === 'NOT_FOUND' || code === 'FORBIDDEN') {
        if (!nest) failure = new ApiError(code, '').userMessage();
      } else if (code === 'UNAUTHENTICATED') {
        return; // the session ends; main signs out
      } else {
        // The server refused the subscription itself: follow by query.
        subscriptionFailed = true;
        subscriptionNote.textContent = t('timeline.subscriptionFailed', { reason: describe(err) });
        subscriptionNote.hidden = false;
        console.error('dungji: nestTasksUpdated failed:', describe(err));
      }
      render();
    },
  });
  // Back after being down: re-read (the subscription also resends state).
  const stopResync = live.onResync(() => void read());
  void read();
  analysis.refresh();

  return { el, poll: () => void read(), polls: () => subscriptionFailed, tick, dispose };
}

/**
 * orRefused is a mutation's payload, which the schema lets be null when the
 * mutation was refused: the refusal is an error, which gql already threw.
 */
function orRefused<P>(payload: P | null): P {
  if (payload == null) throw new ApiError('INTERNAL', 'the mutation answered null without an error');
  return payload;
}

function ocrSection(task: OcrTask, pages: OcrPage[] | undefined, latest: boolean): HTMLElement {
  return h(
    'section',
    { class: `task task-ocr${latest ? '' : ' older'}`, 'data-status': task.status, 'data-task-id': task.id, 'aria-labelledby': `h-${task.id}` },
    taskHead('h4', `h-${task.id}`, t('task.ocr'), task),
    taskBody('ocr', task),
    task.pageCount ? h('p', { class: 'muted' }, t(task.pageCount === 1 ? 'task.pageCount1' : 'task.pageCount', { n: task.pageCount })) : null,
    task.status === 'SUCCESS'
      ? pages
        ? h(
            'div',
            { class: 'pages', 'aria-label': t('ocr.pages') },
            pages.map((p, i) =>
              h(
                'details',
                { class: 'page-text', 'data-open': `page-${task.id}-${p.page}`, open: latest && i === 0 },
                h(
                  'summary',
                  { 'data-focus': `page-${task.id}-${p.page}` },
                  t('ocr.page', { n: p.page }),
                  ' ',
                  h('span', { class: 'muted' }, t('ocr.confidence', { p: Math.round(p.confidence * 100) })),
                ),
                h('pre', { class: 'ocr-text', lang: 'ko' }, p.text.trim() || t('ocr.noText')),
              ),
            ),
          )
        : h('p', { class: 'muted' }, t('ocr.loadingPages'))
      : null,
  );
}

function taskHead(tag: 'h3' | 'h4', id: string, label: string, task: Task): HTMLElement {
  return h(
    'header',
    { class: 'task-head' },
    h(
      'div',
      { class: 'task-title' },
      h(tag, { id }, label, ' ', h('span', { class: 'task-id', title: task.id }, t('task.id', { id: task.id }))),
      copyId(task.id),
    ),
    statusBadge(task.status),
  );
}

/** How long "Copied" shows beside a copy button. */
const COPIED_MS = 4000;
/**
 * Until when each id's note says "Copied": a live update rebuilds the card
 * (and its button, keeping the focus on it), and the note must survive it.
 */
const copiedUntil = new Map<string, number>();

/**
 * copyId is a button that copies a task's whole id (the API takes nothing
 * shorter) to the clipboard, and a note that says it did: a live region, so
 * a screen reader hears it too. Where the clipboard is refused (a page not
 * served over HTTPS or from localhost), the note says to select the id,
 * which one click does.
 */
function copyId(id: string): HTMLElement {
  const note = h('span', { class: 'copy-note', role: 'status' });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const show = (text: string, until: number) => {
    clearTimeout(timer);
    note.textContent = text;
    timer = setTimeout(() => (note.textContent = ''), Math.max(0, until - Date.now()));
  };
  const until = copiedUntil.get(id) ?? 0;
  if (until > Date.now()) show(t('task.copied'), until);
  const button = h(
    'button',
    {
      type: 'button',
      class: 'copy-id',
      'aria-label': t('task.copyId', { id }),
      'data-focus': `copy-${id}`,
      onclick: async () => {
        const until = Date.now() + COPIED_MS;
        try {
          await navigator.clipboard.writeText(id);
          copiedUntil.set(id, until);
          show(t('task.copied'), until);
        } catch {
          show(t('task.copyFailed'), until);
        }
      },
    },
    t('task.copy'),
  );
  return h('span', { class: 'copy' }, button, note);
}

function statusBadge(s: Status): HTMLElement {
  return h(
    'span',
    { class: `status status-${s}`, 'data-status': s },
    t(`status.${s}`),
    lang() === 'en' ? null : h('code', null, s),
  );
}

function taskBody(kind: 'issuance' | 'ocr', task: Task): Child {
  // A scheduled retry keeps the task PROCESSING with nextRetryAt set; the
  // retry's start clears it.
  const retrying = task.status === 'PROCESSING' && task.nextRetryAt != null;
  const next = Math.min(task.attempt + 1, task.maxAttempts);
  return [
    retrying
      ? h(
          'div',
          { class: 'retry' },
          h(
            'p',
            null,
            h('strong', {
              class: 'countdown',
              'data-retry-at': task.nextRetryAt,
              'data-next': next,
              'data-max': task.maxAttempts,
            }),
          ),
          task.lastErrorCode
            ? h('p', null, t('task.lastError', { code: task.lastErrorCode }), ' — ', explainCode(kind, task.lastErrorCode))
            : null,
        )
      : null,
    task.status === 'FAILED' && task.errorCode
      ? h(
          'div',
          { class: 'error', role: 'note' },
          h('p', null, h('strong', null, t('task.error', { code: task.errorCode }))),
          h('p', null, explainCode(kind, task.errorCode)),
          task.errorMessage ? h('p', { class: 'muted' }, task.errorMessage) : null,
        )
      : null,
    h(
      'dl',
      { class: 'times' },
      h('div', null, h('dt', null, t('task.requested')), h('dd', null, formatTime(task.createdAt))),
      task.startedAt ? h('div', null, h('dt', null, t('task.started')), h('dd', null, formatTime(task.startedAt))) : null,
      task.finishedAt ? h('div', null, h('dt', null, t('task.finished')), h('dd', null, formatTime(task.finishedAt))) : null,
      // During a scheduled retry the headline names the coming attempt; here
      // the one that failed, so the two never seem to disagree.
      task.attempt > 0
        ? h('div', { class: 'attempt' }, t(retrying ? 'task.attemptFailed' : 'task.attempt', { n: task.attempt, max: task.maxAttempts }))
        : null,
    ),
    historyList(task),
  ];
}

// The history is read when a state is sent, so it may already hold a newer
// transition than the state itself: show it up to the state's version.
function historyList(task: Task): HTMLElement | null {
  const events = task.events.filter((ev) => ev.version <= task.version);
  return events.length
    ? h('ol', { class: 'events', 'aria-label': t('task.history') }, events.map((ev, i) => eventItem(ev, events[i - 1])))
    : null;
}

function eventItem(ev: TaskEvent, prev: TaskEvent | undefined): HTMLElement {
  return h(
    'li',
    { 'data-to': ev.to },
    h('time', { datetime: ev.at, title: formatTime(ev.at) }, formatClock(ev.at)),
    ' ',
    eventText(ev, prev),
  );
}

// A retry keeps the task PROCESSING, so PROCESSING → PROCESSING is either a
// failed attempt that will be retried (same attempt as the event before) or
// the start of the next attempt (a higher one). Such events carry the last
// failure's code either way.
function eventText(ev: TaskEvent, prev: TaskEvent | undefined): Child {
  if (ev.from === ev.to) {
    return prev && ev.attempt > prev.attempt
      ? t('task.eventRestart', { n: ev.attempt })
      : t('task.eventRetry', { n: ev.attempt, code: ev.errorCode ?? '?' });
  }
  const to = t(`status.${ev.to}`);
  return [
    ev.from ? t('task.event', { from: t(`status.${ev.from}`), to }) : t('task.eventFirst', { to }),
    ev.attempt > 0 ? h('span', { class: 'muted' }, ' · ', t('task.eventAttempt', { n: ev.attempt })) : null,
    ev.errorCode ? h('span', { class: 'muted' }, ' · ', ev.errorCode) : null,
  ];
}

function retryText(at: string, next: number, max: number): string {
  const s = Math.ceil((Date.parse(at) - Date.now()) / 1000);
  return s > 0 ? t('task.retryIn', { s, n: next, max }) : t('task.retryNow', { n: next, max });
}
