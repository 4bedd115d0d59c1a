// The model lab's field hints from the core's key table (wasm `key_table('model')`, the table
// that also parses the lab's links): the text box's and the colour-scale control's tooltip and
// accessible description, as the other labs' configuration fields get theirs (ui/key_hints.js).

import { hintText } from '../ui/key_hints.js';

/** The elements (by id) that show a key of the table. */
const FIELDS = { text: 'md-text', grid_scale: 'md-scale', repeat_layer: 'md-repeat-layer', iterations: 'md-repeat-iterations', variant: 'md-repeat-variant' };

/** Sets each field's tooltip and aria-description from `wasm.key_table('model')`.
 * @param {AttnWasm} wasm
 * @param {ParentNode} root */
export function applyModelHints(wasm, root) {
  for (const key of wasm.key_table('model')) {
    const el = FIELDS[key.name] ? /** @type {HTMLElement|null} */ (root.querySelector(`#${FIELDS[key.name]}`)) : null;
    if (!el) continue;
    const hint = hintText(key);
    el.title = hint;
    el.setAttribute('aria-description', hint);
  }
}
