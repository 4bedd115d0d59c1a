// The particle lab's record of states as the timeline reads it (www/particles/history.js, plain
// JS, no browser): the integrated state kept beside the tokens when they differ, the latest kept
// state at or before a step (also after the record was thinned), and the memory bound counting
// both arrays.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_NUMBERS, MAX_SAMPLES, RunHistory } from '../../www/particles/history.js';

test('kept states: the latest at or before a step, its integrated state, after thinning too', () => {
  const h = new RunHistory();
  h.reset('c', 1, 1, 'x');
  const tokensOf = (k) => () => Float64Array.of(k + 0.5);
  const stateOf = (k) => () => Float64Array.of(-k);
  for (let k = 0; k <= MAX_SAMPLES + 5000; k += 1) h.record(k, k / 10, tokensOf(k), null, stateOf(k));
  assert.equal(h.thinned, true, 'more than MAX_SAMPLES states: thinned');
  const steps = h.steps();
  assert.ok(steps.length <= MAX_SAMPLES && steps[0] === 0 && steps.at(-1) === MAX_SAMPLES + 5000);
  const missing = steps.find((s, i) => steps[i + 1] > s + 1) + 1;
  assert.ok(!steps.includes(missing), `step ${missing} was thinned away`);
  const kept = h.keptAtOrBefore(missing);
  assert.equal(kept.step, missing - 1, 'the latest kept step before a thinned one');
  assert.deepEqual(Array.from(kept.state), [-(missing - 1)], 'its integrated state, not its tokens');
  assert.deepEqual(Array.from(kept.tokens), [missing - 1 + 0.5]);
  assert.equal(h.keptAtOrBefore(0).step, 0);
  assert.equal(h.keptAtOrBefore(1e9).step, MAX_SAMPLES + 5000);
  assert.equal(h.keptAtOrBefore(-1), null);
});

test('without a separate state the tokens are the state; separate states count against memory', () => {
  const same = new RunHistory();
  same.reset('c', 2, 1, 'z');
  same.record(0, 0, () => Float64Array.of(1, 2), null);
  const s = same.keptAtOrBefore(0);
  assert.equal(s.state, s.tokens, 'one array when the coordinates are the integrated ones');

  const n = 1024;
  const d = 8;
  const both = new RunHistory();
  both.reset('c', n, d, 'x');
  const per = n * d;
  const fits = Math.floor(MAX_NUMBERS / per); // states that fit with tokens only
  for (let k = 0; k <= fits / 2 + 2; k += 1) {
    both.record(k, k, () => new Float64Array(per), null, () => new Float64Array(per));
  }
  assert.equal(both.thinned, true, 'tokens and states together pass the bound at half the states');
});
