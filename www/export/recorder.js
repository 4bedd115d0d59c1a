// WebM recording of a canvas: canvas.captureStream + MediaRecorder. The canvas's own redraws are
// the frames (a paused run records a still picture). The browser writes a live stream (no
// duration, no seek index); the file saved is rewritten by webm_fix.js with its Duration (the
// time recorded) and Cues, so players show its length and seek in it.

import { fixWebm } from './webm_fix.js';

/** Frames per second asked of the canvas stream. */
export const FPS = 30;

/** The first WebM type this browser records, or '' when it records none. */
export function webmType() {
  if (typeof MediaRecorder === 'undefined') return '';
  for (const t of ['video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm']) {
    if (MediaRecorder.isTypeSupported(t)) return t;
  }
  return '';
}

export class CanvasRecorder {
  constructor() {
    this.recorder = null;
    this.parts = [];
    this.started = 0;
  }

  get recording() {
    return this.recorder !== null;
  }

  /** Seconds recorded so far (0 when not recording). */
  seconds() {
    return this.recorder ? (performance.now() - this.started) / 1000 : 0;
  }

  /** Starts recording `canvas`; throws a message when the browser cannot record WebM. */
  start(canvas) {
    if (this.recorder) return;
    const type = webmType();
    if (!type || typeof canvas.captureStream !== 'function') throw new Error('this browser cannot record WebM video from a canvas');
    const stream = canvas.captureStream(FPS);
    this.parts = [];
    this.recorder = new MediaRecorder(stream, { mimeType: type });
    this.recorder.addEventListener('dataavailable', (e) => {
      if (e.data && e.data.size > 0) this.parts.push(e.data);
    });
    this.recorder.start(1000);
    this.started = performance.now();
  }

  /**
   * Stops recording; resolves to null when nothing was recorded, else `{ blob, seconds, warning }`:
   * the video (a Blob of type video/webm) with its Duration and Cues, `seconds` its Duration;
   * when the browser's file cannot be read as WebM it is kept as recorded (`seconds` the time
   * recorded) and `warning` says why.
   */
  stop() {
    const rec = this.recorder;
    if (!rec) return Promise.resolve(null);
    const ms = performance.now() - this.started;
    this.recorder = null;
    return new Promise((resolve) => {
      rec.addEventListener('stop', () => {
        for (const track of rec.stream.getTracks()) track.stop();
        const raw = new Blob(this.parts, { type: 'video/webm' });
        this.parts = [];
        if (raw.size === 0) {
          resolve(null);
          return;
        }
        raw.arrayBuffer().then((buf) => {
          const fixed = fixWebm(new Uint8Array(buf), ms);
          resolve({ blob: new Blob([/** @type {Uint8Array<ArrayBuffer>} */ (fixed.bytes)], { type: 'video/webm' }), seconds: fixed.duration / 1000, warning: '' });
        }).catch((e) => {
          resolve({ blob: raw, seconds: ms / 1000, warning: `saved as recorded, without a duration or seek index (${e.message})` });
        });
      }, { once: true });
      rec.stop();
    });
  }
}
