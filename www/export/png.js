// PNG export and import of a lab's state: a canvas's picture with the configuration string (and,
// for the particle lab, the step shown) in text chunks (export/png_text.js), and reading them
// back from a file. The text read back is untrusted: the caller validates it like a link.

import { CONFIG_KEYWORD, STEP_KEYWORD, readText, withText } from './png_text.js';

/** Largest PNG file read back (bytes). */
export const MAX_PNG_BYTES = 64 * 1024 * 1024;

/** Largest step a PNG may ask for (as `until / dt` in the configuration). */
export const MAX_STEP = 1e8;

/** The picture of `canvas` as PNG bytes. */
function canvasBytes(canvas) {
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => {
      if (!blob) reject(new Error('the canvas could not be encoded as PNG (is it empty?)'));
      else blob.arrayBuffer().then((b) => resolve(new Uint8Array(b)), reject);
    }, 'image/png');
  });
}

/**
 * The picture of `canvas` as a PNG Blob holding `config` (chunk `attn-config`) and, when given,
 * `step` (chunk `attn-step`, a whole number).
 * @param {HTMLCanvasElement} canvas
 * @param {string} config the lab's configuration string, as in a link
 * @param {number|null} step
 */
export async function canvasPng(canvas, config, step = null) {
  /** @type {[string, string][]} */
  const entries = [[CONFIG_KEYWORD, config]];
  if (step !== null) entries.push([STEP_KEYWORD, String(step)]);
  return new Blob([withText(await canvasBytes(canvas), entries)], { type: 'image/png' });
}

/**
 * Reads the state a PNG file holds: `{ ok: true, config, step }` (`step` null when the file has
 * none) or `{ ok: false, key, message }` naming the chunk (`attn-config`, `attn-step`: bad, or
 * present twice) or `file`.
 * Never throws for bad input.
 * @param {Blob} file
 */
export async function readPngState(file) {
  if (file.size > MAX_PNG_BYTES) return { ok: false, key: 'file', message: `the file is larger than ${MAX_PNG_BYTES / 1024 / 1024} MB` };
  let text;
  try {
    text = readText(new Uint8Array(await file.arrayBuffer()));
  } catch (e) {
    // A repeated chunk of ours is named by its keyword (like a link's repeated key).
    return { ok: false, key: e && typeof e.key === 'string' ? e.key : 'file', message: String(e && e.message ? e.message : e) };
  }
  const config = text.get(CONFIG_KEYWORD);
  if (config === undefined) {
    return { ok: false, key: CONFIG_KEYWORD, message: 'the PNG has no attn-config text chunk (it was not exported by the playground)' };
  }
  const raw = text.get(STEP_KEYWORD);
  let step = null;
  if (raw !== undefined) {
    step = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
    if (!(step <= MAX_STEP)) {
      return { ok: false, key: STEP_KEYWORD, message: `${JSON.stringify(raw.slice(0, 40))} is not allowed; allowed: a whole number of steps in 0..=${MAX_STEP}` };
    }
  }
  return { ok: true, config, step };
}
