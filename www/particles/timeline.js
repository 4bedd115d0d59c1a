// The particle lab's timeline (lab/timeline.js, driven by the lab's seekTo): the run's kept
// states and how a step is shown from them. The page keeps the integrated state (`integrate_in`'s
// coordinates) of every state it recorded (history.js) and of step 0; a step is shown by putting
// the run back at the latest kept state at or before it (ParticleLab.restore) and stepping on in
// slices as a `step=` link does (lab/run_loop.js), so the state shown, and a run continued from
// it, has the bits of stepping there from step 0. A click on the metrics chart jumps to that time;
// Replay plays again from step 0 (recomputing the same states). A chosen position is written to
// the address bar as `step=` (one history entry per committed change).

import { Timeline } from '../lab/timeline.js';
import { hideDivergence } from './divergence.js';
import { fmtT } from './format.js';
import { runHistory } from './history.js';
import { $, app, ui } from './state.js';

/** A new run: its step 0 is kept (whatever the analyses recorded) and where it was computed to. */
export function keepInitial(s) {
  app.stateShown = s.model() !== 'euclidean' || s.integrate_in() === s.coords();
  app.initial = { step: 0, state: s.state(), ids: s.identity_state() };
  app.furthest = 0;
}

/**
 * The run loop's `rewind` hook: puts run `s` back at the latest kept state at or before step
 * `target` when that is nearer than stepping on from its current step (or the run diverged on
 * the way); returns whether it did.
 */
export function rewindTo(s, target) {
  const kept = runHistory.keptAtOrBefore(target) ?? app.initial;
  if (!kept || kept.step > target) return false;
  const now = s.step_count();
  const diverged = s.status() === 'diverged';
  if (!diverged && now <= target && kept.step <= now) return false;
  s.restore(kept.step, kept.state);
  if (kept.ids) s.restore_identity_state(kept.ids);
  if (diverged) hideDivergence();
  return true;
}

/** The step shown, the last step the timeline offers (until, or further when the run went on). */
function states() {
  const s = app.stepper;
  if (!s) return null;
  const step = s.step_count();
  app.furthest = Math.max(app.furthest ?? 0, step);
  return { step, end: Math.max(s.until_steps(), app.furthest) };
}

function text(step) {
  const s = app.stepper;
  if (!s) return '';
  return `t = ${fmtT(step * s.dt(), s.dt())} · step ${step} of ${s.until_steps()}`;
}

/** The metrics chart's line at the step shown (drawn when the timeline is not at the last step). */
export function placeChartNow() {
  const line = $('chart-now');
  const s = app.stepper;
  const x = s ? ui.chart.xOf(s.t()) : null;
  const back = s && s.step_count() < (app.furthest ?? 0);
  line.hidden = x === null || !back;
  if (!line.hidden) line.style.left = `${x}px`;
}

/** Builds the timeline of `lab` (its seekTo) in #timeline and wires the chart's clicks to it. */
export function setupTimeline(lab) {
  // The trails are retraced when a seek ends (run.js, retrace).
  const seekTo = (step) => lab.seekTo(step);
  ui.timeline = new Timeline($('timeline'), {
    id: 'timeline',
    label: 'Run timeline: the step shown',
    states,
    seekTo,
    text,
    // `step=` of the position (a step past `until` is not a link's moment: none is written).
    commit: (step) => ui.ctx.linkChanged('push', step <= app.stepper.until_steps() ? ['step', String(step)] : null),
    replay: () => {
      ui.ctx.linkChanged('push', null);
      seekTo(0).then((reached) => {
        if (reached === 0 && app.stepper.step_count() === 0) ui.loop.play();
      });
    },
  });
  ui.chart.onPick = (t) => {
    if (app.stepper) ui.timeline.jump(t / app.stepper.dt());
  };
}
