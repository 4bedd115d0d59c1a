// The training lab's timeline (lab/timeline.js, driven by the run loop's seekTo): the SGD
// iterations computed so far. An iteration before the one shown is reached by training again from
// iteration 0 in slices (the run loop restarts the run; training is deterministic, so the state
// shown, and a run continued from it, has the bits of training there directly, as a `step=` link
// does). A click on the chart jumps to that iteration; Replay trains again from 0, playing. A
// chosen position is written to the address bar as `step=` (one history entry per committed
// change).

import { Timeline } from '../lab/timeline.js';

const $ = (id) => document.getElementById(id);

/** Builds the timeline of training page `page` in #tr-timeline. */
export function setupTimeline(page) {
  // page.furthest (the timeline's end) is reset by page.startRun with each run.
  page.timeline = new Timeline($('tr-timeline'), {
    id: 'tr-timeline',
    label: 'Training timeline: the iteration shown',
    states: () => {
      const lab = page.lab;
      if (!lab) return null;
      const step = lab.iteration();
      page.furthest = Math.max(page.furthest, step);
      return { step, end: Math.max(lab.iterations(), page.furthest) };
    },
    seekTo: (step) => page.loop.seekTo(step),
    text: (step) => `iteration ${step} of ${page.lab ? page.lab.iterations() : 0}`,
    // `step=` of the position (an iteration past `iterations` is not a link's moment).
    commit: (step) => {
      page.moment = page.lab && step <= page.lab.iterations() ? ['step', String(step)] : null;
      page.ctx.linkChanged('push');
    },
    replay: () => {
      page.moment = null;
      page.ctx.linkChanged('push');
      page.loop.seekTo(0).then((reached) => {
        if (reached === 0 && page.lab.iteration() === 0) page.loop.play();
      });
    },
  });
  // A click on the chart jumps to that iteration.
  page.chart.onPick = (iteration) => page.timeline.jump(iteration);
}
