// The progress of a link's `t=` / `step=`: the run is computed to that step on load (in slices,
// lab/run_loop.js, so the page never freezes); this note shows how far it got.

const $ = (id) => document.getElementById(id);
let generation = 0; // the seek shown (a newer one takes the note over)

/**
 * Shows the progress of computing the run to step `target` until `done` settles.
 * @param {number} target the step the link opens at
 * @param {() => number} step the run's current step
 * @param {Promise<number>} done resolves to the step reached
 */
export function showSeek(target, step, done) {
  const note = $('seek-note');
  const bar = /** @type {HTMLProgressElement} */ ($('seek-progress'));
  const text = $('seek-text');
  if (!note || target <= 0) return;
  const mine = ++generation;
  let finished = false;
  const update = () => {
    if (finished || mine !== generation) return;
    const s = Math.min(target, step());
    bar.value = target > 0 ? s / target : 1;
    text.textContent = `Computing the run to step ${target} (the link's moment): step ${s}.`;
    requestAnimationFrame(update);
  };
  note.hidden = false;
  update();
  done.then((reached) => {
    finished = true;
    if (mine !== generation) return;
    bar.value = 1;
    text.textContent = reached >= target
      ? `Opened at step ${target}, paused: press Play to go on.`
      : `Stopped at step ${reached} before the link's step ${target}.`;
    setTimeout(() => {
      if (mine === generation) note.hidden = true;
    }, 4000);
  }, () => {
    finished = true;
    if (mine === generation) note.hidden = true;
  });
}
