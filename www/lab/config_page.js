// The configuration page every lab shares: the draft being edited (as the user wrote it, valid
// or not), a field's edit checked by the core (the field marked while typing; applied, or refused
// with a message, on Enter or change), a refused link's fallback (its preset runs, the fields
// keep what the link asked for with the refused key marked) and the lab's error box. Only a valid
// check result reaches the lab, which starts its run (`apply`).

import { describeFields } from '../ui/key_hints.js';
import { addLogSliders } from '../ui/log_slider.js';
import { Draft } from './draft.js';
import { decodeValue } from './pairs.js';

/** The core's [key, value] pairs as a Map for the fields, the text-like `keys` percent-decoded. */
export function decodedValues(pairs, keys) {
  const values = new Map(pairs);
  for (const key of keys) {
    const v = values.get(key);
    if (v) values.set(key, decodeValue(v)); // a malformed escape kept as written
  }
  return values;
}

/** Shows the core's refusal `res` ({key, message}) in `box`, followed by `tail`; plain text only. */
export function showRefusal(box, res, tail) {
  const lead = document.createElement('strong');
  lead.textContent = 'Not applied. ';
  const key = document.createElement('code');
  key.className = 'key';
  key.textContent = res.key;
  const msg = String(res.message);
  box.replaceChildren(lead, key, document.createTextNode(`: ${msg}${/[.!?]$/.test(msg) ? '' : '.'} ${tail}`));
}

export class ConfigPage {
  /**
   * @param {object} h
   * @param {(text: string, edited?: string) => object} h.check the lab's check of a configuration (`{ ok, canonical, pairs, differences }` or `{ ok: false, key, message }`)
   * @param {(name: string) => [string, string][]} h.presetPairs a preset's pairs (throws if unknown)
   * @param {string} h.defaultPreset the preset shown for a draft whose preset is unknown
   * @param {string} h.defaultLink the lab's first configuration (the fallback of last resort)
   * @param {(draft: Draft) => string} h.fallbackLink the preset link a refused draft falls back to
   * @param {(pairs: [string, string][]) => Map<string, string>} h.valuesOf values for the fields
   * @param {{ fields: HTMLElement[], showValues(values: Map, invalidKey: string|null): void, markKey(key: string|null): void }} h.controls
   * @param {object[]} h.keys the lab's key table (wasm `key_table`): each field's tooltip and choices
   * @param {HTMLElement} h.errorBox
   * @param {() => string} h.current the configuration running ('' before the first)
   * @param {(res: object, note: string, how: 'push'|'replace'|null) => void} h.apply starts a valid configuration (how: its history entry; null: the address bar keeps what it holds)
   * @param {(res: object) => void} h.startFallback starts a refused link's fallback when nothing runs yet
   * @param {string} h.keptTail what a refusal says stays ("The last valid run keeps going.")
   * @param {(draft: Draft, key: string, value: string, commit: boolean) => string} [h.adjust] completes an edited draft (keys another key requires); returns a note for the user
   * @param {(res: object, key: string) => string} [h.tail] a refusal's tail for an edit of `key`
   * @param {(draft: Draft, res: object) => void} [h.refusedDraft] fixes what no field can fix
   * @param {boolean} [h.namesFallbackWhenShown] a refused link says "showing the preset instead" whenever that preset is the run shown (else only when nothing ran before)
   * @param {string[]} [h.sliders] keys whose field gets a log slider (ui/log_slider.js)
   */
  constructor(h) {
    this.h = h;
    this.draft = new Draft();
    describeFields(h.controls.fields, h.keys);
    this.sliders = addLogSliders(h.controls.fields, h.keys, h.sliders ?? []);
  }

  /** The fields (and their sliders) show `values`, the field of `invalidKey` marked. */
  showValues(values, invalidKey) {
    this.h.controls.showValues(values, invalidKey);
    this.sliders.sync(values);
  }

  /** Every key's value to show for `draft` (valid or not): its preset's, then the draft's own. */
  effectiveValues(draft) {
    let base;
    try {
      base = this.h.presetPairs(draft.get('preset') ?? this.h.defaultPreset);
    } catch {
      base = this.h.presetPairs(this.h.defaultPreset);
    }
    const values = this.h.valuesOf(base);
    for (const [k, v] of draft.pairs) if (v !== undefined) values.set(k, v);
    return values;
  }

  /** The fields show valid check result `res` (none marked) as the draft; a refusal's message goes. */
  show(res) {
    this.draft = Draft.fromText(res.canonical);
    this.clear();
    this.showValues(this.h.valuesOf(res.pairs), null);
  }

  /** Shows refusal `res` in the error box, followed by `tail`. */
  refuse(res, tail) {
    showRefusal(this.h.errorBox, res, tail);
  }

  clear() {
    this.h.errorBox.replaceChildren();
  }

  /**
   * A field changed `key`: the draft is checked. While typing only the field is marked; the
   * message (an alert) comes with Enter or leaving it (`commit`), when a valid draft is applied
   * (a history entry).
   */
  edit(key, value, commit) {
    const draft = this.draft.clone();
    draft.set(key, value);
    const note = this.h.adjust?.(draft, key, value, commit) || '';
    const res = this.h.check(draft.text(), key);
    this.draft = draft;
    const { controls } = this.h;
    if (!res.ok) {
      controls.markKey(res.key);
      if (commit) {
        this.refuse(res, this.h.tail?.(res, key) ?? this.h.keptTail);
        this.showValues(this.effectiveValues(draft), res.key);
      }
      return;
    }
    this.clear();
    controls.markKey(null);
    if (!commit) return;
    if (res.canonical === this.h.current()) {
      this.show(res);
      return;
    }
    this.h.apply(res, note, 'push');
  }

  /**
   * Starts from link `text` (already the lab's): applied when valid (returns true); refused, its
   * message names the key, the fields show what it asked for and the last valid run keeps going,
   * or, when nothing ran yet, its preset runs instead (returns false).
   */
  load(text) {
    const res = this.h.check(text);
    if (res.ok) {
      this.h.apply(res, '', 'replace');
      return true;
    }
    const draft = Draft.fromText(text);
    this.h.refusedDraft?.(draft, res);
    this.draft = draft;
    const hadRun = Boolean(this.h.current());
    let fallback = this.h.check(this.h.fallbackLink(draft));
    if (!fallback.ok) fallback = this.h.check(this.h.defaultLink);
    if (!hadRun) this.h.startFallback(fallback);
    const showing = hadRun ? Boolean(this.h.namesFallbackWhenShown) && this.h.current() === fallback.canonical : true;
    const name = new Map(fallback.pairs).get('preset');
    this.refuse(res, showing
      ? `This link's configuration was refused; showing the ${name} preset instead. Fix the value to apply it.`
      : this.h.keptTail);
    this.showValues(this.effectiveValues(draft), res.key);
    return false;
  }
}

/** The link of preset `name` at today's version, or of `fallback` when `name` is not a preset. */
export function presetLinkOr(wasm, lab, name, fallback) {
  try {
    return wasm.preset_link(lab, name ?? fallback);
  } catch {
    return wasm.preset_link(lab, fallback);
  }
}
