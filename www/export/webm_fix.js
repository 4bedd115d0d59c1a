// A WebM recording made seekable: MediaRecorder (Chromium's) writes a live stream, with a Segment
// and Clusters of unknown size, no Duration and no Cues, so a player shows its duration as
// Infinity and cannot seek. `fixWebm` rewrites the file's EBML element tree (Matroska/WebM:
// https://www.matroska.org/technical/elements.html) without touching a frame:
//
//   EBML header                        copied
//   Segment (size written)             SeekHead (new: where Info, Tracks, Cues and Tags are)
//                                      Info (Duration added, in TimecodeScale units)
//                                      Tracks and other elements before the first Cluster
//                                      Cues (new: one CuePoint per Cluster that starts on a key
//                                        frame: CueTime, CueTrackPositions {CueTrack,
//                                        CueClusterPosition})
//                                      Clusters (sizes written, contents copied)
//                                      elements after the Clusters (Tags, ...)
//
// Positions (SeekPosition, CueClusterPosition) are byte offsets from the first byte of the
// Segment's data, written as 8-byte unsigned integers so that no size depends on another. The
// recording's SeekHead, Cues and Void elements are dropped (their positions would be stale).
// A file that is not such a WebM is refused with an Error saying where it went wrong.

/** Element IDs used here (the ID's bytes, marker bits included, as a number). */
export const ID = Object.freeze({
  EBML: 0x1a45dfa3,
  Segment: 0x18538067,
  SeekHead: 0x114d9b74,
  Seek: 0x4dbb,
  SeekID: 0x53ab,
  SeekPosition: 0x53ac,
  Info: 0x1549a966,
  TimecodeScale: 0x2ad7b1,
  Duration: 0x4489,
  Tracks: 0x1654ae6b,
  TrackEntry: 0xae,
  TrackNumber: 0xd7,
  TrackType: 0x83,
  Cluster: 0x1f43b675,
  Timecode: 0xe7,
  SimpleBlock: 0xa3,
  BlockGroup: 0xa0,
  Block: 0xa1,
  ReferenceBlock: 0xfb,
  Cues: 0x1c53bb6b,
  CuePoint: 0xbb,
  CueTime: 0xb3,
  CueTrackPositions: 0xb7,
  CueTrack: 0xf7,
  CueClusterPosition: 0xf1,
  Tags: 0x1254c367,
  Void: 0xec,
  CRC32: 0xbf,
});

/**
 * IDs of the Segment's children that end a Cluster of unknown size (not Void, which may sit
 * inside a Cluster too).
 */
const SEGMENT_CHILDREN = new Set([
  ID.SeekHead, ID.Info, ID.Tracks, ID.Cluster, ID.Cues, ID.Tags,
  0x1043a770, // Chapters
  0x1941a469, // Attachments
]);

/** TimecodeScale when Info has none (ns per tick: ticks are milliseconds). */
const DEFAULT_SCALE = 1e6;

/**
 * The element whose header starts at `pos`: `{ id, start, dataStart, end, unknown }` (`end` is
 * `limit` when the size is unknown, all value bits set). Throws when the header is not a valid
 * EBML header or the element runs past `limit`.
 * @param {Uint8Array} bytes
 * @param {number} pos
 * @param {number} limit the end of the parent's data
 */
export function readElement(bytes, pos, limit) {
  const id = readVint(bytes, pos, limit, 4, true);
  const size = readVint(bytes, pos + id.length, limit, 8, false);
  const dataStart = pos + id.length + size.length;
  const unknown = size.value === null;
  const end = unknown ? limit : dataStart + size.value;
  if (end > limit) throw new Error(`element 0x${id.value.toString(16)} at byte ${pos} runs past the end of its parent (byte ${limit})`);
  return { id: id.value, start: pos, dataStart, end, unknown };
}

/**
 * A variable-length integer at `pos`: `{ value, length }`. With `keepMarker` (an element ID) the
 * value keeps its length-marker bit; otherwise (a size) the marker is removed and a size with
 * every value bit set reads as null (unknown).
 */
function readVint(bytes, pos, limit, maxLength, keepMarker) {
  if (pos >= limit) throw new Error(`truncated element header at byte ${pos}`);
  const first = bytes[pos];
  let length = 1;
  while (length <= 8 && !(first & (0x100 >> length))) length += 1;
  if (length > maxLength) throw new Error(`invalid ${keepMarker ? 'element ID' : 'size'} at byte ${pos}`);
  if (pos + length > limit) throw new Error(`truncated element header at byte ${pos}`);
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i += 1) {
    value = value * 256 + bytes[pos + i];
    allOnes = allOnes && bytes[pos + i] === 0xff;
  }
  return { value: !keepMarker && allOnes ? null : value, length };
}

/** The children of the element `el` (its data must hold whole elements of known size). */
export function childrenOf(bytes, el) {
  const out = [];
  for (let pos = el.dataStart; pos < el.end;) {
    const child = readElement(bytes, pos, el.end);
    if (child.unknown) throw new Error(`element 0x${child.id.toString(16)} at byte ${pos} has an unknown size inside 0x${el.id.toString(16)}`);
    out.push(child);
    pos = child.end;
  }
  return out;
}

/** An unsigned integer element's value (big-endian, up to 8 bytes; exact below 2^53). */
function readUint(bytes, el) {
  let v = 0;
  for (let i = el.dataStart; i < el.end; i += 1) v = v * 256 + bytes[i];
  return v;
}

/**
 * The Segment's level-1 elements. A Cluster of unknown size ends where an element that may
 * follow it in the Segment begins (or at the Segment's end).
 */
function segmentChildren(bytes, segment) {
  const out = [];
  for (let pos = segment.dataStart; pos < segment.end;) {
    let el = readElement(bytes, pos, segment.end);
    if (el.unknown) {
      if (el.id !== ID.Cluster) throw new Error(`element 0x${el.id.toString(16)} at byte ${pos} has an unknown size`);
      let end = el.dataStart;
      while (end < segment.end) {
        const child = readElement(bytes, end, segment.end);
        if (SEGMENT_CHILDREN.has(child.id)) break;
        if (child.unknown) throw new Error(`element 0x${child.id.toString(16)} at byte ${end} has an unknown size inside a Cluster`);
        end = child.end;
      }
      el = { ...el, end, unknown: false };
    }
    out.push(el);
    pos = el.end;
  }
  return out;
}

/**
 * A Cluster's times (ticks): of its first block (`first`, its Timecode when it has none) and of
 * its last block (`last`, -Infinity when none), and whether its first block is a key frame (a
 * SimpleBlock with the key flag, or a BlockGroup without a ReferenceBlock).
 */
function clusterTimes(bytes, cluster) {
  let timecode = null;
  let last = -Infinity;
  let first = null;
  let firstKey = null;
  const blockTime = (block) => {
    const track = readVint(bytes, block.dataStart, block.end, 8, false);
    const at = block.dataStart + track.length;
    if (at + 3 > block.end) throw new Error(`truncated block at byte ${block.start}`);
    const rel = ((bytes[at] << 8) | bytes[at + 1]) << 16 >> 16; // signed 16-bit
    return { rel, flags: bytes[at + 2] };
  };
  for (const child of childrenOf(bytes, cluster)) {
    if (child.id === ID.Timecode) timecode = readUint(bytes, child);
    let block = null;
    let key = false;
    if (child.id === ID.SimpleBlock) {
      block = blockTime(child);
      key = Boolean(block.flags & 0x80);
    } else if (child.id === ID.BlockGroup) {
      const parts = childrenOf(bytes, child);
      const b = parts.find((p) => p.id === ID.Block);
      if (b) {
        block = blockTime(b);
        key = !parts.some((p) => p.id === ID.ReferenceBlock);
      }
    }
    if (block) {
      if (timecode === null) throw new Error(`Cluster at byte ${cluster.start} has a block before its Timecode`);
      last = Math.max(last, timecode + block.rel);
      if (firstKey === null) {
        firstKey = key;
        first = Math.max(0, timecode + block.rel);
      }
    }
  }
  if (timecode === null) throw new Error(`Cluster at byte ${cluster.start} has no Timecode`);
  return { first: first ?? timecode, last, key: firstKey === true };
}

/** The number of the first video track (TrackType 1), else of the first track, else 1. */
function cueTrack(bytes, tracks) {
  const entries = tracks ? childrenOf(bytes, tracks).filter((e) => e.id === ID.TrackEntry) : [];
  const described = entries.map((e) => {
    const fields = childrenOf(bytes, e);
    const num = fields.find((f) => f.id === ID.TrackNumber);
    const type = fields.find((f) => f.id === ID.TrackType);
    return { number: num ? readUint(bytes, num) : null, type: type ? readUint(bytes, type) : null };
  }).filter((t) => t.number !== null);
  return (described.find((t) => t.type === 1) ?? described[0])?.number ?? 1;
}

// ---- writing ---------------------------------------------------------------------------------

/** The bytes of element ID `id` (1 to 4 bytes, as read). */
function idBytes(id) {
  const out = [];
  for (let v = id; v > 0; v = Math.floor(v / 256)) out.unshift(v % 256);
  return out;
}

/** A size as an 8-byte variable-length integer (marker 0x01, then 7 bytes). */
function size8(n) {
  const out = [0x01];
  for (let i = 6; i >= 0; i -= 1) out.push(Math.floor(n / 2 ** (8 * i)) % 256);
  return out;
}

/** An element of ID `id` holding `data` (an array of byte arrays), its size on 8 bytes. */
function element(id, ...data) {
  const body = concat(data);
  return concat([Uint8Array.from([...idBytes(id), ...size8(body.length)]), body]);
}

/** An unsigned integer element, its value on 8 bytes (sizes never depend on values). */
function uint8(id, value) {
  const v = [];
  for (let i = 7; i >= 0; i -= 1) v.push(Math.floor(value / 2 ** (8 * i)) % 256);
  return element(id, Uint8Array.from(v));
}

/** A float element (8 bytes, big-endian IEEE 754). */
function float8(id, value) {
  const v = new Uint8Array(8);
  new DataView(v.buffer).setFloat64(0, value);
  return element(id, v);
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * The WebM `bytes` with a Duration of `durationMs` milliseconds (or the time of its last frame,
 * when later), Cues, a SeekHead and known sizes (see the top of this file).
 * @param {Uint8Array} bytes a WebM file (EBML header, then one Segment)
 * @param {number} durationMs the recording's length, ms (>= 0)
 * @returns {{ bytes: Uint8Array, duration: number, cues: number }} the file, its Duration (ms)
 *   and the number of CuePoints
 * @throws {Error} when `bytes` is not a WebM this function can read (the message says where)
 */
export function fixWebm(bytes, durationMs) {
  if (!(durationMs >= 0)) throw new Error(`bad duration ${durationMs}`);
  const magic = [0x1a, 0x45, 0xdf, 0xa3];
  if (bytes.length < 4 || magic.some((b, i) => bytes[i] !== b)) throw new Error('not a WebM file (no EBML header)');
  const header = readElement(bytes, 0, bytes.length);
  if (header.id !== ID.EBML || header.unknown) throw new Error('not a WebM file (no EBML header)');
  const segment = readElement(bytes, header.end, bytes.length);
  if (segment.id !== ID.Segment) throw new Error(`no Segment after the EBML header (byte ${header.end})`);
  const children = segmentChildren(bytes, segment);
  const clusters = children.filter((c) => c.id === ID.Cluster);
  if (!clusters.length) throw new Error('the recording has no Cluster (no frame)');
  const firstCluster = children.indexOf(clusters[0]);
  const info = children.slice(0, firstCluster).find((c) => c.id === ID.Info);
  if (!info) throw new Error('the Segment has no Info before its first Cluster');
  const dropped = new Set([ID.SeekHead, ID.Cues, ID.Void]);
  const before = children.slice(0, firstCluster).filter((c) => !dropped.has(c.id));
  const after = children.slice(firstCluster).filter((c) => c.id !== ID.Cluster && !dropped.has(c.id));

  // Info with its Duration: the recording's length or its last frame's time, in ticks.
  const infoParts = childrenOf(bytes, info);
  const scaleEl = infoParts.find((p) => p.id === ID.TimecodeScale);
  const scale = scaleEl ? readUint(bytes, scaleEl) : DEFAULT_SCALE;
  if (!(scale > 0)) throw new Error('TimecodeScale is 0');
  const times = clusters.map((c) => clusterTimes(bytes, c));
  const lastFrame = Math.max(...times.map((t) => t.last));
  const duration = Math.max((durationMs * 1e6) / scale, Number.isFinite(lastFrame) ? lastFrame : 0);
  const kept = infoParts.filter((p) => p.id !== ID.Duration && p.id !== ID.CRC32); // a CRC would be stale
  const infoOut = element(ID.Info, ...kept.map((p) => bytes.subarray(p.start, p.end)), float8(ID.Duration, duration));

  // Sizes: the SeekHead lists Info, Tracks, Cues and Tags (fixed size: 8-byte positions).
  const sought = [ID.Info, ID.Tracks, ID.Cues, ID.Tags].filter((id) => id === ID.Cues || [...before, ...after].some((c) => c.id === id));
  const seekEntry = (id, pos) => element(ID.Seek, element(ID.SeekID, Uint8Array.from(idBytes(id))), uint8(ID.SeekPosition, pos));
  const seekHeadLength = element(ID.SeekHead, ...sought.map((id) => seekEntry(id, 0))).length;
  const beforeOut = before.map((c) => (c.id === ID.Info ? infoOut : bytes.subarray(c.start, c.end)));
  const track = cueTrack(bytes, before.find((c) => c.id === ID.Tracks));
  const cuePoint = (time, pos) => element(ID.CuePoint, uint8(ID.CueTime, time), element(ID.CueTrackPositions, uint8(ID.CueTrack, track), uint8(ID.CueClusterPosition, pos)));
  const keyed = times.map((t, i) => ({ ...t, i })).filter((t) => t.key || t.i === 0);
  const cuesLength = element(ID.Cues, ...keyed.map(() => cuePoint(0, 0))).length;

  // Positions from the Segment's data start.
  const positions = new Map();
  let at = seekHeadLength;
  before.forEach((c, k) => {
    if (!positions.has(c.id)) positions.set(c.id, at);
    at += beforeOut[k].length;
  });
  positions.set(ID.Cues, at);
  at += cuesLength;
  const clustersOut = clusters.map((c) => element(ID.Cluster, bytes.subarray(c.dataStart, c.end)));
  const clusterAt = [];
  for (const c of clustersOut) {
    clusterAt.push(at);
    at += c.length;
  }
  for (const c of after) {
    if (!positions.has(c.id)) positions.set(c.id, at);
    at += c.end - c.start;
  }

  const cues = element(ID.Cues, ...keyed.map((t) => cuePoint(t.first, clusterAt[t.i])));
  const seekHead = element(ID.SeekHead, ...sought.map((id) => seekEntry(id, positions.get(id))));
  const body = concat([seekHead, ...beforeOut, cues, ...clustersOut, ...after.map((c) => bytes.subarray(c.start, c.end))]);
  if (seekHead.length !== seekHeadLength || cues.length !== cuesLength) throw new Error('internal: sizes changed');
  const out = concat([bytes.subarray(0, header.end), Uint8Array.from([...idBytes(ID.Segment), ...size8(body.length)]), body]);
  return { bytes: out, duration: (duration * scale) / 1e6, cues: keyed.length };
}
