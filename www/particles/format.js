// How the particle lab writes times and metric values in its status line and tooltips.

import { fmt } from '../ui/format.js';

/** Decimals needed to show multiples of dt exactly as typed (dt = 0.05 -> 2). */
function decimalsOf(dt) {
  const s = String(dt);
  const m = /e-(\d+)$/.exec(s);
  if (m) return Math.min(12, Number(m[1]) + (s.split('e')[0].split('.')[1]?.length ?? 0));
  return Math.min(12, s.split('.')[1]?.length ?? 0);
}

/** Time `t` with the decimals of `dt`. */
export function fmtT(t, dt) {
  return t.toFixed(decimalsOf(dt));
}

/** A metric value for text: a few significant digits. */
export const fmtValue = (v) => fmt(v, 'n/a');
