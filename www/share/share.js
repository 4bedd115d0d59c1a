// Sharing: the address bar follows the particle lab's state, and the share bar copies it.
//
// The hash holds the link: `version=V`, the configuration, then the view keys (the core's
// `check_link` writes it in canonical order). A committed change (a field's change event, a
// preset, reset, new seed, a view switch) pushes a history entry; dragging (the speed slider,
// rotating the 3-D view) and loading a link replace the current one. Back and forward reload the
// state of that entry without pushing (main.js routes `hashchange`). A link's `t=` / `step=`
// stays in the address bar until the next committed change.
//
// Copy link copies the page URL with the link (optionally `step=` of the moment shown); Copy
// embed code an `<iframe>` snippet of the same link with `embed=1` and the panels shown. The
// clipboard API is used when allowed; otherwise the read-only field below is selected for the
// user to copy. Page-level view keys (theme, panels, embed, controls) are applied here.

import { setTheme } from '../render/palette.js';
import { encodeValue } from '../lab/pairs.js';
import { pageUrl, writeLink } from '../lab/address_bar.js';
import { enterEmbed, pauseWhenHidden, showPanels, LAB_DOM } from './embed.js';

const $ = (id) => document.getElementById(id);

/** Size of the iframe in the embed snippet (CSS px). */
export const EMBED_SIZE = { width: 640, height: 420 };

/** The view keys that only make sense embedded (dropped from the "full playground" link). */
const EMBED_KEYS = ['embed', 'controls'];

/** `key=value` pairs joined by `&` (values escaped where they would break the structure). */
function joinPairs(pairs) {
  return pairs.map(([k, v]) => `${k}=${encodeValue(v)}`).join('&');
}

/**
 * @param {{ wasm: object, particles: object, activeLab: () => string }} h
 */
export function setupShare(h) {
  const page = {
    theme: 'auto',
    panels: null, // panel names shown (null: all)
    embed: false,
    controls: null, // controls of the embedded view (null: the lab's default)
    moment: null, // [key, value]: the link's t= or step=, until the next committed change
  };
  let embedded = null; // { setHref } once in embed mode (which lasts until the page reloads)
  const spec = h.wasm.view_spec('particles');

  /** The particle lab's link (canonical), with `extra` view pairs and without `drop` keys. */
  function particleLink({ moment = page.moment, extra = [], drop = [] } = {}) {
    const pairs = [...h.particles.viewPairs()];
    if (page.theme !== 'auto') pairs.push(['theme', page.theme]);
    if (page.panels) pairs.push(['panels', page.panels.join(',')]);
    if (page.embed) pairs.push(['embed', '1']);
    if (page.controls) pairs.push(['controls', page.controls.join(',')]);
    if (moment) pairs.push(moment);
    for (const [k, v] of extra) {
      const i = pairs.findIndex(([key]) => key === k);
      if (i >= 0) pairs[i] = [k, v];
      else pairs.push([k, v]);
    }
    const kept = pairs.filter(([k]) => !drop.includes(k));
    const canonical = h.particles.canonical();
    const res = h.wasm.check_link(kept.length ? `${canonical}&${joinPairs(kept)}` : canonical);
    if (!res.ok) {
      console.warn(`view keys refused (${res.key}: ${res.message}); the link keeps the configuration only`);
      return canonical;
    }
    return res.link;
  }

  /** The address bar follows the particle lab (its link changed: push or replace). */
  function write(how) {
    if (h.activeLab() !== 'particles') return;
    if (how === 'push') page.moment = null;
    const link = particleLink();
    writeLink(link, how);
    if (embedded) embedded.setHref(`${pageUrl()}#${particleLink({ drop: EMBED_KEYS })}`);
  }
  h.particles.onLinkChange(write);

  // ---- panels and theme -------------------------------------------------------------------

  const toggles = [...document.querySelectorAll('[data-panel-toggle]')];
  const shownPanels = () => toggles.filter((t) => t.checked).map((t) => t.dataset.panelToggle);
  for (const t of toggles) {
    t.addEventListener('change', () => {
      if (shownPanels().length === 0) t.checked = true; // at least one panel
      const names = shownPanels();
      page.panels = names.length === spec.panels.length ? null : names;
      showPanels('particles', page.panels);
      h.particles.redraw();
      write('push');
    });
  }
  const themeSelect = $('theme');
  themeSelect.addEventListener('change', () => {
    page.theme = themeSelect.value;
    setTheme(page.theme);
    write('push');
  });

  // ---- copying ----------------------------------------------------------------------------

  const out = $('share-out');
  const field = $('share-text');
  const status = $('share-status');

  /** The moment to put in a copied link: the current step when "at this moment" is ticked. */
  function copiedMoment() {
    if (!$('share-moment').checked) return null;
    const st = h.particles.state();
    if (!st) return null;
    const last = Math.round(st.until / st.dt);
    if (st.step > last) {
      status.textContent = `Step ${st.step} is past until (step ${last}): the link opens at the start.`;
      return null;
    }
    return ['step', String(st.step)];
  }

  /** Shows `text` in the read-only field and copies it (clipboard API, else selection). */
  async function copy(label, text, what) {
    $('share-text-label').textContent = label;
    field.value = text;
    out.hidden = false;
    // A note written while the link was made (e.g. "past until") stays in front of the result.
    const note = status.textContent ? `${status.textContent} ` : '';
    status.textContent = '';
    try {
      if (!navigator.clipboard || !window.isSecureContext) throw new Error('no clipboard');
      await navigator.clipboard.writeText(text);
      status.textContent = `${note}${what} copied to the clipboard.`;
    } catch {
      field.focus();
      field.select();
      let done = false;
      try {
        done = document.execCommand('copy');
      } catch {
        done = false;
      }
      status.textContent = note + (done
        ? `${what} copied (selected above).`
        : `Press Ctrl+C (⌘C) to copy the selected ${what.toLowerCase()}.`);
    }
  }

  $('copy-link').addEventListener('click', () => {
    status.textContent = '';
    const moment = copiedMoment();
    copy('Link', `${pageUrl()}#${particleLink({ moment })}`, 'Link');
  });
  $('copy-embed').addEventListener('click', () => {
    status.textContent = '';
    const moment = copiedMoment();
    const link = particleLink({ moment, extra: [['embed', '1']], drop: ['controls'] });
    const src = `${pageUrl()}#${link}`.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    const snippet = `<iframe src="${src}" width="${EMBED_SIZE.width}" height="${EMBED_SIZE.height}" style="border:0" title="Attention Dynamics Playground" loading="lazy"></iframe>`;
    copy('Embed code', snippet, 'Embed code');
  });
  field.addEventListener('focus', () => field.select());

  // ---- a link's page-level view -------------------------------------------------------------

  /**
   * Applies the page-level view keys of link `text` (before the lab shows it). In the full page
   * an absent key means its default (back and forward restore it); an embedded view stays
   * embedded and keeps its panels, controls and theme when a link does not name them (a
   * host's setConfig, a PNG import).
   */
  function route(text) {
    const res = h.wasm.check_link(text);
    if (!res.ok) return;
    const v = res.view;
    const has = (key) => res.view_pairs.some(([k]) => k === key);
    const keep = page.embed;
    if (!keep || has('theme')) {
      page.theme = v.theme;
      setTheme(v.theme);
      themeSelect.value = v.theme;
    }
    page.moment = res.view_pairs.find(([k]) => k === 't' || k === 'step') ?? null;
    if (!keep || has('controls')) page.controls = has('controls') ? v.controls : null;
    if (!keep || has('panels')) {
      const panels = has('panels') ? v.panels : null;
      if (res.lab === 'particles') {
        page.panels = panels;
        for (const t of toggles) t.checked = panels === null || panels.includes(t.dataset.panelToggle);
      }
      showPanels(res.lab, panels);
    }
    if (v.embed && !embedded && LAB_DOM[res.lab]) {
      page.embed = true;
      embedded = enterEmbed(res.lab, v.controls);
      embedded.setHref(`${pageUrl()}#${stripKeys(res.link, EMBED_KEYS)}`);
      if (res.lab === 'particles') {
        pauseWhenHidden({
          playing: () => h.particles.state()?.status === 'playing',
          play: h.particles.play,
          pause: h.particles.pause,
        }, $(LAB_DOM.particles.main));
      }
    }
  }

  return {
    route,
    /** The particle lab's current link (what the address bar holds). */
    link: () => particleLink(),
  };
}

/** `link` without the pairs of `keys` (the link is canonical: plain `key=value` pairs). */
function stripKeys(link, keys) {
  return link.split('&').filter((p) => !keys.includes(p.split('=')[0])).join('&');
}
