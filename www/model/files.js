// The model lab's own-files panel: "Load your own BERT" — a file picker
// (<input type=file multiple>) and drag and drop onto the lab, for model.safetensors, config.json,
// vocab.txt (and optionally tokenizer_config.json), so a model the page does not serve (e.g.
// bert-base) runs too. The File objects go to the worker (workers/model_files.js), which checks
// the memory estimate, streams the weights into wasm and hashes them; once loaded, the lab's link
// reads model=NAME@SHA16. A refused file (missing, truncated, wrong dtype, ...) shows the worker's
// message naming the file and what is wrong; the last model and its analysis stay. So does a
// model that cannot analyse the shown text (more tokens than its max_position_embeddings): the
// worker checks it before the swap.
//
// mountFiles(page) adds the panel and the drop target and returns { onMessage(m) }: true when it
// handled the worker's message m (an own model loaded, or own files refused); it also adds to a
// refused link's message how to load the model that link names.

import { h } from '../ui/dom.js';
import { DEFAULT_MODEL } from './texts.js';
import { valueOf } from '../lab/pairs.js';

const $ = (id) => document.getElementById(id);
/** The names of a model folder's files (a drop holding one of them is the lab's). */
const MODEL_FILE = /(\.safetensors|^config\.json|^vocab\.txt|^tokenizer_config\.json)$/;

/** The `model` value (NAME@SHA16) of link `text`, or null. */
function modelOf(text) {
  return valueOf(String(text ?? ''), 'model');
}

function panel() {
  return h('section.panel.md-files-panel', { 'aria-labelledby': 'md-files-heading' },
    h('h2#md-files-heading', {}, 'Your own model'),
    h('div#md-drop.md-drop', {},
      h('label', { for: 'md-files' }, 'Load your own BERT: model.safetensors, config.json, vocab.txt'),
      h('input#md-files', { type: 'file', multiple: true, accept: '.safetensors,.json,.txt' }),
      h('p.hint', {}, 'Pick the three files together (tokenizer_config.json too, if the model has one), or drop them on the lab. They stay on this device: the page reads them in its worker.'),
    ),
    h('p#md-own.hint', { 'aria-live': 'polite' }),
  );
}

/** The message when the served model is not there: what happened and what to do. */
export function servedMissing(error) {
  return `The served model ${DEFAULT_MODEL} is not available (${error}). This copy of the page has no models/ folder: cargo xtask serve, or a build made with cargo xtask dist --with-model, serves it. Load your own BERT's files with the picker in "Your own model".`;
}

export function mountFiles(page) {
  const side = $('md-text').closest('.col-side') ?? page.ctx.root;
  side.append(panel());
  const input = /** @type {HTMLInputElement} */ ($('md-files'));
  const root = side.closest('main') ?? side;

  const send = (files) => {
    if (!files.length) return;
    $('md-state').textContent = 'reading your files';
    $('md-own').textContent = `reading ${files.map((f) => f.name).join(', ')}`;
    // The link the page opens once they load (the refused one naming them, else the shown text)
    // goes along: the worker refuses the files, keeping this model, when it does not fit them.
    page.worker.postMessage({ kind: 'files', files, device: navigator.deviceMemory ?? 0, text: page.shownText(), refused: page.refused ?? null });
  };
  input.addEventListener('change', () => {
    send(Array.from(input.files ?? []));
    input.value = ''; // picking the same files again is a new load
  });
  // While the lab shows, the whole page takes dropped files (a drop beside the lab would
  // otherwise make the browser open the file and leave the page).
  const shows = () => root.isConnected && root.getClientRects().length > 0;
  document.addEventListener('dragover', (e) => {
    if (!shows() || !e.dataTransfer?.types?.includes('Files')) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    root.classList.add('md-dragging');
  });
  document.addEventListener('dragleave', (e) => {
    if (!e.relatedTarget) root.classList.remove('md-dragging'); // left the window
  });
  // Model files go to the lab, before the export menu's drop (export/menu.js: a dropped PNG or
  // configuration is imported), which still gets every other drop.
  window.addEventListener('drop', (e) => {
    root.classList.remove('md-dragging');
    const files = Array.from(e.dataTransfer?.files ?? []);
    if (!shows() || !files.some((f) => MODEL_FILE.test(f.name))) return;
    e.preventDefault();
    e.stopPropagation();
    send(files);
  }, true);

  return {
    onMessage(m) {
      if (m.kind === 'loaded' && m.own) {
        page.model = { info: m.info, sha256: m.sha256, cached: false, memory: m.memory, own: true };
        const i = m.info;
        $('md-model').textContent = `${i.id} (${i.layers} layers × ${i.heads} heads, hidden ${i.hidden})`;
        $('md-model').title = `page memory estimate: ${(m.memory / 2 ** 20).toFixed(0)} MiB for ${i.max_positions} tokens`;
        $('md-file').textContent = `your files loaded in ${(m.ms / 1000).toFixed(1)} s`;
        $('md-own').textContent = `Loaded ${i.id}: model.safetensors sha256 ${m.sha256}.`;
        page.error('');
        // A link refused for naming these weights opens now; else the shown text on the new model.
        const refused = page.refused && modelOf(page.refused) === i.id ? page.refused : null;
        page.refused = null;
        page.analyse(refused ?? page.linkWith({ layer: 1, head: 0 }), 'push');
        return true;
      }
      if (m.kind === 'error' && m.stage === 'files') {
        $('md-state').textContent = page.result ? 'ready' : 'no model';
        $('md-own').textContent = '';
        const kept = page.model ? ` The page keeps ${page.model.info.id}${page.result ? ' and its analysis' : ''}.` : '';
        page.error(`Your files were refused: ${m.error}.${kept}`);
        return true;
      }
      if (m.kind === 'error' && m.stage === 'analyse' && m.error.startsWith('`model`')) {
        const wanted = modelOf(page.sentLink);
        page.refused = page.sentLink;
        // Other weights than the loaded ones (the link itself is valid): say how to load them. A
        // malformed `model` value names no weights; its message says what is malformed.
        const wellFormed = page.wasm.check_link(page.sentLink, 'model').ok;
        if (wanted && wellFormed && page.model && wanted !== page.model.info.id) {
          m.error = `${m.error.replace(/[.\s]*$/, '')}. To open it, load ${wanted.split('@')[0]}'s files (model.safetensors, config.json, vocab.txt) with "Load your own BERT" in "Your own model"; the link opens once the weights' sha256 matches.`;
        }
      }
      return false;
    },
  };
}
