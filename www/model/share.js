// The model lab's share row (its status area): Copy link and Copy embed code (an `<iframe>`
// snippet of the lab's link with `embed=1` and the panels that fit the size chosen:
// share/embed_sizes.js, the particle lab's sizes; for this lab the grid of heads with the chosen
// head enlarged). The link is the page's (share/page_view.js linkOf: the lab's canonical link,
// checked by the core). The clipboard API is used when allowed; otherwise the read-only field is
// selected for the user to copy.

import { copyText } from '../ui/clipboard.js';
import { pageUrl } from '../lab/address_bar.js';
import { EMBED_SIZES, embedPanels, embedSize, embedSnippet } from '../share/embed_sizes.js';
import { h, options } from '../ui/dom.js';

/**
 * Builds the share row at the end of the lab's status area and wires it.
 * @param {HTMLElement} root the lab's <main>
 * @param {import('../share/page_view.js').PageView} page
 * @param {object} lab the lab (lab/labs.js)
 */
export function setupModelShare(root, page, lab) {
  const field = h('input#md-share-text', { type: 'text', readonly: true, hidden: true, 'aria-label': 'Link or embed code to copy' });
  const status = h('span#md-share-status.hint', { role: 'status' });
  const size = h('select#md-embed-size', {}, options(EMBED_SIZES.map((s) => [s.id, s.label.replace(/:.*/, '')])));
  const row = h('div#md-share.share-row', { role: 'group', 'aria-label': 'Share this analysis' },
    h('button#md-copy-link', { type: 'button', title: 'Copy a link to this text, model and head' }, 'Copy link'),
    h('button#md-copy-embed', { type: 'button', title: 'Copy an iframe snippet that embeds the grid of heads, the chosen head enlarged' }, 'Copy embed code'),
    h('label.share-size', { title: 'Size of the embedded frame' }, 'size ', size),
    field, status);
  root.querySelector('.status-area').append(row);

  async function copy(text, what) {
    field.hidden = false;
    status.textContent = await copyText(field, text, what);
  }

  root.querySelector('#md-copy-link').addEventListener('click', () => {
    if (lab.canonical()) copy(`${pageUrl()}#${page.linkOf(lab, { moment: null })}`, 'Link');
  });
  root.querySelector('#md-copy-embed').addEventListener('click', () => {
    if (!lab.canonical()) return;
    const s = embedSize(size.value);
    const names = Object.keys(lab.panels);
    const panels = embedPanels(s, names, null, lab.id);
    const extra = [['embed', '1']];
    if (panels.length < names.length) extra.push(['panels', panels.join(',')]);
    const link = page.linkOf(lab, { moment: null, extra, drop: ['controls'] });
    copy(embedSnippet(`${pageUrl()}#${link}`, s), 'Embed code');
  });
}
