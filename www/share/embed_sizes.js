// The sizes offered for an embedded view (Copy embed code) and the snippet for each. The first,
// `column`, is the default: a script-free, responsive snippet (blog hosts strip scripts) whose
// wrapper keeps the lab's aspect ratio (COLUMN below) and holds the iframe at 100 % of its
// width, so the frame is as wide as the text column it is pasted in; the page inside shows as
// many of the snippet's panels as fit that width (share.css, "embed-fit"). The fixed sizes and the older `responsive` (width 100 %, 640 : 420) stay available. Each size
// has the panels that fit it by default; a lab whose panels the user chose in the page embeds
// those instead.

/**
 * Each lab's shape in a text column, as width : height, and the panels it names (the first is
 * the one kept at the narrowest widths). Taller than wide because a column is narrow: at 300 px
 * the picture still needs its square (or the chart its height) under a caption that wraps to
 * two or three lines and a row of controls; from 560 px on, the second panel fits under it.
 */
export const COLUMN = {
  particles: { ratio: [3, 4], panels: ['tokens', 'chart'] },
  training: { ratio: [4, 5], panels: ['heatmap', 'chart'] },
  depth: { ratio: [4, 5], panels: ['residual', 'similarity'] },
  model: { ratio: [4, 5], panels: ['grid'] },
};

/**
 * The size presets: id, CSS size, and the particle lab's panels that fit it (`byLab`: another
 * lab's; other labs: their first panels, as many as `fit`). The model lab's picture is its grid
 * of heads with the chosen head enlarged.
 */
export const EMBED_SIZES = [
  { id: 'column', column: true, label: 'fits the column (responsive)' },
  { id: '640x420', width: 640, height: 420, fit: 2, panels: ['tokens', 'chart'], byLab: { model: ['grid'] }, label: '640 × 420: tokens and chart' },
  { id: '360x480', width: 360, height: 480, fit: 1, panels: ['tokens'], byLab: { model: ['grid'] }, label: '360 × 480 (phone): tokens' },
  { id: '900x560', width: 900, height: 560, fit: 3, panels: ['tokens', 'heatmap', 'chart'], byLab: { model: ['tokens', 'grid'] }, label: '900 × 560: all three panels' },
  { id: 'responsive', width: 640, height: 420, fit: 2, panels: ['tokens', 'chart'], byLab: { model: ['grid'] }, responsive: true, label: 'width 100%, 640 : 420' },
];

/** The size preset `id` (the first one for an unknown id). */
export function embedSize(id) {
  return EMBED_SIZES.find((s) => s.id === id) ?? EMBED_SIZES[0];
}

/**
 * The panels an embed of `size` shows: `chosen` (the panels the user ticked in the page) when
 * set, else the size's own panels (for lab `lab` when it has its own) among the lab's `names`.
 * @param {string[]} names every panel of the lab, in order
 * @param {string[]|null} chosen
 * @param {string} [lab] the lab's id
 */
export function embedPanels(size, names, chosen, lab = '') {
  if (chosen && chosen.length) return chosen;
  const mine = size.column ? COLUMN[lab]?.panels : size.byLab?.[lab] ?? size.panels;
  const own = (mine ?? []).filter((p) => names.includes(p));
  return own.length ? own : names.slice(0, size.fit ?? 1);
}

/** `s` escaped for an HTML attribute value in double quotes. */
function attr(s) {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

const TITLE = 'title="Attention Dynamics Playground"';

/**
 * The `<iframe>` snippet of `url` at `size` (fixed width and height, responsive, or the column
 * snippet with lab `lab`'s aspect ratio).
 */
export function embedSnippet(url, size, lab = '') {
  const common = `${TITLE} loading="lazy"`;
  if (size.column) {
    const [w, h] = (COLUMN[lab] ?? COLUMN.particles).ratio;
    const frame = `<iframe src="${attr(url)}" style="position:absolute;top:0;left:0;width:100%;height:100%;border:0" ${common}></iframe>`;
    return `<div style="position:relative;width:100%;aspect-ratio:${w}/${h}">${frame}</div>`;
  }
  if (size.responsive) {
    return `<iframe src="${attr(url)}" style="width:100%;aspect-ratio:${size.width}/${size.height};border:0" ${common}></iframe>`;
  }
  return `<iframe src="${attr(url)}" width="${size.width}" height="${size.height}" style="border:0" ${common}></iframe>`;
}
