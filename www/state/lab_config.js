// Configuration steps shared by the training and depth lab pages: the values shown for a draft
// and the validation of one edited key (check_lab_config on the draft; applied when committed).

import { Draft } from './draft.js';

/** The core's [key, value] pairs as a Map for the controls, the text-like `keys` percent-decoded. */
export function decodedValues(pairs, keys) {
  const values = new Map(pairs);
  for (const key of keys) {
    const v = values.get(key);
    if (v) {
      try {
        values.set(key, decodeURIComponent(v));
      } catch {
        // keep as written
      }
    }
  }
  return values;
}

/**
 * Every key's value to show for a draft the core refused: its preset's values (`fallback`'s when
 * the preset is unknown), then the draft's own.
 * @param {(preset: string) => [string, string][]} presetPairs
 * @param {(pairs: [string, string][]) => Map<string, string>} valuesOf
 */
export function draftValues(draft, presetPairs, fallback, valuesOf) {
  let base;
  try {
    base = presetPairs(draft.get('preset') ?? fallback);
  } catch {
    base = presetPairs(fallback);
  }
  const values = valuesOf(base);
  for (const [k, v] of draft.pairs) if (v !== undefined) values.set(k, v);
  return values;
}

/**
 * A control changed `key` of lab `lab`'s page: validate the draft; apply it when committed and
 * valid. While typing only the field is marked; the message (an alert) comes with Enter or
 * leaving it, with `keptTail` saying what stays.
 * @param {{ wasm: object, draft: Draft, canonical: string, controls: object,
 *   apply: (res: object) => void, showConfigError: (res: object, tail: string) => void,
 *   clearConfigError: () => void, effectiveValues: (d: Draft) => Map<string, string> }} page
 * @param {(pairs: [string, string][]) => Map<string, string>} valuesOf
 */
export function editConfig(page, lab, key, value, commit, keptTail, valuesOf) {
  const draft = page.draft.clone();
  draft.set('lab', lab);
  draft.set(key, value);
  const res = page.wasm.check_lab_config(draft.text());
  page.draft = draft;
  if (!res.ok) {
    page.controls.markKey(res.key);
    if (commit) {
      page.showConfigError(res, keptTail);
      page.controls.showValues(page.effectiveValues(draft), res.key);
    }
    return;
  }
  page.clearConfigError();
  page.controls.markKey(null);
  if (commit) {
    if (res.canonical === page.canonical) {
      page.draft = Draft.fromText(res.canonical);
      page.controls.showValues(valuesOf(res.pairs), null);
      return;
    }
    page.apply(res);
  }
}
