// A corpus of hostile links for the three labs (hostile.test.mjs opens each in real Chromium).
//
// Each entry: `hash` (what follows '#', as a user could paste it: the browser percent-encodes
// what a URL cannot hold), `lab` (the lab that must show), and what the page must do:
//   key: 'k'       refuse the link with a visible message naming the key `k` (the last good or
//                  the default state keeps running);
//   keyPrefix: 'k' the same, for keys the message shortens (their first characters);
//   says: 's'      (with key) the message also contains the text `s` (e.g. the value as typed);
//   valid: true    the link is valid (hostile text is data): it runs, with no message;
//   canonical: 'c' (with valid) the configuration the lab shows is exactly `c`;
//   defaults: true nothing to read in it: the lab's default state, with no message;
//   diverges: N    (particles, with valid) the run shown has diverged at step N: its divergence
//                  message is shown and the Export menu's data end at that state;
//   unsaid: 's'    (with key) the message does not contain `s`.
// A refused model-lab link shows the served model on the first text instead, the refusal over it,
// and the address bar keeps the refused link.
// Payloads try to set `window.__pwned` or open a dialog; none may succeed.

const X = 'window.__pwned=1';
const IMG = `<img src=x onerror=${X}>`;
const SCRIPT = `<script>${X}</script>`;
const SVG = `<svg onload=${X}>`;
const enc = encodeURIComponent;
const big = (n, c = '9') => c.repeat(n);

/** @type {Array<{ name: string, hash: string, lab: 'particles'|'training'|'depth'|'model', key?: string, keyPrefix?: string, says?: string, unsaid?: string, valid?: boolean, canonical?: string, defaults?: boolean, diverges?: number }>} */
export const HOSTILE_LINKS = [
  // ---- script injection, in every position ------------------------------------------------
  { name: 'script in the preset name', lab: 'particles', hash: `preset=${SCRIPT}`, key: 'preset' },
  { name: '<img onerror> in the preset name', lab: 'particles', hash: `preset=${IMG}`, key: 'preset' },
  { name: 'percent-encoded script in the preset name', lab: 'particles', hash: `preset=${enc(SCRIPT)}`, key: 'preset' },
  { name: 'javascript: URL as the preset', lab: 'particles', hash: 'preset=javascript:alert(1)', key: 'preset' },
  { name: 'javascript: URL as the whole hash', lab: 'particles', hash: `javascript:${X}`, keyPrefix: 'javascript:window.__pwned' },
  { name: 'script as a key', lab: 'particles', hash: `preset=polytope&${enc(SCRIPT)}=1`, key: SCRIPT },
  { name: '<img onerror> as a key', lab: 'particles', hash: `preset=polytope&${enc(IMG)}=1`, key: IMG },
  { name: 'script in a number', lab: 'particles', hash: `preset=polytope&beta=${enc(SCRIPT)}`, key: 'beta' },
  { name: 'attribute break-out in a value', lab: 'particles', hash: `preset=polytope&seed=${enc(`"><img src=x onerror=alert(1)>`)}`, key: 'seed' },
  { name: '<img onerror> in a matrix entry', lab: 'particles', hash: `preset=polytope&v=${enc(IMG)},0;0,1`, key: 'v' },
  { name: '<svg onload> in a matrix entry of Q', lab: 'particles', hash: `preset=polytope&q=1,0;0,${enc(SVG)}`, key: 'q' },
  { name: 'script in the points', lab: 'particles', hash: `preset=polytope&init=points&points=${enc(SCRIPT)}`, key: 'points' },
  { name: 'script in the model name', lab: 'particles', hash: `preset=polytope&model=${enc(SCRIPT)}`, key: 'model' },
  { name: 'script in the lab name', lab: 'particles', hash: `lab=${enc(SCRIPT)}`, key: 'lab' },
  { name: 'a lab name in the wrong case, with a training preset', lab: 'particles', hash: 'version=2&lab=Training&preset=scan-snap', key: 'lab', says: 'unknown lab "Training"; allowed: particles, training, depth, model' },
  { name: 'an unknown lab after a valid particle link', lab: 'particles', hash: 'version=2&preset=polytope&lab=foo', key: 'lab', says: 'unknown lab "foo"; allowed: particles, training, depth, model' },
  { name: 'an unknown lab with training keys', lab: 'particles', hash: 'version=2&lab=Training&preset=scan-snap&eta_z=2', key: 'lab', says: 'unknown lab "Training"' },
  { name: 'prototype key __proto__', lab: 'particles', hash: 'preset=polytope&__proto__=1', key: '__proto__' },
  { name: 'prototype key constructor', lab: 'particles', hash: 'preset=polytope&constructor=alert', key: 'constructor' },

  // ---- numbers: huge, -0, NaN, Infinity ------------------------------------------------------
  { name: 'n = 1e309', lab: 'particles', hash: 'preset=polytope&n=1e309', key: 'n' },
  { name: 'beta = 1e309', lab: 'particles', hash: 'preset=polytope&beta=1e309', key: 'beta' },
  { name: 'dt = 1e-400 (underflows to 0)', lab: 'particles', hash: 'preset=polytope&dt=1e-400', key: 'dt', says: '"1e-400" is out of range' },
  { name: 'beta = 1e-400 (quoted as typed, not as the 0 it reads as)', lab: 'particles', hash: 'version=2&preset=polytope&beta=1e-400', key: 'beta', says: '"1e-400" is out of range' },
  { name: 'seed with 100 000 digits (a 100 kB hash)', lab: 'particles', hash: `preset=polytope&seed=${big(100_000)}`, key: 'seed' },
  { name: 'until = 1e300', lab: 'particles', hash: 'preset=polytope&until=1e300', key: 'until' },
  { name: 'beta = -0', lab: 'particles', hash: 'preset=polytope&beta=-0', key: 'beta' },
  { name: 'n = -0', lab: 'particles', hash: 'preset=polytope&n=-0', key: 'n' },
  { name: 'dt = NaN', lab: 'particles', hash: 'preset=polytope&dt=NaN', key: 'dt' },
  { name: 'scale = Infinity', lab: 'particles', hash: 'preset=polytope&scale=Infinity', key: 'scale' },
  { name: 'beta = -inf', lab: 'particles', hash: 'preset=polytope&beta=-inf', key: 'beta' },
  { name: 'a matrix entry of 1e309', lab: 'particles', hash: 'preset=polytope&v=1e309,0;0,1', key: 'v' },
  { name: 'NaN in a matrix', lab: 'particles', hash: 'preset=polytope&k=1,NaN;0,1', key: 'k' },
  { name: 'Infinity in the points', lab: 'particles', hash: 'preset=polytope&n=2&init=points&points=0,0;Infinity,1', key: 'points' },
  { name: 'hexadecimal number', lab: 'particles', hash: 'preset=polytope&n=0x14', key: 'n' },

  // ---- shapes and sizes -------------------------------------------------------------------
  { name: 'a 3 x 2 matrix for d = 2', lab: 'particles', hash: 'preset=polytope&v=1,0;0,1;0,0', key: 'v' },
  { name: 'a ragged matrix', lab: 'particles', hash: 'preset=polytope&q=1,2,3', key: 'q' },
  { name: 'an empty matrix', lab: 'particles', hash: 'preset=polytope&v=;;', key: 'v' },
  { name: 'd changed under a fixed 2 x 2 V', lab: 'particles', hash: 'preset=hyperplanes&d=3', key: 'v' },
  { name: 'points of the wrong shape', lab: 'particles', hash: 'preset=polytope&init=points&points=1,2,3;4,5,6', key: 'points' },
  { name: 'n too large', lab: 'particles', hash: 'preset=polytope&n=4097', key: 'n' },
  { name: 'd too large', lab: 'particles', hash: 'preset=polytope&d=257', key: 'd' },
  { name: 'n and d too large for the device', lab: 'particles', hash: 'preset=polytope&n=4096&d=256', key: 'n' },
  // One token, a constant series (the token view's axis: charts_labels.test.mjs).
  { name: 'one token (valid)', lab: 'particles', hash: 'version=2&preset=polytope&n=1', valid: true },
  { name: 'n too large for the device with rk4', lab: 'particles', hash: 'preset=polytope&n=4096&d=3&integrator=rk4', key: 'n' },

  // ---- unicode and control characters ----------------------------------------------------
  { name: 'right-to-left override in a number', lab: 'particles', hash: 'preset=polytope&seed=%E2%80%AE123', key: 'seed' },
  { name: 'zero-width space in the preset name', lab: 'particles', hash: 'preset=poly%E2%80%8Btope', key: 'preset' },
  // A key holding an invisible character is named escaped, as values are quoted.
  { name: 'zero-width space in a key', lab: 'particles', hash: 'preset=polytope&n%E2%80%8B=3', key: 'n\\u{200b}' },
  { name: 'zero-width space before a known key', lab: 'particles', hash: 'version=4&preset=polytope&%E2%80%8Bn=5', key: '\\u{200b}n', says: 'unknown key for lab=particles' },
  { name: 'soft hyphen inside a known key', lab: 'particles', hash: 'version=4&pre%C2%ADset=polytope', key: 'pre\\u{ad}set' },
  { name: 'full-width digits', lab: 'particles', hash: `preset=polytope&n=${enc('２０')}`, key: 'n' },
  { name: 'emoji as the model', lab: 'particles', hash: 'preset=polytope&model=%F0%9F%92%A3', key: 'model' },
  { name: 'NUL in a number', lab: 'particles', hash: 'preset=polytope&seed=1%00', key: 'seed' },
  // The message shows control characters in a key escaped.
  { name: 'newline and escape in a key', lab: 'particles', hash: 'preset=polytope&n%0A%1B[31m=3', key: 'n\\u{a}\\u{1b}[31m' },
  { name: 'DEL and tab in a value', lab: 'particles', hash: 'preset=polytope&beta=1%7F%09', key: 'beta' },
  { name: 'invalid UTF-8 bytes', lab: 'particles', hash: 'preset=polytope&v=%C3%28', key: 'v' },
  // A valid name followed by a control character: the message shows the character escaped.
  { name: 'NUL after a valid preset name', lab: 'particles', hash: 'version=2&preset=polytope%00', key: 'preset', says: 'unknown preset "polytope\\u{0}"' },
  { name: 'newline after a valid preset name', lab: 'particles', hash: 'version=2&preset=polytope%0A', key: 'preset', says: 'unknown preset "polytope\\u{a}"' },
  { name: 'a terminal colour escape after a valid preset name', lab: 'particles', hash: 'version=2&preset=polytope%1B%5B31m', key: 'preset', says: 'unknown preset "polytope\\u{1b}[31m"' },

  // ---- truncated, doubly encoded, repeated, unknown --------------------------------------
  { name: 'a matrix cut short', lab: 'particles', hash: 'preset=polytope&v=1,0;0', key: 'v' },
  { name: 'a value cut short', lab: 'particles', hash: 'preset=polytope&n=', key: 'n' },
  { name: 'a key without a value', lab: 'particles', hash: 'preset=polytope&beta', key: 'beta' },
  { name: 'an escape cut short', lab: 'particles', hash: 'preset=polytope&n=2%', key: 'n' },
  { name: 'a UTF-8 sequence cut short', lab: 'particles', hash: 'preset=polytope&v=%E2%80', key: 'v' },
  { name: 'a doubly percent-encoded value', lab: 'particles', hash: 'preset=polytope%2526n%253D3', key: 'preset' },
  { name: 'a doubly percent-encoded hash', lab: 'particles', hash: 'preset%253Dpolytope%2526n%253D3', keyPrefix: 'preset%253Dpolytope' },
  { name: 'a key repeated', lab: 'particles', hash: 'preset=polytope&n=20&n=30', key: 'n' },
  { name: 'the preset repeated', lab: 'particles', hash: 'preset=polytope&preset=leaders', key: 'preset' },
  { name: 'an unknown key', lab: 'particles', hash: 'preset=polytope&foo=1', key: 'foo' },
  { name: 'a future version', lab: 'particles', hash: 'version=8&preset=polytope', key: 'version' },
  { name: 'a 100 kB key of garbage', lab: 'particles', hash: big(100_000, 'x'), keyPrefix: 'xxxxxxxxxx' },
  { name: 'a 100 kB matrix', lab: 'particles', hash: `preset=polytope&v=${'1,'.repeat(50_000)}1`, key: 'v' },
  { name: 'an empty hash', lab: 'particles', hash: '', defaults: true },
  { name: 'only separators', lab: 'particles', hash: '&&&&', defaults: true },

  // ---- view keys (never change the numbers; validated all the same) ---------------------
  { name: 't = 1e309', lab: 'particles', hash: 'preset=polytope&t=1e309', key: 't' },
  { name: 't = -1', lab: 'particles', hash: 'preset=polytope&t=-1', key: 't' },
  { name: 'embed = 2', lab: 'particles', hash: 'preset=polytope&embed=2', key: 'embed' },
  // The moment asked lies past a divergence (the scores overflow at step 5875).
  { name: 't = 1e6 past a divergence at step 5875: the exports hold the state shown', lab: 'particles', hash: 'version=2&preset=hyperplanes&dt=1&until=1e6&t=1e6', valid: true, diverges: 5875 },
  { name: 'script in panels', lab: 'particles', hash: `preset=polytope&embed=1&panels=${enc(SCRIPT)}`, key: 'panels' },

  // ---- the training lab --------------------------------------------------------------------
  { name: 'training: <img onerror> as the preset', lab: 'training', hash: `lab=training&preset=${enc(IMG)}`, key: 'preset' },
  { name: 'training: queries = 1e309', lab: 'training', hash: 'lab=training&preset=scan-snap&queries=1e309', key: 'queries' },
  { name: 'training: eta_z = NaN', lab: 'training', hash: 'lab=training&preset=scan-snap&eta_z=NaN', key: 'eta_z' },
  { name: 'training: momentum = Infinity', lab: 'training', hash: 'lab=training&preset=scan-snap&momentum=Infinity', key: 'momentum' },
  { name: 'training: ratio = -0', lab: 'training', hash: 'lab=training&preset=scan-snap&ratio=-0', key: 'ratio', says: '"-0" is out of range' },
  { name: 'training: momentum = -0 (valid, written as 0)', lab: 'training', hash: 'version=7&lab=training&preset=scan-snap&momentum=-0', valid: true, canonical: 'version=7&lab=training&preset=scan-snap&momentum=0' },
  { name: 'training: snap_tol = 1e-400 (quoted as typed)', lab: 'training', hash: 'version=2&lab=training&preset=scan-snap&snap_tol=1e-400', key: 'snap_tol', says: '"1e-400" is out of range' },
  { name: 'training: a batch too large together with seq_len', lab: 'training', hash: 'lab=training&preset=scan-snap&batch=4096&seq_len=4096', key: 'batch' },
  { name: 'training: an unknown key', lab: 'training', hash: 'lab=training&preset=scan-snap&foo=%00', key: 'foo' },
  { name: 'training: a key repeated', lab: 'training', hash: 'lab=training&preset=scan-snap&seed=1&seed=2', key: 'seed' },
  { name: 'training: RTL override in a number', lab: 'training', hash: 'lab=training&preset=scan-snap&batch=%E2%80%AE12', key: 'batch' },
  { name: 'training: text of 30 000 bytes', lab: 'training', hash: `lab=training&preset=scan-snap&text=${big(30_000, 'a')}`, key: 'text' },
  { name: 'training: script as the text (valid: text is data)', lab: 'training', hash: `lab=training&preset=scan-snap&iterations=30&text=${enc(`${SCRIPT} ${IMG} the cat sat. the dog ran.`)}`, valid: true },

  // ---- the depth lab -----------------------------------------------------------------------
  { name: 'depth: <svg onload> as the preset', lab: 'depth', hash: `lab=depth&preset=${enc(SVG)}`, key: 'preset' },
  { name: 'depth: layers = 1e309', lab: 'depth', hash: 'lab=depth&preset=collapse-small&layers=1e309', key: 'layers' },
  { name: 'depth: tokens = NaN', lab: 'depth', hash: 'lab=depth&preset=collapse-small&tokens=NaN', key: 'tokens' },
  { name: 'depth: threshold = Infinity', lab: 'depth', hash: 'lab=depth&preset=collapse-small&threshold=Infinity', key: 'threshold' },
  { name: 'depth: bias_scale = -0 (valid, written as 0: the default)', lab: 'depth', hash: 'version=7&lab=depth&preset=collapse-small&bias_scale=-0', valid: true, canonical: 'version=7&lab=depth&preset=collapse-small' },
  // When a text sets n (input=text) a tokens written in a version-4 link must be its count;
  // older links ran with the text's count and still do (their tokens is dropped).
  { name: 'depth: tokens with input=text other than the text\'s count', lab: 'depth', hash: 'version=7&lab=depth&preset=context-text&tokens=5', key: 'tokens', says: 'the text sets n = 73 tokens' },
  { name: 'depth: a version-2 link with tokens and input=text (valid, migrated)', lab: 'depth', hash: 'version=2&lab=depth&preset=context-text&tokens=5', valid: true, canonical: 'version=7&lab=depth&preset=context-text' },
  { name: 'depth: a version-3 link with tokens and input=text (valid, migrated)', lab: 'depth', hash: 'version=3&lab=depth&preset=context-text&tokens=5', valid: true, canonical: 'version=7&lab=depth&preset=context-text' },
  { name: 'depth: heads = 0', lab: 'depth', hash: 'lab=depth&preset=collapse-small&heads=0', key: 'heads' },
  { name: 'depth: script among the variants', lab: 'depth', hash: `lab=depth&preset=collapse-small&variants=san,${enc(SCRIPT)}`, key: 'variants' },
  { name: 'depth: script in the particle configuration', lab: 'depth', hash: `lab=depth&preset=collapse-small&particle=${enc(`preset=${SCRIPT}`)}`, key: 'particle' },
  { name: 'depth: sentence lengths that do not sum to n', lab: 'depth', hash: 'lab=depth&preset=collapse-small&sentences=1,2,3', key: 'sentences' },
  { name: 'depth: an unknown key with a zero-width space', lab: 'depth', hash: 'lab=depth&preset=collapse-small&lay%E2%80%8Bers=2', key: 'lay\\u{200b}ers' },
  { name: 'depth: script as the text (valid: text is data)', lab: 'depth', hash: `lab=depth&preset=collapse-small&input=text&tokens=12&text=${enc(`${SCRIPT} ${IMG}. ok.`)}`, valid: true },
  // A residual of exactly 0 and an f32 overflow run and are drawn (the charts:
  // charts_labels.test.mjs); one token more than the page holds at 48 layers of 16 heads (the
  // core and the CLI take it, the page's limit, web crate page_limits.rs, does not).
  { name: 'depth: a residual of exactly 0 (valid)', lab: 'depth', hash: 'version=2&lab=depth&preset=collapse-small&tokens=2&heads=1&d_model=1&d_head=1&layers=1', valid: true },
  { name: 'depth: an f32 overflow (valid)', lab: 'depth', hash: 'version=2&lab=depth&preset=bert-init&qk_scale=10&weight_scale=10&layernorm=none&layers=4&heads=2&tokens=16', valid: true },
  { name: 'depth: more similarity maps than the page holds', lab: 'depth', hash: 'version=7&lab=depth&layers=48&heads=16&tokens=209&d_model=1024&d_head=64&mlp_width=3072', key: 'tokens', says: 'the page allows n <= 208' },

  // ---- the model lab -----------------------------------------------------------------------
  // A key the lab does not have is refused naming it, as `attn encode --config` refuses it, also
  // in a link without `model` and `text` (which otherwise opens the default).
  { name: 'model: an unknown key in a bare link', lab: 'model', hash: 'lab=model&bogus=1', key: 'bogus', says: 'unknown key for lab=model' },
  { name: 'model: a particle preset in a bare link', lab: 'model', hash: 'lab=model&preset=polytope', key: 'preset' },
  { name: 'model: a particle key in a bare link', lab: 'model', hash: 'lab=model&n=20', key: 'n' },
  { name: 'model: a depth view key in a bare link', lab: 'model', hash: 'lab=model&residual_axis=linear', key: 'residual_axis' },
  { name: 'model: an unknown key beside view keys', lab: 'model', hash: 'version=4&lab=model&layer=2&bogus=1', key: 'bogus' },
  { name: 'model: a zero-width space before a known key', lab: 'model', hash: 'lab=model&%E2%80%8Btext=hi', key: '\\u{200b}text' },
  // `model` has the key table's default, the served weights.
  { name: 'model: a text without model (valid: the served weights)', lab: 'model', hash: 'lab=model&text=hello', valid: true, canonical: 'version=7&lab=model&model=all-MiniLM-L6-v2@53aa51172d142c89&text=hello' },
  // A malformed `model` says what is malformed, not which files to load.
  { name: 'model: an empty model name', lab: 'model', hash: 'lab=model&model=@53aa51172d142c89&text=hi', key: 'model', says: "the name before '@' is empty", unsaid: 'load ' },
  { name: 'model: upper-case hex digits in the model', lab: 'model', hash: 'lab=model&model=all-MiniLM-L6-v2@53AA51172D142C89&text=hi', key: 'model', says: 'has upper-case hex digits; the form is NAME@SHA16', unsaid: 'load ' },
  { name: 'model: script as the model', lab: 'model', hash: `lab=model&model=${enc(SCRIPT)}&text=hi`, key: 'model', unsaid: 'load ' },
];
