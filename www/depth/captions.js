// The depth lab's panel captions. Every sentence is in CAPTIONS (`$name`: a value filled in),
// which tests/e2e/claims.json lists.

import { fmt } from '../ui/format.js';
import { fill, setMath } from '../ui/math.js';
import { MAX_SIDE } from './variants.js';

/** The captions' sentences, by name. */
export const CAPTIONS = {
  res: 'res(X) = X − 1 xᵀ with x the $centre; ‖X‖_{1,∞} = √(‖X‖₁ ‖X‖_{∞}) (max column and max row abs-sum). Plotted: ‖res(X_{l})‖ / ‖X_{l}‖ for layer l = 0 (the input) to L = $layers, n = $n tokens, d_model = $dmodel, $heads heads of $dhead.',
  centreMean: 'mean of the tokens',
  centreArgmin: 'minimiser of the norm',
  variants: ' SAN: attention only, collapses to rank 1 doubly exponentially; SAN+MLP: attention and MLP without skips, collapses too (the MLP does not stop it); SAN+skip: attention with its skip connection, stays near its start; transformer: skips and MLP (as BERT). LayerNorm (the layernorm key) sits in every variant. Hover for values.',
  grid: 'For each layer l (rows) and head (columns), S = O Oᵀ with O = P V the head\'s output before W_{O} (n × n, diagonal set to 0, similarity_norm applied), coloured $scale$block. Click a head to enlarge it with the token labels; hover for S_{ij}.',
  gridShared: 'on one scale, from the smallest to the largest off-diagonal value of any layer and head (grid_scale=shared: heads and layers compare)',
  gridHead: 'from the head\'s smallest to its largest off-diagonal value (per head: each head\'s pattern shows, however small its values)',
  gridBlock: ' (n = $n > $max: each pixel shows the largest value of its block)',
  hist: 'Per layer, the histogram of |i − j| over the high-similarity pairs of all heads (select, quantile, threshold), each ridge scaled to its own peak: mass near 0 is short-range similarity, a flat ridge long-range (Halevi et al. 2025). The variant is the one chosen above the grid.',
  same: 'The share of high-similarity pairs whose two tokens lie in the same sentence, per layer and variant; dashed: chance Σ_{s} n_{s}(n_{s} − 1)/(n(n − 1)) = $chance.',
  paths: 'With skip connections the output of L layers of H heads is a sum over (H+1)^{L} paths; the share of paths through k attention layers is C(L,k) H^{k} / (H+1)^{L} (bars). For a linear, bias-free stack without MLP or LayerNorm the core also splits the output exactly by path length: the line is each length\'s share of Σ_{k} ‖S^{(k)}‖_{F} ($paths).',
  pathsShown: 'shown for the variants that have one',
  pathsNot: 'not computed in the page at this size: n · d_model · L > 5·10⁵; `attn depth --paths` prints it',
  sv: 'Singular values of the hidden state X_{l} (n × d_model) divided by the largest, per variant, on a log scale: a collapsed state (rank 1) has one singular value and the rest at round-off. Move the slider to pick the layer.',
};

const $ = (id) => document.getElementById(id);

/**
 * Writes the captions of run `i` (the worker's info: layers, n, d_model, heads, d_head,
 * chance_level): `argmin` the residual's centre, `shared` the grid's scale, `paths` whether the
 * path view is computed.
 */
export function writeCaptions(i, { argmin, shared, paths }) {
  const C = CAPTIONS;
  const centre = argmin ? C.centreArgmin : C.centreMean;
  setMath($('dp-res-caption'), fill(C.res, { centre, layers: i.layers, n: i.n, dmodel: i.d_model, heads: i.heads, dhead: i.d_head }) + C.variants);
  const block = i.n > MAX_SIDE ? fill(C.gridBlock, { n: i.n, max: MAX_SIDE }) : '';
  setMath($('dp-grid-caption'), fill(C.grid, { scale: shared ? C.gridShared : C.gridHead, block }));
  $('dp-hist-caption').textContent = C.hist;
  setMath($('dp-same-caption'), fill(C.same, { chance: fmt(i.chance_level) }));
  setMath($('dp-paths-caption'), fill(C.paths, { paths: paths ? C.pathsShown : C.pathsNot }));
  setMath($('dp-sv-caption'), C.sv);
}
