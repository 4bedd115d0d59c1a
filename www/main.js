// Attention Dynamics Playground: loads the wasm module, builds the page from the table of labs
// below and routes each link to its lab (the `lab` key: lab/labs.js, where a lab's interface is
// described). A lab is loaded when first shown; adding one is a folder and an entry here.

import init, * as wasmModule from './pkg/attn_web.js';
import { onNavigate, readHash, writeLink } from './lab/address_bar.js';
import { Labs } from './lab/labs.js';
import { concatLinks, joinPairs } from './lab/pairs.js';
import { defaultLink as modelLink } from './model/texts.js';
import { PageView } from './share/page_view.js';
import { setViridisGradient } from './render/palette.js';
import { bindKeys } from './ui/keyboard.js';
import { setupHintBubble } from './ui/hint_bubble.js';
import { LabTabs } from './ui/labs.js';
import { Tour } from './ui/tour.js';
import { setupExport } from './export/menu.js';
import { setupApi } from './embed/api.js';

/** The page's module (pkg/attn_web.js) with its JSON results typed (wasm.d.ts; the same object). */
const wasm = /** @type {AttnPageWasm} */ (/** @type {unknown} */ (wasmModule));

/** The labs, in the tabs' order; the first is the default (a link naming no lab opens it). The
 * default links name today's version: a link without `version` is an old link and keeps the
 * defaults it was made with (a bare `lab=depth` is `bert-init`, docs/links.md). */
const LABS = {
  particles: { title: 'Particles', load: () => import('./particles/lab.js'), defaultLink: '' },
  training: { title: 'Training', load: () => import('./training/lab.js'), defaultLink: 'version=7&lab=training&preset=scan-snap' },
  depth: { title: 'Depth', load: () => import('./depth/lab.js'), defaultLink: 'version=7&lab=depth&preset=collapse-small' },
  model: { title: 'Model', load: () => import('./model/lab.js'), defaultLink: modelLink(), full: true },
};

/** The module with every lab (pkg/attn_web_full.js: the page's module and the model lab, its
 * encoder, tokenizer, Unicode tables and weight files), fetched and started when a lab marked
 * `full` is first shown: the other labs wait for the smaller pkg/attn_web.js alone. Both modules
 * read links with the same core, so a link means the same in either. */
let fullModule = null;
function full() {
  fullModule ??= import('./pkg/attn_web_full.js').then(async (m) => {
    await m.default();
    return /** @type {AttnWasm} */ (/** @type {unknown} */ (m));
  });
  return fullModule;
}

/** Each lab's guided tour (ui/tour.js), loaded when first opened. */
const TOURS = {
  particles: () => import('./particles/tour.js'),
  training: () => import('./training/tour.js'),
  depth: () => import('./depth/tour.js'),
  model: () => import('./model/tour.js'),
};

const $ = (id) => document.getElementById(id);

const page = new PageView(wasm); // the page's view keys: theme, panels, embed mode, a moment
let labs;
let tabs;
let menu = null;
let tour = null;
let routing = 0; // the latest route (an older one still loading its lab gives way)

/** Lab `lab` says its link changed: the address bar follows while it is shown (`moment`, when
 * given: the link's new `t=` / `step=` pair, or null for none). */
function linkChanged(lab, how, moment) {
  if (!how || labs.active !== lab) return;
  page.beforeWrite(how, moment);
  writeLink(page.linkOf(lab), how);
  page.written(lab);
}

/** Shows the lab a link asks for, with that link. The link crosses into the core once: its check
 * names the lab (a refused link too) and goes to the page's view keys and to the lab. */
async function route(text, checked = wasm.check_link(text)) {
  const mine = ++routing;
  const id = labs.idOf(checked.lab);
  const lab = await labs.get(id);
  if (mine !== routing) return;
  labs.show(id);
  tabs.show(id);
  const link = lab.linkFor ? lab.linkFor(text) : text;
  if (link !== text) checked = wasm.check_link(link);
  page.route(link, lab, checked); // page-level view keys: theme, panels, embed mode
  lab.show(link, checked);
  menu?.labShown();
  tour?.labShown(id);
}

/** A tab was picked: that lab's last configuration (or its first) as a new history entry. */
function selectLab(id) {
  if (id === labs.activeId) return;
  const link = labs.loaded(id)?.canonical() || LABS[id].defaultLink;
  writeLink(link, 'push');
  route(link);
}

/**
 * Opens a configuration as a link does (`how`: a history entry or in place; the lab it asks
 * for), for the PNG import and the postMessage API; resolves once its lab shows it. The page's
 * view keys (embed mode, panels, theme, ...) that `text` does not set are kept; a moment (`t`,
 * `step`) is not.
 */
async function openLink(text, how) {
  let link = text;
  const now = wasm.check_link(readHash());
  const next = wasm.check_link(text);
  if (now.ok && next.ok) {
    const set = new Set(next.view_pairs.map(([k]) => k));
    const keep = now.view_pairs.filter(([k]) => !set.has(k) && k !== 't' && k !== 'step');
    const merged = keep.length ? wasm.check_link(concatLinks(next.link, joinPairs(keep))) : next;
    link = merged.ok ? merged.link : next.link;
  }
  writeLink(link, how);
  await route(link);
}

async function main() {
  await init();
  setViridisGradient();
  $('version').textContent = `attn-web ${wasm.version()}`;
  labs = new Labs(LABS, async (id) => ({
    wasm: LABS[id].full ? await full() : wasm,
    page,
    linkChanged: (how, moment) => linkChanged(labs.loaded(id), how, moment),
    canonicalOf: (other) => labs.loaded(other)?.canonical() ?? '',
  }));
  tabs = new LabTabs(LABS, selectLab);
  const text = readHash();
  const checked = wasm.check_link(text);
  // The link's lab needs the full module: its download starts now, beside the default lab's.
  if (LABS[labs.idOf(checked.lab)].full) full();
  // The default lab is always there (the postMessage API drives it).
  await labs.get(labs.ids[0]);
  await route(text, checked);
  bindKeys({
    togglePlay: () => labs.active?.togglePlay(),
    step: () => labs.active?.step(),
    reset: () => labs.active?.reset(),
  });
  onNavigate(route);
  setupHintBubble();
  menu = setupExport({ wasm, labs, openLink });
  setupApi({ wasm, labs, openLink, embedded: () => page.embed });
  tour = new Tour({
    button: /** @type {HTMLButtonElement} */ ($('tour-open')),
    activeLab: () => (labs.active ? { id: labs.activeId, root: labs.root(labs.activeId) } : null),
    load: async (id) => (TOURS[id] ? (await TOURS[id]()).TOUR : null),
    apply: (link) => openLink(link, 'push'),
  });
  tour.resume(labs.activeId);
  performance.mark('attn-ready');
  window.__attnReady = true;
}

main().catch((err) => {
  // In the first lab's error box when it exists, else at the top of the page.
  const box = $('config-error') ?? document.body.insertBefore(document.createElement('p'), document.body.firstChild);
  box.textContent = `The playground could not start: ${err && err.message ? err.message : err}`;
  console.error(err);
});
