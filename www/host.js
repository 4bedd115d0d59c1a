// The example host page (host.html): embeds the playground and drives it through the postMessage
// API (www/embed/api.js; the "postMessage API" section of docs/embedding.md). Messages from the frame are
// data, shown as text only, and read only when they come from the frame and say
// `source: 'attn-playground'`.

const $ = (id) => document.getElementById(id);
const frame = /** @type {HTMLIFrameElement} */ ($('embed'));
const log = $('log');
const DEFAULT_LINK = 'version=7&preset=polytope&embed=1';
const MAX_LOG = 60;

/** Every event received, in order (the browser tests read it). */
const events = [];
window.__hostEvents = events;

let nextId = 1;

/** Sends a command to the embedded playground; returns its id. */
function send(type, fields = {}) {
  const id = `c${nextId}`;
  nextId += 1;
  frame.contentWindow.postMessage({ target: 'attn-playground', type, id, ...fields }, new URL(frame.src).origin);
  return id;
}

function fmt(n) {
  return typeof n === 'number' && Number.isFinite(n) ? String(Number(n.toPrecision(6))) : String(n);
}

/** One line of the event log (text only). */
function logLine(msg) {
  const li = document.createElement('li');
  const { source, version, ...rest } = msg;
  const text = JSON.stringify(rest);
  li.textContent = text.length > 400 ? `${text.slice(0, 400)}…` : text;
  log.append(li);
  while (log.children.length > MAX_LOG) log.firstElementChild.remove();
  log.scrollTop = log.scrollHeight;
}

window.addEventListener('message', (e) => {
  if (e.source !== frame.contentWindow) return;
  const msg = e.data;
  if (typeof msg !== 'object' || msg === null || msg.source !== 'attn-playground') return;
  events.push(msg);
  logLine(msg);
  if (msg.type === 'height' && Number.isFinite(msg.px)) {
    // Auto-resize: the frame as tall as the playground's document (within sane bounds).
    frame.style.height = `${Math.min(6000, Math.max(200, Math.ceil(msg.px)))}px`;
  } else if (msg.type === 'state' || msg.type === 'ready') {
    const s = msg.type === 'ready' ? msg.state : msg;
    if (s) $('host-state').textContent = `t = ${fmt(s.t)}, step ${s.step}, ${s.status}, n = ${s.n}${s.metrics ? `, ${s.metrics.clusters} clusters` : ''}`;
  } else if (msg.type === 'error') {
    $('host-state').textContent = `error: ${msg.field}: ${msg.message}`;
  }
});

$('cmd-play').addEventListener('click', () => send('play'));
$('cmd-pause').addEventListener('click', () => send('pause'));
$('cmd-state').addEventListener('click', () => send('getState'));
$('cmd-seek').addEventListener('click', () => send('seek', { t: Number(/** @type {HTMLInputElement} */ ($('seek-t')).value) }));
$('cmd-config').addEventListener('click', () => send('setConfig', { config: /** @type {HTMLInputElement} */ ($('config')).value }));
$('cmd-bad').addEventListener('click', () => send('seek'));

const link = location.hash.replace(/^#/, '') || DEFAULT_LINK;
frame.src = `index.html#${link}`;
window.__hostSend = send;
