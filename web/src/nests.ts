// The nests page: the caller's nests (cursor-paginated) and the form that
// creates one, with the server's validation rules mirrored field by field.

import { ApiError, gql } from './api';
import { h } from './dom';
import { graphql } from './gql';
import type { NestsQuery } from './gql/graphql';
import { formatTime, t, type Key } from './i18n';

/** A nest as the list shows it (Nests). */
export type Nest = NestsQuery['nests']['nodes'][number];

const NESTS = graphql(`query Nests($first: Int, $after: String) {
  nests(first: $first, after: $after) {
    nodes { id title address registryUniqueNo createdAt }
    pageInfo { hasNextPage endCursor }
  }
}`);

const CREATE_NEST = graphql(`mutation CreateNest($input: CreateNestInput!) {
  createNest(input: $input) { id title address registryUniqueNo createdAt }
}`);

const PAGE_SIZE = 20;

type Field = 'title' | 'address' | 'registryUniqueNo';

/**
 * validate mirrors jobs.CreateNest: the same rules and limits, so most
 * mistakes are shown before a round trip. The server stays the authority:
 * its BAD_USER_INPUT errors land on the field they name.
 */
export function validate(field: Field, value: string): Key | null {
  const v = value.trim();
  const runes = [...v].length;
  switch (field) {
    case 'title':
      return v === '' ? 'invalid.titleRequired' : runes > 200 ? 'invalid.titleLong' : null;
    case 'address':
      return v === '' ? 'invalid.addressRequired' : runes > 500 ? 'invalid.addressLong' : null;
    case 'registryUniqueNo':
      return /^(?:\d{4}-\d{4}-\d{6}|\d{14})$/.test(v) ? null : 'invalid.uniqueNo';
  }
}

export interface NestsView {
  el: HTMLElement;
}

export function nestsView(open: (id: string) => void): NestsView {
  const list = h('ul', { class: 'nest-list', 'aria-live': 'polite' });
  const status = h('p', { class: 'muted', role: 'status' }, t('nests.loading'));
  const more = h('button', { type: 'button', hidden: true }, t('nests.more'));
  let after: string | null = null;
  let count = 0;

  async function load(): Promise<void> {
    more.disabled = true;
    try {
      const data = await gql(NESTS, { first: PAGE_SIZE, after });
      for (const n of data.nests.nodes) list.append(nestItem(n));
      count += data.nests.nodes.length;
      after = data.nests.pageInfo.endCursor;
      more.hidden = !data.nests.pageInfo.hasNextPage;
      status.textContent = count === 0 ? t('nests.empty') : '';
    } catch (e) {
      status.textContent = e instanceof ApiError ? e.userMessage() : String(e);
    } finally {
      more.disabled = false;
    }
  }
  more.addEventListener('click', () => void load());

  const el = h(
    'section',
    { class: 'page', 'aria-labelledby': 'page-title' },
    h('h1', { id: 'page-title', tabindex: -1 }, t('nests.title')),
    h('p', { class: 'lead' }, t('nests.intro')),
    // The form comes first on every width, so that reading and tab order
    // match what is seen (left column on wide screens, top on phones).
    h('div', { class: 'columns' }, createForm(open), h('div', null, list, status, more)),
  );
  void load();
  return { el };
}

function nestItem(n: Nest): HTMLElement {
  return h(
    'li',
    null,
    h(
      'a',
      { href: `#/nest/${encodeURIComponent(n.id)}`, class: 'nest-link' },
      h('strong', null, n.title),
      h('span', null, n.address),
      h('span', { class: 'muted' }, t('nests.uniqueNo', { no: n.registryUniqueNo }), ' · ', formatTime(n.createdAt)),
    ),
  );
}

function createForm(open: (id: string) => void): HTMLElement {
  const fields: Record<Field, { input: HTMLInputElement; error: HTMLElement }> = {
    title: field('title', 'field.title', 'field.titleHint', { maxlength: 200, autocomplete: 'off' }),
    address: field('address', 'field.address', 'field.addressHint', { maxlength: 500, autocomplete: 'street-address' }),
    registryUniqueNo: field('registryUniqueNo', 'field.uniqueNo', 'field.uniqueNoHint', {
      inputmode: 'numeric',
      autocomplete: 'off',
      placeholder: '1234-5678-901234',
      maxlength: 16,
    }),
  };
  const formError = h('p', { class: 'field-error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'primary' }, t('create.submit'));

  function show(name: Field, message: string): void {
    const f = fields[name];
    f.error.textContent = message;
    if (message) f.input.setAttribute('aria-invalid', 'true');
    else f.input.removeAttribute('aria-invalid');
  }

  for (const name of Object.keys(fields) as Field[]) {
    // Re-check a field once it was marked, so the message goes away as the
    // user fixes it (and not while they first type).
    fields[name].input.addEventListener('input', () => {
      if (fields[name].input.getAttribute('aria-invalid') === 'true') {
        const key = validate(name, fields[name].input.value);
        show(name, key ? t(key) : '');
      }
    });
  }

  const form = h(
    'form',
    { class: 'card create-nest', novalidate: true, 'aria-labelledby': 'create-title' },
    h('h2', { id: 'create-title' }, t('create.title')),
    ...(Object.keys(fields) as Field[]).map((name) => fields[name].input.parentElement!),
    formError,
    h('div', { class: 'actions' }, submit),
  );

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    formError.textContent = '';
    let firstBad: HTMLInputElement | null = null;
    for (const name of Object.keys(fields) as Field[]) {
      const key = validate(name, fields[name].input.value);
      show(name, key ? t(key) : '');
      if (key && !firstBad) firstBad = fields[name].input;
    }
    if (firstBad) {
      formError.textContent = t('create.fix');
      firstBad.focus();
      return;
    }
    submit.disabled = true;
    submit.textContent = t('create.busy');
    try {
      const data = await gql(CREATE_NEST, {
        input: {
          title: fields.title.input.value,
          address: fields.address.input.value,
          registryUniqueNo: fields.registryUniqueNo.input.value,
        },
      });
      open(data.createNest.id);
    } catch (e) {
      if (e instanceof ApiError && e.code === 'BAD_USER_INPUT' && e.field) {
        const name = e.field.replace(/^input\./, '') as Field;
        if (name in fields) {
          const key = validate(name, fields[name].input.value);
          show(name, key ? t(key) : e.message);
          fields[name].input.focus();
        }
      }
      formError.textContent = e instanceof ApiError ? e.userMessage() : String(e);
    } finally {
      submit.disabled = false;
      submit.textContent = t('create.submit');
    }
  });
  return form;
}

function field(
  name: Field,
  label: Key,
  hint: Key,
  attrs: Record<string, string | number>,
): { input: HTMLInputElement; error: HTMLElement } {
  const id = `nest-${name}`;
  const input = h('input', { id, name, type: 'text', 'aria-describedby': `${id}-hint ${id}-error`, ...attrs });
  const error = h('p', { id: `${id}-error`, class: 'field-error' });
  h('div', { class: 'field' }, h('label', { for: id }, t(label)), input, h('p', { id: `${id}-hint`, class: 'hint' }, t(hint)), error);
  return { input, error };
}

