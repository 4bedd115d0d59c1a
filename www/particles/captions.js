// The particle lab's captions: the run's description and, under each panel, the equations it
// shows for this model and coordinates, the view (projection, colours) and the heatmap's scale.
// Every sentence is in CAPTIONS (`$name`: a value filled in), which tests/e2e/claims.json lists.

import { fill, setMath } from '../ui/math.js';
import { $, app, ui } from './state.js';

/** The captions' sentences, by name. */
export const CAPTIONS = {
  eqEuclidean: 'dxᵢ/dt = Σⱼ Pᵢⱼ V xⱼ, Pᵢⱼ = softmaxⱼ(β⟨Q xᵢ, K xⱼ⟩).',
  shownZ: ' Shown: the rescaled tokens zᵢ = e⁻ᵗⱽ xᵢ, which obey dzᵢ/dt = Σⱼ Pᵢⱼ V (zⱼ − zᵢ).',
  shownX: ' Shown: the raw tokens xᵢ (the view grows with them and never zooms in past their start, so shrinking tokens are seen shrinking).',
  eqSphereSa: 'On the unit sphere (SA): dxᵢ/dt = Πₓᵢ(Σⱼ Pᵢⱼ V xⱼ), Πₓ(y) = y − ⟨x, y⟩ x, Pᵢⱼ = softmaxⱼ(β⟨Q xᵢ, K xⱼ⟩).',
  eqSphereUsa: 'On the unit sphere (USA): dxᵢ/dt = Πₓᵢ(Σⱼ Wᵢⱼ V xⱼ), Wᵢⱼ = e^{β⟨Q xᵢ, K xⱼ⟩} / n (rows do not sum to 1).',
  view1d: ' d = 1: each token’s position against time.',
  viewAxes: ' d = $d: two coordinates shown.',
  viewPca: ' d = $d: projected on principal axes fixed at reset.',
  view3d: ' Drag to rotate.',
  colourIndex: 'Colour: token index (viridis, token 0 dark)',
  colourPlain: 'Colour: one for all tokens',
  colourClusters: 'Colour: clusters, each keeping its colour over the run (grey: alone)',
  rings: '; ring: leaders (a column of P with an entry > ½).',
  heatUsa: 'Shows W row-normalised: Wᵢⱼ / Σₖ Wᵢₖ, which equals softmaxⱼ(β⟨Q xᵢ, K xⱼ⟩).',
  heatP: 'Pᵢⱼ = softmaxⱼ(β⟨Q xᵢ, K xⱼ⟩): row i is the query token, column j the key token; rows sum to 1.',
  heatOne: ' Colour: viridis on the fixed scale 0 to 1 (a uniform P is dark, 1/n). Hover for the exact value.',
  heatMax: ' Colour: viridis from 0 to max P (the largest entry is yellow, whatever its size). Hover for the exact value.',
  orderCluster: ' Rows and columns ordered by cluster (largest first, tokens alone last; lines between clusters), so a clustered P shows diagonal blocks.',
  orderLeader: ' Rows and columns ordered by leader (each row\'s largest entry; the leader first, lines between groups), so a Boolean P shows one full column per group.',
  orderIndex: ' Rows and columns in token order.',
  heatBlock: ' Each pixel shows the largest entry of a $block × $block block.',
  energyDefined: 'Energy E_{β} = 1/(2βn²) Σᵢⱼ e^{β⟨xᵢ, xⱼ⟩}, which the flow increases.',
  energyUndefined: 'Energy: defined for sphere models with Q = K = V = I.',
  referenceDrawn: 'the larger of the initial and the current spread, the extent the view spans: 4 CSS px on the default plot at the default cluster_tol',
  referenceInitial: 'the spread of the initial tokens',
  hyperplanes: 'Hyperplanes (drawn instead of clusters): groups of ⟨ψ₁, zᵢ⟩ by single linkage at cluster_tol × their range, ψ₁ the left eigenvector of V for its top eigenvalue; the theorem allows 1 to 3. ',
  chart: 'Clusters: single-linkage groups (distance < cluster_tol × $reference) in $coords. Boolean distance: max |Pᵢⱼ − round Pᵢⱼ| (log scale; 0 drawn at 10⁻¹⁶). Effective rank of P: exp of the entropy of its normalised singular values. $energy Hover for values.',
};

/** Panel captions with the equations the panels show. */
export function refreshText() {
  const s = app.stepper;
  const C = CAPTIONS;
  $('description').textContent = s.description();
  const model = s.model();
  const coords = s.coords();
  const d = s.d();
  let eq;
  if (model === 'euclidean') eq = C.eqEuclidean + (coords === 'z' ? C.shownZ : C.shownX);
  else eq = model === 'sphere-sa' ? C.eqSphereSa : C.eqSphereUsa;
  let view = '';
  if (d === 1) view = C.view1d;
  else if (d > 3) view = fill(app.projection.mode === 'axes' ? C.viewAxes : C.viewPca, { d });
  else if (d === 3) view = C.view3d;
  const colour = ui.tokens.colour === 'index' ? C.colourIndex : ui.tokens.colour === 'plain' ? C.colourPlain : C.colourClusters;
  setMath($('tokens-caption'), `${eq}${view} ${colour}${C.rings}`);
  $('tokens-legend').hidden = ui.tokens.colour !== 'clusters';

  const block = s.heatmap_block(512);
  let heat = model === 'sphere-usa' ? C.heatUsa : C.heatP;
  heat += ui.heatmap.scale === 'one' ? C.heatOne : C.heatMax;
  const order = ui.heatmap.order;
  heat += order === 'cluster' ? C.orderCluster : order === 'leader' ? C.orderLeader : C.orderIndex;
  if (block > 1) heat += fill(C.heatBlock, { block });
  $('heatmap-caption').textContent = heat;

  // Where psi1 is defined the first panel counts hyperplanes (the theorem's count), not clusters.
  const hyper = s.psi1() !== null ? C.hyperplanes : '';
  const reference = s.clusters_as_drawn() ? C.referenceDrawn : C.referenceInitial;
  setMath($('chart-caption'), hyper + fill(C.chart, { reference, coords, energy: s.energy_defined() ? C.energyDefined : C.energyUndefined }));
}
