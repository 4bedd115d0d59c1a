// The share bar of a lab whose link carries the page's view keys (the particle lab's status
// area): Copy link (the page's URL with the lab's link, optionally `step=` of the moment shown),
// Copy embed code (an `<iframe>` snippet of the same link with `embed=1`, at the size chosen
// next to it, with the panels that fit that size or those the user ticked: embed_sizes.js),
// the panels shown and the theme. The clipboard API is used when allowed; otherwise the
// read-only field is selected for the user to copy.

import { copyText } from '../ui/clipboard.js';
import { pageUrl } from '../lab/address_bar.js';
import { embedPanels, embedSize, embedSnippet } from './embed_sizes.js';

const $ = (id) => document.getElementById(id);

/**
 * Wires the share bar in `lab`'s markup.
 * @param {import('./page_view.js').PageView} page
 * @param {object} lab the lab (lab/labs.js)
 * @param {{ linkChanged: (how: string) => void, redraw: () => void }} h what a change does
 */
export function setupShareBar(page, lab, h) {
  // ---- panels and theme -------------------------------------------------------------------

  const names = Object.keys(lab.panels);
  const toggles = [...lab.root.querySelectorAll('[data-panel-toggle]')];
  const shownPanels = () => toggles.filter((t) => t.checked).map((t) => t.dataset.panelToggle);
  for (const t of toggles) {
    t.addEventListener('change', () => {
      if (shownPanels().length === 0) t.checked = true; // at least one panel
      const shown = shownPanels();
      page.setPanels(lab, shown.length === names.length ? null : shown);
      h.redraw();
      h.linkChanged('push');
    });
  }
  const themeSelect = $('theme');
  themeSelect.addEventListener('change', () => {
    page.setTheme(themeSelect.value);
    h.linkChanged('push');
  });
  // A link's theme and panels (page_view.js route) show here.
  page.onChange = () => {
    themeSelect.value = page.theme;
    for (const t of toggles) t.checked = page.panels === null || page.panels.includes(t.dataset.panelToggle);
  };

  // ---- copying ----------------------------------------------------------------------------

  const out = $('share-out');
  const field = $('share-text');
  const status = $('share-status');

  /** The moment to put in a copied link: the current step when "at this moment" is ticked. */
  function copiedMoment() {
    if (!$('share-moment').checked) return null;
    const st = lab.state();
    if (!st) return null;
    const last = Math.round(st.until / st.dt);
    if (st.step > last) {
      status.textContent = `Step ${st.step} is past until (step ${last}): the link opens at the start.`;
      return null;
    }
    return ['step', String(st.step)];
  }

  /** Shows `text` in the read-only field and copies it (ui/clipboard.js). */
  async function copy(label, text, what) {
    $('share-text-label').textContent = label;
    out.hidden = false;
    // A note written while the link was made (e.g. "past until") stays in front of the result.
    const note = status.textContent ? `${status.textContent} ` : '';
    status.textContent = '';
    status.textContent = note + (await copyText(field, text, what));
  }

  $('copy-link').addEventListener('click', () => {
    status.textContent = '';
    const moment = copiedMoment();
    copy('Link', `${pageUrl()}#${page.linkOf(lab, { moment })}`, 'Link');
  });
  $('copy-embed').addEventListener('click', () => {
    status.textContent = '';
    const moment = copiedMoment();
    const size = embedSize($('embed-size').value);
    const panels = embedPanels(size, names, page.panels);
    const extra = [['embed', '1']];
    if (panels.length < names.length) extra.push(['panels', panels.join(',')]);
    const drop = ['controls', ...(panels.length < names.length ? [] : ['panels'])];
    const link = page.linkOf(lab, { moment, extra, drop });
    copy('Embed code', embedSnippet(`${pageUrl()}#${link}`, size), 'Embed code');
  });
  field.addEventListener('focus', () => field.select());
}
