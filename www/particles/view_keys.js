// The particle lab's view keys (the core's `view` module): the view state as [key, value] pairs
// for the link, and a link's view applied to the panels and their controls. View keys never
// change the run: only what is shown and how fast it plays.
//
// speed (steps per frame; written once chosen), heatmap (one | max; written once chosen, the
// preset's suggestion otherwise), trails (0 | 1),
// projection (pca2 | pca3 | a,b; only for d > 3), camera (yaw,pitch in radians; the 3-D view),
// colour (clusters | index | plain), overlays (hull, psi, leaders, plateaus, depth; written once
// chosen, the preset's suggestion otherwise), order (cluster | leader | index; likewise).
// `coords` is a configuration key and travels with it.

import { showOverlays } from './overlays.js';
import { $, app, ui } from './state.js';

/** An angle in [-π, π), with 3 decimals (what a link writes). */
function angle(a) {
  const w = ((a + Math.PI) % (2 * Math.PI) + 2 * Math.PI) % (2 * Math.PI) - Math.PI;
  return Math.round(w * 1000) / 1000;
}

/**
 * The view keys as [key, value] pairs. `trails`, `camera` and `colour` are always
 * given: the core's check of the link (check_link) drops a value equal to the core's default, so
 * the page keeps no copy of the defaults; `heatmap`, `overlays`, `order` and `axes` once chosen (else the
 * preset's suggestion, which follows the preset).
 * @returns {[string, string][]}
 */
export function viewPairs() {
  const { tokens: tokenView, heatmap: heatmapView, loop } = ui;
  const d = app.stepper ? app.stepper.d() : 0;
  /** @type {Array<[string, string]>} */
  const out = [];
  if (loop.speedChosen) out.push(['speed', String(loop.perFrame)]);
  if (app.heatScaleChosen) out.push(['heatmap', heatmapView.scale]);
  out.push(['trails', tokenView.showTrails ? '1' : '0']);
  const pr = app.projection;
  if (d > 3 && pr.mode === 'pca3') out.push(['projection', 'pca3']);
  if (d > 3 && pr.mode === 'axes') {
    const a = Math.round(pr.a);
    const b = Math.round(pr.b);
    if (a >= 1 && b >= 1 && a <= d && b <= d && a !== b) out.push(['projection', `${a},${b}`]);
  }
  const yaw = angle(tokenView.yaw);
  const pitch = Math.round(tokenView.pitch * 1000) / 1000;
  out.push(['camera', `${yaw},${pitch}`]);
  out.push(['colour', tokenView.colour]);
  // The core drops the list when it is the preset's suggestion (the default).
  if (app.overlaysChosen) out.push(['overlays', app.overlays.join(',')]);
  if (app.orderChosen) out.push(['order', heatmapView.order]);
  if (app.axesChosen) out.push(['axes', tokenView.axes]);
  return out;
}

/** The heatmap's scale: the view, its select and its legend. */
export function showHeatScale(scale) {
  const heatmapView = ui.heatmap;
  heatmapView.scale = scale === 'max' ? 'max' : 'one';
  /** @type {HTMLSelectElement} */ ($('heat-scale')).value = heatmapView.scale;
  $('heatmap-top').textContent = heatmapView.scale === 'one' ? '1' : 'max P';
}

/**
 * Applies a link's view (the core's View object) to the particle lab's panels and controls.
 * @param {object} view `{ speed, heatmap, trails, projection: {mode, a, b}, camera: {yaw, pitch}, colour }`
 */
export function applyView(view) {
  const { tokens: tokenView } = ui;
  if (view.speed !== null && view.speed !== undefined) {
    ui.loop.setSpeed(view.speed);
    ui.controls.showSpeed(view.speed);
  }
  app.heatScaleChosen = view.heatmap !== null && view.heatmap !== undefined;
  showHeatScale(app.heatScaleChosen ? view.heatmap : app.stepper.suggested_heat_scale());
  tokenView.showTrails = view.trails;
  /** @type {HTMLInputElement} */ ($('trails')).checked = view.trails;
  const pr = view.projection;
  app.projection = { mode: pr.mode, a: pr.a, b: pr.b };
  /** @type {HTMLSelectElement} */ ($('projection')).value = pr.mode;
  /** @type {HTMLInputElement} */ ($('axis-a')).value = String(pr.a);
  /** @type {HTMLInputElement} */ ($('axis-b')).value = String(pr.b);
  $('axes-group').hidden = pr.mode !== 'axes';
  tokenView.yaw = view.camera.yaw;
  tokenView.pitch = view.camera.pitch;
  tokenView.colour = view.colour;
  /** @type {HTMLSelectElement} */ ($('colour')).value = view.colour;
  app.orderChosen = view.order !== null && view.order !== undefined;
  showHeatOrder(app.orderChosen ? view.order : app.stepper.suggested_order());
  app.overlaysChosen = view.overlays !== null && view.overlays !== undefined;
  showOverlays(app.overlaysChosen ? view.overlays : app.stepper.suggested_overlays());
  app.axesChosen = view.axes !== null && view.axes !== undefined;
  showScale(app.axesChosen ? view.axes : app.stepper.suggested_axes());
}

/** The heatmap's order (the view key `order`): the view, its select, the run's heatmap. */
export function showHeatOrder(order) {
  ui.heatmap.order = order;
  /** @type {HTMLSelectElement} */ ($('heat-order')).value = order;
  if (app.stepper) app.stepper.set_heatmap_order(order);
}

/** The token view's axis scales (`equal` or `per-axis`: the view key `axes`) and its select;
 * the select is shown where it changes something (2-D and 3-D views of the Euclidean model). */
export function showScale(axes) {
  const tokenView = ui.tokens;
  if (tokenView.axes !== axes) {
    tokenView.axes = axes;
    tokenView.view = null; // rescale at once (from the next tokens when none is shown yet)
    if (tokenView.pts) tokenView.updateView();
  }
  /** @type {HTMLSelectElement} */ ($('scale')).value = axes;
  $('scale-label').hidden = tokenView.k === 1 || tokenView.sphere;
}
