// The page's one link grammar: a link (the hash, a configuration, the CLI's --config) is
// `key=value&...` text, a leading '#' or '?' ignored. Every link the page reads or writes outside
// the core goes through this module: split into ordered [key, value] pairs with percent escapes
// decoded (a malformed escape is kept as written, so the core's parser reports it against its
// key), joined back with the core's one percent-encoding set (link::encoding::encode_value:
// everything but ASCII letters, digits and `-._~`), or edited pair by pair with the other pairs
// kept byte for byte. `cargo xtask test` fails on link text split, joined or escaped elsewhere.
// lab/address_bar.js reads and writes the hash itself.

/** Decodes `%XX` escapes; returns the text unchanged when they are malformed. */
export function decodeValue(text) {
  const s = String(text);
  if (!s.includes('%')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * Percent-encodes everything but ASCII letters, digits and `-._~`, as UTF-8 with upper-case hex:
 * the core's set, so a value the page writes reads back as the core writes it. A lone surrogate
 * (not text) becomes U+FFFD first.
 */
export function encodeValue(text) {
  const s = String(text).replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The link's `key=value` segments, as written (a leading '#' or '?' dropped, empty ones too). */
function segments(text) {
  return String(text ?? '').replace(/^[#?]/, '').split('&').filter((s) => s !== '');
}

/** The decoded key of segment `segment` (all of it when it has no '='). */
function keyOf(segment) {
  const eq = segment.indexOf('=');
  return decodeValue(eq < 0 ? segment : segment.slice(0, eq));
}

/**
 * Splits a configuration string into [key, value] pairs (decoded, in order).
 * A segment without `=` keeps an undefined value so the caller can still report it.
 * @param {string} text `key=value&...`, with or without a leading '#'
 * @returns {Array<[string, string|undefined]>}
 */
export function splitConfig(text) {
  return segments(text).map((segment) => {
    const eq = segment.indexOf('=');
    return eq < 0 ? [decodeValue(segment), undefined] : [decodeValue(segment.slice(0, eq)), decodeValue(segment.slice(eq + 1))];
  });
}

/**
 * Joins [key, value] pairs into link text, in their order (keys and values encoded).
 * @param {Array<[string, string|number|undefined]>} pairs
 */
export function joinPairs(pairs) {
  return pairs.map(([k, v]) => (v === undefined ? encodeValue(k) : `${encodeValue(k)}=${encodeValue(v)}`)).join('&');
}

/**
 * Joins [key, value] pairs into a configuration string, `preset` first.
 * @param {Array<[string, string|undefined]>} pairs
 */
export function joinConfig(pairs) {
  return joinPairs([...pairs].sort((a, b) => (a[0] === 'preset' ? -1 : 0) - (b[0] === 'preset' ? -1 : 0)));
}

/** Link `link` without the pairs whose key is in `keys`, the others as written. */
export function withoutKeys(link, keys) {
  return segments(link).filter((s) => !keys.includes(keyOf(s))).join('&');
}

/** Link `link` with only the pairs whose key is in `keys`, in its order, as written. */
export function onlyKeys(link, keys) {
  return segments(link).filter((s) => keys.includes(keyOf(s))).join('&');
}

/** The links' pairs one after the other (empty links left out). */
export function concatLinks(...links) {
  return links.flatMap(segments).join('&');
}

/** The decoded keys of link `text`, in order. */
export function keysOf(text) {
  return segments(text).map(keyOf);
}

/** The pair of `key` in link `text` as written (still encoded), or '' when it has none. */
export function rawPair(text, key) {
  return segments(text).find((s) => keyOf(s) === key) ?? '';
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
  return valueOf(text, 'preset') ?? 'run';
}
