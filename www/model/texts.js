// The model lab's built-in texts (multi-sentence, so the statistics have sentences to compare)
// and the default model the page's server provides (`cargo xtask serve`: models/NAME/).

import { joinPairs } from '../lab/pairs.js';

export const DEFAULT_MODEL = 'all-MiniLM-L6-v2';
/** NAME@ and the first 16 hex digits of its model.safetensors' sha256. */
export const DEFAULT_MODEL_ID = 'all-MiniLM-L6-v2@53aa51172d142c89';

export const TEXTS = [
  ['fox', 'The fox', 'The quick brown fox jumps over the lazy dog. The dog does not move. Later, the fox runs back into the forest.'],
  ['bank', 'Two banks', 'She sat on the bank of the river. Then she went to the bank to open an account. The river was calm, but the bank was busy.'],
  ['attention', 'Attention', 'Attention lets every token look at every other token. Without skip connections, deep stacks of attention collapse to rank one. Skips and MLPs slow the collapse down.'],
];

/** The head the lab opens on: the tour's pick, a head with visible structure on the default text
 * (layer 1, head 0, the link's default, is the noisiest). */
export const OPENING_HEAD = { layer: 2, head: 3 };

/** The default text's link (the lab's first link), on the tour's head. */
export function defaultLink() {
  return joinPairs([['lab', 'model'], ['model', DEFAULT_MODEL_ID], ['text', TEXTS[0][2]], ['layer', OPENING_HEAD.layer], ['head', OPENING_HEAD.head]]);
}
