// Drawing the training lab's panels: the c_n heatmap and the loss chart (a few times a second
// while playing), the status line and screen-reader summary, the description and captions with
// the model's equations, the hover readouts and the divergence message. The lab's page (lab.js)
// owns one TrainingPanels, which reads the page's run and drawing objects.

import { fmt } from '../ui/format.js';
import { firstPicture } from '../lab/marks.js';
import { description, writeCaptions } from './captions.js';
import { placeTip, tipLines } from '../ui/tip.js';

const CHART_INTERVAL_MS = 150; // chart redraws while playing
const $ = (id) => document.getElementById(id);

export class TrainingPanels {
  /** @param {import('./lab.js').TrainingLabPage} page the lab's page: its run (`lab`), run loop,
   *   redraw flags (`needs`), heatmap, chart, timeline, summary and token labels */
  constructor(page) {
    this.page = page;
    this.lastChartAt = -Infinity;
    this.heatHover = null;
    this.chartHover = null;
  }

  showDivergence(message) {
    $('tr-divergence-message').textContent = message;
    const eta = this.page.lab.eta_z();
    $('tr-halve-eta').textContent = `Halve eta_z (${eta} → ${eta / 2}) and restart`;
    $('tr-divergence').hidden = false;
  }

  hideDivergence() {
    $('tr-divergence').hidden = true;
    $('tr-divergence-message').textContent = '';
  }

  // ---- rendering -----------------------------------------------------------------------

  render(now, force) {
    const lab = this.page.lab;
    if (!lab || !this.page.loop.visible) return;
    const settled = force || !this.page.loop.playing;
    if (this.page.needs.heat) {
      this.page.heatmap.update(lab);
      firstPicture('training'); // the heatmap, the lab's main picture (lab/marks.js)
      $('tr-heat-max').textContent = `max c = ${fmt(lab.heatmap_scale())}`;
      this.page.needs.heat = false;
      if (this.heatHover) this.showHeatTip(this.heatHover);
    }
    if (this.page.needs.chart && (settled || now - this.lastChartAt >= CHART_INTERVAL_MS)) {
      try {
        this.page.chart.draw(lab);
      } catch (e) {
        console.warn(e);
      }
      this.lastChartAt = now;
      this.page.needs.chart = false;
      if (this.chartHover) this.showChartTip(this.chartHover);
    }
    this.updateStatus(now);
    this.page.timeline?.sync();
  }

  updateStatus(now) {
    const lab = this.page.lab;
    const it = lab.iteration();
    $('tr-iteration').textContent = `${it} / ${lab.iterations()}`;
    $('tr-loss').textContent = fmt(lab.last_loss());
    $('tr-entropy').textContent = `${fmt(lab.entropy())} nats`;
    const snap = lab.snap();
    const snapText = snap < 0 ? '–' : `iteration ${snap}${lab.snap_is_final() ? '' : ' (so far)'}`;
    $('tr-snap').textContent = snapText;
    $('tr-ips').textContent = String(Math.round(this.page.loop.rate.perSecond(now, this.page.loop.playing)));
    const status = lab.status();
    const state = status === 'diverged' ? 'diverged (paused)'
      : this.page.loop.playing ? (this.page.loop.pastEnd ? 'playing past the last iteration' : 'playing')
      : status === 'finished' ? 'finished'
      : 'paused';
    $('tr-state').textContent = state;
    this.page.summary.offer(`${lab.preset()}: iteration ${it} of ${lab.iterations()}, ${state}. Loss ${fmt(lab.last_loss())} nats, distinct-token entropy ${fmt(lab.entropy())} nats (uniform attention ${fmt(lab.uniform_entropy())}), snap ${snapText}.`);
  }

  /** Description and the captions with the equations the panels show. */
  refreshText() {
    const lab = this.page.lab;
    $('tr-description').textContent = description(lab);
    writeCaptions(lab, this.page.labels[lab.query_token()] ?? String(lab.query_token()));
  }

  // ---- hover ---------------------------------------------------------------------------

  showHeatTip(cell) {
    const tip = $('tr-heat-tip');
    if (!cell || !this.page.lab) {
      tip.hidden = true;
      return;
    }
    const c = this.page.lab.c_at(cell.iteration, cell.column);
    tipLines(tip, [
      `iteration ${cell.iteration}`,
      `token ${cell.label} (${cell.kind}, class ${cell.classLabel})`,
      `p(l|n) = ${fmt(cell.p)}`,
      `c = ${String(c)}`,
    ]);
    placeTip(tip, cell.x, cell.y, cell.w);
  }

  onHeatHover(cell) {
    this.heatHover = cell;
    this.showHeatTip(cell);
  }

  showChartTip(h) {
    const tip = $('tr-chart-tip');
    const cursor = $('tr-chart-cursor');
    if (!h || !this.page.lab) {
      tip.hidden = true;
      cursor.hidden = true;
      return;
    }
    const s = this.page.lab.sample(h.iteration);
    const x = this.page.chart.xOf(s.iteration);
    if (x !== null) {
      cursor.style.left = `${x}px`;
      cursor.hidden = false;
    }
    tipLines(tip, [
      `iteration ${s.iteration}`,
      `loss: ${s.loss === null ? 'not yet' : fmt(s.loss)}`,
      `entropy: ${s.entropy === null ? 'not yet' : fmt(s.entropy)}`,
      `max |Δc|: ${s.max_dc === null ? 'not yet' : fmt(s.max_dc)}`,
    ]);
    placeTip(tip, h.x, h.y, h.w);
  }

  onChartHover(h) {
    this.chartHover = h;
    this.showChartTip(h);
  }
}
