// The depth lab's controls: preset, buttons, and one field per depth key (`data-key` in
// #dp-form). Only reads and writes the DOM and reports what the user did; lab.js decides.

const $ = (id) => document.getElementById(id);

export class DepthControls {
  /**
   * @param {{ presets: {name: string, description: string}[], onPreset: (name: string) => void,
   *   onEdit: (key: string, value: string, commit: boolean) => void, onRun: () => void,
   *   onCancel: () => void, onNewSeed: () => void, onUseParticle: () => void }} h
   */
  constructor(h) {
    this.preset = $('dp-preset');
    for (const p of h.presets) {
      const opt = document.createElement('option');
      opt.value = p.name;
      opt.textContent = p.name;
      opt.title = p.description;
      this.preset.append(opt);
    }
    this.preset.addEventListener('change', () => h.onPreset(this.preset.value));
    $('dp-run').addEventListener('click', () => h.onRun());
    $('dp-cancel').addEventListener('click', () => h.onCancel());
    $('dp-new-seed').addEventListener('click', () => h.onNewSeed());
    $('dp-use-particle').addEventListener('click', () => h.onUseParticle());

    this.fields = [...document.querySelectorAll('#dp-form [data-key]')];
    for (const el of this.fields) {
      const key = el.dataset.key;
      if (el.tagName === 'SELECT') {
        el.addEventListener('change', () => h.onEdit(key, el.value, true));
      } else if (el.tagName === 'TEXTAREA') {
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
    $('dp-form').addEventListener('submit', (e) => e.preventDefault());
  }

  /** Shows configuration values (`values`: key -> value, text-like values decoded). */
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

  markKey(key) {
    for (const el of this.fields) this.markInvalid(el, el.dataset.key === key);
  }

  markInvalid(el, bad) {
    if (bad) {
      el.setAttribute('aria-invalid', 'true');
      el.setAttribute('aria-describedby', 'dp-config-error');
    } else {
      el.removeAttribute('aria-invalid');
      el.removeAttribute('aria-describedby');
    }
  }

  /** Whether a computation runs (Cancel enabled). */
  setBusy(busy) {
    $('dp-cancel').disabled = !busy;
  }
}
