// Attention Dynamics Playground: loads the wasm module and routes between the three labs: the
// particle lab (particles/), the training lab (training/) and the depth lab (depth/); the last
// two are loaded on first use.
// Labs: the hash's `lab` key picks the lab (`lab=training` the training lab, `lab=depth` the
// depth lab, anything else the particle lab); the header's tabs put the chosen lab's last
// configuration in the hash.

import init, * as wasm from './pkg/attn_web.js';
import { readHash } from './state/hash.js';
import { bindKeys } from './ui/keyboard.js';
import { LabTabs } from './ui/labs.js';
import { particles } from './particles/lab.js';

const DEFAULT_TRAINING = 'lab=training&preset=scan-snap'; // the training lab's first configuration
const DEFAULT_DEPTH = 'lab=depth&preset=collapse-small'; // the depth lab's first configuration
const $ = (id) => document.getElementById(id);

let labTabs;
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
  location.hash = lab === 'training'
    ? (training?.canonical || DEFAULT_TRAINING)
    : lab === 'depth'
      ? (depth?.canonical || DEFAULT_DEPTH)
      : (particles.canonical() || 'preset=polytope');
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
  await route(readHash());
  bindKeys({ togglePlay: onKey('togglePlay'), step: onKey('step'), reset: onKey('reset') });
  window.addEventListener('hashchange', () => route(readHash()));
  particles.start();
  performance.mark('attn-ready');
  window.__attnReady = true;
  requestAnimationFrame(particles.frame);
}

main().catch((err) => {
  const box = $('config-error');
  box.textContent = `The playground could not start: ${err && err.message ? err.message : err}`;
  console.error(err);
});
