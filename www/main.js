// Attention Dynamics Playground: loads the wasm module and routes between the three labs: the
// particle lab (particles/), the training lab (training/) and the depth lab (depth/); the last
// two are loaded on first use.
// Labs: the hash's `lab` key picks the lab (`lab=training` the training lab, `lab=depth` the
// depth lab, anything else the particle lab); the header's tabs put the chosen lab's last
// configuration in the hash.

import init, * as wasm from './pkg/attn_web.js';
import { encodeValue } from './lab/pairs.js';
import { onNavigate, readHash, writeLink } from './lab/address_bar.js';
import { bindKeys } from './ui/keyboard.js';
import { LabTabs } from './ui/labs.js';
import { particles } from './particles/lab.js';
import { setupExport } from './export/menu.js';
import { setupApi } from './embed/api.js';
import { setupShare } from './share/share.js';

const DEFAULT_TRAINING = 'lab=training&preset=scan-snap'; // the training lab's first configuration
const DEFAULT_DEPTH = 'lab=depth&preset=collapse-small'; // the depth lab's first configuration
const $ = (id) => document.getElementById(id);

let labTabs;
let share = null; // share/share.js: the link in the address bar, copy link / embed code, embed mode
let activeLab = 'particles';
let training = null; // the training lab, once loaded
let trainingLoading = null;
let depth = null; // the depth lab (depth/, loaded on first use)
let depthLoading = null;

// ---- labs -------------------------------------------------------------------------------

/** Loads the training lab's modules (once, on first use). */
function loadTraining() {
  if (!trainingLoading) {
    trainingLoading = import('./training/lab.js').then((m) => {
      training = m.createTrainingLab(wasm);
      return training;
    });
  }
  return trainingLoading;
}

/** Loads the depth lab's modules (once, on first use). */
function loadDepth() {
  if (!depthLoading) {
    depthLoading = import('./depth/lab.js').then((m) => {
      depth = m.createDepthLab(wasm, { particleConfig: () => particles.canonical() });
      return depth;
    });
  }
  return depthLoading;
}

function showLab(lab) {
  activeLab = lab;
  labTabs.show(lab);
  particles.setHidden(lab !== 'particles');
  if (lab !== 'training' && training) training.hide();
  if (lab !== 'depth' && depth) depth.hide();
  if (lab === 'particles') particles.redraw();
}

/** Shows the lab a configuration string asks for, with that configuration. */
async function route(text) {
  share?.route(text); // page-level view keys: theme, panels, embed mode
  if (wasm.requested_lab(text) === 'depth') {
    showLab('depth');
    const lab = await loadDepth();
    if (activeLab === 'depth') lab.show(text);
    return;
  }
  if (wasm.requested_lab(text) === 'training') {
    showLab('training');
    const lab = await loadTraining();
    if (activeLab === 'training') lab.show(text);
    return;
  }
  showLab('particles');
  particles.show(text);
}

/** A tab was picked: that lab's last configuration goes into the hash (a history entry). */
function selectLab(lab) {
  if (lab === activeLab) return;
  const link = lab === 'training'
    ? (training?.canonical || DEFAULT_TRAINING)
    : lab === 'depth'
      ? (depth?.canonical || DEFAULT_DEPTH)
      : (particles.canonical() || '');
  writeLink(link, 'push');
  route(link);
}

/** The configuration string of `lab` (its last applied one). */
function labConfig(lab) {
  if (lab === 'training') return training?.canonical || DEFAULT_TRAINING;
  if (lab === 'depth') return depth?.canonical || DEFAULT_DEPTH;
  return particles.canonical() || '';
}

/**
 * Opens a configuration as a link does (a history entry; the lab it asks for), for the PNG
 * import and the postMessage API; resolves once its lab shows it. The page's view keys (embed
 * mode, panels, theme, ...) that `text` does not set are kept; a moment (`t`, `step`) is not.
 */
async function openLink(text) {
  let link = text;
  const now = wasm.check_link(readHash());
  const next = wasm.check_link(text);
  if (now.ok && next.ok) {
    const set = new Set(next.view_pairs.map(([k]) => k));
    const keep = now.view_pairs.filter(([k]) => !set.has(k) && k !== 't' && k !== 'step');
    const merged = keep.length ? wasm.check_link(`${next.link}&${keep.map(([k, v]) => `${k}=${encodeValue(v)}`).join('&')}`) : next;
    link = merged.ok ? merged.link : next.link;
  }
  writeLink(link, 'push');
  await route(link);
}

/** Keyboard shortcuts act on the lab shown. */
function onKey(name) {
  return () => {
    if (activeLab === 'training') {
      if (training) training[name]();
    } else if (activeLab === 'depth') {
      if (depth) depth[name]();
    } else {
      particles[name]();
    }
  };
}

// ---- start ------------------------------------------------------------------------------

async function main() {
  await init();
  particles.setup();
  $('version').textContent = `attn-web ${wasm.version()}`;

  labTabs = new LabTabs(selectLab);
  share = setupShare({ wasm, particles, activeLab: () => activeLab });
  await route(readHash());
  bindKeys({ togglePlay: onKey('togglePlay'), step: onKey('step'), reset: onKey('reset') });
  onNavigate(route);
  particles.start();
  setupExport({ wasm, particles, config: labConfig, openLink });
  setupApi({ wasm, particles, activeLab: () => activeLab, openLink });
  performance.mark('attn-ready');
  window.__attnReady = true;
  requestAnimationFrame(particles.frame);
}

main().catch((err) => {
  const box = $('config-error');
  box.textContent = `The playground could not start: ${err && err.message ? err.message : err}`;
  console.error(err);
});
