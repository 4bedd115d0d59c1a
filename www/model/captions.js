// The model lab's panel captions. Every sentence is in CAPTIONS (`$name`: a value filled in),
// which tests/e2e/claims.json lists.

import { fill } from '../ui/math.js';

/** The captions' sentences, by name. */
export const CAPTIONS = {
  lede: 'Type a sentence; click a tile to enlarge a head.',
  grid: '$n tokens, $layers layers × $heads heads. $span Click a head to enlarge it (layer $layer, head $head shown).',
  gridShared: 'Attention tiles span 0 to the largest weight of any head; similarity tiles the off-diagonal range of all heads (shared scale).',
  gridHead: 'Attention tiles span 0 to each head\'s largest weight; similarity tiles each head\'s off-diagonal range (per-head scale).',
  resNote: 'The depth lab\'s SAN+MLP has no skip at all; here SAN+MLP removes only the attention\'s skip, as in Dong et al.\'s BERT surgery.',
  res: 'At layer $layers: $values. Layer 0 is the embeddings after their LayerNorm.',
  noValue: 'no value (overflow at layer $layer)',
  hist: 'High-similarity pairs: the top 2% of each head\'s S (quantile 0.98, as the depth lab\'s context-text); each ridge adds the layer\'s heads.',
  same: 'Same-sentence share by layer: $shares; by chance $chance.',
  spectrum: 'V_h = W_o W_v moves the tokens, dx_i/dt = Σ_j P_ij V_h x_j; S_h = (W_qᵀW_k + W_kᵀW_q) / (2√d_k) scores them. All d_model eigenvalues come from the d_k × d_k and 2d_k × 2d_k blocks; the rest are exactly 0. The verdict reads §1.3 of the clusters paper (Geshkovski et al. 2023) on these matrices.',
  dynamics: 'The head alone as §1\'s particle system, its trained weights constant in time: the tokens start at h_{L−1} (the input of layer L in the unmodified forward) and move by forward Euler (dt = 0.01, to t = 10) with P_ij = softmax_j(x_iᵀ S_h x_j), β = 1 (the key bilinear=raw scores with B_h instead). Tokens: two PCA axes fitted on every sample of the run; colour: clusters (1 − cos ≤ cos_tol; grey: a token alone); ringed: leaders. P: rows are the query tokens, viridis on 0 to 1. Where §1.3\'s hyperplanes row applies, a strip shows each token\'s ⟨ψ₁, x_i⟩ on its range: its groups are the hyperplanes. The Boolean distance max|P − round P| falls to 0 when P becomes 0/1 (§1.7). The numbers are attn encode --head-dynamics L,H\'s.',
  dynamicsWaiting: 'The particles of this head run after the analysis (about 1000 Euler steps)…',
  dynamicsRunning: 'The particles of this head are running: Euler step $step of $steps…',
  dynamicsStopped: 'The run stopped at Euler step $step: $what.',
  verdictNotReal: 'λ₁ = $lambda is not real (imaginary part $im): the hyperplanes row needs a real, positive, simple λ₁.',
  verdictNotPositive: 'λ₁ = $lambda is not positive: the hyperplanes row needs a real, positive, simple λ₁.',
  verdictNotSimple: 'λ₁ = $lambda is not simple (another eigenvalue within 1e-9 |λ₁| of its modulus): the hyperplanes row needs it simple.',
  verdictApplies: 'λ₁ = $lambda is real, positive and simple and φ₁ᵀS_hφ₁ = $phi > 0: the hyperplanes row applies, the rescaled tokens end on at most 3 parallel hyperplanes with normal ψ₁.',
  verdictFails: 'λ₁ = $lambda is real, positive and simple, but φ₁ᵀS_hφ₁ = $phi ≤ 0: the hyperplanes row\'s condition fails by $by.',
  verdictRank: 'And rank S_h ≤ 2d_k = $rank < d_model = $d, so "QᵀK positive definite" (the V = I and V = −I rows) never holds for a trained head.',
};

const $ = (id) => document.getElementById(id);

/** Writes the captions of result `r` (the worker's analysis of a text). */
export function writeCaptions(r) {
  const C = CAPTIONS;
  const span = r.scale === 'shared' ? C.gridShared : C.gridHead;
  $('md-grid-caption').textContent = fill(C.grid, { n: r.n, layers: r.layers, heads: r.heads, span, layer: r.layer, head: r.head });
  // A value that is not finite (an f32 overflow; null or NaN from the worker) has no value: never
  // Number(null) = 0.
  const finite = (x) => typeof x === 'number' && Number.isFinite(x);
  const value = (v) => {
    const x = v.residual[v.residual.length - 1];
    if (finite(x)) return x.toPrecision(3);
    return fill(C.noValue, { layer: v.residual.findIndex((y) => !finite(y)) });
  };
  const values = r.variants.map((v) => `${v.variant} ${value(v)}`).join(', ');
  $('md-res-caption').textContent = fill(C.res, { layers: r.layers, values });
  $('md-hist-caption').textContent = C.hist;
  const shares = r.statistics.map((l) => (l.same_sentence === null ? '–' : l.same_sentence.toFixed(2)));
  $('md-same-caption').textContent = fill(C.same, { shares: shares.join(', '), chance: r.chance.toFixed(2) });
}
