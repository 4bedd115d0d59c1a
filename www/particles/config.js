// The particle lab's configuration: its page of fields (lab/config_page.js) with what only this
// lab does (the page's device cap, keys a model change requires, init=points filled with the
// initial tokens, a refused link's fallback at the link's version), and the changes that start a
// new run: apply, a preset, New seed, the divergence fixes (halve dt or β), Reset.

import * as wasmModule from '../pkg/attn_web.js';
import { ConfigPage } from '../lab/config_page.js';
import { Draft } from '../lab/draft.js';
import { startRun } from './run.js';
import { $, app, ui } from './state.js';

/** The wasm module with its JSON results typed (wasm.d.ts; the same object). */
const wasm = /** @type {AttnPageWasm} */ (wasmModule);

const KEPT = 'The last valid run keeps going.';

/**
 * The particle page's check of a configuration: the core's, then the page's limits (the web
 * crate's page_limits.rs: at most 4096 tokens, a bounded n² d per step), naming `edited` (the key
 * the user changed) where a refusal can.
 */
export function checkPage(text, edited = null) {
  return wasm.check_link(text, 'particles', undefined, edited ?? undefined);
}

/**
 * The configuration string of preset `name` at configuration `version` (default today's; a
 * string without `version` is an old link, which keeps the old arithmetic: see the core's
 * link/version.rs).
 * @param {string} name
 * @param {string|number} [version]
 */
export function presetLink(name, version = wasm.config_version()) {
  return `version=${version}&preset=${name}`;
}

/** The particle lab's configuration page. */
export function createConfig(controls, defaultLink) {
  const page = new ConfigPage({
    check: checkPage,
    keys: wasm.key_table('particles'),
    presetPairs: (name) => wasm.preset_pairs('particles', name),
    defaultPreset: 'polytope',
    defaultLink,
    // The preset at the draft's version (none: an old link, version 1), the arithmetic a fixed
    // value will run with.
    fallbackLink: (draft) => {
      const name = draft.get('preset') ?? 'polytope';
      const version = draft.get('version');
      return version === undefined ? `preset=${name}` : presetLink(name, version);
    },
    valuesOf: (pairs) => new Map(pairs),
    controls,
    sliders: ['beta', 'dt', 'n', 'scale'],
    errorBox: $('config-error'),
    current: () => app.canonical,
    apply,
    startFallback: (res) => startRun(res.canonical),
    keptTail: KEPT,
    adjust: (draft, key, value, commit) => {
      let note = '';
      if (key === 'model' && commit) note = adjustForModel(draft, value, page.effectiveValues(page.draft));
      if (key === 'init' && value === 'points' && commit) note = fillPoints(draft, page) || note;
      return note;
    },
    tail: (res, key) => (res.key === 'points' && (key === 'n' || key === 'd')
      ? `With init = points, the points must match n and d: edit the points below (n rows of d numbers) or choose another init. ${KEPT}`
      : KEPT),
    // No field can fix an unknown `version`: the draft takes today's, so the next edit applies.
    refusedDraft: (draft, res) => {
      if (res.key === 'version') draft.set('version', String(wasm.config_version()));
    },
    namesFallbackWhenShown: true,
  });
  return page;
}

/** Applies a valid check result: new run, fields, and the link in the address bar (`how`:
 * 'push' a history entry for a committed change, 'replace' when loading a link). */
export function apply(res, note = '', how = 'push') {
  startRun(res.canonical);
  ui.config.show(res);
  $('config-note').textContent = note;
  showModified(res.differences);
  ui.ctx.linkChanged(how);
}

/** Under the preset's description: the keys that differ from the preset, so the sentence is
 * never taken to describe a different run. */
function showModified(differences) {
  const box = $('modified');
  const list = (differences || []).filter((d) => d.key !== 'preset');
  box.hidden = list.length === 0;
  const short = (v) => (v.length > 28 ? `${v.slice(0, 25)}…` : v);
  box.textContent = list.length
    ? `Modified from the preset: ${list.map((d) => `${d.key} = ${short(d.value)} (preset: ${short(d.preset)})`).join(', ')}.`
    : '';
}

/** Keys the sphere and Euclidean models require (the core's `family_keys`), set along with a
 * model change. */
function adjustForModel(draft, model, values) {
  let required;
  try {
    required = wasm.model_family_keys(model, values.get('integrator'));
  } catch {
    return ''; // an unknown name: the core's check of the draft names the key
  }
  const changed = [];
  for (const [k, v] of required) {
    if (values.get(k) !== v) {
      draft.set(k, v);
      changed.push(`${k} = ${v}`);
    }
  }
  return changed.length ? `Also set ${changed.join(', ')} (required by the ${model} model).` : '';
}

/**
 * init=points chosen without points (or with points of the wrong shape): fills them with the
 * initial tokens (t = 0) of the configuration being edited, in shortest round-trip form (exact);
 * returns a note.
 */
function fillPoints(draft, page) {
  const v = page.effectiveValues(draft);
  const n = Number(v.get('n'));
  const d = Number(v.get('d'));
  const have = (v.get('points') || '').split(';').filter(Boolean);
  if (have.length === n && have.every((r) => r.split(',').length === d)) return '';
  const before = page.effectiveValues(page.draft).get('init');
  const probe = draft.clone().set('init', before && before !== 'points' ? before : 'cube');
  let x;
  try {
    const st = new wasm.ParticleLab(probe.delete('points').text());
    x = st.tokens('x');
    st.free();
  } catch {
    return '';
  }
  const rows = [];
  for (let i = 0; i < n; i += 1) {
    rows.push(Array.from(x.subarray(i * d, (i + 1) * d), (c) => String(c)).join(','));
  }
  draft.set('points', rows.join(';'));
  return `Points filled with the initial tokens of init = ${probe.get('init')} (exact, so the run is unchanged); edit them below.`;
}

/** A preset picked in the menu: its run at today's version, at its suggested speed. */
export function pickPreset(name) {
  const res = checkPage(presetLink(name));
  if (res.ok) {
    app.axesChosen = false; // the new preset's suggested scales, as its suggested speed
    app.overlaysChosen = false; // and its suggested overlays
    app.orderChosen = false; // and its suggested heatmap order
    app.heatScaleChosen = false; // and colour scale
    apply(res);
    ui.loop.suggested(app.stepper.suggested_speed());
    ui.ctx.linkChanged('replace'); // the new entry without the old speed
  }
}

export function newSeed() {
  const seed = crypto.getRandomValues(new Uint32Array(1))[0];
  const res = checkPage(Draft.fromText(app.canonical).set('seed', String(seed)).text());
  if (res.ok) {
    ui.loop.userPaused = false;
    apply(res);
  }
}

/** Restarts with `key` (dt or beta) halved: the fixes a divergence message names. */
export function halve(key) {
  const draft = Draft.fromText(app.canonical);
  const value = (key === 'dt' ? app.stepper.dt() : app.stepper.beta()) / 2;
  draft.set(key, String(value));
  const res = checkPage(draft.text());
  if (res.ok) {
    ui.loop.userPaused = false;
    apply(res, `${key === 'dt' ? 'dt' : 'β'} halved to ${value}.`);
  } else {
    ui.config.refuse(res, KEPT);
  }
}

/** The run shown, from its start; the fields and the message follow it (a refused draft's
 * values and message go). A history entry when the link changes (a link's `step=` goes). */
export function reset() {
  if (!app.stepper) return;
  const res = checkPage(app.canonical);
  if (res.ok) {
    apply(res);
    return;
  }
  startRun(app.canonical);
  ui.ctx.linkChanged('push');
}

/** A valid link of the run already shown (Back / Forward onto it, the same link opened again):
 * the fields show that run. */
export function showRun() {
  const res = checkPage(app.canonical);
  if (res.ok) ui.config.show(res);
}
