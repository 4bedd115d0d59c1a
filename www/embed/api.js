// The postMessage API: a host page (the parent of an embedded playground, or the window that
// opened it) drives the particle lab (the page's default lab) with commands and hears its state (embed/protocol.js has
// the schema, docs/embedding.md the whole protocol, www/host.html an example host).
//
// Every command is checked against the schema; an invalid one is answered with an `error` event
// naming the field. Every reply carries the origin the command came from, and a small status line
// on the page shows it. Events: `ready` once, `state` after each command and, while the run plays
// or seeks, at most every STATE_INTERVAL_MS; `height` whenever the document's height changes.

import { COMMAND_NAMES, event, parseCommand, quote } from './protocol.js';

/** Least time between two unrequested `state` events (ms): at most 4 per second. */
export const STATE_INTERVAL_MS = 250;

/** Largest number of steps a seek may ask for (as `until / dt` in the configuration). */
const MAX_STEPS = 1e8;

/** The lab the API drives. */
const LAB = 'particles';

/**
 * Starts listening for commands.
 * @param {{ wasm: AttnPageWasm, labs: import('../lab/labs.js').Labs,
 *   openLink: (text: string, how: string) => Promise<void>, embedded: () => boolean }} h
 */
export function setupApi(h) {
  const lab = () => h.labs.loaded(LAB);
  const shown = () => h.labs.activeId;
  const parent = window.parent !== window ? window.parent : null;
  let lastSent = 0; // when the last state event left (ms)
  let lastStep = -1;
  let lastStatus = '';
  const line = document.createElement('p');
  line.id = 'api-status';
  line.className = 'api-status';
  line.setAttribute('role', 'status');
  line.hidden = true;
  // In the particle lab's status area: the one row embed mode keeps.
  (lab()?.root.querySelector('.status-area') || document.body).append(line);

  /** Sends an unrequested event to the host (the parent frame, else the opener). */
  const broadcast = (msg) => {
    const to = parent || window.opener;
    if (to) to.postMessage(msg, '*'); // the events hold nothing private: the page's own state
  };

  const state = () => lab()?.state() ?? null;

  const reply = (e, msg) => {
    if (!e.source) return;
    e.source.postMessage(msg, { targetOrigin: e.origin && e.origin !== 'null' ? e.origin : '*' });
  };

  const show = (origin, text) => {
    line.hidden = false;
    line.textContent = `Controlled by ${origin || 'an unknown origin'}: ${text}`;
  };

  async function run(cmd) {
    if (cmd.type === 'getState') return null;
    if (cmd.type === 'setConfig') {
      const asked = h.wasm.requested_lab(cmd.config);
      if (asked !== LAB) return { field: 'config', message: `this configuration is for the ${asked} lab; the API drives the particle lab` };
      // An embed of another lab stays that lab: its embedding page's link chose the lab with its
      // panels, controls and size, which name that lab's parts (a particle link would drop
      // embed=1 and leave the particle lab in a frame laid out for another). Refused naming `lab`.
      if (h.embedded() && shown() !== LAB) {
        const res = {
          ok: false,
          key: 'lab',
          message: `this embed shows the ${shown()} lab (its embedding page's link chose it, with its panels and controls); setConfig drives the particle lab of a particle embed: embed a particle link to drive it`,
        };
        h.labs.active?.refuse(res, 'Sent by the host page; the embed keeps its view.');
        return { field: 'config', key: res.key, message: `\`${res.key}\`: ${res.message}` };
      }
      // Checked as a link is: its view keys (t, panels, ...) too, then the page's per-step limit;
      // `embed` is refused (embed mode is the embedding page's: check_link's from_api).
      const link = h.wasm.check_link(cmd.config, undefined, true);
      const res = link.ok ? lab().check(link.canonical) : link;
      if (!res.ok) {
        lab().refuse(res, 'Sent by the host page; the last valid run keeps going.');
        return { field: 'config', key: res.key, message: `\`${res.key}\`: ${res.message}` };
      }
      // A host's command replaces the frame's history entry (the host's history is not ours).
      await h.openLink(link.link, 'replace');
      return null;
    }
    if (shown() !== LAB) {
      return { field: 'type', message: `${cmd.type} drives the particle lab, but the page shows the ${shown()} lab` };
    }
    if (cmd.type === 'play') lab().play();
    else if (cmd.type === 'pause') lab().pause();
    else if (cmd.type === 'seek') {
      // A moment of the run: up to its `until` (or up to where it has already played past it).
      const { dt, until, t } = state();
      const end = Math.max(until, t);
      const steps = Math.round(cmd.t / dt);
      if (cmd.t > end + dt / 2 || steps > MAX_STEPS) return { field: 't', message: `${cmd.t} is out of range; allowed: 0 <= t <= ${end} (the run's until)` };
      await lab().seekTo(steps);
    }
    return null;
  }

  window.addEventListener('message', async (e) => {
    const trusted = e.source && (e.source === parent || e.source === window.opener || (!parent && e.source === window));
    if (!trusted) return;
    const parsed = parseCommand(e.data);
    if (parsed === null) return;
    const origin = e.origin || 'null';
    if (!parsed.ok) {
      show(origin, `refused ${parsed.type ?? 'a command'} (${parsed.field}: ${parsed.message})`);
      reply(e, event('error', { replyTo: parsed.id, command: parsed.type, origin, field: parsed.field, message: parsed.message }));
      return;
    }
    const cmd = parsed.command;
    show(origin, cmd.type === 'seek' ? `seek to t = ${cmd.t}` : cmd.type === 'setConfig' ? `setConfig ${quote(cmd.config, 60)}` : cmd.type);
    let problem;
    try {
      problem = await run(cmd);
    } catch (err) {
      problem = { field: 'type', message: `${cmd.type} failed: ${err && err.message ? err.message : err}` };
    }
    if (problem) {
      reply(e, event('error', { replyTo: cmd.id, command: cmd.type, origin, ...problem }));
      return;
    }
    lastSent = performance.now();
    reply(e, event('state', { replyTo: cmd.id, command: cmd.type, origin, ...state() }));
  });

  // Unrequested state events while the run moves; one more when it stops moving.
  setInterval(() => {
    if (shown() !== LAB) return;
    const s = state();
    if (!s) return;
    const moving = s.status === 'playing' || s.status === 'seeking';
    const changed = s.step !== lastStep || s.status !== lastStatus;
    if (!changed || (!moving && lastStatus !== 'playing' && lastStatus !== 'seeking')) {
      lastStep = s.step;
      lastStatus = s.status;
      return;
    }
    if (performance.now() - lastSent < STATE_INTERVAL_MS - 5) return;
    lastStep = s.step;
    lastStatus = s.status;
    lastSent = performance.now();
    broadcast(event('state', s));
  }, STATE_INTERVAL_MS);

  // The document's height, for hosts that size the iframe to its content.
  let lastHeight = -1;
  const measure = () => {
    const px = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (px === lastHeight) return;
    lastHeight = px;
    broadcast(event('height', { px }));
  };
  new ResizeObserver(measure).observe(document.documentElement);

  broadcast(event('ready', { commands: COMMAND_NAMES, lab: shown(), state: state() }));
  measure();
}
