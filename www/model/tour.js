// The model lab's guided tour (ui/tour.js): one plain sentence per card, the panel it points at,
// and the link its "Do it" opens (the served model on a built-in text). Each sentence says what
// that link shows (tests/e2e/claims.json names the check of each).

import { joinPairs } from '../lab/pairs.js';
import { DEFAULT_MODEL_ID, TEXTS } from './texts.js';

/**
 * The link of built-in text `k` on the served model, with `extra` pairs.
 * @param {number} k
 * @param {Array<[string, string|number]>} extra
 */
const link = (k, extra = []) => joinPairs([['version', 7], ['lab', 'model'], ['model', DEFAULT_MODEL_ID], ['text', TEXTS[k][2]], ...extra]);

export const TOUR = {
  title: 'Tour: a trained encoder',
  cards: [
    { text: 'A real BERT encoder reads your text as word pieces between [CLS] and [SEP]; each sentence is shaded in turn.', panel: 'section[aria-labelledby="md-tokens-heading"]', link: link(0) },
    { text: 'Each small tile is one head, layers down and heads across: the Attention P grid shows where it looks, the Context similarity S grid how alike its outputs are (S = O Oᵀ). Click a tile to enlarge it.', panel: 'section[aria-labelledby="md-grid-heading"]', link: link(0, [['layer', 2], ['head', 3]]) },
    { text: 'Take the skip connections out of the trained model (SAN) and its tokens collapse to one within a few layers; the whole transformer keeps them apart.', panel: 'section[aria-labelledby="md-res-heading"]', link: link(0) },
    { text: 'Of the pairs of tokens whose outputs are most alike, how many sit in the same sentence? On this text, more than chance (the dashed line) in most layers.', panel: 'section[aria-labelledby="md-same-heading"]', link: link(1) },
  ],
};
