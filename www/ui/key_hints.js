// The configuration fields' hints from the core's key tables (wasm `key_table(lab)`: one row
// per URL key with its meaning, effect, allowed values and default). The page keeps no copy of
// a key's range or choice names: a field's tooltip and accessible description, and a select's
// options, come from the table that also parses and validates the key.

/** Markdown of the tables (backticks, links) as plain text for a tooltip. */
function plain(text) {
  return text.replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
}

/**
 * The one-paragraph hint of a key: `name: meaning; effect. Allowed: …. Default: ….`
 * @param {{ name: string, meaning: string, effect: string, allowed: string, default: string }} key
 */
export function hintText(key) {
  const effect = key.effect ? `; ${plain(key.effect)}` : '';
  const allowed = key.allowed ? ` Allowed: ${plain(key.allowed)}.` : '';
  const shown = key.default.length > 40 ? `${key.default.slice(0, 37)}…` : key.default;
  const dflt = key.name === 'preset' || key.name === 'lab' ? '' : ` Default: ${shown === '' ? 'empty' : shown}.`;
  return `${key.name}: ${plain(key.meaning)}${effect}.${allowed}${dflt}`;
}

/** A select's options made the key's choices, in the table's order (labels already written
 * for a choice are kept). */
function syncChoices(select, choices) {
  const labels = new Map([...select.options].map((o) => [o.value, o.textContent]));
  if (choices.length === select.options.length && choices.every((c, i) => select.options[i].value === c)) return;
  const value = select.value;
  select.replaceChildren(...choices.map((c) => {
    const opt = document.createElement('option');
    opt.value = c;
    opt.textContent = labels.get(c) ?? c;
    return opt;
  }));
  if (choices.includes(value)) select.value = value;
}

/**
 * Gives each `data-key` field of a lab's form its key's hint (tooltip on the field and its
 * label, `aria-description` for screen readers) and a select the key's choices.
 * @param {HTMLElement[]} fields the form's `data-key` fields
 * @param {object[]} table the lab's `key_table` rows
 */
export function describeFields(fields, table) {
  const byName = new Map(table.map((k) => [k.name, k]));
  for (const el of fields) {
    const key = byName.get(el.dataset.key);
    if (!key) continue;
    const hint = hintText(key);
    el.title = hint;
    el.setAttribute('aria-description', hint);
    if (el.id) {
      const label = /** @type {HTMLElement|null} */ (document.querySelector(`label[for="${el.id}"]`));
      if (label) label.title = hint;
    }
    if (el.tagName === 'SELECT' && (key.kind === 'choice' || key.kind === 'switch')) syncChoices(el, key.choices);
  }
}
