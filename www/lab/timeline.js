// A timeline over a run's states, shared by the stepping labs: a Replay button, a scrubber (a
// native range input: focusable, arrows step, Page keys jump, Home/End go to the ends, with an
// accessible name and a value text) and its label. It is driven by the lab interface
// (lab/labs.js): `seekTo(step)` shows the run at a step, the lab's states accessor says where the
// run is and how far it was computed. The timeline only reads and asks: it never steps itself.
//
// Dragging seeks at every pointer move (the latest position wins: a seek still computing gives
// way to the next); letting go, or a key, is a committed change (`commit(step)`: the lab writes
// the address bar once, not per pointer move).

import { h } from '../ui/dom.js';

export class Timeline {
  /**
   * @param {HTMLElement} root where the timeline is built
   * @param {object} o
   * @param {string} o.id prefix of the elements' ids
   * @param {string} o.label the scrubber's accessible name
   * @param {() => ({ step: number, end: number } | null)} o.states the step shown and the last step the timeline offers (null: no run)
   * @param {(step: number) => Promise<number>} o.seekTo the lab's seekTo
   * @param {(step: number) => string} o.text the label of a step ("t = 1.5 · step 15 of 200")
   * @param {(step: number) => void} [o.commit] a position chosen (released, or a key)
   * @param {() => void} o.replay Replay: from step 0, playing
   */
  constructor(root, o) {
    this.o = o;
    this.input = /** @type {HTMLInputElement} */ (h(`input#${o.id}-range.timeline-range`, {
      type: 'range', min: '0', max: '0', step: '1', value: '0',
      'aria-label': o.label, 'aria-describedby': `${o.id}-label`,
    }));
    this.label = h(`output#${o.id}-label.timeline-label`, { for: `${o.id}-range` });
    this.replayButton = h(`button#${o.id}-replay`, { type: 'button', title: 'Play the run again from step 0 (the same states, bit for bit)' }, 'Replay');
    root.append(this.replayButton, this.input, this.label);
    this.dragging = false;
    this.wanted = null; // the position asked last while a seek was computing
    this.busy = false;
    this.end = -1;
    this.input.addEventListener('pointerdown', () => { this.dragging = true; });
    const release = () => { this.dragging = false; };
    this.input.addEventListener('pointerup', release);
    this.input.addEventListener('pointercancel', release);
    this.input.addEventListener('input', () => this.go(Number(this.input.value)));
    this.input.addEventListener('change', () => {
      this.dragging = false;
      const step = Number(this.input.value);
      this.go(step);
      o.commit?.(step);
    });
    this.replayButton.addEventListener('click', () => o.replay());
  }

  /** Shows the run at `step` (a seek; the latest asked wins). */
  go(step) {
    this.wanted = step;
    this.showLabel(step);
    if (this.busy) return;
    this.busy = true;
    const next = () => {
      const target = this.wanted;
      this.wanted = null;
      return this.o.seekTo(target).then(() => (this.wanted !== null ? next() : undefined));
    };
    next().catch((e) => console.warn(e)).finally(() => {
      this.busy = false;
      this.sync();
    });
  }

  /** A position chosen elsewhere (a click on a chart): shown, sought and committed. */
  jump(step) {
    const s = this.o.states();
    if (!s) return;
    const k = Math.max(0, Math.min(s.end, Math.round(step)));
    this.input.value = String(k);
    this.go(k);
    this.o.commit?.(k);
  }

  showLabel(step) {
    const text = this.o.text(step);
    if (this.label.textContent !== text) this.label.textContent = text;
    if (this.input.getAttribute('aria-valuetext') !== text) this.input.setAttribute('aria-valuetext', text);
  }

  /** Follows the run (each frame): its range and, unless the user is moving it, its step. */
  sync() {
    const s = this.o.states();
    if (!s) return;
    if (s.end !== this.end) {
      this.end = s.end;
      this.input.max = String(s.end);
    }
    if (this.dragging || this.busy) return;
    if (Number(this.input.value) !== s.step) this.input.value = String(s.step);
    this.showLabel(s.step);
  }
}
