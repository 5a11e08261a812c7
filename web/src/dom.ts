// A tiny element builder: the console needs no UI framework.

export type Child = Node | string | number | null | undefined | false | Child[];
type AttrValue = string | number | boolean | null | undefined | EventListener;
export type Attrs = Record<string, AttrValue>;

/**
 * h creates an element. Attributes whose value is null, undefined or false
 * are left out, true sets an empty attribute, and on* functions become
 * event listeners (onclick → "click").
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Attrs | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v == null || v === false) continue;
      if (typeof v === 'function') el.addEventListener(k.slice(2), v);
      else if (k === 'class') el.className = String(v);
      else el.setAttribute(k, v === true ? '' : String(v));
    }
  }
  append(el, children);
  return el;
}

function append(el: Node, children: Child[]): void {
  for (const c of children) {
    if (c == null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** replace swaps an element's children for new ones. */
export function replace(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/**
 * swap replaces old with next, keeping keyboard focus and open <details>
 * where the new element has the same data-focus / data-open keys, so a
 * live update never throws the user's focus away.
 */
export function swap(old: Element, next: Element): void {
  const active = document.activeElement as HTMLElement | null;
  const focusKey = active && old.contains(active) ? active.dataset.focus : undefined;
  const open = new Set<string>();
  old.querySelectorAll<HTMLDetailsElement>('details[data-open]').forEach((d) => {
    if (d.open) open.add(d.dataset.open!);
  });
  next.querySelectorAll<HTMLDetailsElement>('details[data-open]').forEach((d) => {
    if (open.has(d.dataset.open!)) d.open = true;
  });
  old.replaceWith(next);
  if (focusKey) next.querySelector<HTMLElement>(`[data-focus="${CSS.escape(focusKey)}"]`)?.focus();
}
