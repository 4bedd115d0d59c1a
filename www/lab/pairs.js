// Configuration strings as [key, value] pairs: the `key=value&...` string of the hash and the
// CLI's --config split into ordered pairs with percent escapes decoded (a malformed escape is
// kept as written, so the core's parser reports it against its key), and pairs joined back.
// lab/address_bar.js reads and writes the hash itself.

/** Decodes `%XX` escapes; returns the text unchanged when they are malformed. */
function decode(text) {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Escapes only what would break the `key=value&...` structure (and whitespace). */
export function encodeValue(text) {
  return String(text).replace(/[%&=#\s]/g, (c) => encodeURIComponent(c));
}

/**
 * Splits a configuration string into [key, value] pairs (decoded, in order).
 * A segment without `=` keeps an undefined value so the caller can still report it.
 * @param {string} text `key=value&...`, with or without a leading '#'
 * @returns {Array<[string, string|undefined]>}
 */
export function splitConfig(text) {
  const body = String(text).replace(/^[#?]/, '');
  /** @type {Array<[string, string|undefined]>} */
  const pairs = [];
  for (const segment of body.split('&')) {
    if (segment === '') continue;
    const eq = segment.indexOf('=');
    if (eq < 0) pairs.push([decode(segment), undefined]);
    else pairs.push([decode(segment.slice(0, eq)), decode(segment.slice(eq + 1))]);
  }
  return pairs;
}

/**
 * Joins [key, value] pairs into a configuration string, `preset` first.
 * @param {Array<[string, string|undefined]>} pairs
 */
export function joinConfig(pairs) {
  const sorted = [...pairs].sort((a, b) => (a[0] === 'preset' ? -1 : 0) - (b[0] === 'preset' ? -1 : 0));
  return sorted
    .map(([k, v]) => (v === undefined ? encodeValue(k) : `${encodeValue(k)}=${encodeValue(v)}`))
    .join('&');
}

/**
 * The value of key `key` in configuration string `text` (decoded), or null when it has none.
 * @param {string} text
 * @param {string} key
 * @returns {string|null}
 */
export function valueOf(text, key) {
  return splitConfig(text).find(([k]) => k === key)?.[1] ?? null;
}

/** The preset a configuration string names (for file names), or 'run'. */
export function presetOf(text) {
  return splitConfig(text).find(([k]) => k === 'preset')?.[1] ?? 'run';
}
