// §1.3's hyperplanes overlay for the chosen head's particles: each token's ⟨ψ₁, x_i⟩ at the
// moment shown (ψ₁ the unit left eigenvector of V_h's top eigenvalue, ModelLab.head_dynamics's
// `psi`), placed on one axis scaled to that moment's range (x grows like e^{λ₁t}; the rescaled
// z = e^{−λ₁t}·… has the same picture), coloured as the tokens are. Where §1.3's row applies the
// values gather into a few groups (the hyperplanes ⟨ψ₁, z⟩ = c); the sample's count of groups
// (§1.7's `hyperplanes`) is named beside it. Nothing is computed here but the scale.

import { clearCanvas, clusterStyle, drawLabel, setLabels } from '../render/palette.js';

/**
 * Draws `values` (n, one per token) on `canvas`, tokens coloured by `slots` (NO_SLOT: neutral);
 * `groups` the sample's hyperplane count. Returns false (nothing drawn) when a value is not finite.
 */
export function drawPsiStrip(canvas, values, slots, groups) {
  const ctx = canvas.getContext('2d');
  const { w, h: H, th } = clearCanvas(canvas, ctx);
  const drawn = [];
  const n = values.length;
  if (n === 0 || !values.every(Number.isFinite)) {
    setLabels(canvas, { labels: drawn });
    return false;
  }
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const span = hi - lo || 1;
  const L = { left: 14, right: 14, top: 18, bottom: 16 };
  const pw = w - L.left - L.right;
  const y0 = L.top + (H - L.top - L.bottom) / 2;
  ctx.strokeStyle = th.border;
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(L.left, y0);
  ctx.lineTo(L.left + pw, y0);
  ctx.stroke();
  const { colours } = clusterStyle(slots, n);
  // Tokens in four rows around the axis, so equal values stay visible as a stack.
  for (let i = 0; i < n; i++) {
    const x = L.left + ((values[i] - lo) / span) * pw;
    const y = y0 + ((i % 4) - 1.5) * 5;
    ctx.fillStyle = colours[i];
    ctx.strokeStyle = th.fg;
    ctx.lineWidth = 0.5;
    ctx.beginPath();
    ctx.arc(x, y, 3.2, 0, 2 * Math.PI);
    ctx.fill();
    ctx.stroke();
  }
  ctx.font = '11px system-ui, sans-serif';
  ctx.fillStyle = th.muted;
  ctx.textBaseline = 'top';
  ctx.textAlign = 'left';
  // The ends with the digits that tell them apart (x grows like e^{λ₁t}: the values can be
  // large and close).
  let digits = 3;
  while (digits < 12 && lo.toPrecision(digits) === hi.toPrecision(digits)) digits += 1;
  drawLabel(ctx, lo.toPrecision(digits), L.left, H - L.bottom + 3, drawn);
  ctx.textAlign = 'right';
  drawLabel(ctx, hi.toPrecision(digits), L.left + pw, H - L.bottom + 3, drawn);
  ctx.textBaseline = 'bottom';
  ctx.textAlign = 'left';
  ctx.fillStyle = th.fg;
  drawLabel(ctx, `⟨ψ₁, x_i⟩: ${groups} group${groups === 1 ? '' : 's'} (§1.3's hyperplanes ⟨ψ₁, z⟩ = c)`, L.left, L.top - 3, drawn);
  // How wide the range is against the values' size: groups within a range of 1e-8 of |⟨ψ₁, x_i⟩|
  // are one hyperplane to the eye, though the range-relative rule (§1.7) counts them apart.
  const size = Math.max(Math.abs(lo), Math.abs(hi));
  if (size > 0) {
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    ctx.fillStyle = th.muted;
    drawLabel(ctx, `range ${((hi - lo) / size).toExponential(1)} × max |value|`, L.left + pw / 2, H - L.bottom + 3, drawn);
  }
  setLabels(canvas, { labels: drawn });
  return true;
}
