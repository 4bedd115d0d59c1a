// The controls: real DOM elements with labels. This module only reads and writes the DOM and
// reports what the user did; main.js decides what happens.

/** Steps per frame offered by the speed slider (each frame is also capped by a time budget). */
export const SPEEDS = [1, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000];

const $ = (id) => document.getElementById(id);

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
    for (const p of h.presets) {
      const opt = document.createElement('option');
      opt.value = p.name;
      opt.textContent = p.name;
      opt.title = p.description;
      this.preset.append(opt);
    }
    this.preset.addEventListener('change', () => h.onPreset(this.preset.value));

    this.play = $('play');
    this.play.addEventListener('click', () => h.onPlay());
    $('step').addEventListener('click', () => h.onStep());
    $('reset').addEventListener('click', () => h.onReset());
    $('new-seed').addEventListener('click', () => h.onNewSeed());
    $('halve-dt').addEventListener('click', () => h.onHalveDt());
    $('halve-beta').addEventListener('click', () => h.onHalveBeta());

    this.speed = $('speed');
    this.speed.max = String(SPEEDS.length - 1);
    this.speedOut = $('speed-out');
    this.speed.addEventListener('input', () => {
      const s = SPEEDS[Number(this.speed.value)] ?? 1;
      this.showSpeed(s);
      h.onSpeed(s);
    });

    this.fields = [...document.querySelectorAll('#config-form [data-key]')];
    for (const el of this.fields) {
      const key = el.dataset.key;
      if (el.tagName === 'SELECT') {
        el.addEventListener('change', () => h.onEdit(key, el.value, true));
      } else {
        const value = () => fieldValue(el);
        el.addEventListener('input', () => h.onEdit(key, value(), false));
        el.addEventListener('change', () => h.onEdit(key, value(), true));
        el.addEventListener('keydown', (e) => {
          // In the points textarea, Shift+Enter starts a new line; Enter applies everywhere.
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            h.onEdit(key, value(), true);
          }
        });
      }
    }
    $('config-form').addEventListener('submit', (e) => e.preventDefault());
    // A button clicked with the pointer gives focus back to the page, so the keyboard shortcuts
    // (Space play/pause) work next; keyboard activation (detail 0) keeps the focus where it is.
    document.addEventListener('click', (e) => {
      const b = e.target instanceof Element ? e.target.closest('button') : null;
      if (b && e.detail > 0) b.blur();
    });
    for (const b of document.querySelectorAll('[data-set]')) {
      b.addEventListener('click', () => {
        const value = b.dataset.value === 'paper-2d' ? h.paperV : b.dataset.value;
        h.onEdit(b.dataset.set, value, true);
      });
    }

    this.coords = [...document.querySelectorAll('input[name="coords"]')];
    for (const r of this.coords) r.addEventListener('change', () => r.checked && h.onCoords(r.value));
    this.coordsGroup = $('coords-group');
    const trails = $('trails');
    trails.addEventListener('change', () => h.onTrails(trails.checked));

    this.projection = $('projection');
    this.axisA = $('axis-a');
    this.axisB = $('axis-b');
    const proj = () => {
      $('axes-group').hidden = this.projection.value !== 'axes';
      h.onProjection(this.projection.value, Number(this.axisA.value), Number(this.axisB.value));
    };
    this.projection.addEventListener('change', proj);
    this.axisA.addEventListener('change', proj);
    this.axisB.addEventListener('change', proj);
  }

  showSpeed(stepsPerFrame) {
    this.speedOut.textContent = `${stepsPerFrame} step${stepsPerFrame === 1 ? '' : 's'}/frame`;
    const i = SPEEDS.indexOf(stepsPerFrame);
    if (i >= 0 && Number(this.speed.value) !== i) this.speed.value = String(i);
  }

  /**
   * Shows configuration values.
   * @param {Map<string, string>} values key -> value (every key)
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
        const shown = el.tagName === 'TEXTAREA' ? v.split(';').join('\n') : v;
        if (el.value !== shown && fieldValue(el) !== v) el.value = shown;
      }
      this.markInvalid(el, key === invalidKey || (invalidKey === 'points' && key === 'init'));
    }
    $('points-field').hidden = values.get('init') !== 'points';
    const sphere = values.get('model') !== 'euclidean';
    this.coordsGroup.disabled = sphere;
    this.coordsGroup.title = sphere ? 'sphere models show x; z = exp(-tV) x is for the euclidean model' : '';
    for (const r of this.coords) r.checked = r.value === (values.get('coords') ?? 'x');
  }

  /** Marks the field of `key` invalid (or none with null), for live validation while typing. */
  markKey(key) {
    // A points error also marks init (the points belong to init=points).
    for (const el of this.fields) this.markInvalid(el, el.dataset.key === key || (key === 'points' && el.dataset.key === 'init'));
  }

  markInvalid(el, bad) {
    if (bad) {
      el.setAttribute('aria-invalid', 'true');
      el.setAttribute('aria-describedby', 'config-error');
    } else {
      el.removeAttribute('aria-invalid');
      el.removeAttribute('aria-describedby');
    }
  }

  /** Play button label and pressed state. */
  setPlaying(playing) {
    this.play.textContent = playing ? 'Pause' : 'Play';
    this.play.setAttribute('aria-pressed', String(playing));
    this.play.title = playing ? 'Pause (Space)' : 'Play (Space)';
  }

  /** Shows the projection choice only for d > 3. */
  setDimension(d) {
    $('projection-group').hidden = d <= 3;
    this.axisA.max = String(d);
    this.axisB.max = String(d);
  }
}
