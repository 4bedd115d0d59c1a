// The particle lab (science.md §1-2): tokens moving as particles under self-attention, with the
// attention matrix and metrics over time. This module is the lab's interface to the page (the
// object main.js's table loads; lab/labs.js says what each member does); the lab's concerns live
// in its other modules: markup.js, wiring.js, run.js (the ParticleLab and the run loop's hooks),
// render.js, config.js, view_keys.js, captions.js, hover.js, divergence.js,
// exports.js, hooks.js, state.js.
//
// Data flow: link / fields -> Draft (lab/) -> check_link (the core's check and the page's limits) -> ParticleLab
// -> views. The run advances in animation frames within a time budget (lab/run_loop.js).

import * as wasmModule from '../pkg/attn_web.js';
import { setupShareBar } from '../share/share_bar.js';
import { refreshText } from './captions.js';
import { checkPage, reset, showRun } from './config.js';
import { exportsOf } from './exports.js';
import { installHooks, runState } from './hooks.js';
import { buildMarkup, citation, subtitle } from './markup.js';
import { renderNow } from './render.js';
import { setupView } from './run.js';
import { setupTimeline } from './timeline.js';
import { showSeek } from './seek_note.js';
import { app, markAll, ui } from './state.js';
import { applyView, viewPairs } from './view_keys.js';
import { wire } from './wiring.js';

/** The wasm module with its JSON results typed (wasm.d.ts; the same object). */
const wasm = /** @type {AttnPageWasm} */ (wasmModule);

/** The run computed to `step` and shown paused there (the link's moment, a PNG's step). */
function seekTo(step) {
  return ui.loop.seekTo(step);
}

/**
 * Shows link `text`: its configuration (a new run when it differs from the current one), its
 * view keys (view_keys.js), and, for `t=` / `step=`, the run computed to that step and paused.
 * `checked`: the core's check of `text` (check_link), when the caller has it.
 */
function show(text, checked = wasm.check_link(text)) {
  const fresh = !app.stepper;
  const link = checked;
  const ok = link.ok && link.lab === 'particles';
  const config = ok ? link.canonical : text;
  if (fresh || config !== app.canonical) ui.config.load(config);
  else if (ok) showRun();
  const suggest = () => ui.loop.suggested(app.stepper.suggested_speed());
  if (!ok || app.canonical !== config) {
    // Refused (the message names the key): the fallback run keeps its own view.
    if (fresh) suggest();
    return;
  }
  applyView(link.view);
  if (link.view.speed === null) suggest();
  setupView();
  refreshText();
  app.needs.heat = true;
  renderNow();
  ui.ctx.linkChanged('replace');
  if (link.open_step !== null) {
    const done = seekTo(link.open_step);
    showSeek(link.open_step, () => app.stepper.step_count(), done);
  }
}

/**
 * The particle lab (lab/labs.js says what each member does).
 * @param {import('../lab/labs.js').LabContext} ctx
 */
export function createLab(ctx) {
  ui.ctx = ctx;
  const lab = {
    id: ctx.id,
    title: ctx.title,
    defaultLink: ctx.defaultLink,
    root: null,
    panels: { tokens: '.tokens-panel', heatmap: '.heatmap-panel', chart: '.chart-panel' },
    controls: {
      play: '#play', step: '#step', reset: '#reset', seed: '#new-seed',
      speed: '#speed', preset: '#preset',
      n: '#cfg-n', d: '#cfg-d', beta: '#cfg-beta', dt: '#cfg-dt', until: '#cfg-until',
      model: '#cfg-model', integrator: '#cfg-integrator',
    },
    pageViewInLink: true,
    pausesOffscreen: true,
    subtitle,
    citation,
    mount(root) {
      lab.root = root;
      buildMarkup(root);
      wire(ctx.defaultLink);
      setupShareBar(ctx.page, lab, { linkChanged: ctx.linkChanged, redraw });
      setupTimeline(lab);
      installHooks();
    },
    show(text, checked) {
      ui.loop.show();
      redraw();
      show(text, checked);
    },
    hide: () => ui.loop.hide(),
    canonical: () => app.canonical,
    viewPairs,
    play: () => ui.loop.play(),
    pause: () => ui.loop.pause(),
    togglePlay: () => ui.loop.togglePlay(),
    step: () => ui.loop.step(),
    reset,
    seekTo,
    /** Checks a configuration as a link is checked (the core's parser, then the page's device cap). */
    check: (text) => checkPage(text),
    refuse: (res, tail) => ui.config.refuse(res, tail),
    state: runState,
    exports: exportsOf,
  };
  return lab;
}

/** Shown again (or a panel toggled): redraw everything. */
function redraw() {
  markAll();
  ui.heatmap.draw();
}
