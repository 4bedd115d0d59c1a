// The share bar of every lab: Copy link (the page's URL with the lab's link; in the particle
// lab optionally `step=` of the moment shown), Copy embed code (a snippet of the same link with
// `embed=1`, at the size chosen next to it, with the panels that fit that size or those the user
// ticked: embed_sizes.js), the theme (of the page, and of the embed it copies) and whether the
// embed's background lets the host page show through (`bg=transparent`). The particle lab adds
// "at this moment" and its panels' switches. The clipboard API is used when allowed; otherwise
// the read-only field is selected for the user to copy.
//
// Every lab's bar has the same parts; their ids carry the lab's prefix ('' for the particle
// lab, `tr-`, `dp-`, `md-`), so the four bars can live in one page.

import { copyText } from '../ui/clipboard.js';
import { pageUrl } from '../lab/address_bar.js';
import { h, options } from '../ui/dom.js';
import { EMBED_SIZES, embedPanels, embedSize, embedSnippet } from './embed_sizes.js';

/**
 * The bar's row (buttons, size, theme, background; `extra` nodes before the theme) and the
 * read-only field a copy shows in.
 * @param {string} p the ids' prefix
 * @param {{ what: string, extra?: Node[] }} o `what`: what the buttons copy, in their titles
 */
export function shareParts(p, { what, extra = [] }) {
  const row = h('div.share-row', { role: 'group', 'aria-label': `Share this ${what}` },
    h(`button#${p}copy-link`, { type: 'button', title: `Copy a link to this ${what} and view (the address bar holds it too)` }, 'Copy link'),
    h(`button#${p}copy-embed`, { type: 'button', title: `Copy an HTML snippet that embeds this ${what} in a web page: the panels that fit the size chosen` }, 'Copy embed code'),
    h('label.share-size', { title: 'Size of the embedded frame; "fits the column": as wide as the text column, in the lab\'s shape, with as many panels as fit' }, 'size ',
      h(`select#${p}embed-size`, {}, options(EMBED_SIZES.map((s) => [s.id, s.label])))),
    ...extra,
    h('label.share-theme', { title: 'Colour theme of the page and of the embed code (auto: the reader\'s system)' }, 'theme ',
      h(`select#${p}theme`, {}, options(['auto', 'light', 'dark']))),
    h('label.share-check', { title: 'The embedded page has no background of its own: the host page shows through' },
      h(`input#${p}embed-bg`, { type: 'checkbox', checked: true }), ' see-through embed'),
  );
  const out = h(`div#${p}share-out.share-out`, { hidden: true },
    h(`label#${p}share-text-label`, { for: `${p}share-text` }, 'Link'),
    h(`input#${p}share-text`, { type: 'text', readonly: true, spellcheck: 'false' }),
    h(`span#${p}share-status.hint`, { role: 'status' }),
  );
  return { row, out };
}

/**
 * Wires the share bar whose ids start with `p` in `lab`'s markup.
 * @param {import('./page_view.js').PageView} page
 * @param {object} lab the lab (lab/labs.js)
 * @param {{ linkChanged: (how: string) => void, redraw?: () => void }} hooks what a change does
 * @param {string} [p] the ids' prefix
 */
export function setupShareBar(page, lab, hooks, p = '') {
  const $ = (id) => lab.root.querySelector(`#${p}${id}`);
  // ---- panels and theme -------------------------------------------------------------------

  const names = Object.keys(lab.panels);
  const toggles = [...lab.root.querySelectorAll('[data-panel-toggle]')];
  const shownPanels = () => toggles.filter((t) => t.checked).map((t) => t.dataset.panelToggle);
  for (const t of toggles) {
    t.addEventListener('change', () => {
      if (shownPanels().length === 0) t.checked = true; // at least one panel
      const shown = shownPanels();
      page.setPanels(lab, shown.length === names.length ? null : shown);
      hooks.redraw?.();
      hooks.linkChanged('push');
    });
  }
  const themeSelect = $('theme');
  themeSelect.addEventListener('change', () => {
    page.setTheme(themeSelect.value);
    if (lab.pageViewInLink) hooks.linkChanged('push');
  });
  // A link's theme and panels (page_view.js route) show here.
  page.watch(() => {
    themeSelect.value = page.theme;
    for (const t of toggles) t.checked = page.panels === null || page.panels.includes(t.dataset.panelToggle);
  });

  // ---- copying ----------------------------------------------------------------------------

  const out = $('share-out');
  const field = $('share-text');
  const status = $('share-status');
  const momentBox = p === '' ? $('share-moment') : null;

  /** The moment to put in a copied link: the current step when "at this moment" is ticked. */
  function copiedMoment() {
    if (!momentBox?.checked) return null;
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
    field.hidden = false;
    // A note written while the link was made (e.g. "past until") stays in front of the result.
    const note = status.textContent ? `${status.textContent} ` : '';
    status.textContent = '';
    status.textContent = note + (await copyText(field, text, what));
  }

  $('copy-link').addEventListener('click', () => {
    if (!lab.canonical()) return;
    status.textContent = '';
    const moment = copiedMoment();
    copy('Link', `${pageUrl()}#${page.linkOf(lab, { moment })}`, 'Link');
  });
  $('copy-embed').addEventListener('click', () => {
    if (!lab.canonical()) return;
    status.textContent = '';
    const moment = copiedMoment();
    const size = embedSize($('embed-size').value);
    const panels = embedPanels(size, names, lab.pageViewInLink ? page.panels : null, lab.id);
    const extra = [['embed', '1']];
    if (panels.length < names.length) extra.push(['panels', panels.join(',')]);
    if (page.theme !== 'auto') extra.push(['theme', page.theme]);
    if ($('embed-bg').checked) extra.push(['bg', 'transparent']);
    const drop = ['controls', ...(panels.length < names.length ? [] : ['panels'])];
    const link = page.linkOf(lab, { moment, extra, drop });
    copy('Embed code', embedSnippet(`${pageUrl()}#${link}`, size, lab.id), 'Embed code');
  });
  field.addEventListener('focus', () => field.select());
}

/**
 * Builds the share bar (ids prefixed `p`) at the end of `lab`'s status area and wires it: the
 * bar of the labs whose markup does not place it themselves.
 * @param {string} what what the buttons copy ("training run", "analysis", ...)
 */
export function mountShareBar(page, lab, hooks, p, what) {
  const { row, out } = shareParts(p, { what });
  lab.root.querySelector('.status-area').append(h(`div#${p}share-bar.share-bar`, {}, row, out));
  setupShareBar(page, lab, hooks, p);
}
