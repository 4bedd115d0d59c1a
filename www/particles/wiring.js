// Wires the particle lab's panels and controls (built by markup.js) to what they do: the views,
// the run loop, the configuration page, the view switches and their history entries, redraws on
// resize and theme changes, and prefers-reduced-motion (the run starts paused, with a note).

import * as wasm from '../pkg/attn_web.js';
import { onThemeChange } from '../render/palette.js';
import { Summary } from '../ui/summary.js';
import { refreshText } from './captions.js';
import { ChartView } from './chart.js';
import { createConfig, halve, newSeed, pickPreset, reset } from './config.js';
import { Controls } from './controls.js';
import { HeatmapView } from './heatmap.js';
import { onChartHover, onHeatHover } from './hover.js';
import { renderNow } from './render.js';
import { createLoop, setupView } from './run.js';
import { TokenView } from './tokens.js';
import { showHeatOrder, showHeatScale, showScale } from './view_keys.js';
import { OVERLAY_NAMES, showOverlays } from './overlays.js';
import { $, app, ui } from './state.js';

/** Builds the lab's objects on its markup (the wasm module initialised). */
export function wire(defaultLink) {
  const changed = (how) => ui.ctx.linkChanged(how);
  ui.tokens = new TokenView(/** @type {HTMLCanvasElement} */ ($('tokens')));
  ui.tokens.onChange = () => {
    app.needs.draw = true;
    ui.loop?.wake(); // a drag while the frames sleep (run.js, asleep)
  };
  ui.tokens.onCameraEnd = () => changed('replace');
  ui.heatmap = new HeatmapView(/** @type {HTMLCanvasElement} */ ($('heatmap')), onHeatHover);
  ui.chart = new ChartView(/** @type {HTMLCanvasElement} */ ($('chart')), onChartHover);
  ui.summary = new Summary($('summary'));
  const controls = new Controls({
    presets: wasm.presets('particles'),
    paperV: wasm.paper_v_2d(),
    onPreset: pickPreset,
    onEdit: (key, value, commit) => ui.config.edit(key, value, commit),
    onPlay: () => ui.loop.togglePlay(),
    onStep: () => ui.loop.step(),
    onReset: reset,
    onNewSeed: newSeed,
    onSpeed: (k) => {
      ui.loop.setSpeed(k);
      changed('replace');
    },
    onCoords: (c) => ui.config.edit('coords', c, true),
    onTrails: (on) => {
      ui.tokens.showTrails = on;
      app.needs.draw = true;
      changed('push');
    },
    onProjection: (mode, a, b) => {
      app.projection = { mode, a, b };
      if (app.stepper) {
        setupView();
        refreshText();
        renderNow();
      }
      changed('push');
    },
    onHalveDt: () => halve('dt'),
    onHalveBeta: () => halve('beta'),
  });
  ui.controls = controls;
  ui.loop = createLoop(controls);
  ui.config = createConfig(controls, defaultLink);
  controls.showSpeed(ui.loop.perFrame);

  // A heatmap view switch (order, colour scale): shown at once with its caption, one history entry.
  const onHeatView = (show) => (e) => {
    show(e.target.value);
    if (!app.stepper) return;
    refreshText();
    app.needs.heat = true;
    app.lastHeatAt = -Infinity;
    if (!ui.loop.playing) renderNow();
    changed('push');
  };
  $('heat-order').addEventListener('change', onHeatView((order) => {
    app.orderChosen = true;
    showHeatOrder(order);
  }));
  $('heat-scale').addEventListener('change', onHeatView((scale) => {
    app.heatScaleChosen = true;
    showHeatScale(scale);
  }));
  $('scale').addEventListener('change', (e) => {
    app.axesChosen = true;
    showScale(/** @type {HTMLSelectElement} */ (e.target).value);
    app.needs.draw = true;
    if (app.stepper && !ui.loop.playing) renderNow();
    changed('push');
  });
  // The overlay checkboxes write the view key `overlays` (one history entry per change).
  $('overlay-group').addEventListener('change', () => {
    app.overlaysChosen = true;
    showOverlays(OVERLAY_NAMES.filter((o) => /** @type {HTMLInputElement} */ ($(`overlay-${o}`)).checked));
    app.lastHeatAt = -Infinity;
    if (app.stepper && !ui.loop.playing) renderNow();
    changed('push');
  });
  $('colour').addEventListener('change', (e) => {
    ui.tokens.colour = /** @type {HTMLSelectElement} */ (e.target).value;
    if (!app.stepper) return;
    refreshText();
    app.needs.draw = true;
    if (!ui.loop.playing) renderNow();
    changed('push');
  });
  // prefers-reduced-motion: the run starts paused, with a note and the Play button.
  if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) {
    ui.loop.userPaused = true;
    $('motion-note').hidden = false;
  }

  const redraw = () => {
    app.needs.draw = true;
    app.needs.chart = true;
    ui.heatmap.draw();
  };
  onThemeChange(redraw);
  const ro = new ResizeObserver(redraw);
  for (const id of ['tokens', 'heatmap', 'chart']) ro.observe($(id));
}
