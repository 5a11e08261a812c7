// The sign-in page: paste a token; it is checked with { me } first.

import { ApiError, gql } from './api';
import { h } from './dom';
import { graphql } from './gql';
import { t } from './i18n';

const ME = graphql(`query Me { me { id } }`);

export interface SignInView {
  el: HTMLElement;
}

/** signInView renders the form; onSignedIn gets a token the server accepted. */
export function signInView(notice: string, onSignedIn: (tok: string) => void): SignInView {
  const input = h('textarea', {
    id: 'token',
    name: 'token',
    rows: 4,
    spellcheck: 'false',
    autocomplete: 'off',
    autocapitalize: 'off',
    'aria-describedby': 'token-help token-error',
  });
  const error = h('p', { id: 'token-error', class: 'field-error', role: 'alert' }, notice);
  const submit = h('button', { type: 'submit', class: 'primary' }, t('signin.submit'));
  const form = h(
    'form',
    { class: 'card signin', novalidate: true },
    h('label', { for: 'token' }, t('signin.token')),
    input,
    h('p', { id: 'token-help', class: 'hint' }, helpText(t('signin.help'))),
    error,
    h('div', { class: 'actions' }, submit),
  );
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const tok = input.value.trim().replace(/^Bearer\s+/i, '');
    if (!tok) {
      error.textContent = t('signin.empty');
      input.setAttribute('aria-invalid', 'true');
      input.focus();
      return;
    }
    submit.disabled = true;
    submit.textContent = t('signin.checking');
    try {
      await gql(ME, undefined, tok);
      onSignedIn(tok);
    } catch (e) {
      const reason = e instanceof ApiError ? (e.code === 'UNAUTHENTICATED' ? e.message : e.userMessage()) : String(e);
      error.textContent = t('signin.rejected', { reason });
      input.setAttribute('aria-invalid', 'true');
      input.focus();
    } finally {
      submit.disabled = false;
      submit.textContent = t('signin.submit');
    }
  });
  const el = h(
    'section',
    { class: 'page', 'aria-labelledby': 'page-title' },
    h('h1', { id: 'page-title', tabindex: -1 }, t('signin.title')),
    h('p', { class: 'lead' }, t('app.tagline')),
    form,
  );
  return { el };
}

/** helpText renders `code` spans of a label. */
function helpText(s: string): (string | HTMLElement)[] {
  return s.split(/`([^`]+)`/).map((part, i) => (i % 2 ? h('code', null, part) : part));
}
