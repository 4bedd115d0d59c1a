// The model lab's page in headless Chromium for `cargo xtask bench` (docs/bench.md, "The model benchmark"): opens
// `#lab=model` on the served all-MiniLM-L6-v2 with a short text and waits for its analysis (the
// model downloaded and loaded in the page's worker); then, `rounds` times, types the benchmark's
// text into the text box and presses Analyse, and measures from that change to the frame after
// the page shows the new results (the forward, the four variants, every head's similarity matrix
// and statistics, the tiles, the chosen head); between rounds, the short text again, so each
// timed text is new to the worker. The browser tests' helpers (tests/e2e/helpers.mjs:
// playwright-core, Debian's Chromium) and ATTN_URL (the served www/) are used.
// Usage: ATTN_URL=... node model_page.mjs <model id NAME@SHA16> <text file> <rounds>
// Prints one JSON line: { n, rounds, best_ms, median_ms, worker_best_ms, dynamics_best_ms,
// dynamics_worker_best_ms, load } or { error }: the analysis shown (the forward, the four
// variants, the tiles, the statistics), then, apart, the chosen head's particles that the worker
// runs after it (dynamics_*: from the analysis shown to the particles shown, and in the worker);
// load is the median of the 1-minute load averages read just before each timed round.
import { readFileSync } from 'node:fs';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';

const root = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const { launch, openPage } = await import(pathToFileURL(join(root, 'tests/e2e/helpers.mjs')).href);
const [id, textFile, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg ?? 3);
const text = readFileSync(textFile, 'utf8').trimEnd();
const OTHER = 'The quick brown fox jumps over the lazy dog.';

/** Sets the text box to `t`, presses Analyse; resolves with the ms until the frame after the
 * results are shown, and the worker's own ms. Runs in the page. */
function analyseInPage(t) {
  const m = window.__attnModel;
  const before = m.configString();
  const box = document.getElementById('md-text');
  const t0 = performance.now();
  box.value = t;
  box.dispatchEvent(new Event('input', { bubbles: true }));
  document.getElementById('md-run').click();
  return new Promise((done, fail) => {
    const poll = () => {
      const err = document.getElementById('md-error').textContent;
      if (err) return fail(new Error(err));
      if (!m.analysing() && m.result() && m.configString() !== before) {
        // The results are in the DOM; the next frame paints them. Then the head's particles.
        return requestAnimationFrame(() => {
          const ms = performance.now() - t0;
          const dynamics = () => (m.busy() ? requestAnimationFrame(dynamics)
            : done({ ms, worker: m.ms(), n: m.result().n, dynamics: performance.now() - t0 - ms, dynamicsWorker: m.dynamicsMs() }));
          dynamics();
        });
      }
      requestAnimationFrame(poll);
    };
    requestAnimationFrame(poll);
  });
}

let browser;
try {
  browser = await launch();
  const page = await openPage(browser, `lab=model&model=${id}&text=${encodeURIComponent(OTHER)}`, { viewport: { width: 1440, height: 900 } });
  await page.waitForFunction(() => {
    const m = window.__attnModel;
    return m && m.result() && !m.busy();
  }, null, { timeout: 240_000 });
  const ms = [];
  const worker = [];
  const loads = [];
  const dynamics = [];
  const dynamicsWorker = [];
  let n = 0;
  for (let r = 0; r < rounds; r++) {
    loads.push(Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]));
    const got = await page.evaluate(analyseInPage, text);
    ms.push(got.ms);
    worker.push(got.worker);
    dynamics.push(got.dynamics);
    dynamicsWorker.push(got.dynamicsWorker);
    n = got.n;
    await page.evaluate(analyseInPage, OTHER);
  }
  const sorted = [...ms].sort((a, b) => a - b);
  process.stdout.write(`${JSON.stringify({ n, rounds, best_ms: sorted[0], median_ms: sorted[Math.floor(rounds / 2)], worker_best_ms: Math.min(...worker), dynamics_best_ms: Math.min(...dynamics), dynamics_worker_best_ms: Math.min(...dynamicsWorker), load: [...loads].sort((a, b) => a - b)[Math.floor(rounds / 2)] })}\n`);
} catch (e) {
  process.stdout.write(`${JSON.stringify({ error: String(e?.message ?? e) })}\n`);
} finally {
  await browser?.close();
}
