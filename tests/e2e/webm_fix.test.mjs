// www/export/webm_fix.js on synthetic WebM files (written here with tests/e2e/ebml.mjs, read back
// with its own parser): a live-style file (Segment and Clusters of unknown size, no Duration, no
// Cues) gets a Duration, Cues pointing at its Clusters and a SeekHead pointing at its elements,
// with every frame's bytes unchanged; an old SeekHead, Cues and Void are replaced; foreign or
// damaged files are refused with a message (the browser test records a real one
// in export_defects.test.mjs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { all, child, ebml, floatOf, parseEbml, uint, uintOf } from './ebml.mjs';
import { fixWebm } from '../../www/export/webm_fix.js';

const E = {
  EBML: 0x1a45dfa3, DocType: 0x4282, Segment: 0x18538067, SeekHead: 0x114d9b74, Seek: 0x4dbb,
  SeekID: 0x53ab, SeekPosition: 0x53ac, Info: 0x1549a966, TimecodeScale: 0x2ad7b1,
  Duration: 0x4489, MuxingApp: 0x4d80, Tracks: 0x1654ae6b, TrackEntry: 0xae, TrackNumber: 0xd7,
  TrackType: 0x83, Cluster: 0x1f43b675, Timecode: 0xe7, SimpleBlock: 0xa3, BlockGroup: 0xa0,
  Block: 0xa1, ReferenceBlock: 0xfb, Cues: 0x1c53bb6b, CuePoint: 0xbb, CueTime: 0xb3,
  CueTrackPositions: 0xb7, CueTrack: 0xf7, CueClusterPosition: 0xf1, Tags: 0x1254c367, Void: 0xec,
};

const text = (s) => new TextEncoder().encode(s);

/** A block's data: track 1, relative time `rel` (signed 16-bit), flags, then a frame `payload`. */
function blockData(rel, key, payload) {
  return Uint8Array.from([0x81, (rel >> 8) & 0xff, rel & 0xff, key ? 0x80 : 0x00, ...payload]);
}

const simple = (rel, key, payload) => ebml(E.SimpleBlock, blockData(rel, key, payload));
const group = (rel, key, payload) => ebml(E.BlockGroup, ebml(E.Block, blockData(rel, false, payload)), ...(key ? [] : [uint(E.ReferenceBlock, 0)]));

/** The frames of a file in order: the data of every SimpleBlock and Block. */
function frames(bytes, tree) {
  const out = [];
  const visit = (els) => {
    for (const el of els) {
      if (el.id === E.SimpleBlock || el.id === E.Block) out.push(Buffer.from(bytes.subarray(el.dataAt, el.end)).toString('hex'));
      if (el.children) visit(el.children);
    }
  };
  visit(tree);
  return out;
}

const header = ebml(E.EBML, ebml(E.DocType, text('webm')));
const tracks = ebml(E.Tracks, ebml(E.TrackEntry, uint(E.TrackNumber, 2), uint(E.TrackType, 17)), ebml(E.TrackEntry, uint(E.TrackNumber, 1), uint(E.TrackType, 1)));

/** A live-style recording: unknown sizes, three Clusters (the third starting on a delta frame). */
function liveFile() {
  const info = ebml(E.Info, uint(E.TimecodeScale, 1e6), ebml(E.MuxingApp, text('test')));
  const clusters = [
    ebml(E.Cluster, uint(E.Timecode, 0), group(0, true, [1, 2, 3]), group(33, false, [4]), simple(66, false, [5, 6]), { size: 'unknown' }),
    ebml(E.Cluster, uint(E.Timecode, 1000), simple(0, true, [7]), ebml(E.Void, Uint8Array.from([0, 0])), simple(500, false, [8]), { size: 'unknown' }),
    ebml(E.Cluster, uint(E.Timecode, 2000), simple(10, false, [9]), simple(-5, false, [10]), { size: 'unknown' }),
  ];
  return new Uint8Array(Buffer.concat([header, ebml(E.Segment, info, tracks, ...clusters, { size: 'unknown' })].map((b) => Buffer.from(b))));
}

/** Checks the rewritten file's structure; returns { segment, info, cues, clusters, scale }. */
function checkFixed(out) {
  const tree = parseEbml(out); // every size known, or this throws
  assert.deepEqual(tree.map((e) => e.id), [E.EBML, E.Segment]);
  const segment = tree[1];
  assert.equal(segment.end, out.length, 'the Segment size covers the file');
  const base = segment.dataAt;
  const at = new Map(segment.children.map((c) => [c.at - base, c]));
  // The SeekHead comes first and points at elements of the IDs it names.
  assert.equal(segment.children[0].id, E.SeekHead);
  for (const seek of all(segment.children[0], E.Seek)) {
    const id = uintOf(out, child(seek, E.SeekID));
    const target = at.get(uintOf(out, child(seek, E.SeekPosition)));
    assert.ok(target, `SeekPosition of 0x${id.toString(16)} is the start of an element`);
    assert.equal(target.id, id, `the SeekHead's entry for 0x${id.toString(16)}`);
  }
  const info = child(segment, E.Info);
  const scaleEl = child(info, E.TimecodeScale);
  const cues = child(segment, E.Cues);
  const clusters = all(segment, E.Cluster);
  for (const point of all(cues, E.CuePoint)) {
    const pos = child(point, E.CueTrackPositions);
    const cluster = at.get(uintOf(out, child(pos, E.CueClusterPosition)));
    assert.equal(cluster?.id, E.Cluster, 'CueClusterPosition is the start of a Cluster');
    assert.equal(uintOf(out, child(pos, E.CueTrack)), 1, 'the video track');
    const tc = uintOf(out, child(cluster, E.Timecode));
    assert.ok(uintOf(out, child(point, E.CueTime)) >= tc);
  }
  return { tree, info, cues, clusters, scale: scaleEl ? uintOf(out, scaleEl) : 1e6 };
}

test('a live recording gets a Duration, Cues for its key-frame Clusters and a SeekHead; its frames are unchanged', () => {
  const file = liveFile();
  const before = parseEbml(file, { unknownOk: true });
  assert.equal(before[1].size, null, 'the Segment has an unknown size');
  const fixed = fixWebm(file, 2500);
  const { tree, info, cues, clusters } = checkFixed(fixed.bytes);
  assert.equal(floatOf(fixed.bytes, child(info, E.Duration)), 2500, 'Duration in ms (TimecodeScale 1e6)');
  assert.equal(fixed.duration, 2500);
  assert.equal(clusters.length, 3);
  assert.deepEqual(clusters.map((c) => uintOf(fixed.bytes, child(c, E.Timecode))), [0, 1000, 2000]);
  const points = all(cues, E.CuePoint);
  assert.equal(points.length, 2, 'one CuePoint per Cluster starting on a key frame');
  assert.equal(fixed.cues, 2);
  assert.deepEqual(points.map((p) => uintOf(fixed.bytes, child(p, E.CueTime))), [0, 1000]);
  // Every frame, in order, byte for byte (the live file's Clusters read by scanning).
  const liveFrames = [];
  const scan = (from, to) => {
    for (let at = from; at < to;) {
      const [el] = parseEbml(file, { from: at, to, unknownOk: true });
      const len = el.size === null ? 0 : el.end - at;
      if (el.id === E.Cluster || el.id === E.Segment) {
        at = el.dataAt;
        continue;
      }
      if (el.id === E.SimpleBlock) liveFrames.push(Buffer.from(file.subarray(el.dataAt, el.end)).toString('hex'));
      if (el.id === E.BlockGroup) liveFrames.push(...frames(file, el.children));
      at += len;
    }
  };
  scan(header.length, file.length);
  assert.equal(liveFrames.length, 7);
  assert.deepEqual(frames(fixed.bytes, tree), liveFrames);
});

test('the Duration is the last frame\'s time when the recording time given is shorter', () => {
  const fixed = fixWebm(liveFile(), 100);
  const { info } = checkFixed(fixed.bytes);
  assert.equal(floatOf(fixed.bytes, child(info, E.Duration)), 2010, 'Cluster 2000 + block 10');
});

test('an old SeekHead, Cues, Void and Duration are replaced; Tags after the Clusters are kept and sought; TimecodeScale is honoured', () => {
  const info = ebml(E.Info, uint(E.TimecodeScale, 1e5), ebml(E.Duration, Uint8Array.from([0x40, 0x59, 0, 0, 0, 0, 0, 0])));
  const oldSeek = ebml(E.SeekHead, ebml(E.Seek, ebml(E.SeekID, Uint8Array.from([0x15, 0x49, 0xa9, 0x66])), uint(E.SeekPosition, 3)));
  const oldCues = ebml(E.Cues, ebml(E.CuePoint, uint(E.CueTime, 0), ebml(E.CueTrackPositions, uint(E.CueTrack, 1), uint(E.CueClusterPosition, 1))));
  const tags = ebml(E.Tags, ebml(0x7373, ebml(0x67c8, ebml(0x45a3, text('TITLE')))));
  const c1 = ebml(E.Cluster, uint(E.Timecode, 0), simple(0, true, [1]));
  const c2 = ebml(E.Cluster, uint(E.Timecode, 30000), simple(0, true, [2]), simple(100, false, [3]));
  const body = [oldSeek, ebml(E.Void, new Uint8Array(20)), info, tracks, oldCues, c1, c2, tags];
  const file = new Uint8Array(Buffer.concat([header, ebml(E.Segment, ...body)].map((b) => Buffer.from(b))));
  const fixed = fixWebm(file, 4000);
  const { tree, info: newInfo, cues, scale } = checkFixed(fixed.bytes);
  assert.equal(scale, 1e5);
  assert.equal(floatOf(fixed.bytes, child(newInfo, E.Duration)), 40000, '4000 ms in ticks of 0.1 ms');
  assert.equal(fixed.duration, 4000);
  assert.equal(all(newInfo, E.Duration).length, 1, 'one Duration');
  const segment = tree[1];
  assert.deepEqual(segment.children.map((c) => c.id), [E.SeekHead, E.Info, E.Tracks, E.Cues, E.Cluster, E.Cluster, E.Tags]);
  const sought = all(segment.children[0], E.Seek).map((s) => uintOf(fixed.bytes, child(s, E.SeekID)));
  assert.deepEqual(sought, [E.Info, E.Tracks, E.Cues, E.Tags]);
  assert.deepEqual(all(cues, E.CuePoint).map((p) => uintOf(fixed.bytes, child(p, E.CueTime))), [0, 30000]);
  assert.equal(Buffer.from(fixed.bytes.subarray(child(segment, E.Tags).at)).toString('hex'), Buffer.from(tags).toString('hex'), 'Tags copied');
});

test('files that are not such a WebM are refused with a message', () => {
  const live = liveFile();
  assert.throws(() => fixWebm(text('RIFF....WEBPVP8 '), 1000), /not a WebM file/);
  assert.throws(() => fixWebm(new Uint8Array(0), 1000), /not a WebM file/);
  assert.throws(() => fixWebm(live.subarray(0, header.length + 30), 1000), /runs past|truncated/);
  const noClusters = new Uint8Array(Buffer.concat([header, ebml(E.Segment, ebml(E.Info, uint(E.TimecodeScale, 1e6)), tracks)].map((b) => Buffer.from(b))));
  assert.throws(() => fixWebm(noClusters, 1000), /no Cluster/);
  assert.throws(() => fixWebm(live, Number.NaN), /bad duration/);
});
