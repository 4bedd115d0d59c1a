// The particle lab's captions: the run's description and, under each panel, the equations it
// shows for this model and coordinates, the view (projection, colours) and the heatmap's scale.

import { setMath } from '../ui/math.js';
import { $, app, ui } from './state.js';

/** Panel captions with the equations the panels show. */
export function refreshText() {
  const s = app.stepper;
  $('description').textContent = s.description();
  const model = s.model();
  const coords = s.coords();
  const d = s.d();
  let eq;
  if (model === 'euclidean') {
    eq = 'dxᵢ/dt = Σⱼ Pᵢⱼ V xⱼ, Pᵢⱼ = softmaxⱼ(β⟨Q xᵢ, K xⱼ⟩).';
    eq += coords === 'z'
      ? ' Shown: the rescaled tokens zᵢ = e⁻ᵗⱽ xᵢ, which obey dzᵢ/dt = Σⱼ Pᵢⱼ V (zⱼ − zᵢ).'
      : ' Shown: the raw tokens xᵢ (autoscaled as they grow or shrink).';
  } else if (model === 'sphere-sa') {
    eq = 'On the unit sphere (SA): dxᵢ/dt = Πₓᵢ(Σⱼ Pᵢⱼ V xⱼ), Πₓ(y) = y − ⟨x, y⟩ x, Pᵢⱼ = softmaxⱼ(β⟨Q xᵢ, K xⱼ⟩).';
  } else {
    eq = 'On the unit sphere (USA): dxᵢ/dt = Πₓᵢ(Σⱼ Wᵢⱼ V xⱼ), Wᵢⱼ = e^{β⟨Q xᵢ, K xⱼ⟩} / n (rows do not sum to 1).';
  }
  let view = '';
  if (d === 1) view = ' d = 1: each token’s position against time.';
  else if (d > 3) {
    view = app.projection.mode === 'axes'
      ? ` d = ${d}: two coordinates shown.`
      : ` d = ${d}: projected on principal axes fixed at reset.`;
  } else if (d === 3) view = ' Drag to rotate.';
  const colour = ui.tokens.colour === 'index'
    ? 'Colour: token index (viridis, token 0 dark)'
    : ui.tokens.colour === 'plain' ? 'Colour: one for all tokens' : 'Colour: clusters, each keeping its colour over the run (grey: alone)';
  setMath($('tokens-caption'), `${eq}${view} ${colour}; ring: leaders (a column of P with an entry > ½).`);
  $('tokens-legend').hidden = ui.tokens.colour !== 'clusters';

  const block = s.heatmap_block(512);
  let heat = model === 'sphere-usa'
    ? 'Shows W row-normalised: Wᵢⱼ / Σₖ Wᵢₖ, which equals softmaxⱼ(β⟨Q xᵢ, K xⱼ⟩).'
    : 'Pᵢⱼ = softmaxⱼ(β⟨Q xᵢ, K xⱼ⟩): row i is the query token, column j the key token; rows sum to 1.';
  heat += ui.heatmap.scale === 'one'
    ? ' Colour: viridis on the fixed scale 0 to 1 (a uniform P is dark, 1/n). Hover for the exact value.'
    : ' Colour: viridis from 0 to max P (the largest entry is yellow, whatever its size). Hover for the exact value.';
  const order = ui.heatmap.order;
  heat += order === 'cluster'
    ? ' Rows and columns ordered by cluster (largest first, tokens alone last; lines between clusters), so a clustered P shows diagonal blocks.'
    : order === 'leader'
      ? ' Rows and columns ordered by leader (each row\'s largest entry; the leader first, lines between groups), so a Boolean P shows one full column per group.'
      : ' Rows and columns in token order.';
  if (block > 1) heat += ` Each pixel shows the largest entry of a ${block} × ${block} block.`;
  $('heatmap-caption').textContent = heat;

  const energy = s.energy_defined()
    ? 'Energy E_{β} = 1/(2βn²) Σᵢⱼ e^{β⟨xᵢ, xⱼ⟩}, which the flow increases.'
    : 'Energy: defined for sphere models with Q = K = V = I.';
  // Where psi1 is defined the first panel counts hyperplanes (the theorem's count), not clusters.
  const hyper = s.psi1() !== null
    ? 'Hyperplanes (drawn instead of clusters): groups of ⟨ψ₁, zᵢ⟩ by single linkage at cluster_tol × their range, ψ₁ the left eigenvector of V for its top eigenvalue; the theorem allows 1 to 3. '
    : '';
  setMath($('chart-caption'), `${hyper}Clusters: single-linkage groups (distance < cluster_tol × the spread of the initial tokens) in ${coords}. Boolean distance: max |Pᵢⱼ − round Pᵢⱼ| (log scale; 0 drawn at 10⁻¹⁶). Effective rank of P: exp of the entropy of its normalised singular values. ${energy} Hover for values.`);
}
