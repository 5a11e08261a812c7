// The Dungji console: sign in, nests, and a nest's live task timeline.
//
// Routes live in the URL fragment (#/, #/nest/<id>) because the server's
// paths under / belong to the API and the legacy REST routes. Opening
// /#token=<jwt> signs in at once (the printed development URL, tests).

import { setUnauthenticatedHandler } from './api';
import { h, replace } from './dom';
import { lang, setLang, t, type Lang } from './i18n';
import { Live, POLL_INTERVAL_MS, type ConnState } from './live';
import { nestView, type PageView } from './nest';
import { nestsView } from './nests';
import { clearToken, setToken, token, tokenSubject } from './session';
import { signInView } from './signin';

const root = document.getElementById('app')!;
let live: Live | null = null;
let page: PageView | null = null;
let notice = '';

function signIn(tok: string): void {
  setToken(tok);
  notice = '';
  startLive(tok);
  if (/^#\/?$|^$/.test(location.hash)) render(true);
  else location.hash = '#/';
}

function signOut(message = ''): void {
  notice = message;
  clearToken();
  live?.dispose();
  live = null;
  render(true);
}

function startLive(tok: string): void {
  live?.dispose();
  live = new Live(tok, (reason) => signOut(t('signin.again', { reason })));
  live.onState((s) => {
    showState(s);
    if (s === 'polling') page?.poll?.();
  });
}

setUnauthenticatedHandler((err) => signOut(t('signin.again', { reason: err.message })));

// takeFragmentToken moves a token from #token=… into the session and off
// the address bar (and out of the history).
function takeFragmentToken(): void {
  const m = /(?:^#|[#&])token=([^&]+)/.exec(location.hash);
  if (!m) return;
  setToken(decodeURIComponent(m[1]));
  history.replaceState(null, '', `${location.pathname}${location.search}#/`);
}

// The header's parts are kept so that a state change or a countdown never
// rebuilds the page under the user's focus.
const connEl = h('p', { class: 'conn', role: 'status', 'aria-live': 'polite', id: 'conn' });
const connNote = h('p', { class: 'conn-note', id: 'conn-note', hidden: true });

function showState(s: ConnState | null): void {
  if (!s) {
    connEl.hidden = true;
    connNote.hidden = true;
    return;
  }
  connEl.hidden = false;
  connEl.dataset.state = s;
  document.documentElement.dataset.conn = s;
  replace(connEl, h('span', { class: 'dot', 'aria-hidden': 'true' }), h('span', { class: 'visually-hidden' }, t('conn.label'), ': '), t(`conn.${s}`));
  const note = s === 'polling' ? t('conn.pollingNote') : s === 'reconnecting' ? t('conn.reconnectingNote') : '';
  connNote.textContent = note;
  connNote.hidden = note === '';
  connNote.dataset.state = s;
}

function header(signedIn: boolean): HTMLElement {
  const langButton = (l: Lang, label: string) =>
    h(
      'button',
      {
        type: 'button',
        lang: l,
        'aria-pressed': String(lang() === l),
        'data-focus': `lang-${l}`,
        onclick: () => {
          if (lang() === l) return;
          setLang(l);
          render(false);
          document.querySelector<HTMLElement>(`[data-focus="lang-${l}"]`)?.focus();
        },
      },
      label,
    );
  const user = tokenSubject(token());
  return h(
    'header',
    { class: 'bar' },
    h('a', { class: 'skip', href: '#main', onclick: skipToMain }, t('skip')),
    h('a', { class: 'brand', href: '#/' }, h('span', { lang: 'ko' }, '둥지'), ' ', h('span', { class: 'brand-sub' }, t('app.title'))),
    connEl,
    h(
      'div',
      { class: 'bar-end' },
      h('div', { class: 'lang', role: 'group', 'aria-label': t('lang.label') }, langButton('ko', '한국어'), langButton('en', 'English')),
      signedIn && user ? h('span', { class: 'user muted' }, t('signedInAs', { user })) : null,
      signedIn ? h('button', { type: 'button', class: 'signout', onclick: () => signOut() }, t('signout')) : null,
    ),
  );
}

function skipToMain(ev: Event): void {
  ev.preventDefault(); // the fragment is the router's
  document.getElementById('main')?.focus();
}

/** render builds the current route; focus moves to its heading on navigation. */
function render(navigated: boolean): void {
  page?.dispose?.();
  page = null;
  const tok = token();
  if (tok && !live) startLive(tok);
  showState(tok && live ? live.state : null);
  const nestMatch = /^#\/nest\/([^/?#&]+)/.exec(location.hash);
  if (!tok) {
    page = signInView(notice, signIn);
  } else if (nestMatch) {
    page = nestView(decodeURIComponent(nestMatch[1]), live!);
  } else {
    page = nestsView((id) => (location.hash = `#/nest/${encodeURIComponent(id)}`));
  }
  document.title = `${t('app.title')} · 둥지`;
  replace(root, header(!!tok), connNote, h('main', { id: 'main', tabindex: -1 }, page.el));
  if (navigated) page.el.querySelector<HTMLElement>('h1')?.focus({ preventScroll: true });
}

window.addEventListener('hashchange', () => {
  takeFragmentToken();
  render(true);
});

setInterval(() => {
  if (live?.state === 'polling' || page?.polls?.()) page?.poll?.();
}, POLL_INTERVAL_MS);
setInterval(() => page?.tick?.(), 1000);

takeFragmentToken();
render(false);
