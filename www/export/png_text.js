// PNG text chunks: writes the configuration string into a PNG (a `tEXt` chunk, or `iTXt` when the
// text is not printable ASCII) and reads it back. Pure functions of bytes: no DOM, so Node tests
// import this module as it is.
//
// PNG layout (ISO/IEC 15948, §5.3 and §11.3.4): an 8-byte signature, then chunks of
// length (4 bytes, big-endian) | type (4 ASCII letters) | data | CRC-32 of type and data.
// Text chunks go after IHDR (the first chunk): `tEXt` is keyword, NUL, Latin-1 text;
// `iTXt` is keyword, NUL, compression flag 0, method 0, empty language tag NUL, empty
// translated keyword NUL, UTF-8 text.

/** The PNG signature. */
export const PNG_SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

/** Keyword of the chunk holding the lab's configuration string (as in a link's hash). */
export const CONFIG_KEYWORD = 'attn-config';

/** Keyword of the chunk holding the step shown when the image was taken (particle lab). */
export const STEP_KEYWORD = 'attn-step';

/** Longest text this module reads back from a chunk (bytes): larger chunks are refused. */
export const MAX_TEXT_BYTES = 8 * 1024 * 1024;

let table = null;

/** CRC-32 (ISO 3309, polynomial 0xEDB88320 reflected) of `bytes`, as an unsigned number. */
export function crc32(bytes, crc = 0) {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n += 1) {
      let c = n;
      for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let c = (crc ^ 0xffffffff) >>> 0;
  for (let i = 0; i < bytes.length; i += 1) c = table[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const ascii = (s) => Uint8Array.from(s, (ch) => ch.charCodeAt(0));

/** Whether `text` can go in a tEXt chunk as it is (printable ASCII, no NUL or controls). */
function plainAscii(text) {
  return /^[\x20-\x7e]*$/.test(text);
}

function checkKeyword(keyword) {
  // PNG keywords: 1-79 printable Latin-1 characters, no leading/trailing/double spaces.
  if (!/^[\x20-\x7e]{1,79}$/.test(keyword) || /^ | $|  /.test(keyword)) {
    throw new Error(`PNG keyword ${JSON.stringify(keyword)}: 1-79 printable characters`);
  }
}

/** One complete chunk (length, type, data, CRC) of `type` with `data`. */
export function chunk(type, data) {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(ascii(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** The chunk holding `text` under `keyword`: `tEXt` for printable ASCII, else `iTXt` (UTF-8). */
export function textChunk(keyword, text) {
  checkKeyword(keyword);
  const key = ascii(keyword);
  if (plainAscii(text)) {
    const body = ascii(text);
    const data = new Uint8Array(key.length + 1 + body.length);
    data.set(key, 0);
    data.set(body, key.length + 1);
    return chunk('tEXt', data);
  }
  const body = new TextEncoder().encode(text);
  // keyword NUL, compression flag 0, method 0, language tag "" NUL, translated keyword "" NUL.
  const data = new Uint8Array(key.length + 5 + body.length);
  data.set(key, 0);
  data.set(body, key.length + 5);
  return chunk('iTXt', data);
}

/**
 * The chunks of a PNG: `[{ type, start, end, data, crcOk }]` (`start`/`end`: the chunk's byte
 * range, `data` a view of its data). Throws a message for what is not a well-formed PNG.
 * @param {Uint8Array} bytes
 */
export function chunks(bytes) {
  if (bytes.length < 8 || PNG_SIGNATURE.some((b, i) => bytes[i] !== b)) throw new Error('not a PNG file (wrong signature)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = [];
  let at = 8;
  while (at < bytes.length) {
    if (at + 12 > bytes.length) throw new Error(`truncated PNG: a chunk header at byte ${at} runs past the end`);
    const length = view.getUint32(at);
    const end = at + 12 + length;
    if (length > 0x7fffffff || end > bytes.length) throw new Error(`truncated PNG: the chunk at byte ${at} runs past the end`);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (!/^[A-Za-z]{4}$/.test(type)) throw new Error(`damaged PNG: bad chunk type at byte ${at}`);
    const crcOk = crc32(bytes.subarray(at + 4, at + 8 + length)) === view.getUint32(at + 8 + length);
    out.push({ type, start: at, end, data: bytes.subarray(at + 8, at + 8 + length), crcOk });
    at = end;
    if (type === 'IEND') break;
  }
  if (out[0]?.type !== 'IHDR') throw new Error('damaged PNG: the first chunk is not IHDR');
  if (out.at(-1).type !== 'IEND') throw new Error('truncated PNG: no IEND chunk');
  return out;
}

/**
 * A copy of the PNG `bytes` with a text chunk `keyword` = `text` for each entry of `entries`,
 * inserted right after IHDR; earlier chunks with the same keywords are dropped.
 * @param {Uint8Array} bytes a PNG
 * @param {Array<[string, string]>} entries [keyword, text] pairs
 */
export function withText(bytes, entries) {
  const list = chunks(bytes);
  const keys = new Set(entries.map(([k]) => k));
  const keep = list.filter((c) => !((c.type === 'tEXt' || c.type === 'iTXt') && keys.has(keywordOf(c.data))));
  const added = entries.map(([k, t]) => textChunk(k, t));
  const parts = [PNG_SIGNATURE, bytes.subarray(keep[0].start, keep[0].end), ...added, ...keep.slice(1).map((c) => bytes.subarray(c.start, c.end))];
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Latin-1 bytes as a string (byte b is U+00bb; TextDecoder's 'latin1' is windows-1252). */
function latin1(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return s;
}

function keywordOf(data) {
  const nul = data.indexOf(0);
  return nul < 0 ? null : String.fromCharCode(...data.subarray(0, Math.min(nul, 79)));
}

/** "a tEXt", "an iTXt". */
const article = (type) => `${/^[aeiou]/i.test(type) ? 'an' : 'a'} ${type}`;

/** The keywords this page writes: each may appear once in a file it reads back. */
const OWN_KEYWORDS = [CONFIG_KEYWORD, STEP_KEYWORD];

/**
 * The text chunks of a PNG as a Map keyword -> text (`tEXt` as Latin-1, uncompressed `iTXt` as
 * UTF-8). Throws a message naming the keyword for a chunk with a bad CRC, a compressed `iTXt` or
 * one longer than MAX_TEXT_BYTES, and for a second chunk of the page's own keywords (`attn-config`,
 * `attn-step`, whatever the chunk types: which one to load would be ambiguous); the error's `key`
 * is then that keyword. Chunks of other kinds are ignored.
 * @param {Uint8Array} bytes
 * @returns {Map<string, string>}
 */
export function readText(bytes) {
  const out = new Map();
  const types = new Map();
  for (const c of chunks(bytes)) {
    if (c.type !== 'tEXt' && c.type !== 'iTXt') continue;
    const nul = c.data.indexOf(0);
    if (nul < 1 || nul > 79) continue; // no valid keyword: not ours
    const keyword = keywordOf(c.data);
    if (types.has(keyword) && OWN_KEYWORDS.includes(keyword)) {
      throw Object.assign(
        new Error(`appears more than once in the PNG (${article(types.get(keyword))} and ${article(c.type)} chunk): which one to load is ambiguous`),
        { key: keyword },
      );
    }
    types.set(keyword, c.type);
    if (!c.crcOk) throw new Error(`the PNG's ${keyword} chunk is damaged (CRC mismatch)`);
    if (c.data.length - nul - 1 > MAX_TEXT_BYTES) throw new Error(`the PNG's ${keyword} chunk is longer than ${MAX_TEXT_BYTES} bytes`);
    if (c.type === 'tEXt') {
      out.set(keyword, latin1(c.data.subarray(nul + 1)));
      continue;
    }
    const flag = c.data[nul + 1];
    if (flag !== 0) throw new Error(`the PNG's ${keyword} chunk is compressed (not written by this page)`);
    let at = nul + 3;
    const lang = c.data.indexOf(0, at);
    const translated = lang < 0 ? -1 : c.data.indexOf(0, lang + 1);
    if (translated < 0) throw new Error(`the PNG's ${keyword} chunk is damaged (iTXt header)`);
    at = translated + 1;
    try {
      out.set(keyword, new TextDecoder('utf-8', { fatal: true }).decode(c.data.subarray(at)));
    } catch {
      throw new Error(`the PNG's ${keyword} chunk is not valid UTF-8`);
    }
  }
  return out;
}
