// One way to read a canvas's values, for a mouse, a finger and a keyboard: the labs' readout tips
// (the heatmap's entry, the chart's sample, the grid's tile) follow a probe point in the canvas's
// CSS pixels.
// - Mouse and pen: the point follows the pointer; leaving the canvas hides the tip.
// - Touch: a tap places the point and the tip stays (a finger has no hover, and the browser's
//   `pointerleave` after the tap is ignored); a tap anywhere else hides it.
// - Keyboard: the canvas is in the tab order; focusing it places the point (at the last point, or
//   the centre), the arrow keys move it by one step (one cell, one sample), Home and End jump to the
//   first and last column, Enter picks (as a click would), Escape or leaving the canvas hides it.
// The lab's own handler gets a pointer-like `{ clientX, clientY }` in every case.

const probes = new Set();

/** Hides every touch-placed tip on a tap outside its canvas (one listener for the page). */
function onDocumentPointer(e) {
  for (const p of probes) {
    if (p.touched && !p.canvas.contains(e.target)) p.hide();
  }
}

/**
 * Makes `canvas` readable by mouse, touch and keyboard.
 * @param {HTMLElement} canvas
 * @param {{ report: (e: {clientX: number, clientY: number}) => void, hide: () => void,
 *   step?: () => ({dx: number, dy: number} | null), area?: () => ({x0: number, x1: number, y0: number, y1: number} | null),
 *   pick?: (e: {clientX: number, clientY: number}) => void, label?: string, cells?: boolean }} o
 *   `report` shows the readout at the point; `hide` removes it; `step` is one keyboard step in CSS
 *   px (default: 1/32 of the canvas each way); `area` the part of the canvas that has values
 *   (default: all of it; the keyboard's point stays inside); `pick` is what Enter does (default:
 *   nothing); `label` names the canvas for a screen reader; `cells`: the steps are a grid's
 *   cells, and the keyboard's point sits at a cell's centre.
 */
export function probe(canvas, o) {
  if (probes.size === 0) document.addEventListener('pointerdown', onDocumentPointer, true);
  const state = {
    canvas,
    touched: false,
    point: null, // { x, y } in CSS px from the canvas's top left
    hide() {
      state.touched = false;
      o.hide();
    },
  };
  probes.add(state);
  const at = (x, y) => {
    const r = canvas.getBoundingClientRect();
    return { clientX: r.left + x, clientY: r.top + y };
  };
  const local = (e) => {
    const r = canvas.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  canvas.addEventListener('pointermove', (e) => {
    if (e.pointerType === 'touch' && !state.touched) return;
    state.point = local(e);
    o.report(e);
  });
  canvas.addEventListener('pointerdown', (e) => {
    state.touched = e.pointerType === 'touch';
    state.point = local(e);
    o.report(e);
  });
  canvas.addEventListener('pointerleave', (e) => {
    if (e.pointerType === 'touch' || state.touched) return;
    o.hide();
  });

  if (!canvas.hasAttribute('tabindex')) canvas.tabIndex = 0;
  if (o.label && !canvas.hasAttribute('aria-label')) canvas.setAttribute('aria-label', `${o.label} (arrow keys read the values)`);
  const area = () => {
    const r = canvas.getBoundingClientRect();
    return (o.area && o.area()) || { x0: 0, x1: r.width, y0: 0, y1: r.height };
  };
  const clamp = (p) => {
    const a = area();
    return { x: Math.min(Math.max(p.x, a.x0 + 0.5), a.x1 - 0.5), y: Math.min(Math.max(p.y, a.y0 + 0.5), a.y1 - 0.5) };
  };
  const centre = () => {
    const a = area();
    return { x: (a.x0 + a.x1) / 2, y: (a.y0 + a.y1) / 2 };
  };
  // The keyboard's point sits at the centre of a step's cell (a heatmap's entry, a grid's tile),
  // so each arrow press moves exactly one cell.
  const snap = (p) => {
    const s = o.cells && o.step && o.step();
    if (!s) return p;
    const a = area();
    const at = (v, v0, d) => (d > 0 ? v0 + (Math.floor((v - v0) / d + 1e-6) + 0.5) * d : v);
    return { x: at(p.x, a.x0, s.dx), y: at(p.y, a.y0, s.dy) };
  };
  const show = () => {
    const p = clamp(snap(clamp(state.point)));
    state.point = p;
    o.report(at(p.x, p.y));
  };
  canvas.addEventListener('focus', () => {
    if (!canvas.matches(':focus-visible')) return;
    state.point = state.point ?? centre();
    show();
  });
  canvas.addEventListener('blur', () => {
    if (!state.touched) o.hide();
  });
  canvas.addEventListener('keydown', (e) => {
    const r = canvas.getBoundingClientRect();
    const s = (o.step && o.step()) || { dx: r.width / 32, dy: r.height / 32 };
    const p = state.point ?? centre();
    const a = area();
    const moves = {
      ArrowLeft: { x: p.x - s.dx, y: p.y },
      ArrowRight: { x: p.x + s.dx, y: p.y },
      ArrowUp: { x: p.x, y: p.y - s.dy },
      ArrowDown: { x: p.x, y: p.y + s.dy },
      Home: { x: a.x0, y: p.y },
      End: { x: a.x1, y: p.y },
    };
    if (moves[e.key]) {
      e.preventDefault();
      state.point = moves[e.key];
      show();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      state.hide();
    } else if (e.key === 'Enter' && o.pick) {
      e.preventDefault();
      o.pick(at(p.x, p.y));
    }
  });
  return state;
}
