// The depth lab's controls: preset, buttons, and one field per depth key (`data-key` in
// #dp-form). Only reads and writes the DOM and reports what the user did; lab.js decides.

import { bindFields, fillPresets, markInvalid, showFields, showPreset } from '../ui/fields.js';

const $ = (id) => document.getElementById(id);

export class DepthControls {
  /**
   * @param {{ presets: {name: string, description: string}[], onPreset: (name: string) => void,
   *   onEdit: (key: string, value: string, commit: boolean) => void, onRun: () => void,
   *   onCancel: () => void, onNewSeed: () => void, onUseParticle: () => void }} h
   */
  constructor(h) {
    this.preset = /** @type {HTMLSelectElement} */ ($('dp-preset'));
    fillPresets(this.preset, h.presets, h.onPreset);
    $('dp-run').addEventListener('click', () => h.onRun());
    $('dp-cancel').addEventListener('click', () => h.onCancel());
    $('dp-new-seed').addEventListener('click', () => h.onNewSeed());
    $('dp-use-particle').addEventListener('click', () => h.onUseParticle());

    this.fields = bindFields(/** @type {HTMLFormElement} */ ($('dp-form')), h.onEdit);
  }

  /** Shows configuration values (`values`: key -> value, text-like values decoded). */
  showValues(values, invalidKey) {
    showPreset(this.preset, values);
    showFields(this.fields, values, (key) => key === invalidKey, 'dp-config-error');
  }

  markKey(key) {
    for (const el of this.fields) markInvalid(el, el.dataset.key === key, 'dp-config-error');
  }

  /** Whether a computation runs: Cancel shows only then (its place is kept, so nothing moves). */
  setBusy(busy) {
    /** @type {HTMLButtonElement} */ ($('dp-cancel')).disabled = !busy;
    $('dp-cancel').classList.toggle('idle', !busy);
  }
}
