// The particle lab's divergence message: what overflowed, and one button per fix the message
// names (halve dt, halve β), each restarting the run with that value (config.js).

import { $, app } from './state.js';

/** Shows the divergence message and the buttons of the fixes it names (smaller dt, smaller beta). */
export function showDivergence(message) {
  $('divergence-message').textContent = message;
  const fix = /use a smaller ([^;.]*)/.exec(message)?.[1] ?? '';
  const names = (w) => new RegExp(`\\b${w}\\b`).test(fix);
  const dt = app.stepper.dt();
  const beta = app.stepper.beta();
  const offerDt = names('dt') || !names('beta');
  $('halve-dt').hidden = !offerDt;
  $('halve-dt').textContent = `Halve dt (${dt} → ${dt / 2}) and restart`;
  $('halve-beta').hidden = !names('beta');
  $('halve-beta').textContent = `Halve β (${beta} → ${beta / 2}) and restart`;
  $('divergence').hidden = false;
}

export function hideDivergence() {
  $('divergence').hidden = true;
  $('divergence-message').textContent = '';
}
