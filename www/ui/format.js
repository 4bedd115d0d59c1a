// Number formatting shared by the labs' readouts, tooltips and tick labels.

/** `v` with at most `p` significant digits, trailing zeros dropped ("0.1235", "12"). */
export function significant(v, p = 4) {
  return String(Number(v.toPrecision(p)));
}

/** A number for text: a few significant digits, exponent form for huge or tiny values. */
export function fmt(v, missing = '–') {
  if (v === null || v === undefined || Number.isNaN(v)) return missing;
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a < 1e-3 || a >= 1e5) return v.toExponential(2);
  return significant(v);
}
