// The training lab's controls: preset, run buttons, speed, and one field per training key.
// This module only reads and writes the DOM and reports what the user did; lab.js decides.

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
    for (const p of h.presets) {
      const opt = document.createElement('option');
      opt.value = p.name;
      opt.textContent = p.name;
      opt.title = p.description;
      this.preset.append(opt);
    }
    this.preset.addEventListener('change', () => h.onPreset(this.preset.value));

    this.play = $('tr-play');
    this.play.addEventListener('click', () => h.onPlay());
    $('tr-step').addEventListener('click', () => h.onStep());
    $('tr-reset').addEventListener('click', () => h.onReset());
    $('tr-new-seed').addEventListener('click', () => h.onNewSeed());
    $('tr-halve-eta').addEventListener('click', () => h.onHalveEta());

    this.speed = $('tr-speed');
    this.speed.max = String(SPEEDS.length - 1);
    this.speedOut = $('tr-speed-out');
    this.speed.addEventListener('input', () => {
      const k = SPEEDS[Number(this.speed.value)] ?? 1;
      this.showSpeed(k);
      h.onSpeed(k);
    });

    this.fields = [...document.querySelectorAll('#tr-form [data-key]')];
    for (const el of this.fields) {
      const key = el.dataset.key;
      if (el.tagName === 'SELECT') {
        el.addEventListener('change', () => h.onEdit(key, el.value, true));
      } else if (el.tagName === 'TEXTAREA') {
        // Text is applied with Ctrl+Enter, the "Use text" button, or on leaving the box.
        el.addEventListener('input', () => h.onEdit(key, el.value, false));
        el.addEventListener('change', () => h.onEdit(key, el.value, true));
        el.addEventListener('keydown', (e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            h.onEdit(key, el.value, true);
          }
        });
      } else {
        el.addEventListener('input', () => h.onEdit(key, el.value.trim(), false));
        el.addEventListener('change', () => h.onEdit(key, el.value.trim(), true));
        el.addEventListener('keydown', (e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            h.onEdit(key, el.value.trim(), true);
          }
        });
      }
    }
    this.text = $('tr-text');
    $('tr-text-apply').addEventListener('click', () => h.onEdit('text', this.text.value, true));
    $('tr-text-clear').addEventListener('click', () => {
      this.text.value = '';
      h.onEdit('text', '', true);
    });
    $('tr-form').addEventListener('submit', (e) => e.preventDefault());
  }

  showSpeed(k) {
    this.speedOut.textContent = `${k} iteration${k === 1 ? '' : 's'}/frame`;
    const i = SPEEDS.indexOf(k);
    if (i >= 0 && Number(this.speed.value) !== i) this.speed.value = String(i);
  }

  /**
   * Shows configuration values (the text decoded).
   * @param {Map<string, string>} values key -> value
   * @param {string|null} invalidKey the key to mark invalid, if any
   */
  showValues(values, invalidKey) {
    const preset = values.get('preset');
    if (preset && [...this.preset.options].some((o) => o.value === preset)) this.preset.value = preset;
    for (const el of this.fields) {
      const key = el.dataset.key;
      const v = values.get(key);
      if (v !== undefined) {
        if (el.tagName === 'SELECT' && ![...el.options].some((o) => o.value === v)) {
          const opt = document.createElement('option');
          opt.value = v;
          opt.textContent = v;
          el.append(opt);
        }
        if (el.value !== v) el.value = v;
      }
      this.markInvalid(el, key === invalidKey);
    }
  }

  /** Marks the field of `key` invalid (or none with null). */
  markKey(key) {
    for (const el of this.fields) this.markInvalid(el, el.dataset.key === key);
  }

  markInvalid(el, bad) {
    if (bad) {
      el.setAttribute('aria-invalid', 'true');
      el.setAttribute('aria-describedby', 'tr-config-error');
    } else {
      el.removeAttribute('aria-invalid');
      el.removeAttribute('aria-describedby');
    }
  }

  setPlaying(playing) {
    this.play.textContent = playing ? 'Pause' : 'Play';
    this.play.setAttribute('aria-pressed', String(playing));
    this.play.title = playing ? 'Pause (Space)' : 'Play (Space)';
  }
}
