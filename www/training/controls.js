// The training lab's controls: preset, run buttons, speed, and one field per training key.
// This module only reads and writes the DOM and reports what the user did; lab.js decides.

import { bindFields, bindSpeed, fillPresets, markInvalid, showFields, showPlaying, showPreset } from '../ui/fields.js';

/** Iterations per frame offered by the speed slider (each frame is also capped by a time budget). */
export const SPEEDS = [1, 2, 3, 5, 10, 20, 50, 100];

const $ = (id) => document.getElementById(id);

export class TrainingControls {
  /**
   * @param {{ presets: {name: string, description: string}[], onPreset: (name: string) => void,
   *   onEdit: (key: string, value: string, commit: boolean) => void, onPlay: () => void,
   *   onStep: () => void, onReset: () => void, onNewSeed: () => void,
   *   onSpeed: (iterationsPerFrame: number) => void, onHalveEta: () => void }} h
   */
  constructor(h) {
    this.preset = $('tr-preset');
    fillPresets(this.preset, h.presets, h.onPreset);

    this.play = $('tr-play');
    this.play.addEventListener('click', () => h.onPlay());
    $('tr-step').addEventListener('click', () => h.onStep());
    $('tr-reset').addEventListener('click', () => h.onReset());
    $('tr-new-seed').addEventListener('click', () => h.onNewSeed());
    $('tr-halve-eta').addEventListener('click', () => h.onHalveEta());

    this.showSpeed = bindSpeed($('tr-speed'), $('tr-speed-out'), SPEEDS, 'iteration', h.onSpeed);

    // Text is applied with Ctrl+Enter, the "Use text" button, or on leaving the box.
    this.fields = bindFields(/** @type {HTMLFormElement} */ ($('tr-form')), h.onEdit);
    this.text = /** @type {HTMLTextAreaElement} */ ($('tr-text'));
    $('tr-text-apply').addEventListener('click', () => h.onEdit('text', this.text.value, true));
    $('tr-text-clear').addEventListener('click', () => {
      this.text.value = '';
      h.onEdit('text', '', true);
    });
  }

  /**
   * Shows configuration values (the text decoded).
   * @param {Map<string, string>} values key -> value
   * @param {string|null} invalidKey the key to mark invalid, if any
   */
  showValues(values, invalidKey) {
    showPreset(this.preset, values);
    showFields(this.fields, values, (key) => key === invalidKey, 'tr-config-error');
  }

  /** Marks the field of `key` invalid (or none with null). */
  markKey(key) {
    for (const el of this.fields) markInvalid(el, el.dataset.key === key, 'tr-config-error');
  }

  setPlaying(playing) {
    showPlaying(this.play, playing);
  }
}
