// The page's opening marks (performance.mark), read by the opening benchmark
// (crates/xtask/bench/open_times.mjs, `cargo xtask bench --open-only`) and the opening test:
// when each lab first shows its main picture, and when the model lab shows its skeleton.
// A mark is set once per page load; the names are `attn-first-picture:<lab>` and
// `attn-model-skeleton`. They time nothing themselves and change nothing drawn. A measure (also
// once per page) gives a duration: `attn-depth-worker-start`, the depth worker's start-up (its
// wasm fetched, compiled and instantiated).

const done = new Set();

/** Sets mark `name` the first time it is called in this page (later calls do nothing). */
export function markOnce(name) {
  if (done.has(name)) return;
  done.add(name);
  performance.mark(name);
}

/** Lab `lab`'s main picture has been drawn for the first time. */
export function firstPicture(lab) {
  markOnce(`attn-first-picture:${lab}`);
}

/** Measure `name` from `start` (the page's ms) lasting `duration` ms, the first time it is called
 * in this page (later calls do nothing). */
export function measureOnce(name, start, duration) {
  if (done.has(name)) return;
  done.add(name);
  performance.measure(name, { start, duration });
}
