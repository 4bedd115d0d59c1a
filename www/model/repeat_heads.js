// The repeated layer's heads (science.md §1.7 over repetitions): each head's Boolean distance
// max_ij |P_ij − round P_ij| as a line over the repetitions (the chosen head highlighted, the
// repetition shown marked), a table of every head's Boolean distance and leaders at the repetition
// shown, and the chosen head's attention P at that repetition as a heatmap with the tokens ordered
// by cluster (cluster 0's tokens first, lines between clusters). The numbers are
// ModelLab.repeat_view's (`boolean_distance`, `leaders`) and ModelLab.repeat_attention's, which
// the worker sends; nothing is computed here but the order of the tokens.

import { clearCanvas, clusterPalette, drawLabel, setLabels } from '../render/palette.js';
import { h } from '../ui/dom.js';

const $ = (id) => document.getElementById(id);

/** The markup, placed after the repeated layer's panel caption. */
export function repeatHeadsMarkup() {
  return h('div.md-repeat-heads', {},
    h('h3', {}, 'Each head of the layer over the repetitions'),
    h('div.md-repeat-heads-row', {},
      h('div.md-repeat-heads-chart', {},
        h('div.canvas-box.md-repeat-bool-box', {},
          h('canvas#md-repeat-bool', { role: 'img', 'aria-label': 'Boolean distance of each head of the repeated layer against the repetition, the chosen head highlighted' })),
        h('div.md-repeat-heads-table-box', {},
          h('table#md-repeat-heads-table.md-layers-table', {},
            h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'head'), h('th', { scope: 'col' }, 'Boolean dist.'), h('th', { scope: 'col' }, 'leaders'))),
            h('tbody#md-repeat-heads-stats')))),
      h('div.md-repeat-heat-col', {},
        h('div.md-repeat-heat-bar', {},
          h('label', { for: 'md-repeat-head' }, 'head '),
          h('select#md-repeat-head', {}),
          h('output#md-repeat-head-out', { for: 'md-repeat-head' })),
        h('div.canvas-box.md-repeat-heat-box', {},
          h('canvas#md-repeat-heat', { role: 'img', 'aria-label': 'The chosen head\'s attention P at the repetition shown, tokens ordered by cluster' })))),
    h('p.caption', {}, 'Boolean distance max|P − round P| (0 exactly when every token attends to one token) and leaders, the tokens j with max_i P_ij > 1/2 (science.md §1.7), of the layer\'s P_h at each repetition\'s tokens: the attention the next repetition applies. Heatmap: P of the chosen head, rows and columns ordered by cluster.'));
}

export class RepeatHeads {
  /** `ask(t, head)`: asks the worker for head `head`'s P at repetition `t`. */
  constructor(ask) {
    this.ask = ask;
    /** @type {ModelRepeatView|null} */
    this.view = null;
    this.result = null;
    this.t = 0;
    this.head = 0;
    this.p = null; // { t, head, p } the heatmap's P
    $('md-repeat-head').addEventListener('change', () => {
      this.head = Number(/** @type {HTMLSelectElement} */ ($('md-repeat-head')).value);
      this.show(this.t);
    });
    $('md-repeat-heads-stats').addEventListener('click', (e) => {
      const row = /** @type {HTMLElement} */ (/** @type {HTMLElement} */ (e.target).closest('tr[data-head]'));
      if (!row) return;
      this.head = Number(row.dataset.head);
      /** @type {HTMLSelectElement} */ ($('md-repeat-head')).value = String(this.head);
      this.show(this.t);
    });
  }

  /** A finished run `view` (result: the analysis, its tokens), the chosen head `head`.
   * @param {ModelRepeatView} view */
  set(view, result, head) {
    this.view = view;
    this.result = result;
    const sel = /** @type {HTMLSelectElement} */ ($('md-repeat-head'));
    if (sel.options.length !== view.heads) {
      sel.replaceChildren(...Array.from({ length: view.heads }, (_, i) => h('option', { value: String(i) }, String(i))));
    }
    this.head = Math.min(head ?? this.head, view.heads - 1);
    sel.value = String(this.head);
    this.p = null;
  }

  /** Repetition `t` shown: the table, the chart's marker, and the heatmap (asked for). */
  show(t) {
    if (!this.view) return;
    this.t = t;
    this.table();
    this.drawChart();
    if (!this.p || this.p.t !== t || this.p.head !== this.head) this.ask(t, this.head);
    else this.drawHeat();
  }

  /** The worker's P of head `head` at repetition `t`. */
  attention(t, head, p) {
    if (t !== this.t || head !== this.head) return;
    this.p = { t, head, p };
    this.drawHeat();
  }

  /** Boolean distance and leaders of head `hd` at repetition `t`. */
  stat(t, hd) {
    const { heads, n, boolean_distance: bd, leaders } = this.view;
    const at = (t * heads + hd) * n;
    const lead = [];
    for (let j = 0; j < n; j++) if (leaders[at + j]) lead.push(j);
    return { distance: bd[t * heads + hd], leaders: lead };
  }

  table() {
    const tokens = this.result?.tokens ?? [];
    $('md-repeat-heads-stats').replaceChildren(...Array.from({ length: this.view.heads }, (_, hd) => {
      const s = this.stat(this.t, hd);
      const names = s.leaders.map((j) => `${j} ${tokens[j] ?? ''}`.trim()).join(', ');
      return h(`tr${hd === this.head ? '.shown' : ''}`, { 'data-head': String(hd) },
        h('th', { scope: 'row' }, String(hd)),
        h('td', { 'data-value': String(s.distance) }, s.distance.toFixed(4)),
        h('td', { 'data-value': s.leaders.join(' '), title: names }, s.leaders.length > 4 ? `${s.leaders.length} tokens` : names || '–'));
    }));
    $('md-repeat-head-out').textContent = ` at repetition ${this.t}: Boolean distance ${this.stat(this.t, this.head).distance.toFixed(4)}`;
  }

  /** One line per head: the Boolean distance (0 to 0.5) against the repetition. */
  drawChart() {
    const canvas = /** @type {HTMLCanvasElement} */ ($('md-repeat-bool'));
    const ctx = canvas.getContext('2d');
    const { w, h: H, th } = clearCanvas(canvas, ctx);
    const { heads, states, boolean_distance: bd } = this.view;
    const out = [];
    const left = 40;
    const right = 8;
    const top = 8;
    const bottom = 30;
    const pw = w - left - right;
    const ph = H - top - bottom;
    if (pw < 10 || ph < 10) return;
    const x = (t) => left + (states > 1 ? (t / (states - 1)) * pw : 0);
    const y = (v) => top + (1 - v / 0.5) * ph;
    ctx.strokeStyle = th.border;
    ctx.strokeRect(left, top, pw, ph);
    ctx.font = '11px system-ui, sans-serif';
    ctx.fillStyle = th.muted;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (const v of [0, 0.25, 0.5]) drawLabel(ctx, String(v), left - 5, y(v), out);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    for (const t of [0, Math.round((states - 1) / 2), states - 1]) drawLabel(ctx, String(t), x(t), top + ph + 3, out);
    drawLabel(ctx, 'repetition', left + pw / 2, top + ph + 15, out);
    const palette = clusterPalette();
    for (const hd of [...Array(heads).keys()].filter((k) => k !== this.head).concat([this.head])) {
      const chosen = hd === this.head;
      ctx.strokeStyle = chosen ? th.accent : palette[hd % palette.length];
      ctx.globalAlpha = chosen ? 1 : 0.45;
      ctx.lineWidth = chosen ? 2.5 : 1;
      ctx.beginPath();
      for (let t = 0; t < states; t++) {
        const v = bd[t * heads + hd];
        if (t === 0) ctx.moveTo(x(t), y(v));
        else ctx.lineTo(x(t), y(v));
      }
      ctx.stroke();
    }
    ctx.globalAlpha = 1;
    ctx.lineWidth = 1;
    ctx.strokeStyle = th.fg;
    ctx.setLineDash([3, 3]);
    ctx.beginPath();
    ctx.moveTo(x(this.t), top);
    ctx.lineTo(x(this.t), top + ph);
    ctx.stroke();
    ctx.setLineDash([]);
    setLabels(canvas, { labels: out });
  }

  /** The chosen head's P at the repetition shown, rows and columns ordered by cluster. */
  drawHeat() {
    const canvas = /** @type {HTMLCanvasElement} */ ($('md-repeat-heat'));
    const ctx = canvas.getContext('2d');
    const { w, h: H, th } = clearCanvas(canvas, ctx);
    if (!this.p) return;
    const { n, labels } = this.view;
    const row = labels.subarray(this.t * n, (this.t + 1) * n);
    const order = [...Array(n).keys()].sort((a, b) => row[a] - row[b] || a - b);
    const side = Math.min(w, H) - 4;
    const cell = side / n;
    const x0 = (w - side) / 2;
    const y0 = (H - side) / 2;
    const p = this.p.p;
    let max = 0;
    for (const v of p) max = Math.max(max, v);
    ctx.fillStyle = th.accent;
    for (let a = 0; a < n; a++) {
      for (let b = 0; b < n; b++) {
        const v = p[order[a] * n + order[b]];
        if (!(v > 0)) continue;
        ctx.globalAlpha = Math.min(1, v / (max || 1));
        ctx.fillRect(x0 + b * cell, y0 + a * cell, cell + 0.3, cell + 0.3);
      }
    }
    ctx.globalAlpha = 1;
    ctx.strokeStyle = th.fg;
    ctx.lineWidth = 1;
    for (let a = 1; a < n; a++) {
      if (row[order[a]] === row[order[a - 1]]) continue;
      ctx.beginPath();
      ctx.moveTo(x0 + a * cell, y0);
      ctx.lineTo(x0 + a * cell, y0 + side);
      ctx.moveTo(x0, y0 + a * cell);
      ctx.lineTo(x0 + side, y0 + a * cell);
      ctx.stroke();
    }
    ctx.strokeStyle = th.border;
    ctx.strokeRect(x0, y0, side, side);
  }

  draw() {
    if (!this.view) return;
    this.drawChart();
    this.drawHeat();
  }
}
