// The header's Export menu, for the lab shown: a PNG of each of its canvases (with the
// configuration inside, export/png.js), the particle run's recorded trajectories and metrics as
// CSV and JSON (export/files.js), the configuration as JSON, a WebM recording of the token canvas
// (export/recorder.js); and loading such a PNG back (file input, or a drop anywhere on the page).
// A PNG's configuration is checked as a link is: refused with a message naming the key, the
// last good run kept. Nothing read from a file reaches innerHTML or eval (text nodes only).

import { canvasPng, readPngState } from './png.js';
import { configJson, framesJson, metricsCsv, trajectoryCsv } from '../particles/files.js';
import { CanvasRecorder } from './recorder.js';
import { download, lastDownload, slug } from './download.js';
import { runHistory } from '../particles/history.js';
import { splitConfig } from '../lab/pairs.js';
import { showRefusal } from '../lab/config_page.js';

const $ = (id) => document.getElementById(id);

/** Each lab's panel and error box. */
const LABS = {
  particles: { panel: 'lab-particles', error: 'config-error' },
  training: { panel: 'lab-training', error: 'tr-config-error' },
  depth: { panel: 'lab-depth', error: 'dp-config-error' },
};

/** The lab shown: the one whose panel is not hidden. */
function activeLab() {
  for (const [lab, { panel }] of Object.entries(LABS)) if (!$(panel)?.hidden) return lab;
  return 'particles';
}

/** The canvases of the lab shown that have a picture: `[{ canvas, label }]`. */
function canvasesOf(lab) {
  const panel = $(LABS[lab].panel);
  return [...panel.querySelectorAll('canvas')]
    .filter((c) => c.width > 0 && c.height > 0 && c.getClientRects().length > 0)
    .map((canvas) => ({ canvas, label: canvas.closest('section')?.querySelector('h2')?.textContent.trim() || canvas.id }));
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
 * @param {{ wasm: object, particles: object, config: (lab: string) => string,
 *   openLink: (text: string) => Promise<void> }} h `config(lab)`: the lab's configuration
 *   string; `openLink(text)`: shows a valid configuration as a link would (history entry, lab).
 */
export function setupExport(h) {
  const menu = $('export-menu');
  const body = $('export-body');
  const recorder = new CanvasRecorder();
  let recTimer = 0;
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

  const preset = (config) => splitConfig(config).find(([k]) => k === 'preset')?.[1] ?? 'run';

  async function savePng(lab, { canvas }) {
    const config = h.config(lab);
    const st = lab === 'particles' ? h.particles.state() : null;
    const step = st ? st.step : null;
    const name = `attn-${slug(lab === 'particles' ? preset(config) : `${lab}-${preset(config)}`)}${step === null ? '' : `-step${step}`}-${slug(canvas.id)}.png`;
    try {
      download(await canvasPng(canvas, config, step), name);
      say(`Saved ${name} (the configuration${step === null ? '' : ' and the step'} inside: drop it on the page to load it back).`);
    } catch (e) {
      say(`Could not save the PNG: ${e.message}`);
    }
  }

  function saveText(text, name, type) {
    download(new Blob([text], { type }), name);
    say(`Saved ${name}: ${runHistory.describe()}.`);
  }

  function saveConfig(lab) {
    const res = h.wasm.check_lab_config(h.config(lab));
    if (!res.ok) return;
    const name = `attn-${slug(`${lab === 'particles' ? '' : `${lab}-`}${preset(res.canonical)}`)}-config.json`;
    download(new Blob([configJson(res)], { type: 'application/json' }), name);
    say(`Saved ${name}.`);
  }

  async function toggleRecording() {
    if (recorder.recording) {
      clearInterval(recTimer);
      const blob = await recorder.stop();
      build();
      if (!blob) {
        say('The recording is empty.');
        return;
      }
      const name = `attn-${slug(preset(h.config('particles')))}-tokens.webm`;
      download(blob, name);
      say(`Saved ${name} (${Math.round(blob.size / 1024)} kB).`);
      return;
    }
    try {
      recorder.start($('tokens'));
    } catch (e) {
      say(`Cannot record: ${e.message}.`);
      return;
    }
    say('Recording the token canvas…');
    recTimer = setInterval(() => {
      const b = $('export-record');
      if (b) b.textContent = `Stop recording (${recorder.seconds().toFixed(0)} s)`;
    }, 500);
    build();
  }

  /** Rebuilds the menu's items for the lab shown. */
  function build() {
    const lab = activeLab();
    const items = [];
    const pngs = canvasesOf(lab).map((c) => button(c.label, () => savePng(lab, c), `PNG of “${c.label}”, with the configuration inside`));
    items.push(group('Image (PNG, configuration inside)', ...pngs));
    if (lab === 'particles') {
      const data = group(
        'Data so far',
        button('Trajectories CSV', () => saveText(trajectoryCsv(runHistory, h.wasm), `attn-${slug(preset(runHistory.canonical))}-trajectories.csv`, 'text/csv'), 'step,t,i,coord_0,… as `attn run --format csv`'),
        button('Metrics CSV', () => saveText(metricsCsv(runHistory, h.wasm), `attn-${slug(preset(runHistory.canonical))}-metrics.csv`, 'text/csv'), 'step,t,clusters,boolean_distance,effective_rank,energy'),
        button('Frames JSON', () => saveText(framesJson(runHistory), `attn-${slug(preset(runHistory.canonical))}-frames.json`, 'application/json'), 'tokens and metrics as `attn run --format json`'),
      );
      const note = document.createElement('p');
      note.className = 'hint';
      note.textContent = `Recorded so far (the states the page computed): ${runHistory.describe()}.`;
      data.append(note);
      items.push(data);
      const rec = button(recorder.recording ? `Stop recording (${recorder.seconds().toFixed(0)} s)` : 'Record WebM', toggleRecording, 'Record the token canvas as WebM video; stop to save it');
      rec.id = 'export-record';
      rec.setAttribute('aria-pressed', String(recorder.recording));
      items.push(group('Video of the token canvas', rec));
    }
    items.push(group('Configuration', button('Configuration JSON', () => saveConfig(lab))));
    const open = button('Open a PNG…', () => input.click(), 'Load the state saved in a PNG exported here (or drop it on the page)');
    open.id = 'export-open';
    items.push(group('Load', open));
    body.replaceChildren(...items, status);
  }

  /** Loads the state a PNG holds, validated as a link; refusals name the key. */
  async function importFile(file) {
    const lab = activeLab();
    const refuse = (res) => {
      showRefusal($(LABS[lab].error), res, 'The PNG was not loaded; the last good run keeps going.');
      say(`Not loaded: ${res.key}: ${res.message}`);
    };
    const state = await readPngState(file);
    if (!state.ok) return refuse(state);
    const res = h.wasm.check_lab_config(state.config);
    if (!res.ok) return refuse(res);
    if (res.lab === 'particles') {
      const page = h.particles.check(res.canonical);
      if (!page.ok) return refuse(page);
      if (state.step !== null) {
        // The step is checked as a link's `step=` is (at most the run's last step).
        const at = h.wasm.check_link(`${res.canonical}&step=${state.step}`);
        if (!at.ok) return refuse({ ok: false, key: 'attn-step', message: at.message });
      }
    }
    await h.openLink(res.canonical);
    if (res.lab === 'particles' && state.step !== null) await h.particles.seekStep(state.step);
    say(`Loaded ${file.name}${state.step === null ? '' : ` at step ${state.step}`}.`);
    return undefined;
  }

  input.addEventListener('change', () => {
    const file = input.files?.[0];
    input.value = '';
    if (file) importFile(file);
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
  // Another lab shown while the menu is open: its items follow (again once a lab loaded on
  // first use has drawn its canvases).
  window.addEventListener('hashchange', () => {
    if (!menu.open) return;
    build();
    setTimeout(() => menu.open && !recorder.recording && build(), 1000);
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

  window.__attnExport = Object.freeze({ lastDownload, importFile, recording: () => recorder.recording });
}
