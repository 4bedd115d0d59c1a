// Markup built with DOM calls (the labs' panels, fields and texts): no HTML is parsed and no
// inline style or script is written, as the Content-Security-Policy asks.

/**
 * An element. `tag` may carry an id and classes (`section#id.a.b`); `attrs` are attributes
 * (true: present and empty, false or null: absent); `children` are nodes or strings (text), or
 * arrays of them.
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const [name, ...parts] = tag.split(/(?=[#.])/);
  const el = document.createElement(name);
  for (const part of parts) {
    if (part[0] === '#') el.id = part.slice(1);
    else el.classList.add(part.slice(1));
  }
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === true) el.setAttribute(k, '');
    else if (v !== false && v !== null && v !== undefined) el.setAttribute(k, v);
  }
  el.append(...children.flat());
  return el;
}

/** `<option value>` elements: each a value, or [value, text, title?]. */
export function options(list) {
  return list.map((o) => {
    const [value, text = value, title = null] = Array.isArray(o) ? o : [o];
    return h('option', { value, title }, text);
  });
}

/** A label's content: 'name|note' is `name <span class="muted">note</span>`; arrays are kept. */
function labelContent(label) {
  if (Array.isArray(label)) return label;
  const i = label.indexOf('|');
  return i < 0 ? [label] : [`${label.slice(0, i)} `, h('span.muted', {}, label.slice(i + 1))];
}

/**
 * A configuration key's text field: `<div class="field">` with its label and an input
 * (`data-key`, text, no autocomplete or spellcheck; `inputmode` when given).
 */
export function textField(id, key, label, inputmode = null) {
  return h('div.field', {},
    h('label', { for: id }, labelContent(label)),
    h(`input#${id}`, { 'data-key': key, type: 'text', inputmode, autocomplete: 'off', spellcheck: 'false' }),
  );
}

/** A configuration key's select field: `<div class="field">` with its label and the options. */
export function selectField(id, key, label, list) {
  return h('div.field', {},
    h('label', { for: id }, labelContent(label)),
    h(`select#${id}`, { 'data-key': key }, options(list)),
  );
}
