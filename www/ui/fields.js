// Helpers shared by the three labs' control panels: the preset menu, the `data-key` fields of a
// configuration form (edit events, shown values, invalid marks) and the Play button. They only
// read and write the DOM; each lab's controls module reports what the user did.

/** A configuration form's field (`data-key`): an input, a select or a textarea. */
/** @typedef {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} Field */

/** Fills the preset `<select>` (one option per preset, its description as title) and reports changes. */
export function fillPresets(select, presets, onPreset) {
  for (const p of presets) {
    const opt = document.createElement('option');
    opt.value = p.name;
    opt.textContent = p.name;
    opt.title = p.description;
    select.append(opt);
  }
  select.addEventListener('change', () => onPreset(select.value));
}

/** Default field value: trimmed, except a textarea's text, which is kept as written. */
const plainValue = (el) => (el.tagName === 'TEXTAREA' ? el.value : el.value.trim());
/** Default apply key: Enter in an input, Ctrl/Cmd+Enter in a textarea. */
const plainCommit = (e, el) => e.key === 'Enter' && (el.tagName !== 'TEXTAREA' || e.ctrlKey || e.metaKey);

/**
 * The `data-key` fields of `form`, wired to `onEdit(key, value, commit)`: a select commits on
 * change; other fields report while typing (commit false) and commit on change or the apply key.
 * @param {HTMLFormElement} form
 * @param {(key: string, value: string, commit: boolean) => void} onEdit
 * @param {{ value?: (el: Field) => string, isCommit?: (e: KeyboardEvent, el: Field) => boolean }} [opts]
 * @returns {Field[]} the fields
 */
export function bindFields(form, onEdit, { value = plainValue, isCommit = plainCommit } = {}) {
  const fields = /** @type {Field[]} */ ([...form.querySelectorAll('[data-key]')]);
  for (const el of fields) {
    const key = el.dataset.key;
    if (el.tagName === 'SELECT') {
      el.addEventListener('change', () => onEdit(key, el.value, true));
    } else {
      el.addEventListener('input', () => onEdit(key, value(el), false));
      el.addEventListener('change', () => onEdit(key, value(el), true));
      el.addEventListener('keydown', (/** @type {KeyboardEvent} */ e) => {
        if (isCommit(e, el)) {
          e.preventDefault();
          onEdit(key, value(el), true);
        }
      });
    }
  }
  form.addEventListener('submit', (e) => e.preventDefault());
  return fields;
}

/** Selects the values' preset in the preset menu when it is one of its options. */
export function showPreset(select, values) {
  const preset = values.get('preset');
  if (preset && [...select.options].some((o) => o.value === preset)) select.value = preset;
}

/** Default write: the value as is, when it differs. */
const plainWrite = (el, v) => {
  if (el.value !== v) el.value = v;
};

/**
 * Shows configuration values in the fields (a select gains an option for a value it lacks) and
 * marks the invalid ones.
 * @param {Field[]} fields
 * @param {Map<string, string>} values key -> value
 * @param {(key: string) => boolean} isInvalid
 * @param {string} errorId the id of the error message the invalid fields point to
 * @param {(el: Field, v: string) => void} [write]
 */
export function showFields(fields, values, isInvalid, errorId, write = plainWrite) {
  for (const el of fields) {
    const key = el.dataset.key;
    const v = values.get(key);
    if (v !== undefined) {
      if (el.tagName === 'SELECT' && ![.../** @type {HTMLSelectElement} */ (el).options].some((o) => o.value === v)) {
        const opt = document.createElement('option');
        opt.value = v;
        opt.textContent = v;
        el.append(opt);
      }
      write(el, v);
    }
    markInvalid(el, isInvalid(key), errorId);
  }
}

/** Marks a field invalid (aria-invalid, pointing at the error message `errorId`) or valid. */
export function markInvalid(el, bad, errorId) {
  if (bad) {
    el.setAttribute('aria-invalid', 'true');
    el.setAttribute('aria-describedby', errorId);
  } else {
    el.removeAttribute('aria-invalid');
    el.removeAttribute('aria-describedby');
  }
}

/** Play button label, pressed state and title. */
export function showPlaying(button, playing) {
  button.textContent = playing ? 'Pause' : 'Play';
  button.setAttribute('aria-pressed', String(playing));
  button.title = playing ? 'Pause (Space)' : 'Play (Space)';
}

/**
 * A speed slider over `speeds` (items per frame) with its readout: reports the chosen speed.
 * @returns {(k: number) => void} shows speed `k` (slider position and readout)
 */
export function bindSpeed(slider, out, speeds, unit, onSpeed) {
  slider.max = String(speeds.length - 1);
  const show = (k) => {
    const every = 1 / k;
    out.textContent = k < 1 && Math.abs(every - Math.round(every)) < 1e-9
      ? `1 ${unit} / ${Math.round(every)} frames`
      : `${k} ${unit}${k === 1 ? '' : 's'}/frame`;
    const i = speeds.indexOf(k);
    if (i >= 0 && Number(slider.value) !== i) slider.value = String(i);
  };
  slider.addEventListener('input', () => {
    const k = speeds[Number(slider.value)] ?? 1;
    show(k);
    onSpeed(k);
  });
  return show;
}
