// The checks of the sentences marked `claim` in claims.json, by name: each opens the link its
// sentence talks about and reads the lab's own numbers as the page shows them, at the moment the
// sentence describes; it throws (an assertion) when the sentence does not hold and returns what
// it read, in one line. tour.test.mjs runs the tour cards' checks, claims.test.mjs the others.

import { PARTICLE_CHECKS } from './checks_particles.mjs';
import { LAB_CHECKS } from './checks_labs.mjs';

/** Every check: `{ lab, run(browser) }` by name. */
export const CHECKS = { ...PARTICLE_CHECKS, ...LAB_CHECKS };
