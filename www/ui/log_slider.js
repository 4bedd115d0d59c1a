// Log-scale sliders beside numeric configuration fields (β, dt, n, scale; the training rates).
// A slider's positions are the 1-2-5 values (1, 2, 5, 10, 20, …) inside the key's range from the
// core's key table (wasm `key_table`): from the range's low end (or 1/1000 of the default when
// the range is open at 0) to its high end (at most 1000 times the default). Dragging only shows
// the value; releasing it (the `change` event, also sent by each arrow key) writes the value,
// rounded to 2 significant digits, into the number field and commits it as the field's own
// change does: one history entry, a short link. The number field stays the precise entry.

import { h } from './dom.js';

/** `v` rounded to 2 significant digits, as a short decimal string. */
export function twoSignificant(v) {
  return String(Number(Number(v).toPrecision(2)));
}

/**
 * The 1-2-5 values inside the key's range (table row `key`: lo, hi, lo_open, hi_open, default,
 * kind); counts keep only whole numbers.
 */
export function steps125(key) {
  const dflt = Number(key.default);
  const base = Number.isFinite(dflt) && dflt > 0 ? dflt : 1;
  const lo = Math.max(key.lo > 0 ? key.lo : 0, base / 1000);
  const hi = Math.min(key.hi ?? Infinity, base * 1000);
  const out = [];
  for (let e = Math.floor(Math.log10(lo)) - 1; e <= Math.ceil(Math.log10(hi)) + 1; e += 1) {
    for (const m of [1, 2, 5]) {
      const v = Number((m * 10 ** e).toPrecision(1));
      const inside = (v > lo || (v === lo && !key.lo_open)) && (v < hi || (v === hi && !key.hi_open));
      if (inside && (key.kind !== 'count' || Number.isInteger(v))) out.push(v);
    }
  }
  return out;
}

/** Index of the value in `values` nearest to `v` on a log scale. */
function nearest(values, v) {
  let best = 0;
  for (let i = 1; i < values.length; i += 1) {
    if (Math.abs(Math.log(values[i] / v)) < Math.abs(Math.log(values[best] / v))) best = i;
  }
  return best;
}

/**
 * Adds a log slider beside the field of each key in `names` (the form's `[data-key]` input).
 * @param {HTMLElement[]} fields the form's `data-key` fields
 * @param {object[]} table the lab's key table rows
 * @param {string[]} names the keys that get a slider
 * @returns {{ sync: (values: Map<string, string>) => void }} shows configuration values on the sliders
 */
export function addLogSliders(fields, table, names) {
  const rows = new Map(table.map((k) => [k.name, k]));
  const sliders = [];
  for (const name of names) {
    const field = /** @type {HTMLInputElement|undefined} */ (fields.find((el) => el.dataset.key === name && el.tagName === 'INPUT'));
    const key = rows.get(name);
    if (!field || !key) continue;
    const values = steps125(key);
    if (values.length < 2) continue;
    const label = field.id ? document.querySelector(`label[for="${field.id}"]`) : null;
    const title = (label?.firstChild?.textContent ?? name).trim() || name;
    const slider = /** @type {HTMLInputElement} */ (h('input.log-slider', {
      type: 'range', min: '0', max: String(values.length - 1), step: '1',
      'aria-label': `${title} (log scale, 1-2-5 steps; applied on release)`,
      title: `${name} on a log scale: drag and release to apply (1-2-5 steps); the field takes any value`,
    }));
    const out = h('output.log-slider-out', { 'aria-hidden': 'true' });
    const show = (v) => {
      out.textContent = twoSignificant(v);
      slider.setAttribute('aria-valuetext', `${name} ${twoSignificant(v)}`);
    };
    slider.addEventListener('input', () => show(values[Number(slider.value)]));
    slider.addEventListener('change', () => {
      const v = twoSignificant(values[Number(slider.value)]);
      show(v);
      field.value = v;
      field.dispatchEvent(new Event('change'));
    });
    field.after(h('div.log-slider-row', {}, slider, out));
    sliders.push({ name, slider, values, show });
  }
  return {
    sync(values) {
      for (const s of sliders) {
        const v = Number(values.get(s.name));
        if (!(v > 0)) continue;
        s.slider.value = String(nearest(s.values, v));
        s.show(v);
      }
    },
  };
}
