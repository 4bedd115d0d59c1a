// The postMessage protocol between the playground and a host page (pure functions, no DOM; the
// "postMessage API" section of docs/embedding.md documents it).
//
// Commands (host -> playground) are plain objects addressed with `target: 'attn-playground'`:
//   { target, type: 'play' | 'pause' | 'getState', id? }
//   { target, type: 'seek', t, id? }            t: time, finite, 0 <= t <= 1e6
//   { target, type: 'setConfig', config, id? }  config: a particle configuration string
// `id` (optional) is a string of at most 64 characters or a finite number, echoed as `replyTo`.
// Events (playground -> host) carry `source: 'attn-playground'` and `version: 1`:
//   ready, state, height, error (see docs/embedding.md).

/** `source` of every event the playground sends; `target` of every command it reads. */
export const SOURCE = 'attn-playground';

/** Protocol version, sent with every event. */
export const VERSION = 1;

/** Largest `t` of a seek (as the configuration's `until`). */
export const MAX_T = 1e6;

/** Longest `config` of a setConfig (characters). */
export const MAX_CONFIG = 1_000_000;

/** Longest `id` (characters). */
export const MAX_ID = 64;

/** Each command's own fields and their checks. */
const COMMANDS = {
  play: {},
  pause: {},
  getState: {},
  seek: { t: checkT },
  setConfig: { config: checkConfig },
};

/** The command names, in the order of docs/embedding.md's table. */
export const COMMAND_NAMES = Object.keys(COMMANDS);

function checkT(v) {
  if (typeof v !== 'number') return `must be a number (seconds of model time), got ${typeName(v)}`;
  if (!Number.isFinite(v)) return `must be finite, got ${v}`;
  if (v < 0 || v > MAX_T) return `${v} is out of range; allowed: 0 <= t <= ${MAX_T}`;
  return null;
}

function checkConfig(v) {
  if (typeof v !== 'string') return `must be a string (key=value&...), got ${typeName(v)}`;
  if (v.length > MAX_CONFIG) return `is ${v.length} characters long; allowed: at most ${MAX_CONFIG}`;
  return null;
}

function typeName(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v;
}

/** A value quoted for a message, cut to `max` characters. */
export function quote(v, max = 40) {
  const s = typeof v === 'string' ? v : String(v);
  return JSON.stringify(s.length > max ? `${s.slice(0, max)}…` : s);
}

/**
 * Checks a message's data against the command schema.
 * Returns null when the message is not addressed to the playground (not a plain object with
 * `target: 'attn-playground'`: ignored), else `{ ok: true, command: { type, id, ...fields } }` or
 * `{ ok: false, type, id, field, message }` naming the field that is wrong.
 */
export function parseCommand(data) {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  let target;
  try {
    target = data.target;
  } catch {
    return null;
  }
  if (target !== SOURCE) return null;
  // Own enumerable data properties only (structured clones have no getters or prototypes).
  const fields = Object.keys(data);
  const id = data.id;
  const idOk = id === undefined || (typeof id === 'string' && id.length <= MAX_ID) || (typeof id === 'number' && Number.isFinite(id));
  const safeId = idOk ? id ?? null : null;
  const fail = (type, field, message) => ({ ok: false, type, id: safeId, field, message });
  const type = data.type;
  if (typeof type !== 'string') return fail(null, 'type', `must be a string naming the command (${COMMAND_NAMES.join(', ')}), got ${typeName(type)}`);
  if (!Object.hasOwn(COMMANDS, type)) return fail(null, 'type', `unknown command ${quote(type)}; allowed: ${COMMAND_NAMES.join(', ')}`);
  if (!idOk) return fail(type, 'id', `must be a string of at most ${MAX_ID} characters or a finite number`);
  const spec = COMMANDS[type];
  const allowed = ['target', 'type', 'id', ...Object.keys(spec)];
  for (const f of fields) {
    if (!allowed.includes(f)) return fail(type, f.slice(0, 40), `unknown field for ${type}; allowed: ${allowed.join(', ')}`);
  }
  const command = { type, id: safeId };
  for (const [f, check] of Object.entries(spec)) {
    if (!fields.includes(f)) return fail(type, f, `is required by ${type}`);
    const problem = check(data[f]);
    if (problem) return fail(type, f, problem);
    command[f] = data[f];
  }
  return { ok: true, command };
}

/** An event of type `type` with `fields`. */
export function event(type, fields = {}) {
  return { source: SOURCE, version: VERSION, type, ...fields };
}
