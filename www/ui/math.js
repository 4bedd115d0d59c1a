// Maths in captions without MathJax (the Content-Security-Policy allows no inline script or
// style): `_{…}` becomes a <sub>, `^{…}` a <sup>, everything else stays text. Captions write
// subscripts and superscripts that Unicode lacks this way (c_{l|n}, η_{Y}, e^{Z[m,l]}); the
// rest uses Unicode (ψ₁, Qᵀ, ‖X‖, 10⁻¹⁶). Key names such as snap_tol are left as typed.

/**
 * The nodes of `text` with `_{…}` and `^{…}` turned into <sub> and <sup> (one level; the braces'
 * content is text).
 * @param {string} text
 * @returns {(string|HTMLElement)[]}
 */
export function mathNodes(text) {
  const out = [];
  const re = /([_^])\{([^{}]*)\}/g;
  let at = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > at) out.push(text.slice(at, m.index));
    const el = document.createElement(m[1] === '_' ? 'sub' : 'sup');
    el.textContent = m[2];
    out.push(el);
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/** Sets `el`'s content to `text` with its maths rendered (mathNodes). */
export function setMath(el, text) {
  el.replaceChildren(...mathNodes(text));
}

/**
 * `template` with each `$name` replaced by `values[name]` (a name is letters and digits; an
 * unknown name stays as written). The labs' caption tables write their sentences this way, so
 * the sentences are listed once (tests/e2e/claims.json) whatever values fill them.
 */
export function fill(template, values) {
  return template.replace(/\$([A-Za-z][A-Za-z0-9]*)/g, (m, name) => (name in values ? String(values[name]) : m));
}
