// How fast each lab opens, for `cargo xtask bench --open-only` (docs/bench.md, "Opening"): in
// headless Chromium (tests/e2e/helpers.mjs: playwright-core, Debian's Chromium) on the served
// www/, each of `rounds` rounds opens, in a new page with a cold module cache,
//   - `/` (the particle lab's default) and reads the mark of its first token frame;
//   - each lab's default link (the tab's link) and reads the mark of its first picture
//     (www/lab/marks.js: `attn-first-picture:<lab>`; the depth lab also `attn-depth-complete`,
//     every variant drawn; the model lab `attn-model-skeleton`, its lede and skeleton);
//   - the depth lab's `bert-init` preset: its first curve (SAN), every variant drawn, and the
//     measure `attn-depth-worker-start` (its worker's start-up, a duration);
// the times are the marks' startTime, ms from the navigation's start. Also, per opening, the bytes
// the page downloaded before its first mark (the navigation's and every resource's transferSize
// whose response ended before it: compressed bytes, as sent) and the 1-minute load average taken
// just before it. Prints one JSON line: { rounds, load: [1, 5, 15 min], times: { name: [ms per
// round] }, bytes: { name: [bytes per round] }, loads: { name: [1-min load per round] } } or
// { error }.
// Usage: ATTN_URL=... node open_times.mjs <rounds>
import { readFileSync } from 'node:fs';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';

const root = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const { launch } = await import(pathToFileURL(join(root, 'tests/e2e/helpers.mjs')).href);
const rounds = Number(process.argv[2] ?? 3);
const URL_BASE = process.env.ATTN_URL;

/** What is opened and which marks are read (name in the table -> mark). */
const OPENINGS = [
  { hash: '', marks: { '/ first token frame': 'attn-first-picture:particles' } },
  { hash: 'version=6&lab=training&preset=scan-snap', marks: { 'training first picture': 'attn-first-picture:training' } },
  {
    hash: 'version=6&lab=depth&preset=collapse-small',
    marks: { 'depth first picture': 'attn-first-picture:depth', 'depth fully drawn': 'attn-depth-complete' },
  },
  {
    hash: 'version=6&lab=depth&preset=bert-init',
    marks: {
      'bert-init SAN curve': 'attn-first-picture:depth',
      'bert-init fully drawn': 'attn-depth-complete',
      'bert-init worker start': 'attn-depth-worker-start',
    },
  },
  { hash: 'lab=model', marks: { 'model skeleton': 'attn-model-skeleton', 'model first picture': 'attn-first-picture:model' } },
];

/** The marks' start times (ms), or a measure's duration, waiting up to `timeout` ms for each.
 * Runs in the page. */
async function readMarks([names, timeout]) {
  const t0 = performance.now();
  const out = {};
  for (const name of names) {
    for (;;) {
      const measure = performance.getEntriesByName(name, 'measure')[0];
      if (measure) {
        out[name] = measure.duration;
        break;
      }
      const m = performance.getEntriesByName(name, 'mark')[0];
      if (m) {
        out[name] = m.startTime;
        if (out.bytes === undefined) {
          // What was downloaded before the first mark of this opening.
          const nav = performance.getEntriesByType('navigation')[0];
          out.bytes = (nav?.transferSize ?? 0) + performance.getEntriesByType('resource')
            .filter((e) => e.responseEnd <= m.startTime).reduce((sum, e) => sum + e.transferSize, 0);
        }
        break;
      }
      if (performance.now() - t0 > timeout) {
        out[name] = null;
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  return out;
}

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);

let browser;
try {
  browser = await launch();
  const times = {};
  const bytes = {};
  const rowLoads = {};
  const loads = [];
  for (let r = 0; r < rounds; r++) {
    for (const o of OPENINGS) {
      // A fresh context per opening: no module, wasm or HTTP cache shared with the previous one
      // (the model's files come from the server each time, as for a first visit).
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const before = load();
      loads.push(before);
      await page.goto(`${URL_BASE}#${o.hash}`);
      const got = await page.evaluate(readMarks, [Object.values(o.marks), 120_000]);
      for (const [label, mark] of Object.entries(o.marks)) {
        (times[label] ??= []).push(got[mark]);
        (rowLoads[label] ??= []).push(before[0]);
      }
      (bytes[Object.keys(o.marks)[0]] ??= []).push(got.bytes ?? null);
      await context.close();
    }
  }
  const mean = (k) => loads.reduce((s, l) => s + l[k], 0) / loads.length;
  console.log(JSON.stringify({ rounds, load: [mean(0), mean(1), mean(2)], times, bytes, loads: rowLoads }));
} catch (e) {
  console.log(JSON.stringify({ error: String(e && e.message ? e.message : e) }));
} finally {
  await browser?.close();
}
