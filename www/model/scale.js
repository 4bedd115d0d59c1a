// The model lab's grid colour scale (view key `grid_scale`, as the depth lab's; core model::keys::TileScale): `head`, each
// tile spans its own head's range, or `shared`, one range for every head of a grid, so heads can
// be compared. The control (two radio buttons in the grid panel) and the legend under the grids,
// which says the range used (the worker's tiles carry it: attention_max, similarity_range).

import { h } from '../ui/dom.js';
import { fmt } from '../ui/format.js';

/** The scales, the default first (as the core's table). */
export const SCALES = ['head', 'shared'];

/**
 * The link's pairs for scale `value`: `grid_scale=value`, none for the default.
 * @returns {Array<[string, string]>}
 */
export function scalePair(value) {
  return value === SCALES[0] ? [] : [['grid_scale', value]];
}

export class ScaleControl {
  /**
   * Builds the control before the grid panel's legend (`panel`: the grid's section).
   * @param {HTMLElement} panel
   * @param {(scale: string) => void} onPick a scale was picked by the user
   */
  constructor(panel, onPick) {
    this.radios = SCALES.map((v) => /** @type {HTMLInputElement} */ (h('input', { type: 'radio', name: 'md-scale', value: v, checked: v === SCALES[0] })));
    const titles = { head: "each tile spans its own head's range", shared: 'one range for every head of a grid: heads compare' };
    const labels = { head: ' per head', shared: ' shared' };
    this.box = h('fieldset#md-scale.inline', {},
      h('legend', {}, 'colour scale'),
      ...this.radios.map((r) => h('label', { title: titles[r.value] }, r, labels[r.value])));
    this.legend = panel.querySelector('.legend');
    panel.querySelector('.md-grid-row').before(this.box);
    for (const r of this.radios) r.addEventListener('change', () => r.checked && onPick(r.value));
  }

  /** Shows the scale of an analysis (`scale`: 'head' or 'shared') and the tiles' ranges. */
  show(scale, tiles) {
    for (const r of this.radios) r.checked = r.value === scale;
    const [lo, hi] = this.legend.querySelectorAll(':scope > span:not(.viridis-bar)');
    if (!lo || !hi) return;
    if (scale === 'shared' && tiles?.attention_max?.length) {
      const r = tiles.similarity_range;
      lo.textContent = `P 0, S ${fmt(r[0])}`;
      hi.textContent = `P ${fmt(tiles.attention_max[0])}, S ${fmt(r[1])} (all heads)`;
    } else {
      lo.textContent = "0 / head's min";
      hi.textContent = "head's max";
    }
  }
}
