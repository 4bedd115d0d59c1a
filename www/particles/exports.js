// What the Export menu saves of the particle lab: its configuration and the step shown (in every
// PNG), and its own groups: the data recorded so far (trajectories and metrics as CSV, frames as
// JSON, each as `attn run` writes them) and a WebM recording of the token canvas.

import * as wasm from '../pkg/attn_web.js';
import { CanvasRecorder } from '../export/recorder.js';
import { download, slug } from '../export/download.js';
import { presetOf } from '../lab/pairs.js';
import { framesJson, metricsCsv, trajectoryCsv } from './files.js';
import { runHistory } from './history.js';
import { runState } from './hooks.js';
import { $, app } from './state.js';

const recorder = new CanvasRecorder();
let recTimer = 0;

/**
 * The Export menu's view of the lab: `{ config, step, stem, groups }`.
 * @param {{ button: Function, group: Function, say: (text: string) => void, rebuild: () => void }} menu
 */
export function exportsOf(menu) {
  const config = app.canonical || '';
  const st = runState();
  return {
    config,
    step: st ? st.step : null,
    stem: presetOf(config),
    groups: () => [dataGroup(menu), videoGroup(menu)],
    recording: () => recorder.recording,
  };
}

function saveText(menu, text, name, type) {
  download(new Blob([text], { type }), name);
  menu.say(`Saved ${name}: ${runHistory.describe()}.`);
}

function dataGroup(menu) {
  const name = (what) => `attn-${slug(presetOf(runHistory.canonical))}-${what}`;
  const data = menu.group(
    'Data so far',
    menu.button('Trajectories CSV', () => saveText(menu, trajectoryCsv(runHistory, wasm), name('trajectories.csv'), 'text/csv'), 'step,t,i,coord_0,… as `attn run --format csv`'),
    menu.button('Metrics CSV', () => saveText(menu, metricsCsv(runHistory, wasm), name('metrics.csv'), 'text/csv'), 'step,t,clusters,boolean_distance,effective_rank,energy,hyperplanes'),
    menu.button('Frames JSON', () => saveText(menu, framesJson(runHistory), name('frames.json'), 'application/json'), 'tokens and metrics as `attn run --format json`'),
  );
  const note = document.createElement('p');
  note.className = 'hint';
  note.textContent = `Recorded so far (the states the page computed): ${runHistory.describe()}.`;
  data.append(note);
  return data;
}

function videoGroup(menu) {
  const rec = menu.button(recorder.recording ? `Stop recording (${recorder.seconds().toFixed(0)} s)` : 'Record WebM', () => toggleRecording(menu), 'Record the token canvas as WebM video; stop to save it');
  rec.id = 'export-record';
  rec.setAttribute('aria-pressed', String(recorder.recording));
  return menu.group('Video of the token canvas', rec);
}

async function toggleRecording(menu) {
  if (recorder.recording) {
    clearInterval(recTimer);
    const video = await recorder.stop();
    menu.rebuild();
    if (!video) {
      menu.say('The recording is empty.');
      return;
    }
    const name = `attn-${slug(presetOf(app.canonical || ''))}-tokens.webm`;
    download(video.blob, name);
    const what = `${Math.round(video.blob.size / 1024)} kB, ${video.seconds.toFixed(1)} s`;
    menu.say(video.warning ? `Saved ${name} (${what}): ${video.warning}.` : `Saved ${name} (${what}).`);
    return;
  }
  try {
    recorder.start($('tokens'));
  } catch (e) {
    menu.say(`Cannot record: ${e.message}.`);
    return;
  }
  menu.say('Recording the token canvas…');
  recTimer = setInterval(() => {
    const b = $('export-record');
    if (b) b.textContent = `Stop recording (${recorder.seconds().toFixed(0)} s)`;
  }, 500);
  menu.rebuild();
}
