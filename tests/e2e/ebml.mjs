// A small EBML (Matroska / WebM) reader and writer for the tests, written apart from
// www/export/webm_fix.js so that the tests do not check that module with its own parser.
//
// parseEbml(bytes) reads every element of known size into a tree (master elements listed in
// MASTERS get `children`); an element of unknown size is an error unless `unknownOk` (then it
// extends to its parent's end and its children are not read). ebml(id, ...parts) writes an
// element with the shortest size that fits, or with `size: 'unknown'`.

/** Master elements (their data holds elements). */
export const MASTERS = new Set([
  0x1a45dfa3, // EBML
  0x18538067, // Segment
  0x114d9b74, // SeekHead
  0x4dbb, // Seek
  0x1549a966, // Info
  0x1654ae6b, // Tracks
  0xae, // TrackEntry
  0xe0, // Video
  0x1f43b675, // Cluster
  0xa0, // BlockGroup
  0x1c53bb6b, // Cues
  0xbb, // CuePoint
  0xb7, // CueTrackPositions
  0x1254c367, // Tags
  0x7373, // Tag
]);

/** An EBML variable-length number at `at`: [value, length]; `id` keeps the marker bit. */
function vint(bytes, at, id) {
  const b = bytes[at];
  if (b === undefined) throw new Error(`EBML: nothing at byte ${at}`);
  const len = Math.clz32(b) - 23; // leading zeros in the byte, plus one
  if (len > 8 || (id && len > 4)) throw new Error(`EBML: bad ${id ? 'ID' : 'size'} byte 0x${b.toString(16)} at ${at}`);
  let v = BigInt(id ? b : b & ((1 << (8 - len)) - 1));
  for (let i = 1; i < len; i += 1) v = (v << 8n) | BigInt(bytes[at + i]);
  const unknown = !id && v === (1n << BigInt(7 * len)) - 1n;
  return [unknown ? null : Number(v), len];
}

/**
 * The elements in bytes [from, to): `{ id, at, dataAt, size, end, children? }` each (`size` null
 * when unknown).
 */
export function parseEbml(bytes, { from = 0, to = bytes.length, unknownOk = false } = {}) {
  const out = [];
  let at = from;
  while (at < to) {
    const [id, il] = vint(bytes, at, true);
    const [size, sl] = vint(bytes, at + il, false);
    const dataAt = at + il + sl;
    if (size === null && !unknownOk) throw new Error(`EBML: element 0x${id.toString(16)} at ${at} has an unknown size`);
    const end = size === null ? to : dataAt + size;
    if (end > to) throw new Error(`EBML: element 0x${id.toString(16)} at ${at} ends at ${end}, past ${to}`);
    const el = { id, at, dataAt, size, end };
    if (MASTERS.has(id) && size !== null) el.children = parseEbml(bytes, { from: dataAt, to: end, unknownOk });
    out.push(el);
    at = end;
  }
  return out;
}

/** The first child of `el` with ID `id` (or of a list of elements). */
export function child(el, id) {
  return (Array.isArray(el) ? el : el.children ?? []).find((c) => c.id === id);
}

/** Every child of `el` with ID `id`. */
export function all(el, id) {
  return (el.children ?? []).filter((c) => c.id === id);
}

/** An unsigned integer element's value. */
export function uintOf(bytes, el) {
  let v = 0n;
  for (let i = el.dataAt; i < el.end; i += 1) v = (v << 8n) | BigInt(bytes[i]);
  return Number(v);
}

/** A float element's value (4 or 8 bytes). */
export function floatOf(bytes, el) {
  const view = new DataView(bytes.buffer, bytes.byteOffset + el.dataAt, el.end - el.dataAt);
  if (el.end - el.dataAt === 4) return view.getFloat32(0);
  if (el.end - el.dataAt === 8) return view.getFloat64(0);
  throw new Error(`EBML: a float of ${el.end - el.dataAt} bytes`);
}

// ---- writing (synthetic files) -----------------------------------------------------------

function idBytes(id) {
  const out = [];
  for (let v = id; v > 0; v >>>= 8) out.unshift(v & 0xff);
  return out;
}

/** A size on the fewest bytes (values with every bit set take one more byte). */
function sizeBytes(n) {
  for (let len = 1; len <= 8; len += 1) {
    if (n < 2 ** (7 * len) - 1) {
      const out = [];
      let v = BigInt(n);
      for (let i = 0; i < len; i += 1) {
        out.unshift(Number(v & 0xffn));
        v >>= 8n;
      }
      out[0] |= 0x80 >> (len - 1);
      return out;
    }
  }
  throw new Error('size too large');
}

/** An element: `parts` are byte arrays (or elements); `{ size: 'unknown' }` as the last part. */
export function ebml(id, ...parts) {
  const unknown = parts.at(-1)?.size === 'unknown';
  if (unknown) parts = parts.slice(0, -1);
  const body = Buffer.concat(parts.map((p) => Buffer.from(p)));
  const size = unknown ? [0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff] : sizeBytes(body.length);
  return new Uint8Array(Buffer.concat([Buffer.from([...idBytes(id), ...size]), body]));
}

/** An unsigned integer element on the fewest bytes. */
export function uint(id, value) {
  const out = [];
  for (let v = BigInt(value); out.length === 0 || v > 0n; v >>= 8n) out.unshift(Number(v & 0xffn));
  return ebml(id, Uint8Array.from(out));
}
