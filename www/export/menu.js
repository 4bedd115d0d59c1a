// The header's Export menu, for the lab shown: a PNG of each of its canvases (with the lab's
// configuration inside, export/png.js), the lab's own groups (lab.exports(): the particle run's
// recorded data and a WebM of its token canvas), the configuration as JSON; and loading such a
// PNG back (file input, or a drop anywhere on the page). A PNG's configuration is checked as a
// link is: refused with a message naming the key, the last good run kept. Nothing read from a
// file reaches innerHTML or eval (text nodes only).

import { canvasPng, readPngState } from './png.js';
import { download, lastDownload, slug } from './download.js';

const $ = (id) => document.getElementById(id);

/**
 * The configuration as JSON: `{ lab, config, keys: { key: value, ... } }` from a successful
 * check_link result (`keys`: `version`, then every key of the resolved configuration, as
 * text; the version decides the particle lab's arithmetic, so a string rebuilt from `keys` must
 * carry it).
 */
function configJson(res) {
  const keys = { version: /^version=(\d+)/.exec(res.canonical)?.[1] };
  for (const [k, v] of res.pairs) keys[k] = v;
  return `${JSON.stringify({ lab: res.lab, config: res.canonical, keys }, null, 2)}\n`;
}

/** Superscripts a heading writes as <sup> (S = O O<sup>T</sup>), as Unicode in a plain label. */
const SUPERSCRIPTS = { T: 'ᵀ', L: 'ᴸ', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹', '-': '⁻' };

/** Subscripts a heading writes as <sub> (c<sub>n</sub>), as Unicode where it has them all. */
const SUBSCRIPTS = { n: 'ₙ', l: 'ₗ', i: 'ᵢ', j: 'ⱼ', t: 'ₜ', 0: '₀', 1: '₁', 2: '₂', 3: '₃' };

/** An element's text, its <sup> and <sub> parts as Unicode where Unicode has them (else ^x, _x). */
function plainText(el) {
  const script = (text, table, mark) => ([...text].every((c) => c in table) ? [...text].map((c) => table[c]).join('') : `${mark}${text}`);
  return [...el.childNodes].map((n) => {
    if (n.nodeName === 'SUP') return script(n.textContent, SUPERSCRIPTS, '^');
    if (n.nodeName === 'SUB') return script(n.textContent, SUBSCRIPTS, '_');
    return n.nodeType === Node.ELEMENT_NODE ? plainText(n) : n.textContent;
  }).join('').replace(/\s+/g, ' ').trim();
}

/**
 * The canvases of `lab` that have a picture: `[{ canvas, label }]`. A canvas alone in its panel
 * is named by the panel's title; several in one panel (a grid and its enlarged head) each by the
 * first clause of its own aria-label, so no two buttons read the same.
 */
function canvasesOf(lab) {
  const shown = [...lab.root.querySelectorAll('canvas')]
    .filter((c) => c.width > 0 && c.height > 0 && c.getClientRects().length > 0);
  return shown.map((canvas) => {
    const section = canvas.closest('section');
    const heading = section?.querySelector('h2');
    const title = heading ? plainText(heading) : canvas.id;
    const own = canvas.getAttribute('aria-label')?.split(/[;,]/)[0].trim();
    const shared = shown.filter((c) => c.closest('section') === section).length > 1;
    return { canvas, label: (shared && own) || title || canvas.id };
  });
}

function button(text, onClick, title = '') {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  if (title) b.title = title;
  b.addEventListener('click', onClick);
  return b;
}

function group(title, ...children) {
  const box = document.createElement('div');
  box.className = 'export-group';
  const h = document.createElement('p');
  h.className = 'export-title';
  h.textContent = title;
  box.append(h, ...children);
  return box;
}

/**
 * Builds the Export menu in `#export-menu` and the PNG drop target.
 * @param {{ wasm: AttnPageWasm, labs: import('../lab/labs.js').Labs,
 *   openLink: (text: string, how: string) => Promise<void> }} h `openLink(text)`: shows a valid
 *   configuration as a link would (a history entry, its lab).
 * @returns {{ labShown: () => void }} call when another lab is shown (the items follow)
 */
export function setupExport(h) {
  const menu = /** @type {HTMLDetailsElement} */ ($('export-menu'));
  const body = $('export-body');
  const status = document.createElement('p');
  status.className = 'export-status';
  status.setAttribute('role', 'status');
  const input = document.createElement('input');
  input.type = 'file';
  input.accept = 'image/png';
  input.hidden = true;
  input.id = 'png-input';
  menu.append(input);

  const say = (text) => {
    status.textContent = text;
  };
  const helpers = { button, group, say, rebuild: () => build() };

  async function savePng(lab, { canvas }) {
    const { config, step, stem } = lab.exports(helpers);
    const name = `attn-${slug(stem)}${step === null ? '' : `-step${step}`}-${slug(canvas.id)}.png`;
    try {
      download(await canvasPng(canvas, config, step), name);
      say(`Saved ${name} (the configuration${step === null ? '' : ' and the step'} inside: drop it on the page to load it back).`);
    } catch (e) {
      say(`Could not save the PNG: ${e.message}`);
    }
  }

  function saveConfig(lab) {
    const { config, stem } = lab.exports(helpers);
    const res = h.wasm.check_link(config);
    if (!res.ok) return;
    const name = `attn-${slug(stem)}-config.json`;
    download(new Blob([configJson(res)], { type: 'application/json' }), name);
    say(`Saved ${name}.`);
  }

  /** Rebuilds the menu's items for the lab shown. */
  function build() {
    const lab = h.labs.active;
    if (!lab) return;
    const items = [];
    const pngs = canvasesOf(lab).map((c) => button(c.label, () => savePng(lab, c), `PNG of “${c.label}”, with the configuration inside`));
    items.push(group('Image (PNG, configuration inside)', ...pngs));
    items.push(...(lab.exports(helpers).groups?.() ?? []));
    items.push(group('Configuration', button('Configuration JSON', () => saveConfig(lab))));
    const open = button('Open a PNG…', () => input.click(), 'Load the state saved in a PNG exported here (or drop it on the page)');
    open.id = 'export-open';
    items.push(group('Load', open));
    body.replaceChildren(...items, status);
  }

  let loads = 0; // the PNG loads started: only the newest one speaks and acts

  /**
   * Loads the state a PNG holds, validated as a link; refusals name the key. The status line
   * follows the file being loaded (an earlier file's message is replaced at once); a newer load
   * takes over (an older one still reading or computing says and does nothing more); the step is
   * claimed only when the lab shown reached it.
   */
  async function importFile(file) {
    const mine = ++loads;
    const current = () => mine === loads;
    const shown = h.labs.active;
    say(`Loading ${file.name}…`);
    const refuse = (res) => {
      if (!current()) return;
      shown.refuse(res, 'The PNG was not loaded; the last good run keeps going.');
      say(`Not loaded: ${res.key}: ${res.message}`);
    };
    const state = await readPngState(file);
    if (!current()) return undefined;
    if (!state.ok) return refuse(state);
    const res = h.wasm.check_link(state.config);
    if (!res.ok) return refuse(res);
    const lab = await h.labs.get(h.labs.idOf(res.lab));
    if (!current()) return undefined;
    // The lab's own check (the particle lab's device cap).
    const page = lab.check(res.canonical);
    if (!page.ok) return refuse(page);
    if (state.step !== null) {
      // The step is checked as a link's `step=` is (at most the run's last step).
      const at = h.wasm.check_link(`${res.canonical}&step=${state.step}`);
      if (!at.ok) return refuse({ ok: false, key: 'attn-step', message: at.message });
    }
    await h.openLink(res.canonical, 'push');
    if (!current()) return undefined;
    if (state.step === null) {
      say(`Loaded ${file.name}.`);
      return undefined;
    }
    say(`Loading ${file.name}: computing the run to step ${state.step}…`);
    const reached = await lab.seekTo(state.step);
    if (!current()) return undefined;
    say(reached === state.step
      ? `Loaded ${file.name} at step ${state.step}.`
      : `Loaded ${file.name}, but not at its step ${state.step}: ${Number.isInteger(reached) ? `the run stopped at step ${reached}` : 'this lab does not use the step'}.`);
    return undefined;
  }

  input.addEventListener('change', () => {
    const file = input.files?.[0];
    input.value = '';
    if (file) importFile(file);
  });
  // Built as the menu opens: on the summary's click (a mouse, Enter or Space), before the menu is
  // drawn open, since the toggle event comes a task later and the items would first show the
  // state of the last build; and on the toggle event for an opening by script.
  menu.querySelector('summary').addEventListener('click', () => {
    if (!menu.open) build();
  });
  menu.addEventListener('toggle', () => {
    if (menu.open) build();
  });
  // A click elsewhere or Escape closes the menu.
  document.addEventListener('click', (e) => {
    if (menu.open && e.target instanceof Node && !menu.contains(e.target)) menu.open = false;
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && menu.open) {
      menu.open = false;
      menu.querySelector('summary').focus();
    }
  });
  const hasFiles = (e) => [...(e.dataTransfer?.types ?? [])].includes('Files');
  document.addEventListener('dragover', (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    document.documentElement.classList.add('dropping');
  });
  document.addEventListener('dragleave', (e) => {
    if (e.relatedTarget === null) document.documentElement.classList.remove('dropping');
  });
  document.addEventListener('drop', (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    document.documentElement.classList.remove('dropping');
    const file = e.dataTransfer.files[0];
    if (file) importFile(file);
  });
  build();

  window.__attnExport = Object.freeze({ lastDownload, importFile, recording: () => Boolean(h.labs.active?.exports(helpers).recording?.()) });
  return {
    /** Another lab is shown: while the menu is open its items follow (again once a lab loaded on
     * first use has drawn its canvases). */
    labShown() {
      if (!menu.open) return;
      build();
      setTimeout(() => menu.open && build(), 1000);
    },
  };
}
