// The particle lab's controls: real DOM elements with labels. This module only reads and writes the
// DOM and reports what the user did; particles/lab.js decides what happens.

import * as wasm from '../pkg/attn_web.js';
import { bindFields, bindSpeed, fillPresets, markInvalid, showFields, showPlaying, showPreset } from '../ui/fields.js';

const $ = (id) => document.getElementById(id);

let speeds = null;
/** Steps per frame offered by the speed slider (the core's; below 1, a step every few frames;
 * each frame is also capped by a time budget). */
export function particleSpeeds() {
  speeds ??= Array.from(wasm.particle_speeds());
  return speeds;
}

/** A field's configuration value: trimmed; the points textarea's lines become `;`-separated rows. */
function fieldValue(el) {
  if (el.tagName !== 'TEXTAREA') return el.value.trim();
  return el.value.split(/[\n;]/).map((r) => r.trim()).filter(Boolean).join(';');
}

export class Controls {
  /**
   * @param {{ presets: {name: string, description: string}[], paperV: string,
   *   onPreset: (name: string) => void, onEdit: (key: string, value: string, commit: boolean) => void,
   *   onPlay: () => void, onStep: () => void, onReset: () => void, onNewSeed: () => void,
   *   onSpeed: (stepsPerFrame: number) => void, onCoords: (c: string) => void,
   *   onTrails: (on: boolean) => void, onProjection: (mode: string, a: number, b: number) => void,
   *   onHalveDt: () => void, onHalveBeta: () => void }} h
   */
  constructor(h) {
    this.h = h;
    this.preset = $('preset');
    fillPresets(this.preset, h.presets, h.onPreset);

    this.play = $('play');
    this.play.addEventListener('click', () => h.onPlay());
    $('step').addEventListener('click', () => h.onStep());
    $('reset').addEventListener('click', () => h.onReset());
    $('new-seed').addEventListener('click', () => h.onNewSeed());
    $('halve-dt').addEventListener('click', () => h.onHalveDt());
    $('halve-beta').addEventListener('click', () => h.onHalveBeta());

    this.showSpeed = bindSpeed($('speed'), $('speed-out'), particleSpeeds(), 'step', h.onSpeed);

    // In the points textarea, Shift+Enter starts a new line; Enter applies everywhere.
    this.fields = bindFields(/** @type {HTMLFormElement} */ ($('config-form')), h.onEdit, {
      value: fieldValue,
      isCommit: (e) => e.key === 'Enter' && !e.shiftKey,
    });
    for (const b of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[data-set]'))) {
      b.addEventListener('click', () => {
        const value = b.dataset.value === 'paper-2d' ? h.paperV : b.dataset.value;
        h.onEdit(b.dataset.set, value, true);
      });
    }

    this.coords = [.../** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('input[name="coords"]'))];
    for (const r of this.coords) r.addEventListener('change', () => r.checked && h.onCoords(r.value));
    this.coordsGroup = /** @type {HTMLFieldSetElement} */ ($('coords-group'));
    const trails = /** @type {HTMLInputElement} */ ($('trails'));
    trails.addEventListener('change', () => h.onTrails(trails.checked));

    this.projection = /** @type {HTMLSelectElement} */ ($('projection'));
    this.axisA = /** @type {HTMLInputElement} */ ($('axis-a'));
    this.axisB = /** @type {HTMLInputElement} */ ($('axis-b'));
    const proj = () => {
      $('axes-group').hidden = this.projection.value !== 'axes';
      h.onProjection(this.projection.value, Number(this.axisA.value), Number(this.axisB.value));
    };
    this.projection.addEventListener('change', proj);
    this.axisA.addEventListener('change', proj);
    this.axisB.addEventListener('change', proj);
  }

  /**
   * Shows configuration values.
   * @param {Map<string, string>} values key -> value (every key)
   * @param {string|null} invalidKey the key to mark invalid, if any
   */
  showValues(values, invalidKey) {
    showPreset(this.preset, values);
    const isInvalid = (key) => key === invalidKey || (invalidKey === 'points' && key === 'init');
    showFields(this.fields, values, isInvalid, 'config-error', (el, v) => {
      const shown = el.tagName === 'TEXTAREA' ? v.split(';').join('\n') : v;
      if (el.value !== shown && fieldValue(el) !== v) el.value = shown;
    });
    $('points-field').hidden = values.get('init') !== 'points';
    const sphere = values.get('model') !== 'euclidean';
    this.coordsGroup.disabled = sphere;
    this.coordsGroup.title = sphere ? 'sphere models show x; z = exp(-tV) x is for the euclidean model' : '';
    for (const r of this.coords) r.checked = r.value === (values.get('coords') ?? 'x');
  }

  /** Marks the field of `key` invalid (or none with null), for live validation while typing. */
  markKey(key) {
    // A points error also marks init (the points belong to init=points).
    for (const el of this.fields) markInvalid(el, el.dataset.key === key || (key === 'points' && el.dataset.key === 'init'), 'config-error');
  }

  /** Play button label and pressed state. */
  setPlaying(playing) {
    showPlaying(this.play, playing);
  }

  /** Shows the projection choice only for d > 3. */
  setDimension(d) {
    $('projection-group').hidden = d <= 3;
    this.axisA.max = String(d);
    this.axisB.max = String(d);
  }
}
