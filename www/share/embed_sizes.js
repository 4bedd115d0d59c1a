// The sizes offered for an embedded view (Copy embed code) and the snippet for each: a fixed
// iframe of a preset's size, or a responsive one (`width: 100%` with the aspect ratio of 640 x
// 420). Each size has the panels that fit it by default; a lab whose panels the user chose in
// the page embeds those instead. Frames narrower than 480 px stack their panels (share.css).

/**
 * The size presets: id, CSS size, and the particle lab's panels that fit it (`byLab`: another
 * lab's; other labs: their first panels, as many as `fit`). The model lab's picture is its grid
 * of heads with the chosen head enlarged.
 */
export const EMBED_SIZES = [
  { id: '640x420', width: 640, height: 420, fit: 2, panels: ['tokens', 'chart'], byLab: { model: ['grid'] }, label: '640 × 420: tokens and chart' },
  { id: '360x480', width: 360, height: 480, fit: 1, panels: ['tokens'], byLab: { model: ['grid'] }, label: '360 × 480 (phone): tokens' },
  { id: '900x560', width: 900, height: 560, fit: 3, panels: ['tokens', 'heatmap', 'chart'], byLab: { model: ['tokens', 'grid'] }, label: '900 × 560: all three panels' },
  { id: 'responsive', width: 640, height: 420, fit: 2, panels: ['tokens', 'chart'], byLab: { model: ['grid'] }, responsive: true, label: 'responsive: width 100%, 640 : 420' },
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
  const own = (size.byLab?.[lab] ?? size.panels).filter((p) => names.includes(p));
  return own.length ? own : names.slice(0, size.fit);
}

/** `s` escaped for an HTML attribute value in double quotes. */
function attr(s) {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

/** The `<iframe>` snippet of `url` at `size` (fixed width and height, or responsive). */
export function embedSnippet(url, size) {
  const common = `title="Attention Dynamics Playground" loading="lazy"`;
  if (size.responsive) {
    return `<iframe src="${attr(url)}" style="width:100%;aspect-ratio:${size.width}/${size.height};border:0" ${common}></iframe>`;
  }
  return `<iframe src="${attr(url)}" width="${size.width}" height="${size.height}" style="border:0" ${common}></iframe>`;
}
